"""Card text and input helpers shared by the Streamlit pages.

Suit glyphs, cards as text (``10♥``), the words the card component shows in the
session's language (:func:`editor_labels`, :func:`category_names`, :func:`picker_labels`),
the hand-text check that every page uses, number formats per locale, and the mirror keys
that keep widget values across page switches.  The game's words (rows, hands, specials,
presets) are in :mod:`app.terms`.  Cards are drawn by the card component in :mod:`app.cards`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import streamlit as st

from app import terms
from app.i18n import _, decimal, integer, labels_now, pgettext
from app.i18n import percent as locale_percent
from app.terms import field_blurbs, field_label, preset_label
from solver import PRESETS, Card, InvalidCardError, InvalidHandError, Suit, parse_cards
from solver.cards import RANK_SYMBOLS, SUITS
from solver.fields import DEFAULT_FIELD, FIELDS
from solver.scoring import Arrangement, check_hand

SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
ROW_SIZES = (3, 5, 5)

#: Longest hand or arrangement text we try to read; anything longer is refused.
MAX_INPUT_CHARS = 300
#: How much of a link's hand text is put back in the text box.  The text widgets get no
#: ``max_chars``: Streamlit's widget silently drops a paste longer than its cap (the box
#: stays as it was, no message), while without a cap ``too_long`` refuses it with a reason.
LINK_MAX_CHARS = 5000



# --- text ------------------------------------------------------------------------------

def rank_text(card: Card) -> str:
    """Rank as players write it: 2..10, J, Q, K, A."""
    symbol = RANK_SYMBOLS[int(card.rank) - 2]  # type: ignore[arg-type]
    return "10" if symbol == "T" else symbol


def card_text(card: Card) -> str:
    """Plain text with the suit glyph, e.g. ``10♥``."""
    return rank_text(card) + SUIT_GLYPHS[card.suit]  # type: ignore[index]


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical short text (``As Kd Th``) that the parser reads back."""
    return " ".join(str(c) for c in cards)


