"""Python objects named on the command line or in a file: ``path/to/file.py:NAME`` or
``package.module:NAME``.

Bots (``spades_sim.agents.loader``) and a user's own kernel policies
(``spades_sim.kernel.user_policies``) are named this way. :func:`load_named` imports the file
or module and finds the name; anything wrong is refused in one line through the caller's own
``refuse`` (its exception names its field: ``bot='…'``, ``bidding='…'``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from .inputs import Refuse

SPEC_FORMS = "path/to/file.py:NAME or package.module:NAME"
"""How such an object is named."""


def error_text(error: BaseException) -> str:
    """An exception as one line: its type and message."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def split_spec(spec: str, refuse: Refuse, forms: str = SPEC_FORMS) -> tuple[str, str]:
    """``(source, NAME)`` of ``spec``; a spec of another form is refused."""
    source, _, attribute = spec.rpartition(":")
    if not source or not attribute.isidentifier():
        raise refuse(forms)
    return source, attribute


def load_source(source: str, refuse: Refuse, forms: str = SPEC_FORMS,
                kind: str = "bot") -> ModuleType:
    """The module of a file path (ending ``.py``: its folder put first on the import path while
    it loads, so it may import the modules beside it; loaded afresh each time, as
    ``_spades_sim_{kind}_…`` in ``sys.modules``) or of a dotted module name."""
    if source.endswith(".py") or "/" in source or "\\" in source:
        path = Path(source)
        if not path.is_file() or path.suffix != ".py":
            raise refuse(f"{forms}, the file a readable .py file")
        # A name of its own for each file, so two files called mine.py do not meet in sys.modules.
        digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
        name = f"_spades_sim_{kind}_{path.stem}_{digest}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise refuse(f"{forms}, the file a Python module")
        module = importlib.util.module_from_spec(loader_spec)
        folder = str(path.resolve().parent)
        sys.path.insert(0, folder)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except (Exception, SystemExit) as error:
            sys.modules.pop(name, None)
            raise refuse(f"a file that loads ({error_text(error)})") from None
        finally:
            if folder in sys.path:
                sys.path.remove(folder)
        return module
    if not all(part.isidentifier() for part in source.split(".")):
        raise refuse(forms)
    try:
        return importlib.import_module(source)
    except (Exception, SystemExit) as error:
        raise refuse(f"a module that imports ({error_text(error)})") from None


def load_named(spec: str, refuse: Refuse, forms: str = SPEC_FORMS, kind: str = "bot",
               listed_if: Callable[[object], bool] = callable) -> object:
    """The object ``spec`` names (:data:`SPEC_FORMS`); a name the module lacks is refused with
    the public names it defines for which ``listed_if`` holds."""
    source, attribute = split_spec(spec, refuse, forms)
    module = load_source(source, refuse, forms, kind)
    if not hasattr(module, attribute):
        public = {name: value for name, value in vars(module).items()
                  if not name.startswith("_") and listed_if(value)}
        # Its own objects first; a package's __init__ may only re-export.
        own = [name for name, value in public.items()
               if getattr(value, "__module__", None) == module.__name__]
        listed = ", ".join(sorted(own or public)[:20]) or "none"
        raise refuse(f"a name that {source} defines ({listed})")
    return getattr(module, attribute)
