"""Figures: matplotlib on its file-only backend, loaded on first use.

Importing matplotlib at the top of a module would cost every command its
start-up time, so the plotting functions ask for it here when they draw.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .outputs import atomic_path

Draw = TypeVar("Draw", bound=Callable[..., Any])


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (it writes files, it needs no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, path: str) -> None:
    """Lay ``fig`` out, write it (PNG or SVG, by the name's suffix) whole or not at all
    (:func:`spades_sim.outputs.atomic_path`) and free it."""
    try:
        fig.tight_layout()
        with atomic_path(path, "figure") as temporary:
            # The format by the target's name, whatever the temporary one ends in.
            fig.savefig(temporary, format=Path(path).suffix.lstrip(".").lower() or None)
    finally:
        pyplot().close(fig)


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
