"""Strategies: a bidding policy, a card-play policy and their parameters, by name.

A strategy is named (:data:`STRATEGIES`) or read from a strategy file, TOML naming a base
strategy and the parameters it changes (:func:`load_strategy`). A :class:`Strategy` is plain
data. :func:`pack_strategies` turns the strategy of each seat into the arrays the kernel reads
(policy ids and one parameter vector per seat), so changing a parameter never recompiles
anything.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import tomli_w

from ..inputs import loads_toml, read_text
from ..loading import SPEC_FORMS
from ..names import NAME_MOST, name_fault
from ..numbers import decimal_number, is_digits
from ..outputs import OutputError, check_file, shown, write_text
from ..rules import RuleSet
from . import calibration, drivers
from . import expert_bid as _expert_bid
from . import params as _params
from . import policies as _policies
from . import user_policies as _user
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
    ParamSpec("nil_pass_reach", _params.P_NIL_PASS_REACH, 0.0, 0.0, 2.0,
              "with a nil card pass (nil_pass), a nil is judged for hands this many tricks "
              "stronger a card passed (0: up to the plain nil's 3 tricks; a stronger hand can "
              "pass its winners away)", ("expert",)),
    ParamSpec("nil_pass_cover", _params.P_NIL_PASS_COVER, 0.0, 0.0, 2.0,
              "with a nil card pass, tricks added to the distribution of a nil bidder's partner "
              "a card passed (it gets the nil's high cards back)", ("expert",)),
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
    """Its id: its place in the policy table (``policies.TABLE``), which the kernel's
    decisions dispatch on."""
    reads_tables: bool
    """Whether it reads the expert's calibration tables (then they are packed for its seats)."""


POLICIES: dict[str, Policy] = {module.NAME: Policy(index, module.READS_TABLES)
                                for index, module in enumerate(_policies.TABLE)}
"""The kernel's policies by name, read from the policy table (``policies.TABLE``, the one place
a new policy is entered)."""


def user_policy(name: str, role: str = "policy") -> _user.UserPolicy | None:
    """The user policy a strategy's policy ``name`` names (``FILE.py:NAME`` or
    ``module:NAME``: ``user_policies``), loaded and checked once a process; None for a
    built-in policy's name. ``role`` names the field in a refusal."""
    if not _user.is_policy_spec(name):
        return None
    return _user.load_policy(name, lambda allowed: StrategyError(
        f"{role}={shown(name)!r}: allowed {allowed}"))


def _reads_tables(name: str) -> bool:
    user = user_policy(name)
    return POLICIES[name].reads_tables if user is None else user.READS_TABLES


def _reads(name: str, spec: ParamSpec) -> bool:
    """Whether the policy ``name`` reads the parameter ``spec``."""
    user = user_policy(name)
    return name in spec.readers if user is None else spec.name in user.PARAMS


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
            if not isinstance(policy_name, str) or (
                    policy_name not in POLICIES and user_policy(policy_name, role) is None):
                raise StrategyError(f"{role}={shown(str(policy_name))!r}: allowed "
                                    + ", ".join(sorted(POLICIES)) + f", or {SPEC_FORMS}")
            user = user_policy(policy_name, role)
            unknown = [name for name in (user.PARAMS if user else ()) if name not in _PARAM_BY_NAME]
            if unknown:
                raise StrategyError(f"{role}={shown(policy_name)!r}: allowed a policy whose "
                                    "PARAMS are parameters " + ", ".join(_PARAM_BY_NAME)
                                    + f" ({unknown[0]} is not)")
        for key, value in self.params.items():
            spec = _PARAM_BY_NAME.get(key)
            if spec is None:
                raise StrategyError(
                    f"param {key}={value!r}: allowed a parameter " + ", ".join(_PARAM_BY_NAME))
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    spec.low <= value <= spec.high):
                raise StrategyError(f"param {key}={value!r}: allowed {spec.low:g} to {spec.high:g}")
            if not (_reads(self.bidding, spec) or _reads(self.play, spec)):
                raise StrategyError(
                    f"param {key}={value!r}: allowed only with the " + " or ".join(spec.readers)
                    + f" policies (this strategy bids {self.bidding} and plays {self.play})")

    def params_read(self) -> tuple[ParamSpec, ...]:
        """The parameters its bidding or card-play policy reads."""
        return tuple(spec for spec in PARAMS
                     if _reads(self.bidding, spec) or _reads(self.play, spec))

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


