"""Saved runs: a folder with a manifest and one Parquet shard of totals per finished block.

``simulate_hands(..., save=DIR)`` (or ``simulate --save DIR``) writes
``DIR/manifest.json`` first (rules, strategies, seed, size, block size and
package version) and then, as each block of hands or games finishes,
``DIR/block-<first>-<count>.parquet``: one row of that block's totals
(:meth:`spades_sim.analysis.HandTotals.as_row`). A shard is written to a temporary
name and renamed (:func:`spades_sim.outputs.atomic_path`), so a killed process or a
full disk leaves whole shards only. ``resume(DIR)`` reads the shards back in block
order, merges them, and plays the blocks still missing: the totals are exactly those
of a run that was never interrupted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from . import __version__
from .outputs import atomic_path, check_folder, write_text
from .rules import RuleSet, from_dict
from .strategies import Strategy

MANIFEST = "manifest.json"
FORMAT = 1


class StoreError(ValueError):
    """A save folder that cannot be used, or a manifest that does not match the run."""


def strategy_spec(strategy: Strategy) -> dict[str, Any]:
    """A strategy as plain data (for a manifest or a Dask task); :func:`strategy_of` reverses it."""
    return {"name": strategy.name, "bidding": strategy.bidding, "play": strategy.play,
            "params": dict(strategy.params), "description": strategy.description}


def strategy_of(spec: dict[str, Any]) -> Strategy:
    return Strategy(spec["name"], spec["bidding"], spec["play"], dict(spec["params"]),
                    spec["description"])


@dataclass(frozen=True)
class Manifest:
    """What a saved run is: enough to check a resume against it and to replay it."""

    kind: str
    rules: dict[str, Any]
    strategies: tuple[dict[str, Any], ...]
    seed: int
    requested: int
    block: int
    max_hands: int | None
    version: str = __version__
    format: int = FORMAT

    def rule_set(self) -> RuleSet:
        return from_dict(self.rules)

    def seat_strategies(self) -> list[Strategy]:
        return [strategy_of(spec) for spec in self.strategies]

    def to_json(self) -> str:
        return json.dumps({**self.__dict__, "strategies": list(self.strategies)}, indent=2,
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        raw = json.loads(text)
        raw["strategies"] = tuple(raw["strategies"])
        return cls(**raw)

    def differences(self, other: Manifest) -> list[tuple[str, Any, Any]]:
        """(field, other's value, this one's) for every field that differs."""
        return [(name, getattr(other, name), value) for name, value in self.__dict__.items()
                if getattr(other, name) != value]


class RunStore:
    """The folder of one saved run."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def create(self, manifest: Manifest) -> None:
        """Start a new saved run: the folder must be new or empty."""
        if self.path.exists() and (not self.path.is_dir() or any(self.path.iterdir())):
            raise StoreError(f"save={str(self.path)!r}: allowed a new or empty folder (to go on "
                             "with the run saved there: --resume)")
        if not self.path.parent.is_dir():
            raise StoreError(f"save={str(self.path)!r}: allowed a folder in an existing folder")
        check_folder(self.path, "save", new_ok=True)
        self.path.mkdir(exist_ok=True)
        write_text(self.path / MANIFEST, manifest.to_json(), "save")

    def manifest(self) -> Manifest:
        try:
            return Manifest.from_json((self.path / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(f"resume={str(self.path)!r}: allowed a folder written by --save "
                             f"(it has no {MANIFEST})") from None
        except (ValueError, TypeError, KeyError) as error:
            raise StoreError(f"resume={str(self.path)!r}: allowed a readable {MANIFEST} "
                             f"({error})") from None

    def check(self, requested: Manifest) -> Manifest:
        """The saved manifest, refused with the first field that differs from ``requested``."""
        saved = self.manifest()
        for name, wanted, found in saved.differences(requested):
            if name == "rules":
                name, wanted, found = next((f"rules.{key}", wanted.get(key), found.get(key))
                                           for key in sorted({*wanted, *found})
                                           if wanted.get(key) != found.get(key))
            raise StoreError(f"{name}={_short(wanted)}: allowed {_short(found)}, as in the run "
                             f"saved in {str(self.path)!r} (start a new run with --save instead)")
        return saved

    def write_block(self, start: int, count: int, row: dict[str, float]) -> None:
        frame = pd.DataFrame([{"start": start, "count": count, **row}])
        name = f"block-{start:012d}-{count:08d}.parquet"
        with atomic_path(self.path / name, "save") as temporary:
            frame.to_parquet(temporary, index=False)

    def blocks(self) -> list[tuple[int, int, dict[str, float]]]:
        """The finished blocks from the start of the run, in order (a gap ends the list)."""
        found = []
        for shard in sorted(self.path.glob("block-*.parquet")):
            row = pd.read_parquet(shard).iloc[0].to_dict()
            found.append((int(row.pop("start")), int(row.pop("count")), row))
        kept, done = [], 0
        for start, count, row in found:
            if start != done:
                break
            kept.append((start, count, row))
            done += count
        return kept


def _short(value: Any) -> str:
    """A value for a one-line message (rule sets and strategies by name)."""
    if isinstance(value, dict) and "name" in value:
        return repr(value["name"])
    if isinstance(value, tuple | list):
        return repr([_short(item).strip("'") for item in value])
    return repr(value)
