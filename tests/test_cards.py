"""The shared card model: parsing what people type, canonical text, decks, masks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver import BLACK_JOKER, RED_JOKER, Card, InvalidCardError, Rank, Suit, parse_card, parse_cards
from solver.cards import cards_mask, format_cards, full_deck, iter_mask

ALL = [Card(i) for i in range(54)]


@pytest.mark.parametrize("text", ["AS", "as", "As", "aS", "A♠", "a♠", "A♤", "1s"])
def test_ace_of_spades_spellings(text: str) -> None:
    assert parse_card(text) == Card.of(Rank.ACE, Suit.SPADES)
    assert str(parse_card(text)) == "As"


@pytest.mark.parametrize(("text", "canonical"), [("10s", "Ts"), ("Ts", "Ts"), ("10♥", "Th"), ("td", "Td"),
                                                 ("2♣", "2c"), ("k♦", "Kd"), ("bj", "BJ"), ("RJ", "RJ")])  # fmt: skip
def test_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


def test_parse_cards_separators_and_duplicates_kept() -> None:
    cards = parse_cards("AS, as 10s  Ts,A♠;bj")
    assert [str(c) for c in cards] == ["As", "As", "Ts", "Ts", "As", "BJ"]
    assert parse_cards("") == []
    assert parse_cards(["Kd", Card.of(2, "s")]) == [Card.of(13, "d"), Card.of(2, "s")]


def test_card_properties_and_order() -> None:
    kd = parse_card("Kd")
    assert (kd.rank, kd.suit, kd.is_red, kd.is_joker) == (Rank.KING, Suit.DIAMONDS, True, False)
    assert BLACK_JOKER.rank is None and BLACK_JOKER.suit is None and not BLACK_JOKER.is_red
    assert RED_JOKER.is_red and RED_JOKER.is_joker
    assert sorted(parse_cards("As 2c Kd 2s RJ BJ")) == parse_cards("2s 2c Kd As BJ RJ")


def test_decks_hold_identical_copies() -> None:
    assert len(full_deck()) == 52 and len(set(full_deck())) == 52
    two = full_deck(2, jokers=True)
    assert len(two) == 108 and two.count(BLACK_JOKER) == 2 and two.count(parse_card("7h")) == 2
    with pytest.raises(InvalidCardError, match=r"decks must be 1\.\.4"):
        full_deck(5)


def test_mask_round_trip() -> None:
    cards = parse_cards("2s Ac Kd Th 9c")
    mask = cards_mask(cards)
    assert bin(mask).count("1") == 5
    assert list(iter_mask(mask)) == sorted(cards)
    with pytest.raises(InvalidCardError, match="no bit"):
        cards_mask([BLACK_JOKER])


BAD_CARDS = [
    ("Xs", "unknown card 'Xs'"),
    ("A", "unknown card 'A'"),
    ("11s", "unknown card '11s'"),
    ("1 0s", "unknown card '1'"),
    ("Az", "unknown card 'Az'"),
    ("<script>", "unknown card '<script>'"),
    ("joker", "unknown card 'joker'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_CARDS)
def test_bad_card_text_names_the_token_and_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(InvalidCardError, match=message) as info:
        parse_cards(text)
    assert "expected a rank" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [None, 3, 2.5, b"As"])
def test_non_text_is_a_card_error_not_a_type_error(value: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", [-1, 54, "1", True])
def test_bad_codes(code: object) -> None:
    with pytest.raises(InvalidCardError):
        Card(code)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(ALL), max_size=20), st.sampled_from([" ", ", ", ",", "  "]))
def test_format_parse_round_trip(cards: list[Card], sep: str) -> None:
    assert parse_cards(format_cards(cards, sep)) == cards


@given(st.text(max_size=12))
def test_parser_fuzz_raises_value_error_or_round_trips(text: str) -> None:
    try:
        cards = parse_cards(text)
    except InvalidCardError:
        return
    assert parse_cards(format_cards(cards)) == cards
