"""A griffe extension: the package's docstrings, written for Sphinx and doctest, read as Markdown.

The docstrings are plain text with doctests (``pytest --doctest-modules`` runs them) and a few
reStructuredText habits.  mkdocstrings renders a docstring as Markdown, where a bare
``>>> parse_cards(...)`` line would run into the paragraph, an output such as ``['Kd', 'Tc']``
would read as a link, a role such as ``:func:`solve``` would show its colons and a literal
block's ``::`` would stay doubled.  This extension rewrites each docstring before it is
rendered: every doctest block (a ``>>>`` line through the next blank line) goes into a fenced
``pycon`` block, so the API pages show the examples exactly as the tests run them; a role
becomes a code span of its target (``~`` keeps the last name, as Sphinx does); a paragraph's
closing ``::`` becomes ``:`` (the indented block after it is already a Markdown code block).
mkdocs.yml loads it by path; the docs build is its only user.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|data|meth|attr|mod|type|obj|exc|const):`(~?)([^`<]*?)\s*(?:<([^`>]+)>)?`")


def role_span(match: re.Match[str]) -> str:
    """The code span a Sphinx role stands for: its title, or its target (``~``: the last name)."""
    tilde, text, target = match.groups()
    if target:  # :func:`title <target>`
        return f"`{text}`"
    return f"`{text.rsplit('.', 1)[-1] if tilde else text}`"


def markdown(text: str) -> str:
    r"""The docstring ``text`` as Markdown: roles as code spans, ``::`` as ``:``, doctests fenced.

    >>> markdown("Uses :func:`~solver.solve` and :mod:`solver.tables`::\n\n    x = 1").splitlines()
    ['Uses `solve` and `solver.tables`:', '', '    x = 1']
    """
    text = ROLE.sub(role_span, text)
    text = re.sub(r"(?<=\S)::$", ":", text, flags=re.MULTILINE)
    return fence_doctests(text)


def fence_doctests(text: str) -> str:
    r"""Wrap every doctest block of ``text`` in a fenced code block at the block's indentation.

    >>> fence_doctests("Parse:\n\n>>> 1 + 1\n2\n\nDone.").splitlines()
    ['Parse:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    lines = text.splitlines()
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class SphinxDocstringsAsMarkdown(griffe.Extension):
    """Rewrite every docstring griffe loads with :func:`markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
