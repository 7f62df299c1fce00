"""Mau Binh table rules: one frozen :class:`Rules` holding every option (spec §4, O2-O16).

The defaults are the normative rule set D1-D14 of ``shared/rules/mau-binh.md``.
Named presets live in :data:`PRESETS`:

* ``"vietnamese"`` - D1-D14 as written (positional bonuses, sập ×2, sập làng, flat-6
  fouls, seed special values, ace counting).
* ``"seed"`` - the Khmer source text literally: no positional bonuses, no sập làng.
* ``"plain"`` - international Chinese poker: 1 chi per row, no bonuses, specials, scoop
  doubling or aces; A-2-3-4-5 is the lowest straight; a foul loses all three rows (3).
* ``"four-two"`` - plain plus 1 for winning the majority (2+) of the rows, so a scoop
  is worth 4 (and a foul costs 4).

>>> PRESETS["plain"].wheel
'lowest'
>>> Rules.from_options({"strict": True}).strict
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import InvalidHandError
from .messages import echo

SPECIAL_NAMES = ("dragon_flush", "dragon", "six_pairs", "three_flushes", "three_straights")
SEED_SPECIAL_VALUES: tuple[tuple[str, int], ...] = (
    ("dragon_flush", 39),
    ("dragon", 13),
    ("six_pairs", 12),
    ("three_flushes", 9),
    ("three_straights", 6),
)

_CHOICES: dict[str, tuple[Any, ...]] = {
    "wheel": ("second", "lowest"),
    "ties": ("zero", "owner"),
    "bonuses": ("replace", "add", "none", "doubled", "aces_extra"),
    "foul_mode": ("flat", "opponent_x2", "opponent_x1"),
    "six_pairs_rule": ("generous", "strict"),
    "special_detection": ("auto", "layout"),
    "special_vs_special": ("higher", "tie", "difference"),
}


#: Largest chi a single option may set (a bonus, a foul payment, a special hand's value).
MAX_CHI = 1000
#: Largest multiplier (a scoop, sập làng).  Together with MAX_CHI these keep every
#: settlement far inside the compiled core's 32-bit integers: the three rows pay at most
#: 60 chi (aces_extra), so (60 + 1000) x 16 + 1000, x 16 again for sập làng, is under 300,000.
MAX_MULT = 16
#: Allowed range (inclusive) of every numeric option; special_values take 0..MAX_CHI each.
NUMBER_RANGES: dict[str, tuple[int, int]] = {
    "sweep_mult": (1, MAX_MULT),
    "sweep_bonus": (0, MAX_CHI),
    "majority_bonus": (0, MAX_CHI),
    "sap_lang_mult": (1, MAX_MULT),
    "sap_lang_min_players": (2, 4),
    "foul_chi": (0, MAX_CHI),
}


class InvalidRulesError(ValueError):
    """A rule option with a value outside what the option allows."""


@dataclass(frozen=True)
class Rules:
    """Every table option.  Field names follow the public test vectors.

    Options (spec id in brackets):

    * ``wheel`` [O2]: where A-2-3-4-5 ranks: ``"second"`` (below 10-A) or ``"lowest"``.
    * ``strict`` [O3]: validity needs back > middle > front instead of ≥.
    * ``ties`` [O5]: a tied row pays 0 (``"zero"``) or goes to the table owner, seat 0
      (``"owner"``).
    * ``bonuses`` [O6]: positional chi values: ``"replace"`` (D7 values replace the 1
      chi), ``"add"`` (added to it), ``"none"``, ``"doubled"`` (VNG family), or
      ``"aces_extra"`` (D7 plus the "chuẩn" ace extras).
    * ``sweep_mult`` / ``sweep_bonus`` [O7]: a scoop multiplies the pair's net by
      ``sweep_mult`` then adds ``sweep_bonus``.
    * ``majority_bonus``: extra chi for winning 2 or 3 of the rows (the "four-two" preset).
    * ``sap_lang`` / ``sap_lang_min_players`` / ``sap_lang_mult`` [O8]: scooping every
      opponent at a table of at least that many players multiplies again.
    * ``foul_mode`` / ``foul_chi`` [O9]: a fouled hand pays ``foul_chi`` flat
      (``"flat"``), or the opponent's chi values ×2 / ×1.
    * ``foul_sap_lang`` [O10]: a fouled opponent counts as scooped for sập làng.
    * ``specials`` / ``special_values`` [O11]: special hands on/off and their values.
    * ``six_pairs_rule`` [O12]: ``"generous"`` (Σ⌊count/2⌋ ≥ 6) or ``"strict"`` (6 pairs + 1).
    * ``special_detection`` [O13]: ``"auto"`` from the 13 cards, or ``"layout"``: only
      when the submitted arrangement shows the special.
    * ``special_vs_special`` [O14]: ``"higher"`` receives its own value, ``"tie"`` or
      ``"difference"``.
    * ``ace_low_runs`` [O15]: A-2-3 and A-2-3-4-5 count in three straights.
    * ``aces`` / ``aces_all_pairs`` [O16]: ace counting, and whether it also applies in
      pairs that involve a special or a foul.

    Numbers are bounded (:data:`NUMBER_RANGES`): multipliers 1..16, chi amounts (bonuses,
    ``foul_chi``, each special value) 0..1000, ``sap_lang_min_players`` 2..4.  A value
    outside its range is an :class:`InvalidRulesError` that states the range.
    """

    wheel: str = "second"
    strict: bool = False
    ties: str = "zero"
    bonuses: str = "replace"
    sweep_mult: int = 2
    sweep_bonus: int = 0
    majority_bonus: int = 0
    sap_lang: bool = True
    sap_lang_min_players: int = 3
    sap_lang_mult: int = 2
    foul_mode: str = "flat"
    foul_chi: int = 6
    foul_sap_lang: bool = True
    specials: bool = True
    special_values: tuple[tuple[str, int], ...] = SEED_SPECIAL_VALUES
    six_pairs_rule: str = "generous"
    special_detection: str = "auto"
    special_vs_special: str = "higher"
    ace_low_runs: bool = True
    aces: bool = True
    aces_all_pairs: bool = True
    #: alias of ``six_pairs_rule`` (the name some rule tables use); folded into it on creation
    six_pairs: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Accept the spellings people write for on/off and named options.
        bonuses: object = self.bonuses
        if isinstance(bonuses, bool):
            object.__setattr__(self, "bonuses", "replace" if bonuses else "none")
        ties: object = self.ties
        if isinstance(ties, bool):
            object.__setattr__(self, "ties", "owner" if ties else "zero")
        specials: object = self.specials
        if isinstance(specials, Mapping):
            object.__setattr__(self, "special_values", tuple({**dict(SEED_SPECIAL_VALUES), **specials}.items()))
            object.__setattr__(self, "specials", True)
        if isinstance(self.special_values, Mapping):
            object.__setattr__(
                self, "special_values", tuple({**dict(SEED_SPECIAL_VALUES), **self.special_values}.items())
            )
        if self.six_pairs is not None:
            object.__setattr__(self, "six_pairs_rule", self.six_pairs)
            object.__setattr__(self, "six_pairs", None)
        for name, aliases in _VALUE_ALIASES.items():
            value = getattr(self, name)
            if isinstance(value, str) and value.lower() in aliases:
                object.__setattr__(self, name, aliases[value.lower()])
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidRulesError(f"rule {name}={echo(value)} is not allowed; expected one of {allowed}")
        for name in ("strict", "sap_lang", "foul_sap_lang", "specials", "ace_low_runs", "aces", "aces_all_pairs"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(f"rule {name} must be true or false, got {echo(getattr(self, name))}")
        for name, (low, high) in NUMBER_RANGES.items():
            value = getattr(self, name)
            if not _in_range(value, low, high):
                raise InvalidRulesError(f"rule {name} must be an integer {low}..{high}, got {echo(value)}")
        values = dict(self.special_values) if _is_pairs(self.special_values) else None
        if (
            values is None
            or set(values) != set(SPECIAL_NAMES)
            or not all(_in_range(v, 0, MAX_CHI) for v in values.values())
        ):
            raise InvalidRulesError(
                f"special_values must give an integer 0..{MAX_CHI} for each of {SPECIAL_NAMES}, "
                f"got {echo(self.special_values)}"
            )

    def special_value(self, name: str) -> int:
        """Chi a special hand receives from each other player."""
        return dict(self.special_values)[name]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like the constructor)."""
        return self.from_options(changes, base=self)

    @classmethod
    def from_options(cls, options: Mapping[str, Any], base: Rules | None = None) -> Rules:
        """Rules from a mapping of option names (unknown names are an error).

        ``six_pairs`` is accepted as an alias of ``six_pairs_rule``; a mapping given as
        ``specials`` sets the special values (the ones left out keep the seed's).
        """
        if not isinstance(options, Mapping):
            raise InvalidRulesError(f"rule options must be a mapping of name to value, got {echo(options)}")
        fields = {f.name for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = _ALIASES.get(key, key)
            if name not in fields:
                raise InvalidRulesError(f"unknown rule option {echo(key)}; expected one of {sorted(fields)}")
            changes[name] = value
        return dataclasses.replace(base if base is not None else cls(), **changes)


_ALIASES = {
    "wheel_rank": "wheel",
    "scoop_mult": "sweep_mult",
    "sap_mult": "sweep_mult",
    "scoop_bonus": "sweep_bonus",
    "foul_payment": "foul_mode",
    "owner_wins_ties": "ties",
}
_VALUE_ALIASES: dict[str, dict[str, str]] = {
    "wheel": {"second_highest": "second", "second-highest": "second", "high": "second", "low": "lowest"},
    "bonuses": {"on": "replace", "off": "none", "default": "replace"},
    "special_vs_special": {"diff": "difference", "all_tie": "tie", "ties": "tie", "highest": "higher"},
    "ties": {"owner_wins": "owner", "push": "zero", "none": "zero"},
}


def _in_range(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _is_pairs(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value)


_PLAIN = Rules(
    wheel="lowest",
    bonuses="none",
    sweep_mult=1,
    sap_lang=False,
    foul_chi=3,
    foul_sap_lang=False,
    specials=False,
    aces=False,
)

PRESETS: dict[str, Rules] = {
    "vietnamese": Rules(),
    "seed": Rules(bonuses="none", sap_lang=False),
    "plain": _PLAIN,
    "four-two": dataclasses.replace(_PLAIN, majority_bonus=1, foul_chi=4),
}


def get_rules(rules: Rules | str | None) -> Rules:
    """A :class:`Rules` from a preset name, a ``Rules`` or ``None`` (the default preset)."""
    if rules is None:
        return PRESETS["vietnamese"]
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        try:
            return PRESETS[rules]
        except KeyError:
            raise InvalidRulesError(f"unknown rule preset {echo(rules)}; expected one of {sorted(PRESETS)}") from None
    raise InvalidRulesError(f"rules must be a Rules or a preset name, got {echo(rules)}")


__all__ = ["PRESETS", "SPECIAL_NAMES", "InvalidHandError", "InvalidRulesError", "Rules", "get_rules"]
