"""Numbers as the pages show them: chances and chi, written the session's locale's way."""

from __future__ import annotations

from app.i18n import decimal
from app.i18n import percent as locale_percent


def percent(p: float) -> str:
    """A chance as a whole percentage, written the locale's way."""
    return locale_percent(p)


def chi(x: float, signed: bool = True) -> str:
    """Chi with two decimals in the session's locale (``+1.25``, Vietnamese ``+1,25``)."""
    return decimal(x, 2, signed=signed)


def chi_gap(diff: float) -> str:
    """A difference in chi for a table of sets: ``-0.42``; ``±0.00`` for a tie; ``-<0.01``
    for a gap too small for two decimals (never the puzzling ``-0.00`` or ``+0.00``)."""
    if diff == 0:
        return "±" + chi(0.0, signed=False)
    if abs(diff) < 0.005:
        return ("-" if diff < 0 else "+") + "<" + chi(0.01, signed=False)
    return chi(diff)
