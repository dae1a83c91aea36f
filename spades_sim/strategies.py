"""Strategies: a bidding policy, a card-play policy and their parameters, by name.

A :class:`Strategy` is plain data. :func:`pack_strategies` turns the strategy of
each seat into the arrays the kernel reads (policy ids and one parameter vector
per seat), so changing a parameter never recompiles anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .kernel import policy as _policy


class StrategyError(ValueError):
    """An unknown strategy name or a parameter outside its range."""


class ParamSpec(NamedTuple):
    """One tunable parameter of the policies."""

    name: str
    slot: int
    default: float
    low: float
    high: float
    meaning: str


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("bid_offset", _policy.P_BID_OFFSET, 0.0, -3.0, 3.0,
              "added to the trick estimate before rounding (positive bids higher)"),
    ParamSpec("nil_threshold", _policy.P_NIL_THRESHOLD, 0.5, 0.0, 5.0,
              "bid nil when the hand's nil risk is at most this (0 with no high card)"),
    ParamSpec("blind_nil_deficit", _policy.P_BLIND_DEFICIT, 200.0, 0.0, 10000.0,
              "bid blind nil, when the rules allow it, if the side trails by at least this"),
    ParamSpec("blind_nil_near", _policy.P_BLIND_NEAR, 150.0, 0.0, 10000.0,
              "... and only if the opponents are within this many points of the target"),
    ParamSpec("cover_bonus", _policy.P_COVER_BONUS, 1.0, 0.0, 4.0,
              "added to the bid when the partner has bid nil"),
    ParamSpec("solo_nil_threshold", _policy.P_SOLO_NIL_THRESHOLD, -1.0, -1.0, 5.0,
              "nil_threshold for a seat without a partner (-1: never bid nil alone; even a hand "
              "with no high card sets ~70% of its nils in solo, as no one covers it)"),
    ParamSpec("bag_near", _policy.P_BAG_NEAR, 0.0, 0.0, 10.0,
              "bag awareness applies when the side is this many bags or fewer from the penalty "
              "(0: never)"),
    ParamSpec("bag_bid", _policy.P_BAG_BID, 0.0, -2.0, 2.0,
              "added to the trick estimate when bag awareness applies (positive: bid the bags)"),
    ParamSpec("set_slack", _policy.P_SET_SLACK, 0.0, 0.0, 13.0,
              "expert play: go for the set when the opponents can lose fewer than this many of "
              "the tricks left and still make (0: never; not while bag awareness applies)"),
)
"""Every parameter, its slot in the kernel's vector, default, range and meaning."""

_PARAM_BY_NAME = {spec.name: spec for spec in PARAMS}
_POLICY_IDS = {"random": _policy.POLICY_RANDOM, "basic": _policy.POLICY_BASIC,
               "expert": _policy.POLICY_EXPERT}


@dataclass(frozen=True)
class Strategy:
    """A named pair of policies with parameters (missing parameters take their defaults).

    >>> Strategy("basic", params={"bid_offset": -1}).param("bid_offset")
    -1.0
    """

    name: str
    bidding: str = "basic"
    play: str = "basic"
    params: dict[str, float] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        for role, policy_name in (("bidding", self.bidding), ("play", self.play)):
            if policy_name not in _POLICY_IDS:
                raise StrategyError(
                    f"{role}={policy_name!r}: allowed " + ", ".join(sorted(_POLICY_IDS)))
        for key, value in self.params.items():
            spec = _PARAM_BY_NAME.get(key)
            if spec is None:
                raise StrategyError(
                    f"param {key}={value!r}: allowed a parameter " + ", ".join(_PARAM_BY_NAME))
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    spec.low <= value <= spec.high):
                raise StrategyError(f"param {key}={value!r}: allowed {spec.low:g} to {spec.high:g}")

    def param(self, name: str) -> float:
        """The value of one parameter (its default if not set)."""
        return float(self.params.get(name, _PARAM_BY_NAME[name].default))

    def with_params(self, **changes: float) -> Strategy:
        """Return a copy with some parameters changed (and validated)."""
        return Strategy(self.name, self.bidding, self.play, {**self.params, **changes},
                        self.description)

    def variant(self, changes: dict[str, float]) -> Strategy:
        """Return a copy with ``changes`` made and named after them, e.g. ``basic[bid_offset=0.5]``.

        >>> Strategy("basic").variant({"bid_offset": 0.5}).name
        'basic[bid_offset=0.5]'
        """
        label = ",".join(f"{name}={value:g}" for name, value in changes.items())
        return Strategy(f"{self.name}[{label}]", self.bidding, self.play,
                        {**self.params, **changes}, self.description)

    def vector(self) -> np.ndarray:
        """The parameter vector the kernel reads: ndarray(float64, ndim=1)."""
        vector = np.zeros(_policy.PARAM_COUNT)
        for spec in PARAMS:
            vector[spec.slot] = self.param(spec.name)
        return vector


