"""Command line: ``mau-binh`` / ``python -m solver``.

Hands come as arguments (one quoted hand per argument, or 13 card arguments for one
hand) or, with no arguments, one per line on stdin.  Each hand gets one output line,
``front | middle | back`` in canonical form (rows strongest card first), or with
``--json`` one JSON object with the EV, the special hand, per-row win probabilities
and the alternatives.  A bad line is reported on stderr with its line number and
reason, leaves an empty line in its place on stdout (so output lines stay aligned with
input lines), and makes the exit status 1 once every other line is answered.

Batch input is streamed in blocks through the compiled batch solver, so thousands of
hands per second go through; tables load once, on first use.

Examples::

    mau-binh "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
    mau-binh --json --top 3 --players 2 < hands.txt
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO

import numpy as np

from . import _core
from .cards import RANK_SYMBOLS, SUITS, Card, InvalidCardError, InvalidHandError, parse_cards
from .fields import DEFAULT_FIELD, FIELDS, get_model
from .rules import PRESETS, SPECIAL_NAMES, InvalidRulesError, Rules, get_rules
from .scoring import check_hand

BLOCK = 4096
_NEG_INF = float("-inf")

# Fast token table: the spellings people type most, mapped straight to codes.
_NAMES = [RANK_SYMBOLS[c // 4] + SUITS[c % 4].value for c in range(52)]
_FAST: dict[str, int] = {}
for _code, _name in enumerate(_NAMES):
    for _rank in {_name[0], _name[0].lower(), "10" if _name[0] == "T" else _name[0]}:
        for _suit in {_name[1], _name[1].upper()}:
            _FAST[_rank + _suit] = _code
# rows print strongest card first, suits in s h d c order
_DISPLAY = sorted(range(52), key=lambda c: (-(c >> 2), c & 3))
_ORDER = [0] * 52
for _pos, _code in enumerate(_DISPLAY):
    _ORDER[_code] = _pos


def parse_hand_codes(line: str) -> list[int]:
    """Codes of a 13-card hand; raises InvalidCardError / InvalidHandError with the reason."""
    tokens = line.replace(",", " ").split()
    try:
        codes = [_FAST[t] for t in tokens]
    except KeyError:
        codes = [c.code for c in parse_cards(line)]  # slow path: any accepted spelling, or the error
    if len(codes) != 13 or len(set(codes)) != 13 or max(codes, default=0) > 51:
        check_hand([Card(c) for c in codes])  # raises with the reason
    return codes


def format_row(codes: Iterable[int]) -> str:
    return " ".join(_NAMES[c] for c in sorted(codes, key=_ORDER.__getitem__))


def format_arrangement(codes: Iterable[int]) -> str:
    row = [int(c) for c in codes]
    return f"{format_row(row[:3])} | {format_row(row[3:8])} | {format_row(row[8:])}"


def _format_sorted(row: list[int]) -> str:
    """``format_arrangement`` for rows already in display order (from solve_batch)."""
    n = _NAMES
    return (f"{n[row[0]]} {n[row[1]]} {n[row[2]]} | {n[row[3]]} {n[row[4]]} {n[row[5]]} {n[row[6]]} {n[row[7]]} | "
            f"{n[row[8]]} {n[row[9]]} {n[row[10]]} {n[row[11]]} {n[row[12]]}")  # fmt: skip


def _lines_from_args(hands: list[str]) -> list[str]:
    # 13 single-card arguments are one hand: mau-binh Ah Ad 7c ...
    if len(hands) == 13 and all(len(h.split()) == 1 for h in hands):
        return [" ".join(hands)]
    return hands


class Answerer:
    """Turns blocks of hand lines into output lines for one set of options."""

    def __init__(
        self, rules: Rules, players: int, mode: str, top: int, seed: int | None, as_json: bool, field: str
    ) -> None:
        from . import strategy

        self.strategy = strategy
        self.rules, self.players, self.mode, self.top, self.seed, self.as_json, self.field = (
            rules,
            players,
            mode,
            top,
            seed,
            as_json,
            field,
        )
        self.model = get_model(rules, players, field)
        self.values = [rules.special_value(n) for n in SPECIAL_NAMES]
        self.workers = min(4, os.cpu_count() or 1)
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def answer(self, hands: list[list[int]]) -> list[str]:
        if self.mode == "deep" or (self.as_json and self.rules.special_detection == "layout"):
            return [self._one_by_api(codes) for codes in hands]
        arrs, evs = self._solve_batch(np.asarray(hands, dtype=np.int32))
        if not self.as_json:
            return [_format_sorted(a) if e != _NEG_INF else self._one_by_api(h) for a, e, h in
                    zip(arrs.tolist(), evs.tolist(), hands)]  # fmt: skip
        specials = _core.special_indexes(
            np.asarray(hands, dtype=np.int32), self.values, self.rules.six_pairs_rule == "strict",
            self.rules.ace_low_runs,
        )  # fmt: skip
        out = []
        for codes, arr, ev, sp in zip(hands, arrs.tolist(), evs.tolist(), specials.tolist()):
            if ev == _NEG_INF or self.top > 1:
                out.append(self._one_by_api(codes))
                continue
            cards = [Card(c) for c in codes]
            special = SPECIAL_NAMES[sp] if sp >= 0 and self.rules.specials else None
            constant = self.strategy.ace_ev(cards, self.rules, self.players)
            value = self.strategy.special_ev(special, self.rules, self.players) if special else ev
            _, wins, _, _ = _core.arrangement_stats(self.model, arr[:3], arr[3:8], arr[8:])
            text = format_arrangement(arr)
            out.append(self._json(text, value + constant, special, wins, [(text, value + constant)]))
        return out

    def _solve_batch(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """solve_batch, split over the cores for big blocks (the C loop releases the GIL)."""
        if len(hands) < 512 or self.pool is None:
            return _core.solve_batch(self.model, hands)
        parts = np.array_split(hands, self.workers)
        done = list(self.pool.map(lambda part: _core.solve_batch(self.model, np.ascontiguousarray(part)), parts))
        return np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done])

    def _one_by_api(self, codes: list[int]) -> str:
        sol = self.strategy.solve(
            [Card(c) for c in codes], self.rules, self.players, self.mode, self.top, self.seed, self.field
        )
        text = format_arrangement(c.code for c in sol.best.cards)
        if not self.as_json:
            return text
        alts = [(format_arrangement(c.code for c in a.cards), ev) for a, ev in sol.alternatives]
        return self._json(text, sol.ev, sol.special, sol.row_win, alts)

    def _json(
        self, text: str, ev: float, special: str | None, wins: Iterable[float], alts: list[tuple[str, float]]
    ) -> str:
        return json.dumps(
            {
                "arrangement": text,
                "ev": round(ev, 6),
                "special": special,
                "row_win": [round(float(w), 6) for w in wins],
                "alternatives": [{"arrangement": a, "ev": round(e, 6)} for a, e in alts],
            }
        )


def _blocks(lines: Iterable[str]) -> Iterator[list[tuple[int, str]]]:
    block: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        block.append((number, line))
        if len(block) == BLOCK:
            yield block
            block = []
    if block:
        yield block


def run(lines: Iterable[str], answerer: Answerer, out: TextIO, err: TextIO) -> int:
    """Answer every line; returns the number of bad lines."""
    bad = 0
    for block in _blocks(lines):
        parsed: list[list[int] | None] = []
        for number, line in block:
            try:
                if not line.strip():
                    raise InvalidHandError("empty line; expected 13 cards")
                parsed.append(parse_hand_codes(line))
            except (InvalidCardError, InvalidHandError) as exc:
                print(f"line {number}: {exc}", file=err)
                parsed.append(None)
                bad += 1
        good = [p for p in parsed if p is not None]
        answers = iter(answerer.answer(good)) if good else iter(())
        out.write("".join((next(answers) if p is not None else "") + "\n" for p in parsed))
    out.flush()
    return bad


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mau-binh",
        description="Set Mau Binh hands for the highest expected chi. Hands as arguments or one per line on stdin.",
    )
    parser.add_argument("hands", nargs="*", help='hands of 13 cards, e.g. "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"')
    parser.add_argument("--rules", default="vietnamese", help=f"rule preset: {', '.join(sorted(PRESETS))}")
    parser.add_argument("--players", type=int, default=4, help="players at the table, 2-4 (default 4)")
    parser.add_argument("--mode", default="fast", choices=("fast", "deep"))
    parser.add_argument("--top", type=int, default=1, help="alternatives listed with --json (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed for deep mode")
    parser.add_argument(
        "--field",
        default=DEFAULT_FIELD,
        choices=FIELDS,
        help="who sits at the table: population (default: a quarter naive), strong (solvers), "
        "beginners (strongest back first)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per hand with ev, special, row_win")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .strategy import check_players, check_top

    try:
        rules = get_rules(args.rules)
        check_players(args.players)
        check_top(args.top)
    except (InvalidRulesError, ValueError) as exc:
        parser.error(str(exc))
    answerer = Answerer(rules, args.players, args.mode, args.top, args.seed, args.json, args.field)
    lines: Iterable[str] = _lines_from_args(args.hands) if args.hands else sys.stdin
    try:
        bad = run(lines, answerer, sys.stdout, sys.stderr)
    except BrokenPipeError:  # e.g. piped into head
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
