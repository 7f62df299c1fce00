"""Type stub of the compiled core (solver/_core.pyx)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

ROW_FIELDS: tuple[str, ...]
N_FRONT_CLASSES: int
N_FIVE_CLASSES: int
FLUSH_OFFSET: int

def key5(codes: Sequence[int], wheel_second: bool = True) -> int: ...
def key3(codes: Sequence[int]) -> int: ...
def key_parts(key: int) -> tuple[int, int]: ...
def pareto_sets(codes: Sequence[int], wheel_second: bool = True, strict: bool = False) -> npt.NDArray[np.int32]: ...
def class_keys(wheel_second: bool = True) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...

HAND_FEATURES: int
TERM_PARTS: int
HAND_TERMS: int
RERANK_FEATURES: int
RERANKED: int

class Model:
    front: npt.NDArray[np.float64]
    middle: npt.NDArray[np.float64]
    back: npt.NDArray[np.float64]
    def __init__(
        self,
        front: npt.ArrayLike,
        middle: npt.ArrayLike,
        back: npt.ArrayLike,
        nopp: int,
        sweep_mult: int,
        sweep_bonus: int,
        majority_bonus: int,
        sap_lang_mult: int,
        sfield: float,
        strict: bool,
        wheel_second: bool,
        hand_weights: npt.ArrayLike | None = None,
        rerank: npt.ArrayLike | None = None,
        rerank_margin: float = ...,
    ) -> None: ...
    hand_weights: npt.NDArray[np.float64] | None
    rerank: npt.NDArray[np.float64] | None
    rerank_margin: float
    @property
    def wheel_second(self) -> bool: ...
    @property
    def strict(self) -> bool: ...

Codes = tuple[int, ...]

def solve_hand(
    model: Model, codes: Sequence[int], top: int = 1, prune: bool = True
) -> list[tuple[Codes, Codes, Codes, float]]: ...
def backs_scanned(model: Model, codes: Sequence[int]) -> int: ...
def solve_batch(
    model: Model,
    hands: npt.NDArray[np.int32],
    seconds: npt.NDArray[np.float64] | None = None,
    row_win: npt.NDArray[np.float64] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]: ...
def arrangement_stats(
    model: Model, front: Sequence[int], middle: Sequence[int], back: Sequence[int]
) -> tuple[float, tuple[float, float, float], bool, tuple[int, int, int]]: ...
def row_wins(
    model: Model, front: Sequence[int], middle: Sequence[int], back: Sequence[int]
) -> tuple[float, float, float]: ...
def row_classes(arrangements: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]: ...
def strongest_back_first(hands: npt.NDArray[np.int32], wheel_second: bool = True) -> npt.NDArray[np.int32]: ...
def special_index(
    codes: Sequence[int], values: Sequence[int], six_pairs_strict: bool = False, ace_low_runs: bool = True
) -> int: ...
def special_indexes(
    hands: npt.NDArray[np.int32], values: Sequence[int], six_pairs_strict: bool = False, ace_low_runs: bool = True
) -> npt.NDArray[np.int32]: ...
def settle_table(
    model: Model, opts: dict[str, Any], arrangements: npt.NDArray[np.int32], specials: Sequence[int]
) -> int: ...
def settle_first(
    model: Model,
    opts: dict[str, Any],
    mine: npt.NDArray[np.int32],
    opponents: npt.NDArray[np.int32],
    my_special: npt.NDArray[np.int32],
    opp_special: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def rerank_features(model: Model, arrangements: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]: ...
