"""Build the expert bidder's calibration tables from self-play (``spades-sim calibrate``).

One round measures, with the expert playing every seat (bidding from the tables of the
round before):

1. a hand run: every count bid's seat, position, partner's bid and tricks; a least-squares
   fit of the seat's own tricks on :func:`~spades_sim.kernel.expert_bid._strength_features`
   gives the strength weights, and the tricks are counted by strength bin into ``own``
   (own tricks), ``joint`` (the side's tricks after the partner's count bid) and the
   per-hand figures of ``game``;
2. a hand run in which every seat bids nil with chance ``EXPLORE_NIL`` whatever its hand:
   a logistic fit of a set nil on :func:`~spades_sim.kernel.expert_bid._nil_features`
   gives the nil weights; nils made and bid are counted by nil-score bin (``nil_made`` /
   ``nil_bids``), and the partner's tricks after its count bid into ``cover``;
3. at a partnership table, hand runs under ``blind_nil = "anytime"`` with 0 to 3 cards
   passed in which every seat goes blind with chance ``EXPLORE_BLIND``: blind nils made
   and bid by the partner's bid (``blind_made`` / ``blind_bids``).

At a partnership table the nil card pass (``nil_pass`` 1 to 4) has tables of its own
(``pass_made`` / ``pass_bids``, :func:`pass_counts`): run 2 again at a table passing that many
cards, the nil weights kept, after the rounds (``--nil-pass-hands``) or added to a family's
finished tables (``--nil-pass-only``, :func:`add_pass_tables`).

The first round has no tables to bid from: it measures the tricks bidding as ``expert-v1``
(with the expert's card play) and explores nils from those tables and a guessed nil model;
two more rounds with the expert's own bidding settle the tables (the shipped ones:
``ROUNDS`` rounds). Counts are kept, so every cell
has its sample size; :func:`smoothed` turns them into the distributions the kernel reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import tomli_w

from .. import __version__
from ..inputs import read_toml
from ..kernel import drivers
from ..kernel import expert_bid as _bid
from ..kernel.calibration import (
    STRENGTH_BINS_PER_TRICK,
    CalibrationError,
    bootstrap_arrays,
    kernel_tables,
    save_family,
)
from ..kernel.strategies import STRATEGIES, Strategy
from ..outputs import atomic_path, shown, write_text
from ..rules import Mode, RuleSet, load_preset
from ..run.blocks import prepare_table
from ..run.simulate import BLOCK_HANDS, DEFAULT_MAX_HANDS, resolve_seed

if TYPE_CHECKING:
    from ..kernel.engine import HandRecords, HandTrace
    from ..kernel.packing import PackedRules

ROUNDS = 3
"""Rounds of the shipped tables (the first bids as expert-v1)."""
EXPLORE_NIL = 0.15
EXPLORE_BLIND = 0.25
NIL_LOW, NIL_STEP, NIL_BINS = -8.0, 0.25, 49
"""Bins of the nil score (the logit of a set nil): NIL_LOW + k × NIL_STEP."""
BLIND_CLASSES = 4
"""Partner's bid classes of ``blind``: not yet bid, 1-3, 4-5, 6 or more."""

FAMILY_PRESETS: dict[str, str] = {
    "partnership-standard": "standard",
    "partnership-jokers": "jokers",
    "partnership-joker-joker-deuce-deuce": "joker-joker-deuce-deuce",
    "partnership-joker-joker-deuce-ace": "joker-joker-deuce-ace",
    "partnership-deuce-high": "deuce-high",
    "solo-standard": "solo",
    "two-player-standard": "head-to-head",
    "three-player-standard": "three-player",
    "five-player-jokers": "five-player",
}
"""The shipped families and the preset each is measured under (the tables depend on the cards
and the table, not on the scoring)."""


