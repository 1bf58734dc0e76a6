"""No import cycles among the add-on's four packages (core/, results/, operators/, panels/), and the layers point
one way (core -> results -> operators -> panels).

The graph is read from the source with `ast` (nothing is imported or executed): every `import` and `from ... import`
statement, at module level and inside functions alike, since an import inside a function only hides a cycle until
the function runs.  Relative and absolute forms both count (`from ..core import x`, `import core.mesh`), and
`from . import x` points at the submodule `x` when there is one, else at the package's `__init__.py`.  Importing
`a.b.c` is counted as an edge to `a.b.c` only, not to the packages `a` and `a.b` that Python initialises on the
way (a package's `__init__` that re-exports its submodules would otherwise tie every package into a cycle).

A failure prints each cycle as a chain of modules, e.g. `core.mesh.parts -> core.mesh.trimesh -> core.mesh.parts`.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "results", "operators", "panels")
LAYERS = {"core": 0, "results": 1, "operators": 2, "panels": 3}
"""A module may import from its own layer and the layers below it, never above (see docs/design.md)."""


def module_names(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of the packages (a package is named by its __init__.py)."""
    names = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = path
    return names


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _resolve(base: str, imported: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that `from base import imported` loads: the submodule if there is one, else `base`."""
    candidate = f"{base}.{imported}" if base else imported
    if candidate in modules:
        return candidate
    return base if base in modules else None


def imports_of(name: str, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that module `name` imports anywhere in its file."""
    tree = ast.parse(modules[name].read_text(encoding="utf-8"), filename=str(modules[name]))
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                if node.level - 1 > len(parts):
                    continue  # above the repository root: not ours
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
                if base.split(".")[0] not in PACKAGES:
                    continue
            for alias in node.names:
                target = _resolve(base, alias.name, modules)
                if target is not None:
                    found.add(target)
    found.discard(name)
    return found


def import_graph(root: Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    modules = module_names(root, packages)
    return {name: imports_of(name, modules) for name in modules}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (each sorted), iteratively."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def a_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest cycle through the first module of a component, as [m0, m1, ..., m0] (breadth first)."""
    members = set(component)
    start = component[0]
    parent = {start: None}
    queue = [start]
    for node in queue:
        for child in sorted(graph[node] & members):
            if child == start:
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return path[::-1] + [start]
            if child not in parent:
                parent[child] = node
                queue.append(child)
    raise AssertionError(f"not a strongly connected component: {component}")


def describe(graph: dict[str, set[str]], components: list[list[str]]) -> str:
    lines = []
    for component in components:
        lines.append(f"{len(component)} modules tied together: {', '.join(component)}")
        lines.append("  e.g. " + " -> ".join(a_cycle(graph, component)))
    return "\n".join(lines)


GRAPH = import_graph()


def test_the_graph_is_read():
    """The scan sees the imports the layers are made of (a scan that finds nothing would pass everything)."""
    assert {"core", "core.mesh", "results.record", "operators.store", "panels.overlay"} <= set(GRAPH)
    assert "core" in GRAPH["results.record"]  # from ..core import Contact, Status
    assert "operators.store" in GRAPH["panels"]  # inside register(): from ..operators import store
    assert "operators.checking" in GRAPH["operators.check"]  # from .checking import CheckSettings, check_pair


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    """No cycle passes through a module of `package` (imports inside functions counted)."""
    components = [c for c in strongly_connected(GRAPH) if any(m.split(".")[0] == package for m in c)]
    assert not components, f"import cycles through {package}/:\n{describe(GRAPH, components)}"


def test_layers_point_one_way():
    """core imports none of the add-on; results only core; operators no panels."""
    upward = sorted(f"{name} -> {target}" for name, targets in GRAPH.items() for target in targets
                    if LAYERS[target.split(".")[0]] > LAYERS[name.split(".")[0]])
    assert not upward, "imports against the layers:\n" + "\n".join(upward)


# --------------------------------------------------------------------------------------------- the scan itself

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_scan_finds_hidden_and_package_cycles(tmp_path):
    """A cycle closed by an import inside a function, one through a package's __init__, and `from . import x`
    resolved to the submodule x."""
    root = _tree(tmp_path, {
        "core/__init__.py": "from .a import f\n",
        "core/a.py": "def f():\n    from .b import g  # hidden in a function\n    return g()\n",
        "core/b.py": "from . import a\n\ndef g():\n    return a\n",
        "core/mesh/__init__.py": "from .query import q\n",
        "core/mesh/query.py": "from ..query import collide\n\ndef q():\n    return collide\n",
        "core/query.py": "import numpy\nfrom .mesh import q as mesh_q\n\ndef collide():\n    return mesh_q\n",
        "results/__init__.py": "",
        "results/record.py": "from ..core import f\n",
        "operators/__init__.py": "",
        "panels/__init__.py": "",
    })
    graph = import_graph(root)
    assert graph["core.b"] == {"core.a"}
    assert graph["core.a"] == {"core.b"}
    assert graph["results.record"] == {"core"}
    components = strongly_connected(graph)
    assert components == [["core.a", "core.b"], ["core.mesh", "core.mesh.query", "core.query"]]
    text = describe(graph, components)
    assert "core.a -> core.b -> core.a" in text
    assert "core.mesh -> core.mesh.query -> core.query -> core.mesh" in text


def test_the_scan_reads_absolute_imports_and_ignores_others(tmp_path):
    root = _tree(tmp_path, {
        "core/__init__.py": "",
        "core/x.py": "import core.y\nimport os, numpy\nfrom collections import abc\n",
        "core/y.py": "from core import x\n",
        "results/__init__.py": "", "operators/__init__.py": "", "panels/__init__.py": "",
    })
    graph = import_graph(root)
    assert graph["core.x"] == {"core.y"} and graph["core.y"] == {"core.x"}
    assert strongly_connected(graph) == [["core.x", "core.y"]]
