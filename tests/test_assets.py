"""What of series/ becomes a file of the site (serieskit/model/assets.py, SEC002, FS001), with both hosts.

The attacks: a script over the site's own `assets/javascripts/search.js` (the policy's `'self'`
would run it on every page), an `.html` page and a script-carrying SVG beside a post (served from
the site's origin with no policy of their own), a symlink to `.git/config`, a git-ignored file.
Each is built with `mkdocs build` and the Zensical build: a strict build fails naming the file, a
build without --strict publishes only what is allowed (the SVG sanitized), and `mkdocs serve`
keeps serving with the finding on the page.
"""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from html import escape

import pytest
from hypothesis import example, given, strategies as st

from support.project import ROOT, TODAY, make_site
from serieskit.model.assets import raster_format
from serieskit.sanitize.svgfile import _file_names, _written_names, check_svg, css_ok, sanitize_svg
from serieskit.conventions import ConfigError, load_conventions
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site
from support.sitebuild import HOSTS, build, env, make_project

FIXTURE_PNG = ROOT / "serieskit" / "lint" / "rules" / "fixtures" / "SEC002" / "good" / "series" / "demo" / "assets" / "photo.png"
GOOD_SVG = FIXTURE_PNG.with_name("diagram.svg")
SITE_SEARCH = (ROOT / "docs" / "assets" / "javascripts" / "search.js").read_bytes()
EVIL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
            '<script>alert(document.domain)</script><rect width="10" height="10" fill="#DBEAFE"/></svg>')


def attack(proj):
    """The attacks, the benign files beside them, in a git checkout."""
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / ".git" / "config").write_text('[remote "origin"]\n\turl = https://user:s3cr3t-Wq9ZtX@example.com/x\n')
    series, assets = proj / "series", proj / "series" / "demo" / "assets"
    (series / "assets" / "javascripts").mkdir(parents=True)
    (series / "assets" / "javascripts" / "search.js").write_text('alert("pwned")\n')
    (assets / "evil.html").write_text("<script>alert(1)</script>\n")
    (assets / "evil.svg").write_text(EVIL_SVG)
    (assets / "git-config.png").symlink_to(proj / ".git" / "config")
    (assets / "photo.png").write_bytes(FIXTURE_PNG.read_bytes())
    (assets / "diagram.svg").write_bytes(GOOD_SVG.read_bytes())
    (assets / "alias.png").symlink_to("photo.png")                       # a link inside series/: fine
    (assets / "private.png").write_bytes(FIXTURE_PNG.read_bytes())
    (proj / ".gitignore").write_text("series/demo/assets/private.png\n")
    (series / "assets" / "images").mkdir()
    (series / "assets" / "images" / "share.png").write_bytes(FIXTURE_PNG.read_bytes())   # over docs/'s own
    return proj


EXPECTED = [  # what a build prints about the attacks (both hosts print the engine's findings)
    "series/assets/javascripts/search.js:1:1: SEC002 a `.js` file is not published: only images",
    "series/assets/javascripts/search.js:1:1: SEC002 not published: it would be the site's "
    "`assets/javascripts/search.js`, which is the site's own docs/assets/javascripts/search.js",
    "series/demo/assets/evil.html:1:1: SEC002 a `.html` file is not published",
    "series/demo/assets/evil.svg:1:1: SEC002 published without what the sanitizer removed: <script>, onload=",
    "series/demo/assets/git-config.png:1:1: FS001 symlink points outside series/",
    "series/assets/images/share.png:1:1: SEC002 not published: it would be the site's `assets/images/share.png`, "
    "which is the site's own docs/assets/images/share.png",
]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return attack(make_project(tmp_path_factory.mktemp("assets")))


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.slow
def test_a_strict_build_fails_naming_each_file(project, tmp_path, host):
    r = build(project, tmp_path / "site", strict=True, host=host)
    assert r.returncode == 1, r.stderr[-3000:]
    for line in EXPECTED:
        assert line in r.stderr, (line, r.stderr[-4000:])
    assert "private.png" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.slow
