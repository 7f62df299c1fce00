"""Profile ids and profile codes: how a player without an account finds their data again.

A profile's **id** is kept in the browser and never shown: 32 random bytes
(``secrets.token_urlsafe``, 256 bits, 43 URL-safe characters).  Its **code** is what a
person types on another device: 16 characters of Crockford's base32 (80 random bits),
shown in four groups, ``7QX2-M9KD-0TZP-4H8R``.  Reading a code forgives what people do:
lower case, dashes, spaces, and the letters Crockford maps to digits (``O`` → ``0``,
``I``/``L`` → ``1``).  80 bits cannot be guessed at the rate the store allows
(see :class:`store.store.CodeLimiter`).

>>> parse_code(" 7qx2 m9kd-0tzp-4h8r ")
'7QX2M9KD0TZP4H8R'
>>> format_code("7QX2M9KD0TZP4H8R")
'7QX2-M9KD-0TZP-4H8R'
"""

from __future__ import annotations

import re
import secrets

from solver.messages import echo

#: Crockford's base32 digits (no I, L, O, U).
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a profile code (5 bits each).
CODE_LENGTH = 16
#: Random bytes of a profile id.
ID_BYTES = 32
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22,64}")
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = re.compile(r"[\s-]+")


class InvalidProfileCode(ValueError):
    """Text that is not a profile code (wrong length or characters)."""


def new_profile_id() -> str:
    """A fresh profile id: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(ID_BYTES)


def is_profile_id(text: object) -> bool:
    """True when ``text`` has the form of a profile id (so a lookup is worth a query)."""
    return isinstance(text, str) and _ID_PATTERN.fullmatch(text) is not None


def new_code() -> str:
    """A fresh profile code, in its stored form (16 characters, no dashes)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def parse_code(text: str) -> str:
    """The stored form of a typed code; :class:`InvalidProfileCode` when it cannot be one."""
    if not isinstance(text, str):
        raise InvalidProfileCode(f"expected a profile code, got {echo(text)}")
    code = _IGNORED.sub("", text).upper().translate(_READ_AS)
    wrong = sorted({c for c in code if c not in ALPHABET})
    if wrong:
        raise InvalidProfileCode(
            f"a profile code has only the digits 0-9 and the letters A-Z without U; {echo(text)} has {' '.join(wrong)}"
        )
    if len(code) != CODE_LENGTH:
        raise InvalidProfileCode(
            f"a profile code has {CODE_LENGTH} characters (XXXX-XXXX-XXXX-XXXX), {echo(text)} has {len(code)}"
        )
    return code


def format_code(code: str) -> str:
    """A stored code as shown to people: four groups of four joined by dashes."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))
