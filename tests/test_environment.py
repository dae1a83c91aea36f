"""The environment fails cleanly: a damaged or unusable kernel cache, bad ``NUMBA_*`` settings, a
closed, full or abandoned stdout (docs/guarantees.md, "Environment").

Each test runs the real command line (or, where a command would compile the whole kernel, a few
lines of the library) in a process of its own with the environment changed. The cache tests
work on a copy of the compiled cache in which only one small kernel function's entry is damaged
(``sums._hand_metric_sums``, compiled again in a few seconds), never on the cache itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_outputs import _mounted  # a tmpfs mounted for a block, or the test skipped

from spades_sim.environment import machine_cores
from spades_sim.kernel import cache, sums
from spades_sim.outputs import shown

RUN = ["simulate", "--hands", "100", "--seed", "1", "--quiet"]
"""A small run of the CLI: it loads the hand kernel and ``sums._hand_metric_sums``."""

DAMAGED = "sums._hand_metric_sums"
"""The kernel function whose cache entry the tests damage: small, compiled again in seconds."""

METRIC_SUMS = """
import numpy as np
from spades_sim.kernel import drivers
columns = np.arange(24, dtype=np.float64).reshape(2, 4, 3).copy()
out = drivers.metric_sums(columns, np.zeros(2, np.int64), np.array([0], np.int64),
                          np.array([1], np.int64))
print(out.sum())
"""
"""The library's smallest kernel call (``sums._metric_sums``, compiled in a second or two), for
a cache that cannot be used at all, where any command would compile the whole kernel."""


def spades_sim(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None,
               **popen: object) -> subprocess.CompletedProcess[str]:
    """Run ``spades-sim ARGS`` in a process of its own, the environment updated with ``env``."""
    options = {"capture_output": True, **popen}
    return subprocess.run([sys.executable, "-m", "spades_sim", *args], text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=300, **options)


@pytest.fixture(scope="module")
def baseline() -> str:
    """The small run's output with the cache as it is (which also leaves that run compiled)."""
    done = spades_sim(RUN)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def cache_copy(tmp_path: Path, baseline: str) -> tuple[Path, Path]:
    """A copy of the compiled kernel's cache: its base (for ``NUMBA_CACHE_DIR``) and numba's
    sub-folder in it that holds the entries."""
    assert cache.FOLDER is not None
    entries = Path(sums._hand_metric_sums._cache.cache_path)
    base = tmp_path / "cache"
    copy = base / Path(cache.FOLDER).name / entries.relative_to(cache.FOLDER)
    shutil.copytree(entries, copy)
    return base, copy


def _entry(folder: Path, suffix: str) -> Path:
    (found,) = folder.glob(f"{DAMAGED}-*{suffix}")
    return found


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x80\x05 not a pickle at all " * 4)


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:200])


