"""The engine stays readable for someone who must add a rule: no function in serieskit/ runs past
80 lines (the body parser is a state machine with one method per construct, the renderer one
function per transform)."""
import ast

from support.project import ROOT

MAX_LINES = 80


def test_no_function_in_the_engine_is_longer_than_80_lines():
    long = []
    for path in sorted((ROOT / "serieskit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}() is {n} lines")
    assert not long, "\n".join(long)
