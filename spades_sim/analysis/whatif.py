"""What-if for one hand: "should I bid nil with these cards?" (``spades-sim hand``).

The seat's cards are fixed, and so is what the table already knows: the score,
the bags, the bids made before the seat's turn. The unknown cards are dealt at
random (:class:`spades_sim.run.deals.Dealer`, uniform over the completions that meet
any constraints), and every completion is played once for each candidate bid —
nil, each count bid, and the strategy's own choice — then the game is played on
to its end with the fixed policies. Where the rules allow blind nil, it is judged
as it is bid, before looking: on deals where the seat's own cards are random too,
against the strategy's own bid on those deals.

Each candidate sees the same completions, the same policy random streams and the
same later deals (common random numbers), so differences between candidates are
paired and their intervals narrow.

The deals are played in blocks through the run machinery
(:func:`spades_sim.run.blocks.run_blocks`): a progress callback sees each block, and Ctrl-C
keeps every deal finished. Deal ``i`` of a seed, and the play after it, are a pure function
of the seed and ``i`` (:mod:`spades_sim.run.deals`: counter-based deal blocks), so a seed
gives the same result whatever the threads and the block size.

>>> from spades_sim.analysis.whatif import what_if
>>> result = what_if("standard", "AS KS QS JS 10S 9S AH KH AD KD AC KC QC", deals=50, seed=1)
>>> float(result.table.set_index("bid").loc["nil", "made"])  # the ace of spades takes a trick
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..cards import parse_cards
from ..intervals import mean_interval, paired_interval, share_interval, wilson_interval
from ..kernel import drivers, engine
from ..kernel.double_dummy import solve_deals
from ..kernel.drivers import what_if_deals
from ..kernel.strategies import DEFAULT_STRATEGY, Strategy
from ..referee.hand import first_leader
from ..referee.scoring import blind_bid_refusal
from ..rules import BlindNil, RuleSet, resolve_rules
from ..run import deals as _deals
from ..run.blocks import Block, Table, block_starts, prepare_table, run_blocks
from ..run.deals import Dealer, SuitCount, check_deal_count, deal_block_seed
from ..run.simulate import DEFAULT_MAX_HANDS, resolve_seed, set_threads
from .figures import error_bars, percent_ticks, plain_text, pyplot, save
from .hand_inputs import bid_code, bid_name, is_bid_code

BLOCK_DEALS = _deals.DEAL_BLOCK
"""Deals a block of a what-if plays (a whole number of deal blocks; the result does not
depend on it)."""
POLICY_LABEL = "strategy's choice"
UNSEEN = ", unseen"
"""The end of the label of a row played on random cards of the seat: a bid made before looking
(blind nil, a blind bid)."""
BLIND_LABEL = "blind nil" + UNSEEN
"""The blind-nil row: played on random cards of the seat (it is bid before looking)."""


class WhatIfError(ValueError):
    """A hand, score, bag count or bid that does not fit the table."""


@dataclass
class WhatIf:
    """What :func:`what_if` found: one row per candidate bid in ``table``."""

    rules: RuleSet
    seat: int
    hand: tuple[int, ...]
    dealer: int
    hand_index: int
    score: tuple[int, ...]
    bags: tuple[int, ...]
    known_bids: dict[int, int]
    seed: int
    deals: int
    table: pd.DataFrame
    """``bid``, ``deals``, ``made`` (``made_low``, ``made_high``), ``points`` (``points_low``,
    ``points_high``), ``win`` (``win_low``, ``win_high``) and ``win_change`` against the
    strategy's choice with its paired interval (``change_low``, ``change_high``)."""
    choices: pd.Series
    """How often the strategy itself bid each bid on these deals."""
    refused: list[str]
    """Candidates the rules do not allow here."""
    interrupted: bool = False
    """Ctrl-C stopped the run: each row holds the deals it finished (its ``deals``)."""
    constraints: tuple[SuitCount, ...] = ()
    """The constraints the deals met."""
    own_bids: np.ndarray | None = None
    """Per deal played with the seat's cards, in deal order: the bid the strategy made (int8
    kernel codes: 0 nil, ``engine.BLIND_BID`` blind nil, ``engine.BLIND_COUNT_BID + n`` n
    bid blind)."""
    own_made: np.ndarray | None = None
    """Per deal likewise: 1 when the seat's side made its contract under the strategy's own
    bid (its nil, for a nil), else 0."""
    sets: tuple[int, ...] = ()
    """Each side's contracts set before this hand (``sets_to_lose``)."""

    @property
    def best(self) -> str:
        """The candidate with the highest chance to win the game (then the most points) among
        the bids open to a seat that has seen its cards (so never blind nil or a blind bid)."""
        bids = self.table[(self.table["bid"] != POLICY_LABEL)
                          & ~self.table["bid"].str.endswith(UNSEEN)]
        return str(bids.sort_values(["win", "points"], ascending=False)["bid"].iloc[0])


