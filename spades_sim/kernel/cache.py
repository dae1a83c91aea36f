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
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import numba
from numba.core import caching, config
from numba.core import dispatcher as _dispatcher

from ..outputs import shown

PYTHON_FACE = frozenset({"__init__.py", "cache.py", "calibration.py", "double_dummy.py",
                         "drivers.py", "packing.py", "strategies.py", "warmup.py",
                         "warmup_helper.py"})
"""The kernel's plain-Python modules: no machine code depends on their text, so they are left
out of the digest."""

SET_ASIDE = ".bad"
"""The suffix an unreadable entry's index is renamed with."""


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
    return None if base is None else os.path.join(base, "kernel-" + _digest())


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
