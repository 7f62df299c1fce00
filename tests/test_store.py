"""The store: schema and migrations, profiles and codes, page state, records, aggregates, review queue."""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from store import (
    GRADES,
    DatabaseUnavailable,
    InvalidProfileCode,
    InvalidRecord,
    MacaoRoundRecord,
    PlayHandRecord,
    PlaySeat,
    PracticeRecord,
    Store,
    TooManyCodeAttempts,
    UnknownProfile,
    data_dir,
    database_url,
    get_store,
    parse_code,
    review,
)
from store.codes import ALPHABET
from store.engine import _config, create_engine, head_revision
from store.schema import metadata, review_items
from tests.store_support import practice_record

T0 = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
HAND = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d"
FOUL = "As Ks Qs | 9h 8h 7h 6h 5h | Js Ts 4d 3d 2d"
BEST = "4d 3d 2d | As Ks Qs Js Ts | 9h 8h 7h 6h 5h"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'test.sqlite3'}")
    yield s
    s.close()


def test_data_dir_and_url_follow_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAU_BINH_DATA_DIR", str(tmp_path / "deep" / "folder"))
    assert data_dir() == tmp_path / "deep" / "folder" and data_dir().is_dir()
    assert (tmp_path / "deep" / "folder").stat().st_mode & 0o777 == 0o700  # private: it holds profile ids
    assert database_url() == f"sqlite:///{tmp_path / 'deep' / 'folder' / 'mau-binh.sqlite3'}"
    monkeypatch.setenv("MAU_BINH_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url() == "postgresql+psycopg://u@h/db"


def test_the_test_run_has_its_own_data_dir() -> None:
    import platformdirs

    assert data_dir() != Path(platformdirs.user_data_dir("mau-binh"))


def test_other_databases_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"SQLite or PostgreSQL.*'mysql'"):
        Store("mysql://u@localhost/db")


def test_a_file_that_is_no_database_is_refused_clearly_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "mau-binh.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(DatabaseUnavailable, match=r"cannot be opened: file is not a database"):
        Store(f"sqlite:///{path}")
    assert path.read_bytes().startswith(b"these are my notes")


def test_a_database_from_a_newer_app_is_refused_and_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'newer.sqlite3'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    with pytest.raises(
        DatabaseUnavailable, match=r"schema version '0099', which this version of the app does not know"
    ):
        Store(url)
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0099"
    engine.dispose()


# --- schema ------------------------------------------------------------------------------


def test_an_empty_database_is_migrated_to_head_and_matches_the_schema(store: Store) -> None:
    assert store.schema_version() == head_revision() == store.version
    with store.engine.connect() as connection:
        diffs = compare_metadata(MigrationContext.configure(connection), metadata)
    assert diffs == []


def test_sqlite_is_opened_durable(store: Store) -> None:
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000


def check_an_old_database_is_migrated(url: str) -> None:
    """A database at the first revision (profiles and practice only), with records in it, opened by Store."""
    engine = create_engine(url)
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    rng = random.Random(1)
    profile_id = "old-profile-" + "x" * 30
    with engine.begin() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0001"
        connection.execute(sa.text("INSERT INTO profiles (id, code, created_ms) VALUES (:id, 'ABCD', 1)"),
                           {"id": profile_id})  # fmt: skip
        for i, grade in enumerate(("blunder", "good", "mistake")):
            r = practice_record(rng, grade=grade)
            connection.execute(
                sa.text(
                    "INSERT INTO practice_records (uid, profile_id, created_ms, preset, players, field, mode, hand,"
                    " kind, played, best, ev, best_ev, chi_lost, grade, themes, seconds, hints) VALUES (:uid, :p,"
                    " :t, 'vietnamese', 4, 'population', 'fast', :hand, 'Random', :played, :best, 0, 1, 1, :grade,"
                    " '[]', 5, 0)"
                ),
                {"uid": r.uid, "p": profile_id, "t": 1000 * i, "hand": r.hand, "played": r.played, "best": r.best,
                 "grade": grade},
            )  # fmt: skip
    engine.dispose()

    store = Store(url)
    assert store.schema_version() == head_revision() != "0001"
    assert [r.grade for r in store.practice_records(profile_id)] == ["mistake", "good", "blunder"]
    assert store.review_count(profile_id, now=T0) == (2, 2)  # the old mistakes were queued
    assert {i.grade for i in store.review_due(profile_id, now=T0)} == {"blunder", "mistake"}
    store.close()
    again = Store(url)
    assert again.schema_version() == head_revision() and again.practice_count(profile_id) == 3
    again.close()


