"""Rooms are dealt from a secret, not a seed (see rooms/secret.py and docs/rooms.md).

Until now a room kept a ``seed`` from which every later hand of every seat followed, and its
history download carried it.  Each room now gets a fresh 256-bit ``secret`` in place of its
seed, and the settled hands it keeps lose their ``deal_seed``.  A Mau Binh hand being
arranged keeps its cards (they are stored, not derived), so only the hands after it change.
A Macao round is rebuilt from the room's deal source and its moves, so a round in progress
cannot outlive its seed: the room goes back to its lobby with its seats as they were, and the
host starts a fresh round.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_rooms = sa.table("rooms", sa.column("code", sa.String), sa.column("version", sa.Integer), sa.column("state", sa.JSON))


def _rewrite(change: Callable[[dict[str, Any]], None]) -> None:
    connection = op.get_bind()
    for code, version, state in connection.execute(sa.select(_rooms.c.code, _rooms.c.version, _rooms.c.state)):
        state = dict(state)
        change(state)
        connection.execute(
            _rooms.update().where(_rooms.c.code == code).values(state=state, version=version + 1)
        )  # a new version: open pages redraw from the rewritten room


def _restart_macao_round(state: dict[str, Any]) -> None:
    if state.get("game") == "macao" and state.get("phase") != "lobby":
        state.update(phase="lobby", moves=[], deadline_ms=None)


def _to_secret(state: dict[str, Any]) -> None:
    state.pop("seed", None)
    state["secret"] = secrets.token_hex(32)
    for record in state.get("records", []):
        record["deal_seed"] = None
    _restart_macao_round(state)


def _to_seed(state: dict[str, Any]) -> None:
    state.pop("secret", None)
    state["seed"] = random.SystemRandom().randrange(1_000_000_000)
    for record in state.get("records", []):
        record["deal_seed"] = 0  # the old format needs a number; the real one is not known
    _restart_macao_round(state)


def upgrade() -> None:
    _rewrite(_to_secret)


def downgrade() -> None:
    _rewrite(_to_seed)
