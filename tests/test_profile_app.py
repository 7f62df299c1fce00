"""AppTest checks of the anonymous profile and reload-proof pages (app.profile, app.page_state).

A browser reload is a new Streamlit session of the same profile: here, a new ``AppTest``
whose session names the profile (``profile_id``, as the browser's cookie would) and opens
the address the last session left in the URL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from app.card_text import dealt_layout
from app.page_state import PageState, Param
from solver import parse_cards
from store import get_store
from tests.app_support import no_crash

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")




def open_page(page: str, profile: str | None = None, params: dict[str, str] | None = None, **keys: Any) -> AppTest:
    """A new browser session (of ``profile`` when given) opening ``page`` at ``params``."""
    at = AppTest.from_file(APP, default_timeout=90)
    if profile is not None:
        at.session_state["profile_id"] = profile
    for key, value in keys.items():
        at.session_state[key] = value
    at.run()  # the entry page (Solve) first, as a browser opening the app does
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.switch_page(page).run()
    no_crash(at)
    return at


def url(at: AppTest) -> dict[str, str]:
    return {name: at.query_params[name] for name in at.query_params}


def moved(rows: list[list[str]]) -> list[list[str]]:
    """The rows after a swap of the front's first card with the back's first card."""
    front, middle, back = (list(r) for r in rows)
    front[0], back[0] = back[0], front[0]
    return [front, middle, back]


# --- Practice ----------------------------------------------------------------------------------


def test_practice_reload_keeps_the_hand_the_rows_the_drill_and_the_statistics() -> None:
    at = open_page("app/pages/practice.py", params={"seed": "31", "players": "2"})
    profile = at.session_state["profile_id"]
    at.button(key="practice_submit_button").click().run()  # hand 1 scored: statistics 1 hand
    at.button(key="practice_next").click().run()  # hand 2 of drill 31
    rows = moved(at.session_state["practice_rows"])
    at.session_state["practice_rows"] = rows  # as a drag in the editor does
    at.run()
    no_crash(at)
    deal, address = at.session_state["practice_deal"], url(at)
    assert deal["seed"] == 31 and deal["number"] == 2 and address["hand"] == "2"

    again = open_page("app/pages/practice.py", profile, address)
    assert again.session_state["practice_deal"] == deal
    assert again.session_state["practice_rows"] == rows
    assert [m.value for m in again.metric if m.label == "Hands"] == ["1"]  # the statistics are the store's
    assert again.session_state["practice_players"] == 2
    assert url(again) == address
    # the drill goes on from where it was: the next hand is hand 3
    again.button(key="practice_deal_button").click().run()
    assert again.session_state["practice_deal"]["number"] == 3

    # another browser (no cookie: a profile of its own) opening the same link gets hand 2 dealt afresh
    other = open_page("app/pages/practice.py", params=address)
    assert other.session_state["profile_id"] != profile
    assert other.session_state["practice_deal"]["hand"] == deal["hand"]
    assert other.session_state["practice_rows"] != rows
    assert not [m for m in other.metric if m.label == "Hands"]  # no hands recorded for that profile


def test_a_link_to_another_hand_wins_over_the_saved_one() -> None:
    at = open_page("app/pages/practice.py", params={"seed": "40"})
    profile, deal = at.session_state["profile_id"], at.session_state["practice_deal"]
    rows = moved(at.session_state["practice_rows"])
    at.session_state["practice_rows"] = rows
    at.run()
    # the same short link opened again (its rules and players left out) is the hand left here
    same = open_page("app/pages/practice.py", profile, {"seed": "40"})
    assert same.session_state["practice_rows"] == rows
    # a link to hand 2 of the drill, or to the hard hand of that seed, is another hand
    second = open_page("app/pages/practice.py", profile, {"seed": "40", "hand": "2"})
    assert second.session_state["practice_deal"]["number"] == 2
    other = open_page("app/pages/practice.py", profile, {"seed": "41"})
    assert other.session_state["practice_deal"]["seed"] == 41
    assert other.session_state["practice_deal"]["hand"] != deal["hand"]
    # the plain page (no link) shows what the profile left there last
    plain = open_page("app/pages/practice.py", profile)
    assert plain.session_state["practice_deal"]["seed"] == 41
    assert url(plain)["seed"] == "41"


# --- Play ------------------------------------------------------------------------------------


def test_play_reload_keeps_the_session_balance_history_and_the_hand_in_play() -> None:
    at = open_page("app/pages/play.py", params={"seed": "777", "players": "2", "levels": "beginner"})
    profile = at.session_state["profile_id"]
    at.button(key="play_reveal_button").click().run()
    at.button(key="play_next").click().run()
    dealt = dealt_layout(parse_cards(at.session_state["play_hand"]["hands"][0]))
    rows = moved([[str(c) for c in row] for row in dealt])
    at.session_state["play_rows"] = rows  # as a drag in the editor does
    at.run()
    no_crash(at)
    records, hand = at.session_state["play_records"], at.session_state["play_hand"]
    balance = [m.value for m in at.metric if m.label == "Your balance"]
    assert len(records) == 1 and hand["number"] == 2 and balance

    again = open_page("app/pages/play.py", profile, url(at))
    assert again.session_state["play_config"] == at.session_state["play_config"]
    assert again.session_state["play_records"] == records
    assert again.session_state["play_hand"] == hand
    assert again.session_state["play_rows"] == rows
    assert [m.value for m in again.metric if m.label == "Your balance"] == balance
    # and it plays on: the reveal settles hand 2 of the same session
    again.button(key="play_reveal_button").click().run()
    no_crash(again)
    assert [r.number for r in again.session_state["play_records"]] == [1, 2]


# --- Macao -----------------------------------------------------------------------------------


def test_macao_reload_keeps_the_round_in_progress_and_the_options() -> None:
    at = open_page("app/pages/macao_round.py", macao_seed=5, macao_speed="Instant", macao_players=3)
    profile = at.session_state["profile_id"]
    at.button(key="macao_new").click().run()
    no_crash(at)
    game = at.session_state["macao_game"]
    assert game["state"].moves >= 0 and game["state"].rules.players == 3

    again = open_page("app/pages/macao_round.py", profile)
    back = again.session_state["macao_game"]
    assert back["state"] == game["state"]
    assert back["levels"] == game["levels"] and back["round"] == game["round"]
    assert [r.random() for r in back["rngs"]] == [r.random() for r in game["rngs"]]
    assert again.session_state["macao_players"] == 3
    assert again.session_state["macao_seed"] == 5
    assert again.session_state["macao_round_no"] == 1


# --- the profile -----------------------------------------------------------------------------


def test_a_new_browser_gets_a_fresh_profile_and_sees_nothing_of_another() -> None:
    first = open_page("app/pages/practice.py", params={"seed": "55"})
    second = open_page("app/pages/practice.py")
    assert second.session_state["profile_id"] != first.session_state["profile_id"]
    assert "practice_deal" not in second.session_state
    ids = {first.session_state["profile_id"], second.session_state["profile_id"]}
    assert all(len(i) >= 22 for i in ids)  # 128 bits or more, URL-safe base64
    for at in (first, second):  # the id is never in the address
        assert not any(i in value for i in ids for value in url(at).values())


def test_the_profile_code_opens_the_same_profile_in_another_browser() -> None:
    home = open_page("app/pages/practice.py", params={"seed": "66"})
    profile = home.session_state["profile_id"]
    code = get_store().profile(profile).code  # type: ignore[union-attr]
    home.switch_page("app/pages/profile.py").run()
    assert code in [c.value for c in home.code]
    assert profile not in json.dumps([str(e.value) for e in (*home.code, *home.markdown, *home.caption)])

    away = open_page("app/pages/profile.py")
    assert away.session_state["profile_id"] != profile
    away.text_input(key="profile_code_input").input("ZZZZ-ZZZZ-ZZZZ-ZZZZ").run()
    away.button(key="profile_use_code").click().run()
    assert any("No profile has the code" in str(e.value) for e in away.error)
    away.text_input(key="profile_code_input").input("not a code").run()
    away.button(key="profile_use_code").click().run()
    assert any("cannot be used" in str(e.value) for e in away.error)
    assert away.session_state["profile_id"] != profile

    away.text_input(key="profile_code_input").input(code.lower().replace("-", " ")).run()
    away.button(key="profile_use_code").click().run()
    no_crash(away)
    assert away.session_state["profile_id"] == profile
    away.switch_page("app/pages/practice.py").run()
    assert away.session_state["practice_deal"]["seed"] == 66


def test_export_import_and_delete() -> None:
    home = open_page("app/pages/practice.py", params={"seed": "77"})
    profile = home.session_state["profile_id"]
    exported = get_store().export_profile(profile)
    assert exported["page_states"]["practice"]["practice_deal"]["seed"] == 77
    assert profile not in json.dumps(exported)  # the file names no id

    elsewhere = open_page("app/pages/profile.py")
    fresh = elsewhere.session_state["profile_id"]
    get_store().import_profile(fresh, json.dumps(exported))
    assert get_store().load_page_state(fresh, "practice")["practice_deal"]["seed"] == 77  # type: ignore[index]

    home.switch_page("app/pages/profile.py").run()
    home.checkbox(key="profile_delete_confirm").check().run()
    home.button(key="profile_delete").click().run()
    no_crash(home)
    assert get_store().profile(profile) is None
    assert home.session_state["profile_id"] != profile
    assert any("deleted" in str(e.value) for e in home.success)
    home.query_params.clear()  # the plain page, no link: nothing of the deleted profile comes back
    home.switch_page("app/pages/practice.py").run()
    assert "practice_deal" not in home.session_state


def test_a_state_over_the_store_limit_is_left_unsaved_and_the_page_goes_on() -> None:
    at = open_page("app/pages/practice.py", params={"seed": "88"})
    profile = at.session_state["profile_id"]
    saved = get_store().load_page_state(profile, "practice")
    # the page keeps its deal: one with a note of 300,000 characters is over the limit
    at.session_state["practice_deal"] = {**at.session_state["practice_deal"], "note": "x" * 300_000}
    at.run()
    no_crash(at)
    assert get_store().load_page_state(profile, "practice") == saved


def test_a_link_points_at_the_saved_page_when_it_agrees_on_everything_it_says() -> None:
    state = PageState("drill", params=(Param("seed"), Param("hand"), Param("preset", sticky=True)))
    saved = {"seed": "1", "preset": "vietnamese", "lang": "vi"}
    assert state.points_at(saved, {"seed": "1"})  # the rules left out: the saved ones stand
    assert state.points_at(saved, {"seed": "1", "preset": "vietnamese", "lang": "en"})  # the language aside
    assert not state.points_at(saved, {"seed": "1", "preset": "chinese"})
    assert not state.points_at(saved, {"seed": "2"})
    assert not state.points_at(saved, {"seed": "1", "hand": "2"})  # hand 2 of the drill is another hand
    assert not state.points_at({**saved, "hand": "2"}, {"seed": "1"})  # ... and so is hand 1
    assert not state.points_at({}, {"seed": "1"})  # nothing saved to point at


def test_without_a_store_the_pages_work_for_the_visit_and_say_why_nothing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "mau-binh.sqlite3").write_text("not a database", encoding="utf-8")
    monkeypatch.setenv("MAU_BINH_DATA_DIR", str(broken))
    at = open_page("app/pages/practice.py", params={"seed": "99"})
    assert at.session_state["practice_deal"]["seed"] == 99
    rows = moved(at.session_state["practice_rows"])
    at.session_state["practice_rows"] = rows
    at.run()
    no_crash(at)
    assert "profile_id" not in at.session_state
    at.switch_page("app/pages/profile.py").run()
    no_crash(at)
    assert any("Profiles are not available right now" in str(e.value) for e in at.error)
    assert (broken / "mau-binh.sqlite3").read_text(encoding="utf-8") == "not a database"  # left as it was
