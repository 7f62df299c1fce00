"""The card component: every card the app draws, and the ones you drag or tap.

One Streamlit Components v2 component (``st.components.v2.component``) with inline
HTML, CSS and JS read from ``cards.html``, ``cards.css`` and ``cards.js`` beside this
file; nothing is fetched at run time.  Pages call the typed functions below and never
touch raw component state.  Every word shown inside the component comes from the
``labels`` arguments, so pages can translate them.

API (stable; new arguments are added with defaults, nothing is removed):

``hand_editor(deal, *, key, labels, categories, rows=None, wheel="second", strict=False,
special=None, marked=(), disabled=False, four_colour=False, scroll=False, attrs=None) -> HandEditorResult``
    Three rows (front 3, middle 5, back 5) arranged by drag and drop (pointer events,
    mouse or finger) or by taps: tap a card, then a row (move) or a card in another row
    (swap when that row is full, else move before it); tap more cards of one row to
    move them together.  Undo, reset to ``deal`` and auto-sort (multiples first, high to
    low) run in the browser; the foul check and each row's category are computed there
    too (``categories``: the nine category names, high card .. straight flush).  Each
    move is sent to Python at once; ``result.rows`` is the current arrangement (three
    lists of card codes), ``result.moves`` how many moves it took, ``result.submitted``
    True on the run after the in-component submit button (shown only when
    ``labels["submit"]`` is set).  A new ``deal`` (another hand) starts afresh; ``rows``
    is where the cards start when the editor holds nothing yet (first draw, or back from
    another page).  ``rows_key`` names a session-state key holding the page's own copy of
    the rows: the editor shows it, a move updates it before the page runs, and a page
    (or a test) that writes it moves the cards.  ``on_change`` runs
    (as a Streamlit callback) after each move the player makes.  ``attrs`` are ``data-*``
    attributes set on the element holding the rows (the Rooms page's ``data-seat``).  Labels: front, middle,
    back (row titles; front_word, middle_word, back_word in sentences), count ("{n}/{size}"), too_many,
    too_few ("{n}/{size}"), sizes, valid, foul ("{reasons}"), foul_beats, foul_same,
    foul_equal ("{upper}", "{lower}", "{upper_hand}", "{lower_hand}"), undo, reset, sort,
    submit (optional).  ``scroll``: a new deal scrolls the editor into view when its top is
    off the screen or low on it (a phone shows little above the fold).

``card_picker(selected, *, key, labels, four_colour=False, on_change=None) -> PickerResult``
    The 52-card grid, one line per suit, tap to toggle.  ``result.selected`` is the
    selection (codes, in tap order) and ``result.changed`` is True only on the run that
    follows a user's tap; ``on_change(added, removed)`` is a callback for that tap, so a
    page can write its text box only on a real user change.
    Labels: suit_s, suit_h, suit_d, suit_c (names read by screen readers).

``card_rows(rows, *, key=None, compact=False, small=False, four_colour=False, attrs=None, scroll=None) -> None``
    Static rows of face-up cards: each a :class:`CardRow` (label, note, cards, marked
    cards drawn with a ring, and ``backs``: a number of card backs after the cards).
    ``compact`` sets the rows side by side in small cards; ``small`` keeps one row a line
    with its label, in small cards.  ``scroll`` names what the rows show (a solved hand,
    a revealed deal): a name not seen before scrolls them into view as ``hand_editor``'s.

``card_fan(cards, *, key=None, backs=0, label="", four_colour=False) -> None``
    One line of cards (and/or backs).

``macao_table(table, *, key, on_event=None) -> TableEvent | None``
    The Macao table from a :class:`MacaoTable`: seats with card backs and counts
    (``data-seat``) and their last move (``data-last-move``, once they have moved), the
    stock, the discard's top card, whose turn, your hand fanned with ``data-playable``
    on every card, one-tap plays, multi-card selection with a Play button, and a suit
    picker for Aces.  A tap on a dim card shows ``reasons[i]`` (why it cannot be played)
    without a round trip; ``guide`` lines (why each lit card may go) show under the hand.
    Returns the player's event of this run:
    ``TableEvent(kind="action", action_id=...)`` (an index into the legal actions the
    page listed in ``one_tap``) or ``TableEvent(kind="play", cards=[...], suit=...)``;
    ``move`` echoes the table's move number so a stale click can be ignored.
    ``on_event(event)`` is the same event as a callback, before the page runs.

Keys: give every call a ``key`` that is unique on the page (two unkeyed calls with the
same cards would be the same Streamlit element).  State sent by the browser lives under
that key; pages read it only through these functions.

DOM contract (tests outside rely on it): every face-up card is an element with
``data-card="<code>"`` (``As``, ``Td``, ``BJ``); editor rows carry ``data-row`` =
front/middle/back and contain their cards; Macao hand cards carry ``data-playable``;
seats carry ``data-seat``, and ``data-last-move="<text>"`` once that seat has moved.

Skins: every view draws its card faces and backs in the design named by the session
key :data:`SKIN_KEY` (``card_skin``, a plain dict ``{"face": ..., "back": ...}`` of
:data:`FACES` and :data:`BACKS` names; anything else reads as the classic look).  The
component reads it itself, so every page that draws cards honours the choice; the
setting's widget is :func:`app.card_skins.skin_picker`.  The designs are CSS (and inline
SVG patterns) in ``cards.css``; nothing is fetched.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import streamlit as st

from solver.scoring import ROW_SIZES

__all__ = [
    "BACKS",
    "FACES",
    "SKIN_KEY",
    "CardRow",
    "HandEditorResult",
    "MacaoSeat",
    "MacaoTable",
    "PickerResult",
    "TableEvent",
    "card_fan",
    "card_picker",
    "card_rows",
    "current_skin",
    "hand_editor",
    "macao_table",
]

Rows = tuple[list[str], list[str], list[str]]


def _asset(name: str) -> str:
    return importlib.resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


_COMPONENT = st.components.v2.component(
    "mau_binh_cards",
    html=_asset("cards.html"),
    css=_asset("cards.css"),
    js=_asset("cards.js"),
)


#: Session key of the card design (a plain dict, so it can be saved with a profile).
SKIN_KEY = "card_skin"
#: Card face designs: the classic face; big corner indexes (easy to read on a phone); a dark night face.
FACES = ("classic", "jumbo", "night")
#: Card back designs: green stripes, a blue lattice, red dots, a black and gold frame.
BACKS = ("green", "blue", "red", "gold")


def current_skin() -> dict[str, str]:
    """The session's card design as ``{"face": ..., "back": ...}`` (the classic look by default)."""
    try:
        chosen = st.session_state.get(SKIN_KEY)
    except Exception:  # no script run context (a plain call from a test or a tool)
        chosen = None
    chosen = chosen if isinstance(chosen, Mapping) else {}
    face, back = chosen.get("face"), chosen.get("back")
    return {"face": face if face in FACES else FACES[0], "back": back if back in BACKS else BACKS[0]}


