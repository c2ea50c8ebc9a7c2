"""The engine's parts: the one-pass parser (honest Markdown, raw line/column), suppressions, rule
isolation, per-series switches, select / ignore, Chinese reading time."""
import datetime as dt
import math
from pathlib import Path

import pytest

from support.project import EPOCH, TODAY, epoch_of, make_site
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site
from serieskit.model.site import Post
from serieskit.lint.rules import REGISTRY

HUB = Path(__file__).parent / "rules" / "_site" / "series" / "demo" / "hub.md"


def post_from(text: str, tmp_path: Path, name="x.md", raw: bytes | None = None) -> Post:
    root = tmp_path
    (root / "series" / "demo").mkdir(parents=True, exist_ok=True)
    p = root / "series" / "demo" / name
    data = raw if raw is not None else text.encode("utf-8")
    p.write_bytes(data)
    return Post(root, p, data)


def write(root: Path, rel: str, text: str):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def findings(root, **kw):
    return lint(load_site(root, today=TODAY), **kw)


# --- parser --------------------------------------------------------------------------------------------
def test_code_fences_inline_code_and_comments_are_not_prose(tmp_path):
    post = post_from("---\ntitle: t\n---\n\n```python\n姊妹篇：x\nstyle A fill:#f00\n```\n\n"
                     "正文 `<script>` 与 <!-- 注释 <script> --> 结束\n<!--\n多行\n-->\n~~~\n~~~\n", tmp_path)
    assert post.prose(6) == "" and post.prose(7) == ""
    assert 5 in post.body.in_code and 8 in post.body.in_code
    line10 = post.prose(10)
    assert "<script>" not in line10 and "正文" in line10 and "结束" in line10
    assert len(line10) == len(post.line(10))          # masking keeps columns
    assert [c.start for c in post.body.comments] == [10, 11]
    assert [(f.start, f.end, f.lang) for f in post.body.fences] == [(5, 8, "python"), (14, 15, "")]


