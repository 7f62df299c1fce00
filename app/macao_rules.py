"""Macao's rules in plain words: the Rules page's Macao section and the Macao page's cheat sheet.

Every rule of ../shared/rules/macao.md §2 (as the engine in :mod:`macao` implements it)
is here once, with an example, in the player's language; the options say where they
change a rule.  The match scoring is :mod:`macao.match`'s.  Card examples are written
with suit glyphs, which read the same in every language.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import _


def bullets(*items: str) -> str:
    return "\n".join(f"* {item}" for item in items)


def cheat_sheet() -> list[str]:
    """The five things to know before a first round (the Macao page shows them)."""
    return [
        _("Play a card of the **same suit or the same rank** as the top card; Aces and jokers go on anything."),
        _("**2, 3, black joker, red joker**: the next player draws 2, 3, 5 or 10 unless they answer with a draw card."),
        _("**4**: the next player waits a turn unless they answer with a 4. **7** stops a draw penalty."),
        _("**Ace**: name the next suit. Nothing fits? **Draw** one card."),
        _("Two cards left? Press **Macao!** *before* the play that leaves you one card, or you draw 5."),
    ]


def macao_section() -> None:
    """The Rules page's Macao section."""
    st.header(_("Rules of Macao"))
    st.caption(
        _(
            "Macao (in Romanian, Macaua) is a shedding game for 2 to 4 players: be the first to play all your "
            "cards. On the Macao page you play against 1 to 3 computer players."
        )
    )
    st.subheader(_("Cards and deal"))
    st.markdown(
        bullets(
            _(
                "**Deck.** One to four decks of 54 cards: the 52 cards and a black and a red joker (jokers can be "
                "switched off). With several decks every card exists several times."
            ),
            _(
                "**Deal.** Each player gets 5 cards (the option goes up to 10), one at a time. Play goes "
                "clockwise; the player after the dealer starts, and the dealer moves one seat each round."
            ),
            _(
                "**Start card.** One card is turned face up. If it is a special card (2, 3, 4, 7, Ace or joker), "
                "it goes under the stock and the next card is turned. The option *Keep it* keeps it without its "
                "effect (a joker is always replaced, as it has no suit)."
            ),
        )
    )
    st.subheader(_("Your turn"))
    st.markdown(
        bullets(
            _(
                "**Follow the top card** with a card of the same suit or the same rank. Example: on 9♥ you may "
                "play 5♥ or 9♠, not 5♠."
            ),
            _(
                "**Several cards at once**, all of one rank: the first must fit, the last sets the suit. Example: "
                "on 9♥, play 9♥ 9♠ 9♣: the next player must follow ♣ (or a 9)."
            ),
            _(
                "**Cannot or will not play?** Draw one card. If it fits you may play it at once (that card "
                "only), or keep it; either way your turn ends."
            ),
            _("**Plain cards** (5, 6, 8, 9, 10, J, Q, K) have no effect."),
        )
    )
    st.subheader(_("Special cards"))
    st.markdown(
        bullets(
            _(
                "**2 and 3**: the next player draws 2 or 3 cards, unless they answer with a draw card of the same "
                "suit or rank, or a joker. Penalties add up. Example: 2♥, then 3♥: the next player draws 5."
            ),
            _(
                "**Jokers**: the black joker makes the next player draw 5, the red joker 10. A joker goes on "
                "anything, goes on any draw card, and any draw card goes on it. After a joker any suit may follow."
            ),
            _(
                "**7 (stop)**: while a draw penalty is pending, any 7 cancels it and nobody draws; the next "
                "player follows the 7 as usual. With nothing pending a 7 is a plain card, and it does not stop a "
                "wait. The option *Stop* switches this off."
            ),
            _(
                "**Taking a penalty**: press *Accept* to draw all the cards; you cannot play this turn. If the "
                "stock runs short, the rest of the penalty is forfeited."
            ),
            _(
                "**4 (wait)**: the next player loses a turn, unless they answer with a 4 of any suit. Waits add "
                "up: 4♠ 4♦ makes the next player sit out 2 turns. Under a wait nothing but a 4 may be played."
            ),
            _(
                "**Ace**: goes on anything and names the next suit (its own suit too). Example: A♣ naming ♦: "
                "the next player plays a ♦, an Ace or a joker. An Ace cannot answer a penalty or a wait. The "
                "option *Ace is wild* off makes the Ace follow suit like any card."
            ),
            _(
                "**Stacking option**: *Matching cards* (the default) as above; *Any draw card* lets any 2, 3 or "
                "joker answer; *None* means a penalty must be taken (a 7 still stops it)."
            ),
        )
    )
    st.subheader(_("Macao!"))
    st.markdown(
        bullets(
            _(
                "When a play leaves you **one card**, say Macao: press **Macao!** *before* you tap that play (the "
                "button lights up and your next play says it)."
            ),
            _(
                "Forgot? Any opponent may call it until the next player moves, and you draw 5 cards. You can "
                "catch a computer player the same way: the button then reads *Macao! (catch P1)*."
            ),
        )
    )
    st.subheader(_("Stock, end of a round and matches"))
    st.markdown(
        bullets(
            _(
                "**Empty stock**: the top card stays, the rest of the discard pile is shuffled into a new stock. "
                "If nothing at all can be drawn you pass; if every player passes in a row, the round ends and "
                "fewer cards rank higher."
            ),
            _(
                "**End of a round**: the first player out of cards wins. The others play on, and the last one "
                "still holding cards loses. The option *First out wins* ends the round at the first player out; "
                "the others rank by fewest cards."
            ),
            _(
                "**Match** (option): several rounds with a running score. Each round a player scores the number "
                "of players minus their place: with 3 players 2, 1 and 0 points. After the last round the highest "
                "total wins; a tie goes to more round wins, then to the better place in the last round."
            ),
        )
    )
