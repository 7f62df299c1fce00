"""One test per rule clause D1-D14 of shared/rules/mau-binh.md section 3.

Hands here are new examples (the public vectors have their own test); each
expected figure is worked out in the comment beside it.
"""

from __future__ import annotations

import pytest

from solver import PRESETS, Arrangement, InvalidHandError, Rules, hand_strength, is_valid, score_table, special_hand

NO_ACES = PRESETS["vietnamese"].replace(aces=False)


def heads_up(a: str, b: str, rules: Rules | str = "vietnamese") -> int:
    result = score_table([a, b], rules)
    assert result.totals == [result.pairs[0][1], result.pairs[1][0]]
    return result.totals[0]


def test_D1_deal_one_deck_two_to_four_players() -> None:
    a = "Kc Kd 2h / Ac Ad 7s 6h 3c / 9s 9h 9d 4c 5d"
    b = "Qc 8d 2c / Th Td 8c 6d 2d / 3s 3d 7h 7d Js"
    with pytest.raises(InvalidHandError, match="2 to 4 players"):
        score_table([a])
    with pytest.raises(InvalidHandError, match="2 to 4 players"):
        score_table([a, b, b, b, b])
    with pytest.raises(InvalidHandError, match="one 52-card deck"):
        score_table([a, a])
    with pytest.raises(InvalidHandError, match="jokers"):
        Arrangement.parse("BJ 8d 2c / Th Td 8c 6d 2d / 3s 3d 7h 7d Js")


def test_D2_suits_never_rank_or_break_ties() -> None:
    assert hand_strength("As Kd Qc Jh 9s") == hand_strength("Ad Kh Qs Jd 9c")
    assert hand_strength("2s 2h 7d") == hand_strength("2c 2d 7s")
    assert hand_strength("Ac Kc Qc Jc 9c") == hand_strength("Ah Kh Qh Jh 9h")
    assert hand_strength("3c 3d 3h") > hand_strength("2s 2h 2d")


def test_D3_validity_allows_equality_but_not_a_weaker_back() -> None:
    # middle and back are both 6-high straights: equal keys, allowed by default, foul under O3 strict
    equal = "Kc Qd 2h / 2c 3d 4h 5s 6c / 2s 3h 4d 5c 6h"
    assert is_valid(equal)
    assert not is_valid(equal, Rules(strict=True))
    # back two pair under a middle trips
    assert not is_valid("2c 3d 5h / 7s 7h 7d Kc 9c / As Ad 4c 4d 8h")


def test_D4_five_card_categories_and_tie_breaks() -> None:
    ladder = [
        "As Kd Qc Jh 9s",  # high card
        "2s 2d 3c 4h 5d",  # pair
        "2s 2d 3c 3h 5d",  # two pair
        "2s 2d 2c 4h 5d",  # trips
        "3s 4d 5c 6h 7d",  # straight
        "2h 5h 9h Jh Kh",  # flush
        "2s 2d 2c 3h 3d",  # full house
        "2s 2d 2c 2h 3d",  # quads
        "2h 3h 4h 5h 6h",  # straight flush
    ]
    keys = [hand_strength(h) for h in ladder]
    assert keys == sorted(keys) and len(set(keys)) == 9
    assert hand_strength("Ks Kd 9c 9h 3d") > hand_strength("Ks Kd 9c 9h 2d")  # two pair kicker
    assert hand_strength("Ks Kd Qc Qh 2d") > hand_strength("Ks Kd Jc Jh Ad")  # low pair beats kicker
    assert hand_strength("7s 7d 7c Ah 2d") > hand_strength("7s 7d 7c Kh Qd")  # trips kickers
    assert hand_strength("Ah Jh 8h 6h 4h") > hand_strength("Ad Jd 8d 6d 3d")  # flush down to 5th card


def test_D5_wheel_second_highest_and_no_wrap_around() -> None:
    wheel, king_high, ace_high = "As 2d 3c 4h 5s", "9c Td Jh Qs Kd", "Tc Jd Qh Ks Ad"
    assert hand_strength(king_high) < hand_strength(wheel) < hand_strength(ace_high)
    lowest = Rules(wheel="lowest")
    assert hand_strength(wheel, lowest) < hand_strength("2s 3d 4c 5h 6s", lowest)
    # J-Q-K-A-2 is not a straight: just ace high
    assert hand_strength("Js Qd Kc Ah 2s") < hand_strength("2c 2d 3s 4h 5c")


def test_D6_front_three_cards_and_prefix_rule() -> None:
    # three-card straights and flushes do not count
    assert hand_strength("Qh Kh Ah") < hand_strength("2c 2d 3h")
    assert hand_strength("Qh Kh Ah") == hand_strength("Qs Kd Ac")
    # prefix rule: pair of queens + 9 front vs pair of queens + 9,8,2 middle: prefix equal -> valid
    assert is_valid("Qc Qd 9h / Qh Qs 9c 8d 2s / 4s 4h 4d 7c 7d")
    # kicker in front outranks middle's first kicker -> foul
    assert not is_valid("Qc Qd Ah / Qh Qs 9c 8d 2s / 4s 4h 4d 7c 7d")
    # trips front needs a middle of trips or better with a higher trips rank
    assert not is_valid("8c 8d 8h / 7s 7h 7d Kc 9c / 2s 3h 4d 5c 6h")