def _bids_text(known: dict[int, int]) -> str:
    return ",".join(f"{seat}:{bid_name(code)}" for seat, code in known.items())


def _dealer_for(rules: RuleSet, first_bid_offset: int, seat: int, known: dict[int, int],
                dealer: int | None) -> int:
    """The dealer that puts the known bids just before the seat's turn (or check the one given)."""
    n = rules.seat_count
    if dealer is None:
        dealer = (seat - len(known) - first_bid_offset) % n
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise WhatIfError(f"dealer={dealer!r}: allowed 0 to {n - 1}")
    order = [(dealer + first_bid_offset + k) % n for k in range(n)]
    before = order[:order.index(seat)]
    if set(known) != set(before):
        given = _bids_text(known)
        allowed = (f"the bids of seats {', '.join(map(str, before))}" if before
                   else f"none: seat {seat} bids first")
        raise WhatIfError(f"bids={given!r}: allowed {allowed} (seat {seat}'s turn to bid, "
                          f"dealer {dealer})")
    return dealer


def deal_passes(rules: RuleSet) -> int:
    """How many times :func:`what_if` plays its deals under ``rules``: once with the seat's
    cards, and once more on unseen cards where blind nil or blind bids may be bid (its
    ``on_block`` counts the deals of every pass)."""
    return 1 if rules.blind_nil == BlindNil.OFF and rules.blind_bid_threshold is None else 2


def _unseen_candidates(rules: RuleSet, side: int, score: Sequence[int]) -> list[int]:
    """The bids judged before looking: blind nil where the rules have it, and with blind bids
    every number a blind bid may take when the seat's side is far enough behind to bid blind,
    else only the lowest (so that the table says it is refused). A count its partner's bid or a
    bidding bound forbids is reported as refused."""
    unseen = [] if rules.blind_nil == BlindNil.OFF else [engine.BLIND_BID]
    if rules.blind_bid_threshold is not None:
        top = rules.hand_size if blind_bid_refusal(rules, side, score) is None else rules.blind_bid_min
        unseen += [engine.BLIND_COUNT_BID + count for count in range(rules.blind_bid_min, top + 1)]
    return unseen


