"""The app's languages: English, Vietnamese (Tiếng Việt) and Khmer (ខ្មែរ), the gettext way.

Every user-facing string in ``app/`` and ``streamlit_app.py`` is written in English inside
``_()`` (``ngettext()`` for a count, ``pgettext()`` for a word with two meanings); a table
of words is built by a function at display time, never at import (``app/terms.py``);
``pybabel extract`` collects them into ``app/locale/messages.pot`` and each language has a
catalog ``app/locale/<lang>/LC_MESSAGES/messages.po`` compiled to ``messages.mo``
(``python -m app.i18n update`` does all three steps, see ``app/i18n/__main__.py``).

Which catalog ``_()`` uses is decided per session: the chosen language lives in
``st.session_state`` (and in the URL as ``?lang=``), and each call looks it up, so two
players in different languages never see each other's.  The compiled catalogs themselves
are read-only and shared (cached once per language).

Numbers are formatted per locale with Babel (``decimal``, ``percent``): Vietnamese writes
``1.234,5``, English ``1,234.5``.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

import streamlit as st
from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal, format_percent, get_decimal_symbol, get_group_symbol

T = TypeVar("T")

DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The languages the app speaks, each named in itself (as the picker shows it).
LANGUAGES = MappingProxyType({"en": "English", "vi": "Tiếng Việt", "km": "ខ្មែរ"})
DEFAULT = "en"
#: Session-state key of the chosen language (the source of truth within a session).
LANG_KEY = "lang"
#: Key of the picker widget (mirrors LANG_KEY while the picker is on screen).
PICKER_KEY = "lang_picker"
#: The URL parameter that carries the language, so a shared link opens in it.
URL_PARAM = "lang"


# --- catalogs ------------------------------------------------------------------------------


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of one language (English is the source: identity)."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def current_language() -> str:
    """The language chosen in this session (English outside a session)."""
    try:
        lang = st.session_state.get(LANG_KEY, DEFAULT)
    except Exception:  # no script run context (a plain import in a test or a tool)
        return DEFAULT
    return lang if lang in LANGUAGES else DEFAULT


def _(message: str) -> str:
    """``message`` in this session's language."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in this session's language (Vietnamese and Khmer
    have one form).  The text usually holds ``{n}``: format it after translating."""
    return translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in a context, for the same English word with two meanings."""
    return translations(current_language()).pgettext(context, message)


def labels_now(label: Callable[[T], str], options: Iterable[T]) -> Callable[[T], str]:
    """A widget's ``format_func`` with every label written now, in this run's language.

    A widget may call its ``format_func`` again outside the script run (``AppTest`` does,
    to match the chosen value with the options shown), where the session's language is
    not at hand; labels fixed at render time stay the ones the player saw.
    """
    labels = {option: label(option) for option in options}
    return lambda option: labels.get(option, str(option))


# --- numbers --------------------------------------------------------------------------------


def decimal(value: float, digits: int = 2, signed: bool = False, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals in the session's locale (or ``lang``'s); ``signed`` adds ``+``.

    >>> decimal(-1234.5, signed=True, lang="vi"), decimal(0.25, lang="en")
    ('-1.234,50', '0.25')
    """
    body = "#,##0" + ("." + "0" * digits if digits else "")
    pattern = f"+{body};-{body}" if signed else body
    return format_decimal(value, pattern, locale=lang or current_language())


def number(value: float, lang: str | None = None) -> str:
    """A number written as short as it reads (``2``, ``0.05``; Vietnamese ``0,05``)."""
    return format_decimal(value, locale=lang or current_language())


def integer(value: int, lang: str | None = None) -> str:
    """A whole number with the locale's grouping (``12,345`` / ``12.345``)."""
    return format_decimal(value, "#,##0", locale=lang or current_language())


def percent(p: float, lang: str | None = None) -> str:
    """A probability as a whole percentage in the locale (``0.456`` → ``46%``)."""
    return format_percent(p, "#,##0%", locale=lang or current_language())


