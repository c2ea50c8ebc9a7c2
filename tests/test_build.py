"""`mkdocs build --strict` runs the same engine: it fails on every convention error, naming file,
line and column of each; bad set-up (no node_modules, broken manifest or conventions) gets one clear
sentence, never a traceback; the real site builds strictly."""
import re

import pytest

from support import drawings
from support.sitebuild import ROOT, build, make_project

pytestmark = pytest.mark.slow   # every test builds a site (over a few seconds a test)


def test_real_site_builds_strictly(tmp_path):
    r = build(ROOT, tmp_path / "out")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "WARNING" not in r.stderr


def test_strict_build_fails_listing_every_violation(tmp_path):
    proj = make_project(tmp_path)
    post = proj / "series" / "demo" / "first.md"
    text = post.read_text(encoding="utf-8")
    text = text.replace("![示意图](assets/fig.svg)  \n", "![示意图](assets/fig.svg)\n")        # FIG002
    text = text.replace("  class A yellow\n", "  class A yellow\n  style C fill:#ff0000\n")  # MER001
    post.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    fig_line = next(i for i, l in enumerate(lines, 1) if l.startswith("![示意图]"))
    mer_line = next(i for i, l in enumerate(lines, 1) if "#ff0000" in l)
    r = build(proj, tmp_path / "out")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    fig_col = len("![示意图](assets/fig.svg)") + 1            # where the two spaces should start
    mer_col = lines[mer_line - 1].index("#ff0000") + 1        # the colour itself
    assert f"series/demo/first.md:{fig_line}:{fig_col}: FIG002" in out, out
    assert f"series/demo/first.md:{mer_line}:{mer_col}: MER001" in out, out
    assert "Traceback" not in out


def test_warnings_do_not_fail_a_strict_build(tmp_path):
    proj = make_project(tmp_path)
    post = proj / "series" / "demo" / "second.md"
    post.write_text(post.read_text(encoding="utf-8").replace("以 DeepSeek-V4 为例", "以某个模型为例"), encoding="utf-8")
    r = build(proj, tmp_path / "out")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "EXM001" in r.stdout + r.stderr


def test_missing_node_modules_is_one_clear_sentence(tmp_path):
    proj = make_project(tmp_path, node_modules=False)
    r = build(proj, tmp_path / "out")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "run `npm ci`" in out
    assert "Traceback" not in out


def test_unparsable_manifest_names_file_and_line(tmp_path):
    proj = make_project(tmp_path)
    (proj / "series" / "demo" / "series.yml").write_text("title: 演示系列\nplanned: [a, b\n", encoding="utf-8")
    r = build(proj, tmp_path / "out")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert re.search(r"series/demo/series\.yml:2:\d+: MAN001 the series manifest does not parse", out), out
    assert "Traceback" not in out


def test_broken_conventions_file_names_file_and_line(tmp_path):
    proj = make_project(tmp_path)
    (proj / "conventions.yml").write_text("palette: [\n", encoding="utf-8")
    r = build(proj, tmp_path / "out")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert re.search(r"conventions\.yml:\d+:\d+: YAML does not parse", out), out   # the CLI's format: path:line:col
    assert "Traceback" not in out


def test_editing_the_palette_changes_css_and_lint_together(tmp_path):
    proj = make_project(tmp_path)
    conv = proj / "conventions.yml"
    conv.write_text(conv.read_text(encoding="utf-8").replace("#DBEAFE", "#DBEAFF"), encoding="utf-8")
    build(proj, tmp_path / "out", strict=False)
    css = (tmp_path / "out" / "assets" / "stylesheets" / "palette.css").read_text(encoding="utf-8")
    assert "--series-blue-fill: #DBEAFF;" in css
    assert "--md-mermaid-node-bg-color: #DBEAFF;" in css          # the default node (default_node: blue)
    first = (tmp_path / "out" / "demo" / "first" / "index.html").read_text(encoding="utf-8")
    # the diagram is drawn again with the new class (mermaid writes the colour as rgb)
    [diagram] = drawings.diagrams(first)
    assert drawings.css_rules(diagram.css)[".blue>*"].startswith("fill:rgb(219, 234, 255)!important;")
