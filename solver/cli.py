"""Command line: ``mau-binh`` / ``python -m solver``.

Hands come as arguments (one quoted hand per argument, or 13 card arguments for one
hand) or, with no arguments, one per line on stdin.  Each hand gets one output line,
``front | middle | back`` in canonical form (rows strongest card first), or with
``--json`` one JSON object with the EV, the special hand, per-row win probabilities
and the alternatives.  A bad line is reported on stderr with its line number and
reason, leaves an empty line in its place on stdout (so output lines stay aligned with
input lines), and makes the exit status 1 once every other line is answered.

Input is streamed in blocks of lines through :func:`solver.batch.solve_many` (the
compiled core over both cores), so tens of thousands of hands per second go through;
tables load once, on first use.

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
from typing import TextIO

from .batch import SolutionBatch, solve_many
from .cards import InvalidCardError, InvalidHandError
from .context import Table
from .fields import DEFAULT_FIELD, FIELDS
from .handcodes import CARD_NAMES
from .messages import echo
from .rules import PRESETS, InvalidRulesError, Rules, get_rules
from .strategy import check_players, check_seed, check_top, solve

#: Lines solved per call of solve_many (the core then splits a block over the cores).
BLOCK = 8192

# rows print strongest card first, suits in s h d c order
_DISPLAY = sorted(range(52), key=lambda c: (-(c >> 2), c & 3))
_ORDER = [0] * 52
for _pos, _code in enumerate(_DISPLAY):
    _ORDER[_code] = _pos


def format_row(codes: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(codes, key=_ORDER.__getitem__))


def format_arrangement(codes: Iterable[int]) -> str:
    row = [int(c) for c in codes]
    return f"{format_row(row[:3])} | {format_row(row[3:8])} | {format_row(row[8:])}"


def _format_sorted(row: list[int]) -> str:
    """``format_arrangement`` for rows already in display order (from solve_many)."""
    n = CARD_NAMES
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
        self, rules: Rules, players: int, mode: str, top: int, seed: int | None, as_json: bool,
        field: str = DEFAULT_FIELD,
    ) -> None:  # fmt: skip
        self.rules, self.players, self.mode, self.top, self.seed, self.as_json, self.field = (
            rules,
            players,
            mode,
            top,
            seed,
            as_json,
            field,
        )
        self.table = Table(rules, players, field)  # validated once, its model loaded once
        self.workers = os.cpu_count() or 1

    def answer(self, lines: list[str]) -> tuple[list[str], dict[int, str]]:
        """One output line per input line ("" for a bad one), and each bad line's reason."""
        if self.as_json and self.top > 1:
            return self._one_by_one(lines)
        batch = solve_many(lines, mode=self.mode, seed=self.seed, workers=self.workers, table=self.table)
        rows = batch.best.tolist()
        bad = batch.bad.tolist()
        if not self.as_json:
            return ["" if b else _format_sorted(row) for row, b in zip(rows, bad)], batch.messages
        return [self._json_line(batch, i) if not b else "" for i, b in enumerate(bad)], batch.messages

    def _json_line(self, batch: SolutionBatch, i: int) -> str:
        sol = batch.solution(i)
        text = _format_sorted(batch.best[i].tolist())
        return self._json(text, sol.ev, sol.special, sol.row_win, [(text, sol.ev)])

    def _one_by_one(self, lines: list[str]) -> tuple[list[str], dict[int, str]]:
        """JSON with alternatives: the one-hand API lists the top sets of each hand."""
        out: list[str] = []
        messages: dict[int, str] = {}
        for i, line in enumerate(lines):
            try:
                sol = solve(line, mode=self.mode, top=self.top, seed=self.seed, table=self.table)
            except (InvalidCardError, InvalidHandError) as exc:
                messages[i] = str(exc)
                out.append("")
                continue
            alts = [(format_arrangement(c.code for c in a.cards), ev) for a, ev in sol.alternatives]
            out.append(self._json(alts[0][0], sol.ev, sol.special, sol.row_win, alts))
        return out, messages

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


def _blocks(lines: Iterable[str | bytes]) -> Iterator[list[tuple[int, str | bytes]]]:
    block: list[tuple[int, str | bytes]] = []
    for number, line in enumerate(lines, 1):
        block.append((number, line))
        if len(block) == BLOCK:
            yield block
            block = []
    if block:
        yield block


def decode_line(line: str | bytes) -> str:
    """The text of one input line.  Stdin is read as bytes and decoded here, line by line, as
    UTF-8 whatever the locale says, so an undecodable line is one bad line, not a crash."""
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{line[exc.start]:02x} at position {exc.start + 1}"
        shown = echo(line.rstrip(b"\r\n"))
        raise InvalidCardError(f"not UTF-8 text ({where}): {shown}") from None


def run(lines: Iterable[str | bytes], answerer: Answerer, out: TextIO, err: TextIO) -> int:
    """Answer every line (text, or bytes decoded as UTF-8); returns the number of bad lines."""
    bad = 0
    for block in _blocks(lines):
        texts: list[str] = []
        undecodable: dict[int, str] = {}
        for i, (_, raw) in enumerate(block):
            try:
                texts.append(decode_line(raw))
            except InvalidCardError as exc:
                undecodable[i] = str(exc)
                texts.append("")  # answered as a bad line; the decoding error is its reason
        answers, messages = answerer.answer(texts)
        messages = {**messages, **undecodable}
        for i, reason in sorted(messages.items()):
            if not texts[i].strip() and i not in undecodable:
                reason = "empty line; expected 13 cards"
            print(f"line {block[i][0]}: {reason}", file=err)
        bad += len(messages)
        out.write("".join(answer + "\n" for answer in answers))
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
    try:
        rules = get_rules(args.rules)
        check_players(args.players)
        check_top(args.top)
        check_seed(args.seed)
    except (InvalidRulesError, ValueError) as exc:
        parser.error(str(exc))
    answerer = Answerer(rules, args.players, args.mode, args.top, args.seed, args.json, args.field)
    lines: Iterable[str | bytes] = _lines_from_args(args.hands) if args.hands else sys.stdin.buffer
    try:
        bad = run(lines, answerer, sys.stdout, sys.stderr)
    except BrokenPipeError:  # e.g. piped into head
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