def canonical_hand(cards: Iterable[Card]) -> str:
    """One string per distinct hand, whatever order it was typed in (cache and URL key)."""
    return " ".join(str(c) for c in sort_for_display(cards))


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """High rank first, suits in a fixed order."""
    return sorted(cards, key=lambda c: (-(c.code // 4), c.code % 4))


def dealt_layout(cards: Iterable[Card]) -> list[list[Card]]:
    """How Practice lays a new hand out: high to low from the back (the player rearranges it)."""
    ordered = sort_for_display(cards)
    return [ordered[10:], ordered[5:10], ordered[:5]]


# --- parsing what people type -------------------------------------------------------------


def too_long(text: str, arrangement: bool = False) -> str | None:
    """A refusal message when the text is absurdly long, else None."""
    if len(text) > MAX_INPUT_CHARS:
        message = (
            _("That arrangement text is {length} characters long; the limit is {limit}.")
            if arrangement
            else _("That hand text is {length} characters long; the limit is {limit}.")
        )
        return (
            message.format(length=integer(len(text)), limit=MAX_INPUT_CHARS)
            + " "
            + _("A hand is 13 cards such as {example}").format(example="As Kd 10c ...")
        )
    return None


#: One card as people type it: a rank (10 before 1-9 so "10s" is one card) and a suit.
_CARD = r"(?:10|[2-9tjqka])[shdc♠♥♦♣♤♡♢♧]"
#: A word that is several cards typed without a separator: "AsKdQh", "10s9d".
_RUN = re.compile(rf"(?:{_CARD}){{2,}}", re.IGNORECASE)
_ONE = re.compile(_CARD, re.IGNORECASE)
_SPACES = re.compile(r"[\s,;]+")


def mau_binh_cards(text: str) -> list[Card]:
    """The cards in Mau Binh text: separated by spaces or commas, or typed in one run
    (``AsKdQh``, ``10s9d``).  A word that is not a card raises :class:`InvalidCardError`
    naming it in the player's language, with the Mau Binh cards only (no jokers)."""
    cards = []
    for word in (w for w in _SPACES.split(text) if w):
        parts = _ONE.findall(word) if _RUN.fullmatch(word) else [word]
        for part in parts:
            try:
                card = parse_cards(part)[0]
            except InvalidCardError:
                card = None
            if card is None or card.is_joker:
                raise InvalidCardError(
                    _(
                        "{word} is not a card. A card is a rank (2-10, J, Q, K, A) and a suit "
                        "(s, h, d, c or ♠ ♥ ♦ ♣), for example As or 10h."
                    ).format(word=repr(part[:20]))
                )
            cards.append(card)
    return cards


def read_hand(text: str) -> list[Card]:
    """Parse 13 distinct cards from user text; raises ValueError with a readable reason."""
    refusal = too_long(text)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError(
            _("Enter 13 cards, for example: {cards}").format(cards="As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s")
        )
    return check_hand(mau_binh_cards(text))


def read_arrangement(text: str) -> Arrangement:
    """Parse ``front | middle | back`` from user text; raises ValueError with a reason."""
    refusal = too_long(text, arrangement=True)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError(_("Enter an arrangement as front | middle | back (3 + 5 + 5 cards)."))
    return Arrangement.parse(text)


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


# --- words inside the card component (pages pass them, so they can be translated) ---------


def category_names() -> list[str]:
    """The nine row categories, high card .. straight flush, as the editor shows them."""
    return [name[:1].upper() + name[1:] for name in terms.category_names()]


def editor_labels(submit: str = "") -> dict[str, str]:
    """Every word the hand editor shows; ``submit`` adds its own submit button."""
    front, middle, back = terms.row_names()
    labels = {
        "front": front,
        "middle": middle,
        "back": back,
        # TRANSLATORS: a row's name inside a sentence ("your front beats your middle")
        "front_word": pgettext("row in a sentence", "front"),
        "middle_word": pgettext("row in a sentence", "middle"),
        "back_word": pgettext("row in a sentence", "back"),
        # TRANSLATORS: cards in a row, e.g. "2 of 3"; {n} and {size} are filled in by the browser
        "count": _("{n} of {size}"),
        "too_many": _("too many"),
        "too_few": _("too few"),
        "sizes": _("Rows need 3, 5 and 5 cards."),
        "valid": _("✔ Valid set: back ≥ middle ≥ front."),
        "foul": _("✖ Foul: {reasons}. The back must be ≥ the middle ≥ the front."),
        "foul_beats": _("your {upper} ({upper_hand}) beats your {lower} ({lower_hand})"),
        "foul_same": _("your {upper} and {lower} are both {upper_hand}, but the {upper}'s cards rank higher"),
        "foul_equal": _("your {upper} and {lower} are equal, and these rules need strictly stronger"),
        "undo": _("↶ Undo"),
        "reset": _("Reset to the deal"),
        "sort": _("Sort rows"),
    }
    if submit:
        labels["submit"] = submit
    return labels


#: Session key of the four-colour deck choice (♦ blue, ♣ green), shared by every page.
FOUR_COLOUR = "cards_four_colour"


def four_colour() -> bool:
    """Whether cards are drawn in four colours."""
    return bool(st.session_state.get(FOUR_COLOUR, False))


def four_colour_toggle(page: str) -> None:
    """The four-colour deck switch of one page; every page's switch shows the shared choice.

    Each page has its own widget key (Streamlit resets a widget whose key moves to another
    page), and the switch writes the shared plain key.
    """
    key = f"{page}_four_colour"
    st.session_state[key] = four_colour()

    def chosen() -> None:
        st.session_state[FOUR_COLOUR] = bool(st.session_state[key])

    st.toggle(_("Four-colour deck (♦ blue, ♣ green)"), key=key, on_change=chosen)


def picker_labels() -> dict[str, str]:
    names = terms.suit_names()
    return {f"suit_{suit.value}": names[suit] for suit in SUITS}


def safe_parse_cards(text: str) -> list[Card] | None:
    """Cards from text, or None when it does not parse (no exception)."""
    try:
        if too_long(text):
            return None
        return mau_binh_cards(text)
    except (InvalidCardError, InvalidHandError, ValueError):
        return None


# --- state that survives page switches ------------------------------------------------------


def restore(key: str, default: object) -> None:
    """Give a widget key its last value before the widget renders.

    Streamlit forgets a widget's state when its page is not shown; a plain mirror key
    (``<key>__kept``) remembers it so a player who switches pages finds their input again.
    """
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(f"{key}__kept", default)


def remember(*keys: str) -> None:
    """Copy widget values to their mirror keys (call after the widgets render)."""
    for key in keys:
        if key in st.session_state:
            st.session_state[f"{key}__kept"] = st.session_state[key]


def table_from_link(preset_key: str, players_key: str, field_key: str) -> list[str]:
    """Put a page link's ``preset``, ``players`` and ``field`` into the page's widget keys;
    returns what in the link was not usable, in words (the widgets then keep their own
    values; an unknown field falls back to the default one)."""
    params = st.query_params
    problems = []
    preset = params.get("preset")
    if preset is not None:
        if preset in PRESETS:
            st.session_state[preset_key] = preset
        else:
            problems.append(_("unknown preset {preset} in the link").format(preset=repr(preset[:40])))
    players = params.get("players")
    if players is not None:
        if players in ("2", "3", "4"):
            st.session_state[players_key] = int(players)
        else:
            problems.append(_("players must be 2, 3 or 4, the link says {players}").format(players=repr(players[:40])))
    field = params.get("field")
    if field is not None:
        if field in FIELDS:
            st.session_state[field_key] = field
        else:
            st.session_state[field_key] = DEFAULT_FIELD
            problems.append(
                _("field must be {choices}, the link says {field}; the opponents are {default}").format(
                    choices=" / ".join(FIELDS), field=repr(field[:40]), default=field_label(DEFAULT_FIELD)
                )
            )
    return problems


def field_in_link(field: str) -> dict[str, str]:
    """The ``field`` link parameter of a page showing ``field`` (none for the default)."""
    return {} if field == DEFAULT_FIELD else {"field": field}


def rules_select(key: str, help: str | None = None) -> None:
    """The rule-preset box every page shows (its value, a preset name, in ``key``)."""
    st.selectbox(
        _("Rules"),
        list(PRESETS),
        key=key,
        format_func=labels_now(preset_label, PRESETS),
        placeholder=_("Choose an option"),
        help=help,
    )


def players_select(key: str) -> None:
    """How many players sit at the table: 2, 3 or 4 (in ``key``)."""
    st.segmented_control(_("Players"), [2, 3, 4], key=key, required=True)


def field_select(key: str) -> None:
    """Who sits at the table: the opponents the solver's answers assume (a field name in ``key``)."""
    blurbs = field_blurbs()
    st.segmented_control(
        _("Opponents"),
        list(FIELDS),
        key=key,
        required=True,
        format_func=labels_now(field_label, FIELDS),
        help="\n\n".join(
            [_("Who sits at the table: the best set depends on how the others set their hands.")]
            + [f"**{field_label(name)}**: {blurbs[name]}" for name in FIELDS]
        ),
    )