def what_if(raw_rules: str | RuleSet, hand: str | Sequence[int], seat: int = 0,
            strategies: str | Strategy | Sequence[str | Strategy] = DEFAULT_STRATEGY,
            score: Sequence[int] | None = None,
            bags: Sequence[int] | None = None, bids: dict[int, int] | None = None,
            dealer: int | None = None, hand_index: int | None = None, deals: int = 1000,
            seed: int | None = None, threads: int | None = None,
            constraints: Sequence[SuitCount] = (),
            max_hands: int = DEFAULT_MAX_HANDS,
            on_block: Callable[[int], None] | None = None,
            sets: Sequence[int] | None = None) -> WhatIf:
    """Play ``deals`` random completions of the seat's ``hand`` once per candidate bid.

    ``score``, ``bags`` and ``sets`` (contracts set so far, under ``sets_to_lose``) are per
    side (default 0); ``bids`` the bids already made
    ({seat: code}, see :func:`bid_code`), which must be those of the seats before
    ``seat`` (with ``dealer`` None the dealer is chosen so that they are);
    ``hand_index`` is the number of hands already played (default: 0 at 0–0, else 1).
    ``on_block(k)`` is called with the number of deals each block played, in every pass
    (:func:`deal_passes`).
    """
    rules = resolve_rules(raw_rules)
    n, sides = rules.seat_count, rules.side_count
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise WhatIfError(f"seat={seat!r}: allowed 0 to {n - 1}")
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    if len(cards) != rules.hand_size:
        raise WhatIfError(f"hand={len(cards)} cards: allowed {rules.hand_size} (a hand of "
                          f"{rules.name})")
    score = tuple(score) if score is not None else (0,) * sides
    bags = tuple(bags) if bags is not None else (0,) * sides
    sets = tuple(sets) if sets is not None else (0,) * sides
    for field, values, low, high in (("score", score, -100_000, 100_000),
                                     ("bags", bags, 0, max(rules.bag_limit - 1, 0)),
                                     ("sets", sets, 0, max(rules.sets_to_lose - 1, 0))):
        if len(values) != sides or not all(low <= v <= high for v in values):
            raise WhatIfError(f"{field}={list(values)!r}: allowed {sides} values from {low} to "
                              f"{high}")
    dealer_of_deals = Dealer(rules, {seat: cards}, constraints)
    packed = dealer_of_deals.packed
    known = dict(bids or {})
    if any(not is_bid_code(code, rules) for code in known.values()):
        raise WhatIfError(f"bids={_bids_text(known)!r}: allowed bids from 0 to "
                          f"{rules.hand_size}, nil, blind or blindN")
    dealer = _dealer_for(rules, packed.first_bid_offset, seat, known, dealer)
    if hand_index is None:
        hand_index = 0 if not any(score) and not any(bags) and not any(sets) else 1
    if isinstance(hand_index, bool) or not isinstance(hand_index, int) or not (
            0 <= hand_index < max_hands):
        raise WhatIfError(f"hands-played={hand_index!r}: allowed 0 to {max_hands - 1} (a game "
                          f"stops after {max_hands} hands)")
    seed = resolve_seed(seed)
    check_deal_count(deals)
    set_threads(threads)
    table = prepare_table(rules, strategies)
    forced = np.full(n, engine.FREE_BID, np.int64)
    for other, code in known.items():
        forced[other] = code
    setting = _Setting(table, seed, dealer, hand_index, seat, forced, score, bags, sets,
                       max_hands)

    candidates = [engine.FREE_BID, *range(rules.hand_size + 1)]
    (*played, hero_bid), interrupted = _play_pass(setting, dealer_of_deals, candidates, deals,
                                                   on_block)
    if not len(hero_bid):
        raise KeyboardInterrupt  # Ctrl-C before any deal was played: nothing to show
    made, points, won, valid = played
    if not valid[:, 0].all():
        raise WhatIfError(f"bids={_bids_text(known)!r}: allowed bids the rules permit at this "
                          "table")
    rows, refused = _rows(candidates, made, points, won, valid)
    unseen = _unseen_candidates(rules, rules.seat_side(seat), score)
    if deal_passes(rules) > 1 and not interrupted:
        # Blind nil and blind bids are bid before looking, so judging them with these cards
        # would be hindsight: they are played on deals where the seat's own cards are random
        # too, against the strategy's own bid on those same deals.
        blind = [engine.FREE_BID, *unseen]
        (*played, _), interrupted = _play_pass(setting, Dealer(rules, {}, constraints), blind,
                                               deals, on_block)
        if len(played[0]):
            blind_rows, blind_refused = _rows(blind, *played)
            rows[1:1] = [dict(row, bid=str(row["bid"]) + UNSEEN) for row in blind_rows[1:]]
            refused[:0] = blind_refused
    finished = len(hero_bid)
    choices = pd.Series([bid_name(int(code)) for code in hero_bid[:, 0]]).value_counts()
    return WhatIf(rules, seat, tuple(cards), dealer, hand_index, tuple(score), tuple(bags), known,
                  seed, deals, pd.DataFrame(rows), choices / finished, refused, interrupted,
                  tuple(constraints), hero_bid[:, 0].copy(), made[:, 0].copy(), sets)


