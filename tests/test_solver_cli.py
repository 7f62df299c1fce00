"""The command line: one line out per line in, JSON, bad lines, options (via subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solver import solve
from solver.cli import format_arrangement
from solver.handcodes import hand_codes

HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solver", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_a_hand_as_argument_prints_its_best_arrangement() -> None:
    done = run(HAND)
    assert done.returncode == 0, done.stderr
    best = solve(HAND)
    assert done.stdout == format_arrangement(c.code for c in best.best.cards) + "\n"
    assert done.stdout.count("|") == 2


def test_thirteen_card_arguments_are_one_hand() -> None:
    assert run(*HAND.split()).stdout == run(HAND).stdout


def test_stdin_one_line_per_hand_with_bad_lines_reported_and_left_empty() -> None:
    rest = "7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
    lines = [HAND, "Ah Ad", "", DRAGON, f"BJ Ad {rest}", f"Ah Ah {rest}", f"Zz Ad {rest}", HAND.lower()]
    done = run(stdin="\n".join(lines) + "\n")
    assert done.returncode == 1
    out = done.stdout.split("\n")[:-1]
    assert len(out) == len(lines)
    assert out[0] and out[3] and out[7] == out[0]
    assert out[1] == out[2] == out[4] == out[5] == out[6] == ""
    err = done.stderr
    assert "line 2: " in err and "13 cards, got 2" in err
    assert "line 3: empty line" in err
    assert "line 5: " in err and "jokers" in err
    assert "line 6: " in err and "repeats" in err
    assert "line 7: " in err and "unknown card 'Zz'" in err
    assert "line 1:" not in err and "line 8:" not in err


def test_json_names_the_special_and_gives_ev_row_win_and_alternatives() -> None:
    done = run("--json", "--top", "3", "--players", "2", HAND, DRAGON)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    sol = solve(HAND, players=2, top=3)
    assert first["ev"] == pytest.approx(sol.ev, abs=1e-6)
    assert first["special"] is None
    assert first["row_win"] == pytest.approx(list(sol.row_win), abs=1e-6)
    assert len(first["alternatives"]) == 3
    assert first["alternatives"][0]["arrangement"] == first["arrangement"]
    assert second["special"] == "dragon"
    assert second["arrangement"].count("|") == 2


def test_json_top1_batch_path_agrees_with_the_api() -> None:
    done = run("--json", "--rules", "four-two", "--players", "3", stdin=HAND + "\n" + DRAGON + "\n")
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    for got, hand in ((first, HAND), (second, DRAGON)):
        sol = solve(hand, "four-two", players=3)
        assert got["ev"] == pytest.approx(sol.ev, abs=1e-6)
        assert got["special"] == sol.special
        assert got["arrangement"] == format_arrangement(c.code for c in sol.best.cards)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5", HAND], "players must be 2, 3 or 4"),
        (["--rules", "nope", HAND], "unknown rule preset"),
        (["--top", "0", HAND], "top must be"),
        (["--mode", "slow", HAND], "invalid choice"),
        (["--field", "pros", HAND], "invalid choice"),
    ],
)
def test_bad_options_exit_2_with_a_message(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_deep_mode_through_the_cli_is_seeded() -> None:
    a = run("--mode", "deep", "--seed", "4", "--json", HAND)
    b = run("--mode", "deep", "--seed", "4", "--json", HAND)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout


def test_parse_accepts_common_spellings() -> None:
    assert hand_codes("AS, 10h 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc") == hand_codes(
        "As Th 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"
    )
    assert len(hand_codes("A♠ K♠ Q♠ J♠ T♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠")) == 13


def test_field_option_sets_the_opponents() -> None:
    for field in ("population", "strong", "beginners"):
        done = run("--players", "2", "--field", field, "--json", HAND)
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        expected = solve(HAND, players=2, field=field)
        assert answer["arrangement"] == format_arrangement(c.code for c in expected.best.cards)
        assert answer["ev"] == pytest.approx(expected.ev, abs=1e-6)
