"""Bit helpers for card masks (``uint64``): popcount, lowest, highest and n-th set bit.

jit-compiled; inputs not checked. ``_lowest_bit`` and ``_highest_bit`` of 0 are undefined.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

_RUNTIME_ZERO = np.zeros(1, np.int64)
# A 0 read from an array is typed int64; a 0 written in the code is a literal, and each literal
# argument makes numba compile the function it is passed to (and all it calls) once more.


@intrinsic
def _ctpop(typingctx, src):
    """LLVM's ctpop on an unsigned 64-bit integer (one POPCNT instruction where available)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)], fnty)
        return builder.call(fn, [args[0]])

    return sig, codegen


@njit(cache=True, inline='always')
def _popcount(mask):
    """Number of cards in ``mask``."""
    return np.int64(_ctpop(np.uint64(mask)))


@njit(cache=True, inline='always')
def _lowest_bit(mask):
    """Index of the lowest set bit of a nonzero ``mask``."""
    return np.int64(trailing_zeros(np.uint64(mask)))


@njit(cache=True, inline='always')
def _highest_bit(mask):
    """Index of the highest set bit of a nonzero ``mask``."""
    return np.int64(63 - leading_zeros(np.uint64(mask)))


@njit(cache=True, inline='always')
def _bits_above(bit):
    """Mask of all bits strictly above ``bit`` (0 <= bit <= 62)."""
    return ~((np.uint64(2) << np.uint64(bit)) - np.uint64(1))


@njit(cache=True, inline='always')
def _nth_bit(mask, n):
    """Index of the n-th set bit of ``mask``, counting from the lowest (0 <= n < popcount).

    The masks with the lowest one to five bits cleared are made side by side and the one the
    low bits of ``n`` name is taken by selects, so a card chosen among up to six (most legal
    card sets) passes no branch that depends on ``n``; from the sixth on it walks one bit at
    a time. Walking from the lowest bit every time missed the walk's exit at nearly every
    random card (docs/performance.md); a select over all six halvings of a popcount search
    costs more than the miss, one dependent step each.
    """
    one = np.uint64(1)
    mask = np.uint64(mask)
    m1 = mask & (mask - one)
    m2 = m1 & (m1 - one)
    m3 = m2 & (m2 - one)
    m4 = m3 & (m3 - one)
    m5 = m4 & (m4 - one)
    odd = (n & 1) != 0
    low = m1 if odd else mask
    middle = m3 if odd else m2
    high = m5 if odd else m4
    low = middle if (n & 2) != 0 else low
    chosen = high if (n & 4) != 0 else low
    if n >= 6:
        for _ in range(n - 6):
            m5 &= m5 - one
        chosen = m5 & (m5 - one)
    return _lowest_bit(chosen)
