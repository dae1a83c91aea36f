"""The command line: ``spades-sim`` and ``python -m spades_sim``."""

import contextlib
import gc
import os
import signal
import sys


def _interrupted_while_loading(signum: int, frame: object) -> None:
    # Nothing has started yet, so there is nothing to keep: leave quietly, with the shell's
    # code for an interrupt, instead of a traceback from deep inside an import. Not by
    # sys.exit: a library's bare ``except:`` around an import would swallow the SystemExit,
    # and the run would go on as if Ctrl-C had never been pressed.
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a closed or full stderr
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    os._exit(130)


def main() -> None:
    """Run the command line; Ctrl-C while numba, pandas and the kernel load exits 130 quietly.
    A closed stdout or a ``NUMBA_*`` setting numba or a run cannot take ends in one line, exit 2,
    before anything starts; a stdout that fails during the run, once the command is done, in
    exit 141 (its reader left) or one line and exit 2 (``environment.StandardStreams``)."""
    quiet = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if quiet:  # an ignored SIGINT (a background job) stays ignored
        signal.signal(signal.SIGINT, _interrupted_while_loading)
    from .environment import SettingsError, StandardStreams, check_numba_settings, say_error

    try:  # before the command line imports numba, which reads them once, as it is imported
        streams = StandardStreams()
        check_numba_settings()
    except SettingsError as error:
        say_error(str(error))
        sys.exit(2)
    from .cli import cli

    if quiet:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cli()
    except SystemExit as end:
        sys.exit(streams.exit_code(end.code))
    finally:
        # Everything is printed and written: spare the exit the collector's passes over the
        # libraries' millions of objects (the best part of a second, which a Ctrl-C waits for).
        gc.freeze()


if __name__ == "__main__":
    main()