@dataclass(frozen=True)
class Sizes:
    """How much self-play one round plays."""

    hands: int = 1_500_000
    nil_hands: int = 1_000_000
    blind_hands: int = 200_000
    games: int = 20_000
    """Self-play games that fit the race table's spread (two-sided tables only)."""


def _bootstrap_strategy() -> Strategy:
    """Expert-v1's bidding with the expert's card play: the first round's strategy."""
    v1 = STRATEGIES["expert-v1"]
    bid_params = {k: v for k, v in v1.params.items() if k != "set_slack"}
    return Strategy("calibration-bootstrap", "expert-v1", "expert",
                    {**bid_params, "set_slack": STRATEGIES["expert"].param("set_slack")})


def _position(seat: np.ndarray, dealer: np.ndarray, first_bid_offset: int, n: int) -> np.ndarray:
    position: np.ndarray = (seat - dealer[:, None] - first_bid_offset) % n
    return position


def _play(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], hands: int,
          seed: int, on_block: Callable[[int], None] | None
          ) -> Iterator[tuple[HandRecords, HandTrace, PackedRules]]:
    """Yield (records, trace, packed) per block of a hand run with traces."""
    table = prepare_table(rules, strategy, tables=kernel_tables(arrays, rules))
    packed, strat = table.packed_rules, table.packed_strategies
    done = 0
    while done < hands:
        count = min(BLOCK_HANDS, hands - done)
        out, trace = drivers.play_hands(rules=packed, strategies=strat, seed=seed, start=done,
                                        count=count, trace=True)
        yield out, trace, packed
        done += count
        if on_block is not None:
            on_block(count)


def _features(trace: HandTrace, packed: PackedRules) -> tuple[np.ndarray, np.ndarray]:
    hands = trace.hands.reshape(-1)
    strength = np.empty((hands.size, _bid.STRENGTH_FEATURES))
    nil = np.empty((hands.size, _bid.NIL_FEATURES))
    with drivers.interrupts_held():
        _bid._hand_features(hands, packed.suit_masks, packed.suit_low, packed.trump_suit,
                            strength, nil)
    seats = trace.hands.shape[1]
    return (strength.reshape(-1, seats, _bid.STRENGTH_FEATURES),
            nil.reshape(-1, seats, _bid.NIL_FEATURES))


def _partner_view(records: HandRecords, packed: PackedRules
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seat-hand: bidding position, the partner's bid (-1 when it bids later or there is
    none) and the partner's tricks."""
    n = packed.seat_count
    seats = np.arange(n)
    position = _position(seats[None, :], records.dealer.astype(np.int64),
                         packed.first_bid_offset, n)
    partner = packed.partner
    if partner[0] < 0:
        none = np.full(records.bid.shape, -1)
        return position, none, np.zeros(records.bid.shape, np.int64)
    partner_bid = records.bid[:, partner].astype(np.int64)
    partner_position = position[:, partner]
    partner_bid = np.where(partner_position < position, partner_bid, -1)
    return position, partner_bid, records.tricks[:, partner].astype(np.int64)


