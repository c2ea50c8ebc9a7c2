"""The series map on a series index: every place of the series (published posts and planned ones) as a
node, the sister links between them as edges, as the source of a mermaid flowchart that the site's own
mermaid draws. Plain Python over the model; `pages.series_index` puts the source into the page.

Readable on a phone (390 px): drawn naively, the overview posts send an edge to nearly every node and
the layout grows ten nodes wide. So:
- hubs, the places that most published posts name as a sister, stand in a band (总览) at the top; their
  links are not drawn, except one that is another place's only link;
- a link implied by a path through the places between its ends, in series order, is left out (the
  transitive reduction: 13 — 14 — 18 makes 13 — 18 implied);
- the flowchart runs left to right, so that the layout's layers are columns: the places are split into
  as few columns as the links allow (two when no cycle is odd, which the reduction makes likely) and
  the map grows downwards, which a phone scrolls; within the columns, linked places sit close
  (`order`);
- labels are the series number readers see everywhere (`Site.series_number`) and the short title.
Published nodes are palette-coloured links to their post; planned ones white, dashed, grey and marked
在做.

Titles are text from frontmatter and manifests: every label is quoted and each character that mermaid
or HTML would read as syntax is written as a mermaid entity code (`#quot;`, `#lt;`, ...), so a title
can end neither its label nor the diagram. `click` links are relative directory URLs or nothing.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from serieskit.conventions import Conventions
from serieskit.analysis.lead import sister_line
from serieskit.model.site import Post, Series, Site, nfkc

HUB_SHARE = 0.5     # a hub is named as a sister by at least this share of the other published posts...
HUB_MIN = 3         # ...and by at least this many of them
LABEL_MAX = 28      # a label's short title is cut (with …) past this many characters
BAND_ID = "overview"
COLUMNS = 3         # columns to try when two are not enough (three still fit a phone)
WRAP_PX = 120       # a label wraps at this width
SAFE_HREF = re.compile(r"(?:\.\./|[A-Za-z0-9._~%-]+/)*")   # a relative directory URL of the site, nothing else
# What mermaid (or HTML after it) reads as syntax inside a quoted label, as mermaid entity codes.
ENTITIES = {"#": "#35;", '"': "#quot;", "&": "#amp;", "<": "#lt;", ">": "#gt;", "`": "#96;",
            "[": "#91;", "]": "#93;", "{": "#123;", "}": "#125;", "(": "#40;", ")": "#41;", "|": "#124;",
            ";": "#59;", "%": "#37;", "\\": "#92;", "*": "#42;", "_": "#95;", "~": "#126;", ":": "#58;"}
SPACES = re.compile(r"\s+")
SHORT_CUT = re.compile(r"\s+[—–-]{1,2}\s+|[（(]")   # "Design Spec — ..." / "... （2026）": the part before


@dataclass
class Place:
    """A node: one place of the series, a published post or a planned one."""
    id: str
    number: int | None
    title: str
    post: Post | None = None
    href: str = ""           # relative URL from the index page to the post ("" when planned)
    hub: bool = False
    linked_by: int = 0       # how many published posts name it in their sister line

    @property
    def planned(self) -> bool:
        return self.post is None

    @property
    def label(self) -> str:
        """The number readers see everywhere (`Site.series_number`) and a short title."""
        short = SHORT_CUT.split(self.title, 1)[0].strip() or self.title
        if self.post is not None:
            short = SHORT_CUT.split(self.post.short_title, 1)[0].strip() or self.post.short_title
        else:
            short = re.split(r"[：:]", short, maxsplit=1)[0].strip() or short
        short = SPACES.sub(" ", short)
        if len(short) > LABEL_MAX:
            cut = short[:LABEL_MAX]
            cut = cut[:cut.rfind(" ")] if " " in cut[LABEL_MAX // 2:] else cut[:LABEL_MAX - 1]
            short = cut.rstrip(" /·—-") + "…"
        return f"{self.number}. {short}" if self.number is not None else short


@dataclass
class SeriesMap:
    places: list[Place]
    edges: list[tuple[str, str]]                       # drawn: (earlier id, later id)
    links: set[frozenset] = field(default_factory=set)  # every sister link between two places
    hub_links: int = 0                                  # sister links to a hub that are not drawn
    implied: int = 0                                    # links left out as implied (see reduce)

    @property
    def hubs(self) -> list[Place]:
        return [p for p in self.places if p.hub]


def build(series: Series, site: Site, include_drafts: bool, href_of) -> SeriesMap:
    """The map of a series. `href_of(post)` gives a post's URL relative to the index page."""
    posts = site.series_posts(series.slug, include_drafts)
    places: list[Place] = []
    by_post: dict[int, Place] = {}
    by_title: dict[str, Place] = {}
    for p in posts:
        number = site.series_number(p, include_drafts)[0]
        pl = Place("", number, p.title, p, href_of(p))
        places.append(pl)
        by_post[id(p)] = pl
        by_title.setdefault(nfkc(p.title), pl)
    for planned in site.planned_open(series, include_drafts):
        pl = Place("", planned.order, planned.title)
        places.append(pl)
        by_title.setdefault(nfkc(planned.title), pl)
    places.sort(key=lambda pl: (pl.number if pl.number is not None else 10 ** 9, pl.planned, pl.title))
    for k, pl in enumerate(places, 1):
        pl.id = f"p{k}"

    # sister links: (the post's place, the place it names), once per pair
    links: set[frozenset] = set()
    named_by: dict[str, set[str]] = {}
    for p in posts:
        if p.is_draft and not include_drafts:
            continue
        sl = sister_line(p, site.conv)
        here = by_post[id(p)]
        for item in (sl.items if sl else []):
            if item.kind == "link":
                kind, target = site.resolve(p, item.href)
                tp = site.post_at(target) if kind == "page" else None
                there = by_post.get(id(tp)) if tp is not None else None
            else:
                there = by_title.get(nfkc(item.label))
            if there is None or there is here:
                continue
            links.add(frozenset((here.id, there.id)))
            named_by.setdefault(there.id, set()).add(here.id)
    published = [pl for pl in places if not pl.planned]
    threshold = max(HUB_MIN, math.ceil(HUB_SHARE * (len(published) - 1)))
    for pl in places:
        pl.linked_by = len(named_by.get(pl.id, ()))
        pl.hub = pl.linked_by >= threshold

    by_id = {pl.id: pl for pl in places}
    rank = {pl.id: k for k, pl in enumerate(places)}
    drawn, to_hub = [], []
    for pair in links:
        a, b = sorted(pair, key=rank.__getitem__)
        if by_id[a].hub or by_id[b].hub:
            to_hub.append((a, b))
        else:
            drawn.append((a, b))
    drawn, implied = reduce(drawn, rank)
    # a link to a hub is drawn only when it is the other place's one link (else it would float alone)
    linked = {x for e in drawn for x in e}
    kept = 0
    for a, b in sorted(to_hub, key=lambda e: (rank[e[0]], rank[e[1]])):
        other = b if by_id[a].hub else a
        if by_id[a].hub and by_id[b].hub:
            continue
        if other not in linked:
            drawn.append((a, b))
            linked.add(other)
            kept += 1
    drawn.sort(key=lambda e: (rank[e[0]], rank[e[1]]))
    hub_links = sum(1 for a, b in to_hub if not (by_id[a].hub and by_id[b].hub)) - kept
    return SeriesMap(places, drawn, links, hub_links, implied)


