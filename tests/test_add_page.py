"""CONTRIBUTING's "Add a page" recipe for a generated page, followed as written: a builder in
serieskit/render/pages.py and one row in serieskit/model/pagetable.py `PAGES`; the model (links to
the page are valid), the page plan (both hosts add the page, with its title) and the navigation pick
the row up. A page per series (`{series}` in its path) and a site-wide one."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.project import ROOT, TODAY, make_site

from serieskit.lint.engine import lint
from serieskit.model import pagetable
from serieskit.model.loader import load_site
from serieskit.pipeline.project import Project
from serieskit.publish.plan import Host, PagePlan
from serieskit.render import pages
from serieskit.publish import feed

ROWS = (pagetable.GeneratedPage("{series}/terms.md", "术语表", "terms_page", "series"),
        pagetable.GeneratedPage("colophon.md", "版本说明", "colophon_page", "lists"))


def terms_page(series, site, include_drafts: bool) -> str:
    return "# 术语表\n\n" + "\n".join(f"- {e.term}" for e in series.glossary) + "\n"


def colophon_page(site, include_drafts: bool) -> str:
    return f"# 版本说明\n\n{len(site.posts)} 篇。\n"


@pytest.fixture
def added(monkeypatch):
    """The recipe's two steps: the builders in render/pages.py, the rows in the page table."""
    monkeypatch.setattr(pages, "terms_page", terms_page, raising=False)
    monkeypatch.setattr(pages, "colophon_page", colophon_page, raising=False)
    table = pagetable.PAGES + ROWS
    monkeypatch.setattr(pagetable, "PAGES", table)
    monkeypatch.setattr(pages, "PAGES", table)     # (render/pages.py reads the table it imported)


def project_linking_to_them(tmp_path: Path) -> Path:
    root = make_site(tmp_path)
    hub = root / "series" / "demo" / "hub.md"
    hub.write_text(hub.read_text(encoding="utf-8") + "\n见 [术语表](terms.md) 与 [版本说明](../colophon.md)。\n",
                   encoding="utf-8")
    (root / "node_modules").symlink_to(ROOT / "node_modules")    # (the plan lists the vendored libraries)
    return root


def test_links_to_an_added_generated_page_are_valid(added, tmp_path):
    root = project_linking_to_them(tmp_path)
    found = lint(load_site(root, today=TODAY), select={"LNK001"})
    assert found == []


def test_links_to_them_are_broken_without_the_rows(tmp_path):
    root = project_linking_to_them(tmp_path)
    found = lint(load_site(root, today=TODAY), select={"LNK001"})
    assert sorted(f.message.split("`")[1] for f in found) == ["../colophon.md", "terms.md"]


def test_the_page_plan_publishes_them_with_their_titles(added, tmp_path):
    root = project_linking_to_them(tmp_path)
    build = Project().build(root, include_drafts=False, today=TODAY)
    plan = PagePlan(build, root, Host("https://example.org/", "demo"), lambda path: False)
    files = {f.path: f for f in plan.files}
    assert files["demo/terms.md"].content.startswith("# 术语表\n")
    assert "篇。" in files["colophon.md"].content
    assert {"demo/terms.md", "colophon.md"} <= plan.generated

    def preview_title(path: str) -> str:     # the link preview's title, from the table's title
        return next(content for _, name, content in plan.page(path).share.meta if name == "og:title")
    assert preview_title("demo/terms.md").startswith("术语表")
    assert preview_title("colophon.md").startswith("版本说明")


def test_the_navigation_puts_them_in_their_places(added, tmp_path):
    root = make_site(tmp_path)
    site = load_site(root, today=TODAY)
    nav = pages.navigation(site, False, ["index.md", pagetable.SERIES_NAV])
    demo = next(item for item in nav if isinstance(item, dict) and "demo/index.md" in str(item))
    (section,) = demo.values()
    assert section[:2] == ["demo/index.md", {"术语表": "demo/terms.md"}]   # at the head of its series, after the index
    assert nav[-1] == {"版本说明": "colophon.md"}                          # after the other lists, in table order


def test_a_series_added_by_contributings_recipe_gets_its_pages(tmp_path):
    """CONTRIBUTING's "Add a series": a folder with a series.yml copied from the repository's series (its
    glossary left out: it has none), a post made by scripts/new_post.py and published ("Add a post":
    its `status: draft` line deleted); nothing else. The series gets
    its index page, its section in the navigation, its feed and its card on the home page, and the
    linter finds no error in it."""
    import re
    import subprocess
    import sys

    from support.project import TODAY_ISO

    root = make_site(tmp_path)
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    folder = root / "series" / "kernels"
    folder.mkdir()
    manifest = (ROOT / "series" / "train-infer-accel" / "series.yml").read_text(encoding="utf-8")
    manifest = re.sub(r"(?m)^title: .*$", "title: 算子手记", manifest)
    manifest = re.sub(r"(?m)^slug: .*$", "slug: kernels", manifest)
    manifest = re.sub(r"(?m)^index_title: .*$", "index_title: 算子手记导航", manifest)
    manifest = re.sub(r"(?m)^glossary: .*\n", "", manifest)
    (folder / "series.yml").write_text(manifest, encoding="utf-8")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "new_post.py"), "--root", str(root), "--series", "kernels",
                        "--slug", "fused-attention", "--title", "融合注意力算子", "--date", TODAY_ISO],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    post = folder / "fused-attention.md"
    post.write_text(post.read_text(encoding="utf-8").replace("status: draft\n", "", 1), encoding="utf-8")   # published

    site = load_site(root, today=TODAY)
    errors = [f for f in lint(site) if f.severity == "error" and f.path.startswith("series/kernels/")]
    assert errors == []
    assert "kernels/index.md" in pages.generated_pages(site, False)
    nav = pages.navigation(site, False, [pagetable.SERIES_NAV])
    section = next(item["算子手记"] for item in nav if isinstance(item, dict) and "算子手记" in item)
    assert section[0] == "kernels/index.md" and "kernels/fused-attention.md" in str(section[1:])
    build = Project().build(root, include_drafts=False, today=TODAY)
    plan = PagePlan(build, root, Host("https://example.org/", "demo"), lambda path: False)
    assert "feed-kernels.xml" in plan.feeds
    atom = feed.atom(site, "https://example.org/", "demo", "", {}, series=site.series["kernels"])
    assert "<title>融合注意力算子</title>" in atom and atom.count("<entry>") == 1
    card = pages.series_cards(site, "index.md", False)
    assert "kernels/index.md" in card and "算子手记导航" in card
    assert "已发布 1 篇" in card, card


def test_each_row_of_the_page_table_is_one_the_readers_of_the_table_can_place():
    """A row per series (`{series}` in its path) heads its series' section, a site-wide row is a list with
    a title; only a site-wide page can be written once per version of the conventions; each builder
    exists in serieskit/render/pages.py."""
    for row in pagetable.PAGES:
        per_series = "{series}" in row.path
        assert row.nav == ("series" if per_series else "lists"), row
        assert per_series or row.title, row
        assert row.reads in ("site", "conventions") and not (per_series and row.reads == "conventions"), row
        assert callable(getattr(pages, row.builder, None)), row
