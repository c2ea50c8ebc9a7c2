"""Hostile project files get a clear `path:line:col` answer, never a traceback, in bounded time and memory:
security rules only the maintainers can relax; YAML aliases and deep nesting in every file the engine
reads from contributors; numbers and regular expressions of conventions.yml; a manifest naming a file
outside its series; control characters in messages."""
from __future__ import annotations

import io
import json
import re
import time

import pytest

from support.project import TODAY_ISO, make_site
from serieskit.lint import report
from serieskit.lint.cli import run
from serieskit.conventions import ConfigError, load_conventions
from serieskit.model.site import Finding

NEST = "[" * 1000 + "]" * 1000
# each level names the previous one nine times: 9^9 strings once expanded, from a few hundred bytes
LAUGHS = "- &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"- &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))


def cli(root, *args):
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--today", TODAY_ISO, "--no-cache", *args], out, err)
    return code, out.getvalue(), err.getvalue()


def findings(root, *args):
    code, out, err = cli(root, "--format", "json", *args)
    assert "Traceback" not in err, err
    return code, [(f["path"], f["line"], f["code"], f["message"]) for f in json.loads(out)]


def append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- A. security rules answer to the maintainers only ----------------------------------------------------------
SCRIPT = "\n<script>alert(1)</script>\n"


@pytest.mark.parametrize("comment", ["<!-- spec-disable SEC001: 演示 -->\n",
                                     "<!-- spec-disable-next-line SEC001: 演示 -->"])
def test_a_suppression_comment_does_not_silence_a_security_finding(tmp_path, comment):
    root = make_site(tmp_path)
    append(root / "series/solo/standalone.md", "\n" + comment + SCRIPT.lstrip("\n"))
    code, got = findings(root)
    assert code == 1
    assert [c for p, _, c, _ in got if p == "series/solo/standalone.md"] == ["SPEC001", "SEC001"]
    assert any(m == "security findings cannot be suppressed (SEC001)" for *_, m in got)


@pytest.mark.parametrize("switch", ["off", "info", "warning"])
def test_a_series_switch_does_not_lower_a_security_rule(tmp_path, switch):
    root = make_site(tmp_path)
    append(root / "series/demo/series.yml", f"rules: {{SEC001: {switch}, TYP001: off}}\n")
    append(root / "series/demo/hub.md", SCRIPT)
    code, out, _ = cli(root, "--format", "json")
    got = json.loads(out)
    sec = [f for f in got if f["code"] == "SEC001"]
    assert code == 1 and sec and all(f["severity"] == "error" for f in sec)
    man = [f for f in got if f["code"] == "MAN001"]
    assert [m["message"] for m in man] == [f"rule switch `SEC001: {switch}` is ignored: a series cannot switch a security rule"]
    assert not any(f["code"] == "TYP001" and f["path"] == "series/demo/hub.md" for f in got)   # others still switch


def test_the_conventions_may_relax_a_security_rule_and_strict_says_so(tmp_path):
    root = make_site(tmp_path)
    append(root / "conventions.yml", "\nrules:\n  SEC001: warning\n")
    append(root / "series/demo/hub.md", SCRIPT)
    code, out, err = cli(root)
    assert code == 0 and "SEC001 [warning]" in out and "relax" not in err
    code, out, err = cli(root, "--strict")
    assert code == 1
    notes = [l for l in err.splitlines() if "relax" in l]
    assert len(notes) == 1 and re.fullmatch(r".*conventions\.yml:\d+:1: note: the project's conventions relax security "
                                            r"rule SEC001 to `warning` \(default `error`\)", notes[0]), err


def test_a_rule_switch_in_the_conventions_is_checked(tmp_path):
    root = make_site(tmp_path)
    append(root / "conventions.yml", "\nrules:\n  SEC999: off\n")
    with pytest.raises(ConfigError, match="unknown rule code `SEC999`") as e:
        load_conventions(root / "conventions.yml")
    assert e.value.line == len((root / "conventions.yml").read_text().splitlines())


