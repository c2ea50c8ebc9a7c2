"""One way to write HTML from Python: serieskit/markup.py (markupsafe's `Markup.format`, which escapes
every value). Anywhere else in the engine or either host's adapter (hooks/, zensical_adapter/), an
f-string, `%` or `str.format` whose literal text writes a tag is a failure here, so an unescaped value
cannot slip into a page unseen."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from support.project import ROOT

TAG = re.compile(r"<\s*/?\s*[A-Za-z][\w-]*(?:[\s>/]|$)")
ALLOWED = {"serieskit/markup.py"}


def _literal_parts(node) -> str:
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ""


def _is_regex_call(parent) -> bool:
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
            and isinstance(parent.func.value, ast.Name) and parent.func.value.id == "re")


def offenders(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for node in ast.walk(tree):
        text = ""
        if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            text = _literal_parts(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            text = _literal_parts(node.left)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
              and isinstance(node.func.value, ast.Constant)):
            text = _literal_parts(node.func.value)
        if text and TAG.search(text) and not _is_regex_call(parents.get(node)):
            out.append(f"{path.relative_to(root)}:{node.lineno}: {text[:70]!r}")
    return out


def test_html_is_written_only_through_markup():
    found = []
    for folder in ("serieskit", "hooks", "zensical_adapter"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() not in ALLOWED:
                found += offenders(path)
    assert found == [], "write HTML with serieskit.markup.html(...):\n" + "\n".join(found)


def test_the_check_sees_an_fstring_that_writes_a_tag(tmp_path):
    bad = tmp_path / "probe.py"
    bad.write_text('title = "x"\nout = f"<a>{title}</a>"\nsafe = re.compile(rf"</{title}>")\n'
                   'also = "<b>%s</b>" % title\nmore = "<i>{}</i>".format(title)\n', encoding="utf-8")
    assert offenders(bad, tmp_path) == ["probe.py:2: '<a></a>'", "probe.py:4: '<b>%s</b>'", "probe.py:5: '<i>{}</i>'"]
