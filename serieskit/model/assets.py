"""Which files under series/ become files of the site, and with what bytes: the one publishing policy
both hosts apply (hooks/serieshooks/generated.py for MkDocs, serieskit/publish/sources.py for Zensical).

A file that is not a post, a manifest or a glossary is published only when its type is allowed:

- a raster image (`.png`, `.jpg` / `.jpeg`, `.gif`, `.webp`, `.avif`) whose first bytes are that
  format's signature (a `.png` that is really HTML is not published);
- an SVG, after sanitizing (nh3, with the SVG allow-list below; the sanitized bytes, checked once
  more as the browser's XML parser reads them, are what is published);
- a data file whose suffix `conventions.yml` declares (`assets: data_files:`), from a short list
  of types no browser runs (`DATA_SUFFIXES`).

Anything else is left out; so is a file whose site path is the site's own (a `docs/` file, a
generated page or feed, the theme's folders, a host's configuration file). Each refusal or removal
is a `Problem`, which SEC002 (serieskit/lint/rules/sec002_asset_policy.py) reports; the loader keeps the
plan on the Site (`site.assets`). Which files are looked at at all (no dotfiles, no git-ignored
files, no symlink leading out of series/) is the loader's discovery (serieskit/model/loader.py).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nh3

from serieskit.conventions import DATA_SUFFIXES
from .forking import fork_map
from .site import feed_path
from .site import SERIES_DIR

# --- raster images ---------------------------------------------------------------------------------
RASTER = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP", ".avif": "AVIF"}


def raster_format(head: bytes) -> str | None:
    """The raster format whose signature `head` (the file's first bytes) starts with."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":
        size = int.from_bytes(head[:4], "big")
        brands = head[8:12] + head[16:max(16, min(size, len(head)))]
        if any(brands[i:i + 4] in (b"avif", b"avis") for i in range(0, len(brands) - 3, 4)):
            return "AVIF"
    return None


# --- SVG -------------------------------------------------------------------------------------------
SVG_NS, XLINK_NS, XML_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", \
    "http://www.w3.org/XML/1998/namespace"
FILTER_PRIMITIVES = ("feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting "
                     "feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR "
                     "feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting "
                     "feSpotLight feTile feTurbulence").split()
SVG_TAGS = frozenset("""svg g defs symbol use title desc a switch path rect circle ellipse line polyline polygon
    text tspan textPath linearGradient radialGradient stop pattern clipPath mask marker filter style""".split()
                     + FILTER_PRIMITIVES)
SVG_ATTRIBUTES = frozenset("""id class style transform lang xml:lang xml:space role aria-label aria-labelledby
    aria-describedby aria-hidden focusable version viewBox preserveAspectRatio x y x1 y1 x2 y2 cx cy r rx ry fx fy
    fr width height d points pathLength dx dy rotate textLength lengthAdjust startOffset method spacing side
    fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin stroke-miterlimit
    stroke-dasharray stroke-dashoffset stroke-opacity opacity clip-path clip-rule mask filter color display
    visibility overflow font-family font-size font-size-adjust font-style font-weight font-variant font-stretch
    text-anchor dominant-baseline alignment-baseline baseline-shift letter-spacing word-spacing text-decoration
    writing-mode direction unicode-bidi paint-order vector-effect shape-rendering text-rendering image-rendering
    color-interpolation color-interpolation-filters stop-color stop-opacity flood-color flood-opacity
    lighting-color marker-start marker-mid marker-end gradientUnits gradientTransform spreadMethod offset
    patternUnits patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits markerUnits
    markerWidth markerHeight refX refY orient filterUnits primitiveUnits in in2 result stdDeviation mode operator
    k1 k2 k3 k4 type values tableValues slope intercept amplitude exponent baseFrequency numOctaves seed
    stitchTiles scale xChannelSelector yChannelSelector radius order kernelMatrix divisor bias targetX targetY
    edgeMode kernelUnitLength preserveAlpha surfaceScale diffuseConstant specularConstant specularExponent
    azimuth elevation pointsAtX pointsAtY pointsAtZ limitingConeAngle href xlink:href""".split())
# removed with everything inside them
DROPPED_WITH_CONTENT = frozenset({"script", "foreignObject", "metadata", "iframe", "noscript", "template"})
# removed without a finding: what an editor adds and no browser draws (the XML prolog, comments,
# `<metadata>` and the RDF inside it, Inkscape's and Sodipodi's own elements and attributes,
# namespace declarations)
INERT_PREFIXES = ("rdf:", "cc:", "dc:", "inkscape:", "sodipodi:", "xmlns")
INERT_TAGS = frozenset({"metadata"})

FRAGMENT = re.compile(r"#[^\s\"'()<>\\]+")
URL_CALL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)
CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
# CSS that loads something or runs something: only `url(#id)` (a same-document reference) is kept
CSS_FORBIDDEN = re.compile(r"@import|expression|javascript:|image-set|-moz-binding|behavior|\\|(?<![\w-])src\s*\(",
                           re.I)


