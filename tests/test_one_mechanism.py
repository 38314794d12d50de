"""Where the five games meet, each mechanism is written once.

These tests read the source (AST), so they fail the day a game grows its own
Wilson interval, play-out loop, policy registry or batch entry point again, or
an import circle comes back.
"""
import ast
import pathlib
import tomllib
from collections import defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = {"solver": ROOT / "solver", "solver.cli": ROOT / "cli", "solver.cext": ROOT / "cext"}
GAMES = ("pyramid", "spectrum", "boundary", "continental", "continuum")


def modules():
    """module name -> parsed AST, for every .py file of the package."""
    out = {}
    for prefix, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([prefix] + parts)] = ast.parse(path.read_text(encoding="utf-8"))
    return out


MODULES = modules()


def defined(tree, kind=(ast.FunctionDef, ast.ClassDef)):
    return [n.name for n in ast.walk(tree) if isinstance(n, kind)]


def test_the_source_is_found():
    assert "solver.game" in MODULES and "solver.cli.main" in MODULES


def test_one_wilson_interval():
    places = [m for m, tree in MODULES.items() for name in defined(tree) if "wilson" in name.lower()]
    assert places == ["solver.stats"]


@pytest.mark.parametrize("name", ["play_game", "play_many", "play_round", "summarise", "playout",
                                  "analyse_seed", "make_policy"])
def test_no_game_keeps_its_own_loop_or_entry_point(name):
    places = [m for m, tree in MODULES.items() if name in defined(tree)
              and any(f".{g}" in m for g in GAMES)]
    assert places == []


def test_one_policy_registry():
    """No game module keeps a module-level POLICIES table: policies are registered in ENTRY."""
    places = []
    for m, tree in MODULES.items():
        if any(f"solver.{g}" in m for g in GAMES):
            for node in tree.body:
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if any(isinstance(t, ast.Name) and t.id == "POLICIES" for t in targets):
                        places.append(m)
    assert places == []


def imports(name, tree):
    """Modules of the package that ``name`` imports, at any depth (lazy imports too)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in out if m in MODULES and m != name and not name.startswith(m + ".")
            and not m.startswith(name + ".")}


def test_no_import_circles():
    graph = {m: imports(m, t) for m, t in MODULES.items()}
    cycles, state, stack = [], defaultdict(int), []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state[n] == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif state[n] == 0:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if state[m] == 0:
            visit(m)
    assert cycles == []


def test_one_installed_top_level_package():
    with open(ROOT / "pyproject.toml", "rb") as fh:
        config = tomllib.load(fh)["tool"]["setuptools"]
    assert {p.split(".")[0] for p in config["packages"]} == {"solver"}
    assert config["package-dir"] == {"solver.cli": "cli", "solver.cext": "cext"}


def test_the_installed_distribution_adds_one_name():
    # The installed copy, not the egg-info a build leaves in the checkout (which
    # `python -m pytest` puts first on sys.path).
    import sys
    from importlib import metadata
    elsewhere = [p for p in sys.path if pathlib.Path(p or ".").resolve() != ROOT]
    dist = next(iter(metadata.distributions(name="solve-games", path=elsewhere)), None)
    files = (dist.files if dist else None) or []
    tops = {f.parts[0] for f in files if not f.parts[0].endswith((".dist-info", ".pth"))
            and f.parts[0] not in ("..", "bin", "__pycache__") and not f.parts[0].startswith("__editable__")}
    assert tops <= {"solver"}
