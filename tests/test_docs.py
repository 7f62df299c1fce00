"""The documentation site's examples run as written, as the README's do.

Every ``>>>`` example on every page under docs/ is a doctest (the same flags as
tests/test_readme.py), and so is the griffe extension that renders the API pages'
doctests.  ``mkdocs build --strict`` itself runs in scripts/test.sh, after mypy.
"""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_pages_have_examples() -> None:
    """The pages that explain the libraries show them in use (a doctest that never runs proves nothing)."""
    pages = {"rules.md", "solver.md", "web-app.md", "macao-engine.md", "index.md", "api.md"}
    for name in pages:
        text = (DOCS / name).read_text(encoding="utf-8")
        assert doctest.DocTestParser().get_examples(text), f"docs/{name} has no >>> example"


def test_docstrings_extension() -> None:
    path = DOCS / "_griffe" / "docstrings.py"
    spec = importlib.util.spec_from_file_location("docstrings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
    # a block inside an existing fence is left alone, an indented one keeps its indentation
    text = "```python\n>>> 1\n1\n```\n\n  >>> 2\n  2\n\nend"
    assert module.fence_doctests(text) == "```python\n>>> 1\n1\n```\n\n  ```pycon\n  >>> 2\n  2\n  ```\n\nend"