def test_D7_positional_chi_values_replace_the_one_chi() -> None:
    # A wins middle (full house: 2) and back (quads: 4), loses the front (1): 2 + 4 - 1
    a = "2c 3d 5h / 8c 8d 8h 4c 4d / 9s 9h 9d 9c 6s"
    b = "Ac Kd Qh / Th Td 7c 6d 3c / Js Jh Jd 7s 2s"
    assert heads_up(a, b, NO_ACES) == 5
    assert heads_up(a, b, NO_ACES.replace(bonuses="none")) == 1
    assert heads_up(a, b, NO_ACES.replace(bonuses="add")) == 3 + 5 - 1
    assert heads_up(a, b, NO_ACES.replace(bonuses="doubled")) == 4 + 8 - 1
    # middle quads 8, back straight flush 5, front lost 1
    a = "2c 3d 5h / 8c 8d 8h 8s 4d / 9h Th Jh Qh Kh"
    b = "Ac Kd Qc / Tc Td 7c 6d 3c / Js Jc Jd 7s 2s"
    assert heads_up(a, b, NO_ACES) == 8 + 5 - 1
    # middle straight flush 10
    a = "2c 3d 5h / 4s 5s 6s 7s 8s / 9h Th Jh Qh Kh"
    b = "Ac Kd Qc / Tc Td 7c 6d 3c / Js Jc Jd 7d 2s"
    assert heads_up(a, b, NO_ACES) == 10 + 5 - 1
    # the loser's bonus is paid the other way: front trips 3 for A; B's middle FH 2, back quads 4
    a = "5c 5d 5h / 6c 6d 6h 2c 2d / 7c 7d 7h 3c 3s"
    b = "Ac Kd Qh / Js Jh Jd 4s 4h / 8s 8h 8d 8c Ts"
    assert heads_up(a, b, NO_ACES) == 3 - 2 - 4


def test_D8_sap_doubles_a_three_row_win_but_not_with_a_tie() -> None:
    scoop = "Kc Kd 2h / Ac Ad 7s 6h 3c / 9s 9h 9d 4c 5d"
    victim = "Qc 8d 2c / Th Td 8c 6d 2d / 3s 3d 7h 7d Js"
    assert heads_up(scoop, victim, NO_ACES) == 6
    assert heads_up(scoop, victim) == 6 + 2  # two aces, added after doubling
    tied_front = "Qs 8h 2h / Ac Ad 7s 6h 3c / 9s 9h 9d 4c 5d"
    assert heads_up(tied_front, victim, NO_ACES) == 2
    # O7 alternative: flat +3 instead of doubling
    assert heads_up(scoop, victim, NO_ACES.replace(sweep_mult=1, sweep_bonus=3)) == 6


T3 = ("Kc Kd 3h / Qc Qd Qh 7s 6h / 9s 9h 9d 4c 4d", "Tc 7c 5c / Js Jd 6c 5d 3c / 8h 8s 5h 5s 2s")
SIX_PAIRS = "As Ah 2c / Kh Ks Jh Jc 7h / Th Td 8c 8d 7d"


def test_D9_sap_lang_doubles_again_and_a_special_blocks_it() -> None:
    p, r = T3
    victim = "Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"
    assert score_table([p, victim, r]).pairs[0] == [0, 12, 12]
    assert score_table([p, victim, r], Rules(sap_lang=False)).pairs[0] == [0, 6, 6]
    assert score_table([p, victim, r], Rules(sap_lang_min_players=4)).pairs[0] == [0, 6, 6]
    # Q holds six pairs: P cannot scoop a special, so no sập làng.
    # P: -12 (special) -2 (Q's two aces) + 6 (scoops R); Q: 12+2 from each; R: -6 -12 -2
    result = score_table([p, SIX_PAIRS, r])
    assert result.specials == [None, "six_pairs", None]
    assert result.totals == [-8, 28, -20]
    assert result.sap_lang == [False, False, False]


def test_D10_a_tied_row_pays_zero_unless_the_owner_takes_ties() -> None:
    a = "Qs 8h 2h / Ac Ad 7s 6h 3c / 9s 9h 9d 4c 5d"
    b = "Qc 8d 2c / Th Td 8c 6d 2d / 3s 3d 7h 7d Js"
    assert score_table([a, b], NO_ACES).pairs[0][1] == 2
    # O5: seat 0 owns the table and takes the tied front, which makes it a scoop
    owner = NO_ACES.replace(ties="owner")
    assert score_table([a, b], owner).totals == [6, -6]
    assert score_table([b, a], owner).totals == [-1 - 1 + 1, 1]


