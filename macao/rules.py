"""The Macao rule options (macao.md §2.9) as one validated, frozen value.

Every option of the table in §2.9 is a field with the documented default.  Values are
checked when the object is built; anything outside the documented range raises
:class:`InvalidRulesError` (a ``ValueError``) naming the option, what was expected and
what was given.  Nothing is clamped silently.

>>> Rules().stacking, Rules().end_mode
('matching', 'last_loses')
>>> Rules(players=5)
Traceback (most recent call last):
...
macao.rules.InvalidRulesError: players must be an integer 2..4, got 5
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

STACKING_MODES = ("matching", "any", "none")
START_CARD_MODES = ("redraw", "ignore")
END_MODES = ("last_loses", "first_wins")
MAX_MACAO_PENALTY = 20
MAX_MAX_MOVES = 1_000_000


class InvalidRulesError(ValueError):
    """A rule option outside its documented range (macao.md §2.9)."""


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidRulesError(f"{name} must be an integer {low}..{high}, got {value!r}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidRulesError(f"{name} must be True or False, got {value!r}")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices or not isinstance(value, str):
        expected = " | ".join(repr(c) for c in choices)
        raise InvalidRulesError(f"{name} must be one of {expected}, got {value!r}")


@dataclass(frozen=True)
class Rules:
    """The options of one Macao round (macao.md §2.9); defaults are the house rules.

    ``players``        2..4 seats; seat 0 is the human in the app.
    ``decks``          1..4 identical decks (jokers are multiplied too).
    ``start_cards``    5..10 cards dealt to each player.
    ``jokers``         add BJ (draw 5) and RJ (draw 10) to every deck.
    ``stop``           a 7 cancels a pending draw penalty.
    ``stacking``       which cards counter a pending draw: ``"matching"`` (a draw card that
                       matches by rank or suit, jokers on anything and anything on a
                       joker), ``"any"`` (any draw card) or ``"none"`` (no counters).
    ``ace_wild``       an Ace may be played on anything when nothing is pending.
    ``start_card``     ``"redraw"`` special start cards, or ``"ignore"`` their effect.
    ``end_mode``       ``"last_loses"`` (play on until one player holds cards) or
                       ``"first_wins"`` (stop at the first player out).
    ``macao_penalty``  cards drawn by a player caught without declaring Macao (0..20).
    ``first_player``   ``"random"`` (the seeded dealer's left) or a fixed seat.
    ``max_moves``      engine safety cap on applied actions (1..1,000,000).
    """

    players: int = 2
    decks: int = 1
    start_cards: int = 5
    jokers: bool = True
    stop: bool = True
    stacking: str = "matching"
    ace_wild: bool = True
    start_card: str = "redraw"
    end_mode: str = "last_loses"
    macao_penalty: int = 5
    first_player: str | int = "random"
    max_moves: int = 2000

    def __post_init__(self) -> None:
        _check_int("players", self.players, 2, 4)
        _check_int("decks", self.decks, 1, 4)
        _check_int("start_cards", self.start_cards, 5, 10)
        _check_bool("jokers", self.jokers)
        _check_bool("stop", self.stop)
        _check_choice("stacking", self.stacking, STACKING_MODES)
        _check_bool("ace_wild", self.ace_wild)
        _check_choice("start_card", self.start_card, START_CARD_MODES)
        _check_choice("end_mode", self.end_mode, END_MODES)
        _check_int("macao_penalty", self.macao_penalty, 0, MAX_MACAO_PENALTY)
        fp = self.first_player
        if isinstance(fp, str):
            if fp != "random":
                raise InvalidRulesError(
                    f"first_player must be 'random' or a seat 0..{self.players - 1}, got {fp!r}"
                )
        elif not isinstance(fp, int) or isinstance(fp, bool) or not 0 <= fp < self.players:
            raise InvalidRulesError(
                f"first_player must be 'random' or a seat 0..{self.players - 1}, got {fp!r}"
            )
        _check_int("max_moves", self.max_moves, 1, MAX_MAX_MOVES)

    @property
    def deck_size(self) -> int:
        """Cards in play: 52 or 54 per deck."""
        return (54 if self.jokers else 52) * self.decks

    @classmethod
    def from_dict(cls, options: dict[str, Any]) -> Rules:
        """Build rules from a mapping, rejecting unknown option names.

        >>> Rules.from_dict({"players": 3}).players
        3
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s) {unknown!r}; expected some of {sorted(known)!r}")
        return cls(**options)
