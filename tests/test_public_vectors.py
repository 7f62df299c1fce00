"""Every public vector of shared/vectors/mau-binh-public.json, with every variant."""

from __future__ import annotations

from typing import Any

import pytest

from solver import PRESETS, Rules, hand_strength, is_valid, score_table, special_hand
from tests.conftest import load_public_vectors


def _cases() -> list[Any]:
    cases = []
    for v in load_public_vectors():
        cases.append(pytest.param(v, {}, v["expected"], id=v["id"]))
        for n, var in enumerate(v.get("variants", [])):
            cases.append(pytest.param(v, var["rules"], var["expected"], id=f"{v['id']}-{var['option']}-{n}"))
    return cases


def _outcome(vector: dict[str, Any], rules: Rules, expected: Any) -> Any:
    kind = vector["kind"]
    if kind == "compare":
        x, y = hand_strength(vector["x"], rules), hand_strength(vector["y"], rules)
        return ">" if x > y else "<" if x < y else "="
    if kind == "validity":
        return "valid" if is_valid(vector["arrangement"], rules) else "foul"
    if kind == "heads_up":
        result = score_table([vector["a"], vector["b"]], rules)
        assert result.totals[1] == -result.totals[0]
        return result.totals[0]
    if kind == "table":
        result = score_table(vector["players"], rules)
        pairs = {key: result.pairs[int(key[0])][int(key[2])] for key in expected["pairs"]}
        return {"totals": result.totals, "pairs": pairs}
    if kind == "special":
        name = special_hand(vector["hand"], rules)
        return None if name is None else {"name": name, "value": rules.special_value(name)}
    raise AssertionError(f"unknown vector kind {kind!r}")


def test_vector_file_has_every_kind() -> None:
    kinds = {v["kind"] for v in load_public_vectors()}
    assert kinds == {"compare", "validity", "heads_up", "table", "special"}


@pytest.mark.parametrize(("vector", "options", "expected"), _cases())
def test_public_vector(vector: dict[str, Any], options: dict[str, Any], expected: Any) -> None:
    rules = Rules.from_options(options, base=PRESETS["vietnamese"])
    assert _outcome(vector, rules, expected) == expected
