"""The "Share this deal" control: a deal's seed and its link, out of the way until asked for.

Seeds and links are for replaying and sharing, not for playing, so the pages keep them
behind one small popover instead of printing them under every hand.  The link is this
page's address with the deal's parameters (what the page writes into its URL).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

from app.i18n import _


def page_link(params: Mapping[str, str]) -> str:
    """This page's address with ``params`` as its query string."""
    parts = urlsplit(st.context.url or "")
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(dict(params)), ""))


def share_deal(lines: list[str], params: Mapping[str, str], *, key: str) -> None:
    """A popover holding ``lines`` (the seed, in words) and the link that deals this again."""
    with st.popover(_("Share this deal"), icon="🔗", key=key):
        for line in lines:
            st.markdown(line)
        st.caption(_("This link deals the same cards again:"))
        st.code(page_link(params), language=None, wrap_lines=True)
