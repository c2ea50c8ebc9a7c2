"""series-lsp, driven as an editor drives it: a subprocess speaking JSON-RPC over its real stdin / stdout
(tests/support/lsp_client.py). The diagnostics must be the CLI's (`scripts/lint.py --format json`), the fixes
what `--fix` writes, the hover the rule's `--explain` text; bad input gives diagnostics or nothing,
and the server answers the next request after each."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from support.project import EPOCH, ROOT   # EPOCH: TODAY, so staleness is the same for the CLI and the server
from support.lsp_client import Client
from support.sitebuild import committed_copy
from serieskit.lsp.text import UTF8, UTF16, UTF32, Text, index_at_units

SERIES = "series/train-infer-accel"
BROKEN = f"{SERIES}/lsp-broken.md"
BROKEN_TEXT = textwrap.dedent("""\
    ---
    title: "编辑器诊断：测试文章 😀"
    slug: lsp-broken
    date: 2026-05-08
    updated: 2026-05-20
    author: Qian, Cheng
    series: train-infer-accel
    order: 11
    tags: [测试]
    summary: 编辑器里的诊断与命令行一致。
    ---

    这篇用 Qwen3.5 做例子，检查编辑器里的诊断。

    姊妹篇：[训推加速系列导航](index.md) · [技术地图](tech-map.md)（在做） · [不存在](nowhere.md)

    > ⚠️ 时效声明（最后更新：2026-05-08）：示意。

    ## 零、本文骨架

    | 小节 | 主题 | 产出 |
    |---|---|---|
    | §一 | 正文 | 结论 |

    ## 一、正文

    😀🚀 表情之后的图：

    ![图 😀](assets/tech-map-axes.svg) \n    图 1：一个空格 😀

    链接 😀 [坏链接](missing-post.md) 与 [好链接](tech-map.md)。
    """)


def with_order(path: Path) -> tuple[str, str]:
    """A post's text and its `order:` line."""
    text = path.read_text(encoding="utf-8")
    return text, next(line for line in text.split("\n") if line.startswith("order:"))


def server_env() -> dict:
    return {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "SITE_URL": ""}


def cli(proj: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), *args], cwd=proj, capture_output=True,
                          text=True, env={**server_env(), "PYTHONPATH": str(ROOT)}, timeout=120)


def cli_json(proj: Path, rel: str) -> list[dict]:
    r = cli(proj, rel, "--format", "json", "--verbose")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def uri(proj: Path, rel: str) -> str:
    return (proj / rel).as_uri()


def engine_place(text: str, pos: dict, encoding: str = UTF16) -> tuple[int, int]:
    """An LSP position back as the engine's (line, code point column), both 1-based."""
    line = text.split("\n")[pos["line"]].removesuffix("\r")
    return pos["line"] + 1, index_at_units(line, pos["character"], encoding) + 1


def apply_edits(text: str, edits: list[dict], encoding: str = UTF16) -> str:
    """Apply LSP text edits (all in the original text's positions), as an editor does."""
    t = Text(text)
    spans = sorted(((t.offset(e["range"]["start"]["line"], e["range"]["start"]["character"], encoding),
                     t.offset(e["range"]["end"]["line"], e["range"]["end"]["character"], encoding), e["newText"])
                    for e in edits), reverse=True)
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


def sync(c: Client, u: str) -> None:
    """A request answered after every notification sent before it (the server handles them in order)."""
    r = c.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 0, "character": 0}})
    assert "error" not in r, r


def close_doc(c: Client, u: str) -> None:
    c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    sync(c, u)


