"""The computer players and the table session (solver.players, solver.table) at API level."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from solver import PRESETS, is_valid, score_table, solve
from solver.fields import DEFAULT_FIELD, FIELDS
from solver.players import LEVELS, Beginner, Club, Expert, Player, get_player
from solver.table import (
    CSV_COLUMNS,
    MAX_SEED,
    TableConfig,
    balances,
    deal_hands,
    deal_seed,
    history_csv,
    history_from_json,
    history_json,
    scoops,
    settle_hand,
    simulate_hand,
)
from tests.field_support import FIELD_HAND

HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"


def random_config(rng: random.Random, preset: str, expert: bool) -> TableConfig:
    levels = ["beginner", "club"] + (["expert"] if expert else [])
    seats = rng.randint(1, 3)
    chosen = tuple(rng.choice(levels) for _ in range(seats))
    return TableConfig(seed=rng.randrange(MAX_SEED + 1), preset=preset, levels=chosen)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_totals_sum_to_zero_on_1000_seeded_tables(preset: str) -> None:
    rng = random.Random(f"play-{preset}")
    checked = 0
    for table in range(1000):
        # deep mode costs ~0.1 s a decision: an Expert sits at one table in 25
        config = random_config(rng, preset, expert=table % 25 == 0)
        number = rng.randint(1, 1000)
        record = simulate_hand(config, number, me=rng.choice(["beginner", "club"]))
        assert sum(record.totals) == 0
        seats = range(record.players)
        assert all(record.pairs[i][j] == -record.pairs[j][i] for i in seats for j in seats)
        assert list(record.totals) == [sum(row) for row in record.pairs]
        # the record holds exactly what score_table says for the sets it holds
        again = score_table(list(record.sets), PRESETS[preset])
        assert list(record.totals) == again.totals
        assert [list(row) for row in record.pairs] == again.pairs
        checked += 1
    assert checked == 1000


def test_deal_is_seeded_and_uses_52_distinct_cards() -> None:
    assert deal_hands(123, 4) == deal_hands(123, 4)
    assert deal_hands(123, 4) != deal_hands(124, 4)
    cards = [c for hand in deal_hands(5, 4) for c in hand]
    assert len(set(cards)) == 52
    assert [len(h) for h in deal_hands(5, 2)] == [13, 13]
    # a smaller table gets the first hands of the same deck
    assert deal_hands(5, 2) == deal_hands(5, 4)[:2]


def test_hand_seeds_follow_the_session_seed() -> None:
    config = TableConfig(seed=42, preset="plain", levels=("club",))
    assert config.deal_seed(1) == deal_seed(42, 1) == 42_000
    assert config.deal(3) == deal_hands(42_002, 2)
    assert TableConfig(seed=42, levels=("club",)).deal(3) == config.deal(3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "session seed"),
        ({"seed": MAX_SEED + 1}, "session seed"),
        ({"seed": 1, "preset": "poker"}, "unknown rule preset"),
        ({"seed": 1, "levels": ()}, "1 to 3 computer seats"),
        ({"seed": 1, "levels": ("club",) * 4}, "1 to 3 computer seats"),
        ({"seed": 1, "levels": ("grandmaster",)}, "unknown player level"),
        ({"seed": 1, "field": "pros"}, "field must be one of"),
    ],
)
def test_bad_config_is_refused_with_a_reason(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableConfig(**kwargs)  # type: ignore[arg-type]


def test_hand_number_is_checked() -> None:
    with pytest.raises(ValueError, match="hand number"):
        TableConfig(seed=1).deal(0)


def test_a_set_with_cards_not_dealt_to_the_seat_is_refused() -> None:
    config = TableConfig(seed=9, levels=("club",))
    hands = config.deal(1)
    sets = [solve(hands[1]).best, solve(hands[0]).best]  # swapped seats
    with pytest.raises(ValueError, match="seat 0's set must use exactly its 13 dealt cards"):
        settle_hand(config, 1, hands, sets)


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_sets_exactly_its_cards_validly(level: str) -> None:
    player = get_player(level)
    assert isinstance(player, Player)
    rng = random.Random(level)
    for n in range(20 if level == "expert" else 200):
        hand = deal_hands(rng.randrange(10**9), 4)[0]
        players = 2 + n % 3
        arrangement = player.arrange(hand, "vietnamese", players, n)
        assert sorted(arrangement.cards) == sorted(hand)
        assert is_valid(arrangement, "vietnamese")


def test_levels_are_what_they_say() -> None:
    assert isinstance(LEVELS["beginner"], Beginner)
    assert str(Beginner().arrange(HAND, "vietnamese", 4, None)) == "8s 3h 2c | Ah Jh Tc 7s 7c | Ad Kd Qd 9d 5d"
    assert Club().arrange(HAND, "vietnamese", 3, None) == solve(HAND, "vietnamese", players=3).best
    expert = Expert().arrange(HAND, "vietnamese", 4, 11)
    assert expert == solve(HAND, "vietnamese", players=4, mode="deep", seed=11).best
    assert expert == Expert().arrange(HAND, "vietnamese", 4, 11)  # seeded: repeatable
    assert get_player("Club").name == "Club"


def test_each_computer_seat_is_told_who_else_sits_at_the_table() -> None:
    config = TableConfig(seed=31, preset="vietnamese", levels=("beginner", "expert", "club"))
    assert config.seat_table(0).lineup == ("beginner", "expert", "club")
    assert config.seat_table(2).lineup == ("person", "beginner", "club")
    assert config.seat_table(2).replace(lineup=None) == config.table
    hands = config.deal(1)
    expert = config.computer_sets(hands, 1)[1]
    seen = solve(hands[2], mode="deep", seed=config.player_seed(1, 2), table=config.seat_table(2)).best
    assert expert == seen


def test_club_and_expert_play_against_the_field_they_are_given() -> None:
    bests = {field: solve(FIELD_HAND, "vietnamese", players=4, field=field).best for field in FIELDS}
    assert len({str(b) for b in bests.values()}) == 3  # the fields disagree on this hand
    for field, best in bests.items():
        assert Club().arrange(FIELD_HAND, "vietnamese", 4, None, field=field) == best
        deep = solve(FIELD_HAND, "vietnamese", players=4, mode="deep", seed=5, field=field).best
        assert Expert().arrange(FIELD_HAND, "vietnamese", 4, 5, field=field) == deep
        # Beginner sets the same whoever sits at the table
        assert Beginner().arrange(FIELD_HAND, "vietnamese", 4, None, field=field) == Beginner().arrange(
            FIELD_HAND, "vietnamese", 4, None
        )
    assert Club().arrange(FIELD_HAND, "vietnamese", 4, None) == bests[DEFAULT_FIELD]  # today's default


def test_a_table_deals_the_computer_seats_sets_against_its_field() -> None:
    for field in FIELDS:
        config = TableConfig(seed=8, preset="vietnamese", levels=("club", "beginner", "club"), field=field)
        hands = config.deal(1)
        sets = config.computer_sets(hands, 1)
        assert sets[0] == solve(hands[1], "vietnamese", players=4, field=field).best
        assert sets[2] == solve(hands[3], "vietnamese", players=4, field=field).best


def test_balances_scoops_and_replays() -> None:
    config = TableConfig(seed=3, preset="vietnamese", levels=("beginner", "beginner", "beginner"))
    records = [simulate_hand(config, n, me="club") for n in range(1, 6)]
    running = balances(records)
    assert len(running) == 5
    assert running[-1] == [sum(r.totals[s] for r in records) for s in range(4)]
    assert all(sum(row) == 0 for row in running)
    replay = settle_hand(config, 2, config.deal(2), list(records[1].sets), replay_of=2)
    assert balances([*records, replay]) == running  # a replay is not counted
    for record in records:
        for seat in range(4):
            expected = sum(1 for other in range(4) if other != seat and record.scooped[seat][other]
                           and not record.fouls[other])  # fmt: skip
            assert scoops(record, seat) == expected


def test_row_results_match_the_settlement_of_plain_rules() -> None:
    # under "plain" a pair's chi is (rows won - rows lost) when neither fouls
    config = TableConfig(seed=77, preset="plain", levels=("beginner", "club", "beginner"))
    for n in range(1, 60):
        record = simulate_hand(config, n, me="beginner")
        for i in range(4):
            for j in range(4):
                rows = record.row_results(i, j)
                if i == j or rows is None:
                    continue
                assert record.pairs[i][j] == sum(rows)


def test_history_exports_round_trip() -> None:
    config = TableConfig(seed=12, preset="seed", levels=("club", "beginner"))
    records = [simulate_hand(config, n) for n in (1, 2)]
    text = history_json(config, records)
    assert json.loads(text)["config"] == {
        "seed": 12, "preset": "seed", "levels": ["club", "beginner"], "field": "population"
    }  # fmt: skip
    again_config, again = history_from_json(text)
    assert again_config == config
    assert again == records
    strong = TableConfig(seed=12, preset="seed", levels=("club",), field="strong")
    assert history_from_json(history_json(strong, []))[0] == strong
    # a history written before the field was kept reads back as the default field
    old = json.loads(text)
    del old["config"]["field"]
    assert history_from_json(json.dumps(old))[0] == config
    with pytest.raises(ValueError, match="not a table history"):
        history_from_json('{"hands": []}')
    lines = list(csv.DictReader(io.StringIO(history_csv(records))))
    assert tuple(lines[0]) == CSV_COLUMNS
    assert len(lines) == 2 * 3
    for line in lines:
        record = records[int(line["hand"]) - 1]
        seat = int(line["seat"])
        assert int(line["chi"]) == record.totals[seat]
        assert f"{line['front']} | {line['middle']} | {line['back']}" == record.sets[seat]