def test_D11_fouled_hand_pays_flat_six_and_counts_as_scooped() -> None:
    foul = "Ac Ad 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"  # AA front over a KK middle
    valid = "Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"
    assert not is_valid(foul)
    assert heads_up(foul, valid, NO_ACES) == -6
    assert heads_up(foul, valid, NO_ACES.replace(foul_mode="opponent_x1")) == -3
    assert heads_up(foul, valid, NO_ACES.replace(foul_mode="opponent_x2")) == -6
    other_foul = "Js Jh 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"
    assert heads_up(foul, other_foul, NO_ACES) == 0
    # three players: P scoops R and the fouled seat counts as scooped -> sập làng doubles the 6
    p, r = T3
    foul3 = "Ac Ad Ks / Th Td 8c 6d 2d / 3s 3d 7h 7d Jc"
    result = score_table([p, foul3, r], NO_ACES)
    assert result.fouls == [False, True, False]
    assert result.pairs[0][1] == 12 and result.sap_lang[0]
    assert score_table([p, foul3, r], NO_ACES.replace(foul_sap_lang=False)).pairs[0][1] == 6


def test_D12_special_hands_detection_and_payment() -> None:
    # quads count as two pairs and five pairs + trips qualify under the generous default
    quads = "2c 2d 2h 2s 5c 5d 7h 7s 9c 9d Jh Jc Ah"
    five_and_trips = "2c 2d 2h 5c 5d 7h 7s 9c 9d Jh Js Kc Kd"
    assert special_hand(quads) == "six_pairs"
    assert special_hand(five_and_trips) == "six_pairs"
    assert special_hand(five_and_trips, Rules(six_pairs_rule="strict")) is None
    # three flushes from a 10 + 3 suit split; Q-K-A front run allowed in three straights
    assert special_hand("2h 4h 6h 8h Th Qh 3h 5h 7h 9h 2s 4s 6s") == "three_flushes"
    assert special_hand("Qc Kd Ah 2s 3d 4c 5h 6s 7d 8c 9h Tc Js") == "dragon"
    assert special_hand("Qc Kd Ac 2s 3d 4c 5h 6s 6d 7d 8c 9h Tc") == "three_straights"
    assert special_hand("Kc Ad 2c 3s 4d 5c 6h 7s 8d 9c Th Jc Qd") == "dragon"  # 13 ranks beat 3 straights
    assert special_hand("Kc Ad 2c 2s 3d 4c 5h 6s 7d 8c 9h Tc Td") is None  # K-A-2 is no run
    assert special_hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", Rules(specials=False)) is None
    # a special is paid whatever the arrangement and is exempt from fouling; no doubling
    special = "2c 2d 5c / Jh Js Kc Kd Ah / 5d 7h 7s 9c 9d"  # set as a foul
    other = "3c 4d 6h / Tc Td 8s 6s 4s / Qc Qd Qh 3s 3h"
    assert heads_up(special, other, NO_ACES) == 12
    assert heads_up(special, other, NO_ACES.replace(specials=False)) == -6  # now a fouled set


def test_D13_aces_added_last_and_void_with_four_aces() -> None:
    a = "Qc Qd 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    b = "Ac 8d 2h / Th Td 9c 6d 2d / 3s 3d 7h 7d As"
    assert heads_up(a, b) == 6 - 2  # seed example: aces not doubled
    four = "Ac Ad 2h / Ah As 9c 6d 2d / 3s 3d 7h 7d Ks"  # AA front, AA middle: all four aces
    c = "Qc Qd 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    with_aces = score_table([four, c])
    without = score_table([four, c], PRESETS["vietnamese"].replace(aces=False))
    assert with_aces.aces == [4, 0] and with_aces.totals == without.totals


def test_D14_settlement_is_pairwise_zero_sum_and_antisymmetric() -> None:
    p, r = T3
    q = "Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"
    s = "Ac Ad Ah / Kh Qs 4s 4h 2c / As Jh Ts 9c 6s"  # fouled: trips front over a pair; all four aces
    for rules in PRESETS.values():
        result = score_table([p, q, r, s], rules)
        assert sum(result.totals) == 0
        for i in range(4):
            assert result.pairs[i][i] == 0
            for j in range(4):
                assert result.pairs[i][j] == -result.pairs[j][i]
            assert result.totals[i] == sum(result.pairs[i])


def test_presets_differ_as_documented() -> None:
    a = "5c 5d 5h / 8c 8d 8h 2c 2d / Js Jh Jd Jc 3s"  # vector P3: 18 under the defaults
    b = "Kc Qd 9h / Ts Td 7c 6d 4d / Ks 9s 6s 4s 2s"
    assert heads_up(a, b, "vietnamese") == 18
    assert heads_up(a, b, "seed") == 6
    assert heads_up(a, b, "plain") == 3
    assert heads_up(a, b, "four-two") == 4
    foul = "Ac Ad 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    valid = "Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"
    assert heads_up(foul, valid, "plain") == -3
    assert heads_up(foul, valid, "four-two") == -4
    assert hand_strength("As 2d 3c 4h 5s", "plain") < hand_strength("2s 3d 4c 5h 6s", "plain")
