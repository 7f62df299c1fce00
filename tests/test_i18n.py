"""The app's translations: complete, compiled from the current sources, and used per session.

* Every message the code marks (extracted afresh from ``app/`` and ``streamlit_app.py``
  with the project's Babel map) has a non-fuzzy Vietnamese and Khmer translation, and no
  translation uses a ``{placeholder}`` its English does not have.
* Each committed ``.mo`` is exactly what compiling its ``.po`` gives now.  The check
  compiles in memory and compares bytes rather than file times: a git checkout does not
  keep modification times, so "older than" is decided by content, not by mtime.
* AppTest renders every page in each language without error, in the language asked for.
"""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from app import i18n
from app.i18n.__main__ import catalog_path

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
TRANSLATED = ("vi", "km")
PICKER_LABEL = "Language · Ngôn ngữ · ភាសា"
PAGES = (
    "app/pages/solve.py",
    "app/pages/practice.py",
    "app/pages/play.py",
    "app/pages/compare.py",
    "app/pages/rules.py",
    "app/pages/macao_round.py",
)


def read_catalog(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang)


def extracted_messages() -> set[tuple[str | None, str | tuple[str, ...]]]:
    """(context, msgid) of every marked string in the sources, as `python -m app.i18n update` finds them."""
    method_map = [("**.py", "python")]
    found: set[tuple[str | None, str | tuple[str, ...]]] = set()
    for source in (ROOT / "app", ROOT):
        for filename, _lineno, message, _comments, context in extract_from_dir(source, method_map):
            if source == ROOT and filename != "streamlit_app.py":
                continue
            found.add((context, message))
    return found


def placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_babel_map_matches_the_extraction_here() -> None:
    assert re.search(r"^\[python: \*\*\.py\]$", (ROOT / "babel.cfg").read_text(), re.M)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_in_the_code_is_translated(lang: str) -> None:
    catalog = read_catalog(lang)
    translated = {
        (m.context, m.id): m
        for m in catalog
        if m.id and not m.fuzzy and (all(m.string) if isinstance(m.string, tuple) else m.string)
    }
    missing = sorted(map(repr, extracted_messages() - set(translated)))
    assert not missing, f"{len(missing)} messages lack a {lang} translation (run python -m app.i18n update):\n" + (
        "\n".join(missing[:40])
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_use_only_the_english_placeholders(lang: str) -> None:
    for message in read_catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        string = message.string
        assert string is not None, message.id
        strings = string if isinstance(string, (tuple, list)) else (string,)
        allowed = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            assert placeholders(text) <= allowed, (message.id, text)


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_compiled_catalog_is_current(lang: str) -> None:
    fresh = io.BytesIO()
    write_mo(fresh, read_catalog(lang), use_fuzzy=False)
    committed = catalog_path(lang).with_suffix(".mo").read_bytes()
    stale = f"{lang}: messages.mo is older than messages.po; run python -m app.i18n update"
    assert committed == fresh.getvalue(), stale


def test_catalogs_declare_their_plural_forms() -> None:
    for lang in TRANSLATED:
        assert read_catalog(lang).num_plurals == 1  # Vietnamese and Khmer have one form
    english, khmer = i18n.translations("en"), i18n.translations("km")
    one, many = "{player} draws {n} penalty card", "{player} draws {n} penalty cards"
    assert [english.ngettext(one, many, n) for n in (1, 2)] == [one, many]
    assert khmer.ngettext(one, many, 1) == khmer.ngettext(one, many, 5) == "{player} ដកបៀពិន័យ {n} សន្លឹក"


# --- choosing a language --------------------------------------------------------------------


def test_accept_language_is_read_by_quality() -> None:
    assert i18n.parse_accept_language("vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7") == ["vi-VN", "vi", "en-US", "en"]
    assert i18n.parse_accept_language("en;q=0.5, km, fr;q=0") == ["km", "en"]
    assert i18n.parse_accept_language("") == []
    assert i18n.negotiate(["fr-FR", "km-KH", "en"]) == "km"
    assert i18n.negotiate(["vi_VN"]) == "vi"
    assert i18n.negotiate(["de", "x-klingon", ""]) is None


def test_numbers_follow_the_locale() -> None:
    assert i18n.decimal(-1234.5, signed=True, lang="en") == "-1,234.50"
    assert i18n.decimal(-1234.5, signed=True, lang="vi") == "-1.234,50"
    assert i18n.decimal(0.5, signed=True, lang="vi") == "+0,50"
    assert i18n.integer(12345, lang="vi") == "12.345"
    assert i18n.percent(0.456, lang="km") == "46%"
    assert i18n.decimal(3.14159, digits=1) == "3.1"  # outside a session: English


# --- the pages in every language ------------------------------------------------------------


def app_in(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_every_language(lang: str, page: str) -> None:
    at = app_in(lang)
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert at.session_state["lang"] == lang
    assert at.query_params["lang"] == [lang] or at.query_params["lang"] == lang


def test_the_url_language_is_used_and_the_picker_changes_it() -> None:
    at = app_in("km")
    at.switch_page("app/pages/rules.py").run()
    assert at.title[0].value == "ច្បាប់លេងម៉ូវបិញ"
    at.segmented_control(key=i18n.PICKER_KEY).set_value("vi").run()
    assert at.title[0].value == "Luật chơi Mậu Binh"
    assert at.session_state["lang"] == "vi"
    at.switch_page("app/pages/compare.py").run()  # the choice follows the player to another page
    assert at.title[0].value == "So sánh cách xếp"


def test_an_unknown_url_language_falls_back_to_english() -> None:
    at = app_in("xx")
    at.switch_page("app/pages/rules.py").run()
    assert at.title[0].value == "Rules of Mau Binh"
    assert at.session_state["lang"] == "en"


def visible_text(at: AppTest) -> list[str]:
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "caption", "markdown", "info", "success", "warning", "error"):
        texts.extend(str(e.value) for e in getattr(at, kind))
    for widget in ("button", "toggle", "text_area", "text_input", "selectbox", "segmented_control", "expander"):
        texts.extend(str(getattr(e, "label", "")) for e in getattr(at, widget))
    for table in [*at.table, *at.dataframe]:
        frame = table.value
        texts.extend(str(c) for c in frame.columns)
        texts.extend(str(v) for v in frame.to_numpy().ravel())
    return [t for t in texts if t.strip()]


#: Text that is the same in every language: names, codes and numbers.
SAME_EVERYWHERE = re.compile(
    r"^[\s\d.,:;%+\-–—×<>=()#|/·*`]*$|^[A-Za-z]{1,3}$"  # numbers, signs, short codes
    r"|^(?:(?:10|[2-9TJQKA])[shdc♠♥♦♣]?[\s,|/]*)+$"  # cards, ranks and sets written as codes
    r"|^(?:Macao!?|EV.*|Sập(?: làng)?)$"  # the game's own words (sập is the app's word in English too)
)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_no_english_left_on_translated_pages(lang: str, page: str) -> None:
    english = app_in("en")
    english.switch_page(page).run()
    other = app_in(lang)
    other.switch_page(page).run()
    # every table keeps its shape (two headers translated alike would merge two columns)
    assert [t.value.shape for t in other.table] == [t.value.shape for t in english.table]
    english_texts = set(visible_text(english))
    left = [t for t in visible_text(other) if t in english_texts and not SAME_EVERYWHERE.match(t)]
    names = {name for row in i18n_names() for name in row}
    names.add(PICKER_LABEL)  # the hidden label of the language picker names all three on purpose
    left = [t for t in left if t not in names]
    assert not left, left


def i18n_names() -> list[tuple[str, ...]]:
    """The names tables list each name in all three languages on purpose."""
    from app.terms import SPECIAL_NAMES
    from solver.hands import CATEGORY_NAMES

    return [*CATEGORY_NAMES, *SPECIAL_NAMES.values()]


# --- terminology ------------------------------------------------------------------------------

GLOSSARY = ROOT / "app" / "locale" / "glossary.csv"
#: Catalog contexts whose words the glossary fixes.
GAME_WORD_CONTEXTS = ("row", "hand", "special", "suit", "grade", "player level")


def glossary_words(column: str) -> set[str]:
    import csv

    with GLOSSARY.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {"english", "vietnamese", "khmer", "note"} <= set(rows[0])
    return {word.strip() for row in rows for word in row[column].split(" / ")}


@pytest.mark.parametrize(("lang", "column"), [("vi", "vietnamese"), ("km", "khmer")])
def test_game_words_follow_the_glossary(lang: str, column: str) -> None:
    """Rows, hands, specials and suits are translated with the glossary's words (which are
    the rules spec's, section 2), so a translator extending the catalog stays consistent."""
    words = {w.lower() for w in glossary_words(column)}
    off = [
        (m.context, m.id, m.string)
        for m in read_catalog(lang)
        if m.context in GAME_WORD_CONTEXTS and str(m.string).lower() not in words
    ]
    assert not off, off


def test_glossary_agrees_with_the_rules_spec_names() -> None:
    from solver.hands import CATEGORY_NAMES

    vietnamese, khmer = glossary_words("vietnamese"), glossary_words("khmer")
    for _english, vi, km in CATEGORY_NAMES:
        assert vi.split(" (")[0] in vietnamese and km in khmer, (vi, km)


# --- errors: the kind in the player's language, the library's English detail under it ---------


@pytest.mark.parametrize(
    ("lang", "kind"),
    [("en", "A card could not be read."), ("vi", "Không đọc được một lá bài."), ("km", "មិនអាចអានសន្លឹកបៀមួយបានទេ។")],
)
def test_a_library_error_shows_its_kind_translated_and_the_english_detail(lang: str, kind: str) -> None:
    at = app_in(lang)
    at.switch_page("app/pages/compare.py").run()
    at.text_area(key="compare_hand_text").input("As Kd Zz").run()
    assert not at.exception
    shown = [str(e.value) for e in at.error]
    assert len(shown) == 1, shown
    headline, _sep, detail = shown[0].partition("\n")
    assert kind.replace(".", "\\.") in headline
    # a Mau Binh card the app reads itself: the word as typed, Mau Binh's cards only (no jokers)
    detail = detail.replace("\\", "")
    assert "'Zz'" in detail and "10h" in detail
    assert "BJ" not in detail and "joker" not in detail.lower()


def test_every_error_kind_the_app_knows_has_its_own_sentence() -> None:
    from app.errors import error_kind
    from macao import GameNotOverError, IllegalActionError
    from macao import InvalidRulesError as MacaoRulesError
    from solver import InvalidCardError, InvalidHandError
    from solver import InvalidRulesError as SolverRulesError

    kinds = [InvalidCardError("x"), InvalidHandError("x"), SolverRulesError("x"), IllegalActionError("x"),
             GameNotOverError("x"), ValueError("x")]  # fmt: skip
    sentences = [error_kind(e) for e in kinds]
    assert len(set(sentences)) == len(kinds)  # one sentence per kind (both rules errors share one)
    assert error_kind(MacaoRulesError("x")) == error_kind(SolverRulesError("x"))
    for lang in TRANSLATED:
        catalog = i18n.translations(lang)
        assert all(catalog.gettext(s) != s for s in sentences), lang


#: Pages after a player's action, in each language: (page, query, widget keys to press).
ACTED = {
    "practice submitted": ("app/pages/practice.py", {"seed": "11"}, ["practice_submit_button"]),
    "play revealed": ("app/pages/play.py", {"seed": "5", "players": "3"}, ["play_reveal_button"]),
    "macao dealt": ("app/pages/macao_round.py", {}, ["macao_new"]),
}


def acted(lang: str, name: str) -> AppTest:
    page, query, presses = ACTED[name]
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    for key in presses:
        at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("name", ACTED)
def test_no_english_left_after_playing(lang: str, name: str) -> None:
    english, other = acted("en", name), acted(lang, name)
    english_texts = set(visible_text(english))
    names = {n for row in i18n_names() for n in row} | {PICKER_LABEL}
    left = [t for t in visible_text(other) if t in english_texts and not SAME_EVERYWHERE.match(t) and t not in names]
    assert not left, left


@pytest.mark.parametrize(("lang", "decimal"), [("en", "."), ("vi", ","), ("km", ".")])
def test_charts_write_numbers_the_locale_way(lang: str, decimal: str) -> None:
    """The Practice statistics chart hands Vega-Lite the language's number symbols."""
    import json

    at = acted(lang, "practice submitted")
    charts = at.get("vega_lite_chart")
    assert charts, "no chart after a submitted hand"
    spec = json.loads(charts[0].proto.spec)
    assert spec["config"]["locale"]["number"]["decimal"] == decimal