# --- C2, C3. YAML: nesting and aliases, in every file read from contributors -------------------------------------
@pytest.mark.parametrize("where, code", [("series/demo/hub.md", "FMT001"), ("series/demo/series.yml", "MAN001"),
                                         ("series/demo/glossary.yml", "MAN002")])
def test_yaml_nested_a_thousand_deep_is_a_finding_with_its_line(tmp_path, where, code):
    root = make_site(tmp_path)
    p = root / where
    if where.endswith(".md"):
        replace(p, "title:", f"deep: {NEST}\ntitle:")
    elif where.endswith("glossary.yml"):
        append(p, f"- term: 深\n  desc: 很深\n  deep: {NEST}\n")
    else:
        append(p, f"deep: {NEST}\n")
    line = next(i for i, l in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "[[[" in l)
    code_, got = findings(root)
    hits = [(ln, m) for path, ln, c, m in got if path == where and c == code]
    assert hits and hits[0][0] == line and "nested more than 50 levels deep" in hits[0][1], got


def test_conventions_nested_a_thousand_deep_is_an_error_with_its_line(tmp_path):
    root = make_site(tmp_path)
    append(root / "conventions.yml", f"\ndeep: {NEST}\n")
    code, out, err = cli(root)
    assert code == 2 and "Traceback" not in err
    n = len((root / "conventions.yml").read_text().splitlines())
    assert re.search(rf"conventions\.yml:{n}:1: YAML does not parse: the YAML is nested more than 50 levels deep", err), err


@pytest.mark.parametrize("where, code", [("series/demo/glossary.yml", "MAN002"), ("series/demo/series.yml", "MAN001"),
                                         ("series/demo/hub.md", "FMT001")])
def test_yaml_aliases_are_refused_before_they_expand(tmp_path, where, code):
    """A few hundred bytes of nested aliases ("billion laughs") would be 387 million strings once
    walked: refused at the first alias, in well under a second."""
    root = make_site(tmp_path)
    p = root / where
    if where.endswith("glossary.yml"):
        p.write_text(LAUGHS, encoding="utf-8")
    elif where.endswith(".md"):
        replace(p, "title:", "laughs:\n" + "".join("  " + l + "\n" for l in LAUGHS.splitlines()) + "title:")
    else:
        append(p, "laughs:\n" + "".join("  " + l + "\n" for l in LAUGHS.splitlines()))
    t = time.perf_counter()
    _, got = findings(root)
    assert time.perf_counter() - t < 10
    hits = [(ln, m) for path, ln, c, m in got if path == where and c == code]
    assert hits and "YAML aliases (`*name`) are not allowed" in hits[0][1], got
    first_alias = next(i for i, l in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "*a" in l)
    assert hits[0][0] == first_alias


def test_conventions_aliases_are_refused(tmp_path):
    root = make_site(tmp_path)
    append(root / "conventions.yml", "\n" + "x: " + LAUGHS.splitlines()[0][2:] + "\ny: *a\n")
    with pytest.raises(ConfigError, match="aliases"):
        load_conventions(root / "conventions.yml")


# --- C4, C5. numbers and regular expressions of the conventions ---------------------------------------------------
def set_conventions(root, key, value) -> int:
    """Write `key: value` in place of the key's line in conventions.yml; return that line."""
    conv = root / "conventions.yml"
    lines = conv.read_text(encoding="utf-8").split("\n")
    i = next(i for i, l in enumerate(lines) if l.strip().startswith(f"{key}:"))
    lines[i] = lines[i][:lines[i].index(key)] + f"{key}: {value}"
    conv.write_text("\n".join(lines), encoding="utf-8")
    return i + 1


@pytest.mark.parametrize("key, value", [("cjk_chars_per_minute", "0"), ("cjk_chars_per_minute", "-400"),
                                        ("words_per_minute", "fast"), ("words_per_minute", "2.5"),
                                        ("stale_after_days", "0"), ("stale_after_days", "[1]")])
