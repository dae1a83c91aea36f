"""``spades-sim cache``: the kernel's compiled-code cache, shown and cleared (the folders and
their pruning are :mod:`spades_sim.kernel.cache`'s)."""

from __future__ import annotations

import time

import click
import pandas as pd

from ..analysis import export
from ..kernel import cache as _cache
from .errors import user_errors
from .options import output_options
from .output import check_outputs, deliver


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


@click.command(name="cache")
@click.option("--clear", is_flag=True,
              help="Remove every kernel cache folder, this version's too (the next run compiles "
                   "the kernel again, 30-60 s).")
@output_options(out=None)
def cache_command(clear: bool, fmt: str) -> None:
    """Show the kernel cache: its folder, a folder per kernel version with its size and when it
    was last used. Folders of other versions unused for 30 days are removed by themselves.

    Examples:

    \b
        spades-sim cache
        spades-sim cache --clear
    """
    with user_errors():
        outputs = check_outputs(fmt, None)
    where = _cache.base()
    found = _cache.folders(where)
    sizes = [folder.size() for folder in found]
    if clear and where is not None:
        gone = {folder.path for folder in _cache.clear(where)}
        sizes = [size for folder, size in zip(found, sizes, strict=True) if folder.path in gone]
        found = [folder for folder in found if folder.path in gone]
    table = pd.DataFrame({
        "digest": [f.digest for f in found],
        "current": [f.current for f in found],
        "last_used": [time.strftime("%Y-%m-%d %H:%M", time.localtime(f.used)) for f in found],
        "bytes": sizes,
        "removed": [clear] * len(found),
    })
    if where is None:
        lines = ["no kernel cache folder (no home folder and no NUMBA_CACHE_DIR): the kernel is "
                 "compiled in memory"]
    elif clear:
        lines = [f"kernel cache {where}: removed {len(found)} folder(s), {_megabytes(sum(sizes))}"]
    else:
        lines = [f"kernel cache {where}: {len(found)} folder(s), {_megabytes(sum(sizes))}"]
        lines += [f"  {f.digest}  {_megabytes(size):>10}  last used {used}"
                  + ("  (this version)" if f.current else "")
                  for f, size, used in zip(found, sizes, table["last_used"], strict=True)]
        lines.append(f"another version's folder is removed as the kernel loads once unused for "
                     f"{_cache.UNUSED_DAYS} days, or for a day beyond the {_cache.KEEP_NEWEST} "
                     "most recently used")
    deliver(outputs, "\n".join(lines), table,
            export.metadata("cache", None, [], [], folder=where, cleared=clear))