def test_a_build_publishes_only_what_is_allowed(project, tmp_path, host):
    out = tmp_path / "site"
    r = build(project, out, strict=False, host=host)
    assert r.returncode == 0, r.stderr[-3000:]
    assert all(line in r.stderr for line in EXPECTED), r.stderr[-4000:]
    assets = out / "demo" / "assets"
    assert (out / "assets" / "javascripts" / "search.js").read_bytes() == SITE_SEARCH
    assert (out / "assets" / "images" / "share.png").read_bytes() == (ROOT / "docs/assets/images/share.png").read_bytes()
    for gone in ("evil.html", "git-config.png", "private.png"):
        assert not (assets / gone).exists(), gone
    svg = (assets / "evil.svg").read_text(encoding="utf-8")
    assert "script" not in svg and "onload" not in svg and 'fill="#DBEAFE"' in svg
    assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    assert (assets / "photo.png").read_bytes() == (assets / "alias.png").read_bytes() == FIXTURE_PNG.read_bytes()
    good = ET.fromstring((assets / "diagram.svg").read_bytes())
    assert len(list(good.iter())) == len(list(ET.fromstring(GOOD_SVG.read_bytes()).iter()))   # nothing removed
    assert not any(b"s3cr3t-Wq9ZtX" in p.read_bytes() for p in out.rglob("*") if p.is_file())


@pytest.mark.slow
def test_serve_keeps_serving_and_shows_the_findings(project, tmp_path):
    out = tmp_path / "serve"
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "support" / "serve_session.py"), str(project), str(out)],
                       env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    site = out / "0" / "site"
    home = (site / "index.html").read_text(encoding="utf-8")
    index = (site / "demo" / "index.html").read_text(encoding="utf-8")
    assert "series/assets/javascripts/search.js" in home and "SEC002" in home
    assert "series/demo/assets/evil.html" in index and "series/demo/assets/git-config.png" in index
    assert not (site / "demo" / "assets" / "evil.html").exists()
    assert (site / "assets" / "javascripts" / "search.js").read_bytes() == SITE_SEARCH


# --- the policy's parts ------------------------------------------------------------------------------
HOSTILE = [
    (EVIL_SVG, ["<script>", "onload="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div>x</div></foreignObject></svg>', ["<foreignObject>"]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>x</text></a></svg>', ["href="]),
    ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
     '<use xlink:href="https://example.com/x.svg#a"/></svg>', ["xlink:href="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://example.com/x.css);</style></svg>', ["<style>"]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(https://example.com/t.svg#p)"/></svg>', ["style="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="u\\72 l(https://example.com/)"/></svg>', ["fill="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect style="width: expression(alert(1))"/></svg>', ["style="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="href" to="javascript:alert(1)"/></svg>',
     ["<set>", "attributeName=", "to="]),
    ("<svg/onload=alert(1)><rect/></svg>", ["onload="]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)'
     '</svg:script></svg>', ["<svg:script>"]),
    ('<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>',
     ["<image>", "href="]),
]


@pytest.mark.parametrize("svg, removed", HOSTILE)
def test_the_sanitizer_removes_and_names_what_could_run_or_load(svg, removed):
    out, named = sanitize_svg(svg.encode())
    assert named == removed
    text = out.decode()
    for word in ("script", "onload", "javascript", "example.com", "foreignObject", "expression", "<set", "data:"):
        assert word not in text, (word, text)
    assert ET.fromstring(out).tag == "{http://www.w3.org/2000/svg}svg"


def test_what_editors_add_is_dropped_without_a_finding():
    svg = ('<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
           '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<!-- drawn by hand -->\n'
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/" viewBox="0 0 4 4"><metadata><rdf:RDF><dc:format>image/svg+xml'
           '</dc:format></rdf:RDF></metadata><g inkscape:label="layer"><text x="1" y="2">a&nbsp;b</text></g></svg>')
    out, named = sanitize_svg(svg.encode())
    assert named == []
    assert ET.fromstring(out).find("{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}text").text == "a\u00a0b"


