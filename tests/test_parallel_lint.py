"""`series-lint --jobs N` lints the posts in N processes and reports exactly what one process reports:
the same findings in the same order (JSON byte for byte), the same exit status, and the typography
hits of every post kept for the next run, whichever process computed them."""
import importlib.util
import io
import json
import os
import shutil

import pytest

from support.project import ROOT
from serieskit.model import forking
from serieskit.lint.cli import run
from serieskit.parse.parsecache import HIT_FILE

spec = importlib.util.spec_from_file_location("gen_synthetic", ROOT / "scripts" / "gen_synthetic.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

SLIPS = {   # a post in each share of the forked run gets a finding of a different kind
    1: "\n以vLLM框架部署，速度提升2倍。\n",                        # TYP001
    4: "\n这是“引号”和“另一个引号。\n",                             # TYP002 / TYP004
    7: "\n见[不存在的文章](nowhere.md)。\n",                        # LNK001
    10: "\n<script>alert(1)</script>\n",                           # SEC001
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = gen.generate(tmp_path_factory.mktemp("par") / "syn", 12)
    for i, text in SLIPS.items():
        post = root / "series" / "synth" / f"{gen.slug_of(i)}.md"
        head, sep, rest = post.read_text(encoding="utf-8").partition("\n## ")   # before the first section
        post.write_text(head + text + sep + rest, encoding="utf-8")
    return root


def cli(root, *args):
    out, err = io.StringIO(), io.StringIO()
    rc = run(["--root", str(root), "--today", gen.BUILD_DATE.isoformat(), "--format", "json", *args], out, err)
    return rc, out.getvalue()


def test_several_processes_report_what_one_reports(project, monkeypatch):
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)      # fork even for a dozen posts
    rc1, one = cli(project, "--no-cache", "--jobs", "1")
    rc3, three = cli(project, "--no-cache", "--jobs", "3")
    codes = {f["code"] for f in json.loads(one)}
    assert {"TYP001", "LNK001", "SEC001"} <= codes and rc1 == 1
    assert (rc3, three) == (rc1, one)


def test_hits_computed_in_the_children_are_kept_for_the_next_run(project, monkeypatch):
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)
    shutil.rmtree(project / ".cache", ignore_errors=True)
    first = cli(project, "--jobs", "3")
    hit_file = next((project / ".cache").rglob(HIT_FILE))
    entries = json.loads(hit_file.read_text(encoding="utf-8"))["entries"]
    assert len(entries) == 12                      # every post's hits, from the parent's share and the children's
    assert cli(project, "--jobs", "3") == first == cli(project, "--jobs", "1")


def test_jobs_must_be_a_positive_number(project):
    for bad in ("0", "-1", "many"):
        assert run(["--root", str(project), "--jobs", bad], io.StringIO(), io.StringIO()) == 2


def test_the_asset_plan_checked_in_several_processes_is_the_plan_of_one(project, monkeypatch):
    from serieskit.model.loader import load_site
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)
    bad = project / "series" / "synth" / "assets" / "zz-hostile.svg"
    bad.write_text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script>'
                   '<rect width="4" height="4"/></svg>', encoding="utf-8")
    try:
        one = load_site(project, today=gen.BUILD_DATE).assets
        three = load_site(project, today=gen.BUILD_DATE, jobs=3).assets
    finally:
        bad.unlink()
    assert three.published == one.published and three.problems == one.problems
    assert any(p.kind == "svg-changed" and "onload" in p.detail for p in three.problems)
    assert len(three.published) == 2 * 12 + 1


def test_linting_one_post_parses_that_post_and_no_unrelated_one(project):
    from serieskit.lint.engine import lint
    from serieskit.model.loader import load_site
    site = load_site(project, today=gen.BUILD_DATE)
    one = site.posts[3]
    lint(site, only={one.rel})
    parsed = {p.rel for p in site.posts if "body" in vars(p)}
    assert one.rel in parsed and len(parsed) < len(site.posts) // 2, parsed


def test_a_map_over_enough_items_runs_in_as_many_processes(monkeypatch):
    """The equality tests above would pass by a serial run too: this one fails if nothing forks.
    (Each share has a process of its own, so the count is exact on any machine, however busy.)"""
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)
    items = list(range(12))
    for _ in range(5):
        pids = forking.fork_map(lambda share: [os.getpid()] * len(share), items, 3)
        assert len(pids) == len(items) and len(set(pids)) == 3 and pids[0] == os.getpid()
        assert [pids[0], pids[4], pids[8]] == list(dict.fromkeys(pids))      # contiguous shares, in order
    assert forking.fork_map(lambda share: [x * 2 for x in share], items, 3) == [x * 2 for x in items]


def test_work_started_in_the_background_runs_in_as_many_children(monkeypatch):
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)
    items = list(range(12))
    pending = forking.fork_start(lambda share: [(os.getpid(), x * 2) for x in share], items, 3)
    got = pending.results()
    assert [x for _, x in got] == [x * 2 for x in items]
    assert len({pid for pid, _ in got}) == 3 and os.getpid() not in {pid for pid, _ in got}
    # below MIN_ITEMS (or with one job) nothing forks: the work runs here, when the results are asked for
    assert {pid for pid, _ in forking.fork_start(lambda share: [(os.getpid(), 0) for _ in share], items, 1).results()} \
        == {os.getpid()}


def test_a_share_that_raises_raises_in_the_parent(monkeypatch):
    monkeypatch.setattr(forking, "MIN_ITEMS", 2)

    def fail_in_a_child(share):
        if share[0] != 0:
            raise ValueError(f"share from {share[0]}")
        return share
    with pytest.raises(ValueError, match="share from"):
        forking.fork_map(fail_in_a_child, list(range(12)), 3)
