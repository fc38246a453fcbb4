"""The package's import graph: no cycles, and every layer imports only what it may.

Every module of ``printables/`` is read with ``ast`` (never imported), so an import hidden inside a
function counts like one at the top. An edge is
- ``import printables.x`` / ``from printables.x import y`` (relative imports resolved; ``y`` is the
  target when it is a module of ours),
- a string naming a module of ours (``"printables.check.pdf:check_page_size"``, the targets of
  ``lazy_names`` and ``importlib.import_module``), and an f-string starting with one
  (``f"printables.cli.{kind}"`` reaches every module under ``printables.cli``); a name run as
  another process (``[python, "-m", "printables.serve.worker"]``) is no import.
Imports under ``if TYPE_CHECKING:`` never run: they count for the layer rules, not for cycles.
Importing ``a.b`` also runs ``a/__init__.py``; that implicit edge is left out (as import-linter
does): a package's ``__init__`` handing out its submodules' names is no cycle.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

import printables

PACKAGE_DIR = Path(printables.__file__).resolve().parent
ROOT = "printables"


def _module_files() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _module_files()


@dataclass(frozen=True)
class Import:
    """One module of ours reached from ``source`` (line ``line``)."""

    source: str
    target: str
    line: int
    runs: bool  # False under ``if TYPE_CHECKING:``


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve_relative(module: str, level: int, name: str | None) -> str:
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    if level > 1:
        base = base[:-(level - 1)]
    return ".".join(base + ([name] if name else []))


def _ours(dotted: str) -> str | None:
    """The module of ours ``dotted`` names (the longest prefix that is one), or None."""
    parts = dotted.split(".")
    while parts:
        name = ".".join(parts)
        if name in MODULES:
            return name
        parts.pop()
    return None


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str) -> list[Import]:
    """Every module of ours that ``module`` imports, at any depth of its code."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), str(MODULES[module]))
    found: list[Import] = []
    # ``[python, "-m", "printables.serve.worker", ...]`` starts another process: no import.
    run_as_main = {id(seq.elts[i + 1]) for seq in ast.walk(tree) if isinstance(seq, (ast.List, ast.Tuple))
                   for i, item in enumerate(seq.elts[:-1]) if isinstance(item, ast.Constant) and item.value == "-m"}

    def add(target: str | None, node: ast.AST, runs: bool) -> None:
        if target is not None and target != module:
            found.append(Import(module, target, node.lineno, runs))

    def visit(node: ast.AST, runs: bool) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, runs)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT:
                    add(_ours(alias.name), node, runs)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_relative(module, node.level, node.module) if node.level else (node.module or "")
            if base.split(".")[0] == ROOT:
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    add(sub if sub in MODULES else _ours(base), node, runs)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in run_as_main:
            text = node.value.partition(":")[0]
            if text in MODULES and text.startswith(f"{ROOT}."):
                add(text, node, runs)
        elif isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            if isinstance(head, ast.Constant) and isinstance(head.value, str) and head.value.startswith(f"{ROOT}.") \
                    and head.value.endswith(".") and head.value[:-1] in MODULES:
                for name in MODULES:
                    if name.startswith(head.value):
                        add(name, node, runs)
            return  # the pieces of an f-string are no module names of their own
        for child in ast.iter_child_nodes(node):
            visit(child, runs)

    visit(tree, True)
    return found


ALL_IMPORTS = [edge for module in MODULES for edge in imports_of(module)]