@dataclass(frozen=True)
class _Setting:
    """What every deal of a what-if is played from: the table, the seed and the hand's state."""

    table: Table
    seed: int
    dealer: int
    hand_index: int
    hero: int
    forced: np.ndarray
    score: tuple[int, ...]
    bags: tuple[int, ...]
    sets: tuple[int, ...]
    max_hands: int


def _play_pass(setting: _Setting, dealer_of_deals: Dealer, candidates: list[int], deals: int,
               on_block: Callable[[int], None] | None) -> tuple[list[np.ndarray], bool]:
    """Every candidate on deals ``0 … deals - 1`` of ``dealer_of_deals``, block by block: the
    rows (made, points, won, valid, hero_bid) of every deal finished, and whether Ctrl-C cut
    the pass short."""
    parts: list[list[np.ndarray]] = []
    ending = run_blocks(_blocks(setting, dealer_of_deals, candidates, deals),
                        lambda block: parts.append(block.result), on_block)
    columns = [np.concatenate(column) for column in zip(*parts)] if parts else [
        np.zeros((0, len(candidates)), np.int8) for _ in range(5)]
    return columns, ending.interrupted


def _blocks(setting: _Setting, dealer_of_deals: Dealer, candidates: list[int],
            deals: int) -> Iterator[Block]:
    """Deal and play each block of a pass; yield its finished rows (with Ctrl-C held, so the
    block is counted whole). A block cut short by Ctrl-C yields the deals it finished, then
    ends the pass.

    Each deal block is one call of the kernel, keyed by its own seed (:func:`deal_block_seed`):
    the kernel keys the play after deal ``r`` of a call by ``r``, so deal ``i`` is played the
    same way whatever block it is in.
    """
    deal_block = _deals.DEAL_BLOCK
    if BLOCK_DEALS % deal_block:
        raise ValueError(f"BLOCK_DEALS={BLOCK_DEALS}: allowed a multiple of {deal_block}")
    packed, strat = setting.table.packed_rules, setting.table.packed_strategies
    for start in block_starts(deals, BLOCK_DEALS):
        stop = min(start + BLOCK_DEALS, deals)
        parts, cut = [], False
        for first in range(start, stop, deal_block):
            dealt = dealer_of_deals.deal(min(deal_block, stop - first), setting.seed, first)
            *values, finished, interrupted = what_if_deals(
                rules=packed, strategies=strat, seed=deal_block_seed(setting.seed,
                                                                     first // deal_block),
                deals=dealt, dealer=setting.dealer, hand_index=setting.hand_index,
                hero=setting.hero, forced_bids=setting.forced, candidates=candidates,
                score=setting.score, bag_total=setting.bags, max_hands=setting.max_hands,
                sets=setting.sets)
            parts.append([value[finished] for value in values])
            if interrupted:  # Ctrl-C: the driver kept the rows it finished, maybe all of them
                cut = True
                break
        rows = [np.concatenate(column) for column in zip(*parts)]
        with drivers.interrupts_held():  # a block is counted whole or not at all
            if len(rows[0]):
                yield Block(start, len(rows[0]), rows)
        if cut:
            raise KeyboardInterrupt


def _rows(candidates: Sequence[int], made: np.ndarray, points: np.ndarray, won: np.ndarray,
          valid: np.ndarray) -> tuple[list[dict[str, object]], list[str]]:
    """One table row per candidate the rules allowed on every deal played (the first, the
    strategy's own choice, is the reference of the paired change), and the names of the
    others."""
    deals = made.shape[0]
    win = np.where(won < 0, 0.5, won).astype(np.float64)
    rows, refused = [], []
    for j, code in enumerate(candidates):
        if not valid[:, j].all():
            refused.append(bid_name(code))
            continue
        m = int(made[:, j].sum())
        made_low, made_high = wilson_interval(m, deals)
        p = points[:, j].astype(np.float64)
        mean_points, points_low, points_high = mean_interval(float(p.sum()), float((p * p).sum()),
                                                             deals)
        w = win[:, j]
        mean_win, win_low, win_high = share_interval(w)  # inside [0, 1]
        change, change_low, change_high = paired_interval(w - win[:, 0])
        rows.append({
            "bid": POLICY_LABEL if code == engine.FREE_BID else bid_name(code), "deals": deals,
            "made": m / deals, "made_low": made_low, "made_high": made_high,
            "points": mean_points, "points_low": points_low, "points_high": points_high,
            "win": mean_win, "win_low": max(win_low, 0.0), "win_high": min(win_high, 1.0),
            "win_change": change, "change_low": change_low, "change_high": change_high,
        })
    return rows, refused


@plain_text
def plot_what_if(result: WhatIf, title: str, path: str) -> None:
    """Per candidate bid: the chance it is made, and the change in the chance to win the game
    against the strategy's own choice, each with 95% error bars; PNG or SVG by the name."""
    plt = pyplot()
    table = result.table[result.table["bid"] != POLICY_LABEL]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 6), sharex=True, layout="constrained")
    x = np.arange(len(table))
    made = 100 * table["made"].to_numpy(np.float64)
    top.bar(x, made, color="#3b6ea8")
    top.errorbar(x, made, yerr=error_bars(made, 100 * table["made_low"],
                                          100 * table["made_high"]),
                 fmt="none", ecolor="black", capsize=3)
    top.set_ylabel("bid made")
    top.set_ylim(0, 100)
    percent_ticks(top.yaxis)
    top.set_title("the chance the bid is made, with its 95% interval", fontsize=9)
    change = 100 * table["win_change"].to_numpy(np.float64)
    best = table["bid"].to_numpy() == result.best
    bottom.bar(x, change, color=np.where(best, "#2e8b57", "#c26b2b"))
    bottom.errorbar(x, change, yerr=error_bars(change, 100 * table["change_low"],
                                               100 * table["change_high"]),
                    fmt="none", ecolor="black", capsize=3)
    bottom.axhline(0, color="grey", linewidth=0.8)
    bottom.set_ylabel("percentage points")
    bottom.set_title("the change in the chance to win the game against the strategy's own bid, "
                     "paired 95% interval", fontsize=9)
    # One word a line, so that "blind nil, unseen" does not run into its neighbours.
    bottom.set_xticks(x, [bid.replace(", ", "\n") for bid in table["bid"]], fontsize=8)
    for label, is_best in zip(bottom.get_xticklabels(), best):
        if is_best:
            label.set_color("#2e8b57")
            label.set_fontweight("bold")
    own = ", ".join(f"{bid} ({100 * share:.0f}%)" for bid, share in result.choices.items())
    bottom.set_xlabel(f"bid of seat {result.seat} (green: the best, {result.best}; the "
                      f"strategy's own: {own})")
    fig.suptitle(title, fontsize=9)
    save(fig, path)


