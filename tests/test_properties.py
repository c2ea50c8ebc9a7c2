"""Properties of the engine, checked with hypothesis (example counts: the `serieskit` profile in conftest.py).

- Nothing the engine does for a build (load, lint, render, generated pages, feed, reports) raises on
  arbitrary text, arbitrary frontmatter or arbitrary bytes; a rule that crashes would show as SPEC002.
- `--fix` is idempotent, changes only the lines its findings name (every other byte, line endings and
  BOM included, stays), and leaves no fixable finding behind.
- An interrupted fix (the writer SIGKILLed mid-write) leaves the original file whole.
- `scripts/new_post.py` never overwrites an existing file.
"""
from __future__ import annotations

import hashlib
import io
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from support.project import ROOT, TODAY, TODAY_ISO, make_site
from serieskit.publish import feed
from serieskit.render import pages
from serieskit.lint import report
from serieskit.lint.cli import run as lint_cli
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site
from serieskit.render.post import render_post

HUB = ROOT / "tests" / "rules" / "_site" / "series" / "demo" / "hub.md"

# --- one throw-away project per test module (hypothesis examples must not share function-scoped fixtures) --
_SITE: dict[str, Path] = {}


def project(name: str) -> Path:
    if name not in _SITE:
        _SITE[name] = make_site(Path(tempfile.mkdtemp(prefix=f"serieskit-prop-{name}-")))
    return _SITE[name]


def tree_digest(root: Path, skip: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in (root / "series").rglob("*") if p.is_file() and p != skip}


def exercise(root: Path, post_rel: str) -> list:
    """Everything serieskit does for one build: load, lint, render the post, generate pages and feed,
    write every report format. Returns the findings."""
    site = load_site(root, today=TODAY)
    findings = lint(site)
    post = site.by_rel[post_rel]
    render_post(post, site, include_drafts=True)
    post.stats(site.conv)
    for s in site.series.values():
        pages.series_index(s, site, True)
        pages.series_cards(site, "index.md", True)
    pages.tags_page(site, True)
    pages.archive_page(site, True)
    pages.latest_posts(site, "index.md", True)
    feed.atom(site, "http://127.0.0.1:8000/", "站点", "作者")
    for fmt in report.FORMATS.values():
        fmt(findings, root)
    internal = [f for f in findings if f.code == "SPEC002"]
    assert not internal, internal
    return findings


# --- strategies -------------------------------------------------------------------------------------------
FRAGMENTS = ["---", "```", "```mermaid", "~~~", "````", "- ", "* ", "1. ", "> ", "    ", "\t", "# ", "## ", "## 一、",
             "## 零、本文骨架", "| 小节 | 主题 | 产出 |", "|---|---|---|", "| §一 | a | b |", "![图](assets/fig.svg)",
             "![图](<assets/带 空格.svg>)", "  ", "\\", "<br>", "[链接](hub.md)", "[x](../../README.md)",
             "[a]: b.md", "<!--", "-->", "<!-- spec-disable-next-line FIG001: 理由 -->", "<!-- spec-disable SEC001 -->",
             "<script>", "</script>", "<img onerror=x>", "javascript:", "&#106;", "{: onclick=x }", "姊妹篇：",
             " · ", "（在做）", "⚠️ 时效声明（最后更新：2026-05-08）", "$$", "$x$", "`", "``", "flowchart LR",
             "sequenceDiagram", "classDef x fill:#fff", "style A fill:#FF0000", "class A blue", "A:::pink",
             "%%{init: {'theme': 'dark'}}%%", "linkStyle 0 stroke:red", "<!-- glossary-table -->", "投机解码",
             "Qwen3.5", "title:", "slug:", "date: 2026-13-45", "\r", "\u200b", "\ufeff", "\x00", "𠀋", "：", "（",
             "[", "]", "(", ")", "<", ">", "{", "}", "|", "!", "#"]

fragment_lines = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=6).map("".join)
markdownish = st.lists(fragment_lines, max_size=30).map("\n".join)
any_text = st.one_of(st.text(max_size=400), markdownish)

yaml_scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                        st.text(max_size=30), st.dates().map(str), st.sampled_from(["demo", "notes", "draft", "published"]))
yaml_value = st.recursive(yaml_scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                          max_leaves=12)
KEYS = ["title", "slug", "date", "updated", "author", "series", "order", "status", "tags", "summary", "timely"]
frontmatter = st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=10)), yaml_value, max_size=12)


