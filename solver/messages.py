"""How error messages quote what they were given.

Every error that repeats the caller's input (a card token, a hand, an arrangement, a rule
value, a CLI line) goes through :func:`echo`, so a message stays short however long the
input is: at most :data:`ECHO_CHARS` characters of the input are quoted, then ``…``.

>>> echo("x" * 1000) == repr("x" * ECHO_CHARS) + "…"
True
>>> echo("As Kd")
"'As Kd'"
"""

from __future__ import annotations

import reprlib

#: Characters of the input an error message quotes at most.
ECHO_CHARS = 80

_REPR = reprlib.Repr()
_REPR.maxstring = ECHO_CHARS
_REPR.maxother = ECHO_CHARS
_REPR.maxlevel = 2


def echo(value: object) -> str:
    """``repr(value)`` for an error message, cut after ECHO_CHARS characters of the input.

    Text is cut before it is quoted (so escapes cannot blow it up past 4 × ECHO_CHARS);
    other values are summarised by :mod:`reprlib` and cut the same way.
    """
    if isinstance(value, str):
        quoted = repr(value[:ECHO_CHARS])
        return quoted + "…" if len(value) > ECHO_CHARS else quoted
    quoted = _REPR.repr(value)
    return quoted if len(quoted) <= ECHO_CHARS else quoted[:ECHO_CHARS] + "…"


def shorten(text: str) -> str:
    """Text quoted without repr (e.g. a list of card names), cut the same way as :func:`echo`."""
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


__all__ = ["ECHO_CHARS", "echo", "shorten"]
