"""Strategies: a bidding policy, a card-play policy and their parameters, by name.

A :class:`Strategy` is plain data. :func:`pack_strategies` turns the strategy of
each seat into the arrays the kernel reads (policy ids and one parameter vector
per seat), so changing a parameter never recompiles anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..numbers import decimal_number, is_digits
from ..outputs import shown
from ..rules import RuleSet
from . import calibration, drivers
from . import expert_bid as _expert_bid
from . import params as _params
from .expert_bid import BidTables
from .packing import PackedStrategies, pack_rules


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
    readers: tuple[str, ...]
    """The policies (bidding or card play) that read it."""


_BASIC_AND_V1 = ("basic", "expert-v1")
PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("bid_offset", _params.P_BID_OFFSET, 0.0, -3.0, 3.0,
              "basic, expert-v1: added to the trick estimate before rounding; expert: tricks "
              "added to the distribution a bid is judged by (positive bids higher)",
              (*_BASIC_AND_V1, "expert")),
    ParamSpec("nil_threshold", _params.P_NIL_THRESHOLD, 0.5, 0.0, 5.0,
              "bid nil when the hand's nil risk is at most this (0 with no high card)",
              _BASIC_AND_V1),
    ParamSpec("blind_nil_deficit", _params.P_BLIND_DEFICIT, 200.0, 0.0, 10000.0,
              "bid blind nil, when the rules allow it, if the side trails by at least this",
              _BASIC_AND_V1),
    ParamSpec("blind_nil_near", _params.P_BLIND_NEAR, 150.0, 0.0, 10000.0,
              "... and only if the opponents are within this many points of the target",
              _BASIC_AND_V1),
    ParamSpec("cover_bonus", _params.P_COVER_BONUS, 1.0, 0.0, 4.0,
              "basic, expert-v1: added to the bid when the partner has bid nil; expert: tricks "
              "added to its distribution then", (*_BASIC_AND_V1, "expert")),
    ParamSpec("solo_nil_threshold", _params.P_SOLO_NIL_THRESHOLD, -1.0, -1.0, 5.0,
              "nil_threshold for a seat without a partner (-1: never bid nil alone; even a hand "
              "with no high card sets ~70% of its nils in solo, as no one covers it)",
              _BASIC_AND_V1),
    ParamSpec("bag_near", _params.P_BAG_NEAR, 0.0, 0.0, 10.0,
              "bag awareness applies when the side is this many bags or fewer from the penalty "
              "(0: never)", _BASIC_AND_V1),
    ParamSpec("bag_bid", _params.P_BAG_BID, 0.0, -2.0, 2.0,
              "added to the trick estimate when bag awareness applies (positive: bid the bags)",
              _BASIC_AND_V1),
    ParamSpec("set_slack", _params.P_SET_SLACK, 0.0, 0.0, 13.0,
              "card play: go for the set when the opponents can lose fewer than this many of "
              "the tricks left and still make (0: never; expert-v1: not while bag awareness "
              "applies; expert: only when the set is worth the bags it costs)",
              ("expert-v1", "expert")),
    ParamSpec("nil_min_chance", _params.P_NIL_MIN_CHANCE, 0.0, 0.0, 1.0,
              "bid nil only when its estimated chance of success is at least this (and its "
              "expected value is the best)", ("expert",)),
    ParamSpec("nil_bonus", _params.P_NIL_BONUS, 0.0, -200.0, 200.0,
              "points added to a nil's expected value (negative: a premium for its risk, fewer "
              "nils; the same points whatever the nil is worth, so fewer nils when it is worth "
              "less)", ("expert",)),
    ParamSpec("blind_nil_margin", _params.P_BLIND_MARGIN, 0.0, -1.0, 1.0,
              "bid blind nil when its chance to win the game beats an ordinary hand's by at "
              "least this", ("expert",)),
    ParamSpec("blind_nil_min_chance", _params.P_BLIND_MIN_CHANCE, 0.0, 0.0, 1.0,
              "bid blind nil only when its calibrated chance of success (for the cards passed "
              "and the partner's bid) is at least this", ("expert",)),
    ParamSpec("bag_weight", _params.P_BAG_WEIGHT, 1.0, 0.0, 5.0,
              "weight of the expected future bag penalties in a bid's value and in card play "
              "(0: bags only cost when they cross the limit this hand)", ("expert",)),
    ParamSpec("explore_nil", _params.P_EXPLORE_NIL, 0.0, 0.0, 1.0,
              "calibration runs only: the chance of bidding nil whatever the hand", ("expert",)),
    ParamSpec("explore_blind", _params.P_EXPLORE_BLIND, 0.0, 0.0, 1.0,
              "calibration runs only: the chance of bidding blind nil whenever allowed",
              ("expert",)),
)
"""Every parameter, its slot in the kernel's vector, default, range, meaning and readers."""

