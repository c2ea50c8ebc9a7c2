"""The register of sources (factcheck/sources.yml): the repository passes scripts/check_sources.py
(serieskit/factcheck/), and each class of problem the checker knows is caught on a small throw-away project."""
import datetime as dt
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.project import ROOT
from serieskit.factcheck import check, normalize_url

# not support.project.TODAY on purpose: the day the fixture register below was checked (its `checked:` dates and
# report are 2026-12-04; the checker refuses a `checked:` date after today, so TODAY must not be earlier)
TODAY = dt.date(2026, 12, 4)


def test_repository_register_is_clean():
    problems = check(ROOT)
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(map(str, problems))


# --- fixtures ------------------------------------------------------------------------------------

ABSTRACT = ("We present a model that runs fast. Our method reaches a 3x speed-up on long sequences "
            "(32 s clips at 44.1 kHz) with no loss in quality, and the code is public.")

GOOD_REGISTER = f"""\
# header comment
sources:
  - id: arxiv-2401.00001
    kind: paper
    title: "A Fast Model"
    url: https://arxiv.org/abs/2401.00001
    urls:
      - https://arxiv.org/pdf/2401.00001v2
    version: v2
    read: abstract
    abstract: |
      {ABSTRACT}
    checked: 2026-12-04
    reachable: true
    posts: [demo]
  - id: gh-acme-fast
    kind: repo
    title: acme/fast
    url: https://github.com/acme/fast
    version: abc1234
    read: file
    files: [README.md]
    checked: 2026-12-02
    reachable: true
    posts: [demo]
  - id: derivation-by-hand
    kind: other
    title: Re-derivation by hand
    justification: arithmetic recorded in the fact-check rows
    version: "2026-12-04"
    read: full-text
    checked: 2026-12-04
    reachable: true
    posts: [demo]
"""

GOOD_FACTCHECK = """\
# demo.md: fact-check report (2026-12-04)

| claim (file:line) | sources | verdict |
|---|---|---|
| "a 3x speed-up on long sequences" (:10) | src:arxiv-2401.00001 (abstract) | right |
| Default batch 8 (:12) | src:gh-acme-fast (`README.md`, Usage); src:arxiv-2401.00001 (§3) | fixed |
| 2 × 4 = 8 (:14) | src:derivation-by-hand · src:gh-acme-fast (`fast/config.py` L10-12 (defaults)) | right |

## Currency sweep (2026-12-04)

| what | cited version | current | sources | verdict |
|---|---|---|---|---|
| acme/fast | abc1234 | same | src:gh-acme-fast | no action |
"""

GOOD_POST = """\
---
title: "演示"
slug: demo
---

导语。

## 一、正文

正文[链接](https://example.com/not-a-reference)。

## 参考资料

- A Fast Model. [arXiv:2401.00001](https://arxiv.org/abs/2401.00001v1) · 代码：[acme/fast](http://github.com/Acme/fast/)
- 姊妹篇：[另一篇](other.md)

## 术语对照

- 不检查：<https://example.org/glossary>
"""


def make_project(tmp_path: Path, register=GOOD_REGISTER, factcheck=GOOD_FACTCHECK, post=GOOD_POST) -> Path:
    root = tmp_path / "proj"
    (root / "factcheck").mkdir(parents=True)
    (root / "series" / "demo").mkdir(parents=True)
    (root / "factcheck" / "sources.yml").write_text(register, encoding="utf-8")
    (root / "factcheck" / "README.md").write_text("# Fact-check record\n", encoding="utf-8")
    (root / "factcheck" / "demo.md").write_text(factcheck, encoding="utf-8")
    (root / "series" / "demo" / "demo.md").write_text(post, encoding="utf-8")
    return root


def run(root: Path) -> list[str]:
    return [str(p) for p in check(root, TODAY)]


def only(problems: list[str], needle: str) -> list[str]:
    hits = [p for p in problems if needle in p]
    assert hits, f"expected a problem containing {needle!r}, got:\n" + "\n".join(problems)
    return hits


# --- the clean fixture ---------------------------------------------------------------------------

def test_clean_project_passes(tmp_path):
    assert run(make_project(tmp_path)) == []


