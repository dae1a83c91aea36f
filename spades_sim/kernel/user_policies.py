"""A user's own policies, compiled into the kernel's hand: loaded, checked, and packed.

A user policy is what a built-in policy module is (``policies``): one numba-jitted function per
decision (``policies.DECISIONS``), each ``(rules, strat, obs, rng) -> (move, rng)`` of the
seat's observation (``observation._Observation``). It is named as a bot is,
``path/to/file.py:NAME`` or ``package.module:NAME`` (``spades_sim.loading``), where ``NAME`` is
an object with those functions as attributes: a :class:`KernelPolicy`, a module, a class, or a
function of no arguments returning one. Optional attributes: ``NAME`` (how it is listed),
``PARAMS`` (the strategy parameters it reads, so a strategy may set them) and
``READS_TABLES`` (it reads the expert's calibration tables).

A run whose strategies use user policies packs them as a subclass of ``PackedStrategies``
(:func:`packed_class`) that lists them (``policies.USER_POLICIES``) and is named after a digest
of their names and sources: numba compiles the kernel once for that type, into the kernel's
cache beside the built-in one, and a later run with the same policies and sources loads it.
The built-in strategies keep their own type, so their compiled kernel is never touched.
Plain Python.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from numba.core.errors import NumbaIRAssumptionWarning
from numba.core.registry import CPUDispatcher

from ..inputs import Refuse
from ..loading import SPEC_FORMS, error_text, load_named
from ..outputs import shown
from .packing import PackedStrategies
from .policies import DECISIONS, TABLE, USER_POLICIES

POLICY_FORMS = f"a built-in policy ({', '.join(module.NAME for module in TABLE)}) or {SPEC_FORMS}"
"""How a strategy names a policy."""

_ARGUMENTS = "(rules, strat, obs, rng)"
_WANTED = (f"a policy: numba-jitted functions {', '.join(DECISIONS)}, each {_ARGUMENTS} -> "
           "(move, rng)")


class KernelPolicy:
    """A user's policy: its name and one numba-jitted function per decision
    (``policies.DECISIONS``, all of them, by keyword), with the strategy parameters it reads
    (``params``) and whether it reads the expert's calibration tables (``reads_tables``)."""

    def __init__(self, name: str, *, params: tuple[str, ...] = (), reads_tables: bool = False,
                 **decisions: Any) -> None:
        self.NAME = name
        self.PARAMS = tuple(params)
        self.READS_TABLES = reads_tables
        for decision, function in decisions.items():
            setattr(self, decision, function)

    def __repr__(self) -> str:
        return f"KernelPolicy({self.NAME!r})"


class UserPolicy:
    """A user policy loaded and checked: what the kernel's table reads of it (its decision
    functions as attributes, as a policy module's) and what a strategy reads."""

    def __init__(self, spec: str, name: str, functions: dict[str, Any], params: tuple[str, ...],
                 reads_tables: bool, digest: str) -> None:
        self.spec = spec
        """How it was named (``FILE.py:NAME`` or ``module:NAME``)."""
        self.NAME = name
        self.PARAMS = params
        self.READS_TABLES = reads_tables
        self.digest = digest
        """A digest of its spec, name and the sources of its functions."""
        for decision, function in functions.items():
            setattr(self, decision, function)

    def __repr__(self) -> str:
        return f"UserPolicy({self.spec!r})"


_loaded: dict[tuple[str, str], UserPolicy] = {}


def is_policy_spec(text: str) -> bool:
    """Whether a policy name names a user policy (``FILE.py:NAME``, ``module:NAME``)."""
    return ":" in text


def load_policy(spec: str, refuse: Refuse) -> UserPolicy:
    """The user policy ``spec`` names, loaded and checked once a process (a file by its full
    path); anything wrong is refused through ``refuse`` (the words after ``allowed``)."""
    source = spec.rpartition(":")[0]
    where = str(Path(source).resolve()) if source.endswith(".py") else source
    key = (where, spec.rpartition(":")[2])
    if key not in _loaded:
        value = load_named(spec, refuse, SPEC_FORMS, "policy",
                           lambda value: not isinstance(value, ModuleType))
        if callable(value) and not isinstance(value, CPUDispatcher) and not _has_decisions(value):
            try:
                value = value()
            except Exception as error:
                raise refuse(f"{_WANTED}, or a function of no arguments returning one "
                             f"({error_text(error)})") from None
        _loaded[key] = _checked(spec, ":".join(key), value, refuse)
    return _loaded[key]


def _has_decisions(value: object) -> bool:
    return all(hasattr(value, decision) for decision in DECISIONS)


def is_kernel_policy(value: object) -> bool:
    """Whether ``value`` has a jitted function for every decision (as a bot it is no agent)."""
    return all(isinstance(getattr(value, decision, None), CPUDispatcher)
               for decision in DECISIONS)


