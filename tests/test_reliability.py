"""Regression tests for the defects of issue 9 (found by fuzzing and load from outside).

Each test here failed before its fix: rule numbers big enough to overflow the compiled
core, ``special_detection="layout"`` never laying out a special, one undecodable CLI line
aborting the run, a negative seed failing inside numpy, and error messages echoing the
whole input.  (The concurrent-sessions defect is tested in a real browser, in
``test_browser_concurrency.py``.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver import Arrangement, InvalidRulesError, Rules, evaluate, parse_cards, score_table, solve
from solver.messages import ECHO_CHARS, echo
from solver.rules import MAX_CHI, MAX_MULT, NUMBER_RANGES
from solver.scoring import arrangement_from_codes, check_hand, layouts_showing

HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
LAYOUT = Rules.from_options({"special_detection": "layout"})

# --- 2. rule numbers are bounded ------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"sweep_mult": 2**31}, {"sweep_bonus": 2**31}, {"majority_bonus": 10**20}, {"sap_lang_mult": 2**63},
     {"foul_chi": 2**40}, {"sap_lang_min_players": 5}, {"specials": {"dragon": 10**12}}],
)  # fmt: skip
def test_out_of_range_rule_numbers_are_refused_with_the_range(options: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError, match=r"\d+\.\.\d+"):
        Rules.from_options(options)


def test_every_numeric_option_has_a_range() -> None:
    numeric = {name for name, value in vars(Rules()).items() if isinstance(value, int) and not isinstance(value, bool)}
    assert numeric == set(NUMBER_RANGES)


@pytest.mark.parametrize("mode", ["fast", "deep"])
def test_the_largest_allowed_numbers_solve_and_settle(mode: str) -> None:
    biggest = Rules.from_options(
        {"bonuses": "aces_extra", "sweep_mult": MAX_MULT, "sweep_bonus": MAX_CHI, "majority_bonus": MAX_CHI,
         "sap_lang_mult": MAX_MULT, "foul_chi": MAX_CHI, "foul_mode": "opponent_x2",
         "specials": {name: MAX_CHI for name in ("dragon_flush", "dragon", "six_pairs")}}
    )  # fmt: skip
    best = solve(HAND, biggest, players=4, mode=mode, seed=1)
    assert sorted(best.best.cards) == sorted(check_hand(HAND))
    assert evaluate(HAND, best.best, biggest, players=4, mode=mode, seed=1).ev == pytest.approx(best.ev)
    table = score_table(
        ["2s 2h 3d | 4c 5s 7h 8d 9c | Js Qh Kd Ac 6s", "As Ah Ad | Ks Kh Kc Qs Qd | 9s 9h 9d 8s 8h"], biggest
    )
    assert sum(table.totals) == 0 and max(table.totals) < 2**31


# --- 3. special_detection="layout": solve lays out a special when it pays most ---------------


def test_layout_detection_lays_out_three_straights() -> None:
    hand = "2c 3d 4d 7s 8h 9s Td Jd 9h Th Jc Qs Kd"
    best = solve(hand, LAYOUT, players=3)
    shown = evaluate(hand, "2c 3d 4d | 7s 8h 9s Td Jd | 9h Th Jc Qs Kd", LAYOUT, players=3)
    assert shown.special == "three_straights"
    assert best.special == "three_straights"
    assert best.ev == pytest.approx(shown.ev)
    assert evaluate(hand, best.best, LAYOUT, players=3).special == "three_straights"


def test_layout_detection_prefers_the_higher_special() -> None:
    rules = LAYOUT.replace(six_pairs_rule="strict", ace_low_runs=False)
    hand = "Qs Qh 7s 6c 6h 8c 8s Js Kc Kh 5c 5s Jc"
    best = solve(hand, rules, players=4)
    assert best.special == "six_pairs"
    assert best.ev == pytest.approx(evaluate(hand, best.best, rules, players=4).ev)
    flushes = evaluate(hand, arrangement_from_codes(*layouts_showing(hand, "three_flushes", rules)[0]), rules, 4)
    assert flushes.special == "three_flushes"
    assert best.ev > flushes.ev + 8


def test_layout_detection_keeps_a_plain_set_that_pays_more_than_the_special() -> None:
    # three flushes worth 1 chi a player lose to playing the kings, the eights and the flush
    rules = LAYOUT.replace(specials={"three_flushes": 1, "three_straights": 1})
    hand = "8c 9s Jh As 6s Kc 8h 8s 5h Ks 4h 7c Kh"
    best = solve(hand, rules, players=4)
    shown = evaluate(hand, arrangement_from_codes(*layouts_showing(hand, "three_flushes", rules)[0]), rules, 4)
    assert shown.special in ("three_flushes", "three_straights")
    assert best.special is None
    assert best.ev > shown.ev
    assert best.ev == pytest.approx(evaluate(hand, best.best, rules, players=4).ev)


def test_layout_detection_in_deep_mode_lays_out_the_special_too() -> None:
    hand = "2c 3d 4d 7s 8h 9s Td Jd 9h Th Jc Qs Kd"
    best = solve(hand, LAYOUT, players=3, mode="deep", seed=5)
    assert best.special == "three_straights"
    assert best.ev == pytest.approx(evaluate(hand, best.best, LAYOUT, players=3, mode="deep", seed=5).ev)


# --- 4. the CLI reads bytes: an undecodable line is one bad line ------------------------------


def test_an_undecodable_line_is_a_bad_line_whatever_the_locale() -> None:
    stdin = f"{HAND}\n".encode() + b"\xff\xfe As\n" + f"{HAND}\n".encode()
    done = subprocess.run(
        [sys.executable, "-m", "solver"], input=stdin, capture_output=True, timeout=120,
        env={"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    out = done.stdout.decode().split("\n")
    assert done.returncode == 1, done.stderr
    assert out[0] and out[1] == "" and out[2] == out[0] and out[3:] == [""]
    assert b"line 2: not UTF-8 text (byte 0xff at position 1)" in done.stderr
    assert b"Traceback" not in done.stderr


# --- 5. seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
@pytest.mark.parametrize("mode", ["fast", "deep"])
def test_a_bad_seed_is_refused_naming_seed(seed: object, mode: str) -> None:
    with pytest.raises(ValueError, match="seed must be"):
        solve(HAND, mode=mode, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be"):
        evaluate(HAND, "7s 3h 2c | Ah Ad 7c Tc 8s | Kd Qd 9d 5d Jh", mode=mode, seed=seed)  # type: ignore[arg-type]


def test_the_cli_refuses_a_negative_seed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "solver", "--mode", "deep", "--seed", "-1", HAND], capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and "seed must be" in done.stderr and "Traceback" not in done.stderr


# --- 6. error messages quote at most ECHO_CHARS characters of the input -----------------------

LIMIT = 4 * ECHO_CHARS + 500  # the quote (escapes included) plus the message's own words


@pytest.mark.parametrize("text", ["x" * 1_000_000, "é" * 1_000_000, "\x00" * 100_000, "As " * 100_000 + "Zz"])
@pytest.mark.parametrize(
    "call",
    [parse_cards, Arrangement.parse, check_hand, lambda t: Rules.from_options({t: 1}),
     lambda t: Rules.from_options({"wheel": t}), lambda t: solve(t), lambda t: evaluate(HAND, t),
     lambda t: score_table([t, t])],
    ids=["parse_cards", "Arrangement.parse", "check_hand", "option name", "option value", "solve", "evaluate",
         "score_table"],
)  # fmt: skip
def test_error_messages_stay_short(text: str, call: object) -> None:
    with pytest.raises(ValueError) as info:
        call(text)  # type: ignore[operator]
    assert len(str(info.value)) < LIMIT


def test_the_cli_reports_a_huge_line_briefly() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "solver"], input="x" * 1_000_000 + "\n", capture_output=True, text=True, timeout=120
    )
    assert done.stdout == "\n" and done.returncode == 1
    assert len(done.stderr) < LIMIT and done.stderr.startswith("line 1: ")


def test_echo_quotes_short_input_whole_and_cuts_long_input() -> None:
    assert echo("As Kd") == "'As Kd'"
    assert echo("x" * (ECHO_CHARS + 1)) == repr("x" * ECHO_CHARS) + "…"
    assert len(echo(list(range(10**5)))) <= ECHO_CHARS + 1
    assert echo(7) == "7"
