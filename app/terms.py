"""The game's words in the session's language: rows, hand categories, special hands,
suits, rule presets, grades, solver modes and the opponents the solver assumes.

Each function returns the words for the current language at call time (never a
module-level table of translated text, which would be the first user's language for
everyone).  The Vietnamese and Khmer words follow the terminology table of the rules
spec (``shared/rules/mau-binh.md`` §2) and ``app/locale/glossary.csv``.  The names in the
three languages side by side (the Rules page's names tables) come from the library's
data (:data:`solver.hands.CATEGORY_NAMES`) and :data:`SPECIAL_NAMES` below: they are
facts about the game, not interface text.
"""

from __future__ import annotations

from app.i18n import _, number, pgettext
from solver.cards import Suit
from solver.hands import CATEGORY_NAMES, category_of
from solver.players import EXPERT_SAMPLES

#: Special hands: (English, Vietnamese, Khmer) as in the rules spec, section 2.
SPECIAL_NAMES: dict[str, tuple[str, str, str]] = {
    "dragon_flush": ("same-suit dragon", "rồng cuốn", "សាញ់នាគ(១ទឹក)"),
    "dragon": ("dragon", "sảnh rồng", "សាញ់១៣ដើម"),
    "six_pairs": ("six pairs", "lục phé bôn, 6 đôi", "៦គូ"),
    "three_flushes": ("three flushes", "3 thùng", "ជីធុង"),
    "three_straights": ("three straights", "3 sảnh", "៣ជីសាញ់"),
}


def row_names() -> tuple[str, str, str]:
    """Front (3 cards), middle and back, as a player of this language calls them."""
    # TRANSLATORS: the 3-card row. Vietnamese: "chi cuối"; Khmer (seed): ជីក្បាល.
    front = pgettext("row", "Front")
    middle = pgettext("row", "Middle")
    # TRANSLATORS: the strongest 5-card row. Vietnamese: "chi đầu"; Khmer (seed): ជីចុងក្រោយ.
    back = pgettext("row", "Back")
    return front, middle, back


def category_names() -> tuple[str, ...]:
    """The nine hand categories, weakest first (index = category number)."""
    return (
        pgettext("hand", "high card"),
        pgettext("hand", "one pair"),
        pgettext("hand", "two pair"),
        pgettext("hand", "three of a kind"),
        pgettext("hand", "straight"),
        pgettext("hand", "flush"),
        pgettext("hand", "full house"),
        pgettext("hand", "four of a kind"),
        pgettext("hand", "straight flush"),
    )


def category_label(key: int) -> str:
    """A strength key's category; in English with the Vietnamese name in brackets."""
    category = category_of(key)
    vietnamese = CATEGORY_NAMES[category][1].split(" (")[0]
    # TRANSLATORS: a hand's name followed by its Vietnamese name. Where {name} is already the
    # player's own word (Vietnamese, Khmer), translate as just "{name}".
    return _("{name} ({vietnamese})").format(name=category_names()[category], vietnamese=vietnamese)


def special_names() -> dict[str, str]:
    return {
        "dragon_flush": pgettext("special", "same-suit dragon"),
        "dragon": pgettext("special", "dragon"),
        "six_pairs": pgettext("special", "six pairs"),
        "three_flushes": pgettext("special", "three flushes"),
        "three_straights": pgettext("special", "three straights"),
    }


def special_meanings() -> dict[str, str]:
    return {
        "dragon_flush": _("2 to A, all one suit"),
        "dragon": _("13 different ranks, 2 to A"),
        "six_pairs": _("six pairs and one odd card (a trips or quads counts as its pairs)"),
        "three_flushes": _("the cards split into 5 + 5 + 3 of one suit each"),
        "three_straights": _("two 5-card straights and a 3-card run"),
    }


def special_label(name: str) -> str:
    """A special hand's name (with the Vietnamese one in English) and what it is."""
    names = special_names()
    if name not in names:
        return name.replace("_", " ")
    vietnamese = SPECIAL_NAMES[name][1]
    label = _("{name} ({vietnamese})").format(name=names[name], vietnamese=vietnamese)
    return _("{label}: {meaning}").format(label=label, meaning=special_meanings()[name])


