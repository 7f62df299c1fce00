"""Run the examples in the store's docstrings (the default pytest run only collects tests/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["store.codes", "store.records"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
