"""No import cycles anywhere in the package, and no top-level module outside the layer contract.

The layer contracts in pyproject.toml (`lint-imports`) stop a lower stage importing a higher one,
but cannot see a cycle inside one stage (cli/__init__ <-> cli/rescore, parsers/choice <->
parsers/choice_read): this test does, over every module-to-module import, including those only
made under TYPE_CHECKING (a cycle for the type checker is still two modules that cannot be read
apart).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping

import grimp
import pytest

from paths import REPO

PACKAGE = "answer_audit"


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every group of two or more nodes that reach each other (Tarjan), plus self-loops, sorted.

    >>> strongly_connected({"a": ["b"], "b": ["a", "c"], "c": []})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    # An explicit work stack instead of recursion: a long import chain must not hit the limit.
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    groups.append(sorted(group))
    return sorted(groups)


@pytest.fixture(scope="module")
def import_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    return {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }


def describe(group: list[str], graph: Mapping[str, set[str]]) -> str:
    """One cycle as the imports that close it, e.g. `a -> b, b -> a`."""
    members = set(group)
    edges = [f"{a} -> {b}" for a in group for b in sorted(graph[a] & members)]
    return "; ".join(edges)


def test_the_cycle_finder_finds_cycles_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set[str]()}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e"]]
    assert strongly_connected({"a": {"b"}, "b": set[str]()}) == []


def test_the_package_has_no_import_cycles(import_graph: dict[str, set[str]]) -> None:
    assert len(import_graph) > 50  # the whole package was read, not an empty stub
    cycles = [describe(group, import_graph) for group in strongly_connected(import_graph)]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_every_top_level_module_has_a_place_in_the_pipeline_layers() -> None:
    # A new top-level module that the layers contract does not name is checked by nothing.
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "pipeline")["layers"]
    named = set(re.findall(rf"{PACKAGE}\.(\w+)", " ".join(layers)))
    package = REPO / "src" / PACKAGE
    children = {p.stem for p in package.glob("*.py")} | {
        p.parent.name for p in package.glob("*/__init__.py")
    }
    assert children - {"__init__", "__main__"} <= named