def css_ok(text: str) -> bool:
    """Whether a style attribute or `<style>` element loads nothing from elsewhere and runs nothing."""
    css = CSS_COMMENT.sub(" ", text)
    if CSS_FORBIDDEN.search(css):
        return False
    return all(FRAGMENT.fullmatch(m.group(2).strip()) for m in URL_CALL.finditer(css)) and \
        css.lower().count("url(") == len(URL_CALL.findall(css))


def attribute_ok(name: str, value: str) -> bool:
    """An allowed attribute's value: links only to `#id`, CSS and `url(…)` values as `css_ok`."""
    local = name.rpartition(":")[2]
    if local == "href":
        return bool(FRAGMENT.fullmatch(value.strip()))
    if local == "style" or "url" in value.lower() or "\\" in value:
        return css_ok(value)
    return True


CLEANER = nh3.Cleaner(tags=set(SVG_TAGS), clean_content_tags=set(DROPPED_WITH_CONTENT),
                      attributes={"*": {a.rpartition(":")[2] for a in SVG_ATTRIBUTES} | {"xmlns", "xlink"}},
                      link_rel=None, strip_comments=True, url_schemes=set())


# What an SVG file holds, as names (`<script>`, `onload=`), counted the same way in the sanitizer's
# input and output to say what was removed. A pattern sees names in text too (`a = 1` in a label),
# but the same text is on both sides; comments, `<metadata>` and the inside of elements removed with
# their content are left out first.
TAG_NAME = re.compile(r"<([A-Za-z][^\s/>]*)")
ATTR_NAME = re.compile(r"(?<=[\s\"'/])([A-Za-z_:][-\w:.]*)\s*=")
NOT_COUNTED = re.compile(r"<!--.*?(?:-->|$)|<\?.*?(?:\?>|$)|<!DOCTYPE[^\[>]*(?:\[.*?(?:\]|$))?[^>]*>?|<metadata\b.*?(?:</metadata\s*>|$)|(<(?:script|foreignObject|iframe|noscript|"
                         r"template)\b[^>]*>).*?(?:</(?:script|foreignObject|iframe|noscript|template)\s*>|$)", re.I | re.S)


# where a part NOT_COUNTED leaves out can start (a cheap test before the costly substitution)
NOT_COUNTED_START = re.compile(r"<[!?]|<(?:metadata|script|foreignObject|iframe|noscript|template)\b", re.I)


def _inventory(text: str, written_here: bool = False) -> tuple[Counter, list[str]]:
    """(count of each name, lower-cased; the names as written, in order). `written_here`: the text
    is ElementTree's serialization, which holds none of the parts NOT_COUNTED leaves out (it writes
    no comment, prolog or DOCTYPE, and escapes every `<` of a text or a value)."""
    if not written_here and NOT_COUNTED_START.search(text):
        text = NOT_COUNTED.sub(lambda m: m.group(1) or "", text)
    names = ["<" + t + ">" for t in TAG_NAME.findall(text)] + [a + "=" for a in ATTR_NAME.findall(text)]
    return Counter(map(str.lower, names)), names


# nh3 writes a fragment: it is read inside an element that declares the SVG namespaces (an `<svg>`
# without `xmlns`, valid in HTML, is still an SVG element, as the HTML parser took it)
WRAPPER_START = '<root xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
WRAPPER_END = "</root>"


# attributes whose value needs no look unless it holds a `url(` or an escape (most of a drawing's)
PLAIN_ATTRIBUTES = SVG_ATTRIBUTES - {"href", "xlink:href", "style"}
SUSPECT = re.compile(r"url|\\", re.I)


def _name(qname: str) -> str:
    if qname[0] != "{":
        return qname
    ns, _, local = qname[1:].partition("}")
    return {XLINK_NS: "xlink:", XML_NS: "xml:"}.get(ns, "") + local


def _verified(root: ET.Element, removed: list[str]) -> None:
    """Walk the tree the browser will read and remove whatever the allow-list does not hold (after
    nh3 this is a `<style>` whose CSS loads or runs something; anything else means the two parsers
    disagreed, and is removed too)."""
    for parent in list(root.iter()):
        for child in list(parent):
            ns, _, local = child.tag[1:].partition("}")
            if not (ns == SVG_NS and local in SVG_TAGS
                    and (local != "style" or not len(child) and css_ok(child.text or ""))):
                removed.append(f"<{local}>")
                parent.remove(child)
    for el in root.iter():
        bad = [q for q, v in el.attrib.items() if not (q in PLAIN_ATTRIBUTES and not SUSPECT.search(v))
               and (_name(q) not in SVG_ATTRIBUTES or not attribute_ok(_name(q), v))]
        for qname in bad:
            removed.append(_name(qname) + "=")
            del el.attrib[qname]


