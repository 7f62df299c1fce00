"""Fuzzing the library's entry points and the CLI (issue 9).

Every public entry point that takes outside input is fed generated input: text built from
card-like tokens, separators and junk; rule options with valid, huge and wrong values;
hands, arrangements and tables dealt from a shuffled deck; and random bytes on the CLI.
What must hold:

* only the documented domain errors come out: ``ValueError`` subclasses (InvalidCardError,
  InvalidHandError, InvalidRulesError, or ValueError naming the bad argument), with a
  message of bounded length whatever the input's length;
* every accepted hand is answered with a set of exactly its 13 cards, and ``solve``'s EV
  is what ``evaluate`` gives for the set it returns;
* a settlement is zero-sum and antisymmetric;
* the CLI writes one output line per input line, empty for a bad line, else a set of
  exactly that line's cards.

Each check runs twice: ``[ci]`` with a small fixed number of examples (derandomized, so
the same examples every run; all of them together take a few seconds), and ``[slow]``
with FUZZ_SLOW_EXAMPLES (100,000) examples, marked ``slow``:
``pytest -m slow tests/test_fuzz.py``.
"""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from solver import PRESETS, Arrangement, Card, Rules, evaluate, parse_cards, score_table, solve
from solver.cards import full_deck
from solver.cli import Answerer, run
from solver.messages import ECHO_CHARS
from solver.rules import NUMBER_RANGES, SPECIAL_NAMES
from solver.scoring import arrangement_from_codes, layouts_showing, special_candidates

FUZZ_SLOW_EXAMPLES = 100_000
#: Longest message any error may have: the quoted input (escapes included) plus the
#: message's own words (the list of rule option names is the longest of those).
MESSAGE_LIMIT = 4 * ECHO_CHARS + 500


def examples(ci: int) -> list[Any]:
    return [pytest.param(ci, id="ci"), pytest.param(FUZZ_SLOW_EXAMPLES, id="slow", marks=pytest.mark.slow)]


def fuzz(count: int, strategy: hs.SearchStrategy[Any], check: Callable[[Any], None]) -> None:
    """Run ``check`` on ``count`` examples of ``strategy``, derandomized (same examples each run)."""
    settings(
        max_examples=count,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(check))()


def domain_error(call: Callable[[], Any]) -> Any:
    """The call's result, or None when it raised a ValueError with a short message."""
    try:
        return call()
    except ValueError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT, f"{type(exc).__name__} message of {len(str(exc)):,} characters"
        return None


# --- text ------------------------------------------------------------------------------------

CARD_TOKENS = [str(c) for c in full_deck()] + ["10h", "as", "A♠", "K♥", "1d", "BJ", "rj", "Zz", "11c", "T"]
SEPARATORS = [" ", ",", ";", "  ", "\t", "\n", "|", "/", ", ", "\u3000", "\x00"]
token_text = hs.lists(hs.sampled_from(CARD_TOKENS) | hs.text(max_size=4), max_size=20).flatmap(
    lambda tokens: hs.lists(hs.sampled_from(SEPARATORS), min_size=len(tokens), max_size=len(tokens)).map(
        lambda seps: "".join(t + s for t, s in zip(tokens, seps))
    )
)
card_text = hs.one_of(hs.text(max_size=60), token_text, hs.text(min_size=300, max_size=3000))


def check_parse_cards(text: str) -> None:
    cards = domain_error(lambda: parse_cards(text))
    if cards is not None:
        assert all(isinstance(c, Card) for c in cards)
        assert parse_cards(" ".join(map(str, cards))) == cards


@pytest.mark.parametrize("count", examples(400))
def test_fuzz_parse_cards(count: int) -> None:
    fuzz(count, card_text, check_parse_cards)


def check_arrangement_parse(text: str) -> None:
    arrangement = domain_error(lambda: Arrangement.parse(text))
    if arrangement is not None:
        assert [len(r) for r in arrangement.rows] == [3, 5, 5]
        assert len(set(arrangement.cards)) == 13
        assert Arrangement.parse(str(arrangement)) == arrangement


def dealt_arrangement_text(seed: int) -> str:
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return f"{' '.join(map(str, deck[:3]))} | {' '.join(map(str, deck[3:8]))} | {' '.join(map(str, deck[8:13]))}"


arrangement_text = hs.one_of(card_text, hs.integers(0, 2**32).map(dealt_arrangement_text))


@pytest.mark.parametrize("count", examples(400))
def test_fuzz_arrangement_parse(count: int) -> None:
    fuzz(count, arrangement_text, check_arrangement_parse)


# --- rules ------------------------------------------------------------------------------------

