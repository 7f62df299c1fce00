"""How many wrong codes may be tried: one limit for every app process on the database.

Looking up a profile code or a room code by what someone typed is limited: past ``limit``
wrong codes of one kind in the last ``window`` seconds, every lookup of that kind is
refused until the oldest of them is ``window`` seconds old.  The failures are rows of
``code_failures`` (kind, time), so the limit holds across all the app processes serving
the same database, not per process.  A wrong code costs one insert; a check is one count
over an index.  Rows older than the window are deleted as new ones come.

A code has 50 (room) or 80 (profile) random bits, so guessing one is hopeless even
without the limit; it keeps a script from trying, and it is shared by everyone (a script
hammering wrong codes holds up everyone's lookups for a minute, never anyone's seat or
profile already held).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

import sqlalchemy as sa

from .schema import code_failures


class Transactions(Protocol):
    """What the limit needs of a store: a read and a write transaction."""

    def read(self) -> AbstractContextManager[sa.Connection]: ...

    def write(self) -> AbstractContextManager[sa.Connection]: ...


def now_ms() -> int:
    """The wall clock in milliseconds (the limit's default clock)."""
    return int(time.time() * 1000)


class TooManyAttempts(ValueError):
    """Lookups of one kind of code refused for a while: too many wrong codes were tried."""


class FailureLimit:
    """At most ``limit`` failures of ``kind`` in any sliding ``window`` seconds, in the database."""

    def __init__(
        self, store: Transactions, kind: str, limit: int, clock: Callable[[], int], window: float = 60.0,
        refusal: type[TooManyAttempts] = TooManyAttempts, what: str = "codes",
    ) -> None:  # fmt: skip
        self.store = store
        self.kind = kind
        self.limit = limit
        self.clock = clock
        self.window_ms = int(window * 1000)
        self.refusal = refusal
        self.what = what

    def check(self) -> None:
        """Raise ``refusal`` while the limit is reached."""
        since = self.clock() - self.window_ms
        with self.store.read() as connection:
            recent = connection.execute(
                sa.select(code_failures.c.at_ms)
                .where(code_failures.c.kind == self.kind, code_failures.c.at_ms > since)
                .order_by(code_failures.c.at_ms.desc())
                .limit(self.limit)
            ).all()
        if len(recent) >= self.limit:
            oldest_counted = recent[-1].at_ms
            wait = max(1, round((oldest_counted + self.window_ms - self.clock()) / 1000))
            raise self.refusal(f"too many wrong {self.what} were tried; try again in {wait} s")

    def fail(self) -> None:
        """Count one wrong code (and forget the ones older than the window)."""
        now = self.clock()
        with self.store.write() as connection:
            connection.execute(code_failures.insert().values(kind=self.kind, at_ms=now))
            connection.execute(
                code_failures.delete().where(code_failures.c.kind == self.kind,
                                             code_failures.c.at_ms <= now - self.window_ms)
            )  # fmt: skip
