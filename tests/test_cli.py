"""The lint CLI: exit codes, the four output formats, --fix (idempotent, byte-preserving, atomic),
--diff, --explain, --select / --ignore, paths; and the new-post scaffold."""
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.project import ROOT, TODAY, TODAY_ISO, make_site
from serieskit.lint.cli import run
from serieskit.lint.rules import REGISTRY

HUB = Path(__file__).parent / "rules" / "_site" / "series" / "demo" / "hub.md"
FIXABLE = (HUB.read_text(encoding="utf-8")
           .replace("slug: hub", "slug: fixme").replace("order: 3", "order: 9")
           .replace("updated: 2026-05-08", "updated: 2026-05-20")              # TML002: banner says 05-08
           .replace("姊妹篇：[演示系列导航](index.md)", "姊妹篇：[演示系列导航](index.md) · 技术地图（在做）")  # SIS004
           .replace("![示意图](assets/fig.svg)  \n", "![示意图](assets/fig.svg)\\\n")         # FIG002
           .replace("\n", "\r\n"))                                                  # CRLF survives


def cli(root, *args):
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--today", TODAY_ISO, *args], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def root(tmp_path):
    return make_site(tmp_path)


def add(root, name, text, raw=None):
    p = root / "series" / "demo" / name
    if raw is not None:
        p.write_bytes(raw)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def test_exit_codes(root):
    assert cli(root)[0] == 0
    add(root, "w.md", HUB.read_text(encoding="utf-8").replace("slug: hub", "slug: w").replace("order: 3", "order: 9")
        .replace("以 Qwen3.5 为例", "没有例子"))
    code, out, _ = cli(root)
    assert code == 0 and "EXM001 [warning]" in out             # warnings alone pass...
    assert cli(root, "--strict")[0] == 1                       # ...unless --strict
    add(root, "e.md", "# no frontmatter\n")
    assert cli(root)[0] == 1
    assert cli(root, "--format", "nope")[0] == 2
    assert cli(root, "--select", "XYZ999")[0] == 2
    assert cli(root, "series/does-not-exist.md")[0] == 2


def test_text_format(root):
    add(root, "e.md", "# no frontmatter\n")
    code, out, err = cli(root)
    assert out == ("series/demo/e.md:1:1: FMT001 [error] no frontmatter\n"
                   "  hint: a post starts with a `---` line, YAML keys, and `---`\n")
    assert "Found 1 error." in err


def test_json_format(root):
    add(root, "e.md", "# no frontmatter\n")
    code, out, _ = cli(root, "--format", "json")
    data = json.loads(out)
    assert data == [{"path": "series/demo/e.md", "line": 1, "column": 1, "code": "FMT001", "severity": "error",
                     "message": "no frontmatter", "hint": "a post starts with a `---` line, YAML keys, and `---`",
                     "fixable": False}]


def test_hint_is_shown_apart_from_the_message_in_every_format(root):
    """The remedy is its own field: a line of its own in text, `hint` in JSON, `properties.help` in
    SARIF, a second line of the GitHub annotation."""
    add(root, "fixme.md", FIXABLE)
    hint = "end the image line with exactly two spaces"
    _, out, _ = cli(root)
    assert re.search(r"^series/demo/fixme\.md:\d+:\d+: FIG002 \[error\] [^;\n]+\n  hint: " + re.escape(hint) + "$",
                     out, re.M), out
    data = json.loads(cli(root, "--format", "json")[1])
    (fig,) = [f for f in data if f["code"] == "FIG002"]
    assert fig["hint"] == hint and hint not in fig["message"]
    doc = json.loads(cli(root, "--format", "sarif")[1])
    (res,) = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "FIG002"]
    assert res["properties"]["help"] == hint and hint not in res["message"]["text"]
    _, out, _ = cli(root, "--format", "github")
    (ann,) = [l for l in out.splitlines() if "title=FIG002" in l]
    assert ann.endswith("%0Ahint: " + hint)


def test_github_format_escapes(root):
    add(root, "e.md", "# no frontmatter\n")
    _, out, _ = cli(root, "--format", "github")
    assert re.fullmatch(r"::error file=series/demo/e\.md,line=1,col=1,title=FMT001::FMT001 [^\n]+\n", out)