def sanitize_svg(data: bytes) -> tuple[bytes | None, list[str]]:
    """(the bytes to publish, what was removed, by name); (None, [why]) when nothing can be published.
    nh3 keeps the allowed elements and attributes; the result is then read as the browser will read
    the file (XML), and every value is checked (`_verified`)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, ["the file is not UTF-8"]
    cleaned = CLEANER.clean(text).replace("&nbsp;", "&#160;")
    try:
        top = ET.fromstring(WRAPPER_START + cleaned + WRAPPER_END)
    except ET.ParseError as exc:
        return None, [f"the sanitized file does not parse as XML ({exc})"]
    svgs = [el for el in top if el.tag == f"{{{SVG_NS}}}svg"]
    if len(svgs) != 1:
        return None, ["the file holds no single <svg> element"]
    removed: list[str] = []
    _verified(top, removed)
    svg = svgs[0]
    svg.tail = None
    out = ET.tostring(_plain_names(svg), encoding="unicode")
    before, written = _inventory(text)
    after, _ = _inventory(out, written_here=True)
    lost = {n for n in before if before[n] > after[n] and not _inert(n)}
    return out.encode("utf-8"), _unique([n for n in written if n.lower() in lost] + removed)


def _inert(name: str) -> bool:
    bare = name.strip("<>=")
    return bare.startswith(INERT_PREFIXES) or bare in INERT_TAGS


def _unique(names: list[str]) -> list[str]:
    return list({n.lower(): n for n in reversed(names)}.values())[::-1]


def _plain_names(svg: ET.Element) -> ET.Element:
    """The tree with its names as written in an SVG file (`path`, `xlink:href`) and the namespace
    declarations on the root, for ElementTree to write as they are."""
    xlink = False
    for el in svg.iter():
        el.tag = el.tag.rpartition("}")[2]
        names = {q: _name(q) for q in el.attrib}
        xlink = xlink or any(n.startswith("xlink:") for n in names.values())
        el.attrib = {names[q]: v for q, v in el.attrib.items()}
    svg.attrib = {"xmlns": SVG_NS, **({"xmlns:xlink": XLINK_NS} if xlink else {}), **svg.attrib}
    return svg


# --- the plan ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Asset:
    """A file of the site from series/: its path in the site, on disk, and the bytes to publish when
    they are not the file's own (a sanitized SVG)."""
    site_path: str
    src: Path
    data: bytes | None = None


@dataclass(frozen=True)
class Problem:
    """A file under series/ the plan refused or changed: `kind` (type, signature, svg, svg-changed,
    data-type, taken), `detail` (what was removed, the other owner of the path, ...). SEC002 words it."""
    path: str
    kind: str
    detail: str = ""


@dataclass
class AssetPlan:
    published: list[Asset] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    stamps: dict = field(default_factory=dict)   # site path -> ((file, mtime, size, data suffixes), Asset, [Problem])


def publish(asset: Asset, dest: Path) -> None:
    """Write one file of the plan where a host builds from: its sanitized bytes (SVG), or a copy."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if asset.data is not None:
        dest.write_bytes(asset.data)
    else:
        shutil.copyfile(asset.src, dest)


# Folders and files of the site's root that are the site's own, whoever writes them (theme, docs/,
# the build, the static host): a file from series/ never lands there.
RESERVED_FOLDERS = {"assets/": "the site's own assets folder (theme, docs/assets/, vendored mermaid and KaTeX)",
                    "pagefind/": "the search index", "search/": "the theme's search index"}
RESERVED_FILES = {"_headers": "the static host's headers file", "_redirects": "the static host's redirects file",
                  "sitemap.xml": "the sitemap", "sitemap.xml.gz": "the sitemap", "404.html": "the theme's 404 page",
                  "search.json": "Zensical's search index", "robots.txt": "the crawler rules", "CNAME": "the domain file",
                  "feed.xml": "the site's feed"}


def page_dest(site_path: str) -> str:
    """Where a page (`a/b.md`) is written: `a/b/index.html`."""
    stem = site_path[:-3]
    stem = stem[:-5] if stem == "index" or stem.endswith("/index") else stem + "/"
    return stem + "index.html"


def taken_paths(site, docs_files: set[str], docs_pages: set[str], theme: set[str]) -> dict[str, str]:
    """Site paths a file of series/ must not take, each with whose it is."""
    taken = dict(RESERVED_FILES)
    taken.update({p: f"the theme's overrides/{p}" for p in theme})
    for page in sorted(site.pages):
        post = site.by_site_path.get(page)
        owner = f"the post {post.rel}" if post else f"the page docs/{page}" if page in docs_pages \
            else f"the generated page {page}"
        taken[page] = taken[page_dest(page)] = owner
    for s in site.series.values():
        taken[feed_path(s)] = f"the feed of series {s.slug}"
    taken.update({p: f"the site's own docs/{p}" for p in docs_files})
    return taken


def collision(site_path: str, taken: dict[str, str]) -> str | None:
    """Whose `site_path` is, if it is the site's own."""
    if site_path in taken:
        return taken[site_path]
    return next((why for folder, why in RESERVED_FOLDERS.items() if site_path.startswith(folder)), None)


