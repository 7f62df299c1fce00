"""One state object per page: its URL parameters, its session keys, and what the profile keeps.

A page declares a :class:`PageState` once, at the top of its file::

    STATE = PageState(
        "practice",
        widgets={KIND: "Random", SEED: "", PRESET: "vietnamese", PLAYERS: 4, FIELD: DEFAULT_FIELD},
        params=(*table_params(PRESET, PLAYERS, FIELD), Param("seed", SEED, read_seed_param), ...),
        kept=(DEAL, DRILL, ROWS, RESULT, HISTORY),
        codecs={DRILL: Codec(list, drill_from_json)},
        address=practice_address,
    )

and then runs ``link = STATE.begin()`` before its widgets and ``STATE.end()`` once the run
has changed what it changes.  That replaces the four functions every page used to write
by hand (``load_from_url``, ``write_url``, ``restore``, ``remember``):

* **Widgets** (``widgets``: session key → default).  Streamlit forgets a widget's value
  when its page is not shown; :meth:`PageState.begin` gives each key its last value (kept
  in a plain mirror key ``<key>__kept``) or its default before the widget renders, and
  :meth:`PageState.end` copies the values back to the mirrors.
* **The address** (``params``, ``address``).  On the first run of the page in a browser
  session, each :class:`Param` of the URL is read (a bad value becomes a message in
  ``link.problems``, never a traceback) and put in its session key; ``link.values`` holds
  what was read, for the page to act on (deal the seed, solve the hand).
  :meth:`PageState.write_url` puts ``address()`` in the URL whenever it differs.
* **The profile** (``widgets`` and ``kept``).  :meth:`PageState.end` saves these keys,
  as JSON (``codecs`` turn values that are not JSON into JSON and back), in the store
  under the current profile and this page, whenever they changed; the first run of the
  page in a browser session loads them again.  So a reload, a visit next week, or the
  same profile on another device finds the page as it was left.  When the URL is the
  address the page wrote for the state it found saved (a reload, or the same drill's link
  opened again: :meth:`PageState.points_at`), the saved state stands and the URL is not
  read again; a link to something else wins.

The ``<page>_url_read`` flag marks a session's first run of the page (the keys pages and
tests have always used).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from app import profile
from app.i18n import _
from app.terms import field_label
from solver import PRESETS
from solver.fields import DEFAULT_FIELD, FIELDS

_log = logging.getLogger("mau_binh.app")
_REFUSED = object()


def kept_key(key: str) -> str:
    """The mirror key that keeps a widget's value while its page is not shown."""
    return f"{key}__kept"


def restore(key: str, default: object) -> None:
    """Give one widget key its last value (kept in its mirror key) or ``default``."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(kept_key(key), default)


def remember(*keys: str) -> None:
    """Copy widget values to their mirror keys (call after the widgets render)."""
    for key in keys:
        if key in st.session_state:
            st.session_state[kept_key(key)] = st.session_state[key]


@dataclass(frozen=True)
class Param:
    """One URL parameter.

    ``read`` turns the text into a value or raises ``ValueError`` whose message says, in the
    player's language, what was wrong; ``key`` (when set) is the session key the value goes
    to; ``fallback`` (when set) goes to ``key`` when the text is refused.  A ``sticky``
    parameter that a link leaves out keeps the page's value (the rules, say); one that is
    not sticky means its default when left out (the first hand of a drill).
    """

    name: str
    key: str | None = None
    read: Callable[[str], Any] = str
    fallback: Any = _REFUSED
    sticky: bool = False


@dataclass(frozen=True)
class Codec:
    """How a kept value that is not plain JSON is written (``encode``) and read back (``decode``,
    which raises ``ValueError``, ``KeyError`` or ``TypeError`` on data it cannot use)."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


