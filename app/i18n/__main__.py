"""The one command that keeps the app's translations in step with the code.

    python -m app.i18n update          # extract, update every catalog, compile
    python -m app.i18n update --add xx # the same, and start a catalog for language xx
    python -m app.i18n stats           # how many messages each language translates

``update`` runs Babel's three steps: ``extract`` (every ``_()``, ``ngettext()`` and
``pgettext()`` in ``app/`` and ``streamlit_app.py``, per ``babel.cfg``, into
``app/locale/messages.pot``), ``update`` (merge the template into each
``app/locale/<lang>/LC_MESSAGES/messages.po``; ``init`` for a new language) and
``compile`` (the ``.mo`` files the app loads).  Translators then fill the empty
``msgstr`` entries of the ``.po`` files and run ``update`` again.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from app.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCES = ("app", "streamlit_app.py")


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    """Every language with a catalog, plus the ones the app lists."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return sorted(found | set(LANGUAGES))


def without_date(template: str) -> str:
    return "\n".join(line for line in template.splitlines() if not line.startswith('"POT-Creation-Date:'))


def extract() -> None:
    """Write the template; when only its date would change, keep the old file (and so every
    catalog and compiled file stays byte for byte as it was: no churn in git)."""
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    before = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.exists() else None
    # paths relative to the project, so the catalogs' location comments are too
    pybabel(
        "extract", "-F", "babel.cfg", "-o", str(TEMPLATE.relative_to(ROOT)),
        "-c", "TRANSLATORS:", "--add-location=file", "--sort-output",
        "--project=mau-binh", "--copyright-holder=the mau-binh authors",
        *SOURCES,
    )  # fmt: skip
    if before is not None and without_date(TEMPLATE.read_text(encoding="utf-8")) == without_date(before):
        TEMPLATE.write_text(before, encoding="utf-8")


def update(add: list[str]) -> None:
    extract()
    for lang in sorted(set(languages()) | set(add)):
        path = catalog_path(lang)
        if path.exists():
            pybabel("update", "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-l", lang, "--ignore-obsolete")
        else:
            pybabel("init", "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-l", lang)
    pybabel("compile", "-D", DOMAIN, "-d", str(LOCALE_DIR), "--statistics")
    stats()


def stats() -> None:
    for lang in languages():
        with catalog_path(lang).open("rb") as fh:
            catalog = read_po(fh)
        messages = [m for m in catalog if m.id]
        done = sum(1 for m in messages if m.string and (all(m.string) if isinstance(m.string, tuple) else True))
        fuzzy = sum(1 for m in messages if m.fuzzy)
        print(f"{lang}: {done}/{len(messages)} translated, {fuzzy} fuzzy")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.i18n", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update", help="extract, update every catalog and compile")
    up.add_argument("--add", action="append", default=[], metavar="LANG", help="start a catalog for a new language")
    sub.add_parser("stats", help="translated messages per language")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    if args.command == "update":
        update(args.add)
    else:
        stats()
    return 0


if __name__ == "__main__":
    sys.exit(main())
