"""Who sits at the table: the named opponent fields and the fast solver's model for each.

The best set depends on the opponents, so fast mode and deep mode take ``field=``:

* ``"population"`` (the default): a quarter of the opponents set "strongest back first",
  the rest play the best response to that population;
* ``"strong"``: a table of solvers (the best response to itself, no naive players);
* ``"beginners"``: every opponent sets "strongest back first".

Each field has its own tables (:mod:`solver.tables` builds them); deep mode deals its
sampled opponents the same mix (:data:`NAIVE_SHARE`).  Both :mod:`solver.strategy` and
:mod:`solver.deep` take the model from here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from . import _core
from .rules import PRESETS, Rules

if TYPE_CHECKING:
    from .tables import Field

# solver.tables is imported where it is used, so `import solver` does not load it and
# `python -m solver.tables build` runs it as a fresh __main__ without a runpy warning

FIELDS = ("population", "strong", "beginners")
DEFAULT_FIELD = "population"
#: Share of each field's players who set "strongest back first" [choice for "population":
#: real tables hold naive players; a quarter costs little against strong ones].
NAIVE_SHARE = {"population": 0.25, "strong": 0.0, "beginners": 1.0}


def check_field(field: object) -> str:
    if field not in FIELDS:
        raise ValueError(f"field must be one of {', '.join(map(repr, FIELDS))}, got {field!r}")
    return str(field)


_TABLE_FIELDS = ("wheel", "bonuses", "sweep_mult", "sweep_bonus", "majority_bonus", "sap_lang", "sap_lang_mult")


def table_preset(rules: Rules) -> str:
    """The preset whose field tables fit ``rules`` best (an exact preset maps to itself).

    The field depends on how players set hands, which the scoring options drive; a custom
    rule set borrows the closest preset's field (same A-2-3-4-5 rank first) and is then
    scored with its own values.
    """
    for name, preset in PRESETS.items():
        if preset == rules:
            return name

    def distance(name: str) -> tuple[int, int]:
        preset = PRESETS[name]
        return (preset.wheel != rules.wheel, sum(getattr(preset, f) != getattr(rules, f) for f in _TABLE_FIELDS))

    return min(sorted(PRESETS), key=distance)


def get_field(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> Field:
    """Row-class distribution of the named field for these rules and table size."""
    from .tables import load_field

    return load_field(table_preset(rules), players, check_field(field))


@lru_cache(maxsize=64)
def get_model(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> _core.Model:
    """The compiled model for these rules, table size and field (loaded once, then cached)."""
    from .tables import make_model

    return make_model(get_field(rules, players, field), rules, players)