def test_an_old_database_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    check_an_old_database_is_migrated(f"sqlite:///{tmp_path / 'old.sqlite3'}")


# --- profiles ----------------------------------------------------------------------------


def test_profile_ids_are_long_random_and_codes_round_trip(store: Store) -> None:
    made = [store.create_profile() for _ in range(20)]
    assert len({p.id for p in made}) == len({p.code for p in made}) == 20
    for p in made:
        assert len(p.id) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", p.id)  # >= 192 bits of base64
        assert re.fullmatch(rf"[{ALPHABET}]{{4}}(-[{ALPHABET}]{{4}}){{3}}", p.code)
        assert store.profile(p.id) == p
        typed = p.code.lower().replace("-", " ").replace("0", "o").replace("1", "l")
        assert store.profile_by_code(typed) == p
    letters = Counter("".join(p.code.replace("-", "") for p in made))
    assert len(letters) > 20  # codes use the whole alphabet, not a few characters
    assert store.profile("x" * 43) is None and store.profile("not an id!") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ABCD-EFGH", "16 characters.*has 8"),
        ("ABCD-EFGH-JKMN-PQRU", "without U.*has U"),
        ("ABCD EFGH JKMN PQR!", "has !"),
        (None, "expected a profile code"),
    ],
)
def test_a_code_that_cannot_be_one_is_refused_clearly(text: object, message: str) -> None:
    with pytest.raises(InvalidProfileCode, match=message):
        parse_code(text)  # type: ignore[arg-type]


def test_wrong_codes_are_rate_limited_across_processes(tmp_path: Path) -> None:
    now = [1_800_000_000_000]
    url = f"sqlite:///{tmp_path / 'limit.sqlite3'}"
    store = Store(url, code_failures_per_minute=3, clock=lambda: now[0])
    other = Store(url, code_failures_per_minute=3, clock=lambda: now[0])  # another app process
    me = store.create_profile()
    for guesser in (store, other, store):
        assert guesser.profile_by_code("0000-0000-0000-0000") is None
        now[0] += 10_000
    assert store.profile(me.id) == me  # ids are not limited
    for looker in (store, other):
        with pytest.raises(TooManyCodeAttempts, match=r"try again in 30 s"):
            looker.profile_by_code(me.code)  # even a right code waits, in every process
    now[0] += 30_000  # the first wrong code is a minute old
    assert other.profile_by_code(me.code) == me
    with store.read() as connection:  # what was typed is not kept, only when
        assert set(connection.execute(sa.text("SELECT kind FROM code_failures")).scalars()) == {"profile"}
    other.close()


def test_deleting_a_profile_deletes_everything_of_it_and_nothing_else(store: Store) -> None:
    rng = random.Random(2)
    me, other = store.create_profile(), store.create_profile()
    for p in (me, other):
        store.save_page_state(p.id, "practice", {"x": 1})
        for _ in range(5):
            store.record_practice(p.id, practice_record(rng, grade="blunder", themes=("pairs",)))
        store.record_play_hand(p.id, play_record(rng))
        store.record_macao_round(p.id, macao_record())
    assert store.delete_profile(me.id) and not store.delete_profile(me.id)
    with store.engine.connect() as connection:
        for table in metadata.sorted_tables:
            column = table.c.id if table.name == "profiles" else table.c.get("profile_id")
            if column is None:  # rooms and the lookup limit hold nothing of a profile
                continue
            assert connection.execute(sa.select(sa.func.count()).where(column == me.id)).scalar() == 0, table.name
    assert store.profile(me.id) is None and store.profile_by_code(me.code) is None
    assert store.practice_count(other.id) == 5 and store.review_count(other.id, T0 + timedelta(days=9999))[1] == 5
    assert store.load_page_state(other.id, "practice") == {"x": 1}
    with pytest.raises(UnknownProfile, match="no such profile"):
        store.record_practice(me.id, practice_record(rng))