OPTION_NAMES = [f for f in vars(Rules()) if f != "six_pairs"] + ["six_pairs", "scoop_mult", "sap_mult", "wheels", ""]
option_values = hs.one_of(
    hs.integers(-5, 20),
    hs.integers(),
    hs.sampled_from([2**31, 2**63, 10**20, -(2**31), 1000, 1001, 16, 17]),
    hs.booleans(),
    hs.none(),
    hs.floats(allow_nan=True),
    hs.sampled_from(["second", "lowest", "owner", "zero", "add", "none", "strict", "layout", "auto", "on", "diff"]),
    hs.text(max_size=10),
    hs.dictionaries(hs.sampled_from([*SPECIAL_NAMES, "dragonn"]), hs.integers(-2, 2000), max_size=3),
)
rule_options = hs.one_of(
    hs.dictionaries(hs.sampled_from(OPTION_NAMES), option_values, max_size=5),
    hs.lists(hs.integers(), max_size=2),
    hs.text(max_size=10),
)


def check_rules_from_options(options: Any) -> None:
    rules = domain_error(lambda: Rules.from_options(options))
    if rules is not None:
        for name, (low, high) in NUMBER_RANGES.items():
            assert low <= getattr(rules, name) <= high
        table = score_table([Arrangement(h[:3], h[3:8], h[8:]) for h in deal(7, 3)], rules)
        assert sum(table.totals) == 0


@pytest.mark.parametrize("count", examples(400))
def test_fuzz_rules_from_options(count: int) -> None:
    fuzz(count, rule_options, check_rules_from_options)


# --- solve, evaluate, score_table ---------------------------------------------------------------


def rule_pool() -> list[Rules]:
    """The presets, the extremes of every numeric option, and rule sets drawn with a fixed seed
    (a small pool, so the solver's per-rules model is built once per rule set)."""
    rng = random.Random(2026)
    pool = list(PRESETS.values())
    highest = {name: high for name, (_, high) in NUMBER_RANGES.items()}
    lowest = {name: low for name, (low, _) in NUMBER_RANGES.items()}
    pool.append(Rules.from_options(highest | {"bonuses": "aces_extra", "specials": dict.fromkeys(SPECIAL_NAMES, 1000)}))
    pool.append(Rules.from_options(lowest | {"foul_mode": "opponent_x2", "special_detection": "layout"}))
    choices: dict[str, list[Any]] = {
        "wheel": ["second", "lowest"], "strict": [False, True], "ties": ["zero", "owner"],
        "bonuses": ["replace", "add", "none", "doubled", "aces_extra"], "foul_mode": ["flat", "opponent_x2"],
        "six_pairs_rule": ["generous", "strict"], "special_detection": ["auto", "layout"],
        "special_vs_special": ["higher", "tie", "difference"], "ace_low_runs": [True, False],
        "aces": [True, False], "specials": [True, False],
    }  # fmt: skip
    for _ in range(12):
        options = {name: rng.choice(values) for name, values in choices.items()}
        pool.append(Rules.from_options(options | {"sweep_mult": rng.randint(1, 4), "foul_chi": rng.randint(0, 12)}))
    return pool


RULES = rule_pool()


def deal(seed: int, seats: int = 1) -> list[list[Card]]:
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return [deck[13 * i : 13 * (i + 1)] for i in range(seats)]


def special_deal(seed: int) -> list[Card]:
    """A hand built to hold a special (six pairs, three flushes or three straights), which
    random deals rarely give."""
    rng = random.Random(seed)
    kind = rng.choice(["six_pairs", "three_flushes", "three_straights"])
    if kind == "six_pairs":
        ranks = rng.sample(range(2, 15), 7)
        cards = [Card.of(r, s) for r in ranks[:6] for s in rng.sample("shdc", 2)] + [Card.of(ranks[6], "s")]
    elif kind == "three_flushes":
        suits = rng.sample("shdc", 3)
        cards = [Card.of(r, suit) for suit, n in zip(suits, (5, 5, 3)) for r in rng.sample(range(2, 15), n)]
    else:
        cards = []
        while len(set(cards)) != 13:
            cards = [
                Card.of(r, rng.choice("shdc"))
                for start, n in ((rng.randint(2, 10), 5), (rng.randint(2, 10), 5), (rng.randint(2, 12), 3))
                for r in range(start, start + n)
            ]
    rng.shuffle(cards)
    return cards


solve_args = hs.tuples(
    hs.one_of(
        hs.integers(0, 2**32).map(lambda s: " ".join(map(str, deal(s)[0]))),
        hs.integers(0, 2**32).map(lambda s: " ".join(map(str, special_deal(s)))),
        card_text,
    ),
    hs.sampled_from(RULES),
    hs.sampled_from([2, 3, 4, 2, 3, 4, 2, 3, 4, 0, 5, -1]),  # mostly valid, now and then not
    hs.sampled_from([1, 1, 1, 2, 3, 5, 0, 65]),
)


def check_solve(args: tuple[str, Rules, int, int]) -> None:
    hand, rules, players, top = args
    solution = domain_error(lambda: solve(hand, rules, players=players, top=top))
    if solution is None:
        return
    cards = sorted(parse_cards(hand))
    assert sorted(solution.best.cards) == cards
    assert 1 <= len(solution.alternatives) <= top
    assert all(sorted(a.cards) == cards and math.isfinite(ev) for a, ev in solution.alternatives)
    assert solution.alternatives[0] == (solution.best, solution.ev)
    # solve's EV is evaluate's EV of the set it returns (specials, fouls and aces included)
    assert evaluate(hand, solution.best, rules, players=players).ev == pytest.approx(solution.ev, abs=1e-9)
    # and no layout of a special the hand holds is worth more (O13 "layout": it must be shown)
    for name in special_candidates(hand, rules) if rules.specials else []:
        shown = arrangement_from_codes(*layouts_showing(hand, name, rules)[0])
        assert evaluate(hand, shown, rules, players=players).ev <= solution.ev + 1e-9


