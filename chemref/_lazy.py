"""chemref's one home for deferred loading, so importing chemref (or the CLI) stays cheap.

:func:`lazy_exports` gives a package ``__init__`` its lazy re-exports. :func:`lazy_module` binds a module at a
command module's top that runs only when first used (the standard library's :class:`importlib.util.LazyLoader`),
for the libraries a CLI command needs only when it runs: its ``--help`` then costs no more than its options. A
command module binds one as ``score = lazy_module("chemref.scoring.brat.score")`` beside a ``TYPE_CHECKING``
import of the same module, which gives the type checker and the layer contracts (``lint-imports``) the
dependency; the module is found at once (a missing one fails at once), and its code runs when one of its
attributes is first read.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib import import_module
from types import ModuleType
from typing import Any, Callable, Mapping

__all__ = ["lazy_exports", "lazy_module"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module-level ``__getattr__`` and ``__dir__`` for ``package``.

    ``exports`` maps a public name to ``"module"`` or ``"module:attribute"``; the module is imported on first
    access and the value cached in the package, so later lookups cost nothing.
    """

    def __getattr__(name: str) -> Any:
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module_name, _, attr = target.partition(":")
        value = getattr(import_module(module_name), attr or name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__


def lazy_module(name: str) -> ModuleType:
    """The module ``name`` (already imported, or found now and run when first used)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"chemref is incomplete: module {name} is missing")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)  # as an import does
    return module
