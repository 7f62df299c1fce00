"""Command line for Macao: ``play`` a round in the terminal, ``simulate`` bot statistics.

    python -m macao play --players 3 --bots easy normal --seed 7
    python -m macao simulate --bots normal random --games 2000 --seed 1
    python -m macao simulate --bots hard normal --games 400 --jobs 2

Rule options (``--decks``, ``--start-cards``, ``--no-jokers``, ``--no-stop``,
``--stacking``, ``--no-ace-wild``, ``--start-card``, ``--end-mode``,
``--macao-penalty``, ``--first-player``, ``--max-moves``) are shared by both commands.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from solver.cards import InvalidCardError, Suit, format_cards, parse_cards

from .actions import Accept, Action, CallMacao, Draw, IllegalActionError, KeepDrawn, Pass, Play, PlayDrawn
from .bots import BOTS, Bot, HardBot, make_bot
from .rules import InvalidRulesError, Rules
from .search import Budget
from .simulate import offer_calls, simulate
from .state import State, apply, interrupts, is_terminal, legal_actions, new_game, observe, placings

HUMAN = 0
_SUIT_WORDS = {
    "s": "s", "spades": "s", "♠": "s", "h": "h", "hearts": "h", "♥": "h",
    "d": "d", "diamonds": "d", "♦": "d", "c": "c", "clubs": "c", "♣": "c",
}  # fmt: skip
_DECLARE_WORDS = {"!", "macao", "macao!"}

HELP = """\
Moves:
  <number>            the numbered legal move
  9s 9d [!]           play cards (first must match; last sets the suit); ! declares Macao
  Ac h                play an Ace and name a suit (s h d c)
  d / draw            draw a card          a / accept   take the penalty or the wait
  p [suit] [!]        play the card you drew    k / keep   keep it
  pass                pass (only when nothing can be drawn)
  m / macao           call Macao on an opponent who forgot to declare
  ? / help            this text              q / quit     leave the round"""


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Command-line switches for every field of :class:`Rules` (defaults from Rules())."""
    d = Rules()
    g = parser.add_argument_group("rule options (macao.md §2.9)")
    g.add_argument("--players", type=int, default=d.players, help="2..4 (default %(default)s)")
    g.add_argument("--decks", type=int, default=d.decks, help="1..4 (default %(default)s)")
    g.add_argument("--start-cards", type=int, default=d.start_cards, help="5..10 (default %(default)s)")
    g.add_argument("--jokers", action=argparse.BooleanOptionalAction, default=d.jokers, help="BJ/RJ in each deck")
    g.add_argument("--stop", action=argparse.BooleanOptionalAction, default=d.stop, help="7 stops a penalty")
    g.add_argument("--stacking", choices=("matching", "any", "none"), default=d.stacking)
    g.add_argument("--ace-wild", action=argparse.BooleanOptionalAction, default=d.ace_wild)
    g.add_argument("--start-card", choices=("redraw", "ignore"), default=d.start_card)
    g.add_argument("--end-mode", choices=("last_loses", "first_wins"), default=d.end_mode)
    g.add_argument("--macao-penalty", type=int, default=d.macao_penalty)
    g.add_argument("--first-player", default=str(d.first_player), help="'random' or a seat number")
    g.add_argument("--max-moves", type=int, default=d.max_moves)


def add_hard_option(parser: argparse.ArgumentParser) -> None:
    default = Budget().playouts
    parser.add_argument("--hard-playouts", type=int, default=default,
                        help=f"playouts per Hard decision (default {default})")  # fmt: skip


def bot_from_args(level: str, args: argparse.Namespace) -> Bot:
    """The bot of ``level``; Hard gets the ``--hard-playouts`` budget."""
    if level == "hard":
        return HardBot(Budget(playouts=args.hard_playouts))
    return make_bot(level)


