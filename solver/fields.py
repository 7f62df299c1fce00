"""Who sits at the table: the named opponent fields and the fast solver's model for each.

The best set depends on the opponents, so fast mode and deep mode take ``field=``:

* ``"population"`` (the default): a quarter of the opponents set "strongest back first",
  the rest play the best response to that population;
* ``"strong"``: a table of solvers (the best response to itself, no naive players);
* ``"beginners"``: every opponent sets "strongest back first".

Each field has its own tables (:mod:`solver.training.tables` builds them;
:mod:`solver.tables` loads them and makes the compiled model of each: ``get_model``);
deep mode deals its sampled opponents the same mix (:data:`NAIVE_SHARE`), or, when the
table names who sits in each seat (its lineup), each seat as its level plays
(:func:`seat_naive_share`).  This module names the fields and imports no table code, so
:mod:`solver.tables` can use the names.
"""

from __future__ import annotations

from .rules import PRESETS, Rules

FIELDS = ("population", "strong", "beginners")
DEFAULT_FIELD = "population"
#: Share of each field's players who set "strongest back first" [choice for "population":
#: real tables hold naive players; a quarter costs little against strong ones].
NAIVE_SHARE = {"population": 0.25, "strong": 0.0, "beginners": 1.0}
#: The mixture of opponent policies fast mode is measured and re-ranked against (issue
#: 42), each hand set by one of them with these chances: the strong field's fast solver
#: (a table of solvers), the population field's (the Play page's Club) and "strongest back
#: first" (a beginner) [choice: one each, so no table the solver may meet dominates].
MIXTURE = {"strong": 1 / 3, "population": 1 / 3, "naive": 1 / 3}
#: Who can sit in an opponent seat of a table's lineup (``Table(lineup=...)``): a person,
#: or a computer level of :mod:`solver.players`.
SEATS = ("person", "beginner", "club", "expert")
#: The seats whose player sets hands with the fast solver (re-ranked, as :func:`solver.solve`
#: plays): a Club, and an Expert, whose deep set differs from it only where two sets are close.
SOLVER_SEATS = frozenset({"club", "expert"})


def seat_naive_share(seat: str, field: str) -> float:
    """Share of the hands the opponent in ``seat`` (one of :data:`SEATS`) sets "strongest
    back first" at a table whose field is ``field``: a Beginner always; Club and Expert
    never (both play the fast solver's set against ``field``, the Expert's deep set
    differing from it only where two sets are close); a person as the field does."""
    if seat == "person":
        return NAIVE_SHARE[field]
    return 1.0 if seat == "beginner" else 0.0


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
