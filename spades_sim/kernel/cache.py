"""numba's cache of the kernel on disk: a folder per version of the kernel's sources, and what
happens when an entry cannot be read or the folder cannot be written.

numba's on-disk cache checks only the file that defines a function, so a change to a helper in
another kernel file would leave stale machine code behind. The kernel is therefore cached in a
folder named after a digest of every kernel source and the numba version (:data:`FOLDER`), so
that any change anywhere in the kernel compiles afresh and an unchanged kernel loads warm. The
folder is in ``$NUMBA_CACHE_DIR``, or else in ``spades-sim/`` under ``$XDG_CACHE_HOME`` or
``~/.cache``; numba keeps a sub-folder per source folder inside it.

numba reads its cache files with pickle and lets any fault through (a truncated index ends the
run with an ``UnpicklingError``), and when its folder cannot be written it caches elsewhere, in
the package's own ``__pycache__`` or a user-wide folder, where the digest no longer guards
against stale code. The kernel's functions therefore cache through :class:`KernelCache`
(:func:`kernel_caching`, while the kernel's modules are imported), always in :data:`FOLDER`:

- an entry that cannot be read (a damaged index or data file) is set aside, its index renamed
  ``….nbi.bad`` (numba then writes a new index and overwrites the data files it numbers), and
  the function is compiled again;
- a folder that cannot be made or written (read-only, a file where a folder should be, no home
  folder) keeps what is compiled in memory, for this process only; what it already holds is
  still loaded.

Either is said once a process, in one ``note:`` line on stderr; the results are the same.

Each process that imports the kernel marks its folder used (:func:`tidy`), and at most once a
day removes the folders of other kernel versions (an older or newer install, another branch)
that no process has used for :data:`UNUSED_DAYS` days, and the oldest beyond the
:data:`KEEP_NEWEST` most recently used when those have not been used for a day either, so the
cache stays a few folders however many versions have come and gone (:func:`prune`). Only
folders named ``kernel-`` and a digest are ever removed: ``$NUMBA_CACHE_DIR`` may hold other
caches. ``spades-sim cache`` lists the folders and clears them (:func:`folders`, :func:`clear`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import ClassVar

import numba
from numba.core import caching, config
from numba.core import dispatcher as _dispatcher

from ..outputs import shown

PYTHON_FACE = frozenset({"__init__.py", "cache.py", "calibration.py", "double_dummy.py",
                         "drivers.py", "packing.py", "strategies.py", "warmup.py",
                         "user_policies.py", "warmup_helper.py"})
"""The kernel's plain-Python modules: no machine code depends on their text, so they are left
out of the digest."""

SET_ASIDE = ".bad"
"""The suffix an unreadable entry's index is renamed with."""

PREFIX = "kernel-"
"""The start of a kernel cache folder's name; the digest follows."""
_KERNEL_FOLDER = re.compile(r"kernel-[0-9a-f]{16}")
"""The name of a kernel cache folder: the only folders pruning or clearing removes."""
USED = "last-used"
"""The file in a kernel's cache folder whose time is when a process last imported that kernel."""
PRUNED = "last-pruned"
"""The file in the base folder whose time is when the folders were last pruned."""
UNUSED_DAYS = 30
"""Another version's folder unused for this many days is removed."""
KEEP_NEWEST = 8
"""Of the other versions' folders, at most this many (the most recently used) are kept once the
rest have been unused for a day."""
_DAY = 24 * 3600.0


def _digest() -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        if source.name not in PYTHON_FACE:
            digest.update(source.name.encode() + source.read_bytes())
    return digest.hexdigest()[:16]


def _base() -> str | None:
    """The folder the kernel's cache folders go in, absolute (a later change of the working
    folder does not move it), or None when there is none: no ``$NUMBA_CACHE_DIR`` and no home
    folder. A relative ``$XDG_CACHE_HOME`` is ignored, as the XDG specification asks."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return os.path.abspath(given)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return os.path.join(xdg, "spades-sim")
    home = os.path.expanduser("~")  # $HOME, or the password database's entry
    return os.path.join(home, ".cache", "spades-sim") if os.path.isabs(home) else None


def folder() -> str | None:
    """The folder this kernel (these sources, this numba) is cached in, or None (no home)."""
    base = _base()
    return None if base is None else os.path.join(base, PREFIX + _digest())


def base() -> str | None:
    """The folder the kernel's cache folders go in, as the environment says now (None: no home
    folder and no ``$NUMBA_CACHE_DIR``)."""
    return _base()


FOLDER = folder()
"""The folder this kernel is cached in, fixed when the kernel is imported (None: no home folder
and no ``$NUMBA_CACHE_DIR``: the kernel is compiled in memory)."""


def _chosen_by() -> str:
    """The environment variable that chose :data:`FOLDER`, for the note of one that fails."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return "NUMBA_CACHE_DIR"
    return "XDG_CACHE_HOME" if os.path.isabs(os.environ.get("XDG_CACHE_HOME", "")) else "HOME"

