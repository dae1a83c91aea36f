"""Figures: matplotlib on its file-only backend, loaded on first use, and what every figure
shares: one colour per strategy and rule set, the fewest cases a bin needs, intervals drawn
one way, and a layout that keeps every text on the canvas.

Importing matplotlib at the top of a module would cost every command its
start-up time, so the plotting functions ask for it here when they draw.
"""

from __future__ import annotations

import colorsys
import contextlib
import functools
import logging
import os
import sys
import textwrap
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..kernel.drivers import interrupts_held
from ..outputs import OutputError, atomic_path

Draw = TypeVar("Draw", bound=Callable[..., Any])

MIN_CASES = 30
"""The fewest cases a bin of a figure needs to be drawn (seat-hands for a bid rate, bids for a
success rate): with fewer, its 95% interval spans much of the axis and stretches it, so the
bin is left out and the figure names it."""

PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
    "#17becf", "#393b79", "#637939", "#e7ba52", "#843c39", "#7b4173", "#2f6f6f", "#8c6d31",
    "#6b6ecf",
    "#5254a3",
)
"""The colours of strategies and rule sets: tab10 without its grey (which the figures keep
for reference lines and what is left out), then darker tones of other hues."""

STRATEGY_ORDER = ("expert", "basic", "expert-v1", "bag-averse", "conservative", "aggressive",
                  "nil-happy", "random")
"""The named strategies in palette order: each keeps its colour in every figure."""

PRESET_ORDER = ("standard", "classic", "online-table", "app-settings", "jokers", "solo",
                "three-player", "five-player", "head-to-head", "mirror", "suicide", "whiz",
                "deuce-high", "joker-joker-deuce-ace", "joker-joker-deuce-deuce", "openspiel",
                "trickster-jokers", "tournament-blind")
"""The preset rule sets in palette order. A strategy never shares a figure with a rule set, so
each list takes the palette from its start."""

BAG_RULE_ORDER = ("10 bags -100", "5 bags -50", "1 bag -10", "no bag penalty")
"""The default bag rules as ``spades-sim bags`` labels them (``variants.bag_label``), in
palette order: the standard rules' own bag rule takes the standard rules' colour."""

FIXED_COLOURS: dict[str, str] = {
    **dict(zip(BAG_RULE_ORDER, PALETTE)), **dict(zip(PRESET_ORDER, PALETTE)),
    **dict(zip(STRATEGY_ORDER, PALETTE)),
}
"""The colour of each named strategy, preset and default bag rule."""


def colours(names: Iterable[object]) -> dict[str, str]:
    """One colour for each of ``names`` (strategies or rule sets, as the figure labels them).

    A named strategy, preset or default bag rule has its colour from :data:`FIXED_COLOURS`;
    any other name (a variant, a rules file, another bag rule) a colour picked by a hash of
    the name, the next free one if another name of the figure has it. So a name keeps its
    colour from figure to figure wherever it can, and no two names of one figure share one.

    >>> colours(["basic", "expert"]) == {"basic": "#ff7f0e", "expert": "#1f77b4"}
    True
    """
    unique = list(dict.fromkeys(str(name) for name in names))
    chosen: dict[str, str] = {}
    for name in unique:
        colour = FIXED_COLOURS.get(name)
        if colour is not None and colour not in chosen.values():
            chosen[name] = colour
    # Sorted, so that a figure with the same names gives each the same colour whatever the order.
    for name in sorted(name for name in unique if name not in chosen):
        start = zlib.crc32(name.encode("utf-8")) % len(PALETTE)
        free = [PALETTE[(start + step) % len(PALETTE)] for step in range(len(PALETTE))]
        free = [colour for colour in free if colour not in chosen.values()]
        chosen[name] = free[0] if free else _extra_colour(len(chosen))
    return {name: chosen[name] for name in unique}