def test_get_store_is_one_per_url(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    assert get_store(url) is get_store(url)
    assert get_store() is get_store() and get_store().url == database_url()


# --- page state --------------------------------------------------------------------------


def test_page_state_last_write_wins_and_is_per_page_and_profile(store: Store) -> None:
    me, other = store.create_profile(), store.create_profile()
    assert store.load_page_state(me.id, "practice") is None
    store.save_page_state(me.id, "practice", {"preset": "plain", "rows": [["As"], [], []]})
    store.save_page_state(me.id, "practice", {"preset": "seed"})
    store.save_page_state(me.id, "play", {"hand": 3})
    assert store.load_page_state(me.id, "practice") == {"preset": "seed"}
    assert store.load_page_state(me.id, "play") == {"hand": 3}
    assert store.load_page_state(other.id, "practice") is None


def test_page_state_refusals(store: Store) -> None:
    me = store.create_profile()
    with pytest.raises(ValueError, match="limit is 262144"):
        store.save_page_state(me.id, "practice", {"x": "a" * 300_000})
    with pytest.raises(ValueError, match="JSON-ready"):
        store.save_page_state(me.id, "practice", {"x": {1, 2}})
    with pytest.raises(ValueError, match="must be a dict"):
        store.save_page_state(me.id, "practice", [1])  # type: ignore[arg-type]
    with pytest.raises(UnknownProfile):
        store.save_page_state("nobody-" * 5, "practice", {})
    assert store.load_page_state(me.id, "practice") is None


# --- practice records ----------------------------------------------------------------------


def test_practice_records_come_back_newest_first_and_canonical(store: Store) -> None:
    rng = random.Random(3)
    me = store.create_profile()
    written = [practice_record(rng, when=T0 + timedelta(seconds=i)) for i in range(30)]
    for r in written:
        store.record_practice(me.id, r)
    back = store.practice_records(me.id)
    assert back == written[::-1]
    assert store.practice_records(me.id, limit=5) == written[:-6:-1]
    assert store.practice_records(me.id, before=T0 + timedelta(seconds=10)) == written[9::-1]
    assert store.practice_count(me.id) == 30
    assert store.practice_count(me.id, since=T0 + timedelta(seconds=25)) == 5
    typed = practice_record(rng, hand="as kd 10c 2h 3h 4h 5h 6h 7h 8h 9h jh qh",
                            played="as kd tc | 2h 3h 4h 5h 6h | 7h 8h 9h jh qh",
                            best="AS KD 10C|2H 3H 4H 5H 6H|7H 8H 9H JH QH")  # fmt: skip
    store.record_practice(me.id, typed)
    got = store.practice_records(me.id, limit=1)[0] if typed.created_at > written[-1].created_at else None
    got = got or next(r for r in store.practice_records(me.id) if r.uid == typed.uid)
    assert got.hand == "As Kd Tc 2h 3h 4h 5h 6h 7h 8h 9h Jh Qh"
    assert got.played == got.best == "As Kd Tc | 2h 3h 4h 5h 6h | 7h 8h 9h Jh Qh"


def test_a_double_submit_is_recorded_once(store: Store) -> None:
    me = store.create_profile()
    r = practice_record(random.Random(4), grade="foul")
    first = store.record_practice(me.id, r)
    assert store.record_practice(me.id, r) == first
    assert store.practice_count(me.id) == 1 and store.review_count(me.id, T0 + timedelta(days=9999)) == (1, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand": HAND.replace("2d", "As")}, "the hand: a Mau Binh hand repeats 'As'"),
        ({"hand": HAND.replace("2d", "Xx")}, "the hand: unknown card 'Xx'"),
        ({"hand": HAND[:-3]}, "needs 13 cards, got 12"),
        ({"played": FOUL.replace("2d", "2c")}, "the played set uses 2c, not in the hand"),
        ({"played": FOUL.replace("2d", "3d")}, "the played set uses 3d twice"),
        ({"best": "As Ks Qs Js | 9h 8h 7h 6h | 5h Ts 4d 3d 2d"}, "the front row has 4 cards, expected 3"),
        ({"best": "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d"}, "needs 3 rows separated by '|'"),
        ({"grade": "great"}, "grade must be one of best, good"),
        ({"players": 7}, "players must be a whole number from 2 to 4, got 7"),
        ({"chi_lost": math.nan}, "chi_lost must be a finite number"),
        ({"seconds": -1}, "seconds must be a finite number of at least 0"),
        ({"themes": ("ok", "not ok!")}, "each of themes must be a name"),
        ({"created_at": datetime(2026, 1, 1)}, "timezone-aware"),
        ({"uid": "42"}, "uid must be a UUID"),
    ],
)
def test_a_bad_practice_record_is_refused_and_writes_nothing(
    store: Store, change: dict[str, Any], message: str
) -> None:
    me = store.create_profile()
    good = practice_record(random.Random(5), hand=HAND, played=FOUL, best=BEST)
    store.record_practice(me.id, good)
    with pytest.raises(InvalidRecord, match=re.escape(message) if "." not in message else message):
        store.record_practice(me.id, practice_record(random.Random(5), **{"hand": HAND, "played": FOUL,
                                                                           "best": BEST, **change}))  # fmt: skip
    assert store.practice_count(me.id) == 1