EXPERT_PARAMS: dict[str, float] = {"bid_offset": 0.0, "set_slack": 4.0, "nil_bonus": -2.0,
                                   "cover_bonus": 0.0, "blind_nil_margin": 0.06,
                                   "blind_nil_min_chance": 0.15, "nil_pass_reach": 0.5,
                                   "nil_pass_cover": 0.5}
"""The expert's parameters (others at their defaults); how they were found: docs/strategies.md.
The three nil parameters come from the SPSA tuning of reports/tuning.md; until then they were
``nil_bonus`` -35, ``blind_nil_margin`` 0.15 and ``blind_nil_min_chance`` 0.35
(examples/expert-before-tuning.toml). ``nil_pass_reach`` and ``nil_pass_cover`` (read only under a nil
card pass) were measured in duplicate against the expert without them (reports/house-rules.md)."""

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
                "blind_nil_margin": 0.0},
        description="expert, judging bids half a trick long and going blind nil whenever it wins "
                    "the game more often (no margin)"),
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
    """Look a strategy up by name, or read it from a strategy file when the name ends in
    ``.toml`` (:mod:`spades_sim.strategy_files`); a Strategy passes through."""
    if isinstance(name, Strategy):
        return name
    if is_strategy_file(name):
        return load_strategy(name)
    try:
        return STRATEGIES[name]
    except KeyError:
        raise StrategyError(f"strategy={shown(name)!r}: allowed " + ", ".join(STRATEGIES)
                            + ", or a strategy file NAME.toml") from None


# ---------------------------------------------------------------- strategy files
# A strategy file names a strategy, describes it, and says which named strategy it starts from
# and which parameters it changes:
#
#     name = "nil-lover"
#     description = "expert with no risk premium on nil"
#     base = "expert"
#
#     [params]
#     nil_bonus = 0
#     blind_nil_margin = 0.1
#
# The strategy plays the base's bidding and card-play policies with the base's parameters, the
# file's ``params`` changing some of them (each checked against its range, and against the
# policies that read it). ``bidding`` and ``play`` name other policies: a built-in one, or a
# user's own, ``path/to/file.py:NAME`` or ``package.module:NAME`` (``user_policies``, docs/
# agents.md); with both the base may be left out (the parameters then start at their defaults).
# A value ending in ``.toml`` where a strategy is taken (``--strategy``, ``compare-strategies``,
# ``tune --against``, ``hand``, ``league``, a study's strategies, the library's get_strategy) is
# read as such a file, relative to the working folder. A bad file is refused in one line naming
# the field.

FIELDS = ("name", "description", "base", "bidding", "play", "params")
"""The fields of a strategy file, in the order :func:`dumps_strategy` writes them."""

DESCRIPTION_MOST = 500
"""The longest description, in characters (the named strategies' are at most 320)."""


def is_strategy_file(text: str) -> bool:
    """Whether a strategy value names a file rather than a named strategy: it ends in ``.toml``.

    >>> is_strategy_file("mine.toml"), is_strategy_file("expert")
    (True, False)
    """
    return text.endswith(".toml")


def _refused(field: str, value: Any, allowed: str) -> StrategyError:
    return StrategyError(f"{field}={shown(repr(value))}: allowed {allowed}")


