"""Real-browser check of the translations at phone width (390 px).

Every page is opened with ``?lang=en``, then with ``?lang=vi`` and ``?lang=km``: no line of
the English page's interface may be left on the translated one (numbers, card codes, proper
names and the names tables that list each hand in all three languages aside), the Khmer
font the app serves must be the one in use, and each page is screenshotted (under the
test's temporary directory, or ``MAU_BINH_SHOTS`` if set) to be looked at.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest
from playwright import sync_api

from app.i18n import LANGUAGES
from app.terms import SPECIAL_NAMES
from solver.hands import CATEGORY_NAMES
from tests.browser_support import DESKTOP, PHONE, ROOT, page_errors, wait_idle

HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s 10c Jh"
#: Each page (Solve is the default page, at /) with the query that fills it: a solved hand,
#: a dealt practice hand; Macao starts a round by pressing its New round button.
PAGES = {
    "solve": ("", "hand=" + HAND.replace(" ", "+") + "&preset=vietnamese&players=4&mode=fast&"),
    "practice": ("practice", "seed=7&"),
    "play": ("play", "seed=5&players=3&"),
    "compare": ("compare", ""),
    "rules": ("rules", ""),
    "macao": ("macao", ""),
}
#: A button (by its widget key) to press once the page is open.
PRESS = {"macao": "macao_new"}

pytestmark = pytest.mark.browser

#: A line that reads the same in every language: numbers, card codes, symbols, short codes.
SAME_EVERYWHERE = re.compile(
    r"^[\s\d.,:;%+\-–—×<>=()#|/·*`!?…]*$"  # numbers and punctuation
    r"|^(?:(?:10|[2-9TJQKA])[shdc♠♥♦♣]?[\s,|/-]*)+$"  # cards, ranks and runs (A-2-3-4-5)
    r"|^[+-]?\d+ chi$"  # an amount of chi (chi is the Vietnamese word, used in English too)
    r"|^(?:EV|Macao!?|stop|[Cc]hi)$"  # the game's own words (chi is Vietnamese too)
    r"|^[a-z]+(?:_[a-z]+)+$"  # Material icon names Streamlit writes as text (keyboard_arrow_down)
)
KHMER = re.compile("[\u1780-\u17ff]")
#: Streamlit's own accessibility labels (framework text the app does not write or control).
STREAMLIT_OWN = {"Link to heading", "Open", "Close", "Clear all", "Show password text", "Copy to clipboard"}
#: Names shown in all three languages on purpose (the Rules page's names tables, the picker).
PROPER_NAMES = {name for row in (*CATEGORY_NAMES, *SPECIAL_NAMES.values()) for name in row} | set(LANGUAGES.values())


def vietnamese_terms() -> set[str]:
    """The glossary's Vietnamese game words, which the English page uses as terms too (sập, chi đầu)."""
    with (ROOT / "app" / "locale" / "glossary.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {word.strip().lower() for row in rows for word in row["vietnamese"].split(" / ")}


TERMS = vietnamese_terms()
#: The language picker's hidden label names the three languages in themselves.
PICKER_LABEL = "Language · Ngôn ngữ · ភាសា"


def shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("MAU_BINH_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser: sync_api.Browser, url: str, press: str | None = None) -> sync_api.Page:
    page = browser.new_page(viewport=PHONE)
    page.goto(url)
    page.locator("h1").first.wait_for(timeout=60_000)
    settle(page)
    if press:
        page.locator(f".st-key-{press} button").click()
        page.wait_for_timeout(1500)
        settle(page)
    return page


def settle(page: sync_api.Page) -> None:
    wait_idle(page)
    page.wait_for_timeout(800)  # fonts and the component's own drawing


#: Walks the main area and every shadow root in it (the card component draws inside one):
#: each visible text node (trimmed) with its element's font, and each placeholder, aria-label
#: and title.  Returns [[text, font-family], ...].
WALK_TEXT = """() => {
  const out = [];
  const visit = (root) => {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walk.currentNode; n; n = walk.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const el = n.parentElement, text = n.textContent.trim();
        if (!text || !el || ['STYLE', 'SCRIPT'].includes(el.tagName)) continue;
        if (!el.getClientRects().length) continue;  // not shown
        out.push([text, getComputedStyle(el).fontFamily]);
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        for (const name of ['placeholder', 'aria-label', 'title']) {
          const value = (n.getAttribute(name) || '').trim();
          if (value) out.push([value, '']);
        }
        if (n.shadowRoot) visit(n.shadowRoot);
      }
    }
  };
  visit(document.querySelector('[data-testid=stMain]'));
  return out;
}"""


def interface_lines(page: sync_api.Page) -> set[str]:
    """Every visible line of the page's main area, inside the card component too, plus
    placeholders, aria-labels and titles."""
    return {text for text, _font in page.evaluate(WALK_TEXT)}


def shoot(page: sync_api.Page, path: Path) -> None:
    """The whole page at phone width (Streamlit scrolls an inner element, so grow the viewport)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], section, div')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": PHONE["width"], "height": min(max(int(height), PHONE["height"]), 7000)})
    page.wait_for_timeout(1000)
    page.screenshot(path=str(path))
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("name", PAGES)
def test_page_is_fully_translated_on_a_phone(server: str, browser: sync_api.Browser, name: str, tmp_path: Path) -> None:
    path, query = PAGES[name]
    english = open_page(browser, f"{server}/{path}?{query}lang=en", PRESS.get(name))
    english_lines = interface_lines(english)
    shoot(english, shots_dir(tmp_path) / f"{name}-en.png")
    english.close()
    assert len(english_lines) > 5
    for lang in ("vi", "km"):
        page = open_page(browser, f"{server}/{path}?{query}lang={lang}", PRESS.get(name))
        errors = page_errors(page)
        left = sorted(
            line
            for line in interface_lines(page) & english_lines
            if any(c.isalpha() for c in line)  # icons and numbers read the same everywhere
            and not SAME_EVERYWHERE.match(line)
            and line not in PROPER_NAMES | STREAMLIT_OWN | {PICKER_LABEL}
            and line.lower() not in TERMS
        )
        assert not left, f"{name}?lang={lang} still shows English: {left}"
        assert page.evaluate("() => new URL(location.href).searchParams.get('lang')") == lang
        assert page.evaluate("() => document.documentElement.lang") == lang  # for screen readers and fonts
        if lang == "km":
            # the served Khmer face is loaded and used: text, not boxes
            assert page.evaluate("() => document.fonts.check('16px mb-khmer', 'ភាសាខ្មែរ')")
            assert page.evaluate(
                "async () => (await document.fonts.load('16px mb-khmer', 'ក')).length > 0"
            )
            # and every element that holds Khmer text asks for it (code blocks and the card component too)
            missing = [
                text
                for text, font in page.evaluate(WALK_TEXT)
                if font and KHMER.search(text) and "mb-khmer" not in font
            ]
            assert not missing, missing
        shoot(page, shots_dir(tmp_path) / f"{name}-{lang}.png")
        assert not errors, errors
        page.close()


@pytest.mark.parametrize(("locale", "title"), [("vi-VN", "Luật chơi Mậu Binh"), ("km-KH", "ច្បាប់លេងម៉ូវបិញ"),
                                               ("fr-FR", "Rules of Mau Binh")])  # fmt: skip
def test_browser_language_is_the_default(server: str, browser: sync_api.Browser, locale: str, title: str) -> None:
    """Without ?lang= the app speaks the browser's language (English when it has none of ours),
    and writes the choice into the address."""
    context = browser.new_context(locale=locale, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server}/rules")
    page.locator("h1").first.wait_for(timeout=60_000)
    assert page.locator("h1").first.inner_text() == title
    expected = {"vi-VN": "vi", "km-KH": "km"}.get(locale, "en")
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('lang') === '{expected}'")
    context.close()


def test_the_picker_switches_language_and_the_address_follows(server: str, browser: sync_api.Browser) -> None:
    """A tap on ខ្មែរ turns the page Khmer and writes ?lang=km; another page of the session
    (through the page list) is Khmer too."""
    page = browser.new_page(viewport=DESKTOP)  # the page list shows at the top
    page.goto(f"{server}/rules?lang=en")
    page.locator("h1").first.wait_for(timeout=60_000)
    page.locator(".st-key-lang_picker button", has_text="ខ្មែរ").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('lang') === 'km'")
    page.get_by_text("ច្បាប់លេងម៉ូវបិញ").first.wait_for(timeout=30_000)
    page.get_by_role("link", name="ប្រៀបធៀប").first.click()
    page.get_by_text("ប្រៀបធៀបការរៀបបៀ").first.wait_for(timeout=30_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('lang') === 'km'")
    page.close()