def test_progress_aggregates_agree_with_the_records(store: Store) -> None:
    rng = random.Random(6)
    me, other = store.create_profile(), store.create_profile()
    written = [practice_record(rng, when=T0 + timedelta(hours=rng.randrange(24 * 20))) for _ in range(300)]
    for r in written:
        store.record_practice(me.id, r)
    store.record_practice(other.id, practice_record(rng))

    assert store.practice_grades(me.id) == dict(Counter(r.grade for r in written))
    summary = store.practice_summary(me.id)
    assert (summary.hands, summary.good, summary.mistakes, summary.hints) == (
        300, sum(r.grade in ("best", "good") for r in written), sum(r.grade in ("mistake", "blunder", "foul")
        for r in written), sum(r.hints for r in written))  # fmt: skip
    assert summary.chi_lost == pytest.approx(sum(r.chi_lost for r in written))
    assert summary.mean_seconds == pytest.approx(sum(r.seconds for r in written) / 300)
    assert (summary.first, summary.last) == (min(r.created_at for r in written), max(r.created_at for r in written))
    empty = store.practice_summary(store.create_profile().id)
    assert (empty.hands, empty.chi_lost, empty.mean_chi_lost, empty.first) == (0, 0.0, 0.0, None)
    since = T0 + timedelta(days=10)
    assert store.practice_grades(me.id, since=since) == dict(Counter(r.grade for r in written if r.created_at >= since))

    offset = timedelta(hours=7)  # Vietnam and Cambodia
    days: dict[date, list[PracticeRecord]] = defaultdict(list)
    for r in written:
        days[(r.created_at + offset).date()].append(r)
    by_day = store.practice_by_day(me.id, utc_offset=offset)
    assert [d.day for d in by_day] == sorted(days)
    for d in by_day:
        rs = days[d.day]
        assert d.hands == len(rs)
        assert d.chi_lost == pytest.approx(sum(r.chi_lost for r in rs))
        assert d.mean_chi_lost == pytest.approx(d.chi_lost / d.hands)
        assert d.good == sum(r.grade in ("best", "good") for r in rs)

    themes: dict[str, list[PracticeRecord]] = defaultdict(list)
    for r in written:
        for theme in r.themes:
            themes[theme].append(r)
    by_theme = store.practice_by_theme(me.id)
    assert {t.theme for t in by_theme} == set(themes)
    assert [t.chi_lost for t in by_theme] == sorted((t.chi_lost for t in by_theme), reverse=True)
    for t in by_theme:
        rs = themes[t.theme]
        assert (t.hands, t.mistakes) == (len(rs), sum(r.grade in ("mistake", "blunder", "foul") for r in rs))
        assert t.chi_lost == pytest.approx(sum(r.chi_lost for r in rs))