def _extra_colour(index: int) -> str:
    """A colour past the palette's end: hues a golden angle apart, so that they stay distinct."""
    red, green, blue = colorsys.hsv_to_rgb((index * 0.618034) % 1.0, 0.7, 0.75)
    return f"#{round(255 * red):02x}{round(255 * green):02x}{round(255 * blue):02x}"


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""Markers of the lines of a figure, so that lines of near colours or lying on each other are
still told apart (and in print without colour)."""

LINE_STYLES = ("-", "--", ":", "-.")
"""Line styles, cycled with the markers: eight markers and four styles give 8 distinct pairs."""


def line_looks(names: Iterable[object]) -> dict[str, dict[str, Any]]:
    """Each of ``names`` (in the order given) with its ``marker`` and ``linestyle`` keyword
    arguments for ``plot`` or ``errorbar``: no two names of a figure alike, however many.

    >>> looks = line_looks(["expert", "basic"])
    >>> looks["expert"], looks["basic"]
    ({'marker': 'o', 'linestyle': '-'}, {'marker': 's', 'linestyle': '--'})
    """
    unique = list(dict.fromkeys(str(name) for name in names))
    return {name: {"marker": MARKERS[k % len(MARKERS)],
                   "linestyle": LINE_STYLES[(k + k // len(MARKERS)) % len(LINE_STYLES)]}
            for k, name in enumerate(unique)}


LEFT_OUT = "#bbbbbb"
"""The colour of the marks where a figure leaves a bin out."""


class _Kept(logging.Handler):
    """A log handler that keeps the records of warnings and worse."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (it writes files, it needs no display).

    matplotlib keeps its settings and font cache in a folder under the home folder; when that
    cannot be written it uses a temporary folder, and says so in two lines of its log on stderr:
    here that is one ``note:`` line. With no temporary folder either, the figure is refused in
    one line (an :class:`OutputError`) instead of matplotlib's traceback."""
    if "matplotlib.pyplot" in sys.modules:
        return sys.modules["matplotlib.pyplot"]
    log = logging.getLogger("matplotlib")
    kept = _Kept()
    propagate, given = log.propagate, os.environ.get("MPLCONFIGDIR")
    log.addHandler(kept)
    log.propagate = False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except OSError as error:  # no folder matplotlib can write, not even a temporary one
        raise OutputError(f"figure: not drawn (matplotlib has no folder it can write: "
                          f"{error.__cause__ or error}): allowed a writable home folder, or "
                          "MPLCONFIGDIR naming a writable folder") from None
    finally:
        log.removeHandler(kept)
        log.propagate = propagate
    temporary = os.environ.get("MPLCONFIGDIR")
    if temporary != given and kept.records:  # matplotlib made a temporary folder and said so
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write(f"note: matplotlib cannot write its folder "
                             f"({kept.records[0].getMessage()}): it uses {temporary} for this "
                             "process\n")
    else:
        for record in kept.records:  # matplotlib's other warnings, as they would have been
            log.handle(record)
    return plt


def error_bars(values: Any, lows: Any, highs: Any) -> np.ndarray:
    """The lengths below and above each value of its interval, for ``errorbar``: never
    negative (a Wilson bound can sit a rounding error inside a rate of 0 or 1) and 0 where
    there is no interval."""
    values, lows, highs = (np.asarray(part, dtype=np.float64) for part in (values, lows, highs))
    lengths: np.ndarray = np.nan_to_num(np.clip(np.vstack([values - lows, highs - values]), 0,
                                                None))
    return lengths


def percent_ticks(axis: Any) -> None:
    """Write an axis's ticks as percentages (its values are in percent already), with no more
    decimals than each tick has: 30%, 72.5%."""
    from matplotlib.ticker import FuncFormatter

    # Rounded first: a tick at 0.1 + 0.2 would otherwise print every digit of its error.
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{round(value, 6):g}%"))


_inspectors: list[Callable[[Any, str], None]] = []


@contextlib.contextmanager
def inspecting(look: Callable[[Any, str], None]) -> Iterator[None]:
    """While the block runs, call ``look(fig, path)`` on every figure :func:`save` writes, laid
    out and written, before it is freed: how a test sees what a figure shows."""
    _inspectors.append(look)
    try:
        yield
    finally:
        _inspectors.remove(look)


def save(fig: Any, path: str) -> None:
    """Lay ``fig`` out (:func:`lay_out`), write it (PNG or SVG, by the name's suffix) whole or
    not at all (:func:`spades_sim.outputs.atomic_path`) and free it.

    Ctrl-C is held while the figure is laid out and rendered (a fraction of a second) and acted
    on once it is written: cut inside matplotlib's renderer, it left the figure half drawn and
    the renderer's cleanup raised an error of its own in place of the interrupt."""
    try:
        with interrupts_held():
            lay_out(fig)
            with atomic_path(path, "figure") as temporary:
                # The format by the target's name, whatever the temporary one ends in.
                fig.savefig(temporary, format=Path(path).suffix.lstrip(".").lower() or None)
        for look in list(_inspectors):
            look(fig, path)
    finally:
        pyplot().close(fig)