@dataclass
class DoubleDummyView:
    """The double-dummy tricks of the seat's side over the deals of a what-if
    (:func:`what_if_double_dummy`)."""

    side: int
    deals: int
    tricks: np.ndarray
    """Per deal, in deal order: the side's double-dummy tricks with the rules' first leader."""
    table: pd.DataFrame
    """Per trick count: ``tricks``, ``deals``, ``share``, ``at_least`` (the share of deals with
    at least so many), ``own_bid`` (the strategy's mean own bid on those deals, nil 0, blind nil
    left out), ``own_made`` (the share of them on which the side made its contract under the
    strategy's own bid)."""
    mean: tuple[float, float, float]
    """The mean tricks with its 95% interval."""


def what_if_double_dummy(result: WhatIf, threads: int | None = None) -> DoubleDummyView:
    """The double-dummy tricks of the seat's side on every deal the what-if played with the
    seat's cards (the same deals: deal ``i`` of the seed, the constraints met), the rules' first
    leader leading, beside what the strategy bid and made on each of them."""
    rules = result.rules
    assert result.own_bids is not None and result.own_made is not None
    count = len(result.own_bids)
    dealer = Dealer(rules, {result.seat: result.hand}, result.constraints)
    dealt = dealer.deal(count, result.seed, 0)
    hands = [dealer.hands(row) for row in dealt]
    masks = np.array([[sum(1 << card for card in held) for held in deal] for deal in hands],
                     np.uint64)
    leaders = np.array([first_leader(rules, result.dealer, [set(held) for held in deal])
                        for deal in hands], np.int64)
    side = rules.seat_side(result.seat)
    tricks = np.asarray(solve_deals(rules, masks, leaders, side, threads=threads), np.int64)
    own_bids = result.own_bids.astype(np.int64)
    counted = own_bids != engine.BLIND_BID
    own_bids = np.where(own_bids > engine.BLIND_COUNT_BID, own_bids - engine.BLIND_COUNT_BID,
                        own_bids)  # a blind bid counts its number
    rows = []
    for k in range(int(tricks.min()), int(tricks.max()) + 1):
        here = tricks == k
        n = int(here.sum())
        bids_here = own_bids[here & counted]
        rows.append({"tricks": k, "deals": n, "share": n / count,
                     "at_least": float((tricks >= k).mean()),
                     "own_bid": float(bids_here.mean()) if len(bids_here) else float("nan"),
                     "own_made": float(result.own_made[here].mean()) if n else float("nan")})
    t = tricks.astype(np.float64)
    mean = mean_interval(float(t.sum()), float((t * t).sum()), count)
    return DoubleDummyView(side, count, tricks, pd.DataFrame(rows), mean)