def reduce(edges: list[tuple[str, str]], rank: dict[str, int]) -> tuple[list[tuple[str, str]], int]:
    """The transitive reduction of the links, read in series order: a link from a place to a later
    one is left out when a path of other links leads there through places in between (13 — 14 — 18
    makes 13 — 18 implied). Every place keeps a link, and whatever was connected stays connected.
    Returns the links kept (each as (earlier, later)) and how many were left out."""
    later: dict[str, list[str]] = {}
    for a, b in edges:
        later.setdefault(a, []).append(b)

    def reaches(start: str, goal: str, skip: tuple[str, str]) -> bool:
        seen, todo = set(), [start]
        while todo:
            x = todo.pop()
            for y in later.get(x, ()):
                if (x, y) == skip or y in seen or rank[y] > rank[goal]:
                    continue
                if y == goal:
                    return True
                seen.add(y)
                todo.append(y)
        return False
    kept = [(a, b) for a, b in edges if not reaches(a, b, (a, b))]
    return kept, len(edges) - len(kept)


def label_text(text: str) -> str:
    """Text inside a quoted mermaid label: one line, every syntax character as an entity code."""
    return "".join(ENTITIES.get(ch, ch) for ch in SPACES.sub(" ", text).strip())


def columns(m: SeriesMap, width: int = COLUMNS) -> dict[str, int]:
    """A column for each place such that no drawn edge joins two places of one column (a greedy
    colouring: hubs and published posts take the leftmost free column, planned ones the rightmost),
    in `width` columns when the edges allow it, in more when they do not."""
    near: dict[str, set[str]] = {pl.id: set() for pl in m.places}
    for a, b in m.edges:
        near[a].add(b)
        near[b].add(a)
    two = _two_columns(m, near)
    if two is not None:
        return two
    col: dict[str, int] = {}
    order = m.hubs + [pl for pl in m.places if not pl.hub and not pl.planned] + \
        [pl for pl in m.places if not pl.hub and pl.planned]
    for pl in order:
        taken = {col[n] for n in near[pl.id] if n in col}
        free = [c for c in range(width) if c not in taken]
        if not free:
            free = [min(c for c in range(width, width + len(taken) + 1) if c not in taken)]
        col[pl.id] = free[-1] if pl.planned else free[0]
    # then move places one at a time to a free column where their edges skip fewer columns (an edge
    # that skips one is drawn across the middle column), until no move helps
    for _ in range(len(order)):
        moved = False
        for pl in order[len(m.hubs):]:   # the hubs stay together in the first column (the band)
            taken = {col[n] for n in near[pl.id]}
            here = sum(abs(col[n] - col[pl.id]) for n in near[pl.id])
            for c in range(max(col.values()) + 1):
                if c not in taken and sum(abs(col[n] - c) for n in near[pl.id]) < here:
                    col[pl.id], here, moved = c, sum(abs(col[n] - c) for n in near[pl.id]), True
        if not moved:
            break
    return col


