"""The Practice feedback in words: what the best set does differently and what it is worth.

:func:`analyse` compares a submitted set with the best one (:mod:`trainer.themes`,
:mod:`trainer.ev_parts`) and returns plain data the page keeps with its result (theme ids
for the store, the themes' facts and both sets' EV parts).  The functions below turn that
into text in the session's language: a short name per theme (:func:`theme_name`), one
sentence per theme (:func:`theme_sentence`) and one sentence of what the gap is made of
(:func:`worth_sentence`), e.g. "Worth 2.32 chi: +3.02 chi from the front (wins 61% instead
of 11%); -1.96 chi from the middle (wins 8% instead of 41%); +1.31 chi from sập (sweeping an
opponent, or being swept)."
No Streamlit calls here; the words go through :mod:`app.i18n`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from app.card_text import card_text
from app.formats import chi, percent
from app.i18n import _, number, pgettext
from app.terms import category_names, special_label
from solver import PRESETS, parse_cards
from solver.scoring import Arrangement
from trainer.ev_parts import PART_NAMES, EvParts, ev_parts, gap, main_parts
from trainer.themes import THEME_IDS, Theme, themes


def analyse(hand: str, mine: str, best: str, preset: str, players: int, field: str) -> dict[str, Any]:
    """Themes and EV parts of a submitted set against the best one, as plain data:
    ``{"themes": [ids], "facts": [theme fields], "played": parts, "best": parts}``."""
    rules = PRESETS[preset]
    cards = parse_cards(hand)
    played_set, best_set = Arrangement.parse(mine), Arrangement.parse(best)
    played = ev_parts(cards, played_set, rules, players, field)
    top = ev_parts(cards, best_set, rules, players, field)
    found = themes(cards, played_set, best_set, rules, players, field, parts=(played, top))
    return {
        "themes": [t.id for t in found],
        "facts": [asdict(t) for t in found],
        "played": asdict(played),
        "best": asdict(top),
    }


def themes_of(analysis: Mapping[str, Any]) -> list[Theme]:
    """The :class:`Theme` records kept by :func:`analyse`."""
    return [Theme(**{**facts, "cards": tuple(facts["cards"]), "other_cards": tuple(facts["other_cards"])})
            for facts in analysis["facts"]]  # fmt: skip


def parts_of(data: Mapping[str, Any]) -> EvParts:
    """An :class:`EvParts` kept by :func:`analyse` (lists back to tuples)."""
    return EvParts(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})  # type: ignore[arg-type]


# --- words ---------------------------------------------------------------------------------


def theme_names() -> dict[str, str]:
    """A short name for each theme id, as its chip shows it."""
    return {
        "foul": pgettext("theme", "Foul"),
        "missed-special": pgettext("theme", "Special hand missed"),
        "broken-straight": pgettext("theme", "Straight broken up"),
        "broken-flush": pgettext("theme", "Flush broken up"),
        "broken-full-house": pgettext("theme", "Full house split"),
        "bonus-row": pgettext("theme", "Bonus row"),
        "trips-placement": pgettext("theme", "Three of a kind placement"),
        "split-two-pair": pgettext("theme", "Two pair split or kept"),
        "pair-in-front": pgettext("theme", "Pair in front"),
        "scoop-risk": pgettext("theme", "Scoop (sập) risk"),
        "weak-front": pgettext("theme", "Weak front"),
        "weak-middle": pgettext("theme", "Weak middle"),
        "weak-back": pgettext("theme", "Weak back"),
        "kicker": pgettext("theme", "Kickers"),
    }


def theme_name(theme_id: str) -> str:
    return theme_names()[theme_id]


def row_phrase(row: int | None) -> str:
    """A row as a sentence names it ("the middle")."""
    phrases = (
        pgettext("in a sentence", "the front"),
        pgettext("in a sentence", "the middle"),
        pgettext("in a sentence", "the back"),
    )
    return phrases[row] if row is not None else pgettext("in a sentence", "two rows")


def hand_phrase(category: int | None) -> str:
    return category_names()[category] if category is not None else ""


def cards_phrase(cards: Sequence[str]) -> str:
    return " ".join(card_text(c) for c in parse_cards(" ".join(cards))) if cards else ""


def theme_sentence(theme: Theme) -> str:
    """One plain sentence saying what the best set does differently (see trainer.themes)."""
    words = {
        "cards": cards_phrase(theme.cards),
        "other_cards": cards_phrase(theme.other_cards),
        "row": row_phrase(theme.row),
        "other_row": row_phrase(theme.other_row),
        "hand": hand_phrase(theme.category),
        "other_hand": hand_phrase(theme.other_category),
    }
    played = theme.side == "played"
    t = theme.id
    if t == "foul":
        text = _("In your set {row} ({hand}) is stronger than {other_row} ({other_hand}), so it fouls and pays "
                 "every opponent; a valid set keeps back ≥ middle ≥ front.")  # fmt: skip
    elif t == "missed-special":
        return _("Your hand is a special hand ({special}) that pays {value} chi from each opponent only when it is "
                 "laid out; the best set shows it.").format(special=special_label(theme.name),
                                                            value=_number(theme.value))  # fmt: skip
    elif t == "broken-straight":
        text = (_("The best set breaks up the straight {cards} you kept in {row} and plays {other_hand} there "
                  "instead, so the cards help the other rows.") if played else
                _("You broke up the straight {cards}; the best set keeps it in {row}."))  # fmt: skip
    elif t == "broken-flush":
        text = (_("The best set breaks up the flush {cards} you kept in {row} and plays {other_hand} there "
                  "instead, so the cards help the other rows.") if played else
                _("You broke up the flush {cards}; the best set keeps it in {row}."))  # fmt: skip
    elif t == "broken-full-house":
        text = (_("The best set splits the full house {cards} you kept in {row}, so its cards strengthen two "
                  "rows.") if played else
                _("You split the full house {cards}; the best set keeps it together in {row}."))  # fmt: skip
    elif t == "bonus-row":
        return _("The best set plays {hand} in {row}, where winning pays {value} chi instead of the {other_value} "
                 "your row pays.").format(**words, value=_number(theme.value),
                                          other_value=_number(theme.other_value))  # fmt: skip
    elif t == "trips-placement":
        if theme.row is None:
            text = _("The best set breaks up the three of a kind {cards} you kept in {other_row} and uses the "
                     "cards in two rows.")  # fmt: skip
        elif theme.other_row is None:
            text = _("You split the three of a kind {cards}; the best set keeps it together in {row}.")
        else:
            text = _("The best set plays the three of a kind {cards} in {row} instead of {other_row}.")
    elif t == "split-two-pair":
        text = (_("You kept two pair ({cards}) together in {row}; the best set splits them and moves one pair to "
                  "{other_row}.") if played else
                _("You split the two pairs {cards}; the best set keeps them together in {row}."))  # fmt: skip
    elif t == "pair-in-front":
        text = (_("The best set moves your front pair {cards} to {other_row}, where it makes that row stronger.")
                if played else
                _("The best set puts the pair {cards} in front instead of in {other_row}: a pair in front wins "
                  "far more often than a high card."))  # fmt: skip
    elif t == "scoop-risk":
        return _("Your set is swept (sập) by an opponent in {mine} of deals, the best set in {best}; that alone "
                 "is worth {chi} chi.").format(mine=percent(theme.value or 0.0),
                                               best=percent(theme.other_value or 0.0),
                                               chi=chi(theme.chi or 0.0, signed=False))  # fmt: skip
    elif t in ("weak-front", "weak-middle", "weak-back"):
        text = _("The best set makes {row} stronger: {cards} ({hand}) instead of your {other_cards} ({other_hand}).")
    else:  # kicker
        text = _("Every row keeps its hand; the best set only moves {cards} to {row} (you have it in {other_row}).")
    return text.format(**words)


def _number(value: float | None) -> str:
    return number(value or 0.0)


def part_phrase(name: str, value: float, played: EvParts, best: EvParts) -> str:
    """One part of the gap: "+1.90 chi from the middle (wins 86% instead of 25%)"."""
    amount = chi(value)
    if name in ("front", "middle", "back"):
        row = ("front", "middle", "back").index(name)
        return _("{chi} chi from {row} (wins {best} instead of {mine})").format(
            chi=amount, row=row_phrase(row), best=percent(best.win[row]), mine=percent(played.win[row])
        )
    labels = {
        "bonuses": _("{chi} chi from the bonuses"),
        "scoop": _("{chi} chi from sập (sweeping an opponent, or being swept)"),
        "majority": _("{chi} chi from the majority point"),
        "sap_lang": _("{chi} chi from sập làng (sweeping the whole table)"),
        "removal": _("{chi} chi from card removal (the cards you hold are not the opponents')"),
        "foul": _("{chi} chi from the foul payment"),
        "special": _("{chi} chi from the special hand"),
        "aces": _("{chi} chi from the aces"),
    }
    return labels[name].format(chi=amount)


def part_names() -> dict[str, str]:
    """Each EV part's name, as the table of parts shows it."""
    return {
        "front": pgettext("part", "Front"),
        "middle": pgettext("part", "Middle"),
        "back": pgettext("part", "Back"),
        "bonuses": pgettext("part", "Bonuses"),
        "scoop": pgettext("part", "Sập (sweeps)"),
        "majority": pgettext("part", "Majority point"),
        "sap_lang": pgettext("part", "Sập làng"),
        "removal": pgettext("part", "Card removal"),
        "foul": pgettext("part", "Foul payment"),
        "special": pgettext("part", "Special hand"),
        "aces": pgettext("part", "Aces"),
    }


