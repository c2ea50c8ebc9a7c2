"""Every input of the bad-input corpus (tests/badinput/) gets a clear answer.

- The lint CLI (a real subprocess): exactly the recorded error findings (code, file, line), the
  recorded warnings, exit 1 (0 for the valid cases), never a traceback; after the case's repair it
  exits 0.
- `mkdocs build --strict`: fails, naming file and line of every recorded error, never a traceback;
  the valid cases build and render (every image on the page is in the site).
(`mkdocs serve` is tested in test_badinput_serve.py.)
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest

from support import badinput_corpus as corpus
from support.sitebuild import ROOT, build, env, make_project

CASES = corpus.cases()
IDS = [c.name for c in CASES]


def lint_cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--format", "json", *args],
                          capture_output=True, text=True, env=env(), timeout=300)


def test_corpus_covers_the_issue():
    """One case per input the issue names (plus the variants we found worth keeping)."""
    wanted = {"yaml-unclosed-quote", "yaml-tabs", "frontmatter-list", "frontmatter-string", "keys-missing",
              "keys-mistyped", "duplicate-slug", "duplicate-order", "unknown-series", "updated-before-date",
              "not-utf8", "utf8-bom", "crlf", "empty-file", "frontmatter-only", "unclosed-code-fence",
              "unclosed-mermaid-fence", "big-post", "nested-list-deep", "image-paths", "link-climbs-out",
              "symlink-loop", "manifest-unparsable"}
    assert wanted <= set(IDS), wanted - set(IDS)
    for c in CASES:
        assert c.about and c.page, c.name
        assert c.valid == (not c.errors and not c.build_errors), f"{c.name}: a case is valid iff it records no error"
        if not c.valid:
            assert (c.dir / "fixed").is_dir() or c.fix_remove, f"{c.name}: needs a repair (fixed/ or fix_remove)"
        else:
            assert c.render, f"{c.name}: a valid case records what the page shows"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_lint_cli(case, tmp_path):
    proj = make_project(tmp_path)
    corpus.apply(case, proj)
    r = lint_cli(proj)
    assert "Traceback" not in r.stdout + r.stderr, r.stderr
    findings = json.loads(r.stdout)
    errors = Counter((f["path"], f["line"], f["code"]) for f in findings if f["severity"] == "error")
    warnings = Counter((f["path"], f["line"], f["code"]) for f in findings if f["severity"] == "warning")
    assert errors == case.errors, "\n".join(f"{f['path']}:{f['line']}:{f['column']}: {f['code']} {f['message']}"
                                           for f in findings)
    assert not (case.warnings - warnings), warnings
    assert r.returncode == case.lint_exit, r.stderr
    for f in findings:   # every finding points into its file
        p = proj / f["path"]
        if f["path"].endswith((".md", ".yml")) and p.is_file() and not p.is_symlink():
            n = max(1, len(p.read_bytes().splitlines()))
            assert 1 <= f["line"] <= n, f
    if not case.valid:
        corpus.fix(case, proj)
        r = lint_cli(proj)
        left = [f for f in json.loads(r.stdout) if f["severity"] == "error"]
        assert r.returncode == 0 and not left, left


# --- strict builds: one per case, two at a time (they are subprocesses) -------------------------------------
@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    base = tmp_path_factory.mktemp("badinput-builds")

    def run(case):
        tmp = base / case.name
        proj = make_project(tmp)
        corpus.apply(case, proj)
        return proj, tmp / "site", build(proj, tmp / "site")

    with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
        return dict(zip(IDS, pool.map(run, CASES)))


IMG_SRC = re.compile(r'<img[^>]*\ssrc="([^"]+)"')


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.slow
def test_strict_build(case, builds):
    proj, site, r = builds[case.name]
    out = r.stdout + r.stderr
    assert "Traceback" not in out, out[-3000:]
    if not case.valid:
        assert r.returncode != 0, out[-3000:]
        assert "Aborted with" in out and "in strict mode" in out, out[-3000:]
        for path, line, code in case.errors + case.build_errors:
            assert re.search(rf"^WARNING +- +(?:series: )?{re.escape(path)}:{line}:\d+: {code} ", out, re.M), (path, line, code, out[-3000:])
        return
    assert r.returncode == 0, out[-3000:]
    for page, texts in case.render.items():
        html = (site / page / "index.html").read_text(encoding="utf-8")
        for t in texts:
            assert t in html, (page, t)
        assert "\ufeff" not in html and "\r" not in html.split("<article", 1)[-1]
        assert 'class="series-findings"' not in html
        for src in IMG_SRC.findall(html):
            if src.startswith("data:"):
                continue
            target = unquote(urljoin(f"/{page}", src))
            assert (site / target.lstrip("/")).is_file(), (page, src, target)


# --- a page Python-Markdown itself cannot render (no rule foresees it: corpus.EMPHASIS_POST) -------------------
@pytest.mark.slow
def test_a_page_markdown_cannot_render_fails_the_build_naming_the_file(tmp_path):
    """Python-Markdown raises RecursionError on 3,000 nested emphasis markers: the build names the file
    (SPEC002, please report) instead of dying with a traceback, and the other pages still build."""
    proj = make_project(tmp_path)
    (proj / "series" / "notes" / "emphasis.md").write_text(corpus.EMPHASIS_POST, encoding="utf-8")
    r = build(proj, tmp_path / "site")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out, out[-3000:]
    assert re.search(r"^WARNING +- +(?:series: )?series/notes/emphasis\.md:1:1: SPEC002 Markdown cannot render this page "
                     r"\(RecursionError", out, re.M), out[-3000:]
    r = build(proj, tmp_path / "site", strict=False)
    assert r.returncode == 0, r.stderr[-3000:]
    page = (tmp_path / "site" / "notes" / "emphasis" / "index.html").read_text(encoding="utf-8")
    assert 'class="series-unrendered"' in page and "RecursionError" in page
    assert "<h1>强调嵌套三千层</h1>" in page                  # the post header is still there
    assert (tmp_path / "site" / "notes" / "solo" / "index.html").is_file()
