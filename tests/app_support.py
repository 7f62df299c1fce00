"""Shared pieces of the AppTest page tests: open a page of the app by its file, with URL
parameters, and check that the run neither raised nor showed the last-line-of-defence error."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT

APP = str(ROOT / "streamlit_app.py")
DEFAULT_PAGE = "app/pages/solve.py"


def open_page(page: str, **params: str) -> AppTest:
    """The app run once with ``params`` in its address, then switched to ``page``."""
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    if page != DEFAULT_PAGE:
        at.switch_page(page).run()
    no_crash(at)
    return at


def no_crash(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert "Something went wrong" not in "\n".join(str(e.value) for e in at.error)
