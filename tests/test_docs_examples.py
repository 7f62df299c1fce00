"""The examples of docs/*.md run as doctests: every ```pycon block of a page, in order,
sharing one namespace (a page reads as one session)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)
PAGES = sorted(path for path in DOCS.glob("*.md") if BLOCK.search(path.read_text(encoding="utf-8")))


def test_the_api_page_has_examples() -> None:
    assert DOCS / "api.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
def test_page_examples(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    examples = 0
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start(1))
        test = parser.get_doctest(match.group(1), globs, f"{page.name}:{line + 1}", str(page), line)
        examples += len(test.examples)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs on a copy of the namespace it is given
    result = runner.summarize(verbose=False)
    assert examples > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (output above)"
