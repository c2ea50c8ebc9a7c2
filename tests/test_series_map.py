"""The series map's mermaid source (serieskit/render/series_map.py): every place of the series is a node
labelled with its one series number, published ones link to their post and planned ones do not (they
say 在做), the edges are sister links, the hubs stand in the band, nothing the reduction leaves out
disconnects two places, and a hostile title stays inside its label."""
from __future__ import annotations

import re

import pytest
import yaml

from serieskit.render import series_map
from serieskit.model.loader import load_site
from serieskit.model.site import nfkc
from serieskit.model.urls import href, url_dir
from support.sitebuild import ROOT, make_project

NODE = re.compile(r'^\s*(p\d+)\["([^"]*)"\]$')
EDGE = re.compile(r"^\s*(p\d+) --- (p\d+)$")
CLICK = re.compile(r'^\s*click (p\d+) href "([^"]*)"$')
CLASS = re.compile(r"^\s*class ([\w,]+) (\w+)$")
ACC = re.compile(r"^\s*(accTitle|accDescr): ([^#;%{}<>\"`\\]+)$")   # one line, no syntax characters
DECODE = {v: k for k, v in series_map.ENTITIES.items()}


def decode(label: str) -> str:
    return re.sub(r"#\d+;|#[a-z]+;", lambda m: DECODE.get(m.group(0), m.group(0)), label)


def parse(source: str) -> dict:
    """The generated flowchart, line by line; a line of no known kind fails the test."""
    lines = source.splitlines()
    assert lines[:1] == ["---"] and "flowchart LR" in lines
    body = lines[lines.index("flowchart LR") + 1:]
    out = {"nodes": {}, "edges": [], "clicks": {}, "classes": {}, "band": [], "acc": {}}
    in_band = False
    for ln in body:
        if m := NODE.match(ln):
            out["nodes"][m.group(1)] = m.group(2)
            if in_band:
                out["band"].append(m.group(1))
        elif m := EDGE.match(ln):
            out["edges"].append((m.group(1), m.group(2)))
        elif m := CLICK.match(ln):
            out["clicks"][m.group(1)] = m.group(2)
        elif m := CLASS.match(ln):
            for i in m.group(1).split(","):
                out["classes"][i] = m.group(2)
        elif m := ACC.match(ln):
            out["acc"][m.group(1)] = m.group(2)
        elif ln.strip().startswith("subgraph overview["):
            in_band = True
        elif ln.strip() == "end":
            in_band = False
        elif not ln.strip().startswith("classDef "):
            pytest.fail(f"a line of no known kind in the map: {ln!r}")
    return out


def the_map(site, slug):
    series = site.series[slug]
    page = url_dir(series.index_site_path)
    m = series_map.build(series, site, False, lambda p: href(page, p.url_dir))
    return series, m, parse(series_map.mermaid(m, site.conv))


@pytest.fixture(scope="module")
def real():
    return load_site(ROOT)


def test_every_place_is_a_node_with_its_series_number(real):
    for slug, series in real.series.items():
        _, m, g = the_map(real, slug)
        posts = real.series_posts(slug, include_drafts=False)
        planned = real.planned_open(series, include_drafts=False)
        assert len(g["nodes"]) == len(posts) + len(planned) == len(m.places)
        labels = sorted(decode(v) for v in g["nodes"].values())
        for p in posts:
            number = real.series_number(p, include_drafts=False)[0]
            assert any(lab.startswith(f"{number}. ") and "在做" not in lab for lab in labels), (p.rel, labels)
        for pl in planned:
            assert any(lab.startswith(f"{pl.order}. ") and lab.endswith("<br>（在做）") for lab in labels), (pl.title, labels)


def test_published_nodes_link_to_their_post_and_planned_ones_do_not(real):
    series, m, g = the_map(real, "train-infer-accel")
    by_id = {pl.id: pl for pl in m.places}
    published = {pl.id for pl in m.places if not pl.planned}
    assert set(g["clicks"]) == published and published
    for i, url in g["clicks"].items():
        assert re.fullmatch(r"[a-z0-9-]+/", url), url       # relative, inside the series folder
        assert url == by_id[i].post.url_dir[len(series.slug) + 1:]
    for pl in m.places:
        want = "planned" if pl.planned else ("hub" if pl.hub else "post")
        assert g["classes"][pl.id] == want, (pl.title, g["classes"].get(pl.id))
        assert ("（在做）" in decode(g["nodes"][pl.id])) == pl.planned


