"""Build the Cython core of the Mau Binh solver (``solver/_core.pyx``).

Set ``MAU_BINH_CYTHON_CHECKS=1`` to compile with bounds and wrap-around checks back on
(the source header turns them off for speed).
"""

from __future__ import annotations

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

checks = os.environ.get("MAU_BINH_CYTHON_CHECKS") == "1"
directives = {"language_level": "3"}
if checks:
    directives.update(boundscheck=True, wraparound=True, initializedcheck=True)

extensions = [
    Extension(
        "solver._core",
        ["solver/_core.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, quiet=True))
