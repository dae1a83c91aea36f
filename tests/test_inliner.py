"""numba's inliner copying an IR with one memo (``spades_sim.kernel.inliner``): the same copy,
each variable copied once an IR instead of once a block, and installed with the kernel."""

import copy

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, ir
from numba.core.compiler import run_frontend

from spades_sim.kernel import inliner


def _branchy(a, n):
    """Many blocks, many variables: the shape of the hand's inlined callees."""
    total = 0
    for i in range(n):
        x = a[i]
        if x > 3:
            y = x * 2
            total += y
        elif x < -3:
            z = x - 1
            total -= z
        else:
            w = x + i
            if w % 2:
                total += w
    return total


def _copy_blocks(func_ir, deepcopy):
    """The blocks of ``func_ir`` copied one by one, as numba's inliner does."""
    return {label: deepcopy(block) for label, block in func_ir.blocks.items()}


def _var_copies(monkeypatch, func_ir, deepcopy) -> int:
    count = [0]
    original = ir.Var.__deepcopy__

    def counting(self, memo):
        count[0] += 1
        return original(self, memo)

    monkeypatch.setattr(ir.Var, "__deepcopy__", counting)
    _copy_blocks(func_ir, deepcopy)
    monkeypatch.setattr(ir.Var, "__deepcopy__", original)
    return count[0]


def test_the_kernel_installs_it_on_this_numba():
    assert inliner.installed()  # importing the kernel installed it
    assert isinstance(inline_closurecall.copy, inliner._BlocksCopier)
    assert inliner.install()  # a second time: still installed, nothing else


def test_the_blocks_of_one_ir_share_one_copied_scope_and_copy_the_same_statements():
    func_ir = run_frontend(_branchy)
    assert len(func_ir.blocks) > 8
    shared = _copy_blocks(func_ir, inliner._BlocksCopier().deepcopy)
    apart = _copy_blocks(func_ir, copy.deepcopy)
    scopes = {id(block.scope) for block in shared.values()}
    assert len(scopes) == 1
    (scope,) = {block.scope for block in shared.values()}
    assert scope is not func_ir.blocks[min(func_ir.blocks)].scope  # a copy, not the original
    for label, block in shared.items():
        assert [str(s) for s in block.body] == [str(s) for s in apart[label].body]
        assert [str(s) for s in block.body] == [str(s) for s in func_ir.blocks[label].body]
    # The copy is the copy's own: renaming in it leaves the original's scope alone.
    before = set(func_ir.blocks[min(func_ir.blocks)].scope.localvars._con)
    scope.redefine("inlined.extra", loc=func_ir.loc)
    assert set(func_ir.blocks[min(func_ir.blocks)].scope.localvars._con) == before


def test_the_copy_of_a_copy_gets_a_memo_of_its_own():
    # numba's inliner copies the callee's IR, then that copy (the two in a row).
    copier = inliner._BlocksCopier()
    first = run_frontend(_branchy)
    first.blocks = _copy_blocks(first, copier.deepcopy)
    again = _copy_blocks(first, copier.deepcopy)
    (first_scope,) = {id(block.scope) for block in first.blocks.values()}
    (again_scope,) = {id(block.scope) for block in again.values()}
    assert again_scope != first_scope


def test_each_variable_is_copied_once_an_ir_not_once_a_block(monkeypatch):
    func_ir = run_frontend(_branchy)
    blocks = len(func_ir.blocks)
    variables = len(func_ir.blocks[min(func_ir.blocks)].scope.localvars._con)
    shared = _var_copies(monkeypatch, func_ir, inliner._BlocksCopier().deepcopy)
    apart = _var_copies(monkeypatch, func_ir, copy.deepcopy)
    assert shared == variables  # each of the scope's variables, once
    assert apart == blocks * variables  # numba's own: the whole scope again with every block


@njit(inline="always")
def _inlined_step(x, i):
    if x > 3:
        return x * 2
    if x < -3:
        return 1 - x
    return x + i if (x + i) % 2 else 0


@njit
def _inlining_caller(a):
    total = 0
    for i in range(a.size):
        total += _inlined_step(a[i], i)
        total -= _inlined_step(a[i] - 1, i)
    return total


@pytest.mark.parametrize("seed", [1, 2])
def test_a_function_with_inlined_callees_computes_what_python_does(seed):
    a = np.random.default_rng(seed).integers(-9, 9, size=200)
    expected = sum(_inlined_step.py_func(int(x), i) - _inlined_step.py_func(int(x) - 1, i)
                   for i, x in enumerate(a))
    assert inliner.installed()
    assert _inlining_caller(a) == expected
