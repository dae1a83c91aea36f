"""Calibration tables of the expert bidder: what they hold, where they live, how they are packed.

The expert judges a bid by its expected value under the table's rules, from
distributions the project measures in its own self-play (``spades_sim.analysis.calibrate``
builds them; ``spades-sim calibrate`` runs it). Tables depend on the cards and the
table, not on the scoring: one *family* per table mode and deck
(``partnership-standard``, ``solo-standard``, ``five-player-jokers``, ...). The
shipped families live in ``data/calibration/`` as ``FAMILY.npz`` (counts, so every
cell keeps its sample size) beside ``tables.toml`` (the command and seed that made
each one). A rule set whose family is not shipped uses its mode's table of the
standard deck: the features count cards from the top of each suit, so they carry
across decks (``tests/test_calibration.py`` measures how far).

:func:`pack_tables` turns a family's tables and a rule set into the kernel's
:class:`~spades_sim.kernel.expert_bid.BidTables`, adding the two tables that depend
on the rules: the expected future bag penalties and the chance to win a race to the
target.
"""

from __future__ import annotations

import io
import math
import tomllib
import zipfile
import zlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..inputs import MAX_TABLES_BYTES, read_bytes
from ..outputs import shown
from ..rules import Deck, RuleSet
from . import expert_bid as _bid

WIN_STEP = 10.0
"""Width of a bin of points to go in ``win``."""
WIN_BINS = 150
"""Bins of points to go in ``win`` (up to 1,500; further counts as 1,500)."""
WIN_LAYERS = 30
"""Hands-left layers of ``win`` under a hand limit (more hands left use the last)."""
STRENGTH_BINS_PER_TRICK = int(round(1 / _bid.STRENGTH_STEP))

COUNT_ARRAYS = ("own", "joint", "cover", "nil_made", "nil_bids", "blind_made", "blind_bids")
"""The count tables a family file holds (besides weights and game figures)."""
PASS_ARRAYS = ("pass_made", "pass_bids")
"""The count tables of nils with a card pass (``nil_pass`` 1 to 4, a row each, shaped as
``nil_made``), which a partnership family's file may hold besides (``calibrate --nil-pass-only``)."""


