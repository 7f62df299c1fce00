"""Run the examples in the libraries' docstrings: every module of macao, store and trainer
(the default pytest run collects only tests/, and solver's examples run in its own tests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("macao", "store", "trainer")
#: Modules whose docstrings must show the library in use (a doctest that never runs proves nothing).
WITH_EXAMPLES = {
    "macao", "macao.rules", "macao.actions", "macao.state", "macao.bots", "macao.simulate", "macao.match",
    "store.codes", "store.records",
    "trainer.ev_parts", "trainer.themes", "trainer.drills", "trainer.rating", "trainer.progress",
}  # fmt: skip


def modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.walk_packages(path, f"{package}.") if ".migrations" not in info.name]
    return sorted(names)


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} has no docstring example"


def test_every_module_named_to_have_examples_exists() -> None:
    assert set(modules()) >= WITH_EXAMPLES
