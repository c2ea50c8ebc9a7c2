"""One parametrised test over every rule's fixtures: `tests/rules/<CODE>/good.*` must produce no
finding at all, `tests/rules/<CODE>/bad.*` exactly the findings marked inside it.

A fixture is a post (`good.md`, copied into the base site's series `demo`) or a folder (`good/`,
laid over the base site's root). Markers:
  <!-- expect: CODE[, CODE] -->      the next line has these findings
  <!-- expect-line N: CODE -->       line N has it (for line 1, broken frontmatter, ...)
  # expect: CODE                     (YAML, at the end of a line) this line has it
  %% expect-next-line: CODE          (inside a mermaid fence) the next line has it
  EXPECT (a file in a folder fixture) rows of `path line CODE` (for symlinks and other marker-less files)
"""
import re
from pathlib import Path

import pytest

from conftest import ROOT, TODAY, make_site
from serieskit.engine import lint
from serieskit.loader import load_site
from serieskit.rules import REGISTRY

FIXTURES = ROOT / "tests" / "rules"
NO_BAD_FIXTURE = {"SPEC002": "an internal error cannot be caused by a post; tests/test_engine.py makes a rule crash"}

NEXT = re.compile(r"<!--\s*expect:\s*(?P<codes>[A-Z0-9, ]+?)\s*-->|%%\s*expect-next-line:\s*(?P<mcodes>[A-Z0-9, ]+)")
ABS = re.compile(r"<!--\s*expect-line\s+(?P<line>\d+):\s*(?P<codes>[A-Z0-9, ]+?)\s*-->")
SAME = re.compile(r"#\s*expect:\s*(?P<codes>[A-Z0-9, ]+?)\s*$")


def expected_in(path: Path, rel: str) -> set[tuple[str, int, str]]:
    text = path.read_bytes().decode("utf-8", "replace")
    out = set()
    for i, line in enumerate(text.split("\n"), 1):
        for m in NEXT.finditer(line):
            for c in (m.group("codes") or m.group("mcodes")).split(","):
                out.add((rel, i + 1, c.strip()))
        for m in ABS.finditer(line):
            for c in m.group("codes").split(","):
                out.add((rel, int(m.group("line")), c.strip()))
        m = SAME.search(line)
        if m:
            for c in m.group("codes").split(","):
                out.add((rel, i, c.strip()))
    return out


def fixture(code: str, kind: str) -> Path | None:
    d = FIXTURES / code
    for cand in (d / kind, d / f"{kind}.md"):
        if cand.exists():
            return cand
    return None


def run_fixture(tmp_path, fx: Path):
    if fx.is_dir():
        root = make_site(tmp_path, overlay=fx)
        files = [p for p in fx.rglob("*") if p.is_file() and not p.is_symlink()]
        rels = [p.relative_to(fx).as_posix() for p in files]
    else:
        root = make_site(tmp_path, post=fx)
        files = [fx]
        rels = [f"series/demo/{fx.name}"]
    expected = set()
    for f, rel in zip(files, rels):
        if f.name == "EXPECT":   # folder fixtures may list findings in files that cannot hold a marker
            for row in f.read_text(encoding="utf-8").split("\n"):
                if row.strip():
                    path, line, code = row.split()
                    expected.add((path, int(line), code))
        elif f.suffix in (".md", ".yml", ".yaml"):
            expected |= expected_in(f, rel)
    site = load_site(root, today=TODAY)
    got = {(f.path, f.line, f.code) for f in lint(site)}
    return expected, got, lint(site)


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_good_fixture_is_clean(code, tmp_path):
    fx = fixture(code, "good")
    assert fx is not None, f"tests/rules/{code}/good(.md) is missing"
    _, got, findings = run_fixture(tmp_path, fx)
    assert not findings, "\n".join(f"{f.path}:{f.line}:{f.column} {f.code} {f.message}" for f in findings)


@pytest.mark.parametrize("code", sorted(set(REGISTRY) - set(NO_BAD_FIXTURE)))
def test_bad_fixture_has_exactly_the_marked_findings(code, tmp_path):
    fx = fixture(code, "bad")
    assert fx is not None, f"tests/rules/{code}/bad(.md) is missing"
    expected, got, findings = run_fixture(tmp_path, fx)
    assert any(c == code for _, _, c in expected), f"the bad fixture of {code} marks no {code} finding"
    detail = "\n".join(f"  {f.path}:{f.line}:{f.column} {f.code} {f.message}" for f in findings)
    assert got == expected, f"missing: {sorted(expected - got)}\nunexpected: {sorted(got - expected)}\n{detail}"


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_rule_is_documented(code):
    rule = REGISTRY[code]
    sections = rule.doc_sections()
    for key in ("summary", "what", "why", "bad", "good"):
        assert sections.get(key), f"{code}: docstring lacks a `{key.title()}:` section"
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


def test_base_site_is_clean(site_root):
    findings = lint(load_site(site_root, today=TODAY))
    assert findings == []


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_rule_module_is_named_code_plus_slug(code):
    """`serieskit/rules/<code>_<slug>.py`, e.g. fig002_caption_join.py for FIG002 (caption-join)."""
    rule = REGISTRY[code]
    module = type(rule).__module__.rsplit(".", 1)[1]
    assert module == f"{code.lower()}_{rule.slug.replace('-', '_')}"
