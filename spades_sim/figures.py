"""Figures: matplotlib on its file-only backend, loaded on first use.

Importing matplotlib at the top of a module would cost every command its
start-up time, so the plotting functions ask for it here when they draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .outputs import atomic_path


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