# --- the linter's frontmatter cache ---------------------------------------------------------------------------
@given(meta=frontmatter, raw=st.one_of(st.none(), st.text(max_size=200), any_text))
def test_the_frontmatter_cache_gives_back_the_frontmatter_it_was_given(meta, raw):
    """The linter's cache (serieskit/parse/parsecache.py) keeps a post's frontmatter as JSON: through
    encode, JSON text and decode comes the same frontmatter (data, lines, positions, duplicate keys,
    error), for any mapping and any text between the `---` lines."""
    import json
    from serieskit.parse import frontmatter as fmmod, parsecache
    head = raw if raw is not None else yaml.safe_dump(meta, allow_unicode=True, default_flow_style=None)
    fm = fmmod.parse(f"---\n{head}\n---\nbody".replace("\r", "").split("\n"))
    data = parsecache.encode_front(fm)
    assume(data is not None)
    back = parsecache.decode_front(json.loads(json.dumps(data, ensure_ascii=False)))
    assert json.dumps(back.data) == json.dumps(fm.data)     # (NaN too)
    assert (back.start, back.end, back.key_pos, back.value_pos, back.duplicate_keys, back.error) == \
        (fm.start, fm.end, fm.key_pos, fm.value_pos, fm.duplicate_keys, fm.error)


# --- the engine never raises ----------------------------------------------------------------------------------
@given(text=any_text, in_series=st.booleans())
def test_engine_never_raises_on_arbitrary_text(text, in_series):
    root = project("text")
    rel = "series/demo/x.md" if in_series else "series/solo/x.md"
    (root / rel).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        exercise(root, rel)
    finally:
        (root / rel).unlink()


@given(meta=frontmatter, raw=st.one_of(st.none(), st.text(max_size=200)))
def test_engine_never_raises_on_arbitrary_frontmatter(meta, raw):
    root = project("frontmatter")
    body = HUB.read_text(encoding="utf-8").split("---\n", 2)[2]
    head = raw if raw is not None else yaml.safe_dump(meta, allow_unicode=True, default_flow_style=None)
    (root / "series/demo/x.md").write_text(f"---\n{head}\n---\n{body}", encoding="utf-8", errors="surrogatepass")
    try:
        exercise(root, "series/demo/x.md")
    finally:
        (root / "series/demo/x.md").unlink()


@given(data=st.one_of(st.binary(max_size=600),
                      st.tuples(st.sampled_from([b"", b"\xef\xbb\xbf", b"---\n", b"\xef\xbb\xbf---\r\n"]),
                                st.binary(max_size=400)).map(b"".join)))
def test_engine_never_raises_on_arbitrary_bytes(data):
    root = project("bytes")
    p = root / "series/demo/x.md"
    p.write_bytes(data)
    try:
        findings = exercise(root, "series/demo/x.md")
        try:
            data.decode("utf-8")
            valid = True
        except UnicodeDecodeError:
            valid = False
        assert any(f.code == "FMT008" and f.path == "series/demo/x.md" for f in findings) == (not valid)
    finally:
        p.unlink()


# --- --fix -----------------------------------------------------------------------------------------------------
TAILS = ["  ", "", " ", "   ", "\\", "<br>", " <br>", "<br/>"]
DATES = ["2026-04-18", "2026-05-08", "2026-05-20", "2025-12-31"]
SISTER_ITEMS = ["[演示系列导航](index.md)", "CUDA Graph 实战（在做）", "技术地图（在做）", "[技术地图](hub.md)（在做）",
                "GPU/NCCL SOP（在做）", "[技术地图](hub.md)（地图）"]


@st.composite
def fixable_post(draw) -> bytes:
    date = draw(st.sampled_from(DATES[:2]))
    updated = draw(st.sampled_from([None, *DATES[1:]]))
    banner_date = draw(st.sampled_from(DATES))
    items = draw(st.lists(st.sampled_from(SISTER_ITEMS), min_size=1, max_size=4, unique=True))
    figs = draw(st.lists(st.sampled_from(TAILS), min_size=1, max_size=3))
    noise = draw(st.lists(st.sampled_from(["", "正文一句。", "`代码 \\ 里的反斜杠`", "- 列表项", "> 引用",
                                           "![图](assets/fig.svg)", "<!-- 注释 -->"]), max_size=4))
    quoted = draw(st.booleans())
    lines = ["---", 'title: "修复用的文章"', "slug: x", f"date: {date}"]
    if updated:
        lines.append(f"updated: {updated}")
    lines += ["author: Qian, Cheng", "series: demo", "order: 9", "tags: [测试]", "summary: 夹具。", "---", "",
              "以 Qwen3.5 为例。", "", "姊妹篇：" + " · ".join(items), "",
              ("> " if quoted else "") + f"⚠️ 时效声明（最后更新：{banner_date}）：示意。", "",
              "## 零、本文骨架", "", "| 小节 | 主题 | 产出 |", "|---|---|---|", "| §一 | 正文 | 结论 |", "",
              "## 一、正文", ""]
    for i, tail in enumerate(figs, 1):
        lines += [f"![图 {i}](assets/fig.svg){tail}", f"图 {i}：图注", ""]
        if noise:
            lines += [noise.pop(), ""]
    lines += ["## 参考资料", "", "- 无"]
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    return bom + (eol.join(lines) + eol).encode("utf-8")


def fix_run(root: Path, *args: str) -> int:
    return lint_cli(["--root", str(root), "--today", TODAY.isoformat(), *args], out=io.StringIO(), err=io.StringIO())