def trick_counts(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], hands: int,
                 seed: int, strength_w: np.ndarray | None = None,
                 on_block: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Run 1 of a round: fit the strength weights (unless given) and count own and joint tricks
    by strength bin, with the per-hand game figures."""
    blocks = []
    for records, trace, packed in _play(rules, strategy, arrays, hands, seed, on_block):
        strength, _ = _features(trace, packed)
        position, partner_bid, partner_tricks = _partner_view(records, packed)
        bid, blind = records.bid.astype(np.int64), records.blind.astype(np.int64)
        context = np.where(packed.partner[0] < 0, _bid.CTX_ALONE,
                           np.where(partner_bid < 0, _bid.CTX_PARTNER_LATER,
                                    np.where(partner_bid == 0, _bid.CTX_PARTNER_NIL, -1)))
        counted = (bid > 0) & (blind == 0)
        blocks.append({
            "strength": strength[counted].astype(np.int8), "context": context[counted],
            "position": position[counted], "partner_bid": partner_bid[counted],
            "tricks": records.tricks[counted].astype(np.int64),
            "partner_tricks": partner_tricks[counted], "figures": _side_figures(records, rules),
            "nil_made": records.tricks[(bid == 0) & (blind == 0)] == 0})
    sample = {key: np.concatenate([b[key] for b in blocks]) for key in blocks[0]}
    if strength_w is None:
        fit = np.isin(sample["context"], (_bid.CTX_ALONE, _bid.CTX_PARTNER_LATER))
        strength_w = _least_squares(sample["strength"][fit], sample["tricks"][fit])
    bins = rules.hand_size * STRENGTH_BINS_PER_TRICK + 1
    score = _times(sample["strength"], strength_w)
    sbin = np.clip(np.rint(score / _bid.STRENGTH_STEP), 0, bins - 1).astype(np.int64)
    k = rules.hand_size + 1
    own = np.zeros((3, 5, bins, k))
    use = sample["context"] >= 0
    np.add.at(own, (sample["context"][use], sample["position"][use], sbin[use],
                    sample["tricks"][use]), 1)
    joint = np.zeros((2, bins, k, k))
    use = sample["partner_bid"] > 0
    side_tricks = np.minimum(sample["tricks"] + sample["partner_tricks"], k - 1)
    np.add.at(joint, (sample["position"][use] - 2, sbin[use], sample["partner_bid"][use],
                      side_tricks[use]), 1)
    return {"strength_w": strength_w, "own": own, "joint": joint,
            "game": _game_figures(sample["figures"], sample["nil_made"])}


def _times(features_i8: np.ndarray, weights: np.ndarray, rows: int = 1 << 20) -> np.ndarray:
    """``features @ weights`` a slice of rows at a time (the features are kept as int8)."""
    return np.concatenate([features_i8[i:i + rows].astype(np.float64) @ weights
                           for i in range(0, len(features_i8), rows)])


def _side_figures(records: HandRecords, rules: RuleSet) -> np.ndarray:
    """Per side-hand: points, bags, contract, made, the points of the count part when exactly one
    partner bid nil (NaN otherwise) and the points with no nil bid (NaN otherwise)."""
    sides = records.points.shape[1]
    rows = []
    for side in range(sides):
        seats = list(range(side, records.bid.shape[1], sides))
        nil = records.bid[:, seats] == 0
        value = np.where(records.blind[:, seats] == 1, rules.blind_nil_value, rules.nil_value)
        nil_points = np.where(nil, np.where(records.tricks[:, seats] == 0, value, -value),
                              0).sum(axis=1)
        points = records.points[:, side].astype(np.float64)
        nils = nil.sum(axis=1)
        rows.append(np.column_stack([
            points, records.bags[:, side], records.contract[:, side], records.made[:, side],
            np.where(nils == 1, points - nil_points, np.nan), np.where(nils == 0, points, np.nan)]))
    return np.concatenate(rows)


def _game_figures(figures: np.ndarray, nil_made: np.ndarray) -> np.ndarray:
    """The ``game`` slots from per side-hand figures and the outcomes of the nils bid."""
    game = np.zeros(_bid.GAME_SLOTS)
    points, bags, contract, made, one_nil, no_nil = figures.T
    game[_bid.G_MU] = points.mean()
    game[_bid.G_SIGMA] = points.std()
    game[_bid.G_BAGS] = bags.mean()
    game[_bid.G_MAKE] = made[contract > 0].mean()
    game[_bid.G_NIL] = nil_made.mean() if nil_made.size else 0.75
    game[_bid.G_PARTNER_SHARE] = np.nanmean(no_nil) / 2
    game[_bid.G_MU_COVER] = np.nanmean(one_nil) if np.isfinite(one_nil).any() else game[
        _bid.G_PARTNER_SHARE]
    game[_bid.G_NIL_LOW] = NIL_LOW
    game[_bid.G_NIL_STEP] = NIL_STEP
    return game


def _least_squares(x: np.ndarray, y: np.ndarray, rows: int = 1 << 20) -> np.ndarray:
    """Ridge-stabilised least squares of ``y`` on int8 features ``x``, a slice at a time (a tiny
    ridge keeps unused features at 0)."""
    gram = np.zeros((x.shape[1], x.shape[1]))
    moment = np.zeros(x.shape[1])
    for i in range(0, len(x), rows):
        part = x[i:i + rows].astype(np.float64)
        gram += part.T @ part
        moment += part.T @ y[i:i + rows]
    return np.linalg.solve(gram + 1e-6 * len(y) * np.eye(x.shape[1]), moment)


def _logistic(x: np.ndarray, y: np.ndarray, iterations: int = 25) -> np.ndarray:
    """Weights of a logistic regression of ``y`` (0/1) on ``x``, by iteratively reweighted least
    squares with a small ridge."""
    w = np.zeros(x.shape[1])
    ridge = 1e-4 * len(y) * np.eye(x.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (y - p) - ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def nil_counts(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], hands: int,
               seed: int, nil_w: np.ndarray | None = None,
               on_block: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Run 2 of a round: nils bid whatever the hand; fit the nil weights (unless given) and count
    nils made and bid by context and nil-score bin, and the partner's tricks after its count
    bid when this seat then bid nil."""
    explorer = strategy.with_params(explore_nil=EXPLORE_NIL) if strategy.bidding == "expert" \
        else strategy
    rows = []
    for records, trace, packed in _play(rules, explorer, arrays, hands, seed, on_block):
        _, nil_features = _features(trace, packed)
        _, partner_bid, partner_tricks = _partner_view(records, packed)
        nil = (records.bid == 0) & (records.blind == 0)
        context = np.where(packed.partner[0] < 0, _bid.NIL_CTX_NO_COVER,
                           np.where(partner_bid < 0, _bid.NIL_CTX_PARTNER_LATER,
                                    np.where(partner_bid > 0, _bid.NIL_CTX_PARTNER_COUNT,
                                             _bid.NIL_CTX_NO_COVER)))
        rows.append((nil_features[nil], context[nil], records.tricks[nil] == 0,
                     partner_bid[nil], partner_tricks[nil]))
    features = np.concatenate([r[0] for r in rows])
    context, made, partner_bid, partner_tricks = (np.concatenate([r[i] for r in rows])
                                                  for i in range(1, 5))
    if nil_w is None:
        nil_w = _logistic(features, (~made).astype(np.float64))
    z = features @ nil_w
    zbin = np.clip(np.rint((z - NIL_LOW) / NIL_STEP), 0, NIL_BINS - 1).astype(np.int64)
    nil_bids = np.zeros((3, NIL_BINS))
    nil_made = np.zeros((3, NIL_BINS))
    np.add.at(nil_bids, (context, zbin), 1)
    np.add.at(nil_made, (context, zbin), made)
    k = rules.hand_size + 1
    cover = np.zeros((k, k))
    use = partner_bid > 0
    np.add.at(cover, (partner_bid[use], partner_tricks[use]), 1)
    return {"nil_w": nil_w, "nil_bids": nil_bids, "nil_made": nil_made, "cover": cover}