@pytest.mark.parametrize(("suffix", "damage"), [(".nbi", _garbage), (".1.nbc", _truncated)])
def test_a_damaged_cache_entry_is_set_aside_and_compiled_again(
        cache_copy: tuple[Path, Path], baseline: str, suffix: str,
        damage: Callable[[Path], None]) -> None:
    """An index or data file that numba cannot unpickle: one note, the same results, the index
    renamed ``.bad``, and the entry written again (the next run says nothing). About 7 s (two
    runs, one compiling the entry) on an idle machine."""
    base, folder = cache_copy
    damage(_entry(folder, suffix))
    done = spades_sim(RUN, {"NUMBA_CACHE_DIR": str(base)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == baseline
    (note,) = done.stderr.splitlines()
    assert note.startswith(f"note: the kernel cache entry {DAMAGED}-") and note.endswith(
        f".nbi{cache.SET_ASIDE}, compiling it again"), note
    assert "Traceback" not in done.stderr
    assert _entry(folder, f".nbi{cache.SET_ASIDE}").is_file()
    again = spades_sim(RUN, {"NUMBA_CACHE_DIR": str(base)})
    assert (again.returncode, again.stdout, again.stderr) == (0, baseline, "")


def test_an_entry_that_cannot_be_read_nor_written_is_compiled_in_memory(
        cache_copy: tuple[Path, Path], baseline: str) -> None:
    """A folder where the entry's index should be: it can be neither read nor replaced (for
    root too, whom no file mode stops). One note, the same results, each run. About 7 s."""
    base, folder = cache_copy
    index = _entry(folder, ".nbi")
    index.unlink()
    index.mkdir()
    done = spades_sim(RUN, {"NUMBA_CACHE_DIR": str(base)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == baseline
    (note,) = done.stderr.splitlines()
    assert note.startswith("note: the kernel cache folder ") and note.endswith(
        "(from NUMBA_CACHE_DIR) cannot be used (Is a directory): the kernel is compiled in "
        "memory, for this process only"), note


def test_a_read_only_cache_folder_loads_what_it_holds_and_compiles_the_rest_in_memory(
        cache_copy: tuple[Path, Path], baseline: str, tmp_path: Path) -> None:
    """A read-only copy of the cache without the one small entry: the rest loads, that entry
    is compiled in memory, one note. Read-only by its mode, or for root (whom modes do not stop)
    a tmpfs mounted read-only (skipped where mounting is not allowed). About 5 s."""
    base, folder = cache_copy
    for entry in folder.glob(f"{DAMAGED}-*"):
        entry.unlink()
    if os.geteuid() == 0:
        mounted = tmp_path / "ro"
        with _mounted(mounted, "size=64m"):
            shutil.copytree(base, mounted / "cache")
            subprocess.run(["mount", "-o", "remount,ro", str(mounted)], check=True)
            done = spades_sim(RUN, {"NUMBA_CACHE_DIR": str(mounted / "cache")})
        reason = "Read-only file system"
    else:
        for path in (folder, *folder.parents[:2]):
            path.chmod(0o555)
        try:
            done = spades_sim(RUN, {"NUMBA_CACHE_DIR": str(base)})
        finally:
            for path in (folder, *folder.parents[:2]):
                path.chmod(0o755)
        reason = "Permission denied"
    assert done.returncode == 0, done.stderr
    assert done.stdout == baseline
    (note,) = done.stderr.splitlines()
    assert note.startswith("note: the kernel cache folder ") and note.endswith(
        f"(from NUMBA_CACHE_DIR) cannot be used ({reason}): the kernel is compiled in memory, "
        "for this process only")


@pytest.mark.parametrize(("variable", "under"), [("NUMBA_CACHE_DIR", ""),
                                                 ("XDG_CACHE_HOME", "spades-sim"),
                                                 ("HOME", ".cache/spades-sim")])
def test_a_cache_folder_that_cannot_be_made_compiles_in_memory(tmp_path: Path, variable: str,
                                                               under: str) -> None:
    """The cache's folder (or the home folder it is in) under a file: the kernel is compiled
    in memory, with one note naming the folder. About 5 s."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env[variable] = str(blocker)
    done = subprocess.run([sys.executable, "-c", METRIC_SUMS], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "6744.0\n"
    (note,) = done.stderr.splitlines()
    folder = shown(blocker / under / Path(cache.FOLDER or "").name)
    assert note == (f"note: the kernel cache folder {folder} (from {variable}) cannot be used "
                    "(Not a directory): the kernel is compiled in memory, for this process only")


def test_the_warm_up_helper_sets_a_damaged_entry_aside_too(cache_copy: tuple[Path, Path],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper process of a first run compiles its group into the same cache: a damaged entry
    there is set aside and written again, not a crash. About 7 s."""
    from spades_sim.kernel import warmup
    from spades_sim.run.blocks import prepare_table

    base, folder = cache_copy
    _garbage(_entry(folder, ".nbi"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base))
    table = prepare_table("standard", "random")
    helper = warmup.start_compiling((warmup.HELPER_GROUP,), table.packed_rules,
                                    table.packed_strategies)
    assert helper is not None
    assert helper.wait(timeout=300) == 0
    assert _entry(folder, f".nbi{cache.SET_ASIDE}").is_file()
    assert _entry(folder, ".nbi").stat().st_size > 100  # written again


def test_every_kernel_function_caches_through_the_kernels_cache() -> None:
    """A jitted function defined outside ``cache.kernel_caching`` (a new kernel module not
    imported in ``kernel/__init__.py``) would cache wherever numba likes, unguarded. The policy
    table's dispatch functions, made from the table and always inlined into their callers, are
    never compiled on their own and cache nothing."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import spades_sim.kernel as kernel

    found = []
    for module in pkgutil.iter_modules(kernel.__path__):
        if module.name == "warmup_helper":
            continue  # a process's entry point: it defines no kernel function
        loaded = importlib.import_module(f"spades_sim.kernel.{module.name}")
        found += [(module.name, name, type(value._cache).__name__)
                  for name, value in vars(loaded).items()
                  if isinstance(value, CPUDispatcher) and value.__module__ == loaded.__name__
                  and not (module.name == "policies"
                           and value.targetoptions.get("inline") == "always")]
    assert len(found) > 100
    assert {kind for _, _, kind in found} == {"KernelCache"}, found


def test_the_cache_folder_is_absolute_and_ignores_a_relative_xdg_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "relative")
    assert cache._base() == str(tmp_path / "relative")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache._base() == str(tmp_path / "home" / ".cache" / "spades-sim")
    monkeypatch.delenv("HOME")  # and no entry in the password database either: no folder
    monkeypatch.setattr(cache.os.path, "expanduser", lambda path: path)
    assert cache._base() is None


CORES = machine_cores()
THREADS_ALLOWED = f"allowed a whole number from 1 to {CORES} (the cores this process may use)"
BAD_SETTINGS = [
    ("NUMBA_NUM_THREADS", "0", THREADS_ALLOWED),
    ("NUMBA_NUM_THREADS", "abc", THREADS_ALLOWED),
    ("NUMBA_NUM_THREADS", "100000", THREADS_ALLOWED),
    ("NUMBA_NUM_THREADS", "\u0662", THREADS_ALLOWED),  # an Arabic-Indic 2, which int() reads
    ("NUMBA_OPT", "7", "allowed one of 0, 1, 2, 3, max"),
    ("NUMBA_THREADING_LAYER", "nonsense", "allowed one of default, safe, threadsafe, forksafe, "
                                          "tbb, omp, workqueue"),
    ("NUMBA_THREADING_LAYER_PRIORITY", "tbb", "allowed tbb, omp and workqueue in any order, "
                                              "separated by spaces"),
    ("NUMBA_DISABLE_JIT", "1", "allowed 0 (the kernel needs numba's compiler)"),
    ("NUMBA_DEBUG", "abc", "allowed a whole number"),  # any other numba cannot read
    ("NUMBA_CUDA_DEFAULT_PTX_CC", "x", "allowed a value numba can read"),
]


@pytest.mark.parametrize(("name", "value", "allowed"), BAD_SETTINGS)
def test_a_bad_numba_setting_is_refused_in_one_line(name: str, value: str, allowed: str) -> None:
    done = spades_sim(["rules", "list"], {name: value})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"Error: {name}={value!r}: {allowed}"]


@pytest.mark.parametrize(("text", "line"), [
    ("num_threads: 0\n", f"NUMBA_NUM_THREADS='0' (in .numba_config.yaml): {THREADS_ALLOWED}"),
    ("debug: abc\n", "NUMBA_DEBUG='abc' (in .numba_config.yaml): allowed a whole number"),
    ("- a list\n", ".numba_config.yaml: numba cannot start with these settings (AttributeError: "
                   "'list' object has no attribute 'items'): allowed settings numba accepts (the "
                   "NUMBA_* variables and a .numba_config.yaml in the working folder)"),
])
def test_a_numba_settings_file_numba_cannot_take_is_refused_in_one_line(
        tmp_path: Path, text: str, line: str) -> None:
    """numba reads ``.numba_config.yaml`` from the working folder (with PyYAML, which the tests'
    Dask brings): its settings are checked as the variables are."""
    (tmp_path / ".numba_config.yaml").write_text(text)
    done = spades_sim(["rules", "list"], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"Error: {line}"]


def test_a_good_numba_setting_runs() -> None:
    done = spades_sim(["rules", "list"], {"NUMBA_NUM_THREADS": "1", "NUMBA_OPT": "max"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("app-settings ")


def test_a_full_stdout_ends_in_one_line() -> None:
    """``spades-sim simulate … > /dev/full``: exit 2, one line naming stdout and the reason."""
    with open("/dev/full", "w") as full:
        done = spades_sim(RUN, stdout=full, capture_output=False, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["Error: stdout: not written (No space left on device)"]


def test_a_closed_stdout_is_refused_before_any_work(tmp_path: Path) -> None:
    """``spades-sim simulate … --records x.csv >&-``: the results would be lost: one line, exit 2,
    and nothing written."""
    done = subprocess.run(["sh", "-c", '"$0" -m spades_sim "$@" >&-', sys.executable, *RUN,
                           "--records", "x.csv"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "Error: stdout: closed: allowed a terminal, a file or a pipe to print the results to"]
    assert list(tmp_path.iterdir()) == []


def test_a_reader_that_left_ends_the_command_with_141_and_nothing_said() -> None:
    """``spades-sim rules list | head -0``: the reader is gone before the list is printed; exit
    141 (128 + SIGPIPE), and not a word on stderr (no "Exception ignored … BrokenPipeError")."""
    process = subprocess.Popen([sys.executable, "-m", "spades_sim", "rules", "list"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=300) == 141
    assert err == ""


def test_a_closed_stderr_still_prints_the_results() -> None:
    done = subprocess.run(["sh", "-c", '"$0" -m spades_sim rules list 2>&-', sys.executable],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    assert done.stdout.startswith("app-settings ")


@pytest.mark.parametrize("env", [{"LC_ALL": "C", "LANG": "C"}, {"PYTHONIOENCODING": "ascii"}])
def test_a_c_locale_still_prints_the_suit_symbols(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "spades_sim", "rules", "list"],
                          capture_output=True, env={**os.environ, **env}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2♠ > A♠" in done.stdout.decode("utf-8")


def test_a_home_folder_matplotlib_cannot_write_is_one_note(tmp_path: Path) -> None:
    """matplotlib's folder under an unusable home: a temporary one, said in one note (matplotlib
    itself says it in two lines); the figure is drawn. The kernel's cache is the usual one."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = spades_sim(["bags", "--games", "30", "--seed", "1", "--quiet", "--figure", "b.png"],
                      {"HOME": str(blocker), "NUMBA_CACHE_DIR": str(Path(cache.FOLDER or "").parent)},
                      cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    note, wrote = done.stderr.splitlines()
    assert note.startswith("note: matplotlib cannot write its folder (mkdir -p failed for path "
                           f"{blocker}/"), note
    assert wrote == "wrote b.png"
    assert (tmp_path / "b.png").stat().st_size > 1000


def test_no_folder_for_matplotlib_at_all_is_one_line() -> None:
    """Not even a temporary folder (mkdtemp fails): the figure is refused as an OutputError,
    which the command line prints as its one line."""
    code = ("import tempfile\n"
            "def refuse(*args, **kwargs):\n"
            "    raise PermissionError(13, 'Permission denied')\n"
            "tempfile.mkdtemp = refuse\n"
            "from spades_sim.analysis.figures import pyplot\n"
            "from spades_sim.outputs import OutputError\n"
            "try:\n"
            "    pyplot()\n"
            "except OutputError as error:\n"
            "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "HOME": "/proc/no-home", "MPLCONFIGDIR": ""},
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("figure: not drawn (matplotlib has no folder it can write: ")
    assert done.stdout.endswith("): allowed a writable home folder, or MPLCONFIGDIR naming a "
                                "writable folder\n")
    assert "Traceback" not in done.stderr
