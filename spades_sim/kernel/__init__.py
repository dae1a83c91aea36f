"""The kernel tier: numba functions on ints and arrays, and the Python face that feeds and drives them.

The jitted modules take ints and arrays only: bits, rng, params, trick, the policies (the table
``policies``, one module a policy ``policy_*``, deciding from ``observation``; ``basic_policies``,
expert_bid and expert_play, the algorithms they call), and one module per rule step, deal, bidding (and
the blind-nil exchange), play, scoring and game (a hand's pipeline and the game loop), with
scratch (the state they share), outputs (the record layouts and their writing), engine
(the chunk entry points the drivers call) and sums (what a block adds to a run's totals).
Beside them, in plain Python over numpy: ``packing`` (rule sets packed into the kernel's
tables), ``strategies`` (the named strategies and their packed parameters), ``calibration``
(the expert's shipped bid tables), ``drivers`` (the public drivers: validate, allocate, run
the chunks on threads) and ``warmup`` (a first run's compile on two cores). Nothing in this
tier imports pandas, click or matplotlib (a test checks it).

numba's on-disk cache checks only the timestamp of the file that defines a
function, so a change to a helper in another kernel file would leave stale
machine code behind. The kernel's modules are therefore imported under
``cache.kernel_caching``: every kernel function caches in a folder named after a
digest of all kernel sources (and the numba version), so any change anywhere in
the kernel compiles afresh and an unchanged kernel loads warm; a damaged cache
entry is set aside and compiled again, and a folder that cannot be written keeps
the compiled kernel in memory (``cache``).

What is inlined is chosen for the compile as much as for speed. ``inline='always'``
copies the callee's IR into every call site before typing (numba's own copy grew with the
square of the callee's size; ``inliner`` makes it linear), so it is kept for the small
helpers of the per-card hot path; the expert's bid search, the per-hand stages and the rarer
play branches are ordinary jitted calls, each compiled once. Arguments passed to a jitted
call must not be literals (a literal compiles the callee once per value):
``bits._RUNTIME_ZERO`` gives a typed 0. Drivers take C-contiguous arrays only, so each
compiles once.
"""

from . import inliner
from .cache import kernel_caching, tidy

inliner.install()  # before anything compiles

with kernel_caching():
    from . import (  # noqa: F401  (compiled into the kernel's cache folder)
        basic_policies,
        bidding,
        bits,
        dd_search,
        deal,
        engine,
        expert_bid,
        expert_play,
        game,
        observation,
        outputs,
        params,
        play,
        policies,
        policy,
        policy_basic,
        policy_expert,
        policy_expert_v1,
        policy_random,
        rng,
        scoring,
        scratch,
        sums,
        trick,
        views,
    )

tidy()  # this version's folder marked used; other versions' unused folders pruned