def blind_counts(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], hands: int,
                 seed: int, on_block: Callable[[int], None] | None = None
                 ) -> dict[str, np.ndarray]:
    """Run 3 of a round: blind nils bid whenever allowed (``blind_nil = "anytime"``), for 0 to 3
    cards passed; counted by the partner's bid class."""
    blind_bids = np.zeros((4, BLIND_CLASSES))
    blind_made = np.zeros((4, BLIND_CLASSES))
    if rules.mode != Mode.PARTNERSHIP or strategy.bidding != "expert":
        return {"blind_bids": blind_bids, "blind_made": blind_made}
    explorer = strategy.with_params(explore_blind=EXPLORE_BLIND)
    for passed in range(4):
        table = rules.replace(blind_nil="anytime", blind_nil_pass=passed)
        for records, _, packed in _play(table, explorer, arrays, hands, seed + passed, on_block):
            _, partner_bid, _ = _partner_view(records, packed)
            blind = records.blind == 1
            klass = np.select([partner_bid < 0, partner_bid <= 3, partner_bid <= 5],
                              [0, 1, 2], 3)
            use = blind & (partner_bid != 0)
            np.add.at(blind_bids[passed], klass[use], 1)
            np.add.at(blind_made[passed], klass[use], records.tricks[use] == 0)
    return {"blind_bids": blind_bids, "blind_made": blind_made}


