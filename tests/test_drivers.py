"""The drivers load a chunk kernel once a process for arguments of the same kinds
(spades_sim.kernel.drivers._load_once): what they key it by separates exactly what numba's types
separate, and a run's later blocks, or another table's, do not type the packed tuples again."""

from typing import NamedTuple

import numba
import numpy as np
import pytest

from spades_sim.kernel import drivers
from spades_sim.run.blocks import prepare_table


class _Pair(NamedTuple):
    a: np.ndarray
    b: int


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


_VALUES = {
    "int64": np.zeros(4, np.int64),
    "int64 again": np.ones(7, np.int64),
    "int32": np.zeros(4, np.int32),
    "2-D": np.zeros((2, 2), np.int64),
    "2-D, Fortran order": np.asfortranarray(np.zeros((2, 3), np.int64)),
    "2-D, a strided view": np.zeros((4, 6), np.int64)[:, ::2],
    "read-only": _read_only(np.zeros(4, np.int64)),
    "a tuple": (np.zeros(4, np.int64), 1),
    "a NamedTuple": _Pair(np.zeros(4, np.int64), 1),
    "a NamedTuple again": _Pair(np.ones(9, np.int64), 5),
    "a NamedTuple of int32": _Pair(np.zeros(4, np.int32), 1),
    "an int": 3,
    "a float": 3.0,
    "a bool": True,
    "standard's packed rules": prepare_table("standard", "basic").packed_rules,
    "head-to-head's packed rules": prepare_table("head-to-head", "basic").packed_rules,
}


@pytest.mark.parametrize("first", list(_VALUES))
def test_argument_kinds_tell_apart_what_numba_types_tell_apart(first: str) -> None:
    for second, value in _VALUES.items():
        same_type = numba.typeof(_VALUES[first]) == numba.typeof(value)
        same_kind = drivers._argument_kinds(_VALUES[first]) == drivers._argument_kinds(value)
        assert same_kind == same_type, (first, second)


def test_a_chunk_kernel_is_loaded_once_for_every_block_and_table(monkeypatch) -> None:
    loaded: list[str] = []
    load = drivers.load_kernel
    monkeypatch.setattr(drivers, "_loaded", set())
    monkeypatch.setattr(drivers, "load_kernel",
                        lambda kernel, *args: loaded.append(kernel.__name__) or load(kernel, *args))
    for preset, start in (("head-to-head", 0), ("head-to-head", 3), ("standard", 0)):
        table = prepare_table(preset, "basic")  # new packed tuples each time, as every run packs
        records, _ = drivers.play_hands(rules=table.packed_rules,
                                        strategies=table.packed_strategies, seed=1, start=start,
                                        count=3)
        assert records.game.tolist() == [start, start + 1, start + 2]
    assert loaded == ["_hands_chunk"]