def chart_locale(lang: str | None = None) -> dict[str, object]:
    """Vega-Lite's number locale for charts (axis ticks and tooltips), from Babel's symbols.

    >>> chart_locale("vi")["number"]["decimal"]
    ','
    """
    locale = lang or current_language()
    return {
        "number": {
            "decimal": get_decimal_symbol(locale),
            "thousands": get_group_symbol(locale),
            "grouping": [3],
            "currency": ["", ""],
        }
    }


# --- choosing the language ------------------------------------------------------------------


def parse_accept_language(header: str) -> list[str]:
    """Language tags of an Accept-Language header, most preferred first.

    >>> parse_accept_language("vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7")
    ['vi-VN', 'vi', 'en-US', 'en']
    >>> parse_accept_language("en;q=0.5, km")
    ['km', 'en']
    """
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _q, _p, tag in sorted(weighted)]


def negotiate(preferred: Iterable[str]) -> str | None:
    """The first of the app's languages that matches a preferred tag (``vi-VN`` → ``vi``).

    >>> negotiate(["fr-FR", "km-KH", "en"])
    'km'
    >>> negotiate(["de"]) is None
    True
    """
    for tag in preferred:
        try:
            language = Locale.parse(tag.replace("_", "-"), sep="-").language
        except (ValueError, UnknownLocaleError):
            continue
        if language in LANGUAGES:
            return language
    return None


def browser_language() -> str | None:
    """The browser's preferred language among ours: ``navigator.language``, then Accept-Language."""
    preferred: list[str] = []
    try:
        if st.context.locale:
            preferred.append(st.context.locale)
        preferred.extend(parse_accept_language(st.context.headers.get("Accept-Language") or ""))
    except Exception:  # no browser behind this run (AppTest, bare mode)
        return None
    return negotiate(preferred)


def choose_language() -> str:
    """Settle this run's language: the URL's ``?lang=`` if valid, else the session's earlier
    choice, else the browser's preference, else English; keep it in the session and the URL."""
    wanted = str(st.query_params.get(URL_PARAM, ""))
    earlier = str(st.session_state.get(LANG_KEY, ""))
    if wanted in LANGUAGES:
        lang = wanted
    elif earlier in LANGUAGES:
        lang = earlier
    else:
        lang = browser_language() or DEFAULT
    st.session_state[LANG_KEY] = lang
    if wanted != lang:
        st.query_params[URL_PARAM] = lang
    return lang


#: Sets <html lang> to the page's language: screen readers then speak Vietnamese or Khmer,
#: and the browser picks fonts and line breaks for it (a tiny Components v2 script, no iframe).
_PAGE_LANGUAGE = st.components.v2.component(
    "mau_binh_page_language",
    js="export default function ({ data }) { document.documentElement.lang = data.lang; }",
)


def _on_pick() -> None:
    picked = str(st.session_state.get(PICKER_KEY, ""))
    if picked in LANGUAGES:
        st.session_state[LANG_KEY] = picked
        st.query_params[URL_PARAM] = picked


def language_picker(beside: Callable[[], None] | None = None) -> None:
    """The language switch shown at the top of every page (each language named in itself);
    also tells the browser the page's language.  ``beside`` draws other zero-height scripts
    in the same row (the profile's keeper)."""
    st.session_state[PICKER_KEY] = current_language()
    with st.container(horizontal=True, horizontal_alignment="right"):
        # in the picker's row, so the zero-height script adds no line to the page
        _PAGE_LANGUAGE(key="mau_binh_page_language", data={"lang": current_language()}, height=0)
        if beside is not None:
            beside()
        st.segmented_control(
            "Language · Ngôn ngữ · ភាសា",
            list(LANGUAGES),
            key=PICKER_KEY,
            format_func=LANGUAGES.__getitem__,
            on_change=_on_pick,
            required=True,
            label_visibility="collapsed",
            width="content",
        )
