"""A Macao match: several rounds with a running score, and who wins the match.

The rules file (../shared/rules/macao.md) ranks the players of one round (§2.7) and
rotates the dealer between rounds (§2.1 step 3), but says nothing about a score kept
across rounds; the app it comes from offers "several rounds".  The scoring here is
this project's DECISION, chosen to be easy to follow at the table:

* **Points per round.** With ``n`` players, a seat that places ``p`` scores ``n - p``
  points: the winner ``n - 1``, the next ``n - 2``, ..., the loser (last with cards) 0.
  With two players a round is simply 1 point to the winner.
* **Length.** A match is a fixed number of rounds (``length``, at least 1); every round
  is played, so the score of each round counts.
* **Winner.** The highest total wins.  A tie on points goes to the seat with more round
  wins (first places), then to the better place in the last round, which is always
  unique, so a finished match has exactly one winner.

Alternatives left out: penalty points for the cards left in hand (OpenSpiel's
``crazy_eights`` scores that way, the rules file prefers placings), and playing to a
target score (a match of unknown length is harder to plan on a phone).

>>> score = MatchScore(players=2, length=3)
>>> score = score.add([1, 2]).add([2, 1]).add([1, 2])
>>> score.totals, score.is_over, score.winner
((2, 1), True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["InvalidMatchError", "MatchScore", "round_points"]


class InvalidMatchError(ValueError):
    """A match that cannot exist, or a round that does not fit it; the message echoes the input."""


def round_points(places: Sequence[int]) -> tuple[int, ...]:
    """Points of each seat for one round, from its placings (1 = best).

    >>> round_points([2, 1, 3])
    (1, 2, 0)
    """
    n = len(places)
    if not 2 <= n <= 4 or sorted(places) != list(range(1, n + 1)):
        raise InvalidMatchError(f"placings must be 1..n once each for 2-4 players, got {list(places)!r}")
    return tuple(n - p for p in places)


@dataclass(frozen=True)
class MatchScore:
    """The running score of a match: the placings of every round played so far.

    ``results`` holds one tuple of placings per round, indexed by seat.  The value is
    plain data (ints and tuples), so a page can keep it as ``to_dict()`` and rebuild it.
    """

    players: int
    length: int
    results: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise InvalidMatchError(f"players must be 2..4, got {self.players!r}")
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise InvalidMatchError(f"a match has at least 1 round, got length={self.length!r}")
        if len(self.results) > self.length:
            raise InvalidMatchError(f"{len(self.results)} rounds played in a match of {self.length}")
        for places in self.results:
            if len(places) != self.players:
                raise InvalidMatchError(f"a round of {self.players} players needs {self.players} placings, "
                                        f"got {list(places)!r}")  # fmt: skip
            round_points(places)

    def add(self, places: Sequence[int]) -> MatchScore:
        """The score after one more round with these placings (indexed by seat)."""
        if self.is_over:
            raise InvalidMatchError(f"the match of {self.length} rounds is over; start a new one")
        return MatchScore(self.players, self.length, (*self.results, tuple(int(p) for p in places)))

    @property
    def played(self) -> int:
        """Rounds played so far."""
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return self.played == self.length

    @property
    def totals(self) -> tuple[int, ...]:
        """Points of each seat so far."""
        sums = [0] * self.players
        for places in self.results:
            for seat, points in enumerate(round_points(places)):
                sums[seat] += points
        return tuple(sums)

    @property
    def wins(self) -> tuple[int, ...]:
        """Rounds each seat won (placed first)."""
        return tuple(sum(1 for places in self.results if places[seat] == 1) for seat in range(self.players))

    def standings(self) -> list[int]:
        """Seats from best to worst: points, then round wins, then the last round's place.

        >>> MatchScore(3, 2, ((1, 2, 3), (2, 1, 3))).standings()  # seats 0 and 1 tie on 3 points
        [1, 0, 2]
        """
        totals, wins = self.totals, self.wins
        last = self.results[-1] if self.results else tuple(range(self.players))
        return sorted(range(self.players), key=lambda s: (-totals[s], -wins[s], last[s]))

    @property
    def winner(self) -> int | None:
        """The seat that won the match, once it is over (None before)."""
        return self.standings()[0] if self.is_over else None

    def to_dict(self) -> dict[str, object]:
        """Plain data for session state (lists, ints); :meth:`from_dict` reads it back."""
        return {"players": self.players, "length": self.length, "results": [list(r) for r in self.results]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> MatchScore:
        """The score saved by :meth:`to_dict`; anything else raises :class:`InvalidMatchError`."""
        try:
            results = tuple(tuple(int(p) for p in r) for r in data["results"])  # type: ignore[attr-defined]
            return cls(int(data["players"]), int(data["length"]), results)  # type: ignore[call-overload]
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, InvalidMatchError):
                raise
            raise InvalidMatchError(f"not a saved match score: {data!r}") from None