def rules_from_args(args: argparse.Namespace) -> Rules:
    first: str | int = args.first_player
    if isinstance(first, str) and first.strip().lstrip("-").isdigit():
        first = int(first)
    return Rules(
        players=args.players, decks=args.decks, start_cards=args.start_cards, jokers=args.jokers,
        stop=args.stop, stacking=args.stacking, ace_wild=args.ace_wild, start_card=args.start_card,
        end_mode=args.end_mode, macao_penalty=args.macao_penalty, first_player=first,
        max_moves=args.max_moves,
    )  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m macao", description="Macao practice: play or simulate.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a round in the terminal against bots")
    play.add_argument("--bots", nargs="+", default=["normal"], choices=sorted(BOTS),
                      help="bot level(s) for seats 1.. (one level is used for all)")  # fmt: skip
    play.add_argument("--seed", type=int, default=None, help="seed (default: a random one, printed)")
    add_hard_option(play)
    add_rule_options(play)
    simu = sub.add_parser("simulate", help="bot statistics over many seeded games")
    simu.add_argument("--bots", nargs="+", default=["normal", "random"], choices=sorted(BOTS),
                      help="one bot level per seat (seats rotate every game)")  # fmt: skip
    simu.add_argument("--games", type=int, default=1000)
    simu.add_argument("--seed", type=int, default=1)
    simu.add_argument("--jobs", type=int, default=1, help="processes to spread the games over (default 1)")
    add_hard_option(simu)
    add_rule_options(simu)
    return parser


# --------------------------------------------------------------------------- play


def describe(state: State, seat: int = HUMAN, names: Sequence[str] = ()) -> str:
    """The table as the human sees it (only public information plus their own hand)."""
    obs = observe(state, seat)
    suit = "any" if obs.active_suit is None else obs.active_suit.value
    lines = [f"Top card: {obs.top}   active suit: {suit}   stock: {obs.stock_count}"]
    if obs.pending_draw:
        lines.append(f"Pending penalty: draw {obs.pending_draw}")
    if obs.pending_skip:
        lines.append(f"Pending wait: {obs.pending_skip} turn(s)")
    for other in range(obs.players):
        if other == seat:
            continue
        name = names[other] if other < len(names) else "bot"
        status = "out" if other in obs.finished else f"{obs.hand_sizes[other]} card(s)"
        extra = f", sits out {obs.skip_turns[other]}" if obs.skip_turns[other] else ""
        lines.append(f"  P{other} ({name}): {status}{extra}")
    lines.append(f"Your hand: {format_cards(obs.hand)}")
    return "\n".join(lines)


def parse_move(text: str, state: State, seat: int = HUMAN) -> Action:
    """Turn typed text into an action for ``seat`` (raises ValueError with a clear message)."""
    words = text.strip().split()
    if not words:
        raise ValueError("type a move, or ? for help")
    legal = legal_actions(state)
    head = words[0].lower()
    if head.isdigit() and len(words) == 1:
        index = int(head)
        if not 1 <= index <= len(legal):
            raise ValueError(f"move number must be 1..{len(legal)}, got {index}")
        return legal[index - 1]
    declare = any(w.lower() in _DECLARE_WORDS for w in words[1:])
    rest = [w for w in words[1:] if w.lower() not in _DECLARE_WORDS]
    if head in ("m", "macao", "macao!", "call") and not rest:
        calls = interrupts(state, seat)
        if not calls:
            raise ValueError("nobody can be caught: Macao calls need an opponent who forgot to declare")
        return calls[0]
    if head in ("d", "draw"):
        return Draw()
    if head in ("a", "accept"):
        return Accept()
    if head in ("k", "keep"):
        return KeepDrawn()
    if head == "pass":
        return Pass()
    suit: Suit | None = None
    if head in ("p", "play"):
        if rest:
            suit = _suit_word(rest[0])
        return PlayDrawn(suit=suit, declare=declare)
    card_words = [words[0], *rest]
    if head in _DECLARE_WORDS:
        card_words = rest
    if card_words and card_words[-1].lower() in _SUIT_WORDS:
        suit = _suit_word(card_words.pop())
    if head in _DECLARE_WORDS:
        declare = True
    try:
        cards = parse_cards(" ".join(card_words))
    except InvalidCardError as e:
        raise ValueError(f"{e}; type ? for help") from None
    if not cards:
        raise ValueError("name the cards to play, e.g. '9s 9d', or ? for help")
    return Play(cards, suit=suit, declare=declare)


def _suit_word(word: str) -> Suit:
    key = _SUIT_WORDS.get(word.lower())
    if key is None:
        raise ValueError(f"unknown suit {word!r}; expected s, h, d or c")
    return Suit(key)


