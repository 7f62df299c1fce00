"""Room codes, seat tokens and seat names: the secrets and the one piece of text people type.

* A **room code** is 10 characters of Crockford's base 32 (digits and capitals without
  I, L, O, U): 50 random bits from :mod:`secrets`.  People read it off a screen or a QR
  code, so :func:`parse_room_code` accepts lower case, spaces and hyphens, and reads the
  letters people mix up (O as 0, I and L as 1).  A code names a room; it lets anyone who
  has it take a free seat, nothing more.
* A **seat token** is 32 random bytes (256 bits) in URL-safe base 64, handed to the
  browser that took the seat and kept there (session and a cookie), never in a URL.  The
  room keeps only its SHA-256 digest, compared in constant time.
* A **seat name** is plain text: control characters are dropped, runs of spaces become
  one, and at most :data:`NAME_LENGTH` characters are kept.  The page escapes it wherever
  it is shown, so markup in a name is shown as typed and never renders.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from store.limits import TooManyAttempts

#: Crockford's base 32 alphabet.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a room code: 10 x 5 = 50 random bits.
CODE_LENGTH = 10
CODE_BITS = CODE_LENGTH * 5
#: Random bytes in a seat token (256 bits).
TOKEN_BYTES = 32
#: Longest seat name, in characters.
NAME_LENGTH = 24
_CONFUSED = str.maketrans({"O": "0", "I": "1", "L": "1"})


class InvalidRoomCode(ValueError):
    """Text that cannot be a room code."""


class InvalidName(ValueError):
    """A seat name that is empty once cleaned."""


class TooManyRoomAttempts(TooManyAttempts):
    """Room lookups refused for a while: too many wrong codes were tried."""


def new_room_code() -> str:
    """A fresh random room code.

    >>> code = new_room_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def parse_room_code(text: str) -> str:
    """The room code in ``text`` as typed or scanned (InvalidRoomCode otherwise).

    >>> parse_room_code(" 7kq2m-9x0ab ")
    '7KQ2M9X0AB'
    >>> parse_room_code("7KQ2M 9XOAB")
    '7KQ2M9X0AB'
    """
    if not isinstance(text, str):
        raise InvalidRoomCode(f"a room code is text, got {type(text).__name__}")
    cleaned = "".join(ch for ch in text.upper() if ch not in " -\t").translate(_CONFUSED)
    if len(cleaned) != CODE_LENGTH or not set(cleaned) <= set(ALPHABET):
        raise InvalidRoomCode(f"a room code is {CODE_LENGTH} letters and digits, like 7KQ2M-9X0AB; got {text[:40]!r}")
    return cleaned


def format_room_code(code: str) -> str:
    """The code as shown to people: two groups of five.

    >>> format_room_code("7KQ2M9X0AB")
    '7KQ2M-9X0AB'
    """
    return f"{code[:5]}-{code[5:]}"


def new_token() -> str:
    """A fresh seat token (256 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """What a room keeps of a seat token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_digest(a: str, b: str) -> bool:
    """Compare two token digests in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def clean_name(text: str) -> str:
    """A seat name as plain text, at most :data:`NAME_LENGTH` characters; "" when nothing is left.

    >>> clean_name("  <b>Lan</b>\\n  \\x00 ")
    '<b>Lan</b>'
    >>> len(clean_name("x" * 100)) == NAME_LENGTH
    True
    """
    if not isinstance(text, str):
        raise InvalidName(f"a name is text, got {type(text).__name__}")
    kept = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return " ".join(kept.split())[:NAME_LENGTH].strip()