PASS_SEED = 50
"""How far past its seed the pass tables play: ``seed + PASS_SEED + k`` for a pass of k cards
(clear of the rounds' seeds, ``seed + 100 r`` to 13 further, and the race spread's)."""


def pass_counts(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], hands: int,
                seed: int, on_block: Callable[[int], None] | None = None
                ) -> dict[str, np.ndarray]:
    """Nils explored as in run 2 (:func:`nil_counts`, the family's nil weights kept) at a table
    passing k = 1 to 4 cards after a plain nil (``nil_pass``), ``hands`` hands each from seed
    ``seed + PASS_SEED + k``: nils made and bid by context and nil-score bin, a row per k."""
    bids = np.zeros((4, 3, NIL_BINS))
    made = np.zeros((4, 3, NIL_BINS))
    for k in range(1, 5):
        counts = nil_counts(rules.replace(nil_pass=k), strategy, arrays, hands,
                            resolve_seed(seed + PASS_SEED + k), nil_w=arrays["nil_w"],
                            on_block=on_block)
        bids[k - 1], made[k - 1] = counts["nil_bids"], counts["nil_made"]
    return {"pass_bids": bids, "pass_made": made}


def add_pass_tables(name: str, arrays: dict[str, np.ndarray], hands: int, seed: int,
                    on_block: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """A partnership family's ``arrays`` with the pass tables (:func:`pass_counts`) measured by
    the expert bidding from them; every other array as it was."""
    rules = load_preset(FAMILY_PRESETS[name])
    if rules.mode != Mode.PARTNERSHIP:
        raise CalibrationError(f"family={name!r}: allowed a partnership family with "
                               "--nil-pass-hands (a pass needs partners)")
    return {**arrays, **pass_counts(rules, STRATEGIES["expert"], arrays, hands, seed, on_block)}


SPREADS = np.round(np.arange(0.6, 2.51, 0.01), 2)
"""The race-spread factors :func:`win_spread` chooses among."""


def win_spread(rules: RuleSet, strategy: Strategy, arrays: dict[str, np.ndarray], games: int,
               seed: int) -> float:
    """The factor on the per-hand spread that makes the race table (``calibration.win_table``)
    fit the outcomes of ``games`` self-play games best (maximum likelihood over
    :data:`SPREADS`): at the start of every hand, each side's chance to win from the two
    distances to the target, against whether it won.

    A Gaussian race with the per-hand spread is too sure of itself: sets, nils and bag
    penalties give the score changes heavier tails than a normal, so a side far behind comes
    back more often than it says (in standard self-play about 12% from a predicted 7%).
    """
    if rules.side_count != 2 or games <= 0:
        return 1.0
    tables = kernel_tables(arrays, rules)
    table = prepare_table(rules, strategy, tables=tables)
    packed, strat = table.packed_rules, table.packed_strategies
    records, out, _ = drivers.trace_games(rules=packed, strategies=strat, seed=seed,
                                          games=np.arange(games), max_hands=DEFAULT_MAX_HANDS)
    game = out.game.astype(np.int64)
    after = out.score.astype(np.float64)
    before = np.zeros_like(after)
    same = game[1:] == game[:-1]
    before[1:][same] = after[:-1][same]
    winner = records.winner[game]
    finished = winner >= 0
    mu, sigma = float(tables.game[_bid.G_MU]), float(tables.game[_bid.G_SIGMA])
    z_parts: list[np.ndarray] = []
    won_parts: list[np.ndarray] = []
    for side in range(2):
        ours = np.maximum(rules.target - before[finished, side], 0.0)
        theirs = np.maximum(rules.target - before[finished, 1 - side], 0.0)
        hands = np.maximum((ours + theirs) / (2 * mu), 1.0)
        z_parts.append((theirs - ours) / (sigma * np.sqrt(2 * hands)))
        won_parts.append(winner[finished] == side)
    z, won = np.concatenate(z_parts), np.concatenate(won_parts)
    best, best_loglik = 1.0, -np.inf
    for spread in SPREADS:
        p = np.clip(0.5 * (1 + _erf(z / (spread * np.sqrt(2)))), 1e-9, 1 - 1e-9)
        loglik = np.sum(np.where(won, np.log(p), np.log1p(-p)))
        if loglik > best_loglik:
            best, best_loglik = float(spread), loglik
    return best


_erf = np.vectorize(math.erf, otypes=[float])


PRIOR_NIL_W = np.array([-2.5, 2.2, 2.2, 2.2, 1.3, 0.8, 0.0, 0.0, 0.7, 2.0, 1.8, 1.1, 0.6, 0.3,
                        0.2, 0.5, -0.3, 0.2, 0.3])
"""The first round's guess of the nil weights, before any nil has been explored: the logit of a
set nil rises about 2 per unit of the basic policy's nil risk."""


def round_hands(name: str, sizes: Sizes) -> int:
    """Hands one round of family ``name`` plays (blind nils are explored at partnership tables,
    once per number of cards passed)."""
    blind = 4 * sizes.blind_hands if load_preset(FAMILY_PRESETS[name]).mode == Mode.PARTNERSHIP \
        else 0
    return sizes.hands + sizes.nil_hands + blind


SEED_MOST = 2**63 - 1
"""The largest seed of any run (the kernel's counters take 63 bits)."""


def seed_span(rounds: int) -> int:
    """How far past its seed a calibration of ``rounds`` rounds plays seeds: round r from
    ``seed + 100 r`` (its nil and blind-nil runs up to 13 further), the race spread from
    ``seed + 1000`` and ``seed + 1001``."""
    return max(100 * (rounds - 1) + 13, 1001)


def check_seed(seed: int, rounds: int) -> None:
    """Refuse a seed whose later rounds would pass the largest seed: checked before the first
    family is played rather than in round 2 of the last one."""
    most = SEED_MOST - seed_span(rounds)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= most:
        raise CalibrationError(f"seed={seed!r}: allowed a whole number from 0 to {most} (the "
                               f"rounds play seeds up to {seed_span(rounds)} past it)")


def calibrate_family(name: str, rounds: int = ROUNDS, sizes: Sizes = Sizes(), seed: int = 1,
                     on_block: Callable[[int], None] | None = None,
                     on_round: Callable[[int, dict[str, np.ndarray]], None] | None = None,
                     start: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Build one family's tables in ``rounds`` rounds of self-play from seed ``seed`` (round r
    plays seeds from ``seed + 100 r``); returns the arrays of its file.

    Round 0 measures the tricks with the bootstrap strategy (expert-v1's bids, the expert's
    card play), then explores nils and blind nils with the expert bidding from those trick
    tables and a guessed nil model (:data:`PRIOR_NIL_W`); later rounds play the expert
    throughout, bidding from the tables of the round before. With ``start`` (a family's
    arrays, e.g. the shipped ones) every round is an expert round bidding from them.
    """
    if name not in FAMILY_PRESETS:
        raise CalibrationError(f"family={name!r}: allowed " + ", ".join(FAMILY_PRESETS))
    check_seed(seed, rounds)
    rules = load_preset(FAMILY_PRESETS[name])
    arrays = bootstrap_arrays(rules) if start is None else dict(start)
    expert = STRATEGIES["expert"]
    for r in range(rounds):
        base = resolve_seed(seed + 100 * r)
        bootstrap = r == 0 and start is None
        tricks = trick_counts(rules, _bootstrap_strategy() if bootstrap else expert, arrays,
                              sizes.hands, base, on_block=on_block)
        if bootstrap:
            arrays = {**arrays, **tricks, "nil_w": PRIOR_NIL_W,
                      "nil_made": np.zeros_like(arrays["nil_made"]),
                      "nil_bids": np.zeros_like(arrays["nil_bids"])}
        result = {**tricks,
                  **nil_counts(rules, expert, arrays, sizes.nil_hands, base + 1,
                               on_block=on_block),
                  **blind_counts(rules, expert, arrays, sizes.blind_hands, base + 10,
                                 on_block=on_block)}
        if not result["blind_bids"].any():
            result["blind_bids"], result["blind_made"] = (arrays["blind_bids"],
                                                          arrays["blind_made"])
        arrays = result
        if on_round is not None:
            on_round(r, arrays)
    # The race spread from games bidding with these tables; a second fit bids with the first.
    for attempt in range(2):
        arrays["win_spread"] = np.array(win_spread(rules, expert, arrays, sizes.games,
                                                   resolve_seed(seed + 1000 + attempt)))
    arrays["version"] = np.array(__version__)
    arrays["family"] = np.array(name)
    return arrays


INDEX = "tables.toml"
"""The file beside a folder's tables that says how each family's file was made."""


def read_index(folder: str | Path) -> dict[str, Any]:
    """The entries of ``FOLDER/tables.toml`` ({} when there is none): a regular UTF-8 TOML file
    of at most :data:`~spades_sim.inputs.MAX_TEXT_BYTES`, nested at most
    :data:`~spades_sim.inputs.MAX_NESTING` deep. ``calibrate`` reads it before its run, so that
    a folder whose index it could not keep is refused before the hours of self-play.

    :raises CalibrationError: the file is there but cannot be read as such.
    """
    index = Path(folder) / INDEX

    def refuse(allowed: str) -> CalibrationError:
        return CalibrationError(f"out-dir={shown(str(index))!r}: allowed {allowed}")

    if not index.exists() and not index.is_symlink():  # a new folder: no entries yet
        return {}
    return read_toml(index, refuse)


def write_tables(folder: str | Path, name: str, arrays: dict[str, np.ndarray],
                 made_by: dict[str, object]) -> Path:
    """Write ``FOLDER/NAME.npz`` and record ``made_by`` (command, seed, sizes) under ``[NAME]`` in
    ``FOLDER/tables.toml``, keeping the other families' entries; both files are replaced whole
    (:func:`spades_sim.outputs.atomic_path`)."""
    folder = Path(folder)
    path = folder / f"{name}.npz"
    with atomic_path(path, "out-dir") as temporary:
        save_family(arrays, temporary)
    entries = read_index(folder)
    entries[name] = made_by
    text = ("# The calibration tables of the expert bidder: per family, how its file was made.\n"
            "# Rebuild one with the command shown (spades-sim calibrate, docs/strategies.md).\n\n"
            + tomli_w.dumps(dict(sorted(entries.items()))))
    write_text(folder / INDEX, text, "out-dir")
    return path


__all__ = ["FAMILY_PRESETS", "INDEX", "PASS_SEED", "ROUNDS", "SEED_MOST", "Sizes",
           "add_pass_tables", "blind_counts", "calibrate_family", "check_seed", "nil_counts",
           "pass_counts", "read_index", "round_hands", "seed_span", "trick_counts", "write_tables"]