@dataclass(frozen=True)
class Link:
    """What the first run of a page read from the URL: the values, and the problems in words."""

    values: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PageState:
    """A page's URL parameters, widget keys and kept keys, bound once (see the module docstring)."""

    page: str
    widgets: Mapping[str, Any] = field(default_factory=dict)
    params: tuple[Param, ...] = ()
    kept: tuple[str, ...] = ()
    codecs: Mapping[str, Codec] = field(default_factory=dict)
    address: Callable[[], dict[str, str]] | None = None

    @property
    def read_flag(self) -> str:
        return f"{self.page}_url_read"

    @property
    def _saved_key(self) -> str:
        return f"{self.page}__saved"

    # --- a run: begin before the widgets, end after the changes -----------------------------

    def begin(self) -> Link:
        """Load the profile's saved state and read the URL (first run of the page in this
        session), then give every widget key its value."""
        ss = st.session_state
        first = not ss.get(self.read_flag)
        if not first:
            self.restore()
            return Link()
        ss[self.read_flag] = True
        loaded = self.load()
        self.restore()
        if not loaded:  # nothing saved yet: a page at its defaults is not worth a write
            ss[self._saved_key] = self._text(dict(self.widgets))
        elif self.address is not None and self.points_at(self.address(), _url()):
            return Link()  # the saved state stands
        values, problems = self.read_url()
        return Link(values, problems)

    def end(self) -> None:
        """Keep the widget values across page switches and save what changed for the profile."""
        self.remember()
        self.save()

    # --- widgets ---------------------------------------------------------------------------

    def restore(self) -> None:
        """Give each widget key its last value (or its default) before the widget renders."""
        for key, default in self.widgets.items():
            restore(key, default)

    def remember(self) -> None:
        """Copy the widget values to their mirror keys (after the widgets render)."""
        remember(*self.widgets)

    # --- the address -----------------------------------------------------------------------

    def read_url(self) -> tuple[dict[str, Any], list[str]]:
        """Every parameter of the URL that this page knows: the values read, and the problems."""
        ss = st.session_state
        url = st.query_params
        values: dict[str, Any] = {}
        problems: list[str] = []
        for param in self.params:
            text = url.get(param.name)
            if text is None:
                continue
            try:
                value = param.read(text)
            except ValueError as exc:
                problems.append(str(exc))
                if param.key is not None and param.fallback is not _REFUSED:
                    ss[param.key] = param.fallback
                continue
            values[param.name] = value
            if param.key is not None:
                ss[param.key] = value
        return values, problems

    def points_at(self, address: Mapping[str, str], url: Mapping[str, str]) -> bool:
        """Whether a link (``url``) opens the page at ``address``: every parameter the link
        gives has the address's value, and every parameter it leaves out is sticky or left
        out of the address too (the language aside: it has its own rule)."""
        if not address:
            return False
        for param in self.params:
            given = url.get(param.name)
            if given is None:
                if not param.sticky and param.name in address:
                    return False
            elif address.get(param.name) != given:
                return False
        return True

    def write_url(self) -> None:
        """Put the page's address in the URL when it differs (nothing while there is none)."""
        if self.address is None:
            return
        wanted = self.address()
        if wanted and st.query_params.to_dict() != wanted:
            st.query_params.from_dict(wanted)

    # --- the profile -----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The page's state as JSON-ready data: every widget and kept key that has a value."""
        ss = st.session_state
        data: dict[str, Any] = {}
        for key in (*self.widgets, *self.kept):
            if key in ss:
                value = ss[key]
            elif key in self.widgets and kept_key(key) in ss:
                value = ss[kept_key(key)]
            else:
                continue
            codec = self.codecs.get(key)
            data[key] = value if codec is None or value is None else codec.encode(value)
        return data

    def save(self) -> None:
        """Save the page's state for the current profile when it changed since the last save."""
        data = self.snapshot()
        text = self._text(data)
        if st.session_state.get(self._saved_key) == text:
            return
        st.session_state[self._saved_key] = text  # tried once per change, even when refused
        try:
            profile.save_page(self.page, data)
        except ValueError as exc:  # over the store's size limit: the page goes on, unsaved
            _log.warning("state of page %s not saved: %s", self.page, exc)

    def load(self) -> bool:
        """Put the profile's saved state in the session keys that have no value yet; True
        when there was a saved state.  A saved state this version cannot read is left out
        (logged), and the page starts afresh."""
        saved = profile.load_page(self.page)
        if not saved:
            return False
        try:
            decoded = self.decode(saved)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            _log.warning("saved state of page %s left out: %s", self.page, exc)
            return False
        ss = st.session_state
        for key, value in decoded.items():
            if key not in ss and kept_key(key) not in ss:
                ss[key] = value
        ss[self._saved_key] = self._text(saved)
        return True

    @staticmethod
    def _text(data: Mapping[str, Any]) -> str:
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    def decode(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        """The session values of a saved state (only the keys this page declares)."""
        decoded = {}
        for key in (*self.widgets, *self.kept):
            if key in saved:
                codec = self.codecs.get(key)
                value = saved[key]
                decoded[key] = value if codec is None or value is None else codec.decode(value)
        return decoded


def _url() -> dict[str, str]:
    return st.query_params.to_dict()


# --- the table parameters Solve, Practice and Play share: preset, players, field ------------


def read_preset(text: str) -> str:
    if text in PRESETS:
        return text
    raise ValueError(_("unknown preset {preset} in the link").format(preset=repr(text[:40])))


def read_players(text: str) -> int:
    if text in ("2", "3", "4"):
        return int(text)
    raise ValueError(_("players must be 2, 3 or 4, the link says {players}").format(players=repr(text[:40])))


def read_field(text: str) -> str:
    if text in FIELDS:
        return text
    raise ValueError(
        _("field must be {choices}, the link says {field}; the opponents are {default}").format(
            choices=" / ".join(FIELDS), field=repr(text[:40]), default=field_label(DEFAULT_FIELD)
        )
    )


def table_params(preset_key: str, players_key: str, field_key: str) -> tuple[Param, ...]:
    """A link's ``preset``, ``players`` and ``field``, into the page's widget keys (an unknown
    field falls back to the default one; the others keep their values)."""
    return (
        Param("preset", preset_key, read_preset, sticky=True),
        Param("players", players_key, read_players, sticky=True),
        Param("field", field_key, read_field, fallback=DEFAULT_FIELD, sticky=True),
    )


def field_in_link(field: str) -> dict[str, str]:
    """The ``field`` link parameter of a page showing ``field`` (none for the default)."""
    return {} if field == DEFAULT_FIELD else {"field": field}
