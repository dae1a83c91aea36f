"""What a command finds around it as it starts: the ``NUMBA_*`` variables and the standard streams.

numba reads its settings once, when it is imported: some bad values end the import with a
traceback (``NUMBA_NUM_THREADS=0``), others print a warning of several lines and fall back to a
default (``NUMBA_NUM_THREADS=abc``, ``NUMBA_OPT=7``), and others are taken and fail later, or
never (``NUMBA_NUM_THREADS=100000``, ``NUMBA_THREADING_LAYER=nonsense``).
:func:`check_numba_settings` refuses all of them in one line before the command line starts:
the variables that matter to a run by their own rules, and any other that numba cannot read by
numba's own warning or error, caught as numba is imported.

A stdout closed before the start (``>&-``) would lose every result; :class:`StandardStreams`
refuses it before any work. A stdout that fails during the run, a reader that left
(``| head -1``) or a full disk (``> /dev/full``), ends the printing but not the command, which
still writes every file it was asked for; it then exits 141 (128 + SIGPIPE, as other programs
whose reader left) or, for any other failure, with one line and exit 2. A failing stderr is
dropped quietly (there is nowhere left to say so). Neither ever ends in a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import re
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from .numbers import is_digits
from .outputs import shown


class SettingsError(ValueError):
    """An environment variable with a value spades-sim or numba cannot take (one-line
    message)."""


def machine_cores() -> int:
    """The cores this process may run on: numba's default for ``NUMBA_NUM_THREADS``."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _num_threads(value: str) -> str | None:
    most = machine_cores()
    if is_digits(value) and 1 <= int(value) <= most:
        return None
    return f"allowed a whole number from 1 to {most} (the cores this process may use)"


def _one_of(*allowed: str) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        return None if value.lower() in allowed else f"allowed one of {', '.join(allowed)}"
    return check


def _priority(value: str) -> str | None:
    if sorted(value.split()) == ["omp", "tbb", "workqueue"]:
        return None
    return "allowed tbb, omp and workqueue in any order, separated by spaces"


def _jit_on(value: str) -> str | None:
    return None if value.strip() in ("", "0") else "allowed 0 (the kernel needs numba's compiler)"


CHECKS: dict[str, Callable[[str], str | None]] = {
    "NUMBA_NUM_THREADS": _num_threads,
    "NUMBA_OPT": _one_of("0", "1", "2", "3", "max"),
    "NUMBA_THREADING_LAYER": _one_of("default", "safe", "threadsafe", "forksafe", "tbb", "omp",
                                     "workqueue"),
    "NUMBA_THREADING_LAYER_PRIORITY": _priority,
    "NUMBA_DISABLE_JIT": _jit_on,
}
"""The variables checked by spades-sim's own rules: each check returns what is allowed when the
value is not, else None."""

NUMBA_CONFIG_FILE = ".numba_config.yaml"
"""The file of settings numba reads from the working folder, if PyYAML is installed."""

_UNREADABLE = re.compile(r"Environment variable '(NUMBA_\w+)' is defined but its associated "
                         r"value '(.*)' could not be parsed", re.S)


def _refused(name: str, value: str, allowed: str, where: str = "") -> SettingsError:
    return SettingsError(f"{name}={shown(value)!r}{where}: {allowed}")


