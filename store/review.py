"""Review scheduling of a player's own mistakes, with FSRS (the ``fsrs`` package).

A hand set as a mistake, a blunder or a foul becomes a review item: an FSRS card first
answered "Again" when it was played, so it comes back after the first learning step.
Each later answer is the grade of the hand set again, mapped to an FSRS rating:

=============================  ==========
grade                          rating
=============================  ==========
best                           Easy
good                           Good
inaccuracy                     Hard
mistake, blunder, foul         Again
=============================  ==========

The scheduler is FSRS-6 with its default weights and 90 % desired retention; one learning
and one relearning step of 10 minutes (a hand seen a minute ago is still remembered, not
learned), and no interval fuzzing (fuzz draws from the global random generator, and every
schedule here replays exactly from the answers and their times).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fsrs import Card, Rating, Scheduler

#: FSRS rating of each grade of a set.
RATING_OF_GRADE = {
    "best": Rating.Easy,
    "good": Rating.Good,
    "inaccuracy": Rating.Hard,
    "mistake": Rating.Again,
    "blunder": Rating.Again,
    "foul": Rating.Again,
}
#: The learning step (and the relearning step after a lapse).
STEP = timedelta(minutes=10)

SCHEDULER = Scheduler(learning_steps=(STEP,), relearning_steps=(STEP,), enable_fuzzing=False)


def first_card(when: datetime) -> Card:
    """The card of a hand just set badly: new, then answered "Again" at ``when``."""
    card = Card(card_id=0, due=when)
    return answer(card, "mistake", when)


def answer(card: Card, grade: str, when: datetime) -> Card:
    """The card after the hand was set again at ``when`` with ``grade``."""
    return SCHEDULER.review_card(card, RATING_OF_GRADE[grade], review_datetime=when)[0]


def card_from_json(data: dict[str, Any]) -> Card:
    return Card.from_dict(data)  # type: ignore[arg-type]


def card_to_json(card: Card) -> dict[str, Any]:
    return dict(card.to_dict())