STRATEGIES: dict[str, Strategy] = {
    "random": Strategy("random", "random", "random",
                       description="uniform over the legal bids (never blind nil) and legal cards"),
    "basic": Strategy("basic", "basic", "basic",
                      description="trick-count bidder with a nil rule; plays to make its contract, "
                                  "ducks bags, covers a partner's nil, attacks an opponent's nil"),
    "conservative": Strategy(
        "conservative", params={"bid_offset": -0.25, "nil_threshold": 0.3,
                                "blind_nil_deficit": 300.0},
        description="basic, bidding a quarter trick lower, nil only on the safest hands, blind nil "
                    "only when 300 behind"),
    "aggressive": Strategy(
        "aggressive", params={"bid_offset": 0.25, "blind_nil_deficit": 150.0,
                              "blind_nil_near": 250.0},
        description="basic, bidding a quarter trick higher and going blind nil sooner (150 behind, "
                    "the leader within 250 of the target)"),
    "nil-happy": Strategy(
        "nil-happy", params={"nil_threshold": 1.2, "solo_nil_threshold": 0.3, "cover_bonus": 1.5,
                             "blind_nil_deficit": 100.0, "blind_nil_near": 400.0},
        description="basic with a loose nil rule (nil risk up to 1.2, also alone), a bigger bid "
                    "over a partner's nil and blind nil whenever 100 behind"),
    "expert": Strategy(
        "expert", "expert", "expert",
        params={"bid_offset": -0.25, "set_slack": 4.0, "nil_threshold": 0.6, "cover_bonus": 0.5},
        description="basic bidding, tuned; card play that tracks the cards out: covers a "
                    "partner's nil, attacks an opponent's nil unless its contract needs the "
                    "tricks, ducks once the contract is certain, goes for the set"),
    "bag-averse": Strategy(
        "bag-averse", "expert", "expert",
        params={"bid_offset": -0.25, "nil_threshold": 0.6, "cover_bonus": 0.5, "bag_near": 3.0,
                "bag_bid": 0.5},
        description="expert play that never goes for the set (sets cost bags), and within 3 bags "
                    "of the penalty bids half a trick higher to absorb the overtricks"),
}
"""The named strategies."""

DEFAULT_STRATEGY = "expert"
"""The strategy of every seat when a command is given none, and the default opponent."""


def get_strategy(name: str | Strategy) -> Strategy:
    """Look a strategy up by name (a Strategy passes through)."""
    if isinstance(name, Strategy):
        return name
    try:
        return STRATEGIES[name]
    except KeyError:
        raise StrategyError(f"strategy={name!r}: allowed " + ", ".join(STRATEGIES)) from None


def parse_param_override(raw_override: str) -> tuple[int, str, float]:
    """Parse ``SIDE.NAME=VALUE`` (a parameter of one side's strategy, or one seat's alone).

    >>> parse_param_override("1.bid_offset=-0.5")
    (1, 'bid_offset', -0.5)
    """
    target, sep, text = raw_override.partition("=")
    side, dot, name = target.strip().partition(".")
    try:
        value = float(text)
    except ValueError:
        value = None
    if not sep or not dot or not side.isdigit() or value is None:
        raise StrategyError(f"param={raw_override!r}: allowed SIDE.NAME=VALUE, e.g. 0.bid_offset=0.5")
    if name not in _PARAM_BY_NAME:
        raise StrategyError(f"param {name}={text}: allowed a parameter " + ", ".join(_PARAM_BY_NAME))
    return int(side), name, value


def override_params(seats: list[Strategy], overrides: list[tuple[int, str, float]],
                    side_count: int) -> list[Strategy]:
    """Apply ``(side, name, value)`` overrides to the strategies of that side's seats.

    Seat ``s`` belongs to side ``s % side_count``; a changed strategy's name shows what
    changed, e.g. ``basic[bid_offset=0.5]``.
    """
    changes: dict[int, dict[str, float]] = {}
    for side, name, value in overrides:
        if not 0 <= side < side_count:
            raise StrategyError(f"param side {side}: allowed 0 to {side_count - 1}")
        changes.setdefault(side, {})[name] = value
    result = []
    for seat, strategy in enumerate(seats):
        change = changes.get(seat % side_count)
        result.append(strategy.variant(change) if change else strategy)
    return result


class PackedStrategies(NamedTuple):
    """The strategy of every seat as the kernel reads it."""

    bid_policy: np.ndarray
    """ndarray(int64, ndim=1): bidding policy id per seat."""
    play_policy: np.ndarray
    """ndarray(int64, ndim=1): card-play policy id per seat."""
    params: np.ndarray
    """ndarray(float64, ndim=2): parameter vector per seat."""


def pack_strategies(seat_strategies: list[Strategy]) -> PackedStrategies:
    """Pack one strategy per seat for the kernel."""
    return PackedStrategies(
        np.array([_POLICY_IDS[s.bidding] for s in seat_strategies], dtype=np.int64),
        np.array([_POLICY_IDS[s.play] for s in seat_strategies], dtype=np.int64),
        np.array([s.vector() for s in seat_strategies], dtype=np.float64),
    )
