"""Macao rooms play matches of rounds, and "Macao!" is each person's own call.

A Macao room's state gains the match (see rooms/macao_room.py and docs/rooms.md): its
settings say how many ``rounds`` the match has (1, 3, 5 or 7), and the room keeps the round
on the table (``round``), the rounds before it (``earlier``: each one's moves and placings)
and the end of a call window (``call_window_ms``).  A move may now be a call, stored as
``-1 - caller``.  Every room made before this was a single round, so it becomes a match of
1 round on its round 1, whose moves replay exactly as before (the same deal, the same
indices): a round in progress plays on, a finished one shows as the match's end.

Downgrading keeps what the old shape can hold, a single round: a room past its round 1
shows round 1 as it ended; a round holding a call (which the old code cannot replay) goes
back to the lobby with its seats as they were, as migration 0004 did; the computers waiting
out a call window move on when the old code's turn timer runs out at the window's end.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_rooms = sa.table("rooms", sa.column("code", sa.String), sa.column("version", sa.Integer), sa.column("state", sa.JSON))


def _rewrite(change: Callable[[dict[str, Any]], None]) -> None:
    connection = op.get_bind()
    for code, version, state in connection.execute(sa.select(_rooms.c.code, _rooms.c.version, _rooms.c.state)):
        if state.get("game") != "macao":
            continue
        state = dict(state)
        change(state)
        connection.execute(
            _rooms.update().where(_rooms.c.code == code).values(state=state, version=version + 1)
        )  # a new version: open pages redraw from the rewritten room


def _to_match(state: dict[str, Any]) -> None:
    state["settings"] = {**state["settings"], "rounds": state["settings"].get("rounds", 1)}
    state.setdefault("round", 1)
    state.setdefault("earlier", [])
    state.setdefault("call_window_ms", None)


def _to_single_round(state: dict[str, Any]) -> None:
    earlier = state.pop("earlier", [])
    if state.pop("round", 1) > 1 and earlier:
        state.update(phase="over", moves=list(earlier[0]["moves"]), deadline_ms=None)
    if any(int(m) < 0 for m in state.get("moves", [])):
        state.update(phase="lobby", moves=[], deadline_ms=None)
    window = state.pop("call_window_ms", None)
    if window is not None and state.get("phase") == "playing":
        state["deadline_ms"] = window  # the old code has no call window: its timer moves the computer on
    state["settings"] = {k: v for k, v in state["settings"].items() if k != "rounds"}


def upgrade() -> None:
    _rewrite(_to_match)


def downgrade() -> None:
    _rewrite(_to_single_round)
