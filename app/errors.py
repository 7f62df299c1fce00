"""How the app shows a problem: one translated line per kind of error, the detail underneath.

The libraries (``solver``, ``macao``) raise errors whose messages are English and exact
(they echo the input).  The app does not translate those sentences; it names the kind of
problem in the player's language and shows the library's detail below it, as typed.
Messages the app writes itself (``app/`` code) are translated where they are raised.
"""

from __future__ import annotations

import re

import streamlit as st

from app.i18n import _
from macao import GameNotOverError, IllegalActionError
from macao import InvalidRulesError as MacaoRulesError
from solver import InvalidCardError, InvalidHandError
from solver import InvalidRulesError as SolverRulesError

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&])")


def plain(text: object) -> str:
    """Escape text for Streamlit markdown so it shows exactly as typed (never as markup)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def error_kind(problem: BaseException) -> str:
    """One sentence, in the session's language, naming what kind of problem this is."""
    if isinstance(problem, InvalidCardError):
        return _("A card could not be read.")
    if isinstance(problem, InvalidHandError):
        return _("These cards do not make a hand.")
    if isinstance(problem, (SolverRulesError, MacaoRulesError)):
        return _("These rule options do not go together.")
    if isinstance(problem, IllegalActionError):
        return _("That move is not allowed now.")
    if isinstance(problem, GameNotOverError):
        return _("The round is not over yet.")
    return _("That input cannot be used.")


def show_error(problem: BaseException | str) -> None:
    """st.error: the kind of problem in the player's language, then the detail as plain text.

    A string is a message the app wrote (already translated) and is shown alone.
    """
    if isinstance(problem, str):
        st.error(plain(problem), icon="⚠️")
        return
    detail = str(problem) or type(problem).__name__
    st.error(f"**{plain(error_kind(problem))}**  \n{plain(detail)}", icon="⚠️")