def classify(site_path: str, src: Path, data_suffixes: tuple[str, ...]) -> tuple[Asset | None, list[Problem]]:
    """One file's fate by its type and content (collisions are the plan's)."""
    rel = f"{SERIES_DIR}/{site_path}"
    suffix = src.suffix.lower()
    try:
        if suffix in RASTER:
            with src.open("rb") as fh:
                found = raster_format(fh.read(64))
            if found != RASTER[suffix]:
                return None, [Problem(rel, "signature", f"{RASTER[suffix]}|{found or ''}")]
            return Asset(site_path, src), []
        if suffix == ".svg":
            data, removed = sanitize_svg(src.read_bytes())
            if data is None:
                return None, [Problem(rel, "svg", "; ".join(removed))]
            return Asset(site_path, src, data), [Problem(rel, "svg-changed", ", ".join(removed))] if removed else []
    except OSError as exc:
        return None, [Problem(rel, "unreadable", str(exc.strerror or exc))]
    if suffix in data_suffixes:
        return Asset(site_path, src), []
    return None, [Problem(rel, "data-type" if suffix in DATA_SUFFIXES else "type", suffix or src.name)]


def plan(site, files: dict[str, Path], docs_files: set[str], docs_pages: set[str], data_suffixes: tuple[str, ...],
         previous: AssetPlan | None = None, jobs: int = 1) -> AssetPlan:
    """What of `files` (site path -> file under series/) the site publishes, and the problems. A
    file whose modification time and size are those `previous` saw is not read again; the others
    are classified in up to `jobs` processes (serieskit/model/forking.py)."""
    out = AssetPlan()
    taken = taken_paths(site, docs_files, docs_pages, theme_files(site.root))
    old = previous.stamps if previous is not None else {}
    known, todo = {}, []
    for site_path, src in sorted(files.items()):
        try:
            st = src.stat()
            stamp = (src, st.st_mtime_ns, st.st_size, data_suffixes)
        except OSError:
            stamp = None
        hit = old.get(site_path)
        if hit is not None and stamp is not None and hit[0] == stamp:
            known[site_path] = hit
        else:
            todo.append((site_path, src, stamp))
    fresh = fork_map(lambda share: [classify(p, src, data_suffixes) for p, src, _ in share], todo, jobs)
    known.update((p, (stamp, *result)) for (p, _, stamp), result in zip(todo, fresh))
    for site_path in sorted(files):
        stamp, asset, problems = out.stamps[site_path] = known[site_path]
        owner = collision(site_path, taken)     # (a file refused for its type is named here too)
        if owner is not None:
            problems, asset = [*problems, Problem(f"{SERIES_DIR}/{site_path}", "taken", f"{site_path}|{owner}")], None
        out.problems.extend(problems)
        if asset is not None:
            out.published.append(asset)
    return out


def theme_files(root: Path) -> set[str]:
    """The site paths of the project's theme overrides (`overrides/`, mkdocs.yml's custom_dir)."""
    base = root / "overrides"
    if not base.is_dir():
        return set()
    return {p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()}


# --- what git leaves out -----------------------------------------------------------------------------
class GitUnavailable(Exception):
    """The project is a git checkout, but git could not say which files it ignores."""


def git_ignored(root: Path, rels: list[str]) -> set[str] | None:
    """The paths of `rels` (relative to `root`) that git ignores, asked once (`git check-ignore
    --stdin`); None when `root` is not a git checkout (no `.git` there: a copy, an export, a scratch
    project inside another checkout), where the loader skips dotfiles only, as it always does.
    Raises GitUnavailable when it is one and git cannot answer."""
    if not (root / ".git").exists():
        return None
    if not rels:
        return set()
    try:
        r = subprocess.run(["git", "check-ignore", "--stdin", "-z"], cwd=root, capture_output=True, timeout=60,
                           input="\0".join(rels).encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitUnavailable(str(exc)) from None
    if r.returncode not in (0, 1):     # 1: none of them is ignored
        said = r.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitUnavailable(said[-1] if said else f"git check-ignore exited with {r.returncode}")
    return {p.decode("utf-8", "surrogateescape") for p in r.stdout.split(b"\0") if p}
