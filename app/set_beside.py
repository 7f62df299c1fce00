"""Your set beside the best set, with the cards that moved ringed: one view for Practice and Play.

Both pages grade a set against the solver's best set and show the two side by side, each
row under its name and hand, the cards that sit in another row in the best set ringed on
both sides.  The view is drawn here once so the two pages cannot drift apart; a page says
only what differs (its element keys, the card size, and whether each row's win chance is
known).  The DOM is the card component's rows (``data-row``, ``data-card``) under the keys
``<key>_mine`` and ``<key>_best``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from app.card_text import sort_for_display
from app.cards import CardRow, card_rows
from app.controls import four_colour
from app.formats import percent
from app.i18n import _
from app.terms import category_label, row_names
from solver.cards import Card
from solver.rules import Rules
from solver.scoring import Arrangement


def moved_cards(mine: Arrangement, best: Arrangement) -> list[Card]:
    """The cards of ``mine`` that sit in another row in ``best``."""
    return [card for i, row in enumerate(mine.rows) for card in row if card not in best.rows[i]]


def set_beside_best(
    mine: Arrangement,
    best: Arrangement,
    rules: Rules,
    *,
    key: str,
    wins: tuple[Sequence[float], Sequence[float]] | None = None,
    small: bool = False,
) -> None:
    """Two columns, "Your set" and "Best set", each row named with its hand (and its chance
    of winning against one opponent when ``wins`` gives them: yours, then the best set's),
    the moved cards ringed and a caption saying what the rings mean."""
    moved = moved_cards(mine, best)
    left, right = st.columns(2)
    sides = (
        (left, _("Your set"), mine, None if wins is None else wins[0], "mine"),
        (right, _("Best set"), best, None if wins is None else wins[1], "best"),
    )
    for column, title, arrangement, chances, name in sides:
        with column:
            st.markdown(f"**{title}**")
            hands = [category_label(k) for k in arrangement.keys(rules)]
            notes = (
                hands
                if chances is None
                else [_("{hand} · wins {percent}").format(hand=h, percent=percent(p)) for h, p in zip(hands, chances)]
            )
            card_rows(
                [
                    CardRow(sort_for_display(row), label, note, moved)
                    for row, label, note in zip(arrangement.rows, row_names(), notes)
                ],
                key=f"{key}_{name}",
                small=small,
                four_colour=four_colour(),
            )
    if moved:
        st.caption(_("Ringed: the cards that sit in a different row in the best set."))
