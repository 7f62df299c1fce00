"""Card text and input helpers shared by the Streamlit pages.

Suit glyphs and names, cards as text (``10♥``), the words the card component shows
(:func:`editor_labels`, :func:`category_names`, :func:`picker_labels`), the hand-text
check that every page uses, number formats, names of specials and presets, and the
mirror keys that keep widget values across page switches.  Cards are drawn by the card
component in :mod:`app.cards`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import streamlit as st

from solver import Card, InvalidCardError, InvalidHandError, Suit, parse_cards
from solver.cards import RANK_SYMBOLS, SUITS
from solver.hands import CATEGORY_NAMES, category_of
from solver.scoring import Arrangement, check_hand

SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
ROW_LABELS = ("Front", "Middle", "Back")
ROW_SIZES = (3, 5, 5)

#: Longest hand or arrangement text we try to read; anything longer is refused.
MAX_INPUT_CHARS = 300
#: How much of a link's hand text is put back in the text box.  The text widgets get no
#: ``max_chars``: Streamlit's widget silently drops a paste longer than its cap (the box
#: stays as it was, no message), while without a cap ``too_long`` refuses it with a reason.
LINK_MAX_CHARS = 5000



# --- text ------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&])")


def plain(text: object) -> str:
    """Escape text for Streamlit markdown (st.error, st.write...) so it shows as typed."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


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


def category_label(key: int) -> str:
    """English name of a strength key's category, with the Vietnamese in brackets."""
    english, vietnamese, _ = CATEGORY_NAMES[category_of(key)]
    return f"{english} ({vietnamese.split(' (')[0]})"


# --- parsing what people type -------------------------------------------------------------


def too_long(text: str, what: str = "hand") -> str | None:
    """A refusal message when the text is absurdly long, else None."""
    if len(text) > MAX_INPUT_CHARS:
        return (
            f"That {what} text is {len(text):,} characters long; the limit is {MAX_INPUT_CHARS}. "
            "A hand is 13 cards such as As Kd 10c ..."
        )
    return None


def read_hand(text: str) -> list[Card]:
    """Parse 13 distinct cards from user text; raises ValueError with a readable reason."""
    refusal = too_long(text)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError("Enter 13 cards, for example: As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s")
    return check_hand(parse_cards(text))


def read_arrangement(text: str) -> Arrangement:
    """Parse ``front | middle | back`` from user text; raises ValueError with a reason."""
    refusal = too_long(text, "arrangement")
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError("Enter an arrangement as front | middle | back (3 + 5 + 5 cards).")
    return Arrangement.parse(text)


def show_error(problem: BaseException | str) -> None:
    """st.error with the reason shown exactly as text (user input in it never becomes markup)."""
    message = problem if isinstance(problem, str) else str(problem) or type(problem).__name__
    st.error(plain(message), icon="⚠️")


def percent(p: float) -> str:
    return f"{100 * p:.0f}%"


def chi(x: float, signed: bool = True) -> str:
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def chi_gap(diff: float) -> str:
    """A difference in chi for a table of sets: ``-0.42``; ``±0.00`` for a tie; ``-<0.01``
    for a gap too small for two decimals (never the puzzling ``-0.00`` or ``+0.00``)."""
    if diff == 0:
        return "±0.00"
    if abs(diff) < 0.005:
        return ("-" if diff < 0 else "+") + "<0.01"
    return chi(diff)


# --- words inside the card component (pages pass them, so they can be translated) ---------


def category_names() -> list[str]:
    """The nine row categories, high card .. straight flush, as the editor shows them."""
    return [english.capitalize() for english, _, _ in CATEGORY_NAMES]


def editor_labels(submit: str = "") -> dict[str, str]:
    """Every word the hand editor shows; ``submit`` adds its own submit button."""
    labels = {
        "front": "Front",
        "middle": "Middle",
        "back": "Back",
        "front_word": "front",
        "middle_word": "middle",
        "back_word": "back",
        "count": "{n} of {size}",
        "too_many": "too many",
        "too_few": "too few",
        "sizes": "Rows need 3, 5 and 5 cards.",
        "valid": "✔ Valid set: back ≥ middle ≥ front.",
        "foul": "✖ Foul: {reasons}. The back must be ≥ the middle ≥ the front.",
        "foul_beats": "your {upper} ({upper_hand}) beats your {lower} ({lower_hand})",
        "foul_same": "your {upper} and {lower} are both {upper_hand}, but the {upper}'s cards rank higher",
        "foul_equal": "your {upper} and {lower} are equal, and these rules need strictly stronger",
        "undo": "↶ Undo",
        "reset": "Reset to the deal",
        "sort": "Sort rows",
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

    st.toggle("Four-colour deck (♦ blue, ♣ green)", key=key, on_change=chosen)


def picker_labels() -> dict[str, str]:
    return {f"suit_{suit.value}": SUIT_NAMES[suit] for suit in SUITS}


def safe_parse_cards(text: str) -> list[Card] | None:
    """Cards from text, or None when it does not parse (no exception)."""
    try:
        if too_long(text):
            return None
        return parse_cards(text)
    except (InvalidCardError, InvalidHandError, ValueError):
        return None


# --- names ------------------------------------------------------------------------------------

#: Special hands: (English, Vietnamese, Khmer) as in the rules spec, section 2.
SPECIAL_NAMES: dict[str, tuple[str, str, str]] = {
    "dragon_flush": ("same-suit dragon", "rồng cuốn", "សាញ់នាគ(១ទឹក)"),
    "dragon": ("dragon", "sảnh rồng", "សាញ់១៣ដើម"),
    "six_pairs": ("six pairs", "lục phé bôn, 6 đôi", "៦គូ"),
    "three_flushes": ("three flushes", "3 thùng", "ជីធុង"),
    "three_straights": ("three straights", "3 sảnh", "៣ជីសាញ់"),
}
SPECIAL_MEANINGS: dict[str, str] = {
    "dragon_flush": "2 to A, all one suit",
    "dragon": "13 different ranks, 2 to A",
    "six_pairs": "six pairs and one odd card (a trips or quads counts as its pairs)",
    "three_flushes": "the cards split into 5 + 5 + 3 of one suit each",
    "three_straights": "two 5-card straights and a 3-card run",
}

PRESET_BLURBS: dict[str, str] = {
    "vietnamese": "Vietnamese table rules (default): row bonuses, sập ×2, sập làng, specials, ace counting",
    "seed": "The Khmer source text literally: no row bonuses, no sập làng",
    "plain": "International Chinese poker: 1 chi a row, no bonuses, specials, doubling or aces",
    "four-two": "Plain, plus 1 chi for winning 2 or 3 rows (a scoop is worth 4)",
}


def special_label(name: str) -> str:
    english, vietnamese, _ = SPECIAL_NAMES.get(name, (name.replace("_", " "), "", ""))
    meaning = SPECIAL_MEANINGS.get(name)
    label = f"{english} ({vietnamese})" if vietnamese else english
    return f"{label}: {meaning}" if meaning else label


def preset_label(name: str) -> str:
    return name.capitalize() if name != "four-two" else "Four-two"


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
