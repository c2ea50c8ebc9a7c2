"""The convention gate does not depend on logging: a convention error fails `mkdocs build` under
`--strict` or `strict: true` whatever else the command line says (`-q`, `-v`, `--verbose`; MkDocs'
own count misses warnings with some of them, mkdocs/mkdocs#4126 and #3991), and the finding is
printed on stderr every time, `-q` included. Without strict mode the same build succeeds and still
prints the finding. The Zensical build (`make zensical`) has the same gate: the same findings, the
same exit status, and nothing built when it stops."""
from __future__ import annotations

import pytest

import re

from serieskit.lint.report import aborted
from support.sitebuild import build, make_project, mkdocs

pytestmark = pytest.mark.slow   # every test builds the fixture (over a few seconds a test)


@pytest.fixture(scope="module")
def proj(tmp_path_factory):
    proj = make_project(tmp_path_factory.mktemp("gate"))
    post = proj / "series" / "demo" / "first.md"
    text = post.read_text(encoding="utf-8")
    post.write_text(text.replace("  class A yellow\n", "  class A yellow\n  style C fill:#ff0000\n"), encoding="utf-8")
    line = next(i for i, ln in enumerate(post.read_text(encoding="utf-8").split("\n"), 1) if "#ff0000" in ln)
    return proj, f"series/demo/first.md:{line}:"


FLAGS = [(), ("-q",), ("--quiet",), ("-v",), ("--verbose",), ("-q", "-v")]


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f) or "plain")
def test_strict_flag_fails_whatever_the_verbosity(proj, flags, tmp_path):
    proj, finding = proj
    r = mkdocs(proj, "build", "--strict", *flags, "-d", str(tmp_path / "site"))
    assert r.returncode == 1, r.stderr[-2000:]
    assert "MER001" in r.stderr and finding in r.stderr, r.stderr[-2000:]
    assert "in strict mode" in r.stdout + r.stderr and "Traceback" not in r.stdout + r.stderr


@pytest.mark.parametrize("flags", [(), ("-q",), ("-v",)], ids=lambda f: " ".join(f) or "plain")
def test_strict_true_in_mkdocs_yml_fails_too(proj, flags, tmp_path):
    proj, finding = proj
    cfg = proj / "mkdocs-strict.yml"
    cfg.write_text((proj / "mkdocs.yml").read_text(encoding="utf-8").replace("strict: false", "strict: true"),
                   encoding="utf-8")
    assert "strict: true" in cfg.read_text(encoding="utf-8")
    r = mkdocs(proj, "build", "-f", str(cfg), *flags, "-d", str(tmp_path / "site"))
    assert r.returncode == 1, r.stderr[-2000:]
    assert "MER001" in r.stderr and finding in r.stderr, r.stderr[-2000:]


@pytest.mark.parametrize("flags", [(), ("-q",)], ids=lambda f: " ".join(f) or "plain")
def test_without_strict_the_build_passes_and_still_says_so(proj, flags, tmp_path):
    proj, finding = proj
    r = mkdocs(proj, "build", *flags, "-d", str(tmp_path / "site"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "MER001" in r.stderr and finding in r.stderr, r.stderr[-2000:]


FINDING = re.compile(r"series/\S+:\d+:\d+: [A-Z]+\d+ .*")


def test_the_zensical_build_has_the_same_gate(proj, tmp_path):
    proj, finding = proj
    strict = build(proj, tmp_path / "z-strict", strict=True, host="zensical")
    assert strict.returncode == 1, strict.stderr[-2000:]
    assert "MER001" in strict.stderr and finding in strict.stderr and "in strict mode" in strict.stderr
    assert not (tmp_path / "z-strict").exists() and "Traceback" not in strict.stderr
    relaxed = build(proj, tmp_path / "z-site", strict=False, host="zensical")
    assert relaxed.returncode == 0 and (tmp_path / "z-site" / "index.html").is_file(), relaxed.stderr[-2000:]
    mk = mkdocs(proj, "build", "-d", str(tmp_path / "m-site"))
    assert sorted(FINDING.findall(relaxed.stderr)) == sorted(FINDING.findall(mk.stderr)) != []


def test_both_hosts_report_in_the_same_words(proj, tmp_path):
    """The build's report and the strict gate's message come from the engine (serieskit/lint/report.py)."""
    proj, finding = proj
    mk = mkdocs(proj, "build", "--strict", "-d", str(tmp_path / "m"))
    z = build(proj, tmp_path / "z", strict=True, host="zensical")
    assert mk.returncode == z.returncode == 1
    for line in ("conventions: 1 error(s), 0 warning(s); details: python scripts/lint.py", aborted(1)):
        assert line in mk.stdout + mk.stderr and line in z.stderr, (line, mk.stderr[-2000:], z.stderr[-2000:])


def test_strict_true_in_mkdocs_yml_stops_the_zensical_build_too(proj, tmp_path):
    proj, finding = proj
    cfg = proj / "mkdocs.yml"
    original = cfg.read_text(encoding="utf-8")
    try:
        cfg.write_text(original.replace("strict: false", "strict: true"), encoding="utf-8")
        r = build(proj, tmp_path / "z", strict=False, host="zensical")
    finally:
        cfg.write_text(original, encoding="utf-8")
    assert r.returncode == 1 and finding in r.stderr, r.stderr[-2000:]


# --- MkDocs' own warnings (validation: links / anchors warn) count under strict, whatever the verbosity ------------
@pytest.fixture(scope="module")
def broken_link(tmp_path_factory):
    proj = make_project(tmp_path_factory.mktemp("mkdocs-warnings"))
    about = proj / "docs" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\n\n[不存在的页面](no-such-page.md) 和 [锚点](index.md#no-such-anchor)\n",
                     encoding="utf-8")
    return proj


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f) or "plain")
def test_a_broken_link_in_a_docs_page_fails_strict_whatever_the_verbosity(broken_link, flags, tmp_path):
    """Under -v MkDocs 1.6 does not check anchors at all (structure/pages.py collects the links to
    anchors only when its logger is above DEBUG), so only the missing page is there to count."""
    r = mkdocs(broken_link, "build", "--strict", *flags, "-d", str(tmp_path / "site"))
    out = r.stdout + r.stderr
    verbose = flags and flags[-1] in ("-v", "--verbose")
    assert r.returncode == 1, out[-2000:]
    assert "no-such-page.md" in r.stderr and (verbose or "no-such-anchor" in r.stderr), r.stderr[-2000:]
    assert re.search(rf"Aborted with {1 if verbose else 2} MkDocs warning\(s\) in strict mode", out), out[-2000:]
    assert "Traceback" not in out


def test_without_strict_a_broken_link_only_warns(broken_link, tmp_path):
    r = mkdocs(broken_link, "build", "-q", "-d", str(tmp_path / "site"))
    assert r.returncode == 0, r.stderr[-2000:]
