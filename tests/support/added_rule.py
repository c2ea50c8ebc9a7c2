"""The other half of tests/test_add_rule.py, for the throw-away copy of the project it makes, where
a rule has been added by CONTRIBUTING.md's recipe (its module and its fixtures, nothing else) under
the code in $ADDED_RULE. Loaded there as a pytest plugin (`-p support.added_rule`) and given as a
test file:

- the plugin keeps, of the tests it is given, those that go over the registry for the added rule:
  a test parametrised with a rule code runs for the added code only; an unparametrised one runs
  when its own source reads the registry (`REGISTRY`, `rule_codes`, `FIXTURES`), unless it needs a
  built site or a browser (the probes below check the 写作规范 page's builder instead);
- the probes check that each place the recipe says picks a new rule up does: conventions.yml's
  and a manifest's switches, the suppression comments, --list-rules, --explain, --select /
  --ignore, --fix, the reporters (SARIF lists it), the lint cache (a `reads_only_post` rule's hits
  are kept), the editor's server (diagnostics, quick fixes, hover) and the 写作规范 page.

Outside such a copy (no $ADDED_RULE) the plugin does nothing and the probes are not collected.
"""
from __future__ import annotations

import inspect
import io
import json
import os
import re
from pathlib import Path

from serieskit.lint import report
from serieskit.lint.cli import explain, run
from serieskit.lint.engine import lint
from serieskit.lint.rules import REGISTRY, SERIES_HEADER
from serieskit.lsp import convert
from serieskit.lsp.workspace import Workspace
from serieskit.model.loader import load_site
from serieskit.render.pages import rules_page
from support.project import ROOT, TODAY, make_site

ENV = "ADDED_RULE"
NEW = os.environ.get(ENV, "")
READS_REGISTRY = re.compile(r"\b(?:REGISTRY|rule_codes|FIXTURES)\b")
NEEDS_A_BUILD = {"site", "built", "served", "server", "browser"}


def pytest_collection_modifyitems(config, items):
    if not NEW:
        return
    others = set(REGISTRY) - {NEW}
    keep, drop = [], []
    for item in items:
        params = {str(v) for v in getattr(getattr(item, "callspec", None), "params", {}).values()}
        fn = getattr(item, "function", None)
        reads = fn is not None and bool(READS_REGISTRY.search(inspect.getsource(fn)))
        mine = getattr(item, "module", None) is not None and item.module.__name__ == __name__
        wanted = mine or NEW in params or (reads and not params & others
                                           and not NEEDS_A_BUILD & set(getattr(item, "fixturenames", ())))
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --- the probes: given as a test file in the copy only -------------------------------------------------
POST = "series/demo/added.md"
RULE = REGISTRY.get(NEW)       # the added rule (None outside a copy, where the probes do not run)


def project(tmp_path) -> Path:
    """The base test site with one series post: the added rule's bad fixture (markers kept)."""
    root = make_site(tmp_path)
    bad = RULE.fixture("bad")
    assert bad is not None and bad.is_file(), "the probes take a rule whose bad fixture is one post"
    text = bad.read_text(encoding="utf-8")
    (root / POST).write_text(text if text.startswith("---\n") else SERIES_HEADER + text, encoding="utf-8")
    return root


def findings(root, code=NEW):
    return [f for f in lint(load_site(root, today=TODAY)) if f.code == code]


def cli(root, *args):
    out = io.StringIO()
    code = run(["--root", str(root), "--today", TODAY.isoformat(), *args], out, io.StringIO())
    return code, out.getvalue()


def json_codes(root, *args):
    return [f["code"] for f in json.loads(cli(root, "--format", "json", *args)[1])]


def append(path: Path, text: str):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_this_is_the_copy_and_its_registry_found_the_rule():
    import serieskit
    assert NEW in REGISTRY
    assert Path(serieskit.__file__).parent == ROOT / "serieskit"
    assert Path(inspect.getfile(type(RULE))).parent == ROOT / "serieskit" / "lint" / "rules"


def test_conventions_and_a_manifest_switch_it(tmp_path):
    root = project(tmp_path)
    assert findings(root) and {f.severity for f in findings(root)} == {RULE.severity}
    append(root / "conventions.yml", f"\nrules:\n  {NEW}: info\n")
    assert {f.severity for f in findings(root)} == {"info"}
    append(root / "series" / "demo" / "series.yml", f"rules: {{{NEW}: off}}\n")
    assert findings(root) == []
    assert findings(root, "MAN001") == findings(root, "MAN003") == []


def test_a_suppression_comment_silences_it(tmp_path):
    root = project(tmp_path)
    post = root / POST
    text = post.read_text(encoding="utf-8")
    marker = f"<!-- expect: {NEW} -->"
    assert marker in text
    post.write_text(text.replace(marker, f"<!-- spec-disable-next-line {NEW}: 引用原文 -->"), encoding="utf-8")
    assert findings(root) == [] and findings(root, "SPEC001") == []


def test_the_cli_lists_explains_selects_ignores_reports_and_fixes_it(tmp_path):
    root = project(tmp_path)
    listed = cli(root, "--list-rules")[1].splitlines()
    assert f"{NEW:8} {RULE.severity:8} {RULE.slug:28} {RULE.doc_sections()['summary']}" in listed
    code, text = cli(root, "--explain", NEW.lower())
    assert code == 0 and text.startswith(f"{NEW} ({RULE.slug}) — {RULE.severity}")
    assert f"auto-fix: {'yes' if RULE.fixable else 'no'}" in text and "Bad:" in text and "Good:" in text
    assert set(json_codes(root, "--select", NEW)) == {NEW}
    assert NEW in json_codes(root, "--select", NEW[:3]) and NEW not in json_codes(root, "--ignore", NEW)
    sarif = json.loads(cli(root, "--format", "sarif", "--select", NEW)[1])["runs"][0]
    assert NEW in [r["id"] for r in sarif["tool"]["driver"]["rules"]]
    assert {r["ruleId"] for r in sarif["results"]} == {NEW}
    assert NEW in report.text(findings(root), root)
    if RULE.fixable:
        cli(root, "--fix")
        assert findings(root) == []


def test_the_lint_cache_keeps_its_hits_as_it_keeps_its_siblings(tmp_path, monkeypatch):
    root = project(tmp_path)
    first = cli(root, "--format", "json")
    assert NEW in first[1]
    monkeypatch.setattr(type(RULE), "check", lambda self, post, ctx: ())   # it would find nothing now
    kept = cli(root, "--format", "json")
    if RULE.reads_only_post:
        assert kept == first                                  # the kept hits answer
    assert NEW not in cli(root, "--format", "json", "--no-cache")[1]


def test_the_editor_and_the_rules_page_show_it(tmp_path):
    root = project(tmp_path)
    found = [f for f in Workspace(root, today=TODAY).lint([POST]) if f.code == NEW]
    assert found and all(f.fix for f in found) == RULE.fixable
    assert explain(NEW, markdown=True) in convert.hover_text(found, markdown=True)
    page = rules_page(load_site(root, today=TODAY))
    assert f"| [{NEW}](#{NEW.lower()}) | {RULE.slug} |" in page and f"## {NEW} · {RULE.slug} {{ #{NEW.lower()} }}" in page