def order(m: SeriesMap, col: dict[str, int], rounds: int = 24) -> dict[str, float]:
    """A top-to-bottom place for every node, so that linked places sit close: starting from the
    series order, each place moves to the mean place of its neighbours, column by column (the
    barycentre heuristic). The source declares nodes and edges in this order, which the layout keeps
    as its starting point."""
    near: dict[str, list[str]] = {pl.id: [] for pl in m.places}
    for a, b in m.edges:
        near[a].append(b)
        near[b].append(a)
    pos = {pl.id: float(k) for k, pl in enumerate(m.places)}
    ncol = max(col.values(), default=0) + 1
    for _ in range(rounds):
        for c in list(range(ncol)) + list(range(ncol - 2, -1, -1)):
            ids = [i for i in pos if col[i] == c]
            want = {i: (sum(pos[n] for n in near[i]) / len(near[i]) if near[i] else pos[i]) for i in ids}
            slots = sorted(pos[i] for i in ids)
            for slot, i in zip(slots, sorted(ids, key=lambda i: (want[i], pos[i]))):
                pos[i] = slot
    return pos


def _two_columns(m: SeriesMap, near: dict[str, set[str]]) -> dict[str, int] | None:
    """Two columns when the links allow (no odd cycle): each connected part from its first place
    (a hub first, so that the hubs share the first column); None when they do not."""
    col: dict[str, int] = {}
    for start in m.hubs + [pl for pl in m.places if not pl.hub]:
        if start.id in col:
            if start.hub and col[start.id] != 0:
                return None
            continue
        col[start.id] = 0
        todo = [start.id]
        while todo:
            x = todo.pop()
            for y in sorted(near[x]):
                if y not in col:
                    col[y] = 1 - col[x]
                    todo.append(y)
                elif col[y] == col[x]:
                    return None
    return col


