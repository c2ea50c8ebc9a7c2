"""The series site as source files, for a host that runs no plugins (Zensical: it reads mkdocs.yml
and runs Python-Markdown extensions, but no MkDocs hooks). The page plan (serieskit/publish/plan.py)
decides what the site publishes and what each page carries, for both hosts; the MkDocs adapter hands
it to MkDocs in memory (hooks/serieshooks/generated.py, hooks/serieshooks/context.py), this writes it
into a folder the host builds from:

- `docs/` as written, with the home page's lists at their placeholders and each page's plan as
  frontmatter;
- the plan's files: each published post, rendered (serieskit/render/post.py), its header and its
  previous / next links around it (the site's own partials, overrides/partials/, rendered here with
  the same data the MkDocs templates get: serieskit/pipeline/page.py) and its page's plan as
  frontmatter (the template marks the page for the index: overrides/main.html); the generated pages,
  with theirs; the files beside the posts, the palette stylesheet and the vendored libraries as they are.

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

from serieskit.parse.frontmatter import parse as parse_frontmatter
from serieskit.pipeline import page as post_page
from serieskit.model.site import Post
from serieskit.model.urls import relative_url, url_dir
from serieskit.render.post import TOOLTIP_TABLE
from serieskit.pipeline.project import Build
from .plan import Host, PageData, PagePlan

H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


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
    page_dir, src_dir = url_dir(site_path), posixpath.dirname(site_path)

    def rebase(m: re.Match) -> str:
        path, hash_, frag = m.group(2).partition("#")
        target = posixpath.normpath(posixpath.join(page_dir, path)) + ("/" if path.endswith("/") else "")
        return m.group(1) + relative_url(target + hash_ + frag, src_dir) + m.group(3)
    return RAW_LINK.sub(rebase, text)


def frontmatter(meta: dict) -> str:
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n\n"


def metadata(data: PageData) -> dict:
    """A page's plan (serieskit/publish/plan.py) as the page metadata the templates read (what the MkDocs
    adapter passes in the template context: hooks/serieshooks/context.py)."""
    return {**data.meta, "series_search": plain(data.search), "series_share": plain(data.share),
            "series_feed": data.feed}


def post_source(b: Build, post: Post, partials: Partials, data: PageData) -> str:
    """A post as its page's source: metadata, header, rendered text, previous / next, and last the
    tooltip line of the rendered text (the Markdown extension reads the last line)."""
    info = post_page.post_info(b, post)
    body, _, table = b.render(post).markdown.rstrip("\n").rpartition("\n")
    assert TOOLTIP_TABLE.fullmatch(table), post.rel
    header = partials.render("series-post-header.html", info, post.url_dir)
    nav = partials.render("series-nav.html", info, post.url_dir)
    text = "".join([header, "\n\n", body, "\n\n", nav, "\n\n" if nav else "", table, "\n"])
    return frontmatter(metadata(data)) + source_relative(text, post.site_path)


def with_meta(text: str, extra: dict) -> str:
    """A page's source with `extra` added to its frontmatter (one written if it has none). The page's
    own frontmatter is hostile input, read as a post's is (serieskit/parse/frontmatter.py: the `---`
    lines MkDocs reads as frontmatter, YAML without aliases or deep nesting); one that does not load
    stays in the text, as MkDocs leaves it."""
    lines = text.split("\n")
    own = parse_frontmatter(lines)
    if own.data is None:
        return frontmatter(extra) + text
    return frontmatter({**own.data, **extra}) + "\n".join(lines[own.end:]).lstrip("\n")


def plain(value):
    """A dataclass as the plain data page metadata holds (tuples as lists)."""
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def title(site_path: str, text: str, host: Host) -> str:
    """A hand-written page's title as Zensical will name it: its title in the navigation, else its
    first heading (MkDocs gives the adapter the page's own title: hooks/serieshooks/context.py)."""
    heading = H1.search(text)
    return host.nav_titles.get(site_path) or (heading.group(1) if heading else site_path)


def write_sources(b: Build, root: Path, out: Path, host: Host) -> PagePlan:
    """Write the site's sources into `out` (emptied first): docs/, then the files of the page plan,
    which is returned (the feeds are written after the build: `PagePlan.write_feeds`)."""
    if out.exists():
        shutil.rmtree(out)
    docs = root / "docs"
    found = sorted(p for p in docs.rglob("*") if p.is_file())
    plan = PagePlan(b, root, host, {src.relative_to(docs).as_posix() for src in found}.__contains__)
    for src in found:
        rel = src.relative_to(docs).as_posix()
        if src.suffix == ".md":
            text = plan.page_markdown(rel, src.read_text(encoding="utf-8"))
            _write(out / rel, with_meta(source_relative(text, rel), metadata(plan.page(rel, title(rel, text, host)))))
        else:
            _copy(src, out / rel)
    partials = Partials(root / "overrides")
    for f in plan.files:
        dest = out / f.path
        if f.draft and not b.include_drafts:      # a published site: Zensical has no draft pages
            continue
        if f.post is not None:
            _write(dest, post_source(b, f.post, partials, plan.page(f.path)))
        elif f.path in plan.generated:
            _write(dest, with_meta(source_relative(f.content, f.path), metadata(plan.page(f.path))))
        elif f.src is not None:
            _copy(f.src, dest)
        elif isinstance(f.content, bytes):       # a sanitized SVG
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.content)
        else:
            _write(dest, f.content)
    return plan


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
