"""The sums a block adds to a run's streaming totals (``spades_sim.run.catalogue.Totals``).

Every metric of a run is Σ numerator / Σ denominator over its units, with an interval from
Σy, Σy², Σx, Σx² and Σxy; one pass over a block's unit table here takes all of them, for every
metric and for the sides pooled and each side, where the numpy equivalent stacks and
multiplies a copy of the table per side. The values are whole numbers or halves, so every
partial sum is exact in float64 and the order of the additions cannot change a bit (which is
also why the sums may be reassociated, and so vectorised). A hand run's unit table itself is
made here too, in one pass over the block's records (``_hand_unit_table``), and a hand run's
sums are taken straight from its records, a tile of units at a time, without the table
(``_hand_metric_sums``, chunk by chunk on the run's threads).
"""

import numpy as np
from numba import njit

SUMS = 5
"""Sums per metric and selection, in the order of ``Sums``' fields: Σy, Σy², Σx, Σx², Σxy."""


TILE = 256
"""Units summed together: every column's values of a tile of units, pooled and per side, are
laid out once in a small buffer that stays in the processor's caches, and every metric and
selection then runs over it, summing into registers."""

HAND_UNIT_COLUMNS = ("seat_hands", "side_hands", "bid_sum", "nil_bids", "nil_made", "blind_bids",
                     "blind_made", "contracts", "made", "set", "bid_minus", "bid_error", "bags",
                     "penalty", "penalised", "points")
"""The columns of a hand run's unit table, in the order of :func:`_hand_unit_row`'s rows; their
meaning is the metric catalogue's (``spades_sim.run.catalogue``)."""

UNIT_SEAT_TYPES = (("bid", np.int8), ("blind", np.int8), ("tricks", np.int8))
UNIT_SIDE_TYPES = (("contract", np.int8), ("made", np.int8), ("points", np.int32),
                   ("bags", np.int8), ("penalty", np.int32))
"""The hand records' columns a hand run's unit table is made from, with their record types (the
first arguments of ``_hand_unit_table`` and ``_hand_metric_sums``, in this order)."""


@njit(cache=True, inline='always')
def _tile_values(columns, first, count, per_side, values):
    """Lay out units ``first … first + count - 1`` of ``columns`` ((names, units, sides)) as
    ``values[name, selection, i]`` (float64): selection 0 the sides pooled, ``1 + s`` side s;
    a name with ``per_side`` 0 (a count per unit, in side 0) the same in every selection."""
    names, _, sides = columns.shape
    for name in range(names):
        if per_side[name]:
            for i in range(count):
                values[name, 0, i] = 0.0
            for side in range(sides):
                for i in range(count):
                    value = np.float64(columns[name, first + i, side])
                    values[name, 1 + side, i] = value
                    values[name, 0, i] += value
        else:
            for i in range(count):
                values[name, 0, i] = np.float64(columns[name, first + i, 0])
            for selection in range(1, sides + 1):
                for i in range(count):
                    values[name, selection, i] = values[name, 0, i]


@njit(cache=True, inline='always')
def _tile_sums(values, count, numerators, denominators, out):
    """Add the sums of every metric and selection over the first ``count`` units of ``values``
    (as :func:`_tile_values` lays them out) to ``out[selection, metric]``."""
    for metric in range(numerators.shape[0]):
        for selection in range(values.shape[1]):
            ys = values[numerators[metric], selection]
            xs = values[denominators[metric], selection]
            sy = syy = sx = sxx = sxy = 0.0
            for i in range(count):
                y, x = ys[i], xs[i]
                sy += y
                syy += y * y
                sx += x
                sxx += x * x
                sxy += x * y
            out[selection, metric, 0] += sy
            out[selection, metric, 1] += syy
            out[selection, metric, 2] += sx
            out[selection, metric, 3] += sxx
            out[selection, metric, 4] += sxy


@njit(cache=True, fastmath={"reassoc"})
def _metric_sums(columns, per_side, numerators, denominators, out):
    """Add to ``out[selection, metric]`` (float64, (1 + sides, metrics, SUMS)) the sums of
    every metric over the units of ``columns`` ((names, units, sides); a name with
    ``per_side`` 0 holds one count per unit, in side 0, the same for every selection).
    Metric ``m`` is column ``numerators[m]`` over column ``denominators[m]``; selection 0 sums
    each column over the sides, selection ``1 + s`` takes side ``s``."""
    names, units, sides = columns.shape
    values = np.empty((names, sides + 1, TILE), np.float64)
    for first in range(0, units, TILE):
        count = min(TILE, units - first)
        _tile_values(columns, first, count, per_side, values)
        _tile_sums(values, count, numerators, denominators, out)