@pytest.mark.parametrize("count", examples(300))
def test_fuzz_solve(count: int) -> None:
    fuzz(count, solve_args, check_solve)


evaluate_args = hs.tuples(
    hs.integers(0, 2**32),
    hs.permutations(range(13)),
    hs.sampled_from(RULES),
    hs.sampled_from([2, 3, 4]),
    hs.one_of(hs.none(), arrangement_text),
)


def check_evaluate(args: tuple[int, list[int], Rules, int, str | None]) -> None:
    seed, order, rules, players, text = args
    hand = deal(seed)[0]
    if text is None:  # the hand's own cards in a random order
        codes = [hand[i].code for i in order]
        arrangement: Arrangement | str = arrangement_from_codes(codes[:3], codes[3:8], codes[8:])
    else:  # any text: mostly other cards than the hand's
        arrangement = text
    result = domain_error(lambda: evaluate(hand, arrangement, rules, players=players))
    if result is not None:
        assert sorted(result.arrangement.cards) == sorted(hand)
        assert math.isfinite(result.ev) and all(0.0 <= p <= 1.0 + 1e-9 for p in result.row_win)


@pytest.mark.parametrize("count", examples(300))
def test_fuzz_evaluate(count: int) -> None:
    fuzz(count, evaluate_args, check_evaluate)


table_args = hs.tuples(
    hs.integers(0, 2**32),
    hs.integers(1, 5),
    hs.sampled_from(RULES),
    hs.lists(hs.permutations(range(13)), min_size=4, max_size=4),
)


def check_score_table(args: tuple[int, int, Rules, list[list[int]]]) -> None:
    seed, seats, rules, orders = args
    hands = deal(seed, min(seats, 4))
    arrangements = []
    for hand, order in zip(hands, orders):
        cards = [hand[i] for i in order]
        arrangements.append(Arrangement(cards[:3], cards[3:8], cards[8:]))
    table = domain_error(lambda: score_table(arrangements, rules))
    if table is None:
        assert not 2 <= len(arrangements) <= 4
        return
    n = len(arrangements)
    assert sum(table.totals) == 0
    assert all(table.pairs[i][j] == -table.pairs[j][i] for i in range(n) for j in range(n))


@pytest.mark.parametrize("count", examples(300))
def test_fuzz_score_table(count: int) -> None:
    fuzz(count, table_args, check_score_table)


# --- the CLI ------------------------------------------------------------------------------------

ANSWERER = Answerer(PRESETS["vietnamese"], 4, "fast", 1, None, False)
hand_line = hs.integers(0, 2**32).map(lambda s: " ".join(map(str, deal(s)[0])).encode())
cli_input = hs.lists(
    hs.one_of(hand_line, hs.binary(max_size=80), card_text.map(lambda t: t.encode("utf-8", "surrogatepass"))),
    max_size=12,
).map(lambda lines: b"\n".join(line.replace(b"\n", b" ") for line in lines))


def check_cli(data: bytes) -> None:
    out, err = io.StringIO(), io.StringIO()
    bad = run(io.BytesIO(data), ANSWERER, out, err)
    lines = io.BytesIO(data).readlines()
    answers = out.getvalue().split("\n")
    assert answers[-1] == "" and len(answers) - 1 == len(lines)
    assert sum(1 for a in answers[:-1] if not a) == bad == err.getvalue().count("\n")
    for line, answer in zip(lines, answers):
        if answer:
            front, middle, back = (parse_cards(row) for row in answer.split(" | "))
            assert [len(front), len(middle), len(back)] == [3, 5, 5]
            assert sorted(front + middle + back) == sorted(parse_cards(line.decode("utf-8")))


@pytest.mark.parametrize("count", examples(300))
def test_fuzz_cli_lines(count: int) -> None:
    fuzz(count, cli_input, check_cli)


def test_cli_process_fed_random_bytes() -> None:
    """The real process, strict UTF-8 locale settings, random bytes: aligned lines, no traceback."""
    rng = random.Random(9)
    chunks = [bytes(rng.randrange(256) for _ in range(rng.randrange(60))) for _ in range(40)]
    chunks += [" ".join(map(str, deal(s)[0])).encode() for s in range(10)]
    rng.shuffle(chunks)
    data = b"\n".join(c.replace(b"\n", b"") for c in chunks) + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "solver"], input=data, capture_output=True, timeout=120,
        env={"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert b"Traceback" not in done.stderr
    assert done.stdout.count(b"\n") == data.count(b"\n") == len(chunks)
    assert done.stdout.count(b"|") >= 2 * 10
