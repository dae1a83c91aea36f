"""Saved runs: a folder with a manifest and one Parquet shard of totals per finished block.

``simulate_hands(..., save=DIR)`` (or ``simulate --save DIR``) writes
``DIR/manifest.json`` first (rules, strategies, seed, size, block size and
package version) and then, as each block of hands or games finishes,
``DIR/block-<first>-<count>.parquet``: one row of that block's totals
(:meth:`spades_sim.run.catalogue.Totals.as_row`). A shard is written to a temporary
name and renamed (:func:`spades_sim.outputs.atomic_path`), so a killed process or a
full disk leaves whole shards only. ``resume(DIR)``
reads the shards back, merges them, and plays the blocks still missing: the totals
are exactly those of a run that was never interrupted.

A saved run checks itself before it is trusted:

- the manifest's fields and types are checked one by one, each within its range (a block of
  0 would never end; a block of 1 in a run of 10^10 hands would be 10^10 blocks);
- each shard carries the run's identity (a digest of its manifest), its block range and a
  checksum of its totals. A shard of another run is refused, and so is a manifest edited
  after its shards were written (any field: the digest covers them all), before any block
  is played; a shard that cannot be read, whose range is not a block of this run or whose
  checksum does not match is played again (and said so), and so is a missing one, without
  playing the blocks after it again;
- the manifest and each shard are regular files of a bounded size
  (:data:`spades_sim.inputs.MAX_TEXT_BYTES`, :data:`spades_sim.inputs.MAX_SHARD_BYTES`);
- a lock (``DIR/.lock``, held with ``flock`` while a process saves into the folder) keeps a
  second process from saving into or resuming a folder in use. Whoever holds it clears the
  temporary files a process killed while saving left (:func:`spades_sim.outputs.is_temporary`);
  a folder refused for a new run is left as it was, with no lock made in it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import hashlib
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pandas as pd

from .. import __version__
from ..inputs import MAX_SHARD_BYTES, loads_json, read_bytes, read_text
from ..kernel.strategies import Strategy, StrategyError
from ..outputs import (
    atomic_path,
    check_folder,
    is_temporary,
    remove_temporaries,
    shown,
    write_text,
)
from ..rules import RulesError, RuleSet, from_dict

try:  # POSIX; elsewhere saved runs are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]  # the module or None: checked before each lock

MANIFEST = "manifest.json"
LOCK = ".lock"
FORMAT = 3
"""3: shards hold the sums of every metric of the catalogue; 2 carried the run's digest, range and
checksum with totals of an older layout; 1 had only the totals."""
MAX_COUNT = {"hands": 10**10, "games": 10**9}
"""The most hands, or games, one run plays (days of play on a large cluster)."""
MAX_BLOCK = {"hands": 1 << 16, "games": 1 << 11}
"""The hands, or games, of a block: the largest block a saved run may have."""
MAX_BLOCKS = 1_000_000
"""The most blocks a saved run may be cut into (the largest run has under 500,000): its
layout is held in memory, and each block is a shard."""
MAX_HANDS_CAP = 100_000
"""The largest hand cap a run may set (game records count hands in 32 bits)."""
_SHARD_NAME = re.compile(r"block-(\d{12})-(\d{8})\.parquet")
_IDENTITY = ("run", "start", "count", "checksum")
"""The columns of a shard that are not totals."""


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

    @property
    def digest(self) -> str:
        """The run's identity, carried by each of its shards: a digest of the manifest."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:32]

    def layout(self) -> dict[int, int]:
        """{first: count} of every block of the run."""
        return {start: min(self.block, self.requested - start)
                for start in range(0, self.requested, self.block)}

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """The manifest in ``text``, every field and type checked (:class:`StoreError`)."""
        raw = loads_json(text, lambda allowed: StoreError(f"manifest: allowed {allowed}"))
        if not isinstance(raw, dict):
            raise StoreError(f"manifest={_short(raw)}: allowed a JSON object")
        names = list(cls.__dataclass_fields__)
        for name in raw:
            if name not in names:
                raise StoreError(f"manifest field {_short(name, 40)}: allowed "
                                 + ", ".join(names))
        for name in names:
            if name not in raw:
                raise StoreError(f"manifest {name}: missing")
        _check_field("kind", raw["kind"], lambda v: v in ("hands", "games"), "'hands' or 'games'")
        _check_field("format", raw["format"], lambda v: v == FORMAT,
                     f"{FORMAT} (a run saved by another release: start it again with --save)")
        _check_field("version", raw["version"], lambda v: isinstance(v, str), "a version text")
        for name, most in (("requested", MAX_COUNT[raw["kind"]]),
                           ("block", MAX_BLOCK[raw["kind"]])):
            _check_field(name, raw[name], functools.partial(_within, most=most),
                         f"a whole number from 1 to {most:,}")
        fewest = -(-raw["requested"] // MAX_BLOCKS)  # the smallest block within MAX_BLOCKS
        _check_field("block", raw["block"], lambda v: v >= fewest,
                     f"a whole number from {fewest:,} to {MAX_BLOCK[raw['kind']]:,} for a run "
                     f"of {raw['requested']:,} {raw['kind']} (at most {MAX_BLOCKS:,} blocks)")
        _check_field("seed", raw["seed"], lambda v: _whole(v) and 0 <= v < 2**63,
                     "a whole number from 0 to 2**63-1")
        _check_field("max_hands", raw["max_hands"],
                     lambda v: v is None or _within(v, MAX_HANDS_CAP),
                     f"null or a whole number from 1 to {MAX_HANDS_CAP:,}")
        _check_field("rules", raw["rules"], lambda v: isinstance(v, dict), "a rule set")
        strategies = raw["strategies"]
        _check_field("strategies", strategies, lambda v: isinstance(v, list) and v and all(
            isinstance(s, dict) and set(s) == {"name", "bidding", "play", "params",
                                               "description"} for s in v),
            "a list of strategies (name, bidding, play, params, description)")
        manifest = cls(**{**raw, "strategies": tuple(strategies)})
        try:
            rules = manifest.rule_set()
            manifest.seat_strategies()
        except (RulesError, StrategyError, TypeError, AttributeError) as error:
            raise StoreError(f"manifest {_first_line(error)}") from None
        if len(strategies) != rules.seat_count:
            raise StoreError(f"manifest strategies={len(strategies)}: allowed "
                             f"{rules.seat_count}, one a seat of {rules.name!r}")
        return manifest

    def differences(self, other: Manifest) -> list[tuple[str, Any, Any]]:
        """(field, other's value, this one's) for every field that differs."""
        return [(name, getattr(other, name), value) for name, value in self.__dict__.items()
                if getattr(other, name) != value]


def resume_manifest(saved: Manifest, *, rules: RuleSet | None = None,
                    strategies: Sequence[Strategy] | None = None, hands: int | None = None,
                    games: int | None = None, seed: int | None = None,
                    max_hands: int | None = None) -> Manifest:
    """The manifest a resume asks for: ``saved`` with each run option given again in its place.

    An option left None was not given and keeps its saved value; ``hands`` (or else
    ``games``) sets the kind of run and its size. The version is always this package's:
    another version may play differently, so :meth:`RunStore.check` refuses a run saved by
    one (with the first field that differs from the saved manifest, as for every option).
    """
    changes: dict[str, Any] = {"version": __version__}
    if rules is not None:
        changes["rules"] = rules.to_dict()
    if strategies is not None:
        changes["strategies"] = tuple(map(strategy_spec, strategies))
    if hands is not None:
        changes["kind"], changes["requested"] = "hands", hands
    elif games is not None:
        changes["kind"], changes["requested"] = "games", games
    if seed is not None:
        changes["seed"] = seed
    if max_hands is not None:
        changes["max_hands"] = max_hands
    return dataclasses.replace(saved, **changes)


@dataclass
class Scan:
    """What a save folder holds for its run (:meth:`RunStore.scan`)."""

    blocks: list[tuple[int, int, dict[str, float]]]
    """(first, count, totals row) of every sound shard, in block order."""
    pending: list[int]
    """The first item of every block still to play, in order."""
    damaged: list[str] = field(default_factory=list)
    """One line per shard that will be played again, and why."""


def _leftovers(path: Path) -> bool:
    """Whether a save folder holds anything but a lock and the temporary files of a killed
    save (which a new run clears once it holds the lock)."""
    return any(entry.name != LOCK and not is_temporary(entry.name) for entry in path.iterdir())


def check_save(path: str | Path) -> None:
    """Refuse a folder a new run cannot save into, before the run, writing nothing: its
    parent must exist and it must be new, or empty but for a lock and temporary files.

    Raises
    ------
    StoreError, OutputError
        In one line (``save='…': allowed a new or empty folder …``).
    """
    folder = Path(path)
    check_folder(folder, "save", new_ok=True)
    try:
        used = folder.is_dir() and _leftovers(folder)
    except OSError as error:
        raise StoreError(f"save={shown(path)!r}: allowed a folder spades-sim can list "
                         f"({error.strerror})") from None
    if used:
        raise StoreError(f"save={shown(path)!r}: allowed a new or empty folder (to go on with "
                         "the run saved there: --resume)")


class RunStore:
    """The folder of one saved run."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._digest: str | None = None
        self._lock: Any = None

    def create(self, manifest: Manifest) -> None:
        """Start a new saved run: the folder must be new or empty (:func:`check_save`); it
        stays locked. A folder refused is left as it was: no lock, no manifest."""
        if not self.path.parent.is_dir():
            raise StoreError(f"save={shown(self.path)!r}: allowed a folder in an existing "
                             "folder")
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"save={shown(self.path)!r}: allowed a new or empty folder (to go "
                             "on with the run saved there: --resume)")
        check_save(self.path)
        made = not self.path.exists()
        had_lock = (self.path / LOCK).exists()
        self.path.mkdir(exist_ok=True)
        try:
            self.acquire("save")
            if _leftovers(self.path):  # another process filled it since check_save
                raise StoreError(f"save={shown(self.path)!r}: allowed a new or empty folder (to "
                                 "go on with the run saved there: --resume)")
            write_text(self.path / MANIFEST, manifest.to_json(), "save")
        except BaseException:
            if not had_lock and self._lock is not None:  # this run's lock: removed while held
                (self.path / LOCK).unlink(missing_ok=True)
            self.release()
            if made:
                with contextlib.suppress(OSError):  # left if another process wrote in it
                    self.path.rmdir()
            raise
        self._digest = manifest.digest

    def acquire(self, what: str = "resume") -> None:
        """Lock the folder for this process (released by :meth:`release` or at exit), then
        clear the temporary files a process killed while saving left in it: no other process
        writes there while the lock is held."""
        if fcntl is None or self._lock is not None:
            return
        lock = self.path / LOCK
        try:
            handle = open(lock, "a")  # noqa: SIM115 - held for the run
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise StoreError(f"{what}={shown(self.path)!r}: allowed a folder whose {LOCK} is a "
                             f"file spades-sim can open ({reason})") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            handle.close()
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise StoreError(f"{what}={shown(self.path)!r}: allowed a folder whose {LOCK} "
                                 f"can be locked ({error.strerror})") from None
            raise StoreError(f"{what}={str(self.path)!r}: allowed a folder no other run is "
                             "using (another spades-sim process is saving into it)") from None
        self._lock = handle
        try:
            remove_temporaries(self.path)
        except OSError as error:
            self.release()
            raise StoreError(f"{what}={shown(self.path)!r}: allowed a folder whose temporary "
                             f"files can be removed ({error.strerror})") from None

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file drops its flock
            self._lock = None

    def manifest(self) -> Manifest:
        """The saved manifest, read (a regular file of at most
        :data:`~spades_sim.inputs.MAX_TEXT_BYTES`) and checked (:meth:`Manifest.from_json`)."""
        where = f"resume={str(self.path)!r}: allowed"
        try:
            text = read_text(self.path / MANIFEST,
                             lambda allowed: StoreError(f"{where} a {MANIFEST} that is {allowed}"))
        except FileNotFoundError:
            raise StoreError(f"{where} a folder written by --save (it has no {MANIFEST})"
                             ) from None
        except (OSError, UnicodeDecodeError) as error:
            raise StoreError(f"{where} a readable {MANIFEST} ({_first_line(error)})") from None
        try:
            manifest = Manifest.from_json(text)
        except StoreError as error:
            raise StoreError(f"{where} a {MANIFEST} it can trust ({error})") from None
        except (ValueError, RecursionError) as error:
            raise StoreError(f"{where} a {MANIFEST} of JSON ({_first_line(error)})") from None
        self._digest = manifest.digest
        return manifest

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
        """Save one finished block's totals, with the run's digest, its range and a checksum."""
        run = self._run_digest()
        values = {name: float(value) for name, value in row.items()}
        frame = pd.DataFrame([{"run": run, "start": start, "count": count,
                               "checksum": _checksum(run, start, count, values), **values}])
        name = f"block-{start:012d}-{count:08d}.parquet"
        with atomic_path(self.path / name, "save") as temporary:
            frame.to_parquet(temporary, index=False)

    def scan(self, manifest: Manifest) -> Scan:
        """Every shard checked against ``manifest``: the sound ones, the blocks to play, and a
        line for each damaged one.

        A shard of another run is refused (:class:`StoreError`), and so are shards that all
        carry one other run's identity: the manifest was edited after they were written. The
        identity is read before the shard's range is compared with the manifest's blocks, so
        that an edited block size is refused rather than every shard played again. A shard
        that is not a regular file, or larger than :data:`~spades_sim.inputs.MAX_SHARD_BYTES`,
        is refused too (a pipe would be written in place of a file)."""
        layout = manifest.layout()
        sound: dict[int, tuple[int, int, dict[str, float]]] = {}
        damaged, foreign = [], {}
        for shard in sorted(self.path.glob("block-*.parquet")):
            block, problem = self._read_shard(shard, manifest.digest, layout)
            if isinstance(block, str):
                foreign[shard] = block
            elif problem:
                damaged.append(f"{shard.name}: {problem}; playing its block again")
            else:
                assert block is not None  # a shard with no problem was read
                sound[block[0]] = block
        if foreign and not sound and len(set(foreign.values())) == 1:
            raise StoreError(f"resume={str(self.path)!r}: allowed a {MANIFEST} as its shards "
                             f"were saved with ({len(foreign)} shards of run "
                             f"{_short(next(iter(foreign.values())), 40)}, and the manifest "
                             f"says run {manifest.digest!r}: it was changed)")
        for shard, other in foreign.items():
            raise StoreError(f"shard={str(shard)!r}: allowed shards of the run saved in "
                             f"{str(self.path)!r} (it belongs to run {_short(other, 40)}, "
                             f"this is run {manifest.digest!r}; move it out)")
        blocks = [sound[start] for start in sorted(sound)]
        pending = [start for start in layout if start not in sound]
        return Scan(blocks, pending, damaged)

    def blocks(self) -> list[tuple[int, int, dict[str, float]]]:
        """The sound blocks of the saved run, in block order."""
        return self.scan(self.manifest()).blocks

    def _read_shard(self, shard: Path, digest: str, layout: dict[int, int]
                    ) -> tuple[tuple[int, int, dict[str, float]] | str | None, str | None]:
        """((first, count, totals), None) for a sound shard, (its run's digest, None) for a shard
        of another run, else (None, what is wrong)."""
        match = _SHARD_NAME.fullmatch(shard.name)
        if not match:
            return None, "not a shard name of this run"
        start, count = int(match[1]), int(match[2])
        try:
            data = read_bytes(shard, lambda allowed: StoreError(
                f"shard={str(shard)!r}: allowed {allowed}; move it out"), MAX_SHARD_BYTES)
            frame = pd.read_parquet(io.BytesIO(data))
        except StoreError:
            raise
        except Exception as error:  # pyarrow raises many kinds on a bad file
            return None, f"unreadable ({_first_line(error, 60)})"
        if len(frame) != 1 or any(name not in frame.columns for name in _IDENTITY):
            return None, "not a shard of this format"
        row = cast(dict[str, Any], frame.iloc[0].to_dict())  # a shard's columns are named
        if row["run"] != digest:
            return str(row["run"]), None  # another run's shard: scan refuses it
        if layout.get(start) != count:
            return None, f"hands {start}-{start + count - 1} are not a block of this run"
        try:
            values = {name: float(value) for name, value in row.items()
                      if name not in _IDENTITY}
            same_range = (int(row["start"]), int(row["count"])) == (start, count)
        except (TypeError, ValueError):
            return None, "not a shard of this format"
        if not same_range:
            return None, "its range differs from its name"
        if row["checksum"] != _checksum(digest, start, count, values):
            return None, "its totals do not match their checksum"
        return (start, count, values), None

    def _run_digest(self) -> str:
        if self._digest is None:
            self.manifest()
        assert self._digest is not None  # manifest() reads it
        return self._digest


def _checksum(run: str, start: int, count: int, values: dict[str, float]) -> str:
    text = json.dumps([run, start, count, sorted(values.items())])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _within(value: Any, most: int) -> bool:
    """Whether ``value`` is a whole number from 1 to ``most``."""
    return _whole(value) and 1 <= value <= most


def _check_field(name: str, value: Any, test: Callable[[Any], object], allowed: str) -> None:
    if not test(value):
        raise StoreError(f"{name}={_short(value)}: allowed {allowed}")


def _first_line(error: BaseException, most: int = 120) -> str:
    text = str(error).strip().splitlines()
    return shown(text[0] if text else type(error).__name__, most)


def _short(value: Any, most: int = 60) -> str:
    """A value for a one-line message (rule sets and strategies by name), at most ``most``
    characters."""
    if isinstance(value, dict) and "name" in value:
        text = repr(value["name"])
    elif isinstance(value, tuple | list):
        text = repr([_short(item).strip("'") for item in value])
    else:
        text = repr(value)
    return shown(text, most)
