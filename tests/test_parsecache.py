"""The linter's caches (serieskit/parse/parsecache.py): a second run gives the same output as a first and
as `--no-cache`; an edited post, an edited parser, a damaged, foreign or unwritable cache are each
parsed again or ignored, never a stale result or a traceback; nothing in a cache file runs (it is
JSON; a pickle left in its place is never loaded)."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from support.project import ROOT, TODAY_ISO, make_site
from serieskit.parse import parsecache
from serieskit.lint.cli import run

BADINPUT = ROOT / "tests" / "badinput"


def cli(root, *args):
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--today", TODAY_ISO, "--format", "json", *args], out, err)
    return code, out.getvalue()


def cache_file(root):
    return root / parsecache.CACHE_DIR / parsecache.FRONTMATTER_FILE


def test_first_second_and_uncached_runs_agree_on_the_real_project(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "series", proj / "series")
    shutil.copy(ROOT / "conventions.yml", proj / "conventions.yml")
    first, second, plain = cli(proj), cli(proj), cli(proj, "--no-cache")
    assert first == second == plain
    assert cache_file(proj).is_file()


@pytest.mark.parametrize("case", sorted(p.name for p in BADINPUT.iterdir() if p.is_dir()))
def test_first_and_second_runs_agree_on_bad_input(tmp_path, case):
    root = make_site(tmp_path, overlay=BADINPUT / case)
    assert cli(root) == cli(root) == cli(root, "--no-cache")


def test_an_edited_post_is_parsed_again(tmp_path):
    """Its frontmatter too (the cache keeps it): `updated` before `date` now (FMT006), and an
    unclosed fence."""
    root = make_site(tmp_path)
    post = root / "series" / "demo" / "hub.md"
    clean = cli(root)
    text = post.read_text(encoding="utf-8")
    stat = post.stat()
    assert "updated: 2026-05-08" in text
    post.write_text(text.replace("updated: 2026-05-08", "updated: 2026-04-01") + "\n```python\nprint(1)\n",
                    encoding="utf-8")
    os.utime(post, ns=(stat.st_atime_ns, stat.st_mtime_ns))                  # even with the same mtime
    edited = cli(root)
    assert edited != clean and edited == cli(root, "--no-cache")
    assert '"FMT006"' in edited[1]


def test_the_frontmatter_key_covers_what_makes_a_frontmatter():
    """Each module of the engine that turns a post's bytes into its Frontmatter is in the key, so an
    edit of any of them starts the cache afresh: the line splitter (model/site.py), the frontmatter
    parser and every serieskit module it imports, directly or through another."""
    from support.imports import PKG, imports, module_file
    seen, todo = set(), [PKG / "parse" / "frontmatter.py"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += [module_file(target) for _, target in imports(path) if module_file(target).is_file()]
    seen = {p.relative_to(PKG).as_posix() for p in seen}
    assert seen | {"model/site.py", "parse/parsecache.py"} <= set(parsecache.FRONTMATTER_MODULES)


def test_a_cache_from_another_parser_is_ignored(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    cli(root)
    doc = json.loads(cache_file(root).read_text(encoding="utf-8"))
    # each post's frontmatter made empty: every post would lose its title, slug and date if it were read
    poisoned = {rel: [digest, [{}, 1, 2, {}, {}, [], None]] for rel, (digest, _) in doc["entries"].items()}
    cache_file(root).write_text(json.dumps({"key": "another parser", "entries": poisoned}), encoding="utf-8")
    assert cli(root) == cli(root, "--no-cache")


# Right key, wrong data, each in every entry: a string where a line number goes, data that is not a
# mapping, a position that is not a pair of numbers, a duplicate key of another shape or with a line that
# is not a number, an error of another shape, an entry that is not a list.
SHAPES = {"frontmatter line": lambda front: front.__setitem__(1, "x"),
          "data": lambda front: front.__setitem__(0, ["not", "a", "mapping"]),
          "key position": lambda front: front[3].__setitem__("title", "x"),
          "duplicate key": lambda front: front.__setitem__(5, ["x"]),
          "duplicate key's line": lambda front: front.__setitem__(5, [["title", "x", {}]]),
          "error": lambda front: front.__setitem__(6, [1, 2]),
          "entry": lambda front: front.clear()}


@pytest.mark.parametrize("shape", SHAPES)
def test_entries_of_another_shape_are_parsed_again(tmp_path, shape):
    """A miss as the site is loaded, not a crash; the frontmatter parsed again is kept right for the
    next run."""
    root = make_site(tmp_path)
    expected = cli(root, "--no-cache")
    cli(root)
    doc = json.loads(cache_file(root).read_text(encoding="utf-8"))
    for rel, (digest, front) in doc["entries"].items():
        SHAPES[shape](front)
    cache_file(root).write_text(json.dumps(doc), encoding="utf-8")
    assert cli(root) == expected
    assert cli(root) == expected
    assert all(len(e[1]) == 7 for e in json.loads(cache_file(root).read_text(encoding="utf-8"))["entries"].values())


@pytest.mark.parametrize("damage", [b"", b"not json", b"\x80\x05garbage", b'{"key": ', b"[" * 100_000])
def test_a_damaged_cache_is_ignored(tmp_path, damage):
    root = make_site(tmp_path)
    expected = cli(root, "--no-cache")
    cache_file(root).parent.mkdir(parents=True)
    cache_file(root).write_bytes(damage)
    (cache_file(root).parent / parsecache.HIT_FILE).write_bytes(damage)
    assert cli(root) == expected and cli(root) == expected


def test_a_cache_from_another_root_is_ignored(tmp_path, monkeypatch):
    """A cache copied with the project (or committed) was written for another folder: its entries,
    whatever they say, are not used; the posts are parsed and checked afresh."""
    root = make_site(tmp_path / "a")
    cli(root)
    other = tmp_path / "b" / "proj"
    shutil.copytree(root, other)
    assert parsecache.frontmatter_key(other) != parsecache.frontmatter_key(root)
    assert parsecache.hits_key(other) != parsecache.hits_key(root)
    calls = _break(monkeypatch, "TYP001")
    assert cli(other) == cli(other, "--no-cache")
    assert calls


def test_a_committed_pickle_never_runs(tmp_path):
    """`.cache/series-lint/parsed.pickle` and `parsed.json` (old formats) and a `hits.json` /
    `frontmatter.json` that hold a pickle, each crafted to create a marker file when unpickled: the
    lint CLI (a real process) never loads them, lints as usual and creates no marker."""
    root = make_site(tmp_path)
    d = root / parsecache.CACHE_DIR
    d.mkdir(parents=True)
    markers = []
    for name in ("parsed.pickle", "hits.pickle", "parsed.json", parsecache.FRONTMATTER_FILE, parsecache.HIT_FILE):
        marker = tmp_path / f"ran-{name}"
        markers.append(marker)
        (d / name).write_bytes(b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR.")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--today", TODAY_ISO,
                        "--format", "json"], capture_output=True, text=True, cwd=root, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in r.stderr, r.stderr
    assert json.loads(r.stdout) == json.loads(cli(root, "--no-cache")[1])
    assert not any(m.exists() for m in markers)
    assert not (d / "parsed.json").exists()      # the old cache's file goes


def test_an_unwritable_cache_only_costs_time(tmp_path):
    root = make_site(tmp_path)
    (root / ".cache").write_text("a file where the cache folder would go", encoding="utf-8")
    assert cli(root) == cli(root, "--no-cache")


def test_a_fix_run_keeps_each_post_once_for_the_bytes_it_now_has(tmp_path):
    """`--fix` lints, writes the fixes and lints the site again with the same cache: the file then holds
    each post once (no key twice), for the bytes the post has after the fix, and the next run agrees
    with one without the cache."""
    import hashlib
    root = make_site(tmp_path)
    post = _typo_post(root)
    cli(root, "--fix")
    assert "以 vLLM 框架" in post.read_text(encoding="utf-8")

    def unique(pairs):
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"a key twice in the cache file: {keys}"
        return dict(pairs)
    entries = json.loads(cache_file(root).read_text(encoding="utf-8"), object_pairs_hook=unique)["entries"]
    assert {rel: e[0] for rel, e in entries.items()} == \
        {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in (root / "series").rglob("*.md")}
    assert cli(root) == cli(root, "--no-cache")


# The typography rules' hits (parsecache.HitCache): kept for a post whose bytes and conventions.yml
# did not change, found again when either did; the rules that read more than the post always run.

def _typo_post(root, text="以vLLM框架提升2倍。"):
    post = root / "series" / "demo" / "hub.md"
    post.write_text(post.read_text(encoding="utf-8").replace("## 参考资料", f"{text}\n\n## 参考资料"), encoding="utf-8")
    return post


def _codes(out):
    import json
    return sorted((f["path"], f["line"], f["code"]) for f in json.loads(out))


def _break(monkeypatch, code):
    from serieskit.lint.rules import REGISTRY
    calls = []
    monkeypatch.setattr(type(REGISTRY[code]), "check", lambda self, post, ctx: calls.append(post.rel) or ())
    return calls


def test_typography_hits_are_kept_for_an_unchanged_post(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    _typo_post(root)
    first = cli(root)
    assert ("series/demo/hub.md", "TYP001") in {(p, c) for p, _, c in _codes(first[1])}
    assert (root / parsecache.CACHE_DIR / parsecache.HIT_FILE).is_file()
    calls = _break(monkeypatch, "TYP001")        # the rule would find nothing now: the cache answers
    assert cli(root) == first and calls == []
    assert cli(root, "--no-cache")[1] != first[1] and calls    # without the cache the rule runs


def test_an_edited_post_or_conventions_file_is_checked_again(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    post = _typo_post(root)
    cli(root)
    calls = _break(monkeypatch, "TYP001")
    post.write_text(post.read_text(encoding="utf-8").replace("## 参考资料", "另一段。\n\n## 参考资料"), encoding="utf-8")
    cli(root)
    assert calls == ["series/demo/hub.md"]       # only the edited post
    calls.clear()
    conv = root / "conventions.yml"
    conv.write_text(conv.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    cli(root)
    assert sorted(calls) == ["series/demo/hub.md", "series/solo/standalone.md"]     # every post again


def test_kept_hits_from_another_engine_are_ignored(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    _typo_post(root)
    cli(root)
    assert parsecache.hits_key(root) == parsecache.hits_key(root)
    monkeypatch.setattr(parsecache, "hits_key", lambda root: "another engine")
    calls = _break(monkeypatch, "TYP001")
    cli(root)
    assert sorted(calls) == ["series/demo/hub.md", "series/solo/standalone.md"]


def test_kept_hits_from_another_autocorrect_are_ignored(tmp_path, monkeypatch):
    """TYP001 is autocorrect's verdict: a new autocorrect may find other spaces, so every post is
    checked again."""
    import autocorrect_py
    root = make_site(tmp_path)
    _typo_post(root)
    cli(root)
    real = parsecache.library
    monkeypatch.setattr(parsecache, "library", lambda m: "another build" if m is autocorrect_py else real(m))
    calls = _break(monkeypatch, "TYP001")
    cli(root)
    assert sorted(calls) == ["series/demo/hub.md", "series/solo/standalone.md"]


def test_a_library_is_known_by_its_compiled_file(tmp_path):
    """An upgrade, a reinstall or a rebuild of a compiled library is another file (another size,
    modification time or inode), so another key."""
    import types

    import nh3
    assert parsecache.library(nh3).split("\0")[0].endswith((".so", ".pyd"))   # the extension, not __init__.py
    pkg, ext = types.ModuleType("fake"), types.ModuleType("fake.fake")
    pkg.__file__, ext.__file__ = str(tmp_path / "__init__.py"), str(tmp_path / "fake.abi3.so")
    pkg.fake = ext
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "fake.abi3.so").write_bytes(b"build 1")
    first = parsecache.library(pkg)
    assert parsecache.library(pkg) == first
    (tmp_path / "new.so").write_bytes(b"build 2")                # reinstalled: same size, another file
    os.replace(tmp_path / "new.so", tmp_path / "fake.abi3.so")
    assert parsecache.library(pkg) != first


def test_a_rule_that_reads_more_than_the_post_is_not_kept(tmp_path, monkeypatch):
    from serieskit.lint.rules import REGISTRY
    kept = {c for c, r in REGISTRY.items() if r.reads_only_post}
    assert {"TYP001", "TYP002", "TYP003", "TYP004"} <= kept and "TRM001" not in kept
    root = make_site(tmp_path)
    cli(root)
    calls = _break(monkeypatch, "TRM001")           # reads the glossary and the other posts' titles
    cli(root)
    assert calls


def test_the_hits_of_a_severity_switch_and_a_suppression_are_applied_fresh(tmp_path):
    root = make_site(tmp_path)
    _typo_post(root)
    assert any(c == "TYP001" for _, _, c in _codes(cli(root)[1]))
    manifest = root / "series" / "demo" / "series.yml"
    original = manifest.read_text(encoding="utf-8")
    manifest.write_text(original + "\nrules:\n  TYP001: off\n", encoding="utf-8")
    assert not any(c == "TYP001" for _, _, c in _codes(cli(root)[1]))
    manifest.write_text(original, encoding="utf-8")
    assert any(c == "TYP001" for _, _, c in _codes(cli(root)[1]))


# The publishing plan's SVG verdicts (parsecache.VerdictCache): an unchanged SVG file is not sanitized
# again; an edited one is; the findings are those of a run without the cache; a plan made with kept
# verdicts is never published.

HOSTILE_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="4" height="4"/></svg>'
CLEAN_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>'


def _svgs(root):
    folder = root / "series" / "demo" / "assets"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.svg").write_text(HOSTILE_SVG, encoding="utf-8")
    (folder / "clean.svg").write_text(CLEAN_SVG, encoding="utf-8")
    return folder


def _count_sanitizing(monkeypatch):
    from serieskit.model import assets
    seen = []
    real = assets.check_svg          # (the lint checks the files; it does not write them)
    monkeypatch.setattr(assets, "check_svg", lambda data: seen.append(data) or real(data))
    return seen


def test_svg_verdicts_are_kept_for_unchanged_files(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    folder = _svgs(root)
    first = cli(root)
    assert ("series/demo/assets/hostile.svg", "SEC002") in {(p, c) for p, _, c in _codes(first[1])}
    assert (root / parsecache.CACHE_DIR / parsecache.VERDICT_FILE).is_file()
    seen = _count_sanitizing(monkeypatch)
    assert cli(root) == first and seen == []
    stat = (folder / "hostile.svg").stat()
    (folder / "hostile.svg").write_text(HOSTILE_SVG.replace("alert(1)", "alert(2)"), encoding="utf-8")
    os.utime(folder / "hostile.svg", ns=(stat.st_atime_ns, stat.st_mtime_ns))      # even with the same mtime
    assert cli(root) == first and len(seen) == 1 and b"alert(2)" in seen[0]
    (folder / "hostile.svg").write_text(CLEAN_SVG, encoding="utf-8")                 # repaired
    repaired = cli(root)
    assert repaired == cli(root, "--no-cache") and "SEC002" not in repaired[1]


def test_kept_verdicts_from_another_sanitizer_are_ignored(tmp_path, monkeypatch):
    """A new nh3 may remove more: every SVG is checked again."""
    import nh3
    root = make_site(tmp_path)
    _svgs(root)
    first = cli(root)
    real = parsecache.library
    monkeypatch.setattr(parsecache, "library", lambda m: "another build" if m is nh3 else real(m))
    seen = _count_sanitizing(monkeypatch)
    assert cli(root) == first and {HOSTILE_SVG.encode(), CLEAN_SVG.encode()} <= set(seen)


def test_a_plan_with_kept_verdicts_is_never_published(tmp_path):
    from types import SimpleNamespace

    from serieskit.model.loader import load_site
    from serieskit.publish.plan import Host, PagePlan
    root = make_site(tmp_path)
    _svgs(root)
    cli(root)
    site = load_site(root, verdicts=parsecache.VerdictCache(root))
    assert site.assets.checked_only
    with pytest.raises(ValueError, match="cannot be published"):
        PagePlan(SimpleNamespace(site=site), root, Host("", "demo"), lambda path: False)
    assert not load_site(root).assets.checked_only        # the build's own plan sanitizes every file
    fresh = load_site(root, checked_only=True)            # the lint's plan without its cache: verdicts only
    assert fresh.assets.checked_only and all(a.data is None for a in fresh.assets.published)
    with pytest.raises(ValueError, match="cannot be published"):
        PagePlan(SimpleNamespace(site=fresh), root, Host("", "demo"), lambda path: False)
