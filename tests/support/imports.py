"""What a module of serieskit imports from serieskit, read from its source (every import counts, at
the top of a module or inside a function): the layers test and the lint cache's key test read it."""
from __future__ import annotations

import ast
from pathlib import Path

from support.project import ROOT

PKG = ROOT / "serieskit"


def imports(path: Path) -> list[tuple[int, str]]:
    rel = path.relative_to(ROOT).with_suffix("").parts
    package = list(rel if path.name == "__init__.py" else rel[:-1])
    if path.name == "__init__.py":
        package = package[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target + "." + a.name for a in node.names] if node.module is None else [target]
            elif node.module and node.module.split(".")[0] == "serieskit":
                names = [node.module] if node.module != "serieskit" else [f"serieskit.{a.name}" for a in node.names]
            else:
                continue
            out += [(node.lineno, n) for n in names]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "serieskit"]
    return out


def module_file(module: str) -> Path:
    """'serieskit.parse.frontmatter' -> serieskit/parse/frontmatter.py (a package: its __init__.py)."""
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else path / "__init__.py"
