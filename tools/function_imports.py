"""The imports inside functions (and methods) of a package, by module and by imported package.

Run from the project root:  python tools/function_imports.py [PACKAGE_DIR] [--list] [--json] [--check]
(default package: chemref). An import is function-level when it sits anywhere inside a ``def`` (a class body
at module level is module level). Each is counted once per imported module (``from a import b, c`` is one
import of ``a``); the "package" is the imported module's top-level name, or ``chemref.<subpackage>`` for the
package's own modules. ``--list`` prints every import with its file, line and ``noqa`` reason; ``--json``
prints the counts as JSON; ``--check`` exits 1, naming each, when an import inside a function is not of one of
the heavy packages (``banned-module-level-imports`` in ``pyproject.toml``'s ruff settings), which are the only
ones imported inside functions.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Iterator, NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib


class FunctionImport(NamedTuple):
    path: str
    line: int
    module: str      # the importing module, dotted
    imported: str    # the imported module, absolute and dotted
    reason: str      # the text after "noqa: PLC0415" on the line, if any


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports_in_functions(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    def walk(node: ast.AST, inside: bool) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                yield child
            yield from walk(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
    yield from walk(tree, False)


def function_imports(root: Path) -> list[FunctionImport]:
    """Every function-level import of the package at ``root``, in file order."""
    out = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        module = _module_name(path, root)
        for node in _imports_in_functions(ast.parse(source, str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [_absolute(node, module, path.name == "__init__.py")]
            line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
            end_line = lines[(node.end_lineno or node.lineno) - 1]
            noqa = next((text for text in (line, end_line) if "PLC0415" in text), "")
            reason = noqa.split("PLC0415", 1)[1].strip(" ()") if noqa else ""
            for name in names:
                out.append(FunctionImport(str(path), node.lineno, module, name, reason))
    return out


def package_of(imported: str, own: str) -> str:
    """``chemref.<subpackage>`` for the package's own modules, else the top-level name."""
    parts = imported.split(".")
    if parts[0] == own:
        return ".".join(parts[:2]) if len(parts) > 1 else own
    return parts[0]


def heavy_packages(pyproject: Path) -> set[str]:
    """The heavy packages: ruff's ``banned-module-level-imports`` in ``pyproject``."""
    settings = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return set(settings["tool"]["ruff"]["lint"]["flake8-tidy-imports"]["banned-module-level-imports"])


def not_heavy(found: list[FunctionImport], heavy: set[str]) -> list[FunctionImport]:
    """The imports of ``found`` whose module is not one of ``heavy`` (nor inside one)."""
    return [f for f in found if not any(f.imported == h or f.imported.startswith(h + ".") for h in heavy)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?", default="chemref", help="the package folder (default: chemref)")
    parser.add_argument("--list", action="store_true", help="print every import with its place and reason")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 if an import inside a function is not of a "
                        "heavy package (pyproject.toml's banned-module-level-imports)")
    args = parser.parse_args(argv)
    root = Path(args.package).resolve()
    found = function_imports(root)
    if args.check:
        wrong = not_heavy(found, heavy_packages(root.parent / "pyproject.toml"))
        for f in wrong:
            print(f"{f.path}:{f.line}: {f.imported} is imported inside a function but is not a heavy package")
        print(f"{len(found) - len(wrong)} function-level imports of heavy packages; {len(wrong)} of others")
        return 1 if wrong else 0
    by_module = Counter(f.module for f in found)
    by_package = Counter(package_of(f.imported, root.name) for f in found)
    if args.json:
        print(json.dumps({"total": len(found), "by_package": dict(by_package.most_common()),
                          "by_module": dict(by_module.most_common())}, indent=1))
        return 0
    if args.list:
        for f in found:
            print(f"{f.path}:{f.line}: {f.imported}" + (f"  ({f.reason})" if f.reason else ""))
        print()
    print(f"{len(found)} function-level imports in {len(by_module)} modules of {root.name}")
    print("\nby imported package:")
    for name, count in by_package.most_common():
        print(f"  {count:4d}  {name}")
    print("\nby importing module:")
    for name, count in by_module.most_common():
        print(f"  {count:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
