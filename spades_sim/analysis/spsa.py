"""SPSA, as fishtest tunes chess engines: each step a match of θ + cΔ against θ − cΔ.

Simultaneous perturbation stochastic approximation estimates the gradient of a strategy's
strength from one comparison a step, whatever the number of parameters: every parameter is
moved by its perturbation ``c`` in a random direction Δᵢ = ±1 at once, θ + cΔ plays θ − cΔ, and
θ moves along Δ in proportion to the result. Here that match is a duplicate one (the step's
deal sequences, each played twice with the seats swapped), so the luck of the cards cancels in
every gradient sample, and every step plays fresh deal sequences.

The schedule is fishtest's classic one. With N steps, a parameter's final perturbation c_end
and the final learning rate r_end (one for all parameters), A = N / 10, α = 0.602, γ = 0.101:

    c_k = c_end · N^γ / k^γ,   a_k = r_end · c_end² · (A + N)^α / (A + k)^α,
    θ ← clip(θ + a_k / c_k · result · Δ),

``result`` the wins minus the losses of θ + cΔ over the step's games (an unfinished game counts
half a win to each), as fishtest's workers report it; θ ± cΔ are clipped to the bounds too.

>>> space = Space(("x",), np.array([0.0]), np.array([10.0]), np.array([5.0]), np.array([0.5]))
>>> run = spsa(space, 40, lambda step, plus, minus: float(np.sign(minus[0] - plus[0])), 0.5, 1)
>>> float(run.theta[0])  # every match won by the lower x: θ runs down to its bound
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

ALPHA = 0.602
"""The learning rate's decay exponent (Spall's, fishtest's)."""
GAMMA = 0.101
"""The perturbation's decay exponent."""
A_SHARE = 0.1
"""The learning rate's stability constant A, as a share of the steps."""
RATE = 0.01
"""The default final learning rate r_end (fishtest's default is 0.002, for runs of 10⁵ game
pairs and more; searches here are shorter)."""


@dataclass(frozen=True)
class Space:
    """The parameters searched: their names, bounds, start and scale (SPSA's final
    perturbation c_end, CMA-ES's initial spread), each a vector in the order of ``names``."""

    names: tuple[str, ...]
    low: np.ndarray
    high: np.ndarray
    start: np.ndarray
    scale: np.ndarray

    def clip(self, values: np.ndarray) -> np.ndarray:
        """``values`` held within the bounds."""
        clipped: np.ndarray = np.clip(values, self.low, self.high)
        return clipped

    def setting(self, values: np.ndarray) -> dict[str, float]:
        """``values`` by parameter name, rounded to 4 significant digits (as saved and shown)."""
        return {name: float(f"{value:.4g}") for name, value in zip(self.names, values)}


@dataclass
class SpsaRun:
    """Where an SPSA search got to: θ after the steps played, and each step's record."""

    theta: np.ndarray
    steps: int
    """Steps asked for."""
    rows: list[dict[str, float]] = field(default_factory=list)
    """Per step played: ``step``, the perturbation of each parameter (``c_NAME``), ``result``
    and θ after it (``NAME``)."""
    interrupted: bool = False


Match = Callable[[int, np.ndarray, np.ndarray], float | None]
"""``match(step, plus, minus)``: the wins minus the losses of ``plus`` against ``minus`` over
step ``step``'s games, or None when Ctrl-C stopped them."""


def spsa(space: Space, steps: int, match: Match, rate: float = RATE, seed: int = 0,
         on_step: Callable[[SpsaRun], None] | None = None) -> SpsaRun:
    """Run ``steps`` SPSA steps from ``space.start`` (schedule above, r_end = ``rate``); the
    directions Δ come from a generator seeded with ``seed``, so a search is reproducible.

    Ctrl-C (a match returning None, or KeyboardInterrupt between matches) stops the search
    and keeps θ as it was after the last finished step.
    """
    rng = np.random.default_rng(seed)
    a_shift = A_SHARE * steps
    c_base = space.scale * steps ** GAMMA
    a_base = rate * space.scale ** 2 * (a_shift + steps) ** ALPHA
    run = SpsaRun(space.start.astype(np.float64).copy(), steps)
    for k in range(1, steps + 1):
        c_k = c_base / k ** GAMMA
        a_k = a_base / (a_shift + k) ** ALPHA
        delta = rng.choice(np.array([-1.0, 1.0]), size=len(space.names))
        try:  # Ctrl-C anywhere in a step (its match, or reporting it) ends the search there
            result = match(k - 1, space.clip(run.theta + c_k * delta),
                           space.clip(run.theta - c_k * delta))
            if result is None:
                raise KeyboardInterrupt
            theta = space.clip(run.theta + a_k / c_k * result * delta)
            run.rows.append({"step": k, **{f"c_{name}": c for name, c in zip(space.names, c_k)},
                             "result": result, **dict(zip(space.names, theta))})
            run.theta = theta
            if on_step is not None:
                on_step(run)
        except KeyboardInterrupt:
            run.interrupted = True
            break
    return run