# --- review queue ------------------------------------------------------------------------


def test_mistakes_enter_the_review_queue_once_per_hand_and_table(store: Store) -> None:
    me = store.create_profile()
    rng = random.Random(7)
    base = {"hand": HAND, "played": FOUL, "best": BEST, "preset": "vietnamese", "players": 4}
    store.record_practice(me.id, practice_record(rng, when=T0, grade="good", **base))
    assert store.review_count(me.id, now=T0 + timedelta(days=1)) == (0, 0)
    store.record_practice(me.id, practice_record(rng, when=T0, grade="foul", **base))
    assert store.review_count(me.id, now=T0) == (0, 1)  # not due at once: after the first step
    with store.read() as connection:  # answered "Again" once, when it was played
        card = connection.execute(sa.select(review_items.c.card)).scalar_one()
    assert card == review.card_to_json(review.first_card(T0))
    assert store.review_count(me.id, now=T0 + timedelta(minutes=10)) == (1, 1)
    shuffled = " ".join(reversed(HAND.split()))
    later = T0 + timedelta(hours=1)
    store.record_practice(me.id, practice_record(rng, when=later, grade="mistake", **{**base, "hand": shuffled}))
    assert store.review_count(me.id, now=later + timedelta(minutes=10)) == (1, 1)  # the same hand
    (item,) = store.review_due(me.id, now=later + timedelta(minutes=10))
    assert (item.grade, item.hand, item.preset, item.players, item.played) == (
        "mistake", shuffled, "vietnamese", 4, FOUL)  # fmt: skip
    store.record_practice(me.id, practice_record(rng, when=later, grade="blunder", **{**base, "players": 2}))
    assert store.review_count(me.id, now=later + timedelta(days=1))[1] == 2  # another table, another item


def test_review_answers_reschedule_by_grade(store: Store) -> None:
    me = store.create_profile()
    rng = random.Random(8)
    for i in range(4):
        store.record_practice(me.id, practice_record(rng, when=T0 + timedelta(minutes=i), grade="blunder"))
    now = T0 + timedelta(hours=1)
    due = store.review_due(me.id, now=now)
    assert [i.created_at for i in due] == sorted(i.created_at for i in due)  # oldest due first
    answered = {g: store.review_answer(me.id, item.id, g, now=now) for g, item in
                zip(("best", "good", "inaccuracy", "foul"), due)}  # fmt: skip
    wait = {g: item.due - now for g, item in answered.items()}
    assert wait["foul"] == timedelta(minutes=10)  # Again: the relearning step
    assert wait["foul"] < wait["inaccuracy"] < timedelta(days=1) <= wait["good"] <= wait["best"]
    assert (answered["best"].reviews, answered["best"].last_grade) == (1, "best")
    assert store.review_count(me.id, now=now) == (0, 4)
    assert [i.id for i in store.review_due(me.id, now=now + timedelta(minutes=10))] == [answered["foul"].id]
    # a second good answer waits longer than the first, and an easy one longer still
    later = now + timedelta(days=1)
    again_best = store.review_answer(me.id, answered["best"].id, "best", now=later)
    again_good = store.review_answer(me.id, answered["good"].id, "good", now=later)
    assert again_best.due - later > again_good.due - later > timedelta(days=1)
    with pytest.raises(InvalidRecord, match="not in this profile's queue"):
        store.review_answer(store.create_profile().id, answered["foul"].id, "good", now=now)


