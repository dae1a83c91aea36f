"""CMA-ES over strategy parameters, through the ``cma`` library (the optional extra
``spades-sim[cma]``).

Each generation's candidates play the same fresh deal sequences against the opponent
(common random numbers), and CMA-ES uses only their ranking within the generation, so
the luck of the cards the generation shared does not move the search. The parameters are
searched on their bounds scaled to [0, 1] (``cma``'s own bound handling), each starting with
the spread its scale gives; the search's normal draws come from a generator seeded by the
tuning seed, so a search is reproducible (``cma``'s global seeding is not used).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..kernel.drivers import RunError
from .spsa import Space

EXTRA = "cma"
"""The extra that installs the library: ``pip install 'spades-sim[cma]'``."""


def load_cma() -> Any:
    """The ``cma`` module, or a :class:`RunError` saying which extra installs it."""
    try:
        import cma
    except ImportError:
        raise RunError(f"method='cma': allowed once the cma library is installed "
                       f"(pip install 'spades-sim[{EXTRA}]')") from None
    return cma


def population(parameters: int) -> int:
    """CMA-ES's default number of candidates a generation for this many parameters
    (4 + ⌊3 ln n⌋).

    >>> population(1), population(4), population(10)
    (4, 8, 10)
    """
    return 4 + int(3 * np.log(parameters))


@dataclass
class CmaRun:
    """Where a CMA-ES search got to: the distribution's mean (its best estimate under noise)
    after the generations played, and each generation's record."""

    mean: np.ndarray
    generations: int
    """Generations asked for."""
    rows: list[dict[str, float]] = field(default_factory=list)
    """Per generation played: ``generation``, the best candidate's win share (``best_share``)
    and the mean share of the generation, and the distribution's mean after it (``NAME``)."""
    interrupted: bool = False


Evaluate = Callable[[int, list[np.ndarray]], np.ndarray | None]
"""``evaluate(generation, candidates)``: each candidate's win share on the generation's deal
sequences, or None when Ctrl-C stopped them."""


def cma_search(space: Space, generations: int, evaluate: Evaluate, seed: int = 0,
               popsize: int | None = None,
               on_generation: Callable[[CmaRun], None] | None = None) -> CmaRun:
    """Run ``generations`` generations of CMA-ES from ``space.start``, maximising the win share
    ``evaluate`` gives; Ctrl-C keeps the mean after the last finished generation."""
    cma = load_cma()
    width = space.high - space.low
    rng = np.random.default_rng(seed)
    options = {"bounds": [[0.0] * len(width), [1.0] * len(width)],
               "CMA_stds": (space.scale / width).tolist(), "popsize": popsize or population(
                   len(width)), "randn": lambda *shape: rng.standard_normal(shape),
               "seed": np.nan, "verbose": -9, "verb_log": 0, "verb_disp": 0}
    strategy = cma.CMAEvolutionStrategy(((space.start - space.low) / width).tolist(), 1.0,
                                        options)
    run = CmaRun(space.start.astype(np.float64).copy(), generations)
    for generation in range(generations):
        try:  # Ctrl-C anywhere in a generation (its games, or reporting it) ends the search there
            scaled = strategy.ask()
            candidates = [space.clip(space.low + width * np.asarray(x)) for x in scaled]
            shares = evaluate(generation, candidates)
            if shares is None:
                raise KeyboardInterrupt
            strategy.tell(scaled, (-shares).tolist())
            mean = space.clip(space.low + width * np.asarray(strategy.result.xfavorite))
            run.rows.append({"generation": generation + 1, "best_share": float(shares.max()),
                             "mean_share": float(shares.mean()), **dict(zip(space.names, mean))})
            run.mean = mean
            if on_generation is not None:
                on_generation(run)
        except KeyboardInterrupt:
            run.interrupted = True
            break
    return run
