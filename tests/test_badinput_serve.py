"""`mkdocs serve` (one real server process on a free port, for the module) meets the bad-input corpus
case by case, a test each: it stays up, shows the problem on the page (the findings box,
`.series-findings`, with the right code, file and line), and recovers when the file is repaired. Valid
cases render with no box. Each case puts the project back as it found it, so the cases are independent.
"""
from __future__ import annotations

import re
from html import unescape

import pytest

from support import badinput_corpus as corpus
from support.serving import Server
from support.sitebuild import make_project

pytestmark = pytest.mark.slow   # one `mkdocs serve` process meets every case (over a few seconds a test)

CASES = [c for c in corpus.cases() if c.serve]
BOX = re.compile(r'<aside class="series-findings".*?</aside>', re.S)
ITEM = re.compile(r'<li class="series-findings__(?P<sev>\w+)"><code>(?P<path>[^<]+):(?P<line>\d+):\d+</code>\s*'
                  r'<strong>(?P<code>[A-Z]+\d+)</strong>')


def box_items(page: str) -> list[tuple[str, str, int, str]] | None:
    m = BOX.search(page)
    if m is None:
        return None
    return [(i["sev"], unescape(i["path"]), int(i["line"]), i["code"]) for i in ITEM.finditer(m.group(0))]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("badinput-serve")
    proj = make_project(tmp)
    srv = Server(proj, tmp / "serve.log")
    try:
        srv.wait("the first build", lambda: srv.get("")[0] == 200, deadline=180)
        yield srv
    finally:
        srv.stop()


def test_cases_left_out_of_serve_say_why():
    for c in corpus.cases():
        assert c.serve or len(c.serve_skip_reason) > 10, c.name


def _healthy_since(server, start: int) -> str:
    """The server is up and its log since `start` has no traceback or failed rebuild ("" when so)."""
    log = server.output()[start:]
    if server.proc.poll() is not None:
        return f"mkdocs serve exited ({server.proc.returncode}):\n{log[-4000:]}"
    if "Traceback" in log or "An error happened during the rebuild" in log:
        return log[-4000:]
    return ""


@pytest.fixture(scope="module")
def original(server) -> dict[str, bytes]:
    """The fixture project's files as the server first built them: every case puts them back."""
    return corpus.original_files(server.proj)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_serve_shows_the_problem_and_recovers(server, original, case):
    """Each case on the one server: laid over the project, shown (or rendered), repaired, and the
    project put back as it was, so the next case starts from the fixture."""
    proj = server.proj
    base = original
    start = len(server.output())
    made = corpus.apply(case, proj)
    try:
        if case.valid:
            def rendered():
                status, page = server.get(case.page)
                ok = status == 200 and all(t in page for texts in case.render.values() for t in texts)
                return ok and box_items(page) is None
            server.wait(f"{case.name}: {case.page} rendered without findings", rendered)
        else:
            def shown():
                status, page = server.get(case.page)
                items = box_items(page) if status == 200 else None
                errors = [(p, ln, c) for sev, p, ln, c in items or [] if sev == "error"]
                return errors if errors and set(errors) <= set(case.errors + case.build_errors) else None
            errors = server.wait(f"{case.name}: the findings box on {case.page}", shown)
            assert errors, case.name
            made += corpus.fix(case, proj)

            def recovered():
                status, page = server.get(case.page)
                return status == 200 and box_items(page) is None and all(t in page for t in case.fixed_shows)
            server.wait(f"{case.name}: {case.page} recovered after the repair", recovered)
    finally:
        corpus.restore(proj, made, base)
    problem = _healthy_since(server, start)
    assert not problem, f"{case.name}: {problem}"


def test_serve_survives_a_page_markdown_cannot_render(server):
    """No rule foresees this one (SPEC002): serve stays up, shows it in the box, recovers."""
    post = server.proj / "series" / "notes" / "emphasis.md"
    post.write_text(corpus.EMPHASIS_POST, encoding="utf-8")
    try:
        def shown():
            status, page = server.get("notes/emphasis/")
            items = box_items(page) or []
            return ("error", "series/notes/emphasis.md", 1, "SPEC002") in items and "RecursionError" in page
        server.wait("the SPEC002 box on notes/emphasis/", shown)
        post.write_text(corpus.EMPHASIS_POST.replace("*" * 3000, "**"), encoding="utf-8")

        def recovered():
            status, page = server.get("notes/emphasis/")
            return status == 200 and box_items(page) is None and "<strong>深</strong>" in page
        server.wait("notes/emphasis/ recovered", recovered)
    finally:
        post.unlink()
    assert server.proc.poll() is None
    assert "Traceback" not in server.output()