def nil_counts_for(arrays: dict[str, np.ndarray], rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """The nils made and bid (by context and nil-score bin) that ``rules`` bid from: the row of
    its ``nil_pass`` when the family's file has the pass tables, else the plain nil's."""
    if rules.nil_pass and PASS_ARRAYS[1] in arrays:
        row = rules.nil_pass - 1
        return arrays[PASS_ARRAYS[0]][row], arrays[PASS_ARRAYS[1]][row]
    return arrays["nil_made"], arrays["nil_bids"]


def family(rules: RuleSet) -> str:
    """The calibration family of a rule set: its table mode and deck.

    >>> family(RuleSet())
    'partnership-standard'
    """
    return f"{rules.mode}-{rules.deck}"


def _data_dir() -> resources.abc.Traversable:
    return resources.files("spades_sim.calibration_data")


def shipped_families() -> list[str]:
    """The families with shipped tables."""
    return sorted(entry.name.removesuffix(".npz") for entry in _data_dir().iterdir()
                  if entry.name.endswith(".npz"))


def provenance() -> dict:
    """``tables.toml``: per family, the command, seed and sizes that made its tables."""
    return tomllib.loads(_data_dir().joinpath("tables.toml").read_text(encoding="utf-8"))


class CalibrationError(ValueError):
    """Missing or unreadable calibration tables."""


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return shown(lines[0] if lines else type(error).__name__, 120)


def load_family(name: str, folder: str | Path | None = None) -> dict[str, np.ndarray]:
    """The arrays of one family's file (from ``folder``, default the shipped tables); a file in
    ``folder`` is a regular file of at most :data:`~spades_sim.inputs.MAX_TABLES_BYTES`."""
    if folder is not None:
        path = Path(folder) / f"{name}.npz"

        def refuse(allowed: str) -> CalibrationError:
            return CalibrationError(f"tables={shown(path)!r}: allowed {allowed}")

        try:
            data = read_bytes(path, refuse, MAX_TABLES_BYTES)
        except FileNotFoundError:
            raise CalibrationError(f"family={name!r}: allowed a family with a file in {folder}"
                                   ) from None
        except OSError as error:
            raise refuse(f"a readable file ({error.strerror})") from None
    else:
        entry = _data_dir().joinpath(f"{name}.npz")
        if not entry.is_file():
            raise CalibrationError(f"family={name!r}: allowed " + ", ".join(shipped_families()))
        data = entry.read_bytes()
    try:
        # allow_pickle=False: a table file holds numbers only, never objects to unpickle.
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            return {key: arrays[key] for key in arrays.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error, KeyError) as error:
        raise CalibrationError(f"family={name!r}: allowed a file of calibration tables, as "
                               f"calibrate writes ({_first_line(error)})") from None


def save_family(arrays: dict[str, np.ndarray], path: str | Path) -> None:
    """Write one family's arrays (compressed ``.npz``)."""
    buffer = io.BytesIO()
    # numpy's stubs read a ** mapping as possibly holding allow_pickle; these keys are table names
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    Path(path).write_bytes(buffer.getvalue())


def _fallback_family(rules: RuleSet) -> str:
    """The shipped family a rule set uses: its own, else its mode's with the standard deck."""
    names = shipped_families()
    own = family(rules)
    if own in names:
        return own
    same_mode = f"{rules.mode}-{Deck.STANDARD}"
    if same_mode in names:
        return same_mode
    raise CalibrationError(f"mode={str(rules.mode)!r}: allowed a table mode with calibration "
                           "tables (" + ", ".join(names) + ")")


def probabilities(counts: np.ndarray) -> np.ndarray:
    """Normalise counts along the last axis (rows with no count stay 0)."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = counts.sum(axis=-1, keepdims=True)
    return np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)


def kernel_tables(arrays: dict[str, np.ndarray], rules: RuleSet) -> _bid.BidTables:
    """Pack a family's arrays (counts) for ``rules`` into BidTables, smoothing the counts into
    distributions (:func:`smooth_own`, :func:`smooth_joint`, :func:`smooth_cover`,
    :func:`nil_chances` of :func:`nil_counts_for`, :func:`blind_chances`)."""
    game = np.zeros(_bid.GAME_SLOTS)
    game[:_bid.CALIBRATED_SLOTS] = arrays["game"][:_bid.CALIBRATED_SLOTS]
    game[_bid.G_WIN_STEP] = WIN_STEP
    own = smooth_own(arrays["own"])
    return contiguous(_bid.BidTables(
        strength_w=np.ascontiguousarray(arrays["strength_w"], dtype=np.float64),
        nil_w=np.ascontiguousarray(arrays["nil_w"], dtype=np.float64),
        own=trimmed(own),
        joint=trimmed(smooth_joint(arrays["joint"], own)),
        cover=trimmed(smooth_cover(arrays["cover"])),
        nil=nil_chances(*nil_counts_for(arrays, rules), float(game[_bid.G_NIL_LOW]),
                        float(game[_bid.G_NIL_STEP])),
        blind=blind_chances(arrays["blind_made"], arrays["blind_bids"]),
        game=game,
        bag_steps=bag_steps_table(rules.bag_limit, rules.bag_penalty, rules.hand_size,
                                  float(game[_bid.G_BAGS])),
        win=win_table(rules, float(game[_bid.G_MU]),
                      float(game[_bid.G_SIGMA]) * float(arrays.get("win_spread", 1.0))),
    ))


def contiguous(tables: _bid.BidTables) -> _bid.BidTables:
    """``tables`` with every array C-contiguous: numba compiles the whole kernel once per array
    layout it is handed, so one layout keeps it to one compile."""
    return _bid.BidTables._make(np.ascontiguousarray(a) for a in tables)


TAIL = 1e-3
"""Trick counts less likely than this are dropped from a distribution (and the rest scaled up):
a bid's value then sums over fewer outcomes, and changes by far less than its interval."""


def trimmed(distributions: np.ndarray) -> np.ndarray:
    """Distributions (last axis) with outcomes below TAIL set to 0 and renormalised."""
    kept = np.where(distributions >= TAIL, distributions, 0.0)
    return probabilities(kept)


MIN_COUNT = 40
"""Samples a smoothed distribution needs before it stands on its own."""
_NEIGHBOURS = np.array([1.0, 2.0, 3.0, 2.0, 1.0])  # strength bins -2 … +2


def _pool_bins(counts: np.ndarray) -> np.ndarray:
    """Counts pooled over neighbouring strength bins (axis -2), weights 1 2 3 2 1. The pooling
    is symmetric, so a bin's mean moves little (a bin is a quarter of a trick)."""
    padded = np.pad(counts, [(0, 0)] * (counts.ndim - 2) + [(2, 2), (0, 0)])
    bins = counts.shape[-2]
    return sum(w * padded[..., d:d + bins, :] for d, w in enumerate(_NEIGHBOURS))


def _shift(row: np.ndarray, steps: int) -> np.ndarray:
    """A trick distribution moved ``steps`` tricks up (down when negative), the ends piling up."""
    out = np.zeros_like(row)
    top = len(row) - 1
    for k, p in enumerate(row):
        out[min(max(k + steps, 0), top)] += p
    return out


def _fill_thin(pooled: np.ndarray, backup: np.ndarray | None = None) -> np.ndarray:
    """Rows (strength bins) of one context: a row with fewer than MIN_COUNT samples is blended
    with ``backup`` (same bins, e.g. all positions pooled), and a row still empty borrows the
    nearest filled row, shifted by the strength difference."""
    rows = pooled.copy()
    totals = rows.sum(axis=1)
    if backup is not None:
        thin = totals < MIN_COUNT
        rows[thin] += backup[thin] * (MIN_COUNT - totals[thin])[:, None] / np.maximum(
            backup[thin].sum(axis=1), 1)[:, None]
    filled = np.flatnonzero(rows.sum(axis=1) > 0)
    if filled.size == 0:
        return np.full(rows.shape, 1.0 / rows.shape[1])
    for b in np.flatnonzero(rows.sum(axis=1) == 0):
        near = filled[np.argmin(np.abs(filled - b))]
        rows[b] = _shift(rows[near], int(round((b - near) * _bid.STRENGTH_STEP)))
    return probabilities(rows)


def smooth_own(counts: np.ndarray) -> np.ndarray:
    """``own[ctx, position, bin]``: pooled over neighbouring bins, thin cells helped by the
    context's other positions."""
    pooled = _pool_bins(counts)
    every_position = pooled.sum(axis=1)
    out = np.empty_like(pooled)
    for ctx in range(counts.shape[0]):
        for position in range(counts.shape[1]):
            out[ctx, position] = _fill_thin(pooled[ctx, position], every_position[ctx])
    return out


def _normal_row(mean: float, sd: float, size: int) -> np.ndarray:
    k = np.arange(size)
    row = np.exp(-0.5 * ((k - mean) / sd) ** 2)
    return row / row.sum()


def smooth_joint(counts: np.ndarray, own: np.ndarray) -> np.ndarray:
    """``joint[position - 2, bin, partner's bid]``: pooled over neighbouring bins and partner's
    bids (a bid one higher shifts the side's tricks one up); a cell with too few samples is
    blended with a normal shape around the seat's own mean tricks plus the partner's bid."""
    pooled = _pool_bins(counts)
    sides, bins, bids, tricks = counts.shape
    out = np.empty(counts.shape)
    own_means = (own[_bid.CTX_PARTNER_LATER].mean(axis=0) * np.arange(own.shape[-1])).sum(axis=1)
    for side in range(sides):
        for b in range(bins):
            for p in range(bids):
                row = 3 * pooled[side, b, p]
                if p > 1:
                    row = row + _shift(pooled[side, b, p - 1], 1)
                if p + 1 < bids:
                    row = row + _shift(pooled[side, b, p + 1], -1)
                total = row.sum()
                if total < MIN_COUNT * 3:
                    mean = own_means[min(b, len(own_means) - 1)] + p
                    row = row + _normal_row(mean, 1.6, tricks) * (MIN_COUNT * 3 - total)
                out[side, b, p] = row / row.sum()
    return out


def smooth_cover(counts: np.ndarray) -> np.ndarray:
    """``cover[partner's bid]``: the partner's own tricks, helped by neighbouring bids when thin."""
    out = np.empty(counts.shape)
    bids, tricks = counts.shape
    for p in range(bids):
        row = 3 * counts[p]
        if p > 1:
            row = row + _shift(counts[p - 1], 1)
        if p + 1 < bids:
            row = row + _shift(counts[p + 1], -1)
        total = row.sum()
        if total < MIN_COUNT * 3:
            row = row + _normal_row(p + 0.3, 1.4, tricks) * (MIN_COUNT * 3 - total)
        out[p] = row / row.sum()
    return out


def _decreasing(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted least-squares non-increasing fit of ``values`` (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for value, weight in zip(values, weights):
        blocks.append([float(value), float(weight), 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            mean, weight_b, length_b = blocks.pop()
            a = blocks[-1]
            total = a[1] + weight_b
            a[0] = (a[0] * a[1] + mean * weight_b) / total
            a[1] = total
            a[2] += length_b
    return np.concatenate([np.full(length, mean) for mean, _, length in blocks])


NIL_PRIOR = 20.0
"""Weight (in nils) of the logistic model's chance in a nil bin."""


def nil_chances(made: np.ndarray, bids: np.ndarray, low: float, step: float) -> np.ndarray:
    """``nil[ctx, bin]``: nils made over nils bid, each bin helped by NIL_PRIOR nils at the
    logistic model's own chance (the score is the logit of a set) and made non-increasing in
    the score."""
    z = low + step * np.arange(made.shape[1])
    model = 1.0 / (1.0 + np.exp(z))
    out = np.empty(made.shape)
    for ctx in range(made.shape[0]):
        chance = (made[ctx] + NIL_PRIOR * model) / (bids[ctx] + NIL_PRIOR)
        out[ctx] = _decreasing(chance, bids[ctx] + NIL_PRIOR)
    return out


BLIND_PRIOR = 20.0
"""Weight (in blind nils) of a cards-passed row's overall rate in each of its cells."""


def blind_chances(made: np.ndarray, bids: np.ndarray) -> np.ndarray:
    """``blind[cards passed, partner's bid class]``: blind nils made over bid, each cell helped by
    BLIND_PRIOR blind nils at its row's overall rate."""
    out = np.empty(made.shape)
    for passed in range(made.shape[0]):
        overall = made[passed].sum() / bids[passed].sum() if bids[passed].sum() else 0.2
        out[passed] = (made[passed] + BLIND_PRIOR * overall) / (bids[passed] + BLIND_PRIOR)
    return out


@lru_cache(maxsize=64)
def _packed_for(rules: RuleSet) -> _bid.BidTables:
    return kernel_tables(load_family(_fallback_family(rules)), rules)


def pack_tables(rules: RuleSet) -> _bid.BidTables:
    """The kernel's tables for ``rules``: its family's shipped tables (or its mode's, for a
    deck without its own), with the rule-dependent tables added."""
    return _packed_for(rules)


@lru_cache(maxsize=64)
def bag_steps_table(bag_limit: int, bag_penalty: int, hand_size: int,
                    bags_per_hand: float) -> np.ndarray:
    """``table[h, r, j]``: the rise in expected bag penalties, in points, when a side carrying ``r``
    bags takes ``j`` more with ``h + 1`` hands still to come.

    The penalty crossed at once counts in full; after that, the side is taken to collect a
    Poisson number of bags, ``bags_per_hand`` a hand, and each ``bag_limit`` of them costs
    ``bag_penalty``: ``penalty × (⌊(r + j)/L⌋ + G[(r + j) mod L] − G[r])`` with
    ``G[t] = E⌊(t + X)/L⌋``. With no penalty the table is one row of zeros.

    >>> table = bag_steps_table(10, 100, 13, 1.0)
    >>> # The tenth bag: the penalty now, less the chance 1 - 1/e that the hand to come (one
    >>> # bag a hand) would have brought it anyway.
    >>> round(float(table[0, 9, 1]), 2)
    36.79
    >>> 0 < float(table[0, 0, 1]) < float(table[29, 0, 1]) < 100  # a bag costs more later on
    True
    """
    if bag_penalty == 0:
        return np.zeros((_bid.HORIZONS, 1, hand_size + 1))
    most = 200
    lambdas = (np.arange(_bid.HORIZONS) + 1) * bags_per_hand
    pmf = np.zeros((_bid.HORIZONS, most + 1))
    pmf[:, 0] = np.exp(-lambdas)
    for x in range(1, most + 1):
        pmf[:, x] = pmf[:, x - 1] * lambdas / x
    rests = np.arange(bag_limit)
    expected = pmf @ ((rests[:, None] + np.arange(most + 1)[None, :]) // bag_limit).T  # G[h, t]
    total = rests[:, None] + np.arange(hand_size + 1)[None, :]  # r + j
    now = total // bag_limit
    table = now[None] + expected[:, total % bag_limit] - expected[:, rests][:, :, None]
    return bag_penalty * table


def win_table(rules: RuleSet, mu: float, sigma: float) -> np.ndarray:
    """The chance to win a race to the target, by points to go of each side.

    ``table[layer, i, j]``: our side ``i × WIN_STEP`` points from the target, theirs
    ``j × WIN_STEP``, each side adding on average ``mu`` points a hand with spread
    ``sigma``: Φ((d_them − d_us) / (σ √(2H))) where H is the hands the race is expected to
    last, ``(d_us + d_them) / (2 mu)``, at least 1, and at most the hands left under a
    hand limit (``layer``; 0 without one).
    """
    layers = 1 if rules.hand_limit is None else min(rules.hand_limit, WIN_LAYERS) + 1
    return _cached_win_table(layers, mu, sigma)


@lru_cache(maxsize=32)
def _cached_win_table(layers: int, mu: float, sigma: float) -> np.ndarray:
    distance = np.arange(WIN_BINS + 1) * WIN_STEP
    ours, theirs = np.meshgrid(distance, distance, indexing="ij")
    hands = np.maximum((ours + theirs) / (2 * mu), 1.0)
    table = np.empty((layers, WIN_BINS + 1, WIN_BINS + 1))
    erf = np.vectorize(math.erf, otypes=[float])
    for layer in range(layers):
        limited = hands if layer == 0 else np.minimum(hands, layer)
        z = (theirs - ours) / (sigma * np.sqrt(2 * limited))
        table[layer] = 0.5 * (1 + erf(z / math.sqrt(2)))
    return table


def bootstrap_arrays(rules: RuleSet) -> dict[str, np.ndarray]:
    """Stand-in tables for a first calibration round: flat distributions and rough game
    figures. Only the bootstrap strategy (expert-v1 bids, expert play) plays with them."""
    tricks = rules.hand_size + 1
    bins = rules.hand_size * STRENGTH_BINS_PER_TRICK + 1
    game = np.zeros(_bid.GAME_SLOTS)
    game[[_bid.G_MU, _bid.G_SIGMA, _bid.G_BAGS, _bid.G_MAKE, _bid.G_NIL, _bid.G_PARTNER_SHARE,
          _bid.G_MU_COVER, _bid.G_NIL_LOW, _bid.G_NIL_STEP]] = (
        55.0, 50.0, 1.2, 0.85, 0.75, 30.0, 30.0, -8.0, 0.25)
    return {
        "strength_w": np.zeros(_bid.STRENGTH_FEATURES), "nil_w": np.zeros(_bid.NIL_FEATURES),
        "own": np.ones((3, 5, bins, tricks)), "joint": np.ones((2, bins, tricks, tricks)),
        "cover": np.ones((tricks, tricks)), "nil_made": np.full((3, 49), 1.0),
        "nil_bids": np.full((3, 49), 2.0), "blind_made": np.full((4, 4), 1.0),
        "blind_bids": np.full((4, 4), 3.0), "game": game,
    }


__all__ = ["CalibrationError", "bag_steps_table", "bootstrap_arrays", "contiguous", "family",
           "kernel_tables", "load_family", "nil_counts_for", "pack_tables", "probabilities", "provenance",
           "save_family", "shipped_families", "win_table"]