def suit_names() -> dict[Suit, str]:
    """Suit names (Vietnamese bích/cơ/rô/chuồn; Khmer as the seed writes them)."""
    return {
        Suit.SPADES: pgettext("suit", "spades"),
        Suit.HEARTS: pgettext("suit", "hearts"),
        Suit.DIAMONDS: pgettext("suit", "diamonds"),
        Suit.CLUBS: pgettext("suit", "clubs"),
    }


def preset_label(name: str) -> str:
    labels = {
        "vietnamese": pgettext("preset", "Vietnamese"),
        "seed": pgettext("preset", "Seed"),
        "plain": pgettext("preset", "Plain"),
        "four-two": pgettext("preset", "Four-two"),
    }
    return labels.get(name, name)


def preset_blurbs() -> dict[str, str]:
    return {
        "vietnamese": _("Vietnamese table rules (default): row bonuses, sập ×2, sập làng, specials, ace counting"),
        "seed": _("The Khmer source text literally: no row bonuses, no sập làng"),
        "plain": _("International Chinese poker: 1 chi a row, no bonuses, specials, doubling or aces"),
        "four-two": _("Plain, plus 1 chi for winning 2 or 3 rows (a scoop is worth 4)"),
    }


def grade_names() -> dict[str, str]:
    """Each grade of a set against the solver's best (Practice, Play) as the player reads it."""
    return {
        "best": pgettext("grade", "best"),
        "good": pgettext("grade", "good"),
        "inaccuracy": pgettext("grade", "inaccuracy"),
        "mistake": pgettext("grade", "mistake"),
        "blunder": pgettext("grade", "blunder"),
        "foul": pgettext("grade", "foul"),
    }


def mode_label(mode: str) -> str:
    labels = {"fast": pgettext("mode", "Fast"), "deep": pgettext("mode", "Deep")}
    return labels.get(mode, mode)


def field_label(field: str) -> str:
    """Who sits at the table (:data:`solver.fields.FIELDS`), in a word that fits a phone."""
    labels = {
        # TRANSLATORS: the default opponents: a typical table of mixed players
        "population": pgettext("opponents", "Mixed"),
        # TRANSLATORS: opponents who all set their hands like the solver
        "strong": pgettext("opponents", "Strong"),
        # TRANSLATORS: opponents who put their strongest five cards in the back
        "beginners": pgettext("opponents", "Beginners"),
    }
    return labels.get(field, field)


def field_blurbs() -> dict[str, str]:
    """What each choice of opponents means, in plain words."""
    return {
        "population": _(
            "a typical table (the default): a quarter of the opponents put their strongest five cards "
            "in the back, the others set their hands well"
        ),
        "strong": _("every opponent sets their hand like the solver, as strong players do"),
        "beginners": _(
            "every opponent puts their strongest five cards in the back, then the best five of the rest "
            "in the middle"
        ),
    }


# --- computer players and Macao options ----------------------------------------------------


def level_label(level: str) -> str:
    """A Mau Binh computer player's level (``beginner``, ``club``, ``expert``) as the player reads it."""
    # TRANSLATORS: a computer player's skill level: Beginner < Club (a decent amateur, the
    # level of a club player; not a sports club) < Expert.
    labels = {
        "beginner": pgettext("player level", "Beginner"),
        "club": pgettext("player level", "Club"),
        "expert": pgettext("player level", "Expert"),
    }
    return labels.get(level, level)


#: How much more a Club seat wins than a Beginner at the same table, in chi a hand, rounded
#: for players: ``python benchmarks/play_levels.py --tables 1000 --jobs 2`` with seeds 11 to
#: 16, paired per table, +6.53 ± 0.10 pooled over the 6,000 tables (``docs/benchmarks.md``,
#: "The Expert knows who sits at the table (issue 28)").
CLUB_OVER_BEGINNER = 6.5
#: How much more an Expert wins than Club would in the same seat of the same table (the
#: same benchmark's duplicate measure), in chi a hand: +0.079 ± 0.021 pooled over the same
#: 6,000 tables.
EXPERT_OVER_CLUB = 0.08
#: The table both figures were measured at: the preset and the number of players.
LEVELS_MEASURED_AT = ("vietnamese", 4)