def _print_new_events(state: State, shown: int, out: TextIO) -> int:
    for event in state.log[shown:]:
        print(f"  · {event}", file=out)
    return len(state.log)


def run_play(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    levels = list(args.bots)
    if len(levels) == 1:
        levels = levels * (rules.players - 1)
    if len(levels) != rules.players - 1:
        print(f"error: give one bot level or {rules.players - 1} (one per opponent), got {len(levels)}", file=out)
        return 2
    bots: list[Bot] = [make_bot("normal"), *(bot_from_args(level, args) for level in levels)]
    names = ["you", *levels]
    rngs = [random.Random(f"{seed}:bot:{s}") for s in range(rules.players)]
    state = new_game(rules, seed)
    print(f"Macao — seed {seed}; you are P0 against {', '.join(levels)}. Type ? for help.", file=out)
    shown = _print_new_events(state, 0, out)
    while not is_terminal(state):
        if state.exposed is not None and state.exposed != HUMAN and interrupts(state, HUMAN):
            answer = _ask(f"P{state.exposed} did not say Macao! Call it? [y/N] ", stdin, out)
            if answer is None:
                return _eof(out)
            if answer.strip().lower() in ("y", "yes", "m", "macao"):
                state = apply(state, CallMacao(HUMAN, state.exposed))
                shown = _print_new_events(state, shown, out)
        state = offer_calls(state, bots, rngs)
        shown = _print_new_events(state, shown, out)
        if is_terminal(state):
            break
        if state.current != HUMAN:
            seat = state.current
            action = bots[seat].choose(observe(state, seat), legal_actions(state), rngs[seat])
            state = apply(state, action)
            shown = _print_new_events(state, shown, out)
            continue
        print(describe(state, HUMAN, names), file=out)
        legal = legal_actions(state)
        for i, act in enumerate(legal, start=1):
            print(f"  {i:>2}) {act}", file=out)
        while True:
            line = _ask("your move> ", stdin, out)
            if line is None:
                return _eof(out)
            word = line.strip().lower()
            if word in ("?", "help", "h?"):
                print(HELP, file=out)
                continue
            if word in ("q", "quit", "exit"):
                print("You left the round.", file=out)
                return 1
            try:
                action = parse_move(line, state)
                state = apply(state, action)
            except IllegalActionError as e:
                print(f"Not allowed: {e}", file=out)
                continue
            except ValueError as e:
                print(f"Could not read that: {e}", file=out)
                continue
            break
        shown = _print_new_events(state, shown, out)
    places = placings(state)
    print("Round over (" + (state.end_reason or "") + "). Placings:", file=out)
    for seat in sorted(range(rules.players), key=lambda s: places[s]):
        print(f"  {places[seat]}. P{seat} ({names[seat]})", file=out)
    print("You " + ("won!" if places[HUMAN] == 1 else f"placed {places[HUMAN]}."), file=out)
    return 0


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    print(prompt, end="", file=out, flush=True)
    line = stdin.readline()
    if line == "":
        return None
    return line


def _eof(out: TextIO) -> int:
    print("\nInput ended (EOF): the round is abandoned.", file=out)
    return 1


# --------------------------------------------------------------------------- main


def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    rules = rules_from_args(args)
    if len(args.bots) != rules.players:
        print(f"error: --bots needs {rules.players} levels for --players {rules.players}, got {len(args.bots)}",
              file=out)  # fmt: skip
        return 2
    result = simulate(rules, [bot_from_args(level, args) for level in args.bots], args.games, args.seed, jobs=args.jobs)
    print(f"{args.games} games, seed {args.seed}, {rules.players} players (seats rotate); "
          "ms/decision: CPU time per choice, mean and 95th percentile", file=out)  # fmt: skip
    print(result.table(), file=out)
    return 0


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point of ``python -m macao``; returns the exit status."""
    out = stdout or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return run_play(args, stdin or sys.stdin, out)
        return run_simulate(args, out)
    except (InvalidRulesError, ValueError) as e:
        print(f"error: {e}", file=out)
        return 2
    except KeyboardInterrupt:
        print("\nInterrupted.", file=out)
        return 130


__all__ = ["HELP", "build_parser", "describe", "main", "parse_move"]
