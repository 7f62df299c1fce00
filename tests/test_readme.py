"""The README's examples run as written."""

from __future__ import annotations

import doctest

from tests.conftest import ROOT


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