def loads_strategy(text: str, source: str = "<string>") -> Strategy:
    """The strategy of a strategy file's TOML text (a one-line :class:`StrategyError` naming
    the field otherwise).

    >>> mine = loads_strategy('name = "mine"\\nbase = "expert"\\n[params]\\nnil_bonus = -10')
    >>> mine.name, mine.bidding, mine.param("nil_bonus"), mine.param("set_slack")
    ('mine', 'expert', -10.0, 4.0)
    """
    try:
        raw = loads_toml(text, lambda allowed: _refused("strategy", source, allowed))
    except tomllib.TOMLDecodeError as error:
        raise _refused("strategy", source, f"valid TOML ({error})") from None
    unknown = next((key for key in raw if key not in FIELDS), None)
    if unknown is not None:
        # The value is not echoed: a file given as a strategy may be any file.
        raise StrategyError(f"unknown key {shown(repr(unknown))} in {shown(source)}: allowed "
                            + ", ".join(FIELDS))
    for required in ("name", "base"):
        if required not in raw and not (required == "base" and "bidding" in raw
                                        and "play" in raw):
            also = " (or bidding and play)" if required == "base" else ""
            raise StrategyError(f"{required}: allowed a strategy file that sets it{also} "
                                f"({shown(source)} does not)")
    name, base = raw["name"], raw.get("base")
    fault = name_fault(name) if isinstance(name, str) else (
        f"printable text of 1 to {NAME_MOST} characters on one line")
    if fault is not None:
        raise _refused("name", name, fault)
    if name in STRATEGIES or is_strategy_file(name):
        raise _refused("name", name, "a name of its own, not a named strategy's nor ending in "
                       ".toml")
    if base is not None and (not isinstance(base, str) or base not in STRATEGIES):
        raise _refused("base", base, "a named strategy: " + ", ".join(STRATEGIES))
    for role in ("bidding", "play"):
        if role in raw and not isinstance(raw[role], str):
            raise _refused(role, raw[role], "a built-in policy (" + ", ".join(POLICIES)
                           + f") or {SPEC_FORMS}")
    description = raw.get("description", "")
    if not isinstance(description, str) or (
            description and name_fault(description, DESCRIPTION_MOST) is not None):
        raise _refused("description", description, name_fault(str(description), DESCRIPTION_MOST)
                       or "text")
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise _refused("params", params, "a table of parameter = number, e.g. [params] "
                       "nil_bonus = -10")
    start = STRATEGIES[base] if base is not None else Strategy(name)
    bidding, play = raw.get("bidding", start.bidding), raw.get("play", start.play)
    # Strategy checks each policy (a user's is loaded and checked) and each parameter: a known
    # name, a number within its range, read by the policies; its message names the field.
    made_of = base if base is not None else (bidding if bidding == play else f"{bidding}/{play}")
    return Strategy(name, bidding, play, {**start.params, **params},
                    description or f"{made_of} with {_changes(params)}")


def strategy_label(text: str) -> str:
    """How a strategy value reads in a file name: a strategy file by its stem, a bot by the
    name after its colon, a named strategy as it is.

    >>> strategy_label("mine/nil-lover.toml"), strategy_label("bots/x.py:MyBot")
    ('nil-lover', 'MyBot')
    """
    return Path(text).stem if is_strategy_file(text) else text.rpartition(":")[2]


def _changes(params: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in params.items()) or "its parameters"


