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
one, and no temporary file; a process killed half-way leaves one, which
:func:`remove_temporaries` clears where a folder is the command's own (a saved run).

:func:`check_apart` refuses, before a run, a command whose outputs would
overwrite one of its inputs or each other: compared by resolved path and by
file identity, so that hard links and symbolic links are caught too. Every
failure is an :class:`OutputError`: one line naming the option, the (shortened)
path and the reason.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
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


_TEMPORARY = re.compile(r"\..{1,32}\.[0-9a-f]{8}\.tmp(\.[^/]{1,16})?", re.S)
"""The names :func:`_create_temporary` gives."""


def is_temporary(name: str) -> bool:
    """Whether ``name`` is a temporary file's name as :func:`atomic_path` makes them.

    >>> is_temporary(".manifest.json.1f2e3d4c.tmp.json"), is_temporary("manifest.json")
    (True, False)
    >>> is_temporary(".block-000000000000-0000100.1f2e3d4c.tmp.parquet")  # a name cut at 32
    True
    """
    return _TEMPORARY.fullmatch(name) is not None


def remove_temporaries(folder: str | Path) -> list[str]:
    """Remove the temporary files a killed writer left in ``folder`` (the names of
    :func:`is_temporary`, regular files only); returns their names.

    Only for a folder the caller holds alone (a saved run under its lock): there, a temporary
    file belongs to no writer still running.
    """
    removed = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if is_temporary(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(entry.name)
    return removed


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


def _controls(text: str) -> str:
    """The characters of ``text`` that a file name should not hold: NUL and the other control
    characters (a newline breaks every line that names the file), and the line separators."""
    return "".join(c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp"))


def check_name(path: str | Path, field: str) -> None:
    """Refuse an output path that holds a control character (NUL, a newline, a tab …): no
    file system takes a NUL, and any of them breaks the lines that name the file.

    >>> try:
    ...     check_name("runs/a\\nb.csv", "out")
    ... except OutputError as error:
    ...     print(error)
    out='runs/a\\nb.csv': allowed a path without control characters ('\\n' given)
    """
    found = _controls(str(path))
    if found:
        raise _refuse(field, path, "allowed a path without control characters "
                                   f"({shown(''.join(dict.fromkeys(found)), 20)!r} given)")


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
        A folder at ``path`` or a path ending in ``/`` (which names a folder), a missing
        folder, a name too long for the file system or with a control character in it
        (:func:`check_name`), a write-protected file, or a folder where no file can be
        created (read-only, ``/proc``).

    Examples
    --------
    >>> check_file("/no-such/x.csv", "log")
    Traceback (most recent call last):
    ...
    spades_sim.outputs.OutputError: log='/no-such/x.csv': allowed a path in an existing folder
    """
    _check_entry(path, field, "file")
    given = Path(path)
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


def _check_entry(path: str | Path, field: str, kind: str, where: Path | None = None) -> None:
    """Refuse a path whose last name cannot be made: control characters, a path that ends in
    ``/`` for a file, a folder that does not exist, a name longer than the file system takes.
    ``kind``: ``file`` or ``folder``, the entry the option makes; ``where``: the existing
    folder whose file system the name is for (default: its parent, which must exist)."""
    check_name(path, field)
    text = str(path)
    if kind == "file" and text.endswith(("/", os.sep)):
        raise _refuse(field, path, "allowed a file name (a path ending in / names a folder)")
    # os.path's tests, not Path's: they answer False where a name too long makes stat() fail.
    given = Path(path)
    if where is None and not os.path.isdir(given.parent):
        raise _refuse(field, path, "allowed a path in an existing folder")
    try:
        name_max = os.pathconf(where or given.parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = _NAME_MAX
    length = len(os.fsencode(given.name))
    if length > name_max:
        raise _refuse(field, path, f"allowed a {kind} name of at most {name_max} bytes in this "
                                   f"folder ({length} given)")


def check_folder(path: str | Path, field: str, *, new_ok: bool = False) -> None:
    """Refuse an output folder in which no file can be created, before a run.

    With ``new_ok`` a folder that does not exist yet passes if it can be made (its parent exists
    and takes a new entry of that name).

    Raises
    ------
    OutputError
        ``allowed an existing folder``, or as :func:`check_file` (a path ending in ``/`` is
        a folder here).
    """
    check_name(path, field)
    folder = Path(path)
    if os.path.isdir(folder):
        _probe(folder, field, path)
    elif new_ok and not os.path.lexists(folder):
        _check_entry(folder, field, "folder")
        _probe(folder.parent, field, path)
    else:
        raise _refuse(field, path, "allowed an existing folder")


Paths = str | Path | Iterable[str | Path] | None
"""What an option names: one path, several (a figure and its SVG twin), or none (not given)."""


@dataclass(frozen=True)
class _Place:
    """One path a command reads or writes, as :func:`check_apart` compares it."""

    field: str
    path: str | Path
    output: bool
    folder: bool
    """An output folder the command fills: everything in it is the command's."""
    real: str
    """The path with every link resolved."""
    identity: tuple[int, int] | None
    """(st_dev, st_ino) of an existing regular file or folder; None for a device or a pipe
    (written in place, never replaced) and for a path that does not exist yet."""

    def holds(self, other: _Place) -> bool:
        """Whether ``other`` is this output folder or inside it."""
        return self.folder and (other.real == self.real
                                or other.real.startswith(self.real.rstrip(os.sep) + os.sep))


def _places(named: Mapping[str, Paths], output: bool, folder: bool) -> list[_Place]:
    places = []
    for field, paths in named.items():
        if paths is None:
            continue
        for path in [paths] if isinstance(paths, str | Path) else paths:
            if str(path) in ("", "-") or _controls(str(path)):
                continue  # stdout, or a name check_name refuses (and no file system takes)
            real = os.path.realpath(path)  # as far as it exists: a new file's folder too
            try:
                info: os.stat_result | None = os.stat(real)
            except OSError:
                info = None
            identity = None
            if info is not None:
                if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                    continue  # a device or a pipe: written in place, nothing is overwritten
                identity = (info.st_dev, info.st_ino)
            places.append(_Place(field, path, output, folder, real, identity))
    return places


def _contents(folder: _Place, most: int = 10_000) -> Iterator[tuple[str, tuple[int, int]]]:
    """(name, identity) of the files an existing output folder holds now (a link by the file it
    links), at most ``most``."""
    try:
        with os.scandir(folder.real) as entries:
            for count, entry in enumerate(entries):
                if count >= most:
                    return
                if entry.is_file():  # through a link: a writer writes through it too
                    info = entry.stat()
                    yield entry.name, (info.st_dev, info.st_ino)
    except OSError:
        return  # not there yet, or unreadable: the folder's own checks say so


def _clash(other: _Place, output: _Place) -> tuple[_Place, str] | None:
    """The option to blame and why, when ``output`` cannot be written beside ``other`` (an
    input, or an output declared before it); None when it can."""
    if other.real == output.real or (other.identity is not None
                                     and other.identity == output.identity):
        what = ("both outputs would be written to one place" if other.output
                else "the same file: writing it would overwrite that input")
        return output, f"allowed a path other than {other.field}={shown(other.path)!r} ({what})"
    if output.holds(other):
        if not other.output:
            return output, (f"allowed a folder that does not hold {other.field}="
                            f"{shown(other.path)!r} (an input, in the folder it fills)")
        return other, f"allowed a path outside {output.field}={shown(output.path)!r}, which " \
                      "the command fills"
    if other.holds(output):
        return output, f"allowed a path outside {other.field}={shown(other.path)!r}, which " \
                       "the command fills"
    return None


def check_apart(inputs: Mapping[str, Paths], outputs: Mapping[str, Paths],
                folders: Mapping[str, Paths] | None = None) -> None:
    """Refuse, before a run, a command whose outputs would overwrite an input or each other.

    Every output (a file of ``outputs``, or a folder of ``folders`` that the command fills,
    with everything in it) is compared with every input and every other output: by resolved
    path, so that a symbolic link is its target, and by file identity (``st_dev``,
    ``st_ino``), so that a hard link is the file it links. An input inside an output folder
    clashes, as does a link (hard or symbolic) to an input in it, and an output file inside
    one. ``-`` (stdout), devices and pipes (written in place) and options not given (None) are
    left out.

    Parameters
    ----------
    inputs, outputs, folders : mapping of option name to path(s)
        What the command reads; the files it writes; the folders it fills.

    Raises
    ------
    OutputError
        Naming the output, the other option and why: ``log='r.toml': allowed a path other
        than rules='./r.toml' (the same file: writing it would overwrite that input)``.

    Examples
    --------
    >>> try:
    ...     check_apart({"rules": "house.toml"}, {"out": "x.json", "log": "./x.json"})
    ... except OutputError as error:
    ...     print(error)  # doctest: +NORMALIZE_WHITESPACE
    log='./x.json': allowed a path other than out='x.json' (both outputs would be written to one
    place)
    """
    read = _places(inputs, False, False)
    written = _places(outputs, True, False) + _places(folders or {}, True, True)
    for index, output in enumerate(written):
        for other in read + written[:index]:
            found = _clash(other, output)
            if found is not None:
                raise _refuse(found[0].field, found[0].path, found[1])
    identities = {place.identity: place for place in read if place.identity is not None}
    for folder in (place for place in written if place.folder):
        for name, identity in _contents(folder):
            if identity in identities:
                other = identities[identity]
                raise _refuse(folder.field, folder.path,
                              f"allowed a folder that does not hold {other.field}="
                              f"{shown(other.path)!r} ({name} in it is that input's file)")


def check_new_folders(path: str | Path, field: str, given: str | Path | None = None) -> None:
    """Refuse, before a run, a folder that cannot be made with its missing parents: each new
    name must be one the file system takes (:func:`check_folder`), under a folder, not a
    file, that exists and takes new entries. An existing folder must take new files.
    ``given``: the value of the option, as a message quotes it (default ``path``)."""
    check_name(path, field)
    missing = Path(path)
    # os.path's tests, not Path's: they answer False where a name too long makes stat() fail.
    while not os.path.exists(missing.parent) and missing.parent != missing:
        missing = missing.parent
    blocker = missing if os.path.exists(missing) else missing.parent
    if not os.path.isdir(blocker):
        raise _refuse(field, path if given is None else given,
                      f"allowed a folder ({shown(blocker)} is a file)")
    new = Path(path)
    while new != missing and new != new.parent:  # the names check_folder does not see
        _check_entry(new, field, "folder", Path(missing.parent))
        new = new.parent
    check_folder(missing, field, new_ok=True)


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
    check_name(path, field)  # a NUL would fail below with a ValueError, not an OSError
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


__all__ = ["FORMULA_STARTS", "OutputError", "Paths", "atomic_path", "check_apart", "check_file",
           "check_folder", "check_name", "check_new_folders", "csv_cell", "is_temporary",
           "remove_temporaries", "shown", "write_text"]