@pytest.fixture(scope="module")
def proj(tmp_path_factory):
    p = committed_copy(tmp_path_factory.mktemp("lsp") / "proj")
    (p / BROKEN).write_text(BROKEN_TEXT, encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def lsp(proj):
    c = Client(cwd=proj, env=server_env())
    c.caps = c.initialize(proj)["capabilities"]
    yield c
    assert c.close() == 0, c.log()
    assert "Traceback" not in c.log(), c.log()


# --- the protocol ------------------------------------------------------------------------------------
def test_a_request_with_invalid_params_is_answered_with_an_error(proj, lsp):
    """JSON-RPC's InvalidParams (-32602), not silence; the server answers the next request as usual."""
    r = lsp.request("textDocument/hover", {"textDocument": 5, "position": "here"}, timeout=10)
    assert r["error"]["code"] == -32602, r
    r = lsp.request("textDocument/codeAction", {"textDocument": {"uri": 1}}, timeout=10)
    assert r["error"]["code"] == -32602, r
    sync(lsp, (proj / BROKEN).as_uri())


def test_a_body_that_is_not_json_is_answered_with_a_parse_error(proj, lsp):
    body = b'{"jsonrpc": "2.0", "id": 99, "method": '
    lsp.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    lsp.proc.stdin.flush()
    r = lsp._wait(lambda: lsp.responses.pop(None, None), 10)
    assert r["error"]["code"] == -32700 and r["id"] is None, r
    sync(lsp, (proj / BROKEN).as_uri())


@pytest.mark.parametrize("frame", [b"Content-Length: twelve\r\n\r\n{}", b"Content-Lenght 2\r\n\r\n{}",
                                   b"\r\n{}", b"Content-Length: 99999999999\r\n\r\n{}"],
                         ids=["not-a-number", "not-a-header", "no-length", "too-long"])
def test_a_malformed_frame_makes_the_server_exit_for_a_restart(proj, frame):
    """Once the framing is lost there is no next message to find: the server says so and exits with
    status 1 (editors restart it) instead of reading the bodies as headers for ever."""
    c = Client(cwd=proj, env=server_env())
    try:
        c.initialize(proj)
        c.proc.stdin.write(frame)
        c.proc.stdin.flush()
        assert c.proc.wait(timeout=20) == 1
        assert "not LSP framing any more" in c.log() and "Traceback" not in c.log(), c.log()
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()


def test_capabilities(lsp):
    caps = lsp.caps
    assert caps["positionEncoding"] == "utf-16"
    assert caps["textDocumentSync"]["change"] == 2 and caps["textDocumentSync"]["openClose"]
    assert caps["hoverProvider"]
    assert set(caps["codeActionProvider"]["codeActionKinds"]) == {"quickfix", "source.fixAll.series-lint"}


def test_diagnostics_are_the_clis(proj, lsp):
    """Same codes, severities, messages, lines and columns (code points, through UTF-16) as
    `scripts/lint.py --format json` on the same file; cross-post rules see the project."""
    expected = cli_json(proj, BROKEN)
    m = lsp.mark()
    lsp.open(uri(proj, BROKEN), BROKEN_TEXT)
    got = lsp.diagnostics(uri(proj, BROKEN), m)
    mine = sorted((BROKEN, *engine_place(BROKEN_TEXT, d["range"]["start"]), d["code"],
                   {1: "error", 2: "warning", 3: "info"}[d["severity"]], d["message"]) for d in got)
    theirs = sorted((f["path"], f["line"], f["column"], f["code"], f["severity"], f["message"])
                    for f in expected if f["path"] == BROKEN)
    assert mine == theirs
    codes = {d["code"] for d in got}
    assert {"FMT004", "SIS002", "LNK001", "FIG002", "TML002", "SIS004"} <= codes   # cross-post ones included
    assert all(d["source"] == "series-lint" for d in got)
    # after two emoji (two UTF-16 units each) the image line's trailing space is 3 units right of its code point column
    fig = next(d for d in got if d["code"] == "FIG002")
    line = BROKEN_TEXT.split("\n")[fig["range"]["start"]["line"]]
    assert fig["range"]["start"]["character"] == len(line.encode("utf-16-le")) // 2 - 1
    assert fig["range"]["end"]["character"] == fig["range"]["start"]["character"] + 1
    assert "codeDescription" not in fig      # SITE_URL unset: no address for the rules page
    assert {d["data"]["hint"] for d in got if d["code"] == "FIG002"} == {"end the image line with exactly two spaces"}


def test_an_unsaved_buffer_counts_for_cross_post_rules(proj, lsp):
    """An unsaved `order:` that another post has: both open posts show FMT004; undoing it clears both."""
    a, b = f"{SERIES}/moe-training.md", f"{SERIES}/robot-vla.md"
    (ta, order_a), (tb, order_b) = with_order(proj / a), with_order(proj / b)
    m = lsp.mark()
    lsp.open(uri(proj, a), ta)
    lsp.open(uri(proj, b), tb)
    assert lsp.diagnostics(uri(proj, b), m) == []
    m = lsp.mark()
    lsp.change(uri(proj, b), 2, tb.replace(order_b, order_a, 1))
    got_b = lsp.diagnostics(uri(proj, b), m)
    got_a = lsp.diagnostics(uri(proj, a), m)
    assert [d["code"] for d in got_b] == ["FMT004"] and [d["code"] for d in got_a] == ["FMT004"]
    assert b in got_a[0]["message"] and a in got_b[0]["message"]
    assert (proj / b).read_text(encoding="utf-8") == tb          # nothing written
    m = lsp.mark()
    lsp.change(uri(proj, b), 3, tb)
    assert lsp.diagnostics(uri(proj, b), m) == [] and lsp.diagnostics(uri(proj, a), m) == []
    for rel in (a, b):
        close_doc(lsp, uri(proj, rel))


def test_a_change_on_disk_by_another_tool_is_seen(proj, lsp):
    """Another post given the open post's `order:` on disk, the server not told: seen on the next save;
    without one, by the look at the disk after a lint once the last look is a second old."""
    a, other = f"{SERIES}/music-generation.md", f"{SERIES}/video-segmentation.md"
    (ta, order_a), (saved, order_o) = with_order(proj / a), with_order(proj / other)
    m = lsp.mark()
    lsp.open(uri(proj, a), ta)
    assert lsp.diagnostics(uri(proj, a), m) == []
    try:
        (proj / other).write_text(saved.replace(order_o, order_a, 1), encoding="utf-8")
        m = lsp.mark()
        lsp.notify("textDocument/didSave", {"textDocument": {"uri": uri(proj, a)}})
        assert [d["code"] for d in lsp.diagnostics(uri(proj, a), m)] == ["FMT004"]
    finally:
        (proj / other).write_text(saved, encoding="utf-8")
    m = lsp.mark()
    lsp.notify("textDocument/didSave", {"textDocument": {"uri": uri(proj, a)}})
    assert lsp.diagnostics(uri(proj, a), m) == []
    try:
        (proj / other).write_text(saved.replace(order_o, order_a, 1) + "\n", encoding="utf-8")
        time.sleep(1.1)
        m = lsp.mark()
        lsp.change(uri(proj, a), 2, ta)                 # a keystroke: linted, then the disk is looked at
        lsp.wait_note("textDocument/publishDiagnostics", m,
                      where=lambda p: p["uri"] == uri(proj, a) and [d["code"] for d in p["diagnostics"]] == ["FMT004"])
    finally:
        (proj / other).write_text(saved, encoding="utf-8")
    close_doc(lsp, uri(proj, a))


def test_fixes_are_what_the_cli_fix_writes(proj, lsp, tmp_path):
    """The quick fixes and the fix-all action, applied to the text, give what `lint.py --fix` writes."""
    u = uri(proj, BROKEN)
    m = lsp.mark()
    lsp.open(u, BROKEN_TEXT, version=10)
    diags = lsp.diagnostics(u, m)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 10_000, "character": 0}}
    actions = lsp.result("textDocument/codeAction", {"textDocument": {"uri": u}, "range": whole,
                                                     "context": {"diagnostics": diags}})
    quick = [a for a in actions if a["kind"] == "quickfix"]
    fix_all = [a for a in actions if a["kind"] == "source.fixAll.series-lint"]
    assert sorted(a["diagnostics"][0]["code"] for a in quick) == ["FIG002", "SIS004", "TML002"]
    assert all(a["title"].startswith(a["diagnostics"][0]["code"] + ": ") for a in quick)
    assert len(fix_all) == 1
    fixed_by_all = apply_edits(BROKEN_TEXT, fix_all[0]["edit"]["changes"][u])
    fixed_by_quick = apply_edits(BROKEN_TEXT, [e for a in quick for e in a["edit"]["changes"][u]])
    # a range asks for the fixes there only; `only` asks for a kind
    fig = next(d for d in diags if d["code"] == "FIG002")
    here = lsp.result("textDocument/codeAction", {"textDocument": {"uri": u}, "range": fig["range"],
                                                  "context": {"diagnostics": [fig], "only": ["quickfix"]}})
    assert [a["diagnostics"][0]["code"] for a in here] == ["FIG002"]
    only_all = lsp.result("textDocument/codeAction", {"textDocument": {"uri": u}, "range": fig["range"],
                                                      "context": {"diagnostics": [], "only": ["source.fixAll"]}})
    assert [a["kind"] for a in only_all] == ["source.fixAll.series-lint"]

    copy = committed_copy(tmp_path / "p")
    (copy / BROKEN).write_text(BROKEN_TEXT, encoding="utf-8")
    r = cli(copy, BROKEN, "--fix")
    assert r.returncode == 1, r.stderr          # the findings without a fix remain
    cli_fixed = (copy / BROKEN).read_text(encoding="utf-8")
    assert cli_fixed != BROKEN_TEXT
    assert fixed_by_all == cli_fixed
    assert fixed_by_quick == cli_fixed           # one round is enough here

    # the fixed buffer has no fixable finding left, and offers no action
    m = lsp.mark()
    lsp.change(u, 11, cli_fixed)
    after = lsp.diagnostics(u, m)
    assert {d["code"] for d in after} == {"FMT004", "SIS002", "LNK001"}
    assert lsp.result("textDocument/codeAction", {"textDocument": {"uri": u}, "range": whole,
                                                  "context": {"diagnostics": after}}) == []
    close_doc(lsp, u)