def test_edges_are_sister_links_and_the_hubs_stand_in_the_band(real):
    series, m, g = the_map(real, "train-infer-accel")
    by_id = {pl.id: pl for pl in m.places}
    hubs = {pl.id for pl in m.hubs}
    # the overview posts that most posts name: 9 (metrics) and 11 (tech map)
    assert sorted(by_id[i].post.slug for i in hubs) == ["metrics-panorama", "tech-map"]
    assert sorted(g["band"]) == sorted(hubs)
    drawn = {frozenset(e) for e in g["edges"]}
    assert drawn <= m.links and len(drawn) == len(g["edges"])
    assert len(m.links) >= 40 and len(drawn) <= 22, (len(m.links), len(drawn))   # a map, not a hairball
    degree = {i: sum(i in e for e in drawn) for i in by_id}
    for e in drawn:
        for hub in e & hubs:
            (other,) = e - {hub}
            assert degree[other] == 1, f"a hub edge to {by_id[other].title}, which has other links"
    # nothing left out disconnects: the ends of every link between non-hubs stay connected
    near = {i: set() for i in by_id}
    for a, b in drawn:
        near[a].add(b)
        near[b].add(a)
    for link in m.links:
        if link & hubs:
            continue
        a, b = sorted(link)
        seen, todo = {a}, [a]
        while todo:
            for y in near[todo.pop()] - seen:
                seen.add(y)
                todo.append(y)
        assert b in seen, f"{by_id[a].title} — {by_id[b].title} is a sister link the map disconnects"
    # every place not in the band has a drawn link, and no edge joins two places of one column
    assert all(degree[i] for i in by_id if i not in hubs)
    col = series_map.columns(m)
    assert all(col[a] != col[b] for a, b in g["edges"])
    assert max(col.values()) + 1 == 2


def test_the_map_follows_the_sister_lines_of_the_posts(real):
    """Each drawn edge is a sister line item of one of its two posts (read here from the raw text)."""
    series, m, g = the_map(real, "train-infer-accel")
    by_id = {pl.id: pl for pl in m.places}
    for a, b in g["edges"]:
        pa, pb = by_id[a], by_id[b]
        named = False
        for x, y in ((pa, pb), (pb, pa)):
            if x.post is None:
                continue
            line = next(ln for ln in x.post.lines if ln.startswith("姊妹篇："))
            named |= (y.post is not None and f"({y.post.slug}.md)" in line) or (y.planned and y.title in line)
        assert named, (pa.title, pb.title)


HOSTILE = 'x"] --> evil["<script>alert(1)</script>" ]; click p1 href "javascript:alert(2)" %% `md` #35; |a| {b} (c) &amp;\nend'


def test_a_hostile_title_stays_inside_its_label(tmp_path):
    proj = make_project(tmp_path, node_modules=False)
    demo = proj / "series" / "demo"
    path = demo / "second.md"
    _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
    meta = yaml.safe_load(head)
    meta["title"] = HOSTILE
    path.write_text("---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n" + body, encoding="utf-8")
    manifest = yaml.safe_load((demo / "series.yml").read_text(encoding="utf-8"))
    manifest["planned"].append({"title": "计划 " + HOSTILE, "order": 8})
    (demo / "series.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    site = load_site(proj)
    series, m, g = the_map(site, "demo")      # parse() fails on any line the title could have added
    assert len(g["nodes"]) == len(m.places) == 5   # first, second, CUDA Graph, 量化推理实战 and the hostile plan
    assert set(g["clicks"].values()) == {"first/", "second/"}
    for label in g["nodes"].values():
        bare = re.sub(r"#(?:\d+|[a-z]+);", "", label.replace("<br>（在做）", ""))   # without entity codes
        assert not re.search(r'["<>\[\]`|{}();%#\n]', bare), label
    shown = sorted(decode(v) for v in g["nodes"].values())
    second = next(s for s in shown if s.startswith("3. "))
    plan = next(s for s in shown if s.startswith("8. "))
    flat = re.sub(r"\s+", " ", HOSTILE)
    assert flat.startswith(second[3:].rstrip("…")), second           # the title as text, cut to its length
    assert ("计划 " + flat).startswith(plan[3:].replace("<br>（在做）", "").rstrip("…")), plan
    assert nfkc(site.post_at("demo/second.md").title) == nfkc(HOSTILE)
    hostile = series_map.mermaid(m, site.conv, series_title=HOSTILE)   # a hostile series title, too
    acc = parse(hostile)["acc"]
    assert set(acc) == {"accTitle", "accDescr"} and acc["accTitle"].endswith("系列地图"), acc