def lay_out(fig: Any) -> None:
    """Lay the figure out so that every title, label and note is on the canvas: one that would
    run past an edge is wrapped onto more lines, then the figure is laid out again.

    Titles carry names a user chose (rule sets, strategies, overrides), so their length is
    not known when the figure is drawn.
    """
    constrained = fig.get_layout_engine() is not None
    for attempt in range(4):
        if not constrained:
            fig.tight_layout()
        fig.draw_without_rendering()  # places the titles, and runs a constrained layout
        renderer = fig.canvas.get_renderer()
        changed = [_fit(text, fig, renderer) for text in _wrappable(fig)] if attempt < 3 else []
        if not any(changed):
            break
    if constrained:
        # Keep the layout just made: writing the figure would only make it again.
        fig.set_layout_engine("none")


def _wrappable(fig: Any) -> list[Any]:
    """The texts a long name can make too wide: the figure's and subfigures' titles and notes,
    and every axes' title and axis labels (tick labels and the numbers in cells stay)."""
    texts = []
    stack = [fig]
    while stack:
        part = stack.pop()
        texts += list(part.texts)
        stack += list(getattr(part, "subfigs", []))
    for ax in fig.axes:
        texts += [ax.title, ax.xaxis.label, ax.yaxis.label]
    return [text for text in texts if text.get_visible() and text.get_text()]


def _fit(text: Any, fig: Any, renderer: Any) -> bool:
    """Wrap ``text`` onto more lines if it runs past the canvas; whether it was changed."""
    box = text.get_window_extent(renderer)
    vertical = abs(text.get_rotation() % 180 - 90) < 1
    start, end = (box.y0, box.y1) if vertical else (box.x0, box.x1)
    size = fig.bbox.height if vertical else fig.bbox.width
    pad = 4.0
    if start >= pad and end <= size - pad:
        return False
    align = text.get_verticalalignment() if vertical else text.get_horizontalalignment()
    middle = (start + end) / 2
    room = {"left": size - start, "bottom": size - start, "right": end, "top": end}.get(
        align, 2 * min(middle, size - middle)) - 2 * pad
    length = end - start
    if length <= 0 or room <= 0:
        return False
    lines = text.get_text().split("\n")
    longest = max(len(line) for line in lines)
    width = max(8, int(longest * min(room / length, 0.95)))
    if width >= longest:
        return False
    text.set_text("\n".join(textwrap.fill(line, width) for line in lines))
    return True


def clipped_texts(fig: Any) -> list[str]:
    """Every text the figure draws that does not lie wholly on its canvas, as
    ``"text: (x0, y0, x1, y1) outside (width, height)"``; empty when all fit.

    It draws the figure and records the texts as the renderer draws them, so a tick label
    outside the axes' view (never drawn) does not count, and a text that is drawn does
    however it was made.
    """
    canvas = fig.canvas
    renderer = canvas.get_renderer()
    drawn: list[Any] = []
    draw_text = renderer.draw_text

    def record(gc: Any, x: float, y: float, s: str, prop: Any, angle: float,
               ismath: bool | str = False, mtext: Any = None) -> Any:
        if mtext is not None and s.strip():
            drawn.append(mtext)
        return draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    renderer.draw_text = record
    try:
        fig.draw(renderer)
    finally:
        del renderer.draw_text
    width, height = fig.bbox.width, fig.bbox.height
    found = []
    for text in dict.fromkeys(drawn):
        box = text.get_window_extent(renderer)
        # A pixel of slack: antialiasing and rounding put an edge glyph a fraction past it.
        if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1:
            found.append(f"{text.get_text()!r}: ({box.x0:.0f}, {box.y0:.0f}, {box.x1:.0f}, "
                         f"{box.y1:.0f}) outside ({width:.0f}, {height:.0f})")
    return found


def plain_text(draw: Draw) -> Draw:
    """Decorate a function that draws a figure so that every text in it is drawn as written.

    Titles, labels and tick labels carry names a user chose (a rules file's name, a
    study's title, strategy names); by default matplotlib typesets a text with two ``$``
    as mathematics, or fails to draw it. It reads the setting as each text is made, tick
    labels included while the figure is saved, so the whole drawing runs under it,
    without changing the setting for anyone else in the process.
    """

    @functools.wraps(draw)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        with pyplot().rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return drawn  # type: ignore[return-value]


__all__ = ["BAG_RULE_ORDER", "FIXED_COLOURS", "LEFT_OUT", "LINE_STYLES", "MARKERS", "MIN_CASES",
           "PALETTE", "PRESET_ORDER",
           "STRATEGY_ORDER", "clipped_texts", "colours", "error_bars", "inspecting", "lay_out",
           "line_looks", "percent_ticks", "plain_text", "pyplot", "save"]