def level_strength(level: str) -> str:
    """How strong a Mau Binh computer level plays, in plain words and in chi a hand
    (:data:`CLUB_OVER_BEGINNER`, :data:`EXPERT_OVER_CLUB`), to follow its
    :func:`level_label`.  A level the benchmark has not measured raises ``ValueError``:
    a strength is a measured claim, not a word to fall back on."""
    strengths = {
        # TRANSLATORS: each follows a level name and a colon ("Beginner: puts").
        # {club} and {beginner} are the level names as translated; {chi} is a number
        # of chi (Vietnamese: chi; Khmer: ជី); "the back" is the strongest 5-card row,
        # "the middle" the other 5-card row.
        "beginner": _(
            "puts the strongest five cards in the back and the next five in the middle. "
            "About {chi} chi a hand behind {club}."
        ),
        # TRANSLATORS: follows "Club: ". The fast solver: the app's Fast mode.
        "club": _("plays the fast solver's best set. About {chi} chi a hand ahead of {beginner}."),
        # TRANSLATORS: follows "Expert: ". {samples} is a number of deals (600): the
        # cards it cannot see dealt to the opponents at random, again and again; each
        # opponent then sets those cards the way that opponent plays (a Beginner as a
        # Beginner does).
        "expert": _(
            "tries {club}'s best sets against {samples} random deals of the cards it cannot see, each "
            "opponent setting them the way that opponent plays, and keeps the one that wins most. About "
            "{chi} chi a hand ahead of {club} in the same seat: a small edge that shows over many hands."
        ),
    }
    if level not in strengths:
        raise ValueError(f"no measured strength for player level {level!r}; expected one of {', '.join(strengths)}")
    chi = EXPERT_OVER_CLUB if level == "expert" else CLUB_OVER_BEGINNER
    return strengths[level].format(
        chi=number(chi), samples=EXPERT_SAMPLES, beginner=level_label("beginner"), club=level_label("club")
    )


def level_strength_measured() -> str:
    """Where :func:`level_strength`'s figures were measured, in a short sentence."""
    preset, players = LEVELS_MEASURED_AT
    # TRANSLATORS: under the levels' strengths: the table their figures come
    # from ({rules} is a rules preset's name, e.g. Vietnamese).
    return _("Measured at {players} players, {rules} rules.").format(players=players, rules=preset_label(preset))


def bot_label(level: str) -> str:
    """A Macao bot level as the player reads it (the stored values stay make_bot's names,
    in any case: ``Normal`` or ``normal``)."""
    labels = {
        "random": pgettext("bot level", "Random"),
        "easy": pgettext("bot level", "Easy"),
        "normal": pgettext("bot level", "Normal"),
        "hard": pgettext("bot level", "Hard"),
    }
    return labels.get(level.lower(), level)


def stacking_label(value: str) -> str:
    """Macao's stacking option (which draw cards answer a draw penalty)."""
    labels = {"matching": _("Matching cards"), "any": _("Any draw card"), "none": pgettext("stacking", "None")}
    return labels.get(value, value)


def start_label(value: str) -> str:
    """Macao's start-card option (what a special card turned up at the start does)."""
    return {"redraw": _("Turn another"), "ignore": pgettext("start card", "Keep it")}.get(value, value)


def end_label(value: str) -> str:
    """Macao's end-of-round option."""
    return {"last_loses": _("Last with cards loses"), "first_wins": _("First out wins")}.get(value, value)


def set_timer_sentence() -> str:
    """The hand timer's rule as a countdown line: ``{seconds}`` is the time left."""
    return _("⏱ {seconds} s left: your set as it stands is played when the time runs out.")
