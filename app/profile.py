"""The anonymous profile: who this browser is, without a sign-up.

On a browser's first visit the app creates a profile in the store (:mod:`store`): an
unguessable **id** (256 random bits) that stays in the browser, and a **profile code** a
person types on another device to open the same profile.  The id travels only in a
cookie (``mau_binh_profile``: ``SameSite=Strict``, ``Path=/``, kept 400 days, ``Secure``
over HTTPS) and in ``localStorage``; the app never writes it in a URL or in the page.

* The cookie comes with the request that opens the app's connection, so
  :func:`current_profile` knows the profile on the first script run of a session
  (``st.context.cookies``) and the pages can load their saved state at once.
* A tiny Components v2 script (:func:`keep_in_browser`, inline JS, no iframe) writes the
  cookie and the ``localStorage`` copy whenever they differ from the session's profile.
  When the cookie is gone but ``localStorage`` still holds a profile the store knows, the
  browser gets that profile back.
* :func:`use_profile_code_controls` (a text input **Profile code** and a button **Use this
  profile**) switches the browser to the profile with that code; the store limits how
  many codes one session may try.  :func:`profile_data_controls` exports the profile's
  data as JSON, imports such a file and deletes the data, each after a confirmation.

Switching profile (a code, an import, a deletion) empties the session, so every page
loads the new profile's state afresh, as after a reload.  Tests (``AppTest`` sends no
cookies) choose the profile by setting the session key ``profile_id`` before a run.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import streamlit as st

from app.i18n import LANG_KEY, _
from store import DatabaseUnavailable, ImportRefused, Profile, Store, UnknownProfile, get_store

_log = logging.getLogger("mau_binh.app")

#: The cookie (and ``localStorage`` item) that keeps the profile id in the browser.
COOKIE = "mau_binh_profile"
#: How long the browser keeps the cookie: 400 days, the longest browsers allow.
COOKIE_MAX_AGE = 400 * 24 * 3600
#: Session key of the profile id (tests set it to choose the profile of an ``AppTest``).
PROFILE_ID = "profile_id"
_PROFILE = "profile__current"
_FRESH = "profile__fresh"  # the session created its profile (the browser had no cookie)
CODE_INPUT = "profile_code_input"
_CODE_ERROR = "profile_code_error"
_DATA_MESSAGE = "profile_data_message"
_STORE_DOWN = "profile__store_down"  # why the store cannot be opened (said once per session)
#: Session keys a profile switch keeps (the language is the browser's, not the profile's).
_SURVIVES_SWITCH = (LANG_KEY,)

_KEEPER_JS = """
export default function ({ data, setTriggerValue }) {
  const name = data.name;
  const id = data.id;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const cookies = Object.fromEntries(document.cookie.split("; ").filter(Boolean).map((c) => {
    const at = c.indexOf("=");
    return [c.slice(0, at), decodeURIComponent(c.slice(at + 1))];
  }));
  let stored = null;
  try { stored = window.localStorage.getItem(name); } catch (e) { stored = null; }
  if (data.fresh && stored && stored !== id && !data.recovering) {
    setTriggerValue("stored", stored);  // the cookie was lost, the storage kept the profile
    return;
  }
  if (cookies[name] !== id) {
    document.cookie = `${name}=${encodeURIComponent(id)}; Path=/; Max-Age=${data.max_age}; SameSite=Strict${secure}`;
  }
  if (stored !== id) {
    try { window.localStorage.setItem(name, id); } catch (e) { /* storage off: the cookie is enough */ }
  }
}
"""

_KEEPER = st.components.v2.component("mau_binh_profile", js=_KEEPER_JS)


# --- the profile of this session ---------------------------------------------------------------


def available_store() -> Store | None:
    """The store, or None when it cannot be opened (an unreadable database, one a newer app
    wrote, a data folder that cannot be created): the pages then work for this session only,
    and the player is told once why nothing is kept."""
    ss = st.session_state
    if _STORE_DOWN in ss:  # tried once this session: not again on every call
        return None
    try:
        return get_store()
    except (DatabaseUnavailable, OSError) as exc:
        ss[_STORE_DOWN] = str(exc)
        _log.error("the store cannot be opened: %s", exc)
        st.toast(_("Your progress cannot be saved right now; this visit works without it."), icon="⚠️")
        return None


def current_profile() -> Profile:
    """This session's profile: the one the session chose, else the browser's cookie, else a
    new one (cached in the session).  Raises :class:`store.DatabaseUnavailable` when the
    store cannot be opened (see :func:`available_store`)."""
    ss = st.session_state
    cached = ss.get(_PROFILE)
    if isinstance(cached, Profile) and cached.id == ss.get(PROFILE_ID, cached.id):
        return cached
    store = get_store()
    wanted = ss.get(PROFILE_ID) or st.context.cookies.get(COOKIE)
    found = store.profile(wanted) if isinstance(wanted, str) and wanted else None
    if found is None:
        found = store.create_profile()
        ss[_FRESH] = True
    ss[_PROFILE] = found
    ss[PROFILE_ID] = found.id
    return found


def load_page(page: str) -> dict[str, Any] | None:
    """The state the current profile saved for ``page`` (None when there is none, or no store)."""
    store = available_store()
    return None if store is None else store.load_page_state(current_profile().id, page)


def save_page(page: str, state: dict[str, Any]) -> None:
    """Save ``page``'s state for the current profile (the last write wins; nothing without a
    store).  When the profile was deleted meanwhile (on another device), this browser gets
    a new one."""
    store = available_store()
    if store is None:
        return
    try:
        store.save_page_state(current_profile().id, page, state)
    except UnknownProfile:
        fresh = store.create_profile()
        st.session_state[_PROFILE] = fresh
        st.session_state[PROFILE_ID] = fresh.id
        store.save_page_state(fresh.id, page, state)


def switch_to(profile_id: str) -> None:
    """Make ``profile_id`` this browser's profile: the session starts afresh, as after a
    reload, and the browser keeps the new id (written by :func:`keep_in_browser`)."""
    ss = st.session_state
    for key in list(ss.keys()):
        if key not in _SURVIVES_SWITCH:
            del ss[key]
    ss[PROFILE_ID] = profile_id


def keep_in_browser() -> None:
    """Keep the profile id in the browser's cookie and ``localStorage`` (a zero-height script;
    call it on every run)."""
    if available_store() is None:
        return
    profile = current_profile()
    ss = st.session_state
    _KEEPER(
        key="mau_binh_profile",
        data={"name": COOKIE, "id": profile.id, "max_age": COOKIE_MAX_AGE, "fresh": bool(ss.get(_FRESH))},
        height=0,
        on_stored_change=_recover,
    )


def _recover() -> None:
    """The browser lost its cookie but its storage names a profile: use that one again."""
    stored = st.session_state.get("mau_binh_profile", {}).get("stored")
    ss = st.session_state
    ss[_FRESH] = False
    if not isinstance(stored, str):
        return
    store = get_store()
    found = store.profile(stored)
    if found is None:
        return
    fresh = current_profile()
    switch_to(found.id)
    if fresh.id != found.id:
        store.delete_profile(fresh.id)  # created seconds ago for this visit; nothing of the player's in it


# --- opening a profile by its code -------------------------------------------------------------


def _on_use_code() -> None:
    ss = st.session_state
    ss.pop(_CODE_ERROR, None)
    text = str(ss.get(CODE_INPUT, "")).strip()
    if not text:
        ss[_CODE_ERROR] = _("Type a profile code first: it looks like {example}.").format(example="7QX2-M9KD-0TZP-4H8R")
        return
    try:
        found = get_store().profile_by_code(text)
    except ValueError as exc:  # not a code (InvalidProfileCode), or too many tries (TooManyCodeAttempts)
        ss[_CODE_ERROR] = _("That profile code cannot be used: {reason}").format(reason=exc)
        return
    if found is None:
        ss[_CODE_ERROR] = _("No profile has the code {code}. Check it and try again.").format(code=repr(text[:40]))
        return
    switch_to(found.id)


def store_down_message() -> str | None:
    """Why profiles cannot be used right now (None while the store works)."""
    available_store()
    down = st.session_state.get(_STORE_DOWN)
    if down is None:
        return None
    return _("Profiles are not available right now ({reason}). This visit works, but nothing is kept.").format(
        reason=down
    )


def use_profile_code_controls() -> None:
    """A text input **Profile code** and a button **Use this profile**: this browser then
    opens the profile with that code (a wrong code gets a message and changes nothing)."""
    st.text_input(
        _("Profile code"),
        key=CODE_INPUT,
        placeholder="XXXX-XXXX-XXXX-XXXX",
        help=_("The code shown under Your profile on your other device."),
    )
    st.button(_("Use this profile"), key="profile_use_code", on_click=_on_use_code)
    error = st.session_state.get(_CODE_ERROR)
    if error:
        st.error(error)


# --- export, import, delete ---------------------------------------------------------------------


def _on_import() -> None:
    ss = st.session_state
    upload = ss.get("profile_import_file")
    if upload is None:
        ss[_DATA_MESSAGE] = ("error", _("Choose a JSON file first."))
        return
    profile_id = current_profile().id
    try:
        get_store().import_profile(profile_id, upload.getvalue())
    except ImportRefused as exc:
        ss[_DATA_MESSAGE] = (
            "error",
            _("That file cannot be imported: {reason}. Nothing was changed.").format(reason=exc),
        )
        return
    switch_to(profile_id)
    ss[_DATA_MESSAGE] = ("success", _("Imported: every page now shows the data from the file."))


def _on_delete() -> None:
    store = get_store()
    store.delete_profile(current_profile().id)
    switch_to(store.create_profile().id)
    st.session_state[_DATA_MESSAGE] = ("success", _("Your data is deleted. This browser has a new, empty profile."))


def profile_data_controls() -> None:
    """Export the profile's data as a JSON download, import such a file, delete the data;
    each asks for a confirmation first."""
    ss = st.session_state
    message = ss.pop(_DATA_MESSAGE, None)
    if message:
        kind, text = message
        (st.success if kind == "success" else st.error)(text)
    profile = current_profile()

    if st.checkbox(_("Export my data"), key="profile_export_confirm"):
        st.download_button(
            _("Download my data (JSON)"),
            json.dumps(get_store().export_profile(profile.id), indent=1, ensure_ascii=False),
            file_name="mau-binh-profile.json",
            mime="application/json",
            key="profile_export",
            on_click="ignore",
        )

    st.file_uploader(_("Import data from a JSON file"), type=["json"], key="profile_import_file")
    if ss.get("profile_import_file") is not None:
        st.warning(_("Importing replaces this profile's data with the file's."))
        st.button(_("Yes, import this file"), key="profile_import", on_click=_on_import)

    if st.checkbox(_("Delete my data"), key="profile_delete_confirm"):
        st.warning(
            _("This deletes every page's state and statistics of this profile, on every device. It cannot be undone.")
        )
        st.button(_("Yes, delete my data"), key="profile_delete", type="primary", on_click=_on_delete)