def test_cli_exit_codes(tmp_path):
    root = make_project(tmp_path)
    script = ROOT / "scripts" / "check_sources.py"
    ok = subprocess.run([sys.executable, str(script), "--root", str(root), "--today", "2026-12-04"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout == ""
    fc = root / "factcheck" / "demo.md"
    fc.write_text(GOOD_FACTCHECK.replace("src:gh-acme-fast (`README.md`", "src:gh-acme-fost (`README.md`"),
                  encoding="utf-8")
    bad = subprocess.run([sys.executable, str(script), "--root", str(root), "--today", "2026-12-04"],
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stdout.splitlines() == ["factcheck/demo.md:6: src:gh-acme-fost is not registered in "
                                       "factcheck/sources.yml"]


# --- fact-check tables ---------------------------------------------------------------------------

def test_unregistered_id(tmp_path):
    fc = GOOD_FACTCHECK.replace("src:derivation-by-hand ·", "src:by-hand ·")
    problems = run(make_project(tmp_path, factcheck=fc))
    assert only(problems, "src:by-hand is not registered") == [
        "factcheck/demo.md:7: src:by-hand is not registered in factcheck/sources.yml"]


def test_row_without_any_id(tmp_path):
    fc = GOOD_FACTCHECK.replace("| src:gh-acme-fast | no action |", "|  | no action |")
    only(run(make_project(tmp_path, factcheck=fc)), "factcheck/demo.md:13: sources cell cites no src:ID")


def test_abstract_only_right_needs_a_matching_quote(tmp_path):
    # the quote is not in the abstract
    fc = GOOD_FACTCHECK.replace('"a 3x speed-up on long sequences"', '"a 4x speed-up on long sequences"')
    only(run(make_project(tmp_path, factcheck=fc)), "factcheck/demo.md:5: verdict `right` rests only on abstracts")
    # no quote at all
    fc = GOOD_FACTCHECK.replace('"a 3x speed-up on long sequences"', "3x speed-up")
    only(run(make_project(tmp_path / "b", factcheck=fc)), "quote the supporting words")


def test_abstract_quote_forms(tmp_path):
    # curly quotes in the sources cell, other case and line breaks, an elision: all accepted
    fc = GOOD_FACTCHECK.replace(
        '| "a 3x speed-up on long sequences" (:10) | src:arxiv-2401.00001 (abstract) |',
        '| 3x (:10) | src:arxiv-2401.00001 “Our method reaches A 3X   speed-up … no loss in quality” |')
    assert run(make_project(tmp_path, factcheck=fc)) == []
    # a quote inside the locator, cut inside a parenthesis of its own
    fc = GOOD_FACTCHECK.replace(
        '| "a 3x speed-up on long sequences" (:10) | src:arxiv-2401.00001 (abstract) |',
        '| 3x (:10) | src:arxiv-2401.00001 (abstract: "speed-up on long sequences (32 s clips") |')
    assert run(make_project(tmp_path / "d", factcheck=fc)) == []
    # fragments out of order are not a quote
    fc = GOOD_FACTCHECK.replace('"a 3x speed-up on long sequences"', '"no loss in quality … a 3x speed-up"')
    only(run(make_project(tmp_path / "b", factcheck=fc)), "no quoted text occurs verbatim")
    # a verdict other than right needs no quote
    fc = GOOD_FACTCHECK.replace("| src:arxiv-2401.00001 (abstract) | right |", "| src:arxiv-2401.00001 | scoped |")
    assert run(make_project(tmp_path / "c", factcheck=fc)) == []


def test_unreachable_only_right(tmp_path):
    reg = GOOD_REGISTER.replace("    checked: 2026-12-02\n    reachable: true",
                                "    checked: 2026-12-02\n    reachable: false")
    fc = GOOD_FACTCHECK.replace("| src:derivation-by-hand · src:gh-acme-fast (`fast/config.py` L10-12 (defaults)) |",
                                "| src:gh-acme-fast (`fast/config.py`) |")
    problems = run(make_project(tmp_path, register=reg, factcheck=fc))
    assert only(problems, "reachable: false") == [
        "factcheck/demo.md:7: verdict `right` rests only on sources with reachable: false (src:gh-acme-fast)"]


@pytest.mark.parametrize("cell, what", [
    ("src:gh-acme-fast (README @abc1234)", "commit hash `abc1234`"),
    ("src:gh-acme-fast@abc1234", "text outside src:ID tokens"),
    ("acme/fast@abc1234:README.md", "commit hash `abc1234`"),
    ("src:gh-acme-fast (see arXiv 2401.00001v2)", "arXiv id `2401.00001v2`"),
    ("src:gh-acme-fast (https://github.com/acme/fast/blob/main/README.md)", "URL `https://github.com/acme/fast"),
    ("src:gh-acme-fast (docs.acme.io/fast/usage)", "URL `docs.acme.io/fast/usage`"),
    ("src:gh-acme-fast and its README", "text outside src:ID tokens"),
    ("recomputed", "text outside src:ID tokens"),
    ("src:gh-acme-fast (v2, Table 4)", "version label `v2`"),
    ("src:gh-acme-fast (README at v1 §3)", "version label `v1`"),
    ("src:gh-acme-fast (README @abc12)", "version label `@abc12`"),
    ("src:gh-acme-fast (`README.md`@0fe3)", "version label `@0fe3`"),
])
def test_sources_cell_holds_only_ids(tmp_path, cell, what):
    fc = GOOD_FACTCHECK.replace("| src:gh-acme-fast (`README.md`, Usage); src:arxiv-2401.00001 (§3) |",
                                f"| {cell}; src:arxiv-2401.00001 (§3) |")
    hits = only(run(make_project(tmp_path, factcheck=fc)), what)
    assert all(h.startswith("factcheck/demo.md:6: ") for h in hits)


def test_version_label_in_a_locator(tmp_path):
    # an arXiv-style version in the locator: the register's `version` says which one was read
    fc = GOOD_FACTCHECK.replace("src:arxiv-2401.00001 (§3)", "src:arxiv-2401.00001 (v2 §3)")
    problems = run(make_project(tmp_path, factcheck=fc))
    assert problems == ["factcheck/demo.md:6: sources cell: version label `v2` (the register says which "
                        "version was read; cite src:ID only)"]
    # a short commit after `@` is reported once, a long one as a commit hash only
    fc = GOOD_FACTCHECK.replace("src:arxiv-2401.00001 (§3)", "src:arxiv-2401.00001 (§3 @abc1234)")
    problems = run(make_project(tmp_path / "b", factcheck=fc))
    assert problems == ["factcheck/demo.md:6: sources cell: commit hash `abc1234` (the register says which "
                        "version was read; cite src:ID only)"]


@pytest.mark.parametrize("locator", [
    "`trl/__init__.py` at tags v0.28.0 and v0.29.0",       # release tags are facts about the project
    "no v1.98.x release",
    "`vllm/v1/spec_decode/eagle.py`",                      # a path
    "`use_v1: true`, `docs/advance/v1_async_trainer.md`",  # identifiers
    'title "Model Runner v2 (now default)"',               # quoted words
    "DeepSeek-v4 checkpoints, tailscale.com@v1.104.4",
    "maintainer@example.org",
])
def test_not_a_version_label(tmp_path, locator):
    fc = GOOD_FACTCHECK.replace("src:arxiv-2401.00001 (§3)", f"src:arxiv-2401.00001 (§3; {locator})")
    assert run(make_project(tmp_path, factcheck=fc)) == []


def test_table_not_migrated(tmp_path):
    fc = GOOD_FACTCHECK.replace("| claim (file:line) | sources | verdict |",
                                "| claim (file:line) | source checked (URL or repo@commit:path, section) | verdict |")
    problems = run(make_project(tmp_path, factcheck=fc))
    assert only(problems, "table not migrated")[0].startswith("factcheck/demo.md:3: ")
    assert not [p for p in problems if "abc1234" in p]           # rows of an old table are not parsed


def test_tables_in_code_blocks_are_ignored(tmp_path):
    fc = GOOD_FACTCHECK + "\n```markdown\n| claim | source checked | verdict |\n|---|---|---|\n| x | y | right |\n```\n"
    assert run(make_project(tmp_path, factcheck=fc)) == []


# --- posts' 参考资料 ----------------------------------------------------------------------------

def test_unregistered_reference_link(tmp_path):
    post = GOOD_POST.replace("- 姊妹篇", "- Another paper. <https://arxiv.org/abs/2402.99999>\n- 姊妹篇")
    problems = run(make_project(tmp_path, post=post))
    assert problems == ["series/demo/demo.md:15: 参考资料 link https://arxiv.org/abs/2402.99999 is not the url or "
                        "in the urls of any entry of factcheck/sources.yml"]


def test_reference_item_without_a_registered_link(tmp_path):
    post = GOOD_POST.replace("- 姊妹篇", "- Someone's blog post, read in 2026.\n- 姊妹篇")
    only(run(make_project(tmp_path, post=post)), "series/demo/demo.md:15: 参考资料 item has no registered link")
    # naming a registered id is enough
    post = GOOD_POST.replace("- 姊妹篇", "- 手工推导：derivation-by-hand\n- 姊妹篇")
    assert run(make_project(tmp_path / "b", post=post)) == []


# --- the register --------------------------------------------------------------------------------

@pytest.mark.parametrize("second", [
    "https://arxiv.org/pdf/2401.00001v3.pdf",
    "http://arxiv.org/abs/2401.00001/",
    "https://www.arxiv.org/abs/2401.00001v1",
])
def test_duplicate_url(tmp_path, second):
    reg = GOOD_REGISTER + textwrap.dedent(f"""\
      - id: paper-fast-again
        kind: paper
        title: "A Fast Model (again)"
        url: {second}
        version: v3
        read: full-text
        checked: 2026-12-04
        reachable: true
        posts: [demo]
    """).replace("\n", "\n  ").rstrip() + "\n"
    reg = reg.replace("\n- id: paper-fast-again", "\n  - id: paper-fast-again")
    problems = run(make_project(tmp_path, register=reg))
    only(problems, "is already registered by `arxiv-2401.00001`")


def test_orphan_entry_and_posts_mismatch(tmp_path):
    reg = GOOD_REGISTER + """\
  - id: blog-unused
    kind: blog
    title: Unused
    url: https://example.com/unused
    version: "2026-11-30"
    read: page
    checked: 2026-12-04
    reachable: true
    posts: [demo]
"""
    problems = run(make_project(tmp_path, register=reg))
    assert problems == ["factcheck/sources.yml:35: entry `blog-unused` is cited by no fact-check table row and no "
                        "参考资料 link"]
    # cited in demo, but posts names another post
    reg = GOOD_REGISTER.replace("    checked: 2026-12-02\n    reachable: true\n    posts: [demo]",
                                "    checked: 2026-12-02\n    reachable: true\n    posts: [other]")
    root = make_project(tmp_path / "b", register=reg)
    (root / "series" / "demo" / "other.md").write_text("---\nslug: other\n---\n\n导语。\n", encoding="utf-8")
    problems = run(root)
    assert "factcheck/sources.yml:25: entry `gh-acme-fast`: cited for `demo`, but its posts list does not name it" \
        in problems
    assert any("posts names `other`, but neither factcheck/other.md" in p for p in problems)


def test_yaml_alias_refused(tmp_path):
    reg = GOOD_REGISTER.replace("    posts: [demo]\n  - id: gh-acme-fast", "    posts: &p [demo]\n  - id: gh-acme-fast")
    reg = reg.replace("    checked: 2026-12-02\n    reachable: true\n    posts: [demo]",
                      "    checked: 2026-12-02\n    reachable: true\n    posts: *p")
    problems = run(make_project(tmp_path, register=reg))
    only(problems, "anchor &p")
    only(problems, "alias *p")


def test_register_shape(tmp_path):
    problems = run(make_project(tmp_path, register="- id: x\n"))
    only(problems, 'single key `sources`')
    problems = run(make_project(tmp_path / "b", register="sources: [\n"))
    only(problems, "not valid YAML")


@pytest.mark.parametrize("where", ["factcheck/sources.yml", "factcheck/demo.md", "series/demo/demo.md"])
def test_a_file_that_is_not_utf8_is_a_problem_at_its_line_not_a_crash(tmp_path, where):
    root = make_project(tmp_path)
    f = root / where
    lines = f.read_bytes().split(b"\n")
    lines[3] += b" caf\xe9"                                   # `café` in Latin-1, on line 4
    f.write_bytes(b"\n".join(lines))
    at = len(b"\n".join(lines[:4])) - 1
    problems = run(root)
    assert only(problems, "UTF-8") == [
        f"{where}:4: not valid UTF-8 (invalid continuation byte at byte {at}): save the file as UTF-8"]
    if where.startswith("series/"):      # the rest of the post is still checked: its links still cite
        assert problems == only(problems, "UTF-8")


def test_yaml_nested_a_thousand_levels_is_a_problem_not_a_crash(tmp_path):
    deep = "[" * 1000 + "]" * 1000
    root = make_project(tmp_path, register=GOOD_REGISTER.replace("sources:\n", f"sources:\n  - id: deep\n    note: {deep}\n", 1))
    line = 1 + GOOD_REGISTER.splitlines().index("sources:") + 2
    assert only(run(root), "nested") == [f"factcheck/sources.yml:{line}: not valid YAML: the YAML is nested more than 50 levels deep"]
    post = tmp_path / "post"
    root = make_project(post, post=GOOD_POST.replace("slug: demo\n", f"slug: demo\ndeep: {deep}\n"))
    # the post's frontmatter does not load (the linter says so); the check goes on with the file's name
    assert run(root) == []


def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path):
    root = make_project(tmp_path)
    # the post's file name is not its slug: only its frontmatter, read past the mark, names it `demo`
    (root / "series/demo/demo.md").rename(root / "series/demo/first-post.md")
    assert run(root) == []
    for where in ["factcheck/sources.yml", "factcheck/demo.md", "series/demo/first-post.md"]:
        f = root / where
        f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes())
    assert run(root) == []


@pytest.mark.parametrize("old, new, message", [
    ("kind: repo", "kind: repository", "kind 'repository' is not one of"),
    ("read: file\n", "read: skimmed\n", "read 'skimmed' is not one of"),
    ("checked: 2026-12-02", "checked: 2026-12-05", "is after today"),
    ("checked: 2026-12-02", "checked: 12/02/2026", "is not an ISO date"),
    ("reachable: true\n    posts: [demo]\n  - id: derivation", "reachable: yes-ish\n    posts: [demo]\n  - id: derivation",
     "reachable must be true or false"),
    ("posts: [demo]\n  - id: derivation", "posts: [demo, nope]\n  - id: derivation", "`nope`, which is not the slug"),
    ("id: gh-acme-fast", "id: GH_Acme", "must match"),
    ("id: gh-acme-fast", "id: arxiv-2401.00001", "already used"),
    ("    version: abc1234\n", "", "missing field `version`"),
    ("    url: https://github.com/acme/fast\n", "", "no `url`"),
    ("    url: https://github.com/acme/fast\n", "    url: docs/missing.md\n", "no such path exists"),
    ("    files: [README.md]\n", "    files: [README.md]\n    reviewer: me\n", "unknown field `reviewer`"),
    ("    read: file\n", "    read: file\n    read: page\n", "duplicate key `read`"),
])
def test_entry_fields(tmp_path, old, new, message):
    assert old in GOOD_REGISTER
    reg = GOOD_REGISTER.replace(old, new, 1)
    only(run(make_project(tmp_path, register=reg)), message)


def test_abstract_entry_needs_its_abstract(tmp_path):
    reg = GOOD_REGISTER.replace(f"    abstract: |\n      {ABSTRACT}\n", "")
    only(run(make_project(tmp_path, register=reg)), "read: abstract needs the abstract's words")


def test_repository_path_as_url(tmp_path):
    reg = GOOD_REGISTER.replace("    justification: arithmetic recorded in the fact-check rows\n",
                                "    url: factcheck/README.md\n")
    assert run(make_project(tmp_path, register=reg)) == []


def test_normalize_url():
    n = normalize_url
    assert n("https://arxiv.org/pdf/2406.09246v3.pdf") == n("http://arxiv.org/abs/2406.09246") \
        == n("https://arxiv.org/abs/2406.09246v1/") == n("https://arxiv.org/html/2406.09246v2#S3")
    assert n("https://github.com/Acme/Fast.git") == n("http://www.github.com/acme/fast/")
    assert n("https://openreview.net/forum?id=8MHqvb4lK9") != n("https://openreview.net/forum?id=xsonlP8DRV")
    assert n("https://example.com/Docs/A") != n("https://example.com/docs/a")


# --- the check never raises -------------------------------------------------------------------------------
PIECES = ["|", "|---|---|", "| claim | sources | verdict |", "src:", "src:arxiv-2401.00001", "`", "```", "~~~",
          "(", ")", "[", "]", "<", ">", "\"", "“", "”", "https://", "github.com/", "arxiv.org/abs/", "v2", "@abc123",
          "## 参考资料", "- ", "---", "slug:", "sources:", "  - id: ", "    url: ", "&a", "*a", "{", "}", ": ", "\n",
          "\t", "\\", "\ufeff", "\x00", "、", "，"]
noise = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=60).map("".join)
_PROJECT: list[Path] = []


@given(where=st.sampled_from(["factcheck/sources.yml", "factcheck/demo.md", "series/demo/demo.md"]),
       text=noise, raw=st.one_of(st.none(), st.binary(max_size=300)))
def test_the_check_never_raises_on_any_file(where, text, raw):
    """Whatever a register, a fact-check file or a post holds (text, or any bytes), the check answers
    with problems, never an exception."""
    if not _PROJECT:
        _PROJECT.append(make_project(Path(tempfile.mkdtemp(prefix="factcheck-prop-"))))
    root = _PROJECT[0]
    f = root / where
    before = f.read_bytes()
    f.write_bytes(raw if raw is not None else text.encode("utf-8", "surrogatepass"))
    try:
        for p in check(root, TODAY):
            assert isinstance(p.line, int) and p.line >= 1 and p.path
    finally:
        f.write_bytes(before)