def find_cycles(edges) -> list[list[str]]:
    """The import cycles among ``edges``, each named as a closed path (a → b → a): in each group of
    modules that reach one another, a shortest cycle through each member (together they name them all)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
    # Tarjan's strongly connected components, iteratively (the graph is a few hundred modules).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    cycles: list[list[str]] = []
    for group in sorted(groups):
        for member in group:  # a shortest cycle through each member: together they name every module
            cycle = _cycle_through(member, set(group), graph)
            turn = cycle.index(min(cycle[:-1]))
            cycle = cycle[turn:-1] + cycle[:turn + 1]
            if cycle not in cycles:
                cycles.append(cycle)
    return cycles


def _cycle_through(start: str, members: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest closed path from ``start`` back to itself through ``members``."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, ()) & members):
                if child == start:
                    return paths[node] + [start]
                if child not in paths:
                    paths[child] = paths[node] + [child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")  # pragma: no cover - its group is strongly connected


# ---- the layers ----------------------------------------------------------------------------------

def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# (importer's package, what it must not import, why). A package that is a layer of its own is named
# with its "printables." prefix.
FORBIDDEN = [
    ("printables.check", ("printables.layout", "printables.render", "printables.cad"),
     "a check reads the file back and never the code that drew it"),
    ("printables.layout", ("printables.render", "printables.cad", "printables.check"),
     "layout is plain data in mm"),
    ("printables.render", ("printables.check", "printables.cad"), "render only draws layout data"),
    ("printables.i18n", ("printables.layout", "printables.render", "printables.check", "printables.cad"),
     "translation catalogues are data plus lookup, used by layouts and checks alike"),
]
# The rule cores import nothing of ours but each other (STYLE.md).
RULES_MAY_IMPORT = ("printables.rules",)
# cadquery's package is used by the model code only (a sheet command never loads cadquery): the
# model commands, and the customizer's preview worker, a process of its own that serve never imports.
CAD_USERS = ("printables.cad", "printables.models", "printables.serve.preview_worker")


def layer_violations(edges) -> list[str]:
    """Each import that breaks a layer rule, as ``importer:line -> target (why)``."""
    bad = []
    for edge in edges:
        where = f"{edge.source}:{edge.line} -> {edge.target}"
        for importer, targets, why in FORBIDDEN:
            if _in(edge.source, importer) and any(_in(edge.target, t) for t in targets):
                bad.append(f"{where} ({why})")
        if _in(edge.source, "printables.rules") and not any(_in(edge.target, p) for p in RULES_MAY_IMPORT):
            bad.append(f"{where} (the rule cores import nothing of ours but each other)")
        if _in(edge.target, "printables.cad") and not any(_in(edge.source, p) for p in CAD_USERS):
            bad.append(f"{where} (only the model code uses printables.cad)")
        if _in(edge.source, "printables.lazy") or _in(edge.source, "printables.errors"):
            bad.append(f"{where} (printables.lazy and printables.errors import nothing of ours)")
    return sorted(set(bad))


def test_the_walk_sees_imports_inside_functions_and_string_targets():
    targets = {(e.source, e.target) for e in ALL_IMPORTS}
    # inside a function: the CLI imports the game command modules by name (a table of strings)
    assert ("printables.cli", "printables.cli.giuthi") in targets
    # a "module:function" string: the check dispatcher's table
    assert ("printables.check.dispatch", "printables.check.peas") in targets
    # lazy_names' target
    assert ("printables.params.base", "printables.params.presets") in targets
    # inside a function (models.py imports the cad modules only when a model is built)
    assert ("printables.models", "printables.cad.giuthi_board") in targets


def test_cycle_finder_names_a_cycle():
    edges = [Import("a", "b", 1, True), Import("b", "c", 1, True), Import("c", "a", 1, True),
             Import("c", "d", 1, True), Import("d", "e", 1, True)]
    assert find_cycles(edges) == [["a", "b", "c", "a"]]
    assert find_cycles(edges[1:]) == []


def test_layer_rules_catch_a_check_reaching_the_layout():
    bad = layer_violations([Import("printables.check.peas", "printables.layout.primitives", 7, True),
                            Import("printables.check.peas", "printables.i18n", 8, True)])
    assert bad == ["printables.check.peas:7 -> printables.layout.primitives "
                   "(a check reads the file back and never the code that drew it)"]


def test_no_import_cycles():
    cycles = find_cycles([e for e in ALL_IMPORTS if e.runs])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_layers_import_only_what_they_may():
    bad = layer_violations(ALL_IMPORTS)
    assert not bad, "forbidden imports:\n" + "\n".join(bad)


@pytest.mark.parametrize("package", ["printables.check", "printables.i18n", "printables.rules"])
def test_what_a_layer_reaches_stays_out_of_the_drawing(package):
    """Not only the direct imports: nothing a check (or catalogue, or rule core) imports, however
    deep, is layout, render or cad code."""
    graph: dict[str, set[str]] = {}
    for edge in ALL_IMPORTS:
        if edge.runs:
            graph.setdefault(edge.source, set()).add(edge.target)
    reached: dict[str, str] = {m: m for m in MODULES if _in(m, package)}
    frontier = list(reached)
    while frontier:
        node = frontier.pop()
        for child in graph.get(node, ()):
            if child not in reached:
                reached[child] = node
                frontier.append(child)
    drawing = sorted(m for m in reached if any(_in(m, p) for p in
                                               ("printables.layout", "printables.render", "printables.cad")))

    def path(m):
        out = [m]
        while reached[out[-1]] != out[-1]:
            out.append(reached[out[-1]])
        return " <- ".join(out)

    assert not drawing, "\n".join(path(m) for m in drawing)


# ---- private names of the libraries we depend on -------------------------------------------------

# A name with a leading underscore (not a dunder) is a library's own: a new release may change it
# without a word. These are the libraries whose private names nothing of ours may read or set.
LIBRARIES = ("numpy", "click", "cadquery", "OCP", "vtk", "vtkmodules", "pdfplumber", "pdfminer", "pypdf", "pypdfium2",
             "trimesh")
# Public names that happen to start with an underscore.
PUBLIC_UNDERSCORED = {("os", "_exit")}  # os._exit is documented API


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _library(dotted: str) -> str | None:
    root = dotted.split(".")[0]
    return root if root in LIBRARIES else None


@functools.lru_cache(maxsize=None)
def _names_we_define() -> frozenset[str]:
    """Every name our own code binds: functions, classes, variables, attributes it sets, arguments,
    imported names and names it spells in strings (``__slots__``, ``getattr``)."""
    found = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                found.add(node.attr)
            elif isinstance(node, ast.arg):
                found.add(node.arg)
            elif isinstance(node, ast.alias):
                found.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return frozenset(found)


def private_uses(module: str, ours: set[str]) -> list[str]:
    """Where ``module`` reads or sets a dependency's private name, as ``module:line what``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # local name -> library it stands for
    modules: dict[str, str] = {}  # local name -> any module it stands for (``import os as _os``)
    found = []

    def say(node, what):
        found.append(f"{module}:{node.lineno} {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or alias.name.split(".")[0]
                if _library(alias.name):
                    aliases[alias.asname or alias.name.split(".")[0]] = _library(alias.name)
                    if any(_private(part) for part in alias.name.split(".")):
                        say(node, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _library(node.module or ""):
            for alias in node.names:
                aliases[alias.asname or alias.name] = _library(node.module)
                if any(_private(part) for part in node.module.split(".")) or _private(alias.name):
                    say(node, f"from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            text = ast.unparse(node)
            if isinstance(root, ast.Name) and root.id in aliases:
                say(node, f"{text} ({aliases[root.id]})")
            elif node.attr not in ours and not (isinstance(node.value, ast.Name)
                                                 and (modules.get(node.value.id), node.attr) in PUBLIC_UNDERSCORED):
                say(node, f"{text} (no code of ours defines {node.attr})")
        elif isinstance(node, ast.ClassDef):
            bases = [b for b in node.bases if isinstance(b, (ast.Name, ast.Attribute))]
            libraries = {aliases.get(ast.unparse(b).split(".")[0]) for b in bases} - {None}
            if libraries:  # a subclass of a library's class: the private names it touches on self
                for inner in ast.walk(node):
                    named = (inner.attr if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
                             and inner.value.id == "self" else
                             inner.name if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) else
                             inner.targets[0].id if isinstance(inner, ast.Assign) and isinstance(inner.targets[0], ast.Name)
                             else inner.target.id if isinstance(inner, ast.AnnAssign) and isinstance(inner.target, ast.Name)
                             else None)
                    if named and _private(named) and _base_knows(libraries, ast.unparse(bases[0]), module, named):
                        say(inner, f"{node.name}.{named} is a private name of its base ({', '.join(sorted(libraries))})")
    return sorted(set(found), key=lambda use: (int(use.split(":")[1].split(" ")[0]), use))


def _base_knows(libraries: set[str], base: str, module: str, name: str) -> bool:
    """Whether the library class ``base`` (as spelled in ``module``) or a class it inherits from
    uses ``name``: in its source (instance attributes) or as an attribute."""
    import importlib
    import inspect
    import re

    namespace: dict = {}
    source = MODULES[module].read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and (
                _library(node.module or "") if isinstance(node, ast.ImportFrom) else
                any(_library(a.name) for a in node.names)):
            exec(compile(ast.Module([node], []), module, "exec"), namespace)  # just that import
    cls = eval(base, namespace)  # noqa: S307 - a dotted name read from our own source
    for klass in cls.__mro__:
        if (klass.__module__ or "").split(".")[0] not in libraries:
            continue
        if name in vars(klass):
            return True
        try:
            text = inspect.getsource(importlib.import_module(klass.__module__))
        except (OSError, TypeError):
            continue
        if re.search(rf"\b{re.escape(name)}\b", text):
            return True
    return False


def test_the_private_name_walk_finds_what_it_should(tmp_path, monkeypatch):
    code = tmp_path / "sample.py"
    code.write_text(
        "import numpy as np\n"
        "from numpy._core.multiarray import _set_madvise_hugepage\n"
        "import click\n"
        "from pdfplumber.page import Page\n"
        "x = np._core\n"
        "def f(parser):\n"
        "    return parser._long_opt\n"
        "class P(Page):\n"
        "    @property\n"
        "    def layout(self):\n"
        "        return self._layout\n"
        "    def _mine(self):\n"
        "        return self._own\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "printables.sample", code)
    found = [line.split(" ", 1)[1] for line in private_uses("printables.sample", {"_mine", "_own"})]
    assert found == [
        "from numpy._core.multiarray import _set_madvise_hugepage",
        "np._core (numpy)",
        "parser._long_opt (no code of ours defines _long_opt)",
        "P._layout is a private name of its base (pdfplumber)",
        "self._layout (no code of ours defines _layout)",
    ]


def test_no_module_reads_a_private_name_of_a_dependency():
    ours = _names_we_define()
    found = [use for module in MODULES for use in private_uses(module, ours)]
    assert not found, "private names of dependencies:\n" + "\n".join(found)
