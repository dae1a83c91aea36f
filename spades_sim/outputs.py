"""Output files: checked before a run, written whole or not at all.

A command does its work first and writes its files last, so a path that cannot
be written would otherwise throw away the whole run. :func:`check_file` and
:func:`check_folder` refuse such a path before the run starts: a missing or
read-only folder, a pseudo file system such as ``/proc``, a name longer than
the file system takes, a folder where a file should go. They do so by creating
and removing a temporary file where the output will go, the one test that
answers for every file system.

:func:`atomic_path` then has each writer write to a temporary name in the same
folder, synced to disk and renamed over the target only once it is complete: a
failure half-way (a full disk) leaves the old file or none, never a truncated
one, and no temporary file. Every failure is an :class:`OutputError`: one line
naming the option, the (shortened) path and the reason.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_SHOWN = 100
"""How much of a path a message shows."""

_NAME_MAX = 255
"""The name length assumed where the file system does not say (POSIX's usual limit)."""


class OutputError(ValueError):
    """An output path that cannot be written, or a write that failed (one-line message)."""


def shown(path: str | Path, most: int = _SHOWN) -> str:
    """A path (or any value a one-line message quotes) as the message shows it: long ones keep
    their start and their end, ``most`` characters in all.

    >>> text = shown("/tmp/" + "x" * 200 + ".csv")
    >>> len(text), text[:8], text[45:51], text[-7:]
    (100, '/tmp/xxx', 'xxx...', 'xxx.csv')
    """
    text = str(path)
    if len(text) <= most:
        return text
    head = (most - 3) // 2
    return text[:head] + "..." + text[len(text) - (most - 3 - head):]


def _refuse(field: str, path: str | Path, reason: str) -> OutputError:
    return OutputError(f"{field}={shown(path)!r}: {reason}")


def _reason(error: OSError) -> str:
    """The system's words for a failed write, on one line.

    pyarrow's errors carry no errno, only a text with ``[errno 28]`` in it: that number is read
    back so that a full disk reads the same whichever library was writing.
    """
    if error.strerror:
        return error.strerror
    number = error.errno or next(map(int, re.findall(r"errno (\d+)", str(error), re.I)), None)
    return os.strerror(number) if number else " ".join(str(error).split())


def _is_special(path: Path) -> bool:
    """A device or pipe (``/dev/null``, ``/dev/stdout``): written in place, as renaming a file
    over it would replace the device itself."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _create_temporary(folder: Path, name: str) -> Path:
    """Create an empty, hidden temporary file in ``folder`` for a file called ``name``.

    Its name is short (the target's own may already be at the length limit) and keeps a short
    suffix, so that writers which go by the suffix (matplotlib) still do. ``os.open`` with mode
    0o666 gives it the permissions any new file gets under the umask (``mkstemp`` makes 0o600).
    """
    suffix = Path(name).suffix
    suffix = suffix if len(suffix) <= 16 else ""
    while True:
        candidate = folder / f".{name[:32]}.{secrets.token_hex(4)}.tmp{suffix}"
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return candidate
        except FileExistsError:
            continue


def _probe(folder: Path, field: str, path: str | Path) -> None:
    """Refuse ``path`` unless a file can be created (and removed) in ``folder``."""
    try:
        _create_temporary(folder, Path(path).name).unlink()
    except OSError as error:
        reason = _reason(error)
        raise _refuse(field, path, f"allowed a path in a writable folder ({reason})") from None


def check_file(path: str | Path, field: str = "out") -> None:
    """Refuse an output file before a run rather than fail to write it after.

    Parameters
    ----------
    path : str or Path
        The file an option names.
    field : str
        The option, as the message names it.

    Raises
    ------
    OutputError
        A folder at ``path``, a missing folder, a name too long for the file system, a
        write-protected file, or a folder where no file can be created (read-only, ``/proc``).

    Examples
    --------
    >>> check_file("/no-such/x.csv", "log")
    Traceback (most recent call last):
    ...
    spades_sim.outputs.OutputError: log='/no-such/x.csv': allowed a path in an existing folder
    """
    # os.path's tests, not Path's: they answer False where a name too long makes stat() fail.
    given = Path(path)
    if not os.path.isdir(given.parent):
        raise _refuse(field, path, "allowed a path in an existing folder")
    try:
        name_max = os.pathconf(given.parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = _NAME_MAX
    length = len(os.fsencode(given.name))
    if length > name_max:
        raise _refuse(field, path, f"allowed a file name of at most {name_max} bytes in this "
                                   f"folder ({length} given)")
    if os.path.isdir(given):
        raise _refuse(field, path, "allowed a file, not a folder")
    target = Path(os.path.realpath(given))  # a link is written through, as open() would
    if _is_special(target):
        if not os.access(target, os.W_OK):
            raise _refuse(field, path, "allowed a writable file (Permission denied)")
        return
    if os.path.exists(target) and not os.access(target, os.W_OK):
        # Renaming over a write-protected file would succeed; it is protected for a reason.
        raise _refuse(field, path, "allowed a writable file (Permission denied)")
    _probe(target.parent, field, path)


def check_folder(path: str | Path, field: str, *, new_ok: bool = False) -> None:
    """Refuse an output folder in which no file can be created, before a run.

    With ``new_ok`` a folder that does not exist yet passes if it can be made (its parent exists
    and takes a new entry of that name).

    Raises
    ------
    OutputError
        ``allowed an existing folder``, or as :func:`check_file`.
    """
    folder = Path(path)
    if os.path.isdir(folder):
        _probe(folder, field, path)
    elif new_ok and not os.path.lexists(folder):
        check_file(folder, field)
    else:
        raise _refuse(field, path, "allowed an existing folder")


def _sync(path: Path) -> None:
    """Flush a written file to the disk, so that after a crash the renamed file holds its data
    (not an empty or zero-filled file, as delayed allocation may leave)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


@contextmanager
def atomic_path(path: str | Path, field: str = "out") -> Iterator[str]:
    """A temporary path to write ``path``'s content to; renamed over ``path`` when complete.

    The temporary file is in ``path``'s folder (a rename within a file system is atomic) and
    keeps its suffix. On leaving the block it is synced and renamed onto ``path``, taking the
    permissions of the file it replaces. On any failure, Ctrl-C included, it is removed and
    ``path`` is untouched. A device or pipe is written in place.

    Raises
    ------
    OutputError
        ``field='path': not written (reason)`` on any ``OSError`` (a full disk, a quota).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_path(folder / "a.txt") as temporary:
    ...     _ = Path(temporary).write_text("whole")
    >>> [p.name for p in folder.iterdir()], (folder / "a.txt").read_text()
    (['a.txt'], 'whole')
    >>> import shutil; shutil.rmtree(folder)
    """
    target = Path(os.path.realpath(path))
    try:
        if _is_special(target):
            yield str(target)
            return
        temporary = _create_temporary(target.parent, target.name)
        try:
            yield str(temporary)
            _sync(temporary)
            if os.path.exists(target):
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
            os.replace(temporary, target)
        finally:
            temporary.unlink(missing_ok=True)  # gone already once renamed
    except OSError as error:
        raise _refuse(field, path, f"not written ({_reason(error)})") from None


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a CSV cell as a formula (OWASP, "CSV
injection")."""

_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def csv_cell(value: object) -> object:
    """A CSV cell as a spreadsheet can open it safely: text that starts like a formula
    (:data:`FORMULA_STARTS`, e.g. a variant label ``=HYPERLINK(…)``) gets a leading ``'``, so
    it shows as the text it is. Numbers, and text that is a plain number (``-5``), pass as they
    are. Every CSV the tool writes passes its cells through here.

    >>> csv_cell("=HYPERLINK('x')"), csv_cell("@SUM(1)"), csv_cell("-5"), csv_cell(-5)
    ("'=HYPERLINK('x')", "'@SUM(1)", '-5', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(
            value):
        return "'" + value
    return value


def write_text(path: str | Path, text: str, field: str = "out") -> None:
    """Write a UTF-8 text file whole or not at all (:func:`atomic_path`)."""
    with atomic_path(path, field) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")


__all__ = ["FORMULA_STARTS", "OutputError", "atomic_path", "check_file", "check_folder", "csv_cell",
           "shown", "write_text"]
