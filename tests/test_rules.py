"""Every rule's fixtures (`serieskit/lint/rules/fixtures/<CODE>/`), in the style of pylint / ruff /
markdownlint: each fixture is linted with only its rule (plus the codes it marks), so it holds just
what the rule is about.

- `good.md` (or a folder `good/`): no finding.
- `bad.md` (or `bad/`): exactly the marked findings, counted with repeats (a rule that reports a
  line twice fails), and `bad.snap` pins every finding's line:column, code, severity, message and
  hint (`SNAPSHOT_UPDATE=1 pytest tests/test_rules.py` rewrites the snapshots; review the diff).
- `fixed.md` (fixable rules): what `--fix` makes of `bad.md`; it is clean.

A post fixture is copied into the base site's series `demo` (tests/rules/_site); a folder fixture is
laid over the base site's root. Markers: see serieskit/lint/rules/__init__.py (`<!-- expect: CODE -->` on
the line above a finding, `<!-- expect-line N: CODE -->`, `# expect: CODE` at the end of a YAML
line, `%% expect-next-line: CODE` in a mermaid fence, an `EXPECT` file of `path line CODE` rows).
"""
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from support.project import TODAY, make_site
from serieskit.lint import report
from serieskit.lint.engine import lint
from serieskit.lint.fix import planned_changes
from serieskit.model.loader import load_site
from serieskit.lint.rules import FIXTURES, REGISTRY

NO_BAD_FIXTURE = {"SPEC002": "an internal error cannot be caused by a post; tests/test_engine.py makes a rule crash",
                  # found by the build on the rendered page, not by the lint of the source
                  "SEC003": "the output gate: tests/test_output_gate.py, tests/badinput/output-gate",
                  "MER004": "drawn by the build: tests/test_draw.py, tests/badinput/diagram-formula-broken",
                  "MAT001": "drawn by the build: tests/test_draw.py, tests/badinput/diagram-formula-broken"}
UPDATE = os.environ.get("SNAPSHOT_UPDATE") == "1"

NEXT = re.compile(r"<!--\s*expect:\s*(?P<codes>[A-Z0-9, ]+?)\s*-->|%%\s*expect-next-line:\s*(?P<mcodes>[A-Z0-9, ]+)")
ABS = re.compile(r"<!--\s*expect-line\s+(?P<line>\d+):\s*(?P<codes>[A-Z0-9, ]+?)\s*-->")
SAME = re.compile(r"#\s*expect:\s*(?P<codes>[A-Z0-9, ]+?)\s*$")


