"""The table context: the rules, the number of seats and the opponents, validated once.

Every solver call is about one table: by what rules it plays (:class:`solver.rules.Rules`
or a preset name), how many sit at it (2-4) and who the opponents are (a field of
:data:`solver.fields.FIELDS`, and, where it is known, who sits in each seat: the
lineup).  A :class:`Table` holds those, checked when it is made, and the compiled model
the fast solver scores against (the field's tables, its card-removal correction and hand
terms, :func:`solver.tables.get_model`), loaded the first time it is needed.
:func:`solver.solve`, :func:`solver.evaluate`, :func:`solver.solve_many`, deep mode and
the computer players take one with ``table=``; called with ``rules=``, ``players=`` and
``field=`` instead, they make (and keep, :func:`as_table`) the same Table, so both ways
give the same answers.

>>> from solver import PRESETS
>>> table = Table("vietnamese", players=3)
>>> table.players, table.field, table.rules == PRESETS["vietnamese"]
(3, 'population', True)
>>> table == Table(PRESETS["vietnamese"], 3, "population")
True
>>> table
Table('vietnamese', players=3, field='population')
>>> table.replace(lineup=("beginner", "person"))
Table('vietnamese', players=3, field='population', lineup=('beginner', 'person'))
>>> Table(players=5)
Traceback (most recent call last):
...
ValueError: players must be 2, 3 or 4 (a Mau Binh table seats 2-4), got 5

(The module is not ``solver/table.py``: that one holds the Play page's sessions, whose
name the app and saved histories already use.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from . import _core
from .fields import DEFAULT_FIELD, NAIVE_SHARE, SEATS, check_field, seat_naive_share, table_preset
from .messages import echo
from .rules import PRESETS, Rules, get_rules
from .tables import Field, FloatArray, get_field, get_hand_weights, get_model, get_removal


def check_lineup(lineup: object, players: int) -> tuple[str, ...]:
    """``lineup`` as a tuple naming who sits in each of the ``players - 1`` opponent seats
    (each one of :data:`solver.fields.SEATS`)."""
    if isinstance(lineup, str) or not isinstance(lineup, Sequence):
        raise ValueError(f"lineup must be a sequence of seats ({', '.join(SEATS)}), got {echo(lineup)}")
    if len(lineup) != players - 1:
        raise ValueError(f"a table of {players} has {players - 1} opponent seat(s); the lineup names {len(lineup)}")
    for seat in lineup:
        if seat not in SEATS:
            raise ValueError(f"a seat of the lineup is one of {', '.join(SEATS)}, got {echo(seat)}")
    return tuple(str(seat) for seat in lineup)


def check_players(players: object) -> int:
    """``players`` as the number of seats of a Mau Binh table (2, 3 or 4)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4 (a Mau Binh table seats 2-4), got {echo(players)}")
    return players