def parts_table(played: EvParts, best: EvParts) -> list[tuple[str, float, float]]:
    """(part name, your chi, the best set's chi) for every part either set has, then the total."""
    mine, top = played.named(), best.named()
    names = part_names()
    rows = [(names[k], mine[k], top[k]) for k in PART_NAMES if abs(mine[k]) >= 0.005 or abs(top[k]) >= 0.005]
    return [*rows, (pgettext("part", "Total"), played.total, best.total)]


def worth_sentence(played: EvParts, best: EvParts) -> str:
    """What the gap between the two sets is made of, its largest parts first."""
    parts = gap(best, played)
    total = sum(parts.values())
    listed = [part_phrase(name, value, played, best) for name, value in main_parts(parts)]
    if not listed:
        return _("Worth {chi} chi.").format(chi=chi(total, signed=False))
    return _("Worth {chi} chi: {parts}.").format(chi=chi(total, signed=False), parts="; ".join(listed))


def sentences(analysis: Mapping[str, Any]) -> list[str]:
    """The feedback's one or two sentences: the leading theme, then what the gap is worth."""
    found = themes_of(analysis)
    out = [theme_sentence(found[0])] if found else []
    out.append(worth_sentence(parts_of(analysis["played"]), parts_of(analysis["best"])))
    return out


__all__ = [
    "THEME_IDS",
    "analyse",
    "part_names",
    "part_phrase",
    "parts_of",
    "parts_table",
    "row_phrase",
    "sentences",
    "theme_name",
    "theme_names",
    "theme_sentence",
    "themes_of",
    "worth_sentence",
]
