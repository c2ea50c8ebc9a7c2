"""The allow-list gate's profile for a standalone SVG file (serieskit/sanitize/__init__.py): an author's
figure under series/, published as a file of its own."""
from __future__ import annotations

import re
from collections import Counter

import xml.etree.ElementTree as ET
from xml.etree.ElementTree import _escape_attrib   # (how ElementTree writes a value: _written_names)

import nh3


# --- profile 2: a standalone SVG file (an author's figure under series/, published as a file) -------
# Stricter than the page profile: the file is read by the browser's XML parser as a document of its
# own, so nh3's output is parsed again as XML and every value checked (`_verified`); links may only
# point inside the file. serieskit/model/assets.py decides which files are published and calls
# `sanitize_svg`.
SVG_NS, XLINK_NS, XML_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", \
    "http://www.w3.org/XML/1998/namespace"
FILTER_PRIMITIVES = ("feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting "
                     "feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR "
                     "feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting "
                     "feSpotLight feTile feTurbulence").split()
FILE_SVG_TAGS = frozenset("""svg g defs symbol use title desc a switch path rect circle ellipse line polyline polygon
    text tspan textPath linearGradient radialGradient stop pattern clipPath mask marker filter style""".split()
                     + FILTER_PRIMITIVES)
