"""Modules bound at a command module's top but run only when first used (the standard library's
:class:`importlib.util.LazyLoader`), for the libraries a command needs only when it runs, or only on one of its
paths: its ``--help`` then costs no more than its options.

A command module binds one as ``score = lazy_module("chemref.scoring.brat.score")`` beside a
``TYPE_CHECKING`` import of the same module, which gives the type checker and the layer contracts
(``lint-imports``) the dependency. The module is found at once (a missing one fails at once); its code runs
when one of its attributes is first read, and it is then the module itself, as an import would give.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from chemref.errors import ChemrefError

__all__ = ["lazy_module"]


def lazy_module(name: str) -> ModuleType:
    """The module ``name`` (already imported, or found now and run when first used)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ChemrefError(f"chemref is incomplete: module {name} is missing")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)  # as an import does
    return module
