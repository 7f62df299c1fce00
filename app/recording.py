"""Every hand a player finishes, written to the store for the current profile.

The pages call one function at the moment a hand is committed: Practice when a set is
submitted (:func:`practice`, before the result is shown, so a result on the screen is a
hand in the store), Play when a hand is revealed and settled (:func:`play_hand`), Macao
when a round ends (:func:`macao_round`).  Each is one transaction of the store; each record
carries a uid fixed when the hand was dealt, so a submission that runs twice (a double
click, a rerun) is kept once.  The pages keep their own plain data; this module turns it
into the store's records (:mod:`store.records`), and nothing else.  Without a store (see
:func:`app.profile.available_store`) nothing is recorded and the pages work for the visit.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from app import engine
from app.profile import available_store, current_profile
from solver import strongest_back_first
from solver.table import HandRecord, TableConfig
from store import MacaoRoundRecord, PlayHandRecord, PlaySeat, PracticeRecord, Store
from trainer.rating import Rating, rate_hand

#: The page-state entry (``Store.save_page_state``) that keeps the profile's Practice rating.
RATING_PAGE = "rating"
#: Ratings kept for the Progress page's rating chart (the latest).
RATING_HISTORY = 200


def new_uid() -> str:
    """The uid a hand gets when it is dealt (kept with the deal, given to its record)."""
    return str(uuid.uuid4())


def seconds_since(started: object) -> float:
    """Seconds from ``started`` (a ``time.time()`` kept with the deal) to now; 0 when unknown."""
    return max(0.0, time.time() - started) if isinstance(started, (int, float)) else 0.0


def practice(result: Mapping[str, Any], deal: Mapping[str, Any]) -> int | None:
    """Record a submitted Practice set (``result`` as the page keeps it, ``deal`` the hand
    dealt); a hand dealt from the review queue answers its item in the same transaction."""
    record = PracticeRecord(
        preset=str(result["preset"]),
        players=int(result["players"]),
        field=str(result["field"]),
        hand=str(result["hand"]),
        played=str(result["mine"]),
        best=str(result["best"]),
        ev=float(result["ev"]),
        best_ev=float(result["best_ev"]),
        chi_lost=float(result["lost"]),
        grade=str(result["grade"]),
        seed=deal.get("seed"),
        number=deal.get("number"),
        kind=f"Theme:{deal['theme']}" if deal.get("kind") == "Theme" else str(deal.get("kind", "Random")),
        themes=tuple(result.get("themes") or ()),
        seconds=round(seconds_since(deal.get("dealt_at")), 1),
        hints=int(deal.get("hints", 0)),
        uid=str(deal.get("uid") or new_uid()),
    )
    store = available_store()
    if store is None:  # no database this visit: the page works, nothing is kept (the player was told)
        return None
    profile_id = current_profile().id
    row = store.record_practice(profile_id, record, review_item=deal.get("review_item"))
    rate(store, profile_id, record)
    return row


def rating(store: Store, profile_id: str) -> tuple[Rating, int, list[list[float]]] | None:
    """The profile's Practice rating, the hands it rates and its recent history
    (``[epoch seconds, rating]`` pairs), or None before the first rated hand."""
    saved = store.load_page_state(profile_id, RATING_PAGE)
    if not saved:
        return None
    return (
        Rating(saved["rating"], saved["deviation"], saved["volatility"]),
        int(saved["hands"]),
        [list(point) for point in saved.get("history", [])],
    )


def rate(store: Store, profile_id: str, record: PracticeRecord) -> Rating:
    """Move the profile's rating by one hand (:mod:`trainer.rating`): the hand is as hard
    as the chi the Beginner's set (strongest back first) loses on it, the player scores by
    the chi their set lost.  Kept apart from the record (a second, small write): a crash
    between the two leaves the hand unrated, never a rating without its hand."""
    naive = strongest_back_first(record.hand, record.preset)
    naive_ev = engine.evaluate_set(record.hand, str(naive), record.preset, record.players, "fast", record.field)["ev"]
    before = rating(store, profile_id)
    old, hands, history = before if before else (Rating(), 0, [])
    new = rate_hand(old, max(0.0, record.best_ev - naive_ev), record.chi_lost, record.players)
    history = [*history, [round(record.created_at.timestamp()), round(new.rating, 1)]][-RATING_HISTORY:]
    store.save_page_state(
        profile_id,
        RATING_PAGE,
        {"rating": new.rating, "deviation": new.deviation, "volatility": new.volatility, "hands": hands + 1,
         "history": history},
    )  # fmt: skip
    return new


def play_hand(table: TableConfig, record: HandRecord, hand: Mapping[str, Any]) -> int | None:
    """Record a settled Play hand: every seat's hand and set, the settlement, my net
    (``hand``: the page's dealt hand, with its ``uid``, ``dealt_at`` and ``hints``)."""
    review = record.extra.get("review") or {}
    settlement = {
        "pairs": [list(row) for row in record.pairs],
        "totals": list(record.totals),
        "fouls": list(record.fouls),
        "specials": list(record.specials),
        "scooped": [list(row) for row in record.scooped],
        "sap_lang": list(record.sap_lang),
        "aces": list(record.aces),
        "replay_of": record.replay_of,
        "timed_out": bool(record.extra.get("timed_out")),
    }
    stored = PlayHandRecord(
        session=str(table.seed),
        hand_number=record.number,
        preset=record.preset,
        players=record.players,
        field=table.field,
        seats=tuple(PlaySeat(*seat) for seat in zip(record.seats, record.hands, record.sets)),
        settlement=settlement,
        my_net=float(record.totals[0]),
        levels=table.levels,
        seed=table.seed,
        number=record.number,
        grade=review.get("grade"),
        chi_lost=review.get("lost"),
        seconds=round(seconds_since(hand.get("dealt_at")), 1),
        hints=int(hand.get("hints", 0)),
        uid=str(hand.get("uid") or new_uid()),
    )
    store = available_store()
    return None if store is None else store.record_play_hand(current_profile().id, stored)


def macao_round(
    options: Mapping[str, Any],
    seed: int | None,
    players: int,
    levels: Sequence[str],
    result: Mapping[str, Any],
    my_place: int | None,
    turns: int,
    started: object = None,
) -> int | None:
    """Record a finished Macao round: its options and seed, the table and the result."""
    stored = MacaoRoundRecord(
        options=dict(options),
        seed=seed,
        players=players,
        result=dict(result),
        levels=tuple(levels),
        my_place=my_place,
        turns=turns,
        seconds=round(seconds_since(started), 1),
    )
    store = available_store()
    return None if store is None else store.record_macao_round(current_profile().id, stored)