_PARAM_BY_NAME = {spec.name: spec for spec in PARAMS}


class Policy(NamedTuple):
    """One policy of the kernel, as a strategy names it for its bidding or its card play."""

    id: int
    """Its id in ``kernel/params.py``, which the kernel's decisions dispatch on (``decide``)."""
    reads_tables: bool
    """Whether it reads the expert's calibration tables (then they are packed for its seats)."""


POLICIES: dict[str, Policy] = {
    "random": Policy(_params.POLICY_RANDOM, False),
    "basic": Policy(_params.POLICY_BASIC, False),
    "expert-v1": Policy(_params.POLICY_EXPERT_V1, False),
    "expert": Policy(_params.POLICY_EXPERT, True),
}
"""The kernel's policies by name: the one table a new policy is entered in."""


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
            if policy_name not in POLICIES:
                raise StrategyError(
                    f"{role}={shown(policy_name)!r}: allowed " + ", ".join(sorted(POLICIES)))
        for key, value in self.params.items():
            spec = _PARAM_BY_NAME.get(key)
            if spec is None:
                raise StrategyError(
                    f"param {key}={value!r}: allowed a parameter " + ", ".join(_PARAM_BY_NAME))
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    spec.low <= value <= spec.high):
                raise StrategyError(f"param {key}={value!r}: allowed {spec.low:g} to {spec.high:g}")
            if self.bidding not in spec.readers and self.play not in spec.readers:
                raise StrategyError(
                    f"param {key}={value!r}: allowed only with the " + " or ".join(spec.readers)
                    + f" policies (this strategy bids {self.bidding} and plays {self.play})")

    def params_read(self) -> tuple[ParamSpec, ...]:
        """The parameters its bidding or card-play policy reads."""
        return tuple(spec for spec in PARAMS
                     if self.bidding in spec.readers or self.play in spec.readers)

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
        vector = np.zeros(_params.PARAM_COUNT)
        for spec in PARAMS:
            vector[spec.slot] = self.param(spec.name)
        return vector


EXPERT_PARAMS: dict[str, float] = {"bid_offset": 0.0, "set_slack": 4.0, "nil_bonus": -35.0,
                                   "cover_bonus": 0.0, "blind_nil_margin": 0.15,
                                   "blind_nil_min_chance": 0.35}
"""The expert's parameters (others at their defaults); how they were found: docs/strategies.md."""