def test_sarif_format_has_the_2_1_0_shape(root):
    add(root, "fixme.md", FIXABLE)
    _, out, _ = cli(root, "--format", "sarif")
    doc = json.loads(out)
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")
    (run_,) = doc["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "series-lint" and isinstance(driver["version"], str)
    ids = [r["id"] for r in driver["rules"]]
    assert ids == list(REGISTRY)
    for r in driver["rules"]:
        assert r["shortDescription"]["text"] and r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert run_["results"]
    for res in run_["results"]:
        assert set(res) >= {"ruleId", "ruleIndex", "level", "message", "locations"}
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning", "note", "none")
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "series/demo/fixme.md"
        assert loc["region"]["startLine"] >= 1 and loc["region"]["startColumn"] >= 1
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file://")


def test_fix_repairs_only_what_it_names_and_is_idempotent(root):
    p = add(root, "fixme.md", FIXABLE)
    before = p.read_bytes()
    code, out, _ = cli(root)
    assert code == 1 and {l.split()[1] for l in out.splitlines() if not l.startswith("  hint: ")} == {
        "TML002", "SIS004", "FIG002"}
    code, out, err = cli(root, "--fix")
    assert code == 0 and out == "", out
    after = p.read_bytes()
    expected = (before.replace("最后更新：2026-05-08".encode(), "最后更新：2026-05-20".encode())
                .replace("· 技术地图（在做）".encode(), "· [技术地图](hub.md)".encode())
                .replace(b"(assets/fig.svg)\\\r\n", b"(assets/fig.svg)  \r\n"))
    assert after == expected                                   # nothing else changed, CRLF kept
    assert cli(root, "--fix")[0] == 0 and p.read_bytes() == after   # idempotent
    assert not [q for q in p.parent.iterdir() if q.name.startswith(".")]  # no temporary file left


def test_diff_shows_the_fix_and_changes_nothing(root):
    p = add(root, "fixme.md", FIXABLE)
    before = p.read_bytes()
    code, out, _ = cli(root, "--diff")
    assert code == 1
    assert "--- a/series/demo/fixme.md" in out and "+[技术地图](hub.md)" not in out
    assert re.search(r"^\+.*最后更新：2026-05-20", out, re.M)
    assert p.read_bytes() == before


def test_explain_and_list_rules(root):
    code, out, _ = cli(root, "--explain", "fig002")
    assert code == 0 and out.startswith("FIG002 (caption-join) — error") and "Bad:" in out and "Good:" in out
    code, out, _ = cli(root, "--list-rules")
    assert code == 0 and len(out.splitlines()) == len(REGISTRY)
    assert cli(root, "--explain", "NOPE1")[0] == 2


def test_paths_limit_the_report_but_not_the_cross_checks(root, monkeypatch):
    monkeypatch.chdir(root)
    add(root, "e.md", "# no frontmatter\n")
    add(root, "dup.md", HUB.read_text(encoding="utf-8").replace("order: 3", "order: 9"))   # slug `hub` twice
    code, out, _ = cli(root, "series/demo/dup.md")
    assert {l.split(":")[0] for l in out.splitlines()} == {"series/demo/dup.md"}
    assert "FMT004" in out and "also used by series/demo/hub.md" in out
    code, out, _ = cli(root, "series/demo")
    assert "series/demo/e.md" in out


def test_script_entry_point_runs_without_installation(root):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--today", TODAY_ISO],
                       capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": ""})
    assert r.returncode == 0, r.stderr
    assert "No findings." in r.stderr


@pytest.mark.parametrize("posts", [1, 300])
@pytest.mark.parametrize("to_file", [False, True])
def test_the_process_writes_all_its_output_before_it_ends(root, tmp_path, to_file, posts):
    """main() ends the process without the interpreter's own clean-up (cli.py): what run() wrote
    still arrives whole, on a pipe and in a file, with the output buffered as on an author's machine:
    a short report (which sits in the buffer until the end) and one of many buffers."""
    for k in range(posts):
        add(root, f"bad-{k:03}.md", "# no frontmatter\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    cmd = [sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--today", TODAY_ISO, "--no-cache"]
    for fmt in ("json", "text"):
        with open(tmp_path / "out", "wb") as out:
            p = subprocess.run([*cmd, "--format", fmt], stdout=out if to_file else subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, timeout=120)
        data = (tmp_path / "out").read_bytes() if to_file else p.stdout
        assert (p.returncode, data.decode(), p.stderr.decode()) == cli(root, "--no-cache", "--format", fmt)
        if fmt == "json":
            assert len(json.loads(data)) == posts and (len(data) > 65536) == (posts > 1)


def test_a_reader_that_stops_early_gets_no_traceback(root):
    """`series-lint --list-rules | head -1`: the pipe closes under the linter (here before it writes
    anything), which stops quietly with status 1."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--list-rules"],
                           stdout=w, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    err = p.stderr.decode()
    assert p.returncode == 1 and "Traceback" not in err and "Error" not in err, err

# --- new post --------------------------------------------------------------------------------------------
def test_new_post_scaffold_passes_the_linter_and_never_overwrites(root):
    from serieskit.lint.newpost import NewPostError, create
    path, findings = create(root, "demo", "kv-cache", "KV Cache 实战", TODAY, sections=4, tags=["推理"])
    assert findings == []
    text = path.read_text(encoding="utf-8")
    assert "order: 4" in text and f"date: {TODAY_ISO}" in text and f"最后更新：{TODAY_ISO}" in text
    assert "[演示系列导航](index.md)" in text and "| §四 |" in text and "## 四、" in text
    path.write_text("作者已经写了内容", encoding="utf-8")
    with pytest.raises(NewPostError):
        create(root, "demo", "kv-cache", "另一个标题", TODAY)
    assert path.read_text(encoding="utf-8") == "作者已经写了内容"
    # a planned post takes its planned order and leaves the manifest's planned list
    path2, findings2 = create(root, "demo", "cuda-graph", "CUDA Graph 实战", TODAY)
    assert "order: 1" in path2.read_text(encoding="utf-8")
    assert "CUDA Graph 实战" not in (root / "series" / "demo" / "series.yml").read_text(encoding="utf-8")
    assert findings2 == []


# --- --fix keeps what the author has on disk: links, hard links, permissions; refuses what it cannot write ------------
def _fixable(root, name="fixme.md"):
    p = add(root, name, FIXABLE)
    return p, cli(root, "--diff")[1]


def test_fix_writes_through_a_symlink_inside_series(root):
    real = root / "series" / "demo" / "parts" / "real.md"
    real.parent.mkdir()
    real.write_text(FIXABLE, encoding="utf-8")
    link = root / "series" / "demo" / "linked.md"
    link.symlink_to(real)
    code, _, err = cli(root, "--fix")
    assert "findings in series/demo/linked.md" in err, err
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert "最后更新：2026-05-20" in real.read_text(encoding="utf-8")


def test_a_symlink_out_of_series_is_neither_read_nor_fixed(root):
    """The asset policy: a link leaving series/ is FS001 and never followed, so --fix leaves its target."""
    real = root / "drafts" / "real.md"
    real.parent.mkdir()
    real.write_text(FIXABLE, encoding="utf-8")
    (root / "series" / "demo" / "linked.md").symlink_to(real)
    code, out, err = cli(root, "--fix")
    assert "FS001" in out + err and "points outside series/" in out + err, out + err
    assert real.read_bytes() == FIXABLE.encode("utf-8")


def test_fix_keeps_hard_links_and_permissions(root):
    p, _ = _fixable(root)
    other = root / "fixme-hardlink.md"
    os.link(p, other)
    p.chmod(0o640)
    ino = p.stat().st_ino
    assert cli(root, "--fix")[0] == 0
    assert p.stat().st_ino == ino and p.stat().st_nlink == 2 and (p.stat().st_mode & 0o777) == 0o640
    assert other.read_bytes() == p.read_bytes() and "最后更新：2026-05-20" in other.read_text(encoding="utf-8")


def test_fix_refuses_a_read_only_file(root):
    p, _ = _fixable(root)
    p.chmod(0o444)
    before = p.read_bytes()
    code, out, err = cli(root, "--fix")
    assert code == 1 and "Traceback" not in err
    assert "series/demo/fixme.md:1:1: not fixed: the file is read-only; make it writable to fix it" in err, err
    assert p.read_bytes() == before and (p.stat().st_mode & 0o777) == 0o444
    assert "TML002" in out                                 # the findings are still reported


def test_fix_in_a_folder_it_cannot_write_gives_a_message(root, monkeypatch):
    """A read-only folder (simulated: the tests run as root, which writes anywhere): no traceback."""
    import tempfile as tf
    p, _ = _fixable(root)
    before = p.read_bytes()

    def denied(*a, **k):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(tf, "mkstemp", denied)
    code, out, err = cli(root, "--fix")
    assert code == 1 and "Traceback" not in err
    assert "series/demo/fixme.md:1:1: not fixed: cannot write its folder (Permission denied)" in err, err
    assert p.read_bytes() == before


def test_write_fixed_refuses_a_link_out_of_the_project(tmp_path):
    from serieskit.lint.fix import NotWritten, write_fixed
    outside = tmp_path / "outside.md"
    outside.write_text("x", encoding="utf-8")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "post.md").symlink_to(outside)
    with pytest.raises(NotWritten, match="outside series/"):
        write_fixed(proj / "post.md", b"y", proj)
    assert outside.read_text() == "x"