ACC_UNSAFE = re.compile(r"[#;%{}<>\"`\\\x00-\x1f\x7f]+")


def acc_text(s: str) -> str:
    """Text for an `accTitle` / `accDescr` line: one line, nothing mermaid or HTML reads as syntax."""
    return " ".join(ACC_UNSAFE.sub(" ", s).split())


def mermaid(m: SeriesMap, conv: Conventions, band_title: str = "总览", series_title: str = "") -> str:
    """The flowchart's source (without the fence). Left to right, so that the layout's layers are the
    columns of `columns()`: the diagram is as wide as its columns however long the series grows."""
    text, line, white = conv.neutrals["text"], conv.neutrals["line"], conv.neutrals["white"]
    hub_c = conv.colour("yellow") if "yellow" in conv.class_names else conv.colour(conv.default_node)
    post_c = conv.colour(conv.default_node)
    out = ["---", "config:", "  flowchart:", f"    wrappingWidth: {WRAP_PX}", "    rankSpacing: 36", "    curve: linear",
           "    nodeSpacing: 24", "    padding: 10", "---", "flowchart LR",
           f"  accTitle: {acc_text(series_title + ' 系列地图' if series_title else '系列地图')}",
           "  accDescr: " + acc_text(
               f"本系列共 {len(m.places)} 个位置，已发布 {sum(not p.planned for p in m.places)} 篇（节点可点击进入），"
               f"在做 {sum(p.planned for p in m.places)} 篇（虚线框）；连线是文章之间的姊妹篇关系"
               + (f"，{band_title}里是多数文章都会提到的综述篇" if m.hubs else "") + "。下方列表按编号列出全部文章。"),
           f"  classDef post fill:{post_c.fill},stroke:{post_c.stroke},color:{text}",
           f"  classDef hub fill:{hub_c.fill},stroke:{hub_c.stroke},color:{text}",
           f"  classDef planned fill:{white},stroke:{line},stroke-dasharray:4 3,color:{line}"]

    def node(pl: Place) -> str:
        label = label_text(pl.label) + ("<br>（在做）" if pl.planned else "")
        return f'{pl.id}["{label}"]'

    col = columns(m)
    if m.hubs:
        out.append(f'  subgraph {BAND_ID}["{label_text(band_title)}"]')
        out += [f"    {node(pl)}" for pl in m.hubs]
        out.append("  end")
    seq = order(m, col)
    out += [f"  {node(pl)}" for pl in sorted((p for p in m.places if not p.hub), key=lambda p: seq[p.id])]
    for a, b in sorted(m.edges, key=lambda e: (seq[e[0]], seq[e[1]])):
        if col[a] > col[b]:
            a, b = b, a
        out.append(f"  {a} --- {b}")
    for pl in m.places:
        if pl.href and SAFE_HREF.fullmatch(pl.href):
            out.append(f'  click {pl.id} href "{pl.href}"')
    for cls, members in (("hub", [p for p in m.hubs if not p.planned]),
                         ("post", [p for p in m.places if not p.hub and not p.planned]),
                         ("planned", [p for p in m.places if p.planned])):
        if members:
            out.append(f"  class {','.join(p.id for p in members)} {cls}")
    return "\n".join(out) + "\n"
