"""Golden playthrough: a fixed-seed bot round must replay to the stored public log.

Regenerate (after an intended rule change only) with
``PYTHONPATH=. python tests/test_macao_golden.py --write``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from macao import Rules
from macao.bots import make_bot
from macao.simulate import play_round

GOLDEN = Path(__file__).resolve().parent / "data" / "macao_golden_3p_seed7.txt"
RULES = Rules(players=3, decks=2, start_cards=6)


def trace() -> str:
    final = play_round(RULES, [make_bot("normal"), make_bot("easy"), make_bot("random")], seed=7)
    lines = [str(event) for event in final.log]
    lines.append(f"ranking {list(final.ranking)} after {final.moves} actions")
    hands = hashlib.md5(repr(final.hands).encode()).hexdigest()
    lines.append(f"final hands md5 {hands}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough_replays_exactly():
    assert trace() == GOLDEN.read_text(encoding="utf-8")


if __name__ == "__main__" and "--write" in sys.argv:
    GOLDEN.write_text(trace(), encoding="utf-8")
