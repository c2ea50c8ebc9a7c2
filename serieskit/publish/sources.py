"""The series site as source files, for a host that runs no plugins (Zensical: it reads mkdocs.yml
and runs Python-Markdown extensions, but no MkDocs hooks). What the MkDocs adapter adds to a build
in memory (hooks/serieshooks/generated.py, hooks/serieshooks/context.py), this writes into a folder the host builds from:

- `docs/` as written, with the home page's lists at their placeholders;
- each published post, rendered (serieskit/render/post.py), its header and its previous / next links
  around it (the site's own partials, overrides/partials/, rendered here with the same data the
  MkDocs templates get: serieskit/pipeline/page.py), its page metadata and its search metadata as
  frontmatter (the template marks the page for the index: overrides/main.html);
- the generated pages of the page table, the files beside the posts that the publishing plan lets
  out (serieskit/model/assets.py: images, sanitized SVG), the palette stylesheet and the vendored mermaid
  and KaTeX.

The glossary tooltips are the Markdown extension's (serieskit/publish/mdext.py), as in MkDocs.
"""
from __future__ import annotations

import dataclasses
import posixpath
import re
import shutil
from pathlib import Path

import jinja2
import yaml

from . import feed, search_meta
from serieskit.render import pages, share
from serieskit.pipeline import page as post_page
from serieskit.model.assets import publish
from serieskit.model.pagetable import PAGES, SITE_PAGES
from serieskit.model.site import Post
from serieskit.render.post import TOOLTIP_TABLE
from serieskit.pipeline.project import Build
from serieskit.render.theme import palette_css
from .vendor import vendor_files

H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


def relative_url(target: str, page_dir: str) -> str:
    """`target` (a site path such as `train-infer-accel/` or `tags/#x`) as a relative link from the
    folder `page_dir` (such as `train-infer-accel`)."""
    path, _, frag = target.partition("#")
    rel = posixpath.relpath(path or ".", page_dir or ".")
    if path.endswith("/") and not rel.endswith("/"):
        rel += "/"
    if rel == "./":
        rel = "./"
    return rel + (f"#{frag}" if frag else "")


class Partials:
    """The site's post partials, rendered outside the theme (same files, same data)."""

    def __init__(self, templates: Path):
        # as MkDocs sets up its theme's environment: no autoescape (the partials escape), lenient undefined
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), autoescape=False)

    def render(self, name: str, info: dict, page_dir: str) -> str:
        self.env.filters["url"] = lambda target: relative_url(target, page_dir)
        return self.env.get_template(f"partials/{name}").render(series_post=info).strip()


RAW_LINK = re.compile(r"""(<[A-Za-z][^<>]*?\s(?:href|src)=")([^"#:][^":]*)(")""")


def source_relative(text: str, site_path: str) -> str:
    """A page's raw-HTML links, written (as MkDocs serves them) relative to the page's URL, made
    relative to its source file's folder: Zensical resolves a relative link in a page's HTML from
    there, as it does a Markdown link (so `../demo/first/` on `tags.md`, served at `tags/`, is
    written `demo/first/`). A page `…/index.md` has its URL at its folder: nothing changes."""
    if posixpath.basename(site_path) == "index.md":
        return text
    page_dir, src_dir = pages.url_dir(site_path), posixpath.dirname(site_path)

    def rebase(m: re.Match) -> str:
        path, hash_, frag = m.group(2).partition("#")
        target = posixpath.normpath(posixpath.join(page_dir, path)) + ("/" if path.endswith("/") else "")
        return m.group(1) + relative_url(target + hash_ + frag, src_dir) + m.group(3)
    return RAW_LINK.sub(rebase, text)


def frontmatter(meta: dict) -> str:
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n\n"


def _feed(series, host: Host) -> dict | None:
    return {"title": feed.feed_title(series, host.site_name), "href": feed.feed_path(series)} if series else None


