"""numba's inliner without its quadratic copy: a first run's compile about half as long.

``inline='always'`` makes numba copy the callee's IR into each call site
(``numba.core.inline_closurecall.InlineWorker.inline_ir``), and it copies the IR one block at
a time, each block with ``copy.deepcopy`` of its own: every variable refers to the function's
scope, which lists every variable, so each block copies the whole scope again. A callee of B
blocks and V variables costs B times V copies; the hand's callees, themselves inlined several
deep, run to thousands of each, and the copies were about 40% of a first run's compile (an
expert hand run with an empty cache: 115 s of CPU, of which the inliner took 47 s; numba's
own issue tracker reports the same slow copy, still open in numba 0.68).

:func:`install` has the inliner copy the blocks of one IR with one memo: the scope and each
variable are copied once an IR, as a single ``deepcopy`` of the whole IR would. The copy holds
the same statements, variables and scope as before, shared between blocks as they are in the
IR copied, so the inlined IR, the machine code and the records are unchanged (the records hash
is the same with and without it); only the inliner's own copies are touched, through the
``copy`` module that its module imports. It is installed when the kernel is imported, for
the whole process (a user's own numba functions compile faster too), and only on a numba
whose inliner still copies block by block (:func:`applies`): another numba compiles as it
would without it.
"""

from __future__ import annotations

import copy
import inspect

from numba.core import inline_closurecall, ir

_BLOCK_BY_BLOCK = "copy.deepcopy(the_ir.blocks[block_label])"
"""The line of numba's inliner that copies an IR's blocks one by one (numba 0.68)."""


class _BlocksCopier:
    """Stands in for the ``copy`` module inside numba's inliner: blocks copied without a memo
    of their own share one while they come from the same scope (the blocks of one IR, copied
    in a row), so the scope and its variables are copied once an IR; everything else is
    ``copy``'s own."""

    def __init__(self) -> None:
        self._scope: ir.Scope | None = None
        self._memo: dict = {}

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope:  # the first block of another IR: a memo of its own
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def applies() -> bool:
    """Whether numba's inliner copies an IR block by block through its module's ``copy`` (the
    copy :func:`install` shares a memo in)."""
    try:
        source = inspect.getsource(inline_closurecall.InlineWorker.inline_ir)
    except (AttributeError, OSError, TypeError):
        return False
    return (_BLOCK_BY_BLOCK in source
            and isinstance(getattr(inline_closurecall, "copy", None), (type(copy), _BlocksCopier)))


def install() -> bool:
    """Have numba's inliner copy each IR with one memo (once a process); returns whether it
    does (False on a numba it does not apply to)."""
    if installed():
        return True
    if not applies():
        return False
    inline_closurecall.copy = _BlocksCopier()
    return True


def installed() -> bool:
    """Whether numba's inliner copies through :class:`_BlocksCopier` in this process."""
    return isinstance(getattr(inline_closurecall, "copy", None), _BlocksCopier)
