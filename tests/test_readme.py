"""The README's examples run as written."""

from __future__ import annotations

import doctest

from tests.conftest import ROOT


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_is_a_short_guide() -> None:
    """The README is the user's guide (issue 29): at most 300 lines, the rest lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move the details to a page under docs/"
    for command in ("bash scripts/app.sh", "bash scripts/test.sh"):
        assert any(command in line for line in lines[:40]), f"{command} is not among the README's first lines"