def _draw(**kwargs: Any) -> Any:
    """Mount the component with the session's skin added to its data."""
    kwargs["data"] = {**kwargs["data"], "skin": current_skin()}
    return _COMPONENT(**kwargs)


def _noop() -> None:
    """Callback that registers a state or trigger name with the component."""


def _codes(cards: Iterable[object]) -> list[str]:
    return [str(c) for c in cards]


def _stored(key: str, name: str) -> dict[str, Any]:
    """The component's last state ``name`` as the browser sent it (empty before the first send).

    (State names avoid ``value``: Streamlit unwraps a state that holds only ``value``.)
    """
    try:
        state = st.session_state[key]
    except (KeyError, AttributeError):  # not mounted yet in this session
        return {}
    inner = state.get(name) if isinstance(state, Mapping) else None
    return dict(inner) if isinstance(inner, Mapping) else {}


def _data_attrs(attrs: Mapping[str, object] | None) -> dict[str, str]:
    """``attrs`` as the ``data-*`` attributes an element gets (ValueError for any other name)."""
    extra = dict(attrs or {})
    if any(not name.startswith("data-") for name in extra):
        raise ValueError(f"a card view sets data-* attributes only, not {sorted(extra)}")
    return {name: str(value) for name, value in extra.items()}


# --- the hand editor ------------------------------------------------------------------------


@dataclass(frozen=True)
class HandEditorResult:
    """What the editor holds after this run."""

    rows: Rows
    moves: int = 0
    submitted: bool = False

    @property
    def complete(self) -> bool:
        """True when the rows hold 3, 5 and 5 cards."""
        return tuple(len(r) for r in self.rows) == ROW_SIZES


def _as_rows(value: object, fallback: Rows) -> Rows:
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(r, (list, tuple)) for r in value):
        rows = tuple([str(c) for c in r] for r in value)
        if sorted(c for r in rows for c in r) == sorted(c for r in fallback for c in r):
            return rows  # type: ignore[return-value]
    return fallback