@dataclass(frozen=True, init=False)
class Table:
    """Rules, seats and opponents of one table, validated once (a small frozen value).

    ``rules`` is a :class:`~solver.rules.Rules` or a preset name (default
    ``"vietnamese"``), ``players`` 2..4 (default 4), ``field`` one of
    :data:`solver.fields.FIELDS` (default ``"population"``); a bad one raises
    ``ValueError`` naming it.  Equal tables compare and hash equal, and share one
    compiled :attr:`model`.

    ``lineup``, when known, names who sits in each opponent seat (each one of
    :data:`solver.fields.SEATS`: a person, or a computer level).  Deep mode then deals
    each seat's sampled hands as that seat plays (:func:`solver.fields.seat_naive_share`)
    instead of all as the field.  Fast mode plays the field's tables unless every seat
    of the lineup sets strongest back first, where it plays the beginners field's
    (:meth:`played_by`).  The Play page's and rooms' computer players are given it: a
    real player adapts to who sits at the table too.
    """

    rules: Rules
    players: int
    field: str
    lineup: tuple[str, ...] | None

    def __init__(
        self,
        rules: Rules | str | None = None,
        players: int = 4,
        field: str = DEFAULT_FIELD,
        lineup: Sequence[str] | None = None,
    ) -> None:
        object.__setattr__(self, "rules", get_rules(rules))
        object.__setattr__(self, "players", check_players(players))
        object.__setattr__(self, "field", check_field(field))
        object.__setattr__(self, "lineup", None if lineup is None else check_lineup(lineup, self.players))

    def __repr__(self) -> str:
        name = next((name for name, rules in PRESETS.items() if rules == self.rules), None)
        rules = repr(name) if name is not None else repr(self.rules)
        lineup = "" if self.lineup is None else f", lineup={self.lineup!r}"
        return f"Table({rules}, players={self.players}, field={self.field!r}{lineup})"

    def __hash__(self) -> int:
        # kept: a Table keys the solver's caches on every call, and hashing its Rules
        # (two dozen fields) each time would cost more than the lookup
        try:
            return self.__dict__["_hash"]  # type: ignore[no-any-return]
        except KeyError:
            value = self.__dict__["_hash"] = hash((self.rules, self.players, self.field, self.lineup))
            return value

    def __reduce__(self) -> tuple[type[Table], tuple[Rules, int, str, tuple[str, ...] | None]]:
        # pickled as its values: the model is loaded again where it is used
        return (Table, (self.rules, self.players, self.field, self.lineup))

    def replace(self, **changes: Any) -> Table:
        """A copy with ``rules``, ``players``, ``field`` or ``lineup`` changed (validated again)."""
        unknown = set(changes) - {"rules", "players", "field", "lineup"}
        if unknown:
            raise ValueError(f"a Table has rules, players, field and lineup; got {', '.join(sorted(unknown))}")
        values = {"rules": self.rules, "players": self.players, "field": self.field, "lineup": self.lineup,
                  **changes}  # fmt: skip
        return Table(values["rules"], values["players"], values["field"], values["lineup"])

    def seen_from(self, seats: Sequence[str], seat: int) -> Table:
        """This table as seat ``seat`` sees it, where ``seats`` names who sits in every seat
        (that one too): a copy whose lineup is every other seat, in order."""
        return self.replace(lineup=[*seats[:seat], *seats[seat + 1 :]])

    @property
    def preset(self) -> str:
        """The preset whose shipped tables this table plays with (its own, for a preset)."""
        return table_preset(self.rules)

    @property
    def opponents(self) -> int:
        return self.players - 1

    @property
    def every_seat_naive(self) -> bool:
        """Whether every opponent sets strongest back first: at the beginners field with no
        lineup, or when each seat of the lineup does (a Beginner, or a person at the
        beginners field)."""
        if self.lineup is None:
            return NAIVE_SHARE[self.field] == 1.0
        return all(seat_naive_share(seat, self.field) == 1.0 for seat in self.lineup)

    def played_by(self, mode: str) -> Table:
        """The table ``mode`` plays: deep mode this one (it reads the lineup seat by seat);
        fast mode the beginners field's where every opponent sets strongest back first
        (:attr:`every_seat_naive`), else this one.  Told that three Beginners sit there,
        fast mode's regret against them is the beginners field's 0.020 instead of the
        population field's 0.78 (vietnamese, 4 players; docs/benchmarks.md); no set is
        right at every table, so being told is the lever."""
        if mode == "deep" or not self.every_seat_naive or self.field == "beginners":
            return self
        return self.replace(field="beginners")

    @cached_property
    def model(self) -> _core.Model:
        """The compiled model of the fast solver for this table (loaded once)."""
        return get_model(self.rules, self.players, self.field)

    @cached_property
    def opponent_model(self) -> _core.Model:
        """The model deep mode sets its sampled opponents with (but a Club's or an Expert's
        seat of the lineup, which it deals the re-ranked set they play:
        :func:`solver.deep.seat_computers`): :attr:`model` without its re-ranking, where
        the field has one.  The re-ranked solver sets 88 % of hands as
        this one does (vietnamese strong, 4 players) and costs 1.14 times as much, which
        at up to 4,800 sampled hands a decision was what put deep mode over its 150 ms
        (docs/benchmarks.md)."""
        return get_model(self.rules, self.players, self.field, rerank=False)

    @cached_property
    def field_table(self) -> Field:
        """The field's row-class distribution at this table size."""
        return get_field(self.rules, self.players, self.field)

    @cached_property
    def removal(self) -> FloatArray | None:
        """The card-removal correction the model includes (None where the field plays without)."""
        return get_removal(self.rules, self.players, self.field)

    @cached_property
    def hand_weights(self) -> FloatArray | None:
        """The hand-term weights the model includes (None where the field plays without)."""
        return get_hand_weights(self.rules, self.players, self.field)


@lru_cache(maxsize=256, typed=True)  # typed: players=4.0 must not find the Table of 4
def _kept(rules: Rules | str | None, players: int | None, field: str | None) -> Table:
    return Table(rules, 4 if players is None else players, DEFAULT_FIELD if field is None else field)


def as_table(
    table: Table | None = None,
    rules: Rules | str | None = None,
    players: int | None = None,
    field: str | None = None,
) -> Table:
    """The Table a call is about: ``table`` itself, or the one ``rules``, ``players`` and
    ``field`` describe (defaults: vietnamese, 4, population), kept so that the same
    arguments give the same Table and its model is looked up once.  Giving ``table``
    with any of the others is a ``ValueError``."""
    if table is None:
        try:
            return _kept(rules, players, field)  # checked once for each set of arguments
        except TypeError:  # an unhashable argument: checking it says what is wrong
            _kept.__wrapped__(rules, players, field)
            raise
    if rules is None and players is None and field is None and isinstance(table, Table):
        return table
    if not isinstance(table, Table):
        raise ValueError(f"table must be a solver.Table, got {echo(table)}")
    named = (("rules", rules), ("players", players), ("field", field))
    given = [name for name, value in named if value is not None]
    raise ValueError(f"give either table= or {', '.join(given)}, not both (the table already has them)")


__all__ = ["Table", "as_table", "check_players"]