def _checked(spec: str, where: str, value: object, refuse: Refuse) -> UserPolicy:
    """The policy ``value`` that ``spec`` named (``where``: the same with its file's full path),
    checked."""
    missing = [decision for decision in DECISIONS if not hasattr(value, decision)]
    if missing:
        raise refuse(f"{_WANTED}; {type(value).__name__} lacks {', '.join(missing)}")
    functions = {decision: getattr(value, decision) for decision in DECISIONS}
    for decision, function in functions.items():
        if not isinstance(function, CPUDispatcher):
            raise refuse(f"{_WANTED}; {decision} is not numba-jitted (@njit)")
        if len(inspect.signature(function.py_func).parameters) != 4:
            raise refuse(f"{_WANTED}; {decision} does not take {_ARGUMENTS}")
    name = getattr(value, "NAME", spec.rpartition(":")[2])
    params = getattr(value, "PARAMS", ())
    reads_tables = getattr(value, "READS_TABLES", False)
    if not isinstance(name, str) or not isinstance(reads_tables, bool) or not (
            isinstance(params, tuple | list) and all(isinstance(p, str) for p in params)):
        raise refuse(f"{_WANTED}; NAME text, PARAMS parameter names, READS_TABLES True or False")
    digest = hashlib.sha256(f"{where}\0{name}\0{sorted(params)}\0{reads_tables}".encode())
    for part in _sources(functions.values()):
        digest.update(part)
    return UserPolicy(spec, name, functions, tuple(params), reads_tables, digest.hexdigest()[:16])


def _sources(functions) -> list[bytes]:
    """The source files of ``functions`` and of the jitted functions they call outside the
    kernel (whose sources name the kernel's cache folder), and each one's bytecode: a change to
    any of them compiles the policy afresh."""
    files: set[str] = set()
    codes: list[bytes] = []
    seen: set[int] = set()
    todo = list(functions)
    while todo:
        function = todo.pop()
        if id(function) in seen or function.__module__.startswith("spades_sim.kernel"):
            continue
        seen.add(id(function))
        python = function.py_func
        codes.append(python.__code__.co_code)
        source = inspect.getsourcefile(python)
        if source and Path(source).is_file():
            files.add(str(Path(source).resolve()))
        refers = list(python.__globals__.values()) + [
            cell.cell_contents for cell in (python.__closure__ or ())]
        todo += [value for value in refers if isinstance(value, CPUDispatcher)]
    return sorted(codes) + [path.encode() + b"\0" + Path(path).read_bytes()
                            for path in sorted(files)]


# --- the packed strategies of a run with user policies ---

_PREFIX = "PackedStrategies_"
_classes: dict[str, type] = {}


def packed_class(users: tuple[UserPolicy, ...]) -> type:
    """The packed-strategies class of a run whose user policies are ``users`` (ids
    ``len(policies.TABLE)`` on, in this order): a subclass of ``PackedStrategies`` named after
    their digests, made once a process. numba types it apart from the built-in class, so the
    kernel compiled for it (with a branch for each user policy) is cached under its own name."""
    if not users:
        return PackedStrategies
    name = _PREFIX + hashlib.sha256("".join(user.digest for user in users).encode()).hexdigest()[:16]
    made = _classes.get(name)
    if made is None or getattr(made, USER_POLICIES) is None:
        made = _make(name, users)
    return made


def _make(name: str, users: tuple[UserPolicy, ...] | None) -> type:
    """The class ``name``, made once a process; ``users`` None asks for it by name only (a
    stand-in when it is new), else its policies are set (a stand-in's too)."""
    made = _classes.get(name)
    if made is None:
        made = type(name, (PackedStrategies,), {"__slots__": (), "__module__": __name__,
                                                "__qualname__": name, USER_POLICIES: users})
        _classes[name] = made
    elif users is not None:  # a stand-in made when a cache index was read, now with its policies
        setattr(made, USER_POLICIES, users)
    return made


def carried(strategies: object) -> tuple[UserPolicy, ...]:
    """The user policies packed strategies carry (none for the built-in class)."""
    return getattr(type(strategies), USER_POLICIES, None) or ()


def __getattr__(name: str) -> type:
    """A packed-strategies class by name, for pickle: numba's cache index of a kernel function
    names the types it was compiled for, those of user policies too, and a run that reads the
    index need not have loaded them. The stand-in made here lists no policies (``None``): it
    is never compiled for (``policies`` refuses it), only compared."""
    if name.startswith(_PREFIX):
        return _make(name, None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



def compile_fault(error: Exception) -> str:
    """numba's refusal to compile a user policy, in one line: its kind, the innermost message
    (numba nests the refusal of each callee in its caller's) and where in the source it is."""
    lines = [line.strip().removeprefix("TypingError: ") for line in str(error).splitlines()]
    lines = [line for line in lines if line]
    failed = [index for index, line in enumerate(lines) if line.startswith("Failed in")]
    inner = lines[failed[-1] + 1:] if failed else lines
    said = next((line for line in inner if not line.startswith(_NUMBA_FRAMING)),
                lines[0] if lines else "")
    where = next((_PLACE.match(line) for line in inner if _PLACE.match(line)), None)
    at = f" at {Path(where[1]).name} line {where[2]}" if where else ""
    return shown(f"{type(error).__name__}: {said}", 160) + at


_NUMBA_FRAMING = ("-", "During:", "File ", "No implementation", "There are", "Overload",
                  "With argument", "Rejected as", "raised from", ">>>", "^")
"""The lines of numba's messages that frame what went wrong rather than say it."""
_PLACE = re.compile(r'File "(.+)", line (\d+):')


@contextmanager
def compiling(users: tuple[UserPolicy, ...]) -> Iterator[None]:
    """While the kernel compiles for ``users``: numba's pedantic notes on the IR it inlines for
    them (``NumbaIRAssumptionWarning``, a variable renamed by its own inliner: a note for numba's
    developers, not a fault of the policy) are not shown."""
    if not users:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaIRAssumptionWarning)
        yield
