"""A room's secret and everything dealt from it: decks, computer players' seeds, Macao rounds.

A room is dealt from a 256-bit secret drawn with :mod:`secrets` when the room is made and
kept only in the store.  Every random thing the room needs is derived from it by
HMAC-SHA256 under a label naming what it is for (``"mau-binh deck 3"``, ``"macao round
1"``), so each is fixed once the room exists (a room replays exactly from its store row)
and none tells anything about another: without the secret, a hand's cards, a computer's
set or a Macao move say nothing about any other label's output.  No page, download, URL
or log line holds the secret, a label's output or a seed made from one (docs/rooms.md,
"What a member can see").

Practice and Play are solo and keep their shareable seeds (:mod:`solver.table`); a room
uses none of them.

>>> secret = "00" * 32
>>> deck = keyed_shuffle(secret, "mau-binh deck 1", list(range(52)))
>>> sorted(deck) == list(range(52)), deck == keyed_shuffle(secret, "mau-binh deck 1", list(range(52)))
(True, True)
>>> deck == keyed_shuffle(secret, "mau-binh deck 2", list(range(52)))
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Bytes of a room's secret (256 bits).
SECRET_BYTES = 32


def new_secret() -> str:
    """A fresh room secret, as hex."""
    return secrets.token_hex(SECRET_BYTES)


def check_secret(secret: object) -> str:
    """``secret`` as kept in a room's row: 64 hex digits (ValueError otherwise)."""
    if not isinstance(secret, str) or len(secret) != 2 * SECRET_BYTES:
        raise ValueError("a room secret is 64 hex digits")
    bytes.fromhex(secret)
    return secret


def _stream(secret: str, label: str) -> Iterator[int]:
    """An endless stream of 64-bit words: HMAC-SHA256(secret, label || counter), counter 0, 1, ..."""
    key = bytes.fromhex(secret)
    counter = 0
    while True:
        block = hmac.new(key, f"{label}\x00{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, len(block), 8):
            yield int.from_bytes(block[i : i + 8], "big")
        counter += 1


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform whole number in 0 .. bound - 1 (rejection sampling: no modulo bias)."""
    limit = (1 << 64) - (1 << 64) % bound
    while True:
        word = next(words)
        if word < limit:
            return word % bound


def keyed_shuffle(secret: str, label: str, items: Sequence[T]) -> list[T]:
    """``items`` in the order of a Fisher-Yates shuffle drawn from the secret under ``label``."""
    out = list(items)
    words = _stream(secret, label)
    for i in range(len(out) - 1, 0, -1):
        j = _below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def keyed_int(secret: str, label: str) -> int:
    """A 64-bit whole number drawn from the secret under ``label`` (a computer player's seed)."""
    return next(_stream(secret, label))


def keyed_text(secret: str, label: str) -> str:
    """64 hex digits drawn from the secret under ``label`` (a string seed, as Macao takes)."""
    words = _stream(secret, label)
    return "".join(f"{next(words):016x}" for _ in range(4))
