"""A hand's settlement as people read it: one compact block per pair of seats.

The Play page settles each hand with :func:`solver.score_table`, whose result itemises
every pair (:class:`solver.scoring.PairSettlement`: three :class:`RowResult` rows and the
:class:`SettlementItem` extras).  This module only *formats* those line items, from one
seat's side: the other seat's three rows side by side as small cards, each marked won,
lost or tied with the chi it paid, the extras as labelled chips (bonus, sập, sập làng,
foul, special, aces) and the pair's total.  No rule is worked out here again.

The blocks are plain HTML with inline styles (``st.html``), sized to fit a 390-pixel
screen: a block never becomes a table that wraps into long columns.
"""

from __future__ import annotations

import html

from app.i18n import _, pgettext
from app.terms import category_names, row_names, special_names
from solver.cards import Card
from solver.scoring import PairSettlement, SettlementItem

GREEN, RED, GREY = "#2e7d32", "#c62828", "#757575"
SUIT_GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def signed(n: int) -> str:
    """Chi with its sign (``+3``, ``−2``, ``0``); a true minus sign reads better small."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def colour_of(n: int) -> str:
    return GREEN if n > 0 else RED if n < 0 else GREY


def mini_cards(cards: list[Card], four_colour: bool) -> str:
    """Cards as small face-up chips (rank and suit), in the app's suit colours.

    They carry ``data-mini-card``, not the card component's ``data-card``: tests that find
    a card by ``[data-card=...]`` must find the one you can move, not its copy in a block."""
    chips = []
    for card in cards:
        code = str(card)
        suit = code[1]
        colour = {"h": RED, "d": "#1565c0" if four_colour else RED, "c": GREEN if four_colour else "#1a1a1a"}.get(
            suit, "#1a1a1a"
        )
        rank = "10" if code[0] == "T" else code[0]
        chips.append(
            f'<span data-mini-card="{code}" style="display:inline-block;min-width:1.55em;padding:.05em .12em;'
            f"margin:0 .1em .15em 0;border:1px solid #b0a99a;border-radius:.25em;background:#fffdf7;"
            f'color:{colour};font-weight:700;text-align:center;line-height:1.25">{rank}{SUIT_GLYPHS[suit]}</span>'
        )
    return "".join(chips)


def item_words(item: SettlementItem) -> str:
    """An extra's label: the kind in the player's words and its detail (×2, the special, 2–1)."""
    detail = item.detail.replace("x", "×")
    if item.kind == "special":
        return pgettext("settlement", "special: {name}").format(name=special_names().get(item.detail, item.detail))
    if item.kind == "foul":
        return pgettext("settlement", "both fouled") if item.detail == "both" else pgettext("settlement", "foul")
    if item.kind == "bonus":
        return pgettext("settlement", "bonus: two rows or more")
    if item.kind == "sap":
        return pgettext("settlement", "sập {detail}").format(detail=detail)
    if item.kind == "sap_lang":
        return pgettext("settlement", "sập làng {detail}").format(detail=detail)
    if item.kind == "aces":
        if item.detail == "void":
            return pgettext("settlement", "aces: void (one hand holds all four)")
        return pgettext("settlement", "aces {counts}").format(counts=item.detail.replace("-", "–"))
    return item.kind


def chip(text: str, amount: int | None) -> str:
    colour = GREY if amount is None else colour_of(amount)
    value = "" if amount is None else f" <b>{signed(amount)}</b>"
    return (
        f'<span data-item style="display:inline-block;margin:.15em .3em 0 0;padding:.05em .5em;border-radius:1em;'
        f'border:1px solid {colour};color:{colour};font-size:.85em;white-space:nowrap">'
        f"{html.escape(text)}{value}</span>"
    )


def pair_block(pair: PairSettlement, me: str, other: str, cards: list[list[Card]], four_colour: bool) -> str:
    """One pair's settlement from seat ``pair.a``'s side (``me``): ``other``'s rows
    (``cards``: front, middle, back) side by side, each with its result, then the
    extras and the pair's total."""
    seat = pair.a
    categories = category_names()
    cells = []
    for index, (title, row) in enumerate(zip(row_names(), cards)):
        if pair.rows:
            result = pair.rows[index]
            got = 0 if result.winner is None else result.chi if result.winner == seat else -result.chi
            if result.winner is None:
                outcome = pgettext("row result", "tied")
            elif result.winner == seat:
                outcome = pgettext("row result", "won")
            else:
                outcome = pgettext("row result", "lost")
            name = categories[result.category]
            mark = f'<b style="color:{colour_of(got)}">{html.escape(outcome)} {signed(got)}</b>'
            if result.owner_tie:
                mark += " " + html.escape(pgettext("row result", "(a tie goes to the table owner)"))
        else:
            name, mark = "", f'<span style="color:{GREY}">{html.escape(pgettext("row result", "not compared"))}</span>'
        cells.append(
            f'<div data-settle-row="{index}" style="flex:{len(row)} 1 0;min-width:0">'
            f'<div style="font-size:.8em;opacity:.75">{html.escape(title)}'
            f"{' · ' + html.escape(name) if name else ''}</div>"
            f"<div>{mini_cards(row, four_colour)}</div><div style=\"font-size:.85em\">{mark}</div></div>"
        )
    extras = "".join(chip(item_words(x), x.amount if x.to == seat else -x.amount) for x in pair.extras)
    total = pair.received(seat)
    # the words are worked out outside the f-string, where the message extraction finds them
    title, chi = _("{me} against {other}").format(me=me, other=other), _("{n} chi").format(n=signed(total))
    return (
        f'<div data-pair="{pair.a}-{pair.b}" style="border:1px solid rgba(128,128,128,.35);border-radius:.6em;'
        f'padding:.4em .6em;margin:.3em 0">'
        f'<div style="display:flex;justify-content:space-between;gap:.5em;align-items:baseline">'
        f"<span>{html.escape(title)}</span>"
        f'<b style="color:{colour_of(total)}" data-pair-chi="{total}">{html.escape(chi)}</b></div>'
        f'<div style="display:flex;gap:.5em;margin-top:.2em">{"".join(cells)}</div>'
        f"{'<div>' + extras + '</div>' if extras else ''}</div>"
    )


def seat_totals(names: list[str], totals: tuple[int, ...], balance: list[int] | None) -> str:
    """Each seat's chi for this hand (and its running balance), one chip a seat."""
    parts = []
    for seat, name in enumerate(names):
        extra = ""
        if balance is not None:
            words = _("balance {n}").format(n=signed(balance[seat]))
            extra = f' <span style="opacity:.7">{html.escape(words)}</span>'
        parts.append(
            f'<span data-total="{seat}" style="display:inline-block;margin:.15em .6em .15em 0;white-space:nowrap">'
            f'{html.escape(name)} <b style="color:{colour_of(totals[seat])}">{signed(totals[seat])}</b>{extra}</span>'
        )
    return f'<div style="line-height:1.6">{"".join(parts)}</div>'