STRATEGIES: dict[str, Strategy] = {
    "random": Strategy("random", "random", "random",
                       description="uniform over the legal bids (never blind nil) and legal cards"),
    "basic": Strategy("basic", "basic", "basic",
                      description="trick-count bidder with a nil rule; plays to make its contract, "
                                  "ducks bags, covers a partner's nil, attacks an opponent's nil"),
    "expert": Strategy(
        "expert", "expert", "expert", params=dict(EXPERT_PARAMS),
        description="bids the allowed bid of highest expected value under the table's scoring, "
                    "bags and score (calibrated trick and nil chances; the chance to win the "
                    "game near its end); sound card play: second hand low, third hand high, "
                    "covers and attacks nils, sets or bags the opponents as the scoring pays"),
    "conservative": Strategy(
        "conservative", "expert", "expert",
        params={**EXPERT_PARAMS, "bid_offset": EXPERT_PARAMS["bid_offset"] - 0.5,
                "nil_min_chance": 0.85, "blind_nil_margin": 0.3},
        description="expert, judging bids half a trick short, nil only at 85% or better, blind "
                    "nil only when it wins the game 30 points of % more often"),
    "aggressive": Strategy(
        "aggressive", "expert", "expert",
        params={**EXPERT_PARAMS, "bid_offset": EXPERT_PARAMS["bid_offset"] + 0.5,
                "blind_nil_margin": 0.05},
        description="expert, judging bids half a trick long and going blind nil sooner (5 points "
                    "of % of game wins instead of 15)"),
    "nil-happy": Strategy(
        "nil-happy", "expert", "expert",
        params={**EXPERT_PARAMS, "nil_bonus": 0.0, "blind_nil_margin": 0.0,
                "blind_nil_min_chance": 0.0},
        description="expert bidding nil whenever its expected value is the best (no risk "
                    "premium) and blind nil whenever it wins the game more often"),
    "bag-averse": Strategy(
        "bag-averse", "expert", "expert",
        params={**EXPERT_PARAMS, "bag_weight": 2.0, "set_slack": 0.0},
        description="expert counting future bag penalties twice and never playing for a set "
                    "(sets cost bags)"),
    "expert-v1": Strategy(
        "expert-v1", "expert-v1", "expert-v1",
        params={"bid_offset": -0.25, "set_slack": 4.0, "nil_threshold": 0.6, "cover_bonus": 0.5},
        description="the first release's expert, unchanged, the fixed yardstick: basic "
                    "bidding, tuned; card play that tracks the cards out: covers a partner's nil, "
                    "attacks an opponent's nil unless its contract needs the tricks, ducks once "
                    "the contract is certain, goes for the set"),
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
        raise StrategyError(f"strategy={shown(name)!r}: allowed " + ", ".join(STRATEGIES)) from None


def parse_param_override(raw_override: str) -> tuple[int, str, float]:
    """Parse ``SIDE.NAME=VALUE`` (a parameter of one side's strategy, or one seat's alone).

    >>> parse_param_override("1.bid_offset=-0.5")
    (1, 'bid_offset', -0.5)
    """
    target, sep, text = raw_override.partition("=")
    side, dot, name = target.partition(".")
    try:
        value = decimal_number(text)
    except ValueError:
        value = None
    if not sep or not dot or not is_digits(side) or value is None:
        raise StrategyError(f"param={shown(raw_override)!r}: allowed SIDE.NAME=VALUE, "
                            "e.g. 0.bid_offset=0.5")
    if name not in _PARAM_BY_NAME:
        raise StrategyError(f"param {shown(name)}={shown(text)}: allowed a parameter "
                            + ", ".join(_PARAM_BY_NAME))
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


def seat_strategies(raw_strategies: str | Strategy | Sequence[str | Strategy],
                    seat_count: int = 4,
                    overrides: Sequence[str | tuple[int, str, float]] = (),
                    side_count: int | None = None) -> list[Strategy]:
    """One strategy per seat round the table: from one (everyone), two (taking turns round
    the table, so partners share one) or one per seat, names or :class:`Strategy` objects; then
    each override applied to its side's seats (:func:`override_params`).

    ``overrides`` are ``SIDE.NAME=VALUE`` texts (:func:`parse_param_override`) or parsed
    ``(side, name, value)`` tuples; with any, ``side_count`` says how many sides the table has.
    This is the one place strategies are seated: the runs, the what-if and the command line
    all seat theirs here.

    >>> [s.name for s in seat_strategies(["basic", "random"])]
    ['basic', 'random', 'basic', 'random']
    >>> [s.name for s in seat_strategies("basic", 4, ["1.bid_offset=-1"], side_count=2)]
    ['basic', 'basic[bid_offset=-1]', 'basic', 'basic[bid_offset=-1]']
    """
    if isinstance(raw_strategies, str | Strategy):
        raw_strategies = [raw_strategies]
    chosen = [get_strategy(s) for s in raw_strategies]
    if len(chosen) not in (1, 2, seat_count):
        raise drivers.RunError(f"strategies={len(chosen)}: allowed one (all seats), two (seats "
                               "take turns: one per side in partnership) or "
                               f"{seat_count} (one per seat)")
    seats = [chosen[seat % len(chosen)] for seat in range(seat_count)]
    if not overrides:
        return seats
    if side_count is None:
        raise TypeError("seat_strategies: side_count is needed with overrides")
    parsed = [parse_param_override(override) if isinstance(override, str) else override
              for override in overrides]
    for i, (side, name, _) in enumerate(parsed):
        if any((side, name) == (other, known) for other, known, _ in parsed[:i]):
            raise StrategyError(f"param={side}.{name}: allowed each side's parameter once "
                                "(given twice)")
    return override_params(seats, parsed, side_count)


def pack_strategies(seat_strategies: list[Strategy], rules: RuleSet,
                    tables: BidTables | None = None) -> PackedStrategies:
    """Pack one strategy per seat for the kernel at the table ``rules``.

    ``tables`` replaces the shipped calibration tables (as ``spades_sim.analysis.calibrate`` does).
    Strategies that read no table get stand-ins, so no tables need to exist for them. The
    expert's usual choices are precomputed here for each distinct parameter vector of a seat
    that reads them (``expert_bid._fill_choices``, one horizon a call, so Ctrl-C is taken
    between them), at the shipped tables once per rule set and vector.
    """
    reads = [POLICIES[s.bidding].reads_tables or POLICIES[s.play].reads_tables
             for s in seat_strategies]
    vectors = [tuple(s.vector()) for s in seat_strategies]
    # Choices only for the seats that read them (the others' rows are never read).
    distinct = sorted({vector for vector, read in zip(vectors, reads, strict=True) if read})
    if tables is None:
        if distinct:
            tables = calibration.pack_tables(rules)
            choices = tuple(np.concatenate(parts) for parts in zip(
                *(_shipped_choices(rules, vector) for vector in distinct), strict=True))
        else:
            tables, choices = _stand_in_tables(rules)
    else:
        tables = calibration.contiguous(tables)
        choices = _choices(rules, tables, tuple(distinct))
    return PackedStrategies(
        np.array([POLICIES[s.bidding].id for s in seat_strategies], dtype=np.int64),
        np.array([POLICIES[s.play].id for s in seat_strategies], dtype=np.int64),
        np.array([s.vector() for s in seat_strategies], dtype=np.float64),
        *tables,
        np.array([distinct.index(v) if read else 0 for v, read in zip(vectors, reads, strict=True)],
                 dtype=np.int64),
        *choices,
    )


@lru_cache(maxsize=32)
def _stand_in_tables(rules: RuleSet) -> tuple[BidTables, tuple[np.ndarray, ...]]:
    """The tables handed to the kernel when no seat reads them (only their shapes matter), made
    once per rule set: making them took about 27 ms, a twentieth of a run of 500,000 hands."""
    tables = calibration.kernel_tables(calibration.bootstrap_arrays(rules), rules)
    return tables, _choices(rules, tables, ())


@lru_cache(maxsize=32)
def _shipped_choices(rules: RuleSet, vector: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """The expert's choices for one parameter vector at ``rules``' shipped tables, made once
    (about 0.25 s each: a study packs the same expert at the same rules many times over)."""
    return _choices(rules, calibration.pack_tables(rules), (vector,))


def _choices(rules: RuleSet, tables: BidTables,
             vectors: tuple[tuple[float, ...], ...]) -> tuple[np.ndarray, ...]:
    """The expert's precomputed count-bid choices for each parameter vector (none: empty)."""
    q = len(vectors)
    own = (q,) + tables.own.shape[:3] + tables.bag_steps.shape[1::-1]
    joint = (q,) + tables.joint.shape[:3] + tables.bag_steps.shape[1::-1]
    cover = (q, tables.cover.shape[0]) + tables.bag_steps.shape[1::-1]
    arrays = (np.zeros(own, np.int8), np.zeros(own), np.zeros(joint, np.int8), np.zeros(joint),
              np.zeros(cover))
    if q:
        args = (pack_rules(rules), tables, np.array(vectors))
        drivers.load_kernel(_expert_bid._fill_choices, *args, 0, *arrays)
        with drivers.interrupts_held() as check:
            for horizon in range(tables.bag_steps.shape[0]):
                _expert_bid._fill_choices(*args, horizon, *arrays)
                check()
    return arrays