def test_conventions_numbers_out_of_range_are_an_error_with_the_line(tmp_path, key, value):
    root = make_site(tmp_path)
    line = set_conventions(root, key, value)
    code, out, err = cli(root)
    assert code == 2 and "Traceback" not in err
    assert re.search(rf"conventions\.yml:{line}:1: `[a-z]+\.{key}: .*` must be a whole number from 1 to ", err), err


@pytest.mark.parametrize("pattern, what", [("(a+)+$", "a repeat inside a repeat"), ("(?:x|xa)*y", "an alternation inside a repeat"),
                                           ("([ab]*)*$", "a repeat inside a repeat"), ("(?P<date>[^）]*", "not a valid regular expression")])
def test_a_risky_or_broken_pattern_is_refused_with_its_line(tmp_path, pattern, what):
    root = make_site(tmp_path)
    line = set_conventions(root, "sister_separator", f"'{pattern}'")
    # a sister line that almost matches `(a+)+$`: with the pattern in use this would backtrack for ever
    replace(root / "series/demo/hub.md", "姊妹篇：", "姊妹篇：" + "a" * 5000 + "!", )
    t = time.perf_counter()
    code, out, err = cli(root)
    assert time.perf_counter() - t < 10
    assert code == 2 and "Traceback" not in err
    assert re.search(rf"conventions\.yml:{line}:1: `patterns\.sister_separator` (?:has |is )?{re.escape(what)}", err), err


def test_the_project_patterns_pass_the_check():
    from support.project import ROOT
    conv = load_conventions(ROOT / "conventions.yml")
    assert conv.sister_separator.pattern and conv.banner_regex.pattern


# --- C9. a manifest names only files of its own series --------------------------------------------------------------
@pytest.mark.parametrize("target", ["/etc/passwd", "../../conventions.yml", "../solo/standalone.md"])
def test_a_glossary_outside_the_series_folder_is_not_read(tmp_path, target):
    root = make_site(tmp_path)
    manifest = root / "series/demo/series.yml"
    text = manifest.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^glossary:.*$", f"glossary: {target}", text) if "glossary:" in text else text + f"glossary: {target}\n"
    manifest.write_text(text, encoding="utf-8")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("glossary:"))
    _, got = findings(root)
    assert ("series/demo/series.yml", line, "MAN001",
            f"`glossary: {target}` is outside the series folder; it is not read") in got
    assert not any(p.startswith("/") or ".." in p for p, *_ in got)


# --- C11. messages never carry a terminal's control sequences -------------------------------------------------------
def test_control_characters_in_a_message_are_shown_escaped():
    f = Finding("series/x\x1b[2J.md", 3, 1, "LNK001", "error", "link `\x1b]0;owned\x07a\x9b31m\u202eb` is bad",
                "fix `\x1b[1m`\nnow")
    text = report.text([f])
    assert not re.search("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202e]", text.replace("\n  hint: ", " ", 1).rstrip("\n"))
    assert "series/x\\x1b[2J.md:3:1: LNK001 [error] link `\\x1b]0;owned\\x07a\\x9b31m\\u202eb` is bad" in text
    assert "hint: fix `\\x1b[1m`\\x0anow" in text
    assert "\x1b" not in report.github([f]) and "\t" in report.printable("\t")   # tabs stay


def test_a_post_with_an_escape_in_a_link_prints_it_escaped(tmp_path):
    root = make_site(tmp_path)
    append(root / "series/solo/standalone.md", "\n[x](\x1b]0;owned\x07nope.md)\n")
    code, out, err = cli(root)
    assert code == 1 and "\x1b" not in out + err and "\x07" not in out + err
    assert "LNK001 [error] link `\\x1b]0;owned\\x07nope.md` does not resolve" in out


# --- C1. a page the search indexer leaves out -----------------------------------------------------------------------
PAGE = ('<html><body><nav>导航文字</nav><article data-pagefind-body><div class="series-post-header"><h1>标题</h1></div>'
        '{body}</article><footer>页脚文字</footer></body></html>')


def _fragments(site, urls):
    import gzip
    d = site / "pagefind" / "fragment"
    d.mkdir(parents=True)
    for i, url in enumerate(urls):
        (d / f"{i}.pf_fragment").write_bytes(gzip.compress(b"pagefind_dcd" + json.dumps({"url": url}).encode()))