@given(data=fixable_post())
def test_fix_is_idempotent_changes_only_what_it_names_and_leaves_no_fixable_finding(data):
    root = project("fix")
    p = root / "series/demo/x.md"
    p.write_bytes(data)
    others = tree_digest(root, p)
    try:
        before = [f for f in lint(load_site(root, today=TODAY)) if f.path == "series/demo/x.md"]
        named = {f.line for f in before if f.fix}
        for f in before:
            for e in f.fix or []:
                assert e.line == f.line, f   # a fix edits the line its finding names
        fix_run(root, "--fix")
        after_bytes = p.read_bytes()
        # only the named lines changed; every other byte (line endings, BOM) is the same
        old_lines, new_lines = data.splitlines(keepends=True), after_bytes.splitlines(keepends=True)
        assert len(old_lines) == len(new_lines)
        changed = {i for i, (a, b) in enumerate(zip(old_lines, new_lines), 1) if a != b}
        assert changed <= named, (changed, named)
        assert data.startswith(b"\xef\xbb\xbf") == after_bytes.startswith(b"\xef\xbb\xbf")
        for a, b in zip(old_lines, new_lines):
            assert a.endswith(b"\r\n") == b.endswith(b"\r\n")
        # no fixable finding is left, and the findings that had no fix are still there
        after = [f for f in lint(load_site(root, today=TODAY)) if f.path == "series/demo/x.md"]
        assert not [f for f in after if f.fix], after
        assert {(f.code, f.line) for f in after} == {(f.code, f.line) for f in before if not f.fix}
        # idempotent
        fix_run(root, "--fix")
        assert p.read_bytes() == after_bytes
        assert tree_digest(root, p) == others
        assert not [q.name for q in p.parent.iterdir() if q.name.startswith(".")]
    finally:
        p.unlink()


# --- an interrupted write leaves the original whole ------------------------------------------------------------
WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from serieskit.lint.fix import write_atomic
data = b"x" * int(sys.argv[3])
print("ready", flush=True)
sys.stdin.readline()
write_atomic(sys.argv[2], data)
"""


def test_a_fix_killed_mid_write_leaves_the_original_whole(tmp_path):
    """SIGKILL the writer while it writes a 256 MB replacement: the post is byte for byte the old one."""
    post = tmp_path / "post.md"
    original = HUB.read_bytes()
    size = 256 * 1024 * 1024
    mid_write = 0
    for attempt in range(4):
        post.write_bytes(original)
        for q in tmp_path.glob(".post.md.*"):
            q.unlink()
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(ROOT), str(post), str(size)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdout.readline().strip() == b"ready"
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        partial = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            tmp = list(tmp_path.glob(".post.md.*.tmp"))
            if tmp:
                try:
                    if tmp[0].stat().st_size > 0:
                        os.kill(proc.pid, signal.SIGKILL)
                        partial = tmp[0]
                        break
                except FileNotFoundError:
                    pass
        proc.wait(timeout=30)
        assert post.read_bytes() == original or proc.returncode == 0   # whole: old, or (if too late) complete
        if partial is not None and proc.returncode == -signal.SIGKILL:
            assert post.read_bytes() == original
            left = partial.stat().st_size if partial.exists() else size
            if left < size:
                mid_write += 1
                break
    assert mid_write, "never caught the writer mid-write (machine too fast?)"


# --- new_post never overwrites ------------------------------------------------------------------------------------
slugs = st.from_regex(r"\A[a-z0-9][a-z0-9-]{0,20}\Z")


@given(slug=slugs, content=st.binary(max_size=200), kind=st.sampled_from(["file", "other-slug", "symlink", "dangling"]))
def test_new_post_never_overwrites(slug, content, kind):
    from serieskit.lint.newpost import NewPostError, create
    root = project("newpost")
    target = root / "series" / "demo" / f"{slug}.md"
    assume(not target.exists() and not target.is_symlink())
    keep = root / "series" / "demo" / "keep.txt"
    if kind == "file":
        target.write_bytes(content)                     # whatever is in it, even not a post
    elif kind == "other-slug":                          # a post whose slug differs from its file name
        target.write_text(HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: zz-other")
                          .replace("order: 3", "order: 77"), encoding="utf-8")
    elif kind == "symlink":
        keep.write_bytes(content)
        target.symlink_to(keep.name)
    else:
        target.symlink_to("no-such-file.md")
    snapshot = {p.name: (p.read_bytes() if p.is_file() else None) for p in target.parent.iterdir()}
    try:
        with pytest.raises(NewPostError):
            create(root, "demo", slug, "新的文章", TODAY)
        assert {p.name: (p.read_bytes() if p.is_file() else None) for p in target.parent.iterdir()} == snapshot
    finally:
        target.unlink()
        if keep.exists():
            keep.unlink()


def test_new_post_script_refuses_an_existing_file(tmp_path):
    root = make_site(tmp_path)
    target = root / "series" / "demo" / "hub.md"
    before = target.read_bytes()
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "new_post.py"), "--root", str(root), "--series", "demo",
                        "--slug", "hub", "--title", "同名文章", "--date", TODAY_ISO], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert target.read_bytes() == before