def _numba_settings(environ: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """Every ``NUMBA_*`` setting numba will read, as name: (value, where it is set), the way
    numba reads them: a key of ``.numba_config.yaml`` (when PyYAML is installed) as
    ``NUMBA_`` and the key in capitals, a variable of the environment over it."""
    settings: dict[str, tuple[str, str]] = {}
    if os.path.isfile(NUMBA_CONFIG_FILE):
        try:
            yaml = importlib.import_module("yaml")  # numba's optional PyYAML, as numba finds it
            with open(NUMBA_CONFIG_FILE, encoding="utf-8") as file:
                loaded = yaml.safe_load(file)
        except Exception:  # numba ignores it without PyYAML, or refuses it as it is imported
            loaded = None
        if isinstance(loaded, dict):
            settings.update({f"NUMBA_{str(key).upper()}": (str(value), f" (in {NUMBA_CONFIG_FILE})")
                             for key, value in loaded.items()})
    settings.update({name: (value, "") for name, value in environ.items()
                     if name.startswith("NUMBA_")})
    return settings


def check_numba_settings(environ: Mapping[str, str] | None = None) -> None:
    """Refuse, as a :class:`SettingsError`, a ``NUMBA_*`` variable of ``environ`` (the process's
    own by default) or setting of ``.numba_config.yaml`` that spades-sim cannot run with
    (:data:`CHECKS`), then import numba and refuse any setting numba cannot read: its warning,
    or its error at import.

    Call it before numba is first imported (it reads its settings once)."""
    settings = _numba_settings(os.environ if environ is None else environ)
    for name, check in CHECKS.items():
        if name in settings:
            value, where = settings[name]
            allowed = check(value)
            if allowed is not None:
                raise _refused(name, value, allowed, where)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import numba  # noqa: F401  (reads every NUMBA_* variable, and .numba_config.yaml)
        except Exception as error:
            message = " ".join(str(error).split())
            field = NUMBA_CONFIG_FILE if os.path.isfile(NUMBA_CONFIG_FILE) else "NUMBA_*"
            raise SettingsError(f"{field}: numba cannot start with these settings "
                                f"({type(error).__name__}: {shown(message)}): allowed settings "
                                "numba accepts (the NUMBA_* variables and a .numba_config.yaml "
                                "in the working folder)") from None
    for warning in caught:
        found = _UNREADABLE.match(str(warning.message))
        if found:
            name, value = found.groups()
            number = "int()" in str(warning.message)
            raise _refused(name, value, "allowed a whole number" if number
                           else "allowed a value numba can read", settings.get(name, ("", ""))[1])
    for warning in caught:  # numba took its settings: its other warnings are shown as usual
        warnings.showwarning(warning.message, warning.category, warning.filename,
                             warning.lineno)


SIGPIPE_EXIT = 128 + 13
"""The exit code of a command whose stdout's reader left (128 + SIGPIPE), as coreutils give."""


class _Guarded(io.RawIOBase):
    """A standard stream's file descriptor whose first failed write is kept, not raised: from
    then on writes go nowhere (the descriptor itself is pointed at the null device, for any
    library writing to it directly)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.error: OSError | None = None

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return self.error is None and os.isatty(self.fd)

    def write(self, data: Any) -> int:
        size = memoryview(data).nbytes
        if self.error is None:
            try:
                return os.write(self.fd, data)
            except OSError as error:
                self.error = error
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self.fd)
                os.close(devnull)
        return size


def say_error(message: str) -> None:
    """Write ``Error: message`` to stderr's descriptor directly, before the streams are guarded
    (a stderr that fails too leaves nothing to say it with)."""
    with contextlib.suppress(OSError):
        os.write(2, f"Error: {message}\n".encode(errors="backslashreplace"))


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


class StandardStreams:
    """The process's stdout and stderr, guarded (:class:`_Guarded`) for a command's run: a
    closed stdout is refused at once (:class:`SettingsError`), and :meth:`exit_code` turns the
    command's exit code and the stdout's fate into the process's."""

    def __init__(self) -> None:
        if sys.stdout is None or not _is_open(1):
            raise SettingsError("stdout: closed: allowed a terminal, a file or a pipe to print "
                                "the results to")
        if sys.stderr is None:
            # a closed stderr (2>&-) is the null device: no file the command opens may become
            # descriptor 2, where a library's messages would land
            if not _is_open(2):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 2)
                os.close(devnull)
            sys.stderr = io.TextIOWrapper(io.BufferedWriter(_Guarded(2)), encoding="utf-8",
                                          errors="backslashreplace", write_through=True)
        else:
            sys.stderr = self._wrap(sys.stderr, _Guarded(2))
        self.stdout = _Guarded(1)
        sys.stdout = self._wrap(sys.stdout, self.stdout)

    @staticmethod
    def _wrap(stream: TextIO, raw: _Guarded) -> TextIO:
        stream.flush()
        return io.TextIOWrapper(io.BufferedWriter(raw), encoding=stream.encoding,
                                errors=stream.errors, line_buffering=bool(stream.line_buffering),
                                write_through=bool(getattr(stream, "write_through", False)))

    def exit_code(self, code: Any) -> Any:
        """The exit code for a command that ended with ``code`` (``sys.exit``'s argument): a
        failure of stdout during a command that otherwise succeeded exits 141 when its reader
        left, else 2 after one line on stderr."""
        with contextlib.suppress(OSError, ValueError):  # a stream a library closed
            sys.stdout.flush()
        failure = self.stdout.error
        if failure is None or code not in (0, None):
            return code
        if failure.errno == errno.EPIPE:
            return SIGPIPE_EXIT
        sys.stderr.write(f"Error: stdout: not written ({failure.strerror or failure})\n")
        sys.stderr.flush()
        return 2