def post_source(b: Build, post: Post, partials: Partials, host: Host) -> str:
    """A post as its page's source: metadata, header, rendered text, previous / next, and last the
    tooltip line of the rendered text (the Markdown extension reads the last line)."""
    info = post_page.post_info(b, post)
    body, _, table = b.render(post).markdown.rstrip("\n").rpartition("\n")
    assert TOOLTIP_TABLE.fullmatch(table), post.rel
    meta = {**post_page.page_meta(post),
            "series_search": plain(search_meta.post_search(b.site, post)),
            "series_share": plain(share.post_share(b.site, post, host.site_url, host.site_name, host.site_author)),
            "series_feed": _feed(b.site.series_of(post), host)}
    header = partials.render("series-post-header.html", info, post.url_dir)
    nav = partials.render("series-nav.html", info, post.url_dir)
    text = "".join([header, "\n\n", body, "\n\n", nav, "\n\n" if nav else "", table, "\n"])
    return frontmatter(meta) + source_relative(text, post.site_path)


def with_meta(text: str, extra: dict) -> str:
    """A page's source with `extra` added to its frontmatter (one written if it has none)."""
    meta: dict = {}
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end > 0:
            meta = yaml.safe_load(text[4:end]) or {}
            text = text[end + 4:].lstrip("\n")
    return frontmatter({**meta, **extra}) + text


def plain(value):
    """A dataclass as the plain data page metadata holds (tuples as lists)."""
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclasses.dataclass
class Host:
    """What the pages' metadata needs from the host's configuration."""
    site_url: str
    site_name: str
    site_author: str = ""
    site_description: str = ""
    nav_titles: dict = dataclasses.field(default_factory=dict)   # a hand-written page -> its title in the nav
    draw_in_browser: bool = False     # the fallback (SERIES_DRAW=browser): serve the renderers too


def _page_meta(b: Build, site_path: str, text: str, host: Host) -> dict:
    """The search and link-preview metadata of a hand-written page (what hooks/serieshooks/context.py passes
    to the MkDocs templates)."""
    site = b.site
    if site_path == "index.md":
        return {"series_search": plain(search_meta.NOT_INDEXED),
                "series_share": plain(share.home_share(site, host.site_url, host.site_name, host.site_description,
                                                       host.site_author, b.include_drafts))}
    heading = H1.search(text)
    title = host.nav_titles.get(site_path) or (heading.group(1) if heading else site_path)
    url = share.absolute(host.site_url, pages.url_dir(site_path))
    return {"series_search": plain(search_meta.page_search(title, host.site_name)),
            "series_share": plain(share.page_share(title, host.site_description, url, host.site_url, host.site_name))}


def write_sources(b: Build, root: Path, out: Path, host: Host) -> list[str]:
    """Write the site's sources into `out` (emptied first); returns the posts' site paths."""
    if out.exists():
        shutil.rmtree(out)
    docs = root / "docs"
    for src in sorted(p for p in docs.rglob("*") if p.is_file()):
        rel = src.relative_to(docs).as_posix()
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.suffix == ".md":
            text = pages.fill_placeholders(src.read_text(encoding="utf-8"), b.site, rel, b.include_drafts)
            dest.write_text(with_meta(source_relative(text, rel), _page_meta(b, rel, text, host)), encoding="utf-8")
        else:
            shutil.copyfile(src, dest)
    partials = Partials(root / "overrides")
    written = []
    for post in b.published():
        _write(out / post.site_path, post_source(b, post, partials, host))
        written.append(post.site_path)
    index_of = {s.index_site_path: s for s in b.site.series.values()}
    titles = {entry.path: entry.title for entry in PAGES if entry.path in SITE_PAGES}
    for uri, content in pages.generated_pages(b.site, b.include_drafts).items():
        if (out / uri).exists():              # a page of docs/ with the same path wins
            continue
        series = index_of.get(uri)            # not indexed: the template marks only pages with search metadata
        if series is not None:
            content = with_meta(content, {"series_share": plain(share.series_share(
                b.site, series, host.site_url, host.site_name, b.include_drafts)), "series_feed": _feed(series, host)})
        elif uri in titles:                   # a list (标签, 归档, 写作规范): previews as of a hand-written page
            url = share.absolute(host.site_url, pages.url_dir(uri))
            content = with_meta(content, {"series_share": plain(share.page_share(
                titles[uri], host.site_description, url, host.site_url, host.site_name))})
        _write(out / uri, source_relative(content, uri))
    for asset in b.site.assets.published:       # what serieskit/model/assets.py lets out of series/
        publish(asset, out / asset.site_path)
    _write(out / "assets/stylesheets/palette.css", palette_css(b.site.conv))
    for src, dest in vendor_files(root, host.draw_in_browser):
        (out / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out / dest)
    return written


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
