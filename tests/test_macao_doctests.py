"""Run the examples in the macao docstrings (the default pytest run only collects tests/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["macao", "macao.rules", "macao.actions", "macao.state", "macao.bots", "macao.simulate", "macao.match"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
