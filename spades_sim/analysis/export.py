"""Tables for machines: as JSON or CSV on stdout, or as Parquet, CSV or JSON files, with what made
them.

Every command that prints a table can print it as JSON or CSV instead (``--format``) and write
it to a file whose name picks the format (``--out``: ``.parquet``, ``.csv`` or ``.json``; ``-``
writes CSV to stdout). JSON and Parquet carry the run's :func:`metadata`: the package version,
the command, the seed, every rule set in full and the strategies with their parameters; CSV
carries the table alone. A file is written whole or not at all
(:func:`spades_sim.outputs.atomic_path`).

>>> import json, pandas as pd
>>> meta = metadata("simulate", 7, [], [], hands=10)
>>> document = json.loads(as_text(pd.DataFrame({"key": ["bags"], "value": [1.5]}), "json", meta))
>>> document["metadata"]["seed"], document["metadata"]["hands"], document["rows"]
(7, 10, [{'key': 'bags', 'value': 1.5}])
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import __version__
from ..outputs import OutputError, atomic_path, check_file, csv_cell, shown

FORMATS = ("text", "json", "csv")
"""What ``--format`` takes: the aligned text of the terminal (the default), JSON or CSV."""
SUFFIXES = (".parquet", ".csv", ".json")
"""The file formats of ``--out``, by extension."""
STDOUT = "-"
"""The ``--out`` name of stdout (CSV)."""
METADATA_KEY = b"spades_sim"
"""The key of the metadata in a Parquet file's schema."""


def check_format(value: str) -> str:
    """``value`` if it is one of :data:`FORMATS`, else a one-line :class:`OutputError`."""
    if value not in FORMATS:
        raise OutputError(f"format={shown(value)!r}: allowed " + ", ".join(FORMATS))
    return value


def check_out(path: str, field: str = "out") -> None:
    """Refuse an ``--out`` path before a run: an extension not in :data:`SUFFIXES`, or a place
    that cannot be written (``-``, stdout, is always fine)."""
    if path == STDOUT:
        return
    if path.endswith(("/", "\\")) or Path(path).suffix.lower() not in SUFFIXES:
        raise OutputError(f"{field}={shown(path)!r}: allowed a file ending in .parquet, .csv or "
                          ".json, or - for stdout")
    check_file(path, field)


def metadata(command: str, seed: int | None, rules: Sequence[Any], strategies: Sequence[Any],
             **facts: Any) -> dict[str, Any]:
    """What made a table: the package version, the ``command``, the ``seed``, the rule sets
    (``RuleSet`` or their dicts) and strategies (``Strategy``: name, policies, parameters), and
    any other ``facts`` (counts, whether the run was interrupted …)."""
    from ..run.store import strategy_spec  # the one place a strategy is written as data

    return {"spades_sim": __version__, "command": command, "seed": seed,
            "rules": [r if isinstance(r, dict) else r.to_dict() for r in rules],
            "strategies": [strategy_spec(s) for s in strategies],
            **{name: _plain(value) for name, value in facts.items()}}


def _plain(value: Any) -> Any:
    """``value`` as JSON takes it: numpy numbers as Python's, NaN as null."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is pd.NA:
        return None
    return value


def _rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [_plain(row) for row in frame.to_dict("records")]


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as every CSV the tool writes holds it: each text cell (and column name) made
    safe for a spreadsheet (:func:`spades_sim.outputs.csv_cell`), numbers untouched. The
    numeric columns are shared with ``frame``, not copied."""
    safe = frame.copy(deep=False)
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(csv_cell)
    safe.columns = [csv_cell(str(name)) for name in safe.columns]
    return safe


def csv_text(frame: pd.DataFrame) -> str:
    """The table as CSV text (:func:`csv_safe`)."""
    text: str = csv_safe(frame).to_csv(index=False)
    return text


def write_csv(frame: pd.DataFrame, path: str | Path, field: str = "out") -> None:
    """Write the table as a CSV file (:func:`csv_safe`), whole or not at all."""
    with atomic_path(path, field) as temporary:
        csv_safe(frame).to_csv(temporary, index=False)


def as_text(frame: pd.DataFrame, fmt: str, meta: dict[str, Any],
            extra: dict[str, pd.DataFrame] | None = None) -> str:
    """The table as ``fmt`` (``json`` or ``csv``) text: JSON has the metadata, the rows and
    any ``extra`` tables by name; CSV is the table alone."""
    if fmt == "csv":
        return csv_text(frame).rstrip("\n")
    document = {"metadata": meta, "rows": _rows(frame),
                **{name: _rows(table) for name, table in (extra or {}).items()}}
    return json.dumps(document, ensure_ascii=False, indent=2)


def write(frame: pd.DataFrame, path: str, meta: dict[str, Any], field: str = "out") -> None:
    """Write the table to ``path`` (format by extension; ``-``: CSV on stdout), whole or not
    at all."""
    if path == STDOUT:
        sys.stdout.write(csv_text(frame))
        sys.stdout.flush()
        return
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        write_csv(frame, path, field)
        return
    with atomic_path(path, field) as temporary:
        if suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            schema_metadata = {**(table.schema.metadata or {}),
                               METADATA_KEY: json.dumps(meta).encode()}
            pq.write_table(table.replace_schema_metadata(schema_metadata), temporary)
        else:
            Path(temporary).write_text(as_text(frame, "json", meta) + "\n", encoding="utf-8")


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The metadata of a Parquet or JSON file written by :func:`write`."""
    if Path(path).suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        metadata: dict[str, Any] = json.loads(pq.read_schema(path).metadata[METADATA_KEY])
        return metadata
    written: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))["metadata"]
    return written


__all__ = ["FORMATS", "METADATA_KEY", "STDOUT", "SUFFIXES", "as_text", "check_format",
           "check_out", "csv_safe", "csv_text", "write_csv", "metadata", "read_metadata", "write"]