def test_hover_shows_the_rules_docs(proj, lsp):
    u = uri(proj, BROKEN)
    m = lsp.mark()
    lsp.open(u, BROKEN_TEXT)
    fig = next(d for d in lsp.diagnostics(u, m) if d["code"] == "FIG002")
    h = lsp.result("textDocument/hover", {"textDocument": {"uri": u}, "position": fig["range"]["start"]})
    assert h["contents"]["kind"] == "markdown" and h["range"] == fig["range"]
    value = h["contents"]["value"]
    assert value.startswith("**hint:** end the image line with exactly two spaces")
    explain = cli(proj, "--explain", "FIG002").stdout
    for line in filter(str.strip, explain.split("\n")):
        assert line.strip() in value, line
    nothing = lsp.result("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 12, "character": 0}})
    assert nothing is None
    close_doc(lsp, u)


def test_incremental_changes_in_utf16_units(proj, lsp):
    """An edit placed after emoji and CJK, in UTF-16 units: the server's text is the editor's, so the
    next finding lands where the editor expects it."""
    rel = f"{SERIES}/lsp-emoji.md"
    text = BROKEN_TEXT.replace("slug: lsp-broken", "slug: lsp-emoji").replace("order: 11", "order: 99")
    u = uri(proj, rel)
    m = lsp.mark()
    lsp.open(u, text)
    before = lsp.diagnostics(u, m)
    line_no = next(i for i, l in enumerate(text.split("\n")) if l.startswith("链接 😀"))
    line = text.split("\n")[line_no]
    at = len(line[:line.index("[坏链接]")].encode("utf-16-le")) // 2
    insert = "😀 [又一个](gone.md) "
    m = lsp.mark()
    lsp.change(u, 2, insert, {"start": {"line": line_no, "character": at}, "end": {"line": line_no, "character": at}})
    after = lsp.diagnostics(u, m)
    new_text = text.replace("链接 😀 [坏链接]", "链接 😀 " + insert + "[坏链接]")
    links = sorted(engine_place(new_text, d["range"]["start"]) for d in after if d["code"] == "LNK001")
    expected = sorted((f["line"], f["column"]) for f in _lint_text(proj, rel, new_text) if f["code"] == "LNK001")
    assert len(links) == 2 and links == expected
    assert len(after) == len(before) + 1
    close_doc(lsp, u)


def _lint_text(proj: Path, rel: str, text: str) -> list[dict]:
    (proj / rel).write_text(text, encoding="utf-8")
    try:
        return cli_json(proj, rel)
    finally:
        (proj / rel).unlink()


# --- bad input ---------------------------------------------------------------------------------------
def test_a_file_on_disk_that_is_not_utf8(proj, lsp):
    """The saved file's bytes are GBK: FMT008 at the first bad byte, as the CLI says; once edited, the
    editor's text (which is text) is the post."""
    rel = f"{SERIES}/lsp-gbk.md"
    data = BROKEN_TEXT.replace("slug: lsp-broken", "slug: lsp-gbk").replace("order: 11", "order: 98")
    (proj / rel).write_bytes(data.encode("gbk", "replace"))
    try:
        expected = [f for f in cli_json(proj, rel) if f["code"] == "FMT008"]
        shown = (proj / rel).read_bytes().decode("latin-1")        # what an editor guessing Latin-1 sends
        u = uri(proj, rel)
        m = lsp.mark()
        lsp.open(u, shown)
        got = [d for d in lsp.diagnostics(u, m) if d["code"] == "FMT008"]
        assert len(got) == 1 == len(expected) and got[0]["message"] == expected[0]["message"]
        assert got[0]["range"]["start"]["line"] + 1 == expected[0]["line"]
        sync(lsp, u)
        assert lsp.result("textDocument/codeAction", {"textDocument": {"uri": u}, "range": got[0]["range"],
                                                      "context": {"diagnostics": got}}) == []   # never rewritten
        m = lsp.mark()
        lsp.change(u, 2, data)
        assert "FMT008" not in {d["code"] for d in lsp.diagnostics(u, m)}
        close_doc(lsp, u)
    finally:
        (proj / rel).unlink()


@pytest.mark.parametrize("text", ['---\ntitle: "abc', "---\ntitle: 半截\nseries: train-infer-accel\nord", "---", ""])
def test_half_typed_frontmatter(proj, lsp, text):
    rel = f"{SERIES}/lsp-half.md"
    u = uri(proj, rel)
    m = lsp.mark()
    lsp.open(u, text)
    got = lsp.diagnostics(u, m)
    if text.startswith("---\ntitle"):
        assert "FMT001" in {d["code"] for d in got}
    sync(lsp, u)
    for d in got:
        assert d["range"]["start"]["line"] <= max(text.count("\n"), 0)
    close_doc(lsp, u)


def test_outside_series_untitled_and_other_roots(proj, lsp, tmp_path):
    """No diagnostics for an untitled buffer, a project file outside series/, or a file in no project;
    a post of another project is checked against that project."""
    before = lsp.mark()
    for u, text in [("untitled:Untitled-1", "# 草稿\n\n[坏](nowhere.md)\n"),
                    (uri(proj, "README.md"), "# x\n[坏](nowhere.md)\n"),
                    (uri(proj, "docs/lsp-page.md"), "# x\n[坏](nowhere.md)\n"),
                    ((tmp_path / "loose.md").as_uri(), "---\ntitle: [\n"),
                    ("file:///nonexistent/dir/x.md", "x")]:
        lsp.open(u, text)
        sync(lsp, u)
        lsp.change(u, 2, text + "more\n")
        sync(lsp, u)
        lsp.notify("textDocument/didSave", {"textDocument": {"uri": u}})
        sync(lsp, u)
        close_doc(lsp, u)
    assert not [n for n in lsp.notes[before:] if n["method"] == "textDocument/publishDiagnostics"]

    other = tmp_path / "other"
    shutil.copytree(ROOT / "tests" / "rules" / "_site", other)
    shutil.copy(ROOT / "conventions.yml", other / "conventions.yml")
    post = next((other / "series").rglob("*.md"))
    u = post.as_uri()
    m = lsp.mark()
    lsp.open(u, post.read_text(encoding="utf-8") + "\n[坏](nowhere-else.md)\n")
    assert "LNK001" in {d["code"] for d in lsp.diagnostics(u, m)}
    close_doc(lsp, u)


def test_a_5_mb_post(proj, lsp):
    """The bad-input corpus' 5 MB post (valid): diagnostics within seconds, and a change after it;
    the server answers a request right after each."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support import badinput_corpus
    text = badinput_corpus.big_post_text()
    rel = "series/posts/lsp-big.md"
    (proj / "series/posts/solo.md").write_text("---\ntitle: 独立文章\nslug: solo\ndate: 2026-05-08\n---\n\n正文。\n",
                                                encoding="utf-8")
    try:
        u = uri(proj, rel)
        t0 = time.perf_counter()
        m = lsp.mark()
        lsp.open(u, text)
        assert lsp.diagnostics(u, m, timeout=60) == []
        opened = time.perf_counter() - t0
        last = text.count("\n") - 1
        m = lsp.mark()
        t0 = time.perf_counter()
        lsp.change(u, 2, "[坏](nowhere.md)", {"start": {"line": last, "character": 0}, "end": {"line": last, "character": 0}})
        got = lsp.diagnostics(u, m, timeout=60)
        changed = time.perf_counter() - t0
        assert [d["code"] for d in got] == ["LNK001"] and got[0]["range"]["start"]["line"] == last
        t0 = time.perf_counter()
        sync(lsp, u)
        answered = time.perf_counter() - t0
        print(f"5 MB post: open -> diagnostics {opened:.2f} s, change -> diagnostics {changed:.2f} s, "
              f"then a request answered in {answered * 1000:.0f} ms")
        assert opened < 20 and changed < 20 and answered < 5
        close_doc(lsp, u)
    finally:
        (proj / "series/posts/solo.md").unlink()


def test_no_project(tmp_path):
    """A workspace with no conventions.yml: the server starts, says so once, checks nothing, answers."""
    (tmp_path / "notes.md").write_text("# 笔记\n", encoding="utf-8")
    c = Client(cwd=tmp_path, env=server_env())
    try:
        c.initialize(tmp_path)
        msg = c.wait_note("window/showMessage", timeout=30)["params"]
        assert "not a series project" in msg["message"] and str(tmp_path) in msg["message"]
        u = (tmp_path / "notes.md").as_uri()
        c.open(u, "# 笔记\n[坏](x.md)\n")
        sync(c, u)
        assert not [n for n in c.notes if n["method"] == "textDocument/publishDiagnostics"]
        assert len([n for n in c.notes if n["method"] == "window/showMessage"]) == 1
    finally:
        assert c.close() == 0


def test_a_broken_conventions_file(tmp_path):
    """conventions.yml that does not parse: one diagnostic on it and one message; fixed and saved, the
    posts are checked again."""
    proj = committed_copy(tmp_path / "proj")
    good = (proj / "conventions.yml").read_text(encoding="utf-8")
    (proj / "conventions.yml").write_text("palette: [\n", encoding="utf-8")
    c = Client(cwd=proj, env=server_env())
    try:
        c.initialize(proj)
        u = uri(proj, BROKEN)
        m = c.mark()
        c.open(u, BROKEN_TEXT)
        conv = c.diagnostics(uri(proj, "conventions.yml"), m)
        assert len(conv) == 1 and "YAML does not parse" in conv[0]["message"]
        assert "conventions.yml" in c.wait_note("window/showMessage", m)["params"]["message"]
        assert c.diagnostics(u, m) == []
        (proj / "conventions.yml").write_text(good, encoding="utf-8")
        m = c.mark()
        c.notify("textDocument/didSave", {"textDocument": {"uri": u}})
        assert "FIG002" in {d["code"] for d in c.diagnostics(u, m)}
        assert c.diagnostics(uri(proj, "conventions.yml"), m) == []
    finally:
        assert c.close() == 0


CRASHING = """\
import sys
from serieskit.lint.rules import REGISTRY
from serieskit.lsp import workspace

rule = REGISTRY["FIG001"]
def check(post, ctx):
    if "CRASH-RULE" in post.text:
        raise ZeroDivisionError("boom")
    return ()
rule.check = check

lint = workspace.Workspace.lint
def crashing_lint(self, rels):
    rels = list(rels)
    if any("crash-server" in r for r in rels):
        raise RuntimeError("the adapter broke")
    return lint(self, rels)
workspace.Workspace.lint = crashing_lint

from serieskit.lsp.server import main
sys.exit(main())
"""


def test_internal_errors(proj, tmp_path):
    """A rule that raises: SPEC002 on the post (the other findings still there) and one message; the
    server itself failing: a message, the traceback on stderr, and the next request answered."""
    script = tmp_path / "crashing_server.py"
    script.write_text(CRASHING, encoding="utf-8")
    c = Client(cwd=proj, env=server_env(), argv=[sys.executable, str(script)])
    try:
        c.initialize(proj)
        u = uri(proj, BROKEN)
        m = c.mark()
        c.open(u, BROKEN_TEXT + "\nCRASH-RULE\n")
        got = c.diagnostics(u, m)
        spec = [d for d in got if d["code"] == "SPEC002"]
        assert len(spec) == 1 and "internal error in rule FIG001" in spec[0]["message"]
        assert "FIG002" in {d["code"] for d in got}
        assert "FIG001" in c.wait_note("window/showMessage", m)["params"]["message"]
        u2 = uri(proj, f"{SERIES}/crash-server.md")
        m = c.mark()
        c.open(u2, BROKEN_TEXT)
        assert "the adapter broke" in c.wait_note("window/showMessage", m)["params"]["message"]
        close_doc(c, u2)
        m = c.mark()
        c.change(u, 2, BROKEN_TEXT)
        assert "SPEC002" not in {d["code"] for d in c.diagnostics(u, m)}
        assert "RuntimeError: the adapter broke" in c.log()
    finally:
        assert c.close() == 0


@pytest.mark.parametrize("offered, chosen", [(["utf-32", "utf-16"], UTF32), (["utf-8"], UTF8)])
def test_position_encoding_is_negotiated(proj, offered, chosen):
    c = Client(cwd=proj, env=server_env())
    try:
        assert c.initialize(proj, encodings=offered)["capabilities"]["positionEncoding"] == chosen
        u = uri(proj, BROKEN)
        m = c.mark()
        c.open(u, BROKEN_TEXT)
        got = c.diagnostics(u, m)
        expected = sorted((f["line"], f["column"], f["code"]) for f in cli_json(proj, BROKEN) if f["path"] == BROKEN)
        assert sorted((*engine_place(BROKEN_TEXT, d["range"]["start"], chosen), d["code"]) for d in got) == expected
    finally:
        assert c.close() == 0


# --- the pieces, without a server ------------------------------------------------------------------------
def test_text_positions():
    t = Text("\ufeffa😀b\r\nc\rd\n中😀e")
    assert t.position(t.engine_offset(1, 3), UTF16) == (0, 4)      # BOM counts in LSP, not for the engine
    assert t.position(t.engine_offset(1, 3), UTF32) == (0, 3)
    assert t.position(t.engine_offset(1, 3), UTF8) == (0, 8)
    assert t.engine_offset(1, 99) == t.text.index("\r")              # past the end: the line's end
    assert t.position(t.engine_offset(2, 3), UTF16) == (2, 0)        # a lone \r breaks an LSP line only
    assert t.position(t.engine_offset(2, 2), UTF16) == (1, 1)
    assert t.position(t.engine_offset(3, 3), UTF16) == (3, 3)
    assert t.offset(3, 3, UTF16) == len(t.text) - 1 and t.offset(3, 99, UTF16) == len(t.text)
    assert t.offset(0, 2, UTF16) == 2 and t.offset(0, 4, UTF16) == 3
    assert t.offset(0, 3, UTF16) == 3                                # inside the emoji: after it
    assert t.apply((0, 2), (0, 4), "X", UTF16).text == "\ufeffaXb\r\nc\rd\n中😀e"
    assert t.apply(None, None, "new", UTF16).text == "new"
    assert Text("ab\u2028cd").lsp_starts == [0]                      # LSP breaks lines at \r\n, \r, \n only
    a, b, rep = Text("一二三四五").edit_to("一二X四五")
    assert (a, b, rep) == (2, 3, "X")
    assert Text("aaa").edit_to("aaaa") == (3, 3, "a")


def test_pygls_stays_in_the_adapter():
    code = ("import sys, serieskit.lint.cli, serieskit.lint.engine, serieskit.lsp.workspace, serieskit.pipeline.project, serieskit.render.post; "
            "print('pygls' in sys.modules, 'lsprotocol' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.stdout.split() == ["False", "False"], r.stderr


def test_rule_links_and_ranges(monkeypatch):
    from serieskit.lsp import convert
    from serieskit.finding import Edit, Finding
    monkeypatch.delenv("SITE_URL", raising=False)
    assert convert.rules_page() is None
    monkeypatch.setenv("SITE_URL", "https://example.org/blog")
    url = convert.rules_page()
    assert url == "https://example.org/blog/rules/"
    text = Text("第一行\n  ![图](a.svg) \n")
    f = Finding("x.md", 2, 14, "FIG002", "warning", "m", "h", [Edit(2, 14, 15, "  ")])
    d = convert.diagnostic(f, convert.finding_range(f, text, UTF16), url)
    assert d.code_description.href == "https://example.org/blog/rules/#fig002" and d.severity == 2
    assert (d.range.start.character, d.range.end.character) == (13, 14)       # what the fix replaces
    whole = convert.finding_range(Finding("x.md", 1, 1, "X", "info", "m"), text, UTF16)
    assert (whole.start.character, whole.end.character) == (0, 3)             # column 1: the line
    word = convert.finding_range(Finding("x.md", 2, 8, "X", "info", "m"), text, UTF16)
    assert (word.start.character, word.end.character) == (7, 8)               # `a` of a.svg: the word