def _codes(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def expected_in(path: Path, rel: str) -> Counter:
    """(path, line, code) of every marked finding, with repeats (`CODE, CODE` is two findings)."""
    text = path.read_bytes().decode("utf-8", "replace")
    out: Counter = Counter()
    for i, line in enumerate(text.split("\n"), 1):
        for m in NEXT.finditer(line):
            out.update((rel, i + 1, c) for c in _codes(m.group("codes") or m.group("mcodes")))
        for m in ABS.finditer(line):
            out.update((rel, int(m.group("line")), c) for c in _codes(m.group("codes")))
        m = SAME.search(line)
        if m:
            out.update((rel, i, c) for c in _codes(m.group("codes")))
    return out


def fixture(code: str, kind: str) -> Path | None:
    return REGISTRY[code].fixture(kind)


def run_fixture(tmp_path, code: str, fx: Path, name: str | None = None):
    """Lay the fixture over a copy of the base site; lint it with its rule and the codes it marks.
    Returns (project root, expected Counter, findings)."""
    if fx.is_dir():
        root = make_site(tmp_path, overlay=fx)
        files = [p for p in fx.rglob("*") if p.is_file() and not p.is_symlink()]
        rels = [p.relative_to(fx).as_posix() for p in files]
    else:
        root = make_site(tmp_path, post=fx, name=name)
        files, rels = [fx], [f"series/demo/{name or fx.name}"]
    expected: Counter = Counter()
    for f, rel in zip(files, rels):
        if f.name == "EXPECT":   # folder fixtures may list findings in files that cannot hold a marker
            for row in f.read_text(encoding="utf-8").split("\n"):
                if row.strip():
                    path, line, c = row.split()
                    expected[(path, int(line), c)] += 1
        elif f.suffix in (".md", ".yml", ".yaml"):
            expected += expected_in(f, rel)
    select = {code} | {c for _, _, c in expected}
    return root, expected, lint(load_site(root, today=TODAY), select=select)


def _detail(findings) -> str:
    return "\n".join(f"  {f.path}:{f.line}:{f.column} {f.code} {f.message}" for f in findings)


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_good_fixture_is_clean(code, tmp_path):
    fx = fixture(code, "good")
    assert fx is not None, f"serieskit/lint/rules/fixtures/{code}/good(.md) is missing"
    _, _, findings = run_fixture(tmp_path, code, fx)
    assert not findings, _detail(findings)


@pytest.mark.parametrize("code", sorted(set(REGISTRY) - set(NO_BAD_FIXTURE)))
def test_bad_fixture_has_exactly_the_marked_findings(code, tmp_path):
    fx = fixture(code, "bad")
    assert fx is not None, f"serieskit/lint/rules/fixtures/{code}/bad(.md) is missing"
    _, expected, findings = run_fixture(tmp_path, code, fx)
    assert any(c == code for _, _, c in expected), f"the bad fixture of {code} marks no {code} finding"
    got = Counter((f.path, f.line, f.code) for f in findings)
    assert got == expected, (f"missing: {sorted((expected - got).elements())}\n"
                             f"unexpected: {sorted((got - expected).elements())}\n{_detail(findings)}")


@pytest.mark.parametrize("code", sorted(set(REGISTRY) - set(NO_BAD_FIXTURE)))
def test_bad_fixture_snapshot(code, tmp_path):
    """Line:column, code, severity, message and hint of every finding, as the text reporter prints them."""
    root, _, findings = run_fixture(tmp_path, code, fixture(code, "bad"))
    snap = FIXTURES / code / "bad.snap"
    text = report.text(findings).replace(str(root.resolve()), "<project>")   # FS001 names link targets
    if UPDATE:
        snap.write_text(text, encoding="utf-8")
    assert snap.is_file(), f"{snap} is missing: run SNAPSHOT_UPDATE=1 pytest tests/test_rules.py"
    assert text == snap.read_text(encoding="utf-8")


@pytest.mark.parametrize("code", sorted(c for c, r in REGISTRY.items() if r.fixable))
def test_fixed_fixture_is_what_the_fix_makes_of_the_bad_one(code, tmp_path):
    bad, fixed = fixture(code, "bad"), fixture(code, "fixed")
    if UPDATE and fixed is None:
        fixed = FIXTURES / code / "fixed.md"
    assert bad is not None and bad.is_file() and fixed is not None, f"{code}: needs bad.md and fixed.md"
    root, _, findings = run_fixture(tmp_path / "bad", code, bad)
    rel = f"series/demo/{bad.name}"
    changes = planned_changes(load_site(root, today=TODAY), findings)
    assert rel in changes, f"{code}: the fix changes nothing"
    if UPDATE:
        fixed.write_bytes(changes[rel][1])
    assert changes[rel][1] == fixed.read_bytes()
    _, _, after = run_fixture(tmp_path / "fixed", code, fixed, name=bad.name)
    assert not [f for f in after if f.code == code], _detail(after)


def test_every_fixture_folder_belongs_to_a_rule():
    assert {p.name for p in FIXTURES.iterdir() if p.is_dir()} == set(REGISTRY)


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_rule_is_documented(code):
    rule = REGISTRY[code]
    sections = rule.doc_sections()
    for key in ("summary", "what", "why"):
        assert sections.get(key), f"{code}: docstring lacks a `{key.title()}:` section"
    for key in ("good",) if code in NO_BAD_FIXTURE else ("bad", "good"):
        assert sections.get(key), f"{code}: no {key} example (fixtures/{code}/{key}.md)"
    assert re.fullmatch(r"[A-Z]+\d{3}", code)
    assert re.fullmatch(r"[a-z0-9-]+", rule.slug)
    assert rule.severity in ("info", "warning", "error")
    assert rule.scope in ("all", "series")


def test_codes_of_the_spec_are_all_implemented():
    contract = {"FMT001", "FMT002", "FMT003", "FMT004", "FMT005", "FMT006", "FMT007", "SIS001", "SIS002", "SIS003",
                "SIS004", "SIS005", "TML001", "TML002", "TML003", "MER001", "MER002", "MER003", "FIG001", "FIG002",
                "FIG003", "SKL001", "SKL002", "NUM001", "EXM001", "SEC001", "SPEC001"}
    assert contract <= set(REGISTRY)
    # severities of the contract
    for code in contract:
        want = "warning" if code in {"FMT007", "SIS005", "TML003", "EXM001", "SPEC001"} else "error"
        assert REGISTRY[code].severity == want, code


def test_one_definition_says_which_codes_are_security_rules():
    """serieskit/lint/rules `unsilenceable`, which the engine, suppression comments and MAN001 ask: the
    rules of family SEC, their codes in any case, and a code of that family no rule has (a series'
    `sec009: off` is still an attempt to switch a security rule)."""
    from serieskit.lint.rules import unsilenceable
    for code, rule in REGISTRY.items():
        assert unsilenceable(code) == unsilenceable(code.lower()) == (rule.family == "SEC"), code
    assert unsilenceable("SEC999") and unsilenceable("sec001")
    assert not unsilenceable("SPEC001") and not unsilenceable(123)


def test_base_site_is_clean(site_root):
    findings = lint(load_site(site_root, today=TODAY))
    assert findings == []


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_rule_module_is_named_code_plus_slug(code):
    """`serieskit/lint/rules/<code>_<slug>.py`, e.g. fig002_caption_join.py for FIG002 (caption-join)."""
    rule = REGISTRY[code]
    module = type(rule).__module__.rsplit(".", 1)[1]
    assert module == f"{code.lower()}_{rule.slug.replace('-', '_')}"


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_examples_on_the_rules_page_open_no_fence_of_the_page(code):
    """An example is highlighted HTML inside the page's Markdown: no line may start a fence there."""
    from serieskit.render.pages import markdown_example
    for kind in ("bad", "good"):
        example = REGISTRY[code].example(kind)
        if example:
            assert not re.search(r"(?m)^[ \t]*(```|~~~)", markdown_example(example)), (code, kind)
