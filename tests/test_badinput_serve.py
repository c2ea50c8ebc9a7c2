"""`mkdocs serve` (one real server process on a free port) meets the bad-input corpus case by case:
it stays up, shows the problem on the page (the findings box, `.series-findings`, with the right code,
file and line), and recovers when the file is repaired. Valid cases render with no box.
"""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html import unescape
from pathlib import Path

import pytest

import badinput_corpus as corpus
from sitebuild import env, make_project

DEADLINE = 90          # seconds for one rebuild to show up (two shared cores, other builds running)
CASES = [c for c in corpus.cases() if c.serve]
BOX = re.compile(r'<aside class="series-findings".*?</aside>', re.S)
ITEM = re.compile(r'<li class="series-findings__(?P<sev>\w+)"><code>(?P<path>[^<]+):(?P<line>\d+):\d+</code>\s*'
                  r'<strong>(?P<code>[A-Z]+\d+)</strong>')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, proj: Path, log: Path):
        self.proj, self.log_path = proj, log
        self.port = free_port()
        self.log = open(log, "w", encoding="utf-8")
        self.proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
                                     cwd=proj, env=env(), stdout=self.log, stderr=subprocess.STDOUT)

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=20) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, ""
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return 0, ""

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait(self, what: str, check, deadline: float = DEADLINE):
        """Poll until `check()` returns a true value; fail with the server's log tail otherwise."""
        end = time.monotonic() + deadline
        last = None
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"mkdocs serve exited while waiting for {what}:\n{self.output()[-4000:]}"
            last = check()
            if last:
                return last
            time.sleep(0.25)
        pytest.fail(f"timed out waiting for {what}\n--- server log ---\n{self.output()[-4000:]}")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


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


def test_serve_shows_each_problem_and_recovers(server):
    proj = server.proj
    base = corpus.original_files(proj)
    seen = []
    for case in CASES:
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
                    return errors if errors and set(errors) <= set(case.errors) else None
                errors = server.wait(f"{case.name}: the findings box on {case.page}", shown)
                assert errors, case.name
                made += corpus.fix(case, proj)

                def recovered():
                    status, page = server.get(case.page)
                    return status == 200 and box_items(page) is None and all(t in page for t in case.fixed_shows)
                server.wait(f"{case.name}: {case.page} recovered after the repair", recovered)
            seen.append(case.name)
        finally:
            corpus.restore(proj, made, base)
    log = server.output()
    assert server.proc.poll() is None
    assert "Traceback" not in log and "An error happened during the rebuild" not in log, log[-4000:]
    assert len(seen) == len(CASES)


def test_serve_survives_a_page_markdown_cannot_render(server):
    """No rule foresees this one (SPEC002): serve stays up, shows it in the box, recovers."""
    from test_badinput import EMPHASIS_POST
    post = server.proj / "series" / "notes" / "emphasis.md"
    post.write_text(EMPHASIS_POST, encoding="utf-8")
    try:
        def shown():
            status, page = server.get("notes/emphasis/")
            items = box_items(page) or []
            return ("error", "series/notes/emphasis.md", 1, "SPEC002") in items and "RecursionError" in page
        server.wait("the SPEC002 box on notes/emphasis/", shown)
        post.write_text(EMPHASIS_POST.replace("*" * 3000, "**"), encoding="utf-8")

        def recovered():
            status, page = server.get("notes/emphasis/")
            return status == 200 and box_items(page) is None and "<strong>深</strong>" in page
        server.wait("notes/emphasis/ recovered", recovered)
    finally:
        post.unlink()
    assert server.proc.poll() is None
    assert "Traceback" not in server.output()
