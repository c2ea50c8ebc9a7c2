"""`mkdocs serve` converts again only what an edit touched (hooks/serieshooks/serve_cache.py), and
what it serves is exactly what a full build gives.

One serve session (tests/support/serve_session.py: MkDocs' serve loop without the HTTP server) builds the
fixture project, then edits it in turn: a paragraph plus a FIG002 break (the findings box), a post's
title (navigation, prev / next, index, tags), a new post, a glossary term (tooltips and the glossary
table), a docs/ page, and back to the start. After every rebuild each file of the site is
compared with a fresh serve build of the same project state, in a new process: a test for each edit,
which names it when it fails. The edits build on each other, as an author's do in one serve session (the
cache is what is tested), and the last one puts the project back as it started.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.sitebuild import ROOT, env, make_project

pytestmark = pytest.mark.slow   # a serve session and a fresh build of every state (over a few seconds a test)

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


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> dict[int, Path]:
    """One serve session over every edit in turn, then a fresh serve build of each state (two at a
    time: the machine has two cores): step number -> its folder (0 is the first build)."""
    tmp = tmp_path_factory.mktemp("serve-incremental")
    proj = make_project(tmp)
    out = tmp / "session"
    r = subprocess.run([sys.executable, str(SESSION), str(proj), str(out), *EDITS], env=env(),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    steps = {int(p.name): p for p in out.iterdir() if p.is_dir()}
    assert sorted(steps) == list(range(len(EDITS) + 1))
    procs = []
    for k in range(1, len(EDITS) + 1):
        step = steps[k]
        log = (step / "fresh.log").open("w")
        procs.append((subprocess.Popen([sys.executable, str(SESSION), str(step / "project"), str(step / "fresh")],
                                       env=env(), stdout=log, stderr=subprocess.STDOUT), log))
        if len(procs) % 2 == 0:
            procs[-2][0].wait(timeout=600)
    for proc, log in procs:
        proc.wait(timeout=600)
        log.close()
        (Path(log.name).parent / "fresh.rc").write_text(str(proc.returncode))
    return steps


@pytest.mark.parametrize("k, edit", list(enumerate(EDITS, 1)), ids=EDITS)
def test_serve_rebuild_equals_a_fresh_build(session, k, edit):
    step = session[k]
    assert (step / "fresh.rc").read_text() == "0", (step / "fresh.log").read_text()[-3000:]
    _same(step / "fresh" / "0" / "site", step / "site", f"after edit {k} ({edit})")
    # serve writes no search index (the box says so); `mkdocs build` does
    assert not (step / "site" / "pagefind").exists()
    stats = json.loads((step / "cache.json").read_text())
    if edit == "body":         # one post edited: everything else comes from the cache
        assert stats["MARKDOWN"][0] >= 8 and stats["MARKDOWN"][1] <= 8, stats
        served = (step / "site" / "demo" / "first" / "index.html").read_text(encoding="utf-8")
        assert "data-serve" in served and "mkdocs serve" in served
        assert 'class="series-findings"' in served and "<strong>FIG002</strong>" in served
        assert "新增一句" in served
    if edit == "new-post":     # a new page changes every link target: all converted again
        assert stats["MARKDOWN"][0] == 0, stats


def test_the_first_serve_build_writes_no_search_index(session):
    assert (session[0] / "site" / "index.html").is_file()
    assert not (session[0] / "site" / "pagefind").exists()
