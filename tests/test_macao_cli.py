"""The command line: ``python -m macao play`` and ``python -m macao simulate``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from macao import Accept, CallMacao, Draw, Play, PlayDrawn, Rules, apply, make_state
from macao.cli import main, parse_move
from solver.cards import Suit

ROOT = Path(__file__).resolve().parents[1]


def run(argv, text=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def test_play_a_whole_round_by_numbers():
    code, out = run(["play", "--seed", "5", "--bots", "easy"], "1\n" * 3000)
    assert code == 0, out[-2000:]
    assert "Round over" in out and "Placings" in out
    assert "P0 plays" in out or "P0 draws" in out


def test_play_three_players_with_rule_options():
    argv = ["play", "--seed", "9", "--players", "3", "--bots", "random", "normal", "--decks", "2",
            "--no-jokers", "--stacking", "any", "--end-mode", "first_wins"]  # fmt: skip
    code, out = run(argv, "1\n" * 3000)
    assert code == 0 and "Round over" in out


def test_eof_and_bad_input_have_clear_messages():
    code, out = run(["play", "--seed", "5"], "zz\n99\n?\n")
    assert code == 1
    assert "Could not read that: unknown card 'zz'" in out
    assert "move number must be 1.." in out
    assert "Moves:" in out  # help text
    assert "Input ended (EOF)" in out
    assert "Traceback" not in out


def test_quit():
    code, out = run(["play", "--seed", "5"], "q\n")
    assert code == 1 and "You left the round" in out


def test_parse_move_words():
    s = make_state(hands=["AC 5H 9D", "KD 7S"], top="9H")
    assert parse_move("ac h", s) == Play("AC", suit="h")
    assert parse_move("9d", s) == Play("9D")
    assert parse_move("draw", s) == Draw()
    assert parse_move("5h !", s) == Play("5H", declare=True)
    said = parse_move("5h macao", s)
    assert isinstance(said, Play) and said.declare is True
    assert parse_move("p h !", s) == PlayDrawn(suit="h", declare=True)
    assert parse_move("a", s) == Accept()
    with pytest.raises(ValueError, match="unknown suit"):
        parse_move("p x", s)
    with pytest.raises(ValueError, match="nobody can be caught"):
        parse_move("m", s)
    exposed = apply(make_state(hands=["5H 9D", "KD 7S"], top="9H"), Play("5H"))
    assert parse_move("macao", exposed, seat=1) == CallMacao(1, 0)
    assert Play("AC", suit="h").suit is Suit.HEARTS


def test_illegal_typed_move_is_explained():
    _, out = run(["play", "--seed", "5", "--first-player", "0"], "draw\naccept\nq\n")
    assert "Not allowed:" in out and "(rule" in out


def test_simulate_prints_a_table():
    code, out = run(["simulate", "--bots", "normal", "random", "--games", "20", "--seed", "3"])
    assert code == 0
    assert "win rate [95% CI]" in out and "normal" in out and "random" in out


def test_bad_options_are_reported():
    code, out = run(["simulate", "--players", "5", "--bots", "normal"] + ["random"] * 4 + ["--games", "2"])
    assert code == 2 and "players must be an integer 2..4, got 5" in out
    code, out = run(["simulate", "--players", "3", "--bots", "normal", "random", "--games", "2"])
    assert code == 2 and "--bots needs 3 levels" in out
    code, out = run(["play", "--players", "4", "--bots", "easy", "normal"], "")
    assert code == 2 and "one bot level or 3" in out
    with pytest.raises(SystemExit):
        run(["simulate", "--stacking", "bombs"])


def test_module_entry_point_runs():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "macao", "simulate", "--games", "4", "--bots", "easy", "random"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "avg place" in done.stdout
    assert Rules().players == 2


def test_play_and_simulate_offer_the_hard_level():
    code, out = run(["play", "--seed", "4", "--bots", "hard"], "1\n" * 3000)
    assert code == 0 and "Round over" in out and "(hard)" in out
    code, out = run(["simulate", "--bots", "hard", "easy", "--games", "2", "--seed", "3"])
    assert code == 0, out
    assert "ms/decision" in out and "p95 ms" in out and "hard" in out
    code, out = run(["simulate", "--bots", "normal", "random", "--games", "2", "--jobs", "0"])
    assert code == 2 and "jobs must be a positive integer" in out
    code, out = run(["simulate", "--bots", "hard", "random", "--games", "1", "--hard-playouts", "0"])
    assert code == 2 and "playouts" in out and "must be positive" in out
