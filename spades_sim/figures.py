"""Figures: matplotlib on its file-only backend, loaded on first use.

Importing matplotlib at the top of a module would cost every command its
start-up time, so the plotting functions ask for it here when they draw.
"""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (it writes files, it needs no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, path: str) -> None:
    """Lay ``fig`` out, write it (PNG or SVG, by the name's suffix) and free it."""
    fig.tight_layout()
    fig.savefig(path)
    pyplot().close(fig)