@pytest.mark.parametrize("data, why", [(b"\xff\xfe<\x00s\x00", "not UTF-8"), (b"<html><p>no svg</p></html>", "no single <svg>")])
def test_what_is_no_svg_is_not_published(data, why):
    out, named = sanitize_svg(data)
    assert out is None and why in named[0]


def test_every_svg_of_the_series_is_published_as_drawn():
    svgs = sorted((ROOT / "series").rglob("*.svg"))
    assert svgs
    for path in svgs:
        out, named = sanitize_svg(path.read_bytes())
        assert out is not None and named == [], (path, named)


# what the lint checks without writing the file: the names `check_svg` reads off the tree are those
# the written file holds (the build's sanitize_svg compares the same), however odd the text and values
ODD = st.text(alphabet=' \t\n\r=a:-._"\'/&<>;#x', max_size=24)


@given(text=ODD, value=ODD, tail=ODD)
@example(text=" a=1 b =2", value='"c=3 d=4', tail=" e=5")
@example(text="", value="f=6 g\th=7", tail="")
def test_the_names_read_off_the_tree_are_those_of_the_written_file(text, value, tail):
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg"><g><text x="{escape(value, True)}" class="{escape(value)}">'
           f'{escape(text)}</text>{escape(tail)}<title>{text}</title><desc class={value}>{tail}</desc></g></svg>')
    _same_names(svg.encode())


def test_the_names_read_off_the_tree_are_those_of_the_written_file_for_every_svg_here():
    odd = ('<svg xmlns="http://www.w3.org/2000/svg"><text x="&#9;t=1" y="&#10;u=2" class="&quot;v=3 w=4">'
           ' a=5 b =6<tspan>c=7</tspan> d=8</text> e=9</svg>')
    cases = [svg.encode() for svg, _ in [*HOSTILE, (odd, [])]] + [
        p.read_bytes() for p in sorted((ROOT / "series").rglob("*.svg"))]
    for data in cases:
        _same_names(data)


def _same_names(data: bytes) -> None:
    tree, removed = check_svg(data)
    out, named = sanitize_svg(data)
    assert named == removed and (tree is None) == (out is None)
    if tree is not None:
        assert ET.tostring(tree, encoding="unicode").encode() == out
        tags, attributes = _written_names(tree)
        written_tags, written_attributes = _file_names(out.decode())
        assert Counter(tags) == Counter(written_tags) and Counter(attributes) == Counter(written_attributes), out


@pytest.mark.parametrize("css, ok", [
    ("fill: #fff; stroke: url(#g)", True), ("fill:url( '#g' )", True), ("*{stroke-linejoin: round}", True),
    ("fill: url(https://x/)", False), ("fill: url(x.svg#g)", False), ("@import 'x.css'", False),
    ("cursor: image-set('x.png' 1x)", False), ("fill: u\\72 l(x)", False), ("fill: url(#a) url(", False),
    ("/* url(#a) */ fill: URL(//x)", False), ("behavior: url(#a)", False),
])
def test_css_loads_and_runs_nothing(css, ok):
    assert css_ok(css) is ok


@pytest.mark.parametrize("head, fmt", [
    (FIXTURE_PNG.read_bytes(), "PNG"), (b"\xff\xd8\xff\xe0\0\x10JFIF", "JPEG"), (b"GIF89a\x01\0", "GIF"),
    (b"RIFF\x10\0\0\0WEBPVP8 ", "WebP"), (b"\0\0\0\x1cftypavif\0\0\0\0avifmif1", "AVIF"),
    (b"\0\0\0\x1cftypmif1\0\0\0\0mif1avis", "AVIF"), (b"\0\0\0\x18ftypmp42\0\0\0\0mp42", None),
    (b"<html>", None), (b"", None),
])
def test_raster_images_are_known_by_their_bytes(head, fmt):
    assert raster_format(head) == fmt