def test_a_page_with_nothing_to_index_is_left_out_and_the_build_goes_on(tmp_path):
    from serieskit.publish import searchindex
    marked = {"index.html": PAGE.format(body="<p>正文</p>"),
              "notes/only-diagram/index.html": PAGE.format(body='<pre class="mermaid"><code>flowchart LR</code></pre>')}
    _fragments(tmp_path, ["/"])
    searchindex._check_left_out(tmp_path, marked, 1, "Indexed 1 page")


def test_a_page_with_text_left_out_is_named(tmp_path):
    from serieskit.publish import searchindex
    marked = {"index.html": PAGE.format(body="<p>正文</p>"), "notes/x/index.html": PAGE.format(body="<p>有字</p>")}
    _fragments(tmp_path, ["/"])
    with pytest.raises(searchindex.SearchIndexError, match=r"indexed 1 of the 2 pages marked for it; left out: notes/x/index.html"):
        searchindex._check_left_out(tmp_path, marked, 1, "Indexed 1 page")


# --- C6. control characters in a title: the feeds stay well-formed XML ------------------------------------------------
def test_a_control_character_in_a_title_leaves_both_feeds_well_formed(tmp_path):
    import xml.etree.ElementTree as ET
    from serieskit.publish import feed
    from serieskit.model.loader import load_site
    from support.project import TODAY
    root = make_site(tmp_path)
    replace(root / "series/demo/hub.md", 'title: "技术地图', 'title: "\\x07技术\\x1b[31m地图\\x0c')
    append(root / "series/demo/hub.md", "\n正文里也有\x0b一个。\n")
    site = load_site(root, today=TODAY)
    post = site.by_rel["series/demo/hub.md"]
    assert "\x07" in post.title
    contents = {post.rel: "<p>正文里也有\x0b一个。</p>"}
    for s in (None, site.series["demo"]):
        xml = feed.atom(site, "https://example.org/", "站点", "作者", contents, series=s)
        doc = ET.fromstring(xml.encode("utf-8"))        # a well-formed document
        titles = [e.findtext("{http://www.w3.org/2005/Atom}title") for e in doc.iter("{http://www.w3.org/2005/Atom}entry")]
        assert "技术[31m地图：演示用的枢纽文章" in titles
    _, got = findings(root, "--select", "FMT003")
    assert [(p, c) for p, _, c, m in got if "control character U+0007" in m] == [("series/demo/hub.md", "FMT003")]


# --- C13. a post named index.md: both hosts refuse it the same way -----------------------------------------------------
@pytest.mark.parametrize("host", ["mkdocs", "zensical"])
@pytest.mark.slow
def test_a_post_named_index_is_refused_by_both_hosts(tmp_path, host):
    from support.sitebuild import build, make_project
    proj = make_project(tmp_path)
    (proj / "series/notes/index.md").write_text(
        (proj / "series/notes/solo.md").read_text(encoding="utf-8").replace("slug: solo", "slug: notes-index"),
        encoding="utf-8")
    r = build(proj, tmp_path / "site", host=host)
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "Traceback" not in out, out[-3000:]
    assert re.search(r"series/notes/index\.md:3:7: FMT004 a post cannot be named `index\.md`", out), out[-3000:]


# --- C14. a docs/ page's frontmatter, read by the engine for a host without plugins (Zensical) -------------------------
@pytest.mark.parametrize("head", [f"---\n{LAUGHS}---\n", f"---\nx: {NEST}\n---\n", "---\ntitle: [unclosed\n---\n"],
                         ids=["aliases", "nesting", "broken"])
def test_a_docs_page_frontmatter_that_does_not_load_stays_text(head):
    """The page's own frontmatter is read as a post's is (serieskit/parse/frontmatter.py): YAML with aliases,
    nested too deep or broken is not loaded (in bounded time), and the page keeps it as text, as MkDocs does."""
    from serieskit.publish.sources import with_meta
    text = head + "\n# 关于\n"
    t0 = time.perf_counter()
    out = with_meta(text, {"series_feed": None})
    assert time.perf_counter() - t0 < 2
    assert out == "---\nseries_feed: null\n---\n\n" + text


