"""AppTest checks of the Progress contract and of the recording of every hand.

Each test runs the app against its own data folder (``MAU_BINH_DATA_DIR``).  The contract:
the Progress page is in the navigation; one element carries ``data-practice-hands`` (the
profile's recorded Practice submissions) and ``data-review-queue`` (its review queue, due
or not); the profile code is in ``data-profile-code``; a fresh profile shows 0; every
submission counts, across a new session of the same profile (a reload); a set graded
mistake or worse raises the queue by one; a queued hand comes back as "Review (N due)"
and is graded again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import solver
from store import database_url, get_store

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
FOUL_HAND = "Ah Ad Ac Qc Jd 9s 8d 7c 6s 5h 4h 3d 2c"
FOUL_ROWS = [["Ah", "Ad", "Ac"], ["2c", "3d", "4h", "6s", "7c"], ["9s", "Jd", "Qc", "5h", "8d"]]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder of the test's own (the store opens one database per folder)."""
    monkeypatch.setenv("MAU_BINH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("MAU_BINH_DATABASE_URL", raising=False)
    url = database_url()  # the test's own database (a test may point the app elsewhere)
    yield tmp_path
    get_store(url).close()


def new_app(profile_id: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    if profile_id is not None:
        at.session_state["profile_id"] = profile_id
    at.run()
    assert not at.exception, at.exception
    return at


def contract(at: AppTest) -> dict[str, str]:
    """The data attributes of the Progress page's elements."""
    at.switch_page("app/pages/progress.py").run()
    assert not at.exception, at.exception
    found: dict[str, str] = {}
    for element in at.get("html"):
        found.update(re.findall(r'(data-[a-z-]+)="([^"]*)"', element.proto.body))
    return found


def deal(at: AppTest, seed: str) -> None:
    at.switch_page("app/pages/practice.py").run()
    at.text_input(key="practice_seed").input(seed).run()
    at.button(key="practice_deal_button").click().run()


def submit(at: AppTest, rows: list[list[str]] | None = None) -> dict[str, object]:
    """Submit the hand on the page (as dealt, or with ``rows``); returns the result."""
    if rows is not None:
        at.session_state["practice_rows"] = rows
        at.run()
    at.button(key="practice_submit_button").click().run()
    assert not at.exception, at.exception
    return at.session_state["practice_result"]  # type: ignore[no-any-return]


def submit_foul(at: AppTest) -> None:
    at.switch_page("app/pages/practice.py").run()
    if "practice_result" in at.session_state:
        del at.session_state["practice_result"]
    at.session_state["practice_deal"] = {"seed": 0, "number": 1, "kind": "Random", "hand": FOUL_HAND, "note": ""}
    at.run()
    assert submit(at, FOUL_ROWS)["grade"] == "foul"


def test_progress_is_in_the_navigation_and_a_fresh_profile_has_nothing() -> None:
    at = new_app()
    found = contract(at)
    assert found["data-practice-hands"] == "0"
    assert found["data-review-queue"] == "0"
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", found["data-profile-code"])
    assert "Progress" in [t.value for t in at.title]
    assert at.text_input(key="profile_code_input").label == "Profile code"
    assert "Use this profile" in [b.label for b in at.button]
    # another session without the profile id (a new browser) is another profile
    other = contract(new_app())
    assert other["data-profile-code"] != found["data-profile-code"]


def test_every_submission_is_counted_and_survives_a_new_session() -> None:
    at = new_app()
    deal(at, "11")
    for _ in range(3):
        submit(at)
        at.button(key="practice_next").click().run()
    assert contract(at)["data-practice-hands"] == "3"
    profile_id = at.session_state["profile_id"]
    stored = get_store().practice_records(profile_id)
    assert len(stored) == 3
    assert [r.number for r in reversed(stored)] == [1, 2, 3]
    assert all(r.seed == 11 and r.kind == "Random" and r.seconds >= 0 for r in stored)
    # a reload is a new session of the same profile: the statistics still count the 3 hands
    again = new_app(profile_id)
    again.switch_page("app/pages/practice.py").run()
    assert [m.value for m in again.metric if m.label == "Hands"] == ["3"]
    assert contract(again)["data-practice-hands"] == "3"
    # "Reset statistics" starts Practice's statistics afresh; the record keeps every hand
    again.switch_page("app/pages/practice.py").run()
    again.button(key="practice_reset").click().run()
    assert not [m for m in again.metric if m.label == "Hands"]
    assert contract(again)["data-practice-hands"] == "3"


def test_a_mistake_or_worse_enters_the_review_queue_and_the_best_set_does_not() -> None:
    at = new_app()
    deal(at, "7")
    hand = at.session_state["practice_deal"]["hand"]
    best = solver.solve(hand, players=4, seed=2024).best
    assert submit(at, [[str(c) for c in row] for row in best.rows])["grade"] == "best"
    assert contract(at)["data-review-queue"] == "0"
    submit_foul(at)
    found = contract(at)
    assert (found["data-practice-hands"], found["data-review-queue"]) == ("2", "1")
    # the page's other parts: the chart, the leaks (the foul's theme), the past hands as cards
    assert len(at.get("vega_lite_chart")) >= 1
    (leaks,) = at.dataframe
    assert "Foul" in list(leaks.value["Theme"])
    cards = [e for e in at.get("bidi_component") if e.key and e.key.startswith("progress_hand_")]
    assert len(cards) == 2
    newest = json.loads(cards[0].proto.json)
    assert newest["rows"][0]["cards"] == ["Ah", "Ad", "Ac"]  # the front row of the foul
    links = "\n".join(c.value for c in at.caption)
    assert "solve?hand=" in links and "practice?seed=7" in links


def test_a_due_hand_is_reviewed_and_graded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    at = new_app()
    submit_foul(at)
    profile_id = at.session_state["profile_id"]
    at.switch_page("app/pages/practice.py").run()
    assert not [b for b in at.button if b.key == "practice_review_button"]  # due in 10 minutes, not now

    later = datetime.now(timezone.utc) + timedelta(hours=1)
    monkeypatch.setattr("store.store.utc_now", lambda: later)
    at.run()
    review = at.button(key="practice_review_button")
    assert review.label == "Review (1 due)"
    review.click().run()
    dealt = at.session_state["practice_deal"]
    assert dealt["kind"] == "Review" and sorted(dealt["hand"].split()) == sorted(FOUL_HAND.split())
    assert "seed" not in at.query_params
    best = solver.solve(FOUL_HAND, players=4, seed=2024).best
    assert submit(at, [[str(c) for c in row] for row in best.rows])["grade"] == "best"

    (item,) = get_store().review_due(profile_id, now=later + timedelta(days=400))
    assert (item.reviews, item.last_grade) == (1, "best")
    assert item.due > later  # answered: no longer due now
    assert get_store().review_count(profile_id, now=later) == (0, 1)
    records = get_store().practice_records(profile_id)
    assert [r.kind for r in records] == ["Review", "Random"]
    found = contract(at)
    assert (found["data-practice-hands"], found["data-review-queue"]) == ("2", "1")


def test_a_revealed_play_hand_is_recorded_with_every_seat_and_shown_on_progress() -> None:
    at = new_app()
    at.switch_page("app/pages/play.py").run()
    at.button(key="play_reveal_button").click().run()
    assert not at.exception, at.exception
    (shown,) = at.session_state["play_records"]
    (stored,) = get_store().play_records(at.session_state["profile_id"])
    assert stored.players == shown.players == len(stored.seats)
    assert [s.played for s in stored.seats] == [str(shown.arrangement(i)) for i in range(shown.players)]
    assert [sorted(s.hand.split()) for s in stored.seats] == [sorted(h.split()) for h in shown.hands]
    assert stored.my_net == shown.totals[0]
    assert stored.settlement["totals"] == list(shown.totals)
    assert stored.grade == shown.extra["review"]["grade"]
    assert stored.session == str(at.session_state["play_config"].seed) and stored.hand_number == 1
    contract(at)
    assert any("1 hand played" in c.value for c in at.caption)


def test_a_finished_macao_round_is_recorded() -> None:
    at = new_app()
    at.switch_page("app/pages/macao_round.py")
    at.session_state["macao_seed"] = 1
    at.session_state["macao_speed"] = "Instant"
    at.session_state["macao_deck_order"] = "5H KS 6H KC 8H QS 9H QC TH JS 5C QD KD JD JC"
    at.session_state["macao_first_player"] = 0
    at.run()
    at.button(key="macao_new").click().run()
    for card in ("5h", "6h", "8h", "9h", "Th"):
        if card == "9h":
            at.button(key="macao_call").click().run()
        view = next(e for e in at.get("bidi_component") if e.key == "macao_table")
        data = json.loads(view.proto.json)
        i = data["hand"].index(card)
        at.session_state["macao_event"] = {"kind": "action", "action_id": data["one_tap"][i], "move": data["move"]}
        at.run()
        assert not at.exception, at.exception
    (stored,) = get_store().macao_records(at.session_state["profile_id"])
    assert (stored.players, stored.my_place, stored.seed) == (2, 1, 1)
    assert stored.result["placings"] == [1, 2] and stored.result["end"] == "finish"
    assert stored.options["decks"] == 1 and stored.options["seed"] == "1:1"
    assert stored.turns == at.session_state["macao_game"]["state"].moves


def test_submissions_move_the_rating_shown_on_progress() -> None:
    from app import recording

    at = new_app()
    deal(at, "21")
    for _ in range(2):
        submit(at)
        at.button(key="practice_next").click().run()
    rated = recording.rating(get_store(), at.session_state["profile_id"])
    assert rated is not None
    rating, hands, history = rated
    assert hands == 2 and len(history) == 2 and rating.deviation < 350
    contract(at)
    assert [m.value for m in at.metric if m.label == "Your rating"] == [str(round(rating.rating))]


def test_the_daily_hand_is_the_same_for_everyone_and_recorded_as_daily() -> None:
    from trainer import drills

    first, second = new_app(), new_app()
    for at in (first, second):
        at.switch_page("app/pages/practice.py").run()
        at.button(key="practice_daily").click().run()
        assert not at.exception, at.exception
    today = datetime.now(timezone.utc).date()  # AppTest's browser has no time zone: UTC
    hand = first.session_state["practice_deal"]["hand"]
    assert hand == second.session_state["practice_deal"]["hand"]
    assert sorted(hand.split()) == sorted(str(c) for c in drills.daily_hand(today))
    assert first.query_params["kind"] == "daily"
    assert first.query_params["seed"] == str(drills.daily_seed(today))
    submit(first)
    (record,) = get_store().practice_records(first.session_state["profile_id"])
    assert record.kind == "Daily"


def test_a_theme_drill_deals_the_drill_hand_and_records_its_theme() -> None:
    from trainer import drills

    at = new_app()
    at.switch_page("app/pages/practice.py").run()
    at.segmented_control(key="practice_kind").set_value("Theme").run()
    at.selectbox(key="practice_theme").set_value("broken-straight").run()
    at.text_input(key="practice_seed").input("5").run()
    at.button(key="practice_deal_button").click().run()
    assert not at.exception, at.exception
    expected = drills.themed_deal("broken-straight", 5, 1, "vietnamese", 4)
    assert sorted(at.session_state["practice_deal"]["hand"].split()) == sorted(str(c) for c in expected)
    assert at.query_params["kind"] == "theme:broken-straight"
    submit(at)
    (record,) = get_store().practice_records(at.session_state["profile_id"])
    assert (record.kind, record.seed, record.number) == ("Theme:broken-straight", 5, 1)


def test_without_a_store_practice_still_grades_and_progress_says_nothing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "mau-binh.sqlite3").write_text("not a database", encoding="utf-8")
    monkeypatch.setenv("MAU_BINH_DATA_DIR", str(broken))
    at = new_app()
    deal(at, "5")
    assert submit(at)["grade"]  # graded and shown, though nothing can be kept
    assert not [m for m in at.metric if m.label == "Hands"]
    assert contract(at) == {}
    assert "cannot be saved" in " ".join(w.value for w in at.warning)
    assert (broken / "mau-binh.sqlite3").read_text(encoding="utf-8") == "not a database"


def test_links_reopen_theme_drill_and_daily_hands() -> None:
    from trainer import drills

    theme = AppTest.from_file(APP, default_timeout=90)
    theme.query_params.update({"seed": "5", "kind": "theme:broken-straight"})
    theme.run()
    theme.switch_page("app/pages/practice.py").run()
    assert not theme.exception, theme.exception
    dealt = theme.session_state["practice_deal"]
    assert (dealt["kind"], dealt["theme"], dealt["seed"]) == ("Theme", "broken-straight", 5)
    expected = drills.themed_deal("broken-straight", 5, 1, "vietnamese", 4)
    assert sorted(dealt["hand"].split()) == sorted(str(c) for c in expected)

    seed = drills.daily_seed("2026-03-01")
    daily = AppTest.from_file(APP, default_timeout=90)
    daily.query_params.update({"seed": str(seed), "kind": "daily"})
    daily.run()
    daily.switch_page("app/pages/practice.py").run()
    dealt = daily.session_state["practice_deal"]
    assert (dealt["kind"], dealt["seed"]) == ("Daily", seed)
    assert sorted(dealt["hand"].split()) == sorted(str(c) for c in drills.daily_hand("2026-03-01"))