def hand_editor(
    deal: Sequence[Sequence[object]],
    *,
    key: str,
    labels: Mapping[str, str],
    categories: Sequence[str],
    rows: Sequence[Sequence[object]] | None = None,
    rows_key: str | None = None,
    wheel: str = "second",
    strict: bool = False,
    special: str | None = None,
    marked: Iterable[object] = (),
    disabled: bool = False,
    four_colour: bool = False,
    on_change: Callable[[], None] | None = None,
    scroll: bool = False,
    attrs: Mapping[str, str] | None = None,
) -> HandEditorResult:
    """Draw the three-row editor; see the module docstring."""
    extra = _data_attrs(attrs)
    deal_rows: Rows = tuple(_codes(r) for r in deal)  # type: ignore[assignment]
    deal_id = " | ".join(" ".join(sorted(r)) for r in deal_rows)
    stored = _stored(key, "arrangement")
    if stored.get("deal_id") != deal_id:
        stored = {}
    start = deal_rows if rows is None else _as_rows([_codes(r) for r in rows], deal_rows)
    if rows_key is not None:  # the page's copy is the truth; moves reach it in the callback
        current = _as_rows(st.session_state.get(rows_key), start)
    else:
        current = _as_rows(stored.get("rows"), start)
    seq = int(stored.get("seq", 0) or 0)

    def moved() -> None:  # runs before the page, only after the player moved a card
        sent = _stored(key, "arrangement")
        if rows_key is not None and sent.get("deal_id") == deal_id:
            st.session_state[rows_key] = [list(r) for r in _as_rows(sent.get("rows"), current)]
        if on_change is not None:
            on_change()

    data = {
        "view": "editor",
        "deal_id": deal_id,
        "deal": list(deal_rows),
        "value": {"rows": list(current), "seq": seq},
        "sizes": list(ROW_SIZES),
        "labels": dict(labels),
        "categories": list(categories),
        "wheel": wheel,
        "strict": bool(strict),
        "special": special,
        "marked": _codes(marked),
        "disabled": bool(disabled),
        "four_colour": bool(four_colour),
        "scroll": deal_id if scroll else None,
        "attrs": extra,
    }
    result = _draw(
        key=key,
        data=data,
        default={"arrangement": {"rows": list(current), "seq": seq, "deal_id": deal_id, "moves": 0}},
        on_arrangement_change=moved,
        on_submit_change=_noop,
    )
    value = result.get("arrangement")
    value = value if isinstance(value, Mapping) and value.get("deal_id") == deal_id else {}
    if rows_key is not None:
        final = _as_rows(st.session_state.get(rows_key), current)
    else:
        final = _as_rows(value.get("rows"), current)
    submit = result.get("submit")
    if isinstance(submit, Mapping):
        final = _as_rows(submit.get("rows"), final)
    return HandEditorResult(rows=final, moves=int(value.get("moves", 0) or 0), submitted=isinstance(submit, Mapping))


# --- the 52-card picker ------------------------------------------------------------------------


@dataclass(frozen=True)
class PickerResult:
    selected: list[str]
    changed: bool


def card_picker(
    selected: Iterable[object],
    *,
    key: str,
    labels: Mapping[str, str],
    four_colour: bool = False,
    on_change: Callable[[list[str], list[str]], None] | None = None,
) -> PickerResult:
    """The 52-card grid; ``changed`` is True only right after the player tapped a card.

    ``on_change(added, removed)`` runs as a Streamlit callback (before the page, so it may
    write other widgets' state) after a tap, with the cards the tap added or removed
    compared with ``selected``.
    """
    wanted = _codes(selected)
    seq = int(_stored(key, "selection").get("seq", 0) or 0)
    flag = f"{key}__changed"

    def mark_changed() -> None:  # runs only when the browser sent a tap
        st.session_state[flag] = True
        if on_change is not None:
            now = [str(c) for c in _stored(key, "selection").get("selected", [])]
            on_change([c for c in now if c not in wanted], [c for c in wanted if c not in now])

    data = {
        "view": "picker",
        "value": {"selected": wanted, "seq": seq},
        "labels": dict(labels),
        "four_colour": bool(four_colour),
    }
    result = _draw(
        key=key,
        data=data,
        default={"selection": {"selected": wanted, "seq": 0}},
        on_selection_change=mark_changed,
    )
    value = result.get("selection") or {}
    changed = bool(st.session_state.pop(flag, False)) and isinstance(value, Mapping)
    picked = [str(c) for c in value.get("selected", [])] if changed else wanted
    return PickerResult(selected=picked, changed=changed)


