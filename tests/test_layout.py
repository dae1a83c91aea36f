"""The package's layout is its architecture: tiers that import one way, and no import circle.

The tiers, from the bottom: the base modules (cards, rules, names, numbers, inputs, loading, outputs,
intervals, environment), the kernel (numba, with its plain-Python face) and the referee beside it,
the run tier and the agents (the Python table) beside it, the analysis tier and the command line.
A module may import from its own tier and the tiers below; the kernel and the referee share
nothing; the kernel never imports pandas, click or matplotlib. Every import counts, including
those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "spades_sim"

BASE = {"cards", "rules", "names", "numbers", "inputs", "loading", "outputs", "intervals",
        "environment"}
ALLOWED = {
    "base": {"base"},
    "kernel": {"kernel", "base"},
    "referee": {"referee", "base"},
    "run": {"run", "kernel", "referee", "base"},
    "agents": {"agents", "run", "kernel", "referee", "base"},
    "analysis": {"analysis", "agents", "run", "kernel", "referee", "base"},
    "cli": {"cli", "analysis", "agents", "run", "kernel", "referee", "base"},
}
KERNEL_FORBIDDEN = {"pandas", "click", "matplotlib", "dask", "distributed", "pyarrow"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The absolute names a module imports (``from . import x`` names ``package.x``)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {
    name: {imported for imported in _imports(path) if imported in MODULES and imported != name}
    for name, path in MODULES.items()
}


def tier(module: str) -> str | None:
    """The tier of a module of the package (None for the package's own entry points)."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("__main__",):
        return None  # spades_sim/__init__.py re-exports from every tier; __main__ starts the CLI
    if parts[1] in BASE:
        return "base"
    return parts[1] if parts[1] in ALLOWED else "unplaced"


def test_every_module_has_a_tier():
    unplaced = [name for name in MODULES if tier(name) == "unplaced"]
    assert not unplaced, f"modules outside the tiers: {unplaced}"


@pytest.mark.parametrize("module", sorted(name for name in MODULES if tier(name)))
def test_imports_point_down(module):
    wrong = sorted(
        imported for imported in GRAPH[module]
        if tier(imported) and tier(imported) not in ALLOWED[tier(module)]
    )
    assert not wrong, f"{module} ({tier(module)}) imports upward or across: {wrong}"


@pytest.mark.parametrize("module", sorted(name for name in MODULES if tier(name) == "kernel"))
def test_kernel_imports_no_pandas_click_or_matplotlib(module):
    outside = {imported.split(".")[0] for imported in _imports(MODULES[module])}
    assert not outside & KERNEL_FORBIDDEN, f"{module} imports {sorted(outside & KERNEL_FORBIDDEN)}"


def _circle() -> list[str] | None:
    """One import circle among the package's modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for imported in sorted(GRAPH[name]):
            if imported.startswith(name + "."):
                continue  # a package importing its own modules is not a circle
            if state.get(imported) == 1:
                return stack[stack.index(imported):] + [imported]
            if imported not in state and (found := visit(imported)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state and (found := visit(name)):
            return found
    return None


def test_no_import_circle():
    circle = _circle()
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_checks_see_a_wrong_import(tmp_path):
    """The graph reader finds relative imports of every form (so the checks above can fail)."""
    module = PACKAGE / "kernel" / "drivers.py"
    assert "spades_sim.kernel.engine" in _imports(module)
    assert tier("spades_sim.analysis.report") == "analysis"
    assert "analysis" not in ALLOWED["kernel"]


def test_public_names_resolve():
    """Every name in ``spades_sim.__all__`` imports, from the tier that defines it."""
    import spades_sim

    for name in spades_sim.__all__:
        assert getattr(spades_sim, name) is not None, name


def test_every_subpackage_is_installed() -> None:
    """pyproject.toml lists every package folder: an editable install finds a folder left off
    the list, a plain ``pip install .`` (the quickstart's) leaves it out."""
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"][
        "setuptools"]["packages"])
    folders = {".".join(path.parent.relative_to(PACKAGE.parent).parts)
               for path in PACKAGE.rglob("__init__.py")}
    assert folders <= listed, sorted(folders - listed)