def test_a_docs_page_is_split_at_its_own_frontmatter_only():
    """Two `---` rules in a page without frontmatter are Markdown, not metadata; a frontmatter closed by
    `...` is one (MkDocs reads both so)."""
    from serieskit.publish.sources import with_meta
    rules = "# 标题\n\n---\n\ntitle: 不是元数据\n\n---\n\n正文\n"
    assert with_meta(rules, {"a": 1}) == "---\na: 1\n---\n\n" + rules
    assert with_meta("---\ntitle: 页\nhide: [toc]\n...\n\n# 页\n", {"a": 1}) == "---\ntitle: 页\nhide:\n- toc\na: 1\n---\n\n# 页\n"


# --- the tree under series/ --------------------------------------------------------------------------------
def _tree(top):
    """Files at three depths, names whose order depends on case and punctuation, hidden files and folders,
    a linked folder, a broken link, a link out of the tree, a link to a hidden file, a link inside, a FIFO."""
    import os
    for rel in ("b.md", "B.md", "_x.md", "1.md", "a/z.svg", "a/b/c.md", "a/b/.hidden.md", ".dot/x.md", "A/y.md",
                "a/.h/z.md", "outside.txt"):
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text("x", encoding="utf-8")
    (top / "series").mkdir()
    for rel in ("b.md", "B.md", "_x.md", "1.md", "a", "A", ".dot"):
        os.replace(top / rel, top / "series" / rel)
    (top / "series" / "linked").symlink_to(top / "series" / "a")
    (top / "series" / "broken.md").symlink_to(top / "series" / "nowhere.md")
    (top / "series" / "out.md").symlink_to(top / "outside.txt")
    (top / "series" / "to-hidden.md").symlink_to(top / "series" / "a" / "b" / ".hidden.md")
    (top / "series" / "a" / "inside.md").symlink_to(top / "series" / "b.md")
    os.mkfifo(top / "series" / "a" / "pipe.md")


def test_the_walk_finds_the_files_and_the_skipped_ones_in_os_walks_order(tmp_path):
    """serieskit/model/loader.py `_walk` reads the tree as os.walk top-down does with names sorted: a folder's
    files (in code-point order) before its subfolders, links to folders not followed, hidden names left out;
    the skipped entries named in the same order."""
    from serieskit.model.loader import _walk
    _tree(tmp_path)
    top = tmp_path / "series"
    skipped = []
    got = [p.relative_to(top).as_posix() for p in _walk(tmp_path, top, skipped, inside=top)]
    assert got == ["1.md", "B.md", "_x.md", "b.md", "A/y.md", "a/inside.md", "a/z.svg", "a/b/c.md"]
    assert [(s.path, s.kind) for s in skipped] == [
        ("series/linked", "linked-folder"), ("series/broken.md", "broken-link"), ("series/out.md", "link-outside"),
        ("series/to-hidden.md", "link-hidden"), ("series/a/pipe.md", "not-a-file")]


def test_a_tree_deeper_than_pythons_recursion_limit_is_walked(tmp_path):
    """A folder nested more deeply than the interpreter's recursion limit (a hostile checkout) is walked, not a
    RecursionError."""
    import sys
    from serieskit.model.loader import _walk
    levels = [tmp_path / "series"]
    for _ in range(sys.getrecursionlimit() + 50):     # (one level at a time: mkdir(parents=True) recurses)
        levels.append(levels[-1] / "d")
    try:
        for d in levels:
            d.mkdir()
        (levels[-1] / "post.md").write_text("x", encoding="utf-8")
        assert list(_walk(tmp_path, tmp_path / "series", [])) == [levels[-1] / "post.md"]
    finally:        # bottom up: pytest's own clean-up of its temporary folders (shutil.rmtree) recurses
        (levels[-1] / "post.md").unlink(missing_ok=True)
        for d in reversed(levels):
            if d.is_dir():
                d.rmdir()