@njit(cache=True, inline='always')
def _hand_unit_row(bid, blind, tricks, contract, made, points, bags, penalty, unit, i, tile):
    """Write hand ``unit``'s unit-table columns (``HAND_UNIT_COLUMNS`` order) into
    ``tile[:, i, side]`` for every side, from its seat columns (units, seats) and side columns
    (units, sides) of the hand records; seat s plays on side s % sides."""
    seats = bid.shape[1]
    sides = contract.shape[1]
    for side in range(sides):
        bid_sum = nil_bids = nil_made = blind_bids = blind_made = count_tricks = 0
        for seat in range(side, seats, sides):
            none_taken = tricks[unit, seat] == 0
            if blind[unit, seat] == 1:
                blind_bids += 1
                blind_made += none_taken
            else:
                bid_sum += bid[unit, seat]
                if bid[unit, seat] == 0 and blind[unit, seat] == 0:
                    nil_bids += 1
                    nil_made += none_taken
            if bid[unit, seat] > 0 or blind[unit, seat] < 0:  # a count bid, or a zero (-1)
                count_tricks += tricks[unit, seat]
        has_contract = contract[unit, side] > 0
        made_it = has_contract and made[unit, side] == 1
        bid_minus = contract[unit, side] - count_tricks if has_contract else 0
        tile[0, i, side] = seats // sides
        tile[1, i, side] = 1
        tile[2, i, side] = bid_sum
        tile[3, i, side] = nil_bids
        tile[4, i, side] = nil_made
        tile[5, i, side] = blind_bids
        tile[6, i, side] = blind_made
        tile[7, i, side] = has_contract
        tile[8, i, side] = made_it
        tile[9, i, side] = has_contract and not made_it
        tile[10, i, side] = bid_minus
        tile[11, i, side] = abs(bid_minus)
        tile[12, i, side] = bags[unit, side]
        tile[13, i, side] = penalty[unit, side]
        tile[14, i, side] = penalty[unit, side] > 0
        tile[15, i, side] = points[unit, side]


@njit(cache=True)
def _hand_unit_table(bid, blind, tricks, contract, made, points, bags, penalty, out):
    """Write the unit table of a block of hands into ``out`` (int32, (columns, units, sides), rows
    in ``HAND_UNIT_COLUMNS`` order) from its hand records' seat and side columns."""
    units = bid.shape[0]
    # A tile of units is made in a small buffer, then copied out column by column: writing the
    # sixteen columns unit by unit strides by the block's size, which lands every write in the
    # same few cache sets (several times slower).
    tile = np.empty((len(HAND_UNIT_COLUMNS), TILE, contract.shape[1]), np.int32)
    for first in range(0, units, TILE):
        count = min(TILE, units - first)
        for i in range(count):
            _hand_unit_row(bid, blind, tricks, contract, made, points, bags, penalty, first + i,
                           i, tile)
        # Element by element: a slice assignment would compile numba's shape-mismatch error
        # message, string formatting and all (about 3 s of a first run).
        for name in range(tile.shape[0]):
            for i in range(count):
                for side in range(tile.shape[2]):
                    out[name, first + i, side] = tile[name, i, side]


@njit(cache=True, nogil=True, fastmath={"reassoc"})
def _hand_metric_sums(bid, blind, tricks, contract, made, points, bags, penalty, lo, hi,
                      numerators, denominators, out):
    """Add to ``out`` (as :func:`_metric_sums`'s) the sums of every metric over hands
    ``lo … hi - 1`` of the hand records, their unit table made a tile at a time and never
    stored (metric ``m`` is column ``numerators[m]`` over ``denominators[m]`` of
    ``HAND_UNIT_COLUMNS``). Releases the GIL: the drivers run it chunk by chunk on threads."""
    sides = contract.shape[1]
    names = len(HAND_UNIT_COLUMNS)
    tile = np.empty((names, TILE, sides), np.int32)
    values = np.empty((names, sides + 1, TILE), np.float64)
    every_side = np.ones(names, np.int64)
    for first in range(lo, hi, TILE):
        count = min(TILE, hi - first)
        for i in range(count):
            _hand_unit_row(bid, blind, tricks, contract, made, points, bags, penalty, first + i,
                           i, tile)
        _tile_values(tile, 0, count, every_side, values)
        _tile_sums(values, count, numerators, denominators, out)