# --- static cards --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    """One labelled line of static cards."""

    cards: Sequence[object] = ()
    label: str = ""
    note: str = ""
    marked: Iterable[object] = ()
    backs: int = 0


def card_rows(
    rows: Sequence[CardRow],
    *,
    key: str | None = None,
    compact: bool = False,
    small: bool = False,
    four_colour: bool = False,
    attrs: Mapping[str, str] | None = None,
    scroll: str | None = None,
) -> None:
    """Static rows of cards (an arrangement, a hand, a pile).

    ``attrs`` are ``data-*`` attributes set on the element that holds the rows (the Play
    page's reveal contract: ``data-seat``, ``data-rows``, ``data-chi``).
    """
    data = {
        "view": "rows",
        "compact": bool(compact),
        "small": bool(small),
        "scroll": scroll,
        "four_colour": bool(four_colour),
        "attrs": _data_attrs(attrs),
        "rows": [
            {"label": r.label, "note": r.note, "cards": _codes(r.cards), "marked": _codes(r.marked), "backs": r.backs}
            for r in rows
        ],
    }
    _draw(key=key, data=data)


def card_fan(
    cards: Sequence[object],
    *,
    key: str | None = None,
    backs: int = 0,
    label: str = "",
    four_colour: bool = False,
) -> None:
    """One line of cards, face up and/or backs."""
    data = {
        "view": "fan",
        "four_colour": bool(four_colour),
        "rows": [{"label": label, "note": "", "cards": _codes(cards), "marked": [], "backs": backs}],
    }
    _draw(key=key, data=data)


# --- the Macao table -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MacaoSeat:
    seat: int
    name: str
    count: int
    count_text: str
    note: str = ""
    current: bool = False
    out: bool = False
    last_move: str = ""
    fresh: bool = False


@dataclass(frozen=True)
class MacaoTable:
    """Everything the table view shows; every text already in the player's language."""

    seats: Sequence[MacaoSeat]
    top: str
    hand: Sequence[str]
    playable: Sequence[bool]
    one_tap: Sequence[int | None]
    move: int
    your_turn: bool
    turn_text: str
    stock_text: str
    suit_text: str
    pending_text: str = ""
    hint: str = ""
    drawn_index: int | None = None
    reasons: Sequence[str] = ()
    guide: Sequence[str] = ()
    labels: Mapping[str, object] = field(default_factory=dict)
    four_colour: bool = False


@dataclass(frozen=True)
class TableEvent:
    kind: str  # "action" or "play"
    move: int
    action_id: int | None = None
    cards: tuple[str, ...] = ()
    suit: str | None = None


def _table_event(result: Mapping[str, Any]) -> TableEvent | None:
    action, play = result.get("action"), result.get("play")
    if isinstance(action, Mapping) and isinstance(action.get("id"), int):
        return TableEvent(kind="action", move=int(action.get("move", -1)), action_id=int(action["id"]))
    if isinstance(play, Mapping) and isinstance(play.get("cards"), list):
        suit = play.get("suit")
        return TableEvent(
            kind="play",
            move=int(play.get("move", -1)),
            cards=tuple(str(c) for c in play["cards"]),
            suit=str(suit) if isinstance(suit, str) else None,
        )
    return None


def macao_table(
    table: MacaoTable, *, key: str, on_event: Callable[[TableEvent], None] | None = None
) -> TableEvent | None:
    """Draw the Macao table; returns the player's tap or play of this run, if any.

    ``on_event(event)`` runs as a Streamlit callback (before the page) for each tap, so a
    page can act on it before it draws the table again.
    """

    def tapped() -> None:
        if on_event is None:
            return
        try:
            value = st.session_state[key]
        except KeyError:
            return
        event = _table_event(value) if isinstance(value, Mapping) else None
        if event is not None:
            on_event(event)

    data = {
        "view": "table",
        "seats": [asdict(s) for s in table.seats],
        "top": table.top,
        "hand": list(table.hand),
        "playable": [bool(p) for p in table.playable],
        "one_tap": list(table.one_tap),
        "move": table.move,
        "your_turn": table.your_turn,
        "turn_text": table.turn_text,
        "stock_text": table.stock_text,
        "suit_text": table.suit_text,
        "pending_text": table.pending_text,
        "hint": table.hint,
        "drawn_index": table.drawn_index,
        "reasons": list(table.reasons),
        "guide": list(table.guide),
        "labels": dict(table.labels),
        "four_colour": table.four_colour,
    }
    result = _draw(key=key, data=data, on_action_change=tapped, on_play_change=tapped)
    return _table_event(result)
