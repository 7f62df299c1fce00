"""The compiled core is the one in use, agrees with the Python reference keys, and its
absence fails loudly with the command that fixes it."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import solver
from solver import _core
from solver.cards import Card
from solver.hands import key3, key5


def test_compiled_core_is_in_use() -> None:
    assert _core.__file__ is not None
    assert _core.__file__.endswith((".so", ".pyd")), _core.__file__
    assert solver._core is _core


def test_core_keys_match_reference_on_random_rows() -> None:
    rng = random.Random(20261130)
    deck = list(range(52))
    for _ in range(20000):
        five = rng.sample(deck, 5)
        cards = [Card(c) for c in five]
        assert _core.key5(five, True) == key5(cards, "second")
        assert _core.key5(five, False) == key5(cards, "lowest")
        assert _core.key3(five[:3]) == key3(cards[:3])


def test_every_straight_and_wheel_matches() -> None:
    for low in range(-1, 9):
        ranks = [12] + list(range(0, 4)) if low == -1 else list(range(low, low + 5))
        codes = [r * 4 + (i % 2) for i, r in enumerate(ranks)]
        flush = [r * 4 for r in ranks]
        for c in (codes, flush):
            cards = [Card(x) for x in c]
            assert _core.key5(c, True) == key5(cards, "second")
            assert _core.key5(c, False) == key5(cards, "lowest")


def test_missing_core_fails_loudly_with_the_fix() -> None:
    code = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "solver._core":
                    raise ImportError("blocked for the test")
        sys.meta_path.insert(0, Block())
        try:
            import solver
        except ImportError as exc:
            print("ERROR:", exc)
        else:
            print("IMPORTED")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("ERROR:")
    assert 'pip install -e ".[test]"' in out
