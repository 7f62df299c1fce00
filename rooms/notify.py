"""Room versions pushed to the pages watching a room, within a process and across processes.

Every action that changes a room raises its ``version`` (:mod:`rooms.service`).  A
:class:`VersionWatch` tells the callbacks subscribed to a room each new version and the
seat whose action made it (None when no seat acted, or when only a version check found
it), and nothing else: no card, not even which action it was.  The push endpoint uses the
seat only to tell that seat's own page the change is its own, so that the page does not
ask for a second rerun of what its action's rerun is already drawing.  It learns of a new
version three ways:

* **in this process**: :func:`published` is called by :class:`rooms.service.Rooms` right
  after the transaction that raised the version commits, and reaches every watch of the
  process at once;
* **from other processes on PostgreSQL**: the same transaction sends ``NOTIFY`` on
  :data:`CHANNEL` (delivered when it commits) and the watch's thread ``LISTEN``\\ s;
* **by a version check**, for SQLite (which has no notifications) and as a safety net on
  PostgreSQL: the watch's thread reads the versions of the rooms it watches, all in one
  query, every :attr:`VersionWatch.interval` seconds (0.05 s on SQLite, 2 s on
  PostgreSQL).

Callbacks run on the watch's thread (or the publishing thread); they must be quick and
thread-safe (the push endpoint hands the version to its event loop and returns).
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from store import Store
from store.schema import rooms

#: The PostgreSQL channel a room's new version is announced on, as ``"<code> <version>"``
#: or ``"<code> <version> <seat that acted>"``.
CHANNEL = "mau_binh_rooms"
#: Seconds between version checks: SQLite has no notifications, PostgreSQL has LISTEN.
SQLITE_INTERVAL = 0.05
POSTGRES_INTERVAL = 2.0

Callback = Callable[[int, int | None], None]  # (version, the seat that acted or None)
_log = logging.getLogger("mau_binh.rooms")
_WATCHES: weakref.WeakSet[VersionWatch] = weakref.WeakSet()


def is_postgres(store: Store) -> bool:
    return store.engine.dialect.name == "postgresql"


def announce(connection: sa.Connection, code: str, version: int, by: int | None = None) -> None:
    """Inside a transaction that set ``code``'s version (by seat ``by``'s action): tell the
    other processes when it commits (PostgreSQL ``NOTIFY``; nothing on SQLite, whose watches
    check versions)."""
    if connection.dialect.name == "postgresql":
        payload = f"{code} {version}" if by is None else f"{code} {version} {by}"
        connection.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))


def published(code: str, version: int, by: int | None = None) -> None:
    """``code`` reached ``version`` by seat ``by``'s action (its transaction committed): tell
    this process's watches."""
    for watch in list(_WATCHES):
        watch.saw(code, version, by)


class VersionWatch:
    """The room versions of one store, for the callbacks subscribed to each room."""

    def __init__(self, store: Store, interval: float | None = None) -> None:
        self.store = store
        self.postgres = is_postgres(store)
        self.interval = interval if interval is not None else POSTGRES_INTERVAL if self.postgres else SQLITE_INTERVAL
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Callback]] = {}
        self._versions: dict[str, int] = {}
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        _WATCHES.add(self)

    def subscribe(self, code: str, callback: Callback) -> Callable[[], None]:
        """Call ``callback(version, by)`` with each new version of room ``code`` and the seat
        whose action made it; returns the function that ends the subscription."""
        with self._lock:
            self._subscribers.setdefault(code, set()).add(callback)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="room-versions", daemon=True)
                self._thread.start()

        def unsubscribe() -> None:
            with self._lock:
                left = self._subscribers.get(code, set())
                left.discard(callback)
                if not left:
                    self._subscribers.pop(code, None)
                    self._versions.pop(code, None)

        return unsubscribe

    def saw(self, code: str, version: int, by: int | None = None) -> None:
        """Room ``code`` is at ``version`` (made by seat ``by``): tell its subscribers if that is news."""
        with self._lock:
            if code not in self._subscribers or version <= self._versions.get(code, 0):
                return
            self._versions[code] = version
            callbacks = list(self._subscribers[code])
        for callback in callbacks:
            try:
                callback(version, by)
            except Exception:  # one page's broken connection must not stop the others
                _log.exception("a room version subscriber failed")

    def check(self) -> None:
        """Read the versions of every room watched, in one query, and pass them on."""
        with self._lock:
            codes = list(self._subscribers)
        if not codes:
            return
        with self.store.read() as connection:
            found = connection.execute(sa.select(rooms.c.code, rooms.c.version).where(rooms.c.code.in_(codes))).all()
        for code, version in found:
            self.saw(code, int(version))

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                if self.postgres:
                    self._listen()
                else:
                    self.check()
                    self._stopped.wait(self.interval)
            except Exception:  # the database went away for a moment: pages fall back to polling
                _log.exception("watching room versions failed; trying again")
                self._stopped.wait(1.0)

    def _listen(self) -> None:
        """LISTEN on :data:`CHANNEL` until stopped, checking versions between notifications."""
        raw: Any = self.store.engine.raw_connection()
        try:
            listener = raw.driver_connection
            listener.autocommit = True
            listener.execute(f"LISTEN {CHANNEL}")
            self.check()  # what changed before the LISTEN took hold
            while not self._stopped.is_set():
                for note in listener.notifies(timeout=self.interval):
                    code, version, *by = note.payload.split(" ")
                    self.saw(code, int(version), int(by[0]) if by else None)
                self.check()
        finally:
            raw.invalidate()  # a LISTENing connection does not go back to the pool