FILE_SVG_ATTRIBUTES = frozenset("""id class style transform lang xml:lang xml:space role aria-label aria-labelledby
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

FILE_FRAGMENT = re.compile(r"#[^\s\"'()<>\\]+")
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
    return all(FILE_FRAGMENT.fullmatch(m.group(2).strip()) for m in URL_CALL.finditer(css)) and \
        css.lower().count("url(") == len(URL_CALL.findall(css))


def attribute_ok(name: str, value: str) -> bool:
    """An allowed attribute's value: links only to `#id`, CSS and `url(…)` values as `css_ok`."""
    local = name.rpartition(":")[2]
    if local == "href":
        return bool(FILE_FRAGMENT.fullmatch(value.strip()))
    if local == "style" or "url" in value.lower() or "\\" in value:
        return css_ok(value)
    return True


FILE_CLEANER = nh3.Cleaner(tags=set(FILE_SVG_TAGS), clean_content_tags=set(DROPPED_WITH_CONTENT),
                           attributes={"*": {a.rpartition(":")[2] for a in FILE_SVG_ATTRIBUTES} | {"xmlns", "xlink"}},
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


def _file_names(text: str, written_here: bool = False) -> tuple[list[str], list[str]]:
    """(the tag names, the attribute names), as written, in order. `written_here`: ElementTree's
    output, which holds none of the parts NOT_COUNTED leaves out."""
    if not written_here and NOT_COUNTED_START.search(text):
        text = NOT_COUNTED.sub(lambda m: m.group(1) or "", text)
    return TAG_NAME.findall(text), ATTR_NAME.findall(text)


def _written_names(svg: ET.Element) -> tuple[list[str], list[str]]:
    """What `_file_names` counts in the file ElementTree writes for `svg`, read off the tree: each tag,
    each attribute's name, and a `name=` inside a text or a value as written (a value escaped, after
    its opening quote). Not in the file's order (`_lost` counts)."""
    tags, attributes = [], []
    for el in svg.iter():
        tags.append(el.tag)
        for name, value in el.attrib.items():
            attributes.append(name)
            if "=" in value:
                attributes += ATTR_NAME.findall('"' + _escape_attrib(value))
        attributes += [n for text in (el.text, el.tail) if text and "=" in text for n in ATTR_NAME.findall(text)]
    return tags, attributes


def _lost(before: list[str], after: list[str], form: str) -> set[str]:
    """The names (`form`: `<{}>`, `{}=`) fewer times in `after` than in `before`, but the inert ones."""
    had, has = Counter(map(str.lower, before)), Counter(map(str.lower, after))
    return {form.format(n) for n, k in had.items() if k > has[n] and not _inert(form.format(n))}


# nh3 writes a fragment: it is read inside an element that declares the SVG namespaces (an `<svg>`
# without `xmlns`, valid in HTML, is still an SVG element, as the HTML parser took it)
WRAPPER_START = '<root xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
WRAPPER_END = "</root>"


# attributes whose value needs no look unless it holds a `url(` or an escape (most of a drawing's)
FILE_PLAIN_ATTRIBUTES = FILE_SVG_ATTRIBUTES - {"href", "xlink:href", "style"}
SUSPECT = re.compile(r"url|\\", re.I)


def _name(qname: str) -> str:
    if qname[0] != "{":
        return qname
    ns, _, local = qname[1:].partition("}")
    return {XLINK_NS: "xlink:", XML_NS: "xml:"}.get(ns, "") + local


def _verified(root: ET.Element, removed: list[str]) -> None:
    """Remove from the tree the browser will read what the allow-list does not hold (after nh3, a
    `<style>` whose CSS loads or runs something; anything else: the two parsers disagreed)."""
    for parent in list(root.iter()):
        for child in list(parent):
            ns, _, local = child.tag[1:].partition("}")
            if not (ns == SVG_NS and local in FILE_SVG_TAGS
                    and (local != "style" or not len(child) and css_ok(child.text or ""))):
                removed.append(f"<{local}>")
                parent.remove(child)
    for el in root.iter():
        bad = [q for q, v in el.attrib.items() if not (q in FILE_PLAIN_ATTRIBUTES and not SUSPECT.search(v))
               and (_name(q) not in FILE_SVG_ATTRIBUTES or not attribute_ok(_name(q), v))]
        for qname in bad:
            removed.append(_name(qname) + "=")
            del el.attrib[qname]


def sanitize_svg(data: bytes) -> tuple[bytes | None, list[str]]:
    """(the bytes to publish, what was removed, by name); (None, [why]) when nothing can be published.
    Removed: what the published bytes hold fewer times than the author's file (`_cleaned`)."""
    text, svg, removed = _cleaned(data)
    out = None if svg is None else ET.tostring(svg, encoding="unicode")
    return (None, removed) if out is None else (out.encode("utf-8"), _removed(text, _file_names(out, True), removed))


def check_svg(data: bytes) -> tuple[ET.Element | None, list[str]]:
    """`sanitize_svg`'s verdict, for the lint (which publishes nothing), counted off the tree without
    writing it (`_written_names`, held to the written file's count by tests/test_assets.py)."""
    text, svg, removed = _cleaned(data)
    return (None, removed) if svg is None else (svg, _removed(text, _written_names(svg), removed))


def _cleaned(data: bytes) -> tuple[str, ET.Element | None, list[str]]:
    """(the author's text, the tree nh3 keeps, read as XML as the browser will, every value checked
    by `_verified`, what that removed); the tree None (and why) when nothing can be published."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "", None, ["the file is not UTF-8"]
    cleaned = FILE_CLEANER.clean(text).replace("&nbsp;", "&#160;")
    try:
        top = ET.fromstring(WRAPPER_START + cleaned + WRAPPER_END)
    except ET.ParseError as exc:
        return text, None, [f"the sanitized file does not parse as XML ({exc})"]
    svgs = [el for el in top if el.tag == f"{{{SVG_NS}}}svg"]
    if len(svgs) != 1:
        return text, None, ["the file holds no single <svg> element"]
    removed: list[str] = []
    _verified(top, removed)
    svgs[0].tail = None
    return text, _plain_names(svgs[0]), removed


def _removed(text: str, names_out: tuple[list[str], list[str]], removed: list[str]) -> list[str]:
    """The names `text` holds more times than the output (`names_out`), then `removed`, each once."""
    (tags, attributes), (tags_out, attributes_out) = _file_names(text), names_out
    lost = _lost(tags, tags_out, "<{}>") | _lost(attributes, attributes_out, "{}=")
    written = ["<" + t + ">" for t in tags] + [a + "=" for a in attributes] if lost else []
    return _unique([n for n in written if n.lower() in lost] + removed)


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
        if any(q[0] == "{" for q in el.attrib):      # (most attributes have no namespace: kept as they are)
            names = {q: _name(q) for q in el.attrib}
            xlink = xlink or any(n.startswith("xlink:") for n in names.values())
            el.attrib = {names[q]: v for q, v in el.attrib.items()}
    svg.attrib = {"xmlns": SVG_NS, **({"xmlns:xlink": XLINK_NS} if xlink else {}), **svg.attrib}
    return svg