def test_a_review_hand_is_recorded_and_answered_in_one_write(store: Store) -> None:
    me = store.create_profile()
    rng = random.Random(9)
    store.record_practice(me.id, practice_record(rng, when=T0, grade="mistake", hand=HAND, played=FOUL, best=BEST))
    now = T0 + timedelta(hours=2)
    (item,) = store.review_due(me.id, now=now)
    again = practice_record(rng, when=now, grade="best", kind="Review", hand=HAND, played=BEST, best=BEST)
    store.record_practice(me.id, again, review_item=item.id)
    assert store.review_count(me.id, now=now + timedelta(hours=1)) == (0, 1)
    assert store.practice_count(me.id) == 2
    with pytest.raises(InvalidRecord, match="is the hand"):
        store.record_practice(me.id, practice_record(rng, when=now, grade="good"), review_item=item.id)
    assert store.practice_count(me.id) == 2  # the refused answer wrote nothing


# --- play and macao ----------------------------------------------------------------------


def play_record(rng: random.Random, **changes: object) -> PlayHandRecord:
    from solver.cards import format_cards, full_deck

    deck = rng.sample(full_deck(), 52)
    seats = []
    for i in range(4):
        cards = deck[13 * i : 13 * i + 13]
        played = f"{format_cards(cards[:3])} | {format_cards(cards[3:8])} | {format_cards(cards[8:])}"
        seats.append(PlaySeat("me" if i == 0 else f"bot {i}", format_cards(cards), played))
    values: dict[str, object] = dict(
        session="s-1", hand_number=3, preset="vietnamese", players=4, field="population", seats=tuple(seats),
        settlement={"totals": [3, -1, -1, -1], "pairs": [[0, 1, 1]]}, my_net=3.0, levels=("strong", "strong", "naive"),
        seed=42, number=3, grade="good", chi_lost=0.1, seconds=31.5, hints=1, created_at=T0,
    )  # fmt: skip
    values.update(changes)
    return PlayHandRecord(**values)  # type: ignore[arg-type]


def macao_record(**changes: object) -> MacaoRoundRecord:
    values: dict[str, object] = dict(
        options={"decks": 1, "jokers": True}, seed=7, players=3, result={"placings": [2, 0, 1], "turns": 41},
        levels=("easy", "hard"), my_place=2, turns=41, seconds=120.0, created_at=T0,
    )  # fmt: skip
    values.update(changes)
    return MacaoRoundRecord(**values)  # type: ignore[arg-type]


def test_play_and_macao_records_round_trip(store: Store) -> None:
    me = store.create_profile()
    rng = random.Random(10)
    hands = [play_record(rng, hand_number=i, created_at=T0 + timedelta(minutes=i)) for i in range(3)]
    for h in hands:
        store.record_play_hand(me.id, h)
    assert store.play_records(me.id) == hands[::-1] and store.play_count(me.id) == 3
    rounds = [macao_record(seed=i, created_at=T0 + timedelta(minutes=i)) for i in range(3)]
    for r in rounds:
        store.record_macao_round(me.id, r)
    assert store.macao_records(me.id, limit=2) == rounds[:0:-1] and store.macao_count(me.id) == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 3}, "needs 3 seats, got 4"),
        ({"me": 4}, "me (my seat, from 0) must be a whole number from 0 to 3"),
        ({"settlement": {"x": object()}}, "settlement must be JSON-ready"),
    ],
)
def test_a_bad_play_record_is_refused(store: Store, change: dict[str, object], message: str) -> None:
    me = store.create_profile()
    with pytest.raises(InvalidRecord, match=re.escape(message)):
        store.record_play_hand(me.id, play_record(random.Random(11), **change))
    assert store.play_count(me.id) == 0


def test_play_seats_may_not_share_cards(store: Store) -> None:
    rng = random.Random(12)
    h = play_record(rng)
    seats = (h.seats[0], h.seats[0], *h.seats[2:])
    with pytest.raises(InvalidRecord, match="seat 2's hand repeats"):
        store.record_play_hand(store.create_profile().id, play_record(rng, seats=seats))


def test_a_bad_macao_record_is_refused(store: Store) -> None:
    with pytest.raises(InvalidRecord, match="my_place must be a whole number from 1 to 3, got 4"):
        store.record_macao_round(store.create_profile().id, macao_record(my_place=4))


def test_every_grade_has_a_rating() -> None:
    from store import RATING_OF_GRADE

    assert set(RATING_OF_GRADE) == set(GRADES)
