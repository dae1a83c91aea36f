"""Input files: regular files only, bounded in size, and parsed with bounded nesting.

Every file spades-sim reads (rules files, studies, hand logs, a saved run's manifest and
shards, calibration tables) is opened here, by :func:`open_input`, :func:`read_bytes` or
:func:`read_text`. None of its commands reads a stream, so a named pipe, a device
(``/dev/zero``, a terminal) or a folder is refused in one line rather than read: a pipe
with no writer would block for ever, a device may never end. The file is opened first
and then examined (``fstat`` on the open file, so it cannot be swapped between the check
and the read), and a pipe is opened without waiting for a writer (``O_NONBLOCK``).

Each format has an upper bound on its size (the ``MAX_*`` constants below, listed in
docs/guarantees.md), and :func:`loads_toml` and :func:`loads_json` bound how deep its
tables and lists nest: Python's parsers would otherwise raise ``RecursionError`` on a
file nested a few thousand levels deep.

A reader names its own error: each function takes ``refuse``, which turns the words
after ``allowed`` into the reader's exception (``RulesError``, ``LogError``, ...), so the
line the user sees names the reader's field: ``rules='/dev/zero': allowed a regular file
(not a character device)``.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

Refuse = Callable[[str], Exception]
"""Builds a reader's exception from what is allowed (``"a regular file (not a folder)"``)."""

MAX_TEXT_BYTES = 1 << 20
"""The largest rules file, study file, manifest of a saved run or calibration index (1 MiB;
the largest shipped one is under 4 KB)."""
MAX_LOG_BYTES = 1 << 32
"""The largest hand log (4 GiB: a run logs at most 100,000 games, about 2 KB a hand)."""
MAX_LOG_LINE = 1 << 20
"""The longest line of a hand log in characters, its line end included (a hand's line is about
2,000)."""
MAX_SHARD_BYTES = 16 << 20
"""The largest shard of a saved run (16 MiB; one is about 200 KB)."""
MAX_TABLES_BYTES = 16 << 20
"""The largest calibration table file, ``FAMILY.npz`` (16 MiB; the shipped ones are under
20 KB)."""
MAX_NESTING = 32
"""The deepest nesting of tables and lists in any TOML or JSON input (a hand log's tricks,
the deepest of the formats, nest 3 deep)."""

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def size_text(size: int) -> str:
    """A number of bytes as a message writes it.

    >>> size_text(1 << 20), size_text(16 << 20), size_text(1 << 32), size_text(1500)
    ('1 MiB', '16 MiB', '4 GiB', '1,500 bytes')
    """
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift:,} {unit}"
    return f"{size:,} bytes"


def _too_large(most: int, size: int) -> str:
    return f"a file of at most {size_text(most)} ({size:,} bytes)"


def open_input(path: str | Path, refuse: Refuse, most: int) -> BinaryIO:
    """The file at ``path`` open for reading in binary (the caller closes it), once it is known
    to be a regular file of at most ``most`` bytes.

    Raises
    ------
    OSError
        The file cannot be opened (missing, unreadable, a name too long): the reader words it.
    Exception
        ``refuse(...)`` for anything but a regular file, or a file larger than ``most``.
    """
    # O_NONBLOCK: opening a named pipe for reading would otherwise wait for a writer.
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(f"a regular file (not {_kind(info.st_mode)})")
        if info.st_size > most:
            raise refuse(_too_large(most, info.st_size))
        os.set_blocking(handle, True)
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def read_bytes(path: str | Path, refuse: Refuse, most: int) -> bytes:
    """A regular file's content, at most ``most`` bytes (:func:`open_input`)."""
    with open_input(path, refuse, most) as file:
        data = file.read(most + 1)
    if len(data) > most:  # it grew after it was opened
        raise refuse(_too_large(most, len(data)))
    return data


def read_text(path: str | Path, refuse: Refuse, most: int = MAX_TEXT_BYTES) -> str:
    """A regular file's UTF-8 text with universal newlines, as ``Path.read_text`` reads it.

    Raises
    ------
    UnicodeDecodeError
        The file is not UTF-8 (the reader words it), and as :func:`read_bytes`.
    """
    text = read_bytes(path, refuse, most).decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def nesting(value: Any) -> int:
    """How deep lists and tables nest in a parsed value (a scalar: 0), without recursion.

    >>> nesting(1), nesting([1, 2]), nesting({"a": [[1], []]})
    (0, 1, 3)
    """
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, list | tuple) else None)
        if children is not None:
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _bounded(kind: str, parse: Callable[[str], Any], not_parsed: type[ValueError], text: str,
             refuse: Refuse) -> Any:
    """``parse(text)``, refused when nested deeper than :data:`MAX_NESTING` or holding an
    integer of more digits than Python converts; ``not_parsed`` (a syntax error) passes."""
    nested = f"{kind} nested at most {MAX_NESTING} deep"
    try:
        raw = parse(text)
    except RecursionError:
        raise refuse(nested) from None
    except not_parsed:
        raise
    except ValueError:  # Python's own limit on the digits of an integer
        raise refuse(f"{kind} with numbers of at most {sys.get_int_max_str_digits()} digits"
                     ) from None
    if nesting(raw) > MAX_NESTING:  # parsed, but deeper than any format of ours
        raise refuse(nested)
    return raw


def loads_toml(text: str, refuse: Refuse) -> dict[str, Any]:
    """Parse TOML whose tables and lists nest at most :data:`MAX_NESTING` deep.

    Raises
    ------
    tomllib.TOMLDecodeError
        Not TOML (the reader words it).
    Exception
        ``refuse(...)`` for TOML nested too deep, or with a number of more digits than Python
        converts.
    """
    raw: dict[str, Any] = _bounded("TOML", tomllib.loads, tomllib.TOMLDecodeError, text, refuse)
    return raw


def read_toml(path: str | Path, refuse: Refuse) -> dict[str, Any]:
    """A TOML file read as every reader reads one (:func:`read_text`, :func:`loads_toml`), each
    fault refused in the same words: ``refuse("a readable file (reason)")``, ``refuse("a UTF-8
    TOML file")``, ``refuse("valid TOML (reason)")``, or the bounds' own refusals."""
    try:
        return loads_toml(read_text(path, refuse), refuse)
    except OSError as error:
        raise refuse(f"a readable file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise refuse("a UTF-8 TOML file") from None
    except tomllib.TOMLDecodeError as error:
        raise refuse(f"valid TOML ({error})") from None


def loads_json(text: str, refuse: Refuse) -> Any:
    """Parse JSON whose objects and arrays nest at most :data:`MAX_NESTING` deep.

    Raises
    ------
    json.JSONDecodeError
        Not JSON (the reader words it).
    Exception
        ``refuse(...)`` as :func:`loads_toml`.
    """
    return _bounded("JSON", json.loads, json.JSONDecodeError, text, refuse)


__all__ = ["MAX_LOG_BYTES", "MAX_LOG_LINE", "MAX_NESTING", "MAX_SHARD_BYTES", "MAX_TABLES_BYTES",
           "MAX_TEXT_BYTES", "Refuse", "loads_json", "loads_toml", "nesting", "open_input",
           "read_bytes", "read_text", "read_toml", "size_text"]
