"""Phone fixes that need a line of JavaScript: the page list closes after a tap.

On a narrow screen Streamlit folds the page list into the sidebar (the "»" button at the
top left) and leaves the sidebar open over the page after a page is chosen.  This tiny
Components v2 component (inline JS, nothing fetched) listens for a tap on a page link and
then presses the sidebar's own close button, as a phone user expects.
"""

from __future__ import annotations

import streamlit as st

#: Below this width (pixels) the sidebar covers the page, so it closes after navigation.
NARROW = 768

_JS = """
export default function () {
  if (window.__mauBinhNavCloser) return;
  window.__mauBinhNavCloser = true;
  document.addEventListener("click", (event) => {
    if (window.innerWidth >= NARROW_PX) return;
    if (!event.target.closest || !event.target.closest('[data-testid="stSidebarNavLink"]')) return;
    setTimeout(() => {
      const close = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      const sidebar = document.querySelector('[data-testid="stSidebar"]');
      if (close && sidebar && sidebar.getAttribute("data-collapsed") === "false") close.click();
    }, 150);
  }, true);
}
""".replace("NARROW_PX", str(NARROW))

_CLOSER = st.components.v2.component("mau_binh_phone_nav", js=_JS)


def close_sidebar_after_navigation() -> None:
    """Mount the listener (once per page run; it installs itself once per browser tab)."""
    _CLOSER(key="mau_binh_phone_nav", height=0)