def double_dummy_text(result: WhatIf, view: DoubleDummyView) -> str:
    """The double-dummy view of :func:`what_if_double_dummy` as text."""
    rules = result.rules
    seats = "+".join(str(s) for s in range(rules.seat_count) if rules.seat_side(s) == view.side)
    mean, low, high = view.mean
    lines = [f"double-dummy tricks of side {view.side} (seat{'s' if '+' in seats else ''} "
             f"{seats}) over the {view.deals:,} deals, every card visible, the first leader "
             f"leading: mean {mean:.2f} [{low:.2f}, {high:.2f}]",
             f"{'tricks':>6} {'deals':>7} {'share':>7} {'at least':>8}   {'own bid':>7} "
             f"{'own made':>8}"]
    for row in view.table.to_dict("records"):
        bid = "-" if np.isnan(row["own_bid"]) else f"{row['own_bid']:.2f}"
        made = "-" if np.isnan(row["own_made"]) else f"{100 * row['own_made']:.1f}%"
        lines.append(f"{row['tricks']:>6} {row['deals']:>7,} {100 * row['share']:>6.1f}% "
                     f"{100 * row['at_least']:>7.1f}%   {bid:>7} {made:>8}")
    lines.append("own bid: the strategy's mean bid on those deals (nil 0); own made: how often "
                 "its side made its contract (a nil: the nil) under that bid")
    return "\n".join(lines)


__all__ = ["BLOCK_DEALS", "DoubleDummyView", "WhatIf", "WhatIfError", "bid_code", "bid_name",
           "deal_passes", "double_dummy_text", "plot_what_if",
           "what_if", "what_if_double_dummy"]