_told: list[bool] = [False]
_writable: list[bool | None] = [None]


def _tell(text: str) -> None:
    """Say ``text`` once a process, as a ``note:`` line on stderr (on its own line when a
    progress bar is drawn there)."""
    if _told[0]:
        return
    _told[0] = True
    try:
        start = "\r\033[K" if sys.stderr.isatty() else ""
        sys.stderr.write(f"{start}note: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # no stderr to tell: the run goes on
        pass


def _reason(error: BaseException | None) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = " ".join(str(error).split())[:80]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _unusable(error: BaseException | None) -> None:
    """The cache folder cannot be made, read or written: say so (once)."""
    _writable[0] = False
    if FOLDER is None or error is None:
        _tell("no folder for the kernel's cache (no home folder; set NUMBA_CACHE_DIR): the kernel "
              "is compiled in memory, for this process only")
    else:
        _tell(f"the kernel cache folder {shown(FOLDER)} (from {_chosen_by()}) cannot be used "
              f"({_reason(error)}): the kernel is compiled in memory, for this process only")


def writable() -> bool:
    """Whether :data:`FOLDER` can be made and written (tried once a process; a folder that
    cannot is said once): compiling ahead in another process (``warmup``) needs it."""
    if _writable[0] is None:
        if FOLDER is None:
            _unusable(None)
        else:
            try:
                os.makedirs(FOLDER, exist_ok=True)
                tempfile.TemporaryFile(dir=FOLDER).close()
                _writable[0] = True
            except OSError as error:
                _unusable(error)
    return bool(_writable[0])


class _KernelLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba's sub-folder for the kernel's source folder inside :data:`FOLDER`, whether or not
    it can be written (numba's own locators then move on to another folder)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(FOLDER or os.devnull,
                                        self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        return cls(py_func, py_file)


class _KernelCacheImpl(caching.CompileResultCacheImpl):
    _locator_classes: ClassVar[list[type]] = [_KernelLocator]


class KernelCache(caching.FunctionCache):
    """numba's cache of one kernel function, in :data:`FOLDER`: an entry that cannot be read is
    set aside and compiled again, a folder that cannot be written keeps the compiled function in
    memory (each said once a process)."""

    _impl_class = _KernelCacheImpl

    def load_overload(self, sig, target_context):
        if FOLDER is None:
            _unusable(None)
            return None
        try:
            return super().load_overload(sig, target_context)
        except OSError as error:  # a file where a folder should be, a file it may not read
            _unusable(error)
        except Exception as error:  # a damaged entry: pickle (or what it rebuilds) raises anything
            self._set_aside(error)
        return None

    def save_overload(self, sig, data):
        if FOLDER is None:
            return
        try:
            super().save_overload(sig, data)
        except OSError as error:  # the folder cannot be made or written
            _unusable(error)
        # Anything else is not the folder's fault: a compile cut short by Ctrl-C leaves no
        # object code to save (numba: "no compiled object yet"), and the interrupt follows.

    def _set_aside(self, error: Exception) -> None:
        """Rename the entry's index (numba writes a new one when it saves the function again)."""
        index = Path(self._cache_file._index_path)
        try:
            os.replace(index, index.with_name(index.name + SET_ASIDE))
        except FileNotFoundError:
            pass  # another process set it aside first
        except OSError as failure:
            _tell(f"the kernel cache entry {index.name} in {shown(index.parent)} cannot be read "
                  f"({_reason(error)}) nor set aside ({_reason(failure)}): compiling it again, "
                  "for this process only")
            return
        _tell(f"the kernel cache entry {index.name} in {shown(index.parent)} cannot be read "
              f"({_reason(error)}): set aside as {index.name}{SET_ASIDE}, compiling it again")


@contextmanager
def kernel_caching() -> Iterator[None]:
    """Inside the block, every ``@njit(cache=True)`` function defined caches through
    :class:`KernelCache` (numba makes a function's cache when it is decorated); numba's own
    ``NUMBA_CACHE_LOCATOR_CLASSES`` does not apply to the kernel, which has its own folder."""
    function_cache = getattr(_dispatcher, "FunctionCache")  # noqa: B009  (numba has no hints)
    locators = getattr(config, "CACHE_LOCATOR_CLASSES", None)
    setattr(_dispatcher, "FunctionCache", KernelCache)  # noqa: B010
    if locators is not None:
        config.CACHE_LOCATOR_CLASSES = ""
    try:
        yield
    finally:
        setattr(_dispatcher, "FunctionCache", function_cache)  # noqa: B010
        if locators is not None:
            config.CACHE_LOCATOR_CLASSES = locators


# --- the cache's folders: listed, marked used, pruned, cleared ------------------------------


@dataclasses.dataclass(frozen=True)
class CacheFolder:
    """One kernel version's cache folder."""

    path: str
    used: float
    """When a process last imported this version (seconds since the epoch): its ``last-used``
    file's time, or for a folder without one (made before it was kept) the folder's own."""
    current: bool
    """Whether it is the folder of the kernel this process runs."""

    @property
    def digest(self) -> str:
        """The digest of the kernel sources (and numba version) the folder holds code for."""
        return os.path.basename(self.path)[len(PREFIX):]

    def size(self) -> int:
        """The bytes of the files in it."""
        total = 0
        for root, _dirs, files in os.walk(self.path):
            for name in files:
                with suppress(OSError):  # removed meanwhile by another process
                    total += os.lstat(os.path.join(root, name)).st_size
        return total


def folders(where: str | None = None) -> list[CacheFolder]:
    """The kernel cache folders in ``where`` (default: :func:`base`), most recently used first;
    none when there is no such folder."""
    where = base() if where is None else where
    if where is None:
        return []
    current = folder()
    found = []
    try:
        entries = list(os.scandir(where))
    except (FileNotFoundError, NotADirectoryError):
        return []
    for entry in entries:
        if not (_KERNEL_FOLDER.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)):
            continue
        try:
            used = os.stat(os.path.join(entry.path, USED)).st_mtime
        except OSError:
            try:
                used = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue  # removed meanwhile
        found.append(CacheFolder(entry.path, used, current is not None
                                 and os.path.abspath(entry.path) == os.path.abspath(current)))
    return sorted(found, key=lambda f: (-f.used, f.path))


def prune(where: str | None = None, *, now: float | None = None,
          unused_days: float = UNUSED_DAYS, keep: int = KEEP_NEWEST) -> list[CacheFolder]:
    """Remove the folders of other kernel versions that no process has used for ``unused_days``
    days, and those beyond the ``keep`` most recently used that have not been used for a day;
    the folders removed. This kernel's folder is never removed."""
    now = time.time() if now is None else now
    others = [f for f in folders(where) if not f.current]
    removed = [f for rank, f in enumerate(others)
               if now - f.used > unused_days * _DAY or (rank >= keep and now - f.used > _DAY)]
    for gone in removed:
        shutil.rmtree(gone.path, ignore_errors=True)  # a file in use elsewhere stays: no harm
    return removed


def clear(where: str | None = None) -> list[CacheFolder]:
    """Remove every kernel cache folder, this version's too (the next run compiles again); the
    folders removed."""
    removed = folders(where)
    for gone in removed:
        shutil.rmtree(gone.path, ignore_errors=True)
    return removed


def tidy(now: float | None = None) -> None:
    """Mark this kernel's folder used and, at most once a day, :func:`prune` the others. Called
    when the kernel is imported; a folder that cannot be written is left as it is (the cache's
    own note says so when it matters)."""
    where = base()
    if FOLDER is None or where is None:
        return
    now = time.time() if now is None else now
    try:
        os.makedirs(FOLDER, exist_ok=True)
        _touch(os.path.join(FOLDER, USED), now)
        marker = os.path.join(where, PRUNED)
        try:
            if now - os.stat(marker).st_mtime < _DAY:
                return
        except FileNotFoundError:
            pass
        _touch(marker, now)
        prune(where, now=now)
    except OSError:
        return


def _touch(path: str, when: float) -> None:
    with open(path, "a", encoding="utf-8"):
        pass
    os.utime(path, (when, when))