def test_line_numbers_count_the_frontmatter_and_survive_crlf_and_bom(tmp_path):
    text = "---\r\ntitle: t\r\n---\r\n\r\n## 一、标题\r\n"
    post = post_from("", tmp_path, raw=b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert post.bom and post.line(5) == "## 一、标题"
    assert [(h.line, h.col, h.text) for h in post.body.headings] == [(5, 4, "一、标题")]
    assert post.serialize() == b"\xef\xbb\xbf" + text.encode("utf-8")   # byte for byte


def test_an_unclosed_fence_is_no_fence_as_on_the_site(tmp_path):
    """superfences leaves a fence that never closes as text: what follows is Markdown again."""
    post = post_from("---\ntitle: t\n---\n```mermaid\nflowchart LR\n## 二、标题\n", tmp_path)
    assert post.body.fences[0].end is None
    assert [h.text for h in post.body.headings] == ["二、标题"]
    assert 5 not in post.body.in_code


def test_links_with_spaces_angle_brackets_and_titles(tmp_path):
    post = post_from('---\ntitle: t\n---\n[a](x.md "t") [b](<my file.md>) ![c](img/图 一.svg)\n', tmp_path)
    assert [(l.href, l.col) for l in post.body.links] == [("x.md", 1), ("my file.md", 15)]
    assert [(i.src, i.col) for i in post.body.images] == [("img/图 一.svg", 33)]


def test_yaml_errors_point_where_the_unclosed_quote_or_bracket_opens(tmp_path):
    post = post_from('---\ntitle: "未闭合\nslug: x\ndate: 2026-05-08\n---\n', tmp_path)
    assert (post.fm.error.line, post.fm.error.column) == (2, 8)
    assert "never closed" in post.fm.error.message
    post = post_from("---\ntitle: t\ntags: [a, b\ndate: 2026-05-08\n---\n", tmp_path)
    assert (post.fm.error.line, post.fm.error.column) == (3, 7)
    assert "not closed before line 4" in post.fm.error.message


def test_a_control_character_in_the_frontmatter_is_fmt001_at_its_place(tmp_path):
    """PyYAML's reader rejects it before parsing starts; that used to escape as a traceback."""
    post = post_from("---\ntitle: t\nslug: a\x1fb\n---\n", tmp_path)
    assert (post.fm.error.line, post.fm.error.column) == (3, 8)
    assert "U+001F" in post.fm.error.message


def test_nesting_depth_counts_indentation_and_markers_not_thematic_breaks(tmp_path):
    from serieskit.parse.syntax import MAX_NESTING, nesting
    assert nesting("- - - x")[0] == 3 and nesting("        - x")[0] == 3 and nesting("> > - x")[0] == 3
    assert nesting("- - - - - -")[0] == 0 and nesting("* * *")[0] == 0 and nesting("1. 2) x")[0] == 2
    assert nesting("- " * (MAX_NESTING + 1) + "x") == (MAX_NESTING + 1, 2 * MAX_NESTING + 1)
    deep = "".join("    " * i + f"- {i}\n" for i in range(MAX_NESTING + 3))
    post = post_from("---\ntitle: t\n---\n\n段落。\n\n" + deep + "\n```\n" + "- " * 99 + "x\n```\n", tmp_path)
    (d,) = post.body.deep                     # one block, code fences never count
    assert (d.start, d.end, d.line, d.depth) == (7, 7 + MAX_NESTING + 2, 7 + MAX_NESTING, MAX_NESTING + 3)


def test_findings_never_point_past_the_end_of_the_file(tmp_path):
    root = make_site(tmp_path)
    write(root, "series/demo/only.md", "---\ntitle: 只有前言\nslug: only\ndate: 2026-05-08\nseries: demo\n"
          "order: 7\n---\n")
    got = [f for f in findings(root) if f.path == "series/demo/only.md"]
    assert {f.code for f in got} >= {"SIS001", "SKL001"}
    assert all(f.line == 7 for f in got), [(f.code, f.line) for f in got]


# --- reading time --------------------------------------------------------------------------------------
def test_reading_time_counts_chinese_characters_not_runs(tmp_path):
    from serieskit.conventions import load_conventions
    conv = load_conventions(Path(__file__).parents[1] / "conventions.yml")
    body = "中" * 1000 + "\n\n" + " ".join(["word"] * 100) + "\n\n```\n" + "码" * 5000 + "\n```\n"
    post = post_from("---\ntitle: t\n---\n" + body, tmp_path)
    st = post.stats(conv)
    assert st.cjk_chars == 1000 and st.words == 100
    assert st.minutes == math.ceil(1000 / conv.cjk_chars_per_minute + 100 / conv.words_per_minute)


# --- suppressions ----------------------------------------------------------------------------------------
def test_next_line_suppression_silences_only_that_line_and_code(tmp_path):
    root = make_site(tmp_path)
    text = HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: s").replace("order: 3", "order: 9")
    text = text.replace("图 1：示意图的图注\n", "图 1：示意图的图注\n\n<!-- spec-disable-next-line FIG001: 装饰图 -->\n"
                        "![a](assets/fig.svg)\n\n![b](assets/fig.svg)\n")
    write(root, "series/demo/s.md", text)
    got = [(f.code, f.line) for f in findings(root)]
    lines = text.split("\n")
    assert got == [("FIG001", lines.index("![b](assets/fig.svg)") + 1)]


def test_file_suppression_and_multiple_codes(tmp_path):
    root = make_site(tmp_path)
    text = HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: s").replace("order: 3", "order: 9")
    text = text.replace("这是一篇干净的系列文章，以 Qwen3.5 为例。",
                        "<!-- spec-disable EXM001, FIG001: 本文是流程说明 -->\n没有例子。\n\n![a](assets/fig.svg)\n")
    write(root, "series/demo/s.md", text)
    assert findings(root) == []


# --- isolation, switches, select / ignore -------------------------------------------------------------------
def test_a_crashing_rule_reports_spec002_and_the_others_still_run(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    write(root, "series/demo/bad.md", HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: b")
          .replace("order: 3", "order: 9").replace("图 1：示意图的图注\n", "\n"))

    def boom(self, post, ctx):
        raise ZeroDivisionError("boom")
    monkeypatch.setattr(type(REGISTRY["NUM001"]), "check", boom)
    got = findings(root)
    codes = {(f.path, f.code) for f in got}
    assert ("series/demo/bad.md", "SPEC002") in codes and ("series/demo/hub.md", "SPEC002") in codes
    assert ("series/demo/bad.md", "FIG001") in codes                     # other rules kept going
    msg = next(f.message for f in got if f.code == "SPEC002")
    assert "NUM001" in msg and "ZeroDivisionError" in msg


def test_series_manifest_switches_a_rule_off_or_changes_severity(tmp_path):
    root = make_site(tmp_path)
    text = HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: s").replace("order: 3", "order: 9")
    write(root, "series/demo/s.md", text.replace("以 Qwen3.5 为例", "没有例子"))
    assert [f.code for f in findings(root)] == ["EXM001"]
    man = root / "series" / "demo" / "series.yml"
    man.write_text(man.read_text(encoding="utf-8") + "rules: {EXM001: error}\n", encoding="utf-8")
    assert [(f.code, f.severity) for f in findings(root)] == [("EXM001", "error")]
    man.write_text(man.read_text(encoding="utf-8").replace("EXM001: error", "EXM001: off"), encoding="utf-8")
    assert findings(root) == []


def test_manifest_switches_reach_site_rules_too(tmp_path):
    """`rules: {MAN003: off}` silences the manifest's unknown keys; `error` raises them."""
    root = make_site(tmp_path)
    man = root / "series" / "demo" / "series.yml"
    base = man.read_text(encoding="utf-8")
    man.write_text(base + "stale_after_day: 90\n", encoding="utf-8")
    assert [(f.code, f.severity) for f in findings(root)] == [("MAN003", "warning")]
    man.write_text(base + "stale_after_day: 90\nrules: {MAN003: error}\n", encoding="utf-8")
    assert [(f.code, f.severity) for f in findings(root)] == [("MAN003", "error")]
    man.write_text(base + "stale_after_day: 90\nrules: {MAN003: off}\n", encoding="utf-8")
    assert findings(root) == []


def test_derived_values_are_keyed_by_their_inputs(tmp_path):
    """A post's derived values (reading time, sister line, banner...) are cached per input: other
    conventions give other values, the same ones the cached value."""
    import dataclasses
    root = make_site(tmp_path)
    site = load_site(root, today=TODAY)
    post = site.by_rel["series/demo/hub.md"]
    slow = dataclasses.replace(site.conv, cjk_chars_per_minute=1)
    assert post.stats(site.conv) is post.stats(site.conv)
    assert post.stats(slow) is not post.stats(site.conv)
    assert post.stats(slow).minutes > post.stats(site.conv).minutes


def test_select_and_ignore_by_code_or_prefix(tmp_path):
    root = make_site(tmp_path)
    text = HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: s").replace("order: 3", "order: 9")
    write(root, "series/demo/s.md", text.replace("以 Qwen3.5 为例", "没有例子").replace("图 1：示意图的图注\n", "\n"))
    assert {f.code for f in findings(root)} == {"EXM001", "FIG001"}
    assert {f.code for f in findings(root, select={"FIG"})} == {"FIG001"}
    assert {f.code for f in findings(root, ignore={"FIG001"})} == {"EXM001"}


def test_standalone_posts_get_only_the_general_rules(tmp_path):
    root = make_site(tmp_path)
    write(root, "series/solo/x.md", "---\ntitle: 独立\nslug: x\ndate: 2026-01-01\n---\n\n## 随便的标题\n\n没有骨架。\n")
    assert findings(root) == []


def test_staleness_uses_the_given_date_or_source_date_epoch(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    late = dt.date(2027, 1, 1)   # past the demo series' staleness window (TODAY is within it)
    assert [f.code for f in lint(load_site(root, today=late))] == ["TML003"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch_of(late))
    assert [f.code for f in lint(load_site(root))] == ["TML003"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert lint(load_site(root)) == []


def test_unchanged_posts_are_not_parsed_again(tmp_path):
    root = make_site(tmp_path)
    first = load_site(root, today=TODAY)
    again = load_site(root, today=TODAY, previous=first)
    assert again.by_rel["series/demo/hub.md"] is first.by_rel["series/demo/hub.md"]
    hub = root / "series" / "demo" / "hub.md"
    hub.write_text(hub.read_text(encoding="utf-8") + "\n补一句。\n", encoding="utf-8")
    third = load_site(root, today=TODAY, previous=again)
    assert third.by_rel["series/demo/hub.md"] is not first.by_rel["series/demo/hub.md"]


def test_the_engine_does_not_import_mkdocs():
    import subprocess
    import sys
    code = ("import sys; import serieskit.lint.cli, serieskit.render.post, serieskit.render.pages, serieskit.pipeline.project, serieskit.lint.newpost; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('mkdocs', 'material', 'mermaid2')); "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert r.returncode == 0, r.stdout + r.stderr


def test_standing_examples_default_from_conventions_and_manifest_overrides(tmp_path):
    root = make_site(tmp_path)
    man = root / "series" / "demo" / "series.yml"
    man.write_text(man.read_text(encoding="utf-8").replace("standing_examples: [Qwen3.5, Qwen3.6, DeepSeek-V4]\n", ""),
                   encoding="utf-8")
    assert load_site(root, today=TODAY).series["demo"].standing_examples == ["Qwen3.5", "Qwen3.6", "DeepSeek-V4"]
    man.write_text(man.read_text(encoding="utf-8") + "standing_examples: [Llama-4]\n", encoding="utf-8")
    assert [f.code for f in findings(root)] == ["EXM001"]


@pytest.mark.parametrize("text", ["``a`b`", "`` x `a`", "`` ```a```", "`` x ```a``` `b`", "``\n`a`", "``\n```a```",
                                  "x `a\nb` c", "a ``b`` `c", "\\`a` `b`", "``a```b`"])
def test_code_spans_pair_as_python_markdown_pairs_them(text, tmp_path):
    """What the engine blanks out as code is what Python-Markdown renders as <code> (its pairing has
    quirks: a shorter closer when no exact one exists, and a skip of twice the opener's length)."""
    import re
    import markdown
    html = markdown.markdown(text)
    outside = re.sub(r"<code>.*?</code>|</?p>", "", html, flags=re.S).replace("&amp;", "&")
    post = post_from("---\ntitle: t\n---\n" + text + "\n", tmp_path)
    masked = "\n".join(post.prose(n) for n in range(4, post.nlines + 1))
    kept = "".join(c for c, m in zip(text, masked) if m != " ")
    assert kept.replace("\n", "").replace("\\", "") == outside.replace(" ", "").replace("\n", "").replace("\\", "")


def test_unchanged_manifests_and_glossaries_are_not_parsed_again(tmp_path):
    root = make_site(tmp_path)
    first = load_site(root, today=TODAY)
    again = load_site(root, today=TODAY, previous=first)
    assert again.series["demo"] is first.series["demo"]
    glossary = root / "series" / "demo" / first.series["demo"].glossary_file
    glossary.write_text(glossary.read_text(encoding="utf-8") + "- term: 新术语\n  desc: 新加的一条。\n", encoding="utf-8")
    third = load_site(root, today=TODAY, previous=again)
    assert third.series["demo"] is not first.series["demo"]
    assert third.series["demo"].glossary[-1].term == "新术语"
    manifest = root / "series" / "demo" / "series.yml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("title:", "title: 改名", 1), encoding="utf-8")
    fourth = load_site(root, today=TODAY, previous=third)
    assert fourth.series["demo"].title.startswith("改名")


def test_generated_lists_link_posts_by_their_urls(tmp_path):
    """The series index, tags and archive write the posts' URLs (from their slugs), not .md links."""
    from serieskit.model import urls
    from serieskit.render import pages
    assert urls.url_dir("index.md") == "" and urls.url_dir("tags.md") == "tags/"
    assert urls.url_dir("demo/index.md") == "demo/" and urls.url_dir("demo/first.md") == "demo/first/"
    assert urls.href("tags/", "demo/first/") == "../demo/first/"
    assert urls.href("demo/", "demo/first/") == "first/" and urls.href("demo/", "demo/") == "./"
    assert urls.href("", "notes/solo/") == "notes/solo/"
    assert urls.href("archive/", "demo/中文 名/") == "../demo/%E4%B8%AD%E6%96%87%20%E5%90%8D/"
    root = make_site(tmp_path)
    text = HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: another-name")
    (root / "series" / "demo" / "hub.md").write_text(text, encoding="utf-8")
    site = load_site(root, today=TODAY)
    s = site.series["demo"]
    assert '<a href="another-name/">' in pages.series_index(s, site, False)
    assert '<a href="../demo/another-name/">' in pages.tags_page(site, False)
    assert '<a href="../demo/another-name/">' in pages.archive_page(site, False)


def test_one_schema_drives_the_key_checks_the_docs_and_new_post(tmp_path):
    from serieskit.model import schema
    from serieskit.lint.newpost import create
    assert ", ".join(schema.FRONTMATTER_KEYS) in REGISTRY["FMT007"].doc()
    assert ", ".join(schema.MANIFEST_KEYS) in REGISTRY["MAN003"].doc()
    assert "<<" not in "".join(r.doc() for r in REGISTRY.values())
    root = make_site(tmp_path)
    path, findings = create(root, "demo", "new-one", "新文章", TODAY)
    lines = path.read_text(encoding="utf-8").split("\n")
    keys = [l.split(":", 1)[0] for l in lines[1:lines.index("---", 1)]]
    assert keys == [k for k in schema.FRONTMATTER_KEYS if k in keys]      # the schema's order
    assert set(schema.REQUIRED_KEYS) <= set(keys)
    assert not [f for f in findings if f.severity == "error"], findings


def test_the_timeliness_banner_is_built_from_the_conventions(tmp_path):
    from serieskit.conventions import load_conventions
    conv = load_conventions(make_site(tmp_path) / "conventions.yml")
    text = conv.banner("2026-05-08")
    assert text.startswith(conv.banner_prefix)
    assert conv.banner_regex.match(text).group("date") == "2026-05-08"