def load_strategy(path: str | Path) -> Strategy:
    """Read a strategy file: a regular UTF-8 file of at most
    :data:`~spades_sim.inputs.MAX_TEXT_BYTES` (:func:`spades_sim.inputs.read_text`)."""
    source = str(path)
    try:
        text = read_text(path, lambda allowed: _refused("strategy", source, allowed))
    except OSError as error:
        raise _refused("strategy", source, f"a readable strategy file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise _refused("strategy", source, "a UTF-8 TOML file") from None
    if text.startswith("\ufeff"):
        raise _refused("strategy", source, "a UTF-8 TOML file without a byte-order mark")
    return loads_strategy(text, source)


def dumps_strategy(strategy: Strategy, base: str | None) -> str:
    """The strategy file of ``strategy``, played from the named strategy ``base`` (with the
    same policies), or with None (no named strategy has its policies: a user's) naming its
    ``bidding`` and ``play``: every parameter it sets, so the file says it in full.

    >>> text = dumps_strategy(STRATEGIES["nil-happy"].variant({"nil_bonus": -5}), "expert")
    >>> loads_strategy(text).params == STRATEGIES["nil-happy"].variant({"nil_bonus": -5}).params
    True
    """
    start = STRATEGIES[base] if base is not None else strategy
    if (start.bidding, start.play) != (strategy.bidding, strategy.play):
        raise _refused("base", base, f"a strategy with the policies of {strategy.name} "
                       f"(bidding {strategy.bidding}, card play {strategy.play})")
    name = strategy.name if name_fault(strategy.name) is None and strategy.name not in STRATEGIES \
        and not is_strategy_file(strategy.name) else f"{base or 'policy'}-tuned"
    made_of = {"base": base} if base is not None else {"bidding": strategy.bidding,
                                                       "play": strategy.play}
    data: dict[str, Any] = {"name": name, "description": strategy.description, **made_of,
                            "params": dict(strategy.params)}
    text: str = tomli_w.dumps(data)  # tomli_w ships no type hints
    return text


def check_strategy_path(path: str | Path, field: str = "save") -> None:
    """Refuse, before any work, a strategy file to write that does not end in ``.toml`` (it
    could not be read back as a strategy) or cannot be written."""
    if not is_strategy_file(str(path)):
        raise OutputError(f"{field}={shown(str(path))!r}: allowed a strategy file ending in .toml")
    check_file(path, field)


def save_strategy(strategy: Strategy, base: str | None, path: str | Path) -> None:
    """Write :func:`dumps_strategy` to ``path``, whole or not at all."""
    write_text(path, dumps_strategy(strategy, base), "save")



PARAM_FORM = "[SIDE.]NAME=VALUE"
"""The one way a strategy parameter is written on the command line (every ``--param``)."""

PARAM_VALUES = "VALUE, a list A,B,… or a range LO..HI (a grid LO..HI:STEP, HI included)"
"""What a ``--param`` value may be (:func:`parse_param`)."""

MAX_PARAM_VALUES = 400
"""The most values one ``--param`` may list or step through."""


@dataclass(frozen=True)
class ParamSetting:
    """One ``--param`` as written: ``[SIDE.]NAME=VALUE``, where VALUE is one value, a list
    ``A,B,…``, a range ``LO..HI`` or a grid ``LO..HI:STEP`` (HI included).

    Each command takes the forms it can use: a run takes one value per side (no SIDE: every
    side), ``tune`` a list or a grid of the strategy it tunes.
    """

    side: int | None
    """The side whose strategy it changes; None: not given (every side; in ``tune`` the
    strategy tuned)."""
    name: str
    values: tuple[float, ...]
    """The values listed, or the grid's; empty for a range ``LO..HI`` with no step."""
    bounds: tuple[float, float] | None = None
    """``LO..HI`` as written (a range or a grid), else None."""
    text: str = ""
    """The text it was read from, for messages."""
    step: float | None = None
    """The STEP of ``LO..HI:STEP`` as written, else None."""

    @property
    def single(self) -> float | None:
        """The value when exactly one was written (no list, no range), else None."""
        return self.values[0] if len(self.values) == 1 and self.bounds is None else None


def parse_param(text: str, *, step_is_scale: bool = False) -> ParamSetting:
    """Read one ``--param`` in its one grammar, ``[SIDE.]NAME=VALUE`` (:class:`ParamSetting`):
    the parameter must exist and every value lie in its range. With ``step_is_scale`` (a
    search's scale, as ``tune --method spsa`` reads it) the STEP of ``LO..HI:STEP`` is kept
    as written and makes no grid.

    >>> parse_param("1.bid_offset=-0.5")
    ParamSetting(side=1, name='bid_offset', values=(-0.5,), bounds=None, text='1.bid_offset=-0.5', step=None)
    >>> parse_param("bid_offset=-1..1:0.5").values
    (-1.0, -0.5, 0.0, 0.5, 1.0)
    >>> parse_param("bid_offset=-1..1").bounds, parse_param("set_slack=0,2,4").values
    ((-1.0, 1.0), (0.0, 2.0, 4.0))
    """
    form = StrategyError(f"param={shown(text)!r}: allowed {PARAM_FORM} with {PARAM_VALUES}, "
                         "e.g. 0.bid_offset=0.5 or bid_offset=-1..1:0.5")
    target, sep, value_text = text.partition("=")
    side_text, dot, name = target.rpartition(".")
    if not sep or (dot and not is_digits(side_text)) or not name:
        raise form
    side = int(side_text) if dot else None
    if name not in _PARAM_BY_NAME:
        raise StrategyError(f"param {shown(name)}={shown(value_text)}: allowed a parameter "
                            + ", ".join(_PARAM_BY_NAME))
    spec = _PARAM_BY_NAME[name]
    low_text, dots, rest = value_text.partition("..")
    high_text, colon, step_text = rest.partition(":")
    try:
        if dots:
            bounds: tuple[float, float] | None = (decimal_number(low_text),
                                                  decimal_number(high_text))
            step = decimal_number(step_text) if colon else None
        else:
            values = tuple(decimal_number(part) for part in value_text.split(","))
            bounds = step = None
    except ValueError:
        raise form from None
    if bounds is not None:
        if step_is_scale and step is not None and not (step > 0 and bounds[0] <= bounds[1]):
            raise StrategyError(f"param {name}={shown(value_text)}: allowed LO <= HI and STEP > 0")
        values = () if step is None or step_is_scale else _grid(name, value_text, *bounds, step)
    if bounds is not None and not bounds[0] <= bounds[1]:
        raise StrategyError(f"param {name}={shown(value_text)}: allowed LO <= HI")
    if len(values) > MAX_PARAM_VALUES:
        raise StrategyError(f"param {name}={shown(value_text)}: allowed at most "
                            f"{MAX_PARAM_VALUES} values ({len(values)} asked)")
    if not all(spec.low <= value <= spec.high for value in (*values, *(bounds or ()))):
        raise StrategyError(f"param {name}={shown(value_text)}: allowed {spec.low:g} to "
                            f"{spec.high:g}")  # worded as Strategy's own check
    return ParamSetting(side, name, values, bounds, text, step)


def _grid(name: str, value_text: str, low: float, high: float, step: float) -> tuple[float, ...]:
    """The values of ``LO..HI:STEP``, HI included when the steps reach it."""
    if step <= 0 or high < low:
        raise StrategyError(f"param {name}={shown(value_text)}: allowed LO <= HI and STEP > 0")
    steps = (high - low) / step  # a tiny step makes this astronomically large, or infinite
    if not steps < MAX_PARAM_VALUES:
        asked = f"{int(steps) + 1}" if steps < 10**12 else "far too many"
        raise StrategyError(f"param {name}={shown(value_text)}: allowed at most "
                            f"{MAX_PARAM_VALUES} values ({asked} asked)")
    count = math.floor(steps + 1e-9) + 1
    return tuple(round(low + k * step, 10) for k in range(count))


def old_param_spelling(text: str) -> str | None:
    """The new spelling of a ``--param`` written as ``tune`` took it before the one grammar
    (``NAME=LO:HI:STEP``), or None when ``text`` is not in that form.

    >>> old_param_spelling("bid_offset=-1:1:0.5"), old_param_spelling("bid_offset=-1..1:0.5")
    ('bid_offset=-1..1:0.5', None)
    """
    target, sep, value_text = text.partition("=")
    parts = value_text.split(":")
    if not sep or ".." in value_text or len(parts) != 3:
        return None
    return f"{target}={parts[0]}..{parts[1]}:{parts[2]}"


def parse_param_override(raw_override: str) -> tuple[int | None, str, float]:
    """One value of one parameter for one side's strategy (a seat's, without partners), or
    every side's with no SIDE: ``[SIDE.]NAME=VALUE`` (:func:`parse_param`) with one value.

    >>> parse_param_override("1.bid_offset=-0.5"), parse_param_override("bid_offset=1")
    ((1, 'bid_offset', -0.5), (None, 'bid_offset', 1.0))
    """
    setting = parse_param(raw_override)
    if setting.single is None:
        raise StrategyError(f"param={shown(raw_override)!r}: allowed one value, e.g. "
                            "0.bid_offset=0.5 (a list or a range is for tune)")
    return setting.side, setting.name, setting.single


def override_params(seats: list[Strategy], overrides: list[tuple[int | None, str, float]],
                    side_count: int) -> list[Strategy]:
    """Apply ``(side, name, value)`` overrides to the strategies of that side's seats (side
    None: every side's).

    Seat ``s`` belongs to side ``s % side_count``; a changed strategy's name shows what
    changed, e.g. ``basic[bid_offset=0.5]``.
    """
    changes: dict[int, dict[str, float]] = {}
    for side, name, value in overrides:
        if side is not None and not 0 <= side < side_count:
            raise StrategyError(f"param side {side}: allowed 0 to {side_count - 1}")
        for each in range(side_count) if side is None else (side,):
            changes.setdefault(each, {})[name] = value
    result = []
    for seat, strategy in enumerate(seats):
        change = changes.get(seat % side_count)
        result.append(strategy.variant(change) if change else strategy)
    return result


def seat_strategies(raw_strategies: str | Strategy | Sequence[str | Strategy],
                    seat_count: int = 4,
                    overrides: Sequence[str | tuple[int | None, str, float]] = (),
                    side_count: int | None = None) -> list[Strategy]:
    """One strategy per seat round the table: from one (everyone), two (taking turns round
    the table, so partners share one) or one per seat, names or :class:`Strategy` objects; then
    each override applied to its side's seats (:func:`override_params`).

    ``overrides`` are ``[SIDE.]NAME=VALUE`` texts (:func:`parse_param_override`) or parsed
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
        if any((name == known and None in (side, other)) or (side, name) == (other, known)
               for other, known, _ in parsed[:i]):
            written = name if side is None else f"{side}.{name}"
            raise StrategyError(f"param={written}: allowed each side's parameter once "
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
    reads = [_reads_tables(s.bidding) or _reads_tables(s.play) for s in seat_strategies]
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
    ids, packed = _policy_ids(seat_strategies)
    return packed(
        np.array([ids[s.bidding] for s in seat_strategies], dtype=np.int64),
        np.array([ids[s.play] for s in seat_strategies], dtype=np.int64),
        np.array([s.vector() for s in seat_strategies], dtype=np.float64),
        *tables,
        np.array([distinct.index(v) if read else 0 for v, read in zip(vectors, reads, strict=True)],
                 dtype=np.int64),
        *choices,
    )


def _policy_ids(seat_strategies: list[Strategy]) -> tuple[dict[str, int], type]:
    """Each policy's id at this table, and the packed strategies' class: the built-in policies'
    ids are their places in the table; user policies follow, in the order the seats first name
    them, and are carried by the class (``user_policies.packed_class``)."""
    ids = {name: policy.id for name, policy in POLICIES.items()}
    users: list[_user.UserPolicy] = []
    for strategy in seat_strategies:
        for name in (strategy.bidding, strategy.play):
            user = user_policy(name)
            if user is not None and name not in ids:
                if user not in users:
                    users.append(user)
                ids[name] = len(_policies.TABLE) + users.index(user)
    return ids, _user.packed_class(tuple(users))


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