def test_conventions_declare_only_data_types_no_browser_runs(tmp_path):
    text = (ROOT / "conventions.yml").read_text(encoding="utf-8")
    path = tmp_path / "conventions.yml"
    path.write_text(text.replace("data_files: []", "data_files: [csv, .JSON]"), encoding="utf-8")
    assert load_conventions(path).data_files == (".csv", ".json")
    path.write_text(text.replace("data_files: []", "data_files: [.csv, .html]"), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"lists \.html: only \.csv, \.tsv, \.txt, \.json"):
        load_conventions(path)


def _published(root):
    site = load_site(root, today=TODAY)
    return {a.site_path for a in site.assets.published}, [(f.path, f.code, f.message) for f in lint(site)]


def test_declared_data_files_are_published(tmp_path):
    root = make_site(tmp_path)
    (root / "series" / "demo" / "assets" / "numbers.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (root / "series" / "demo" / "assets" / "notes.tsv").write_text("a\tb\n", encoding="utf-8")
    conv = root / "conventions.yml"
    conv.write_text(conv.read_text(encoding="utf-8").replace("data_files: []", "data_files: [.csv]"), encoding="utf-8")
    published, findings = _published(root)
    assert "demo/assets/numbers.csv" in published and "demo/assets/notes.tsv" not in published
    assert findings == [("series/demo/assets/notes.tsv", "SEC002", "a `.tsv` data file is not published: "
                         "conventions.yml does not declare `.tsv` under `assets: data_files:`")]


def test_without_git_dotfiles_are_left_out_and_links_stay_in_series(tmp_path):
    root = make_site(tmp_path)
    assets = root / "series" / "demo" / "assets"
    (assets / ".hidden.png").write_bytes(FIXTURE_PNG.read_bytes())
    (assets / ".cache").mkdir()
    (assets / ".cache" / "x.png").write_bytes(FIXTURE_PNG.read_bytes())
    (assets / "to-hidden.png").symlink_to(".hidden.png")
    (assets / "to-docs.png").symlink_to(root / "docs" / "index.md")
    (assets / "same.svg").symlink_to("fig.svg")
    published, findings = _published(root)
    assert published == {"demo/assets/fig.svg", "demo/assets/same.svg"}
    assert sorted((p, c, m.split(" (")[0]) for p, c, m in findings) == [
        ("series/demo/assets/to-docs.png", "FS001", "symlink points outside series/"),
        ("series/demo/assets/to-hidden.png", "FS001", "symlink points to a hidden file")]


def test_git_ignored_files_are_never_read(tmp_path):
    root = make_site(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("*.local.png\nseries/solo/\n", encoding="utf-8")
    assets = root / "series" / "demo" / "assets"
    (assets / "key.local.png").write_bytes(FIXTURE_PNG.read_bytes())
    (assets / "key.png").symlink_to("key.local.png")          # a link to an ignored file is left out too
    site = load_site(root, today=TODAY)
    assert {a.site_path for a in site.assets.published} == {"demo/assets/fig.svg"}
    assert not any(p.rel.startswith("series/solo/") for p in site.posts)
    assert lint(site) == []


def test_the_lint_cli_names_the_files_of_a_folder(tmp_path):
    import io
    from serieskit.lint.cli import run
    root = make_site(tmp_path)
    (root / "series" / "demo" / "assets" / "page.html").write_text("<script>alert(1)</script>\n", encoding="utf-8")
    out = io.StringIO()
    assert run(["--root", str(root), "--today", TODAY.isoformat(), "--no-cache", str(root / "series" / "demo")], out=out, err=io.StringIO()) == 1
    assert "series/demo/assets/page.html:1:1: SEC002 [error] a `.html` file is not published" in out.getvalue()
