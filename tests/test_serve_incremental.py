"""`mkdocs serve` converts again only what an edit touched (hooks/serieshooks/serve_cache.py), and
what it serves is exactly what a full build gives.

One serve session (tests/support/serve_session.py: MkDocs' serve loop without the HTTP server) builds the
fixture project, then edits it in turn: a paragraph plus a FIG002 break (the findings box), a post's
title (navigation, prev / next, index, tags), a new post, a glossary term (tooltips and the glossary
table), a docs/ page, and back to the start. After every rebuild each file of the site is
compared with a fresh serve build of the same project state, in a new process.
"""
import json
import subprocess
import sys
from pathlib import Path

from support.sitebuild import ROOT, env, make_project

SESSION = ROOT / "tests" / "support" / "serve_session.py"
EDITS = ["body", "retitle", "new-post", "glossary", "docs-page", "undo"]


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _same(fresh: Path, served: Path, label: str) -> None:
    a, b = _files(fresh), _files(served)
    assert sorted(a) == sorted(b), f"{label}: files differ: {sorted(set(a) ^ set(b))[:10]}"
    for rel in a:
        if a[rel] != b[rel]:
            x, y = a[rel].decode("utf-8", "replace"), b[rel].decode("utf-8", "replace")
            i = next((i for i, (c, d) in enumerate(zip(x, y)) if c != d), min(len(x), len(y)))
            raise AssertionError(f"{label}: {rel} differs at {i}:\n fresh: {x[max(0, i - 120):i + 120]!r}\n"
                                 f" serve: {y[max(0, i - 120):i + 120]!r}")


def test_serve_rebuilds_equal_fresh_builds(tmp_path):
    proj = make_project(tmp_path)
    out = tmp_path / "session"
    r = subprocess.run([sys.executable, str(SESSION), str(proj), str(out), *EDITS], env=env(),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    steps = sorted((p for p in out.iterdir() if p.is_dir()), key=lambda p: int(p.name))
    assert len(steps) == len(EDITS) + 1
    # fresh builds of every state, two at a time (the machine has two cores)
    procs = []
    for step in steps[1:]:
        procs.append((step, subprocess.Popen([sys.executable, str(SESSION), str(step / "project"), str(step / "fresh")],
                                             env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
        if len(procs) % 2 == 0:
            procs[-2][1].wait(timeout=600)
    for step, p in procs:
        log = p.communicate(timeout=600)[0]
        assert p.returncode == 0, log[-3000:]
        _same(step / "fresh" / "0" / "site", step / "site", f"after edit {step.name} ({EDITS[int(step.name) - 1]})")

    stats = {int(s.name): json.loads((s / "cache.json").read_text()) for s in steps}
    body = stats[1]        # one post edited: everything else comes from the cache
    assert body["MARKDOWN"][0] >= 8 and body["MARKDOWN"][1] <= 8, body
    assert stats[3]["MARKDOWN"][0] == 0, stats[3]   # a new page changes every link target: all converted again
    # serve writes no search index (the box says so); `mkdocs build` does
    assert not any((s / "site" / "pagefind").exists() for s in steps)
    served = (steps[1] / "site" / "demo" / "first" / "index.html").read_text(encoding="utf-8")
    assert "data-serve" in served and "mkdocs serve" in served
    assert 'class="series-findings"' in served and "<strong>FIG002</strong>" in served
    assert "新增一句" in served
