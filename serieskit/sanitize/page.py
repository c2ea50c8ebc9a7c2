"""The allow-list gate's profile for a page (serieskit/sanitize/__init__.py): every page's HTML, a feed
entry, a drawn diagram or formula; and a diagram's stylesheet rebuilt from the declarations it keeps."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import nh3
from selectolax.lexbor import LexborHTMLParser

from .css import blocks

# --- profile 1: a page (every page's HTML, a feed entry, a drawn diagram or formula) ----------------
HTML_TAGS = frozenset("""
a abbr article b blockquote br caption code col colgroup dd del details div dl dt em figcaption figure
h1 h2 h3 h4 h5 h6 header hr i img input ins kbd label li mark nav ol p pre q s samp small span strong sub
summary sup table tbody td tfoot th thead time tr u ul var wbr
""".split())
# KaTeX's MathML (read by screen readers) and its few SVG parts (roots, arrows)
MATHML_TAGS = frozenset("""
math semantics annotation mrow mi mo mn ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder
munderover mpadded mphantom mstyle menclose mtable mtr mtd mlabeledtr merror
""".split())
SVG_TAGS = frozenset("""
svg g path rect circle ellipse line polyline polygon text tspan title desc defs marker clipPath
linearGradient radialGradient stop filter feDropShadow feGaussianBlur feOffset feBlend feFlood feComposite
feMerge feMergeNode symbol use foreignObject
""".split())
TAGS = HTML_TAGS | MATHML_TAGS | SVG_TAGS
# removed with everything inside them (the rest: the tag goes, its text stays)
DROP_WITH_CONTENT = frozenset({"script", "style", "template", "iframe", "object", "embed", "noscript",
                               "textarea", "select", "xmp", "noembed", "noframes"})

GLOBAL_ATTRS = frozenset({"id", "class", "title", "lang", "dir", "style", "hidden", "role", "aria-hidden",
                          "aria-label", "aria-labelledby", "aria-describedby", "aria-roledescription",
                          "tabindex"})
ATTRS = {
    "a": {"href", "name", "rel", "transform"},
    "img": {"src", "alt", "width", "height", "loading", "decoding"},
    "input": {"type", "disabled", "checked", "name"},
    "label": {"for"},
    "li": {"value"},
    "ol": {"start", "type", "reversed"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "time": {"datetime"},
    "details": {"open"},
    "col": {"span"},
    "colgroup": {"span"},
    "q": {"cite"},
    "blockquote": {"cite"},
    "del": {"datetime"},
    "ins": {"datetime"},
    "pre": set(),
    # MathML (KaTeX)
    "math": {"xmlns", "display"},
    "annotation": {"encoding"},
    "mi": {"mathvariant"}, "mn": {"mathvariant"}, "mtext": {"mathvariant"},
    "mo": {"stretchy", "fence", "separator", "lspace", "rspace", "minsize", "maxsize", "symmetric",
           "largeop", "movablelimits", "accent", "mathvariant"},
    "mspace": {"width", "height", "depth"},
    "mpadded": {"width", "height", "depth", "lspace", "voffset"},
    "mfrac": {"linethickness"},
    "mstyle": {"scriptlevel", "displaystyle", "mathcolor", "mathsize", "mathbackground"},
    "menclose": {"notation"},
    "mover": {"accent"}, "munder": {"accentunder"}, "munderover": {"accent", "accentunder"},
    "mtable": {"rowspacing", "columnspacing", "columnalign", "rowalign", "columnlines", "rowlines", "frame",
               "framespacing", "equalrows", "equalcolumns", "side", "width"},
    "mtd": {"columnalign", "rowalign", "columnspan", "rowspan"},
    "mtr": {"columnalign", "rowalign"},
    # SVG (mermaid, KaTeX)
    "svg": {"xmlns", "width", "height", "viewBox", "preserveAspectRatio", "focusable"},
    "g": {"transform", "fill", "stroke"},
    "path": {"d", "transform", "fill", "stroke", "stroke-width", "marker-start", "marker-end", "fill-rule",
             "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "opacity"},
    "rect": {"name", "x", "y", "width", "height", "rx", "ry", "transform", "fill", "stroke", "stroke-width", "filter"},
    # (mermaid's state diagrams give their start and end circles a width and height, which SVG ignores)
    "circle": {"cx", "cy", "r", "width", "height", "transform", "fill", "stroke", "stroke-width"},
    "ellipse": {"cx", "cy", "rx", "ry", "transform", "fill", "stroke", "stroke-width"},
    "line": {"name", "x1", "y1", "x2", "y2", "transform", "stroke", "stroke-width", "marker-start", "marker-end",
             "stroke-dasharray"},
    "polyline": {"points", "transform", "fill", "stroke", "stroke-width"},
    "polygon": {"points", "transform", "fill", "stroke", "stroke-width"},
    "text": {"x", "y", "dx", "dy", "text-anchor", "dominant-baseline", "alignment-baseline", "transform",
             "font-size", "font-weight", "font-style", "font-family", "fill"},
    "tspan": {"x", "y", "dx", "dy", "text-anchor", "dominant-baseline", "alignment-baseline", "font-size",
              "font-weight", "font-style", "fill"},
    "marker": {"viewBox", "refX", "refY", "markerWidth", "markerHeight", "markerUnits", "orient"},
    "clipPath": {"clipPathUnits"},
    "linearGradient": {"x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform"},
    "radialGradient": {"cx", "cy", "r", "fx", "fy", "gradientUnits", "gradientTransform"},
    "stop": {"offset", "stop-color", "stop-opacity"},
    "filter": {"x", "y", "width", "height", "filterUnits"},
    "feDropShadow": {"dx", "dy", "stdDeviation", "flood-color", "flood-opacity"},
    "feGaussianBlur": {"in", "stdDeviation", "result"},
    "feOffset": {"in", "dx", "dy", "result"},
    "feBlend": {"in", "in2", "mode"},
    "feFlood": {"flood-color", "flood-opacity", "result"},
    "feComposite": {"in", "in2", "operator", "result"},
    "feMergeNode": {"in"},
    "foreignObject": {"x", "y", "width", "height", "transform"},
    "div": {"xmlns"},
    "symbol": {"viewBox", "width", "height", "fill-rule", "clip-rule"},
    "use": {"href", "x", "y", "width", "height"},
}
# `data-*` attributes the site's markup carries (mermaid's node ids and looks, KaTeX none); no
# `data-pagefind-*` (a post must not rewrite its own search record) and no `data-md-*` (Material's).
DATA_ATTRS = frozenset({"data-id", "data-look", "data-node", "data-et", "data-edge", "data-points",
                        "data-type", "data-from", "data-to", "data-tabs"})
URL_SCHEMES = frozenset({"http", "https", "mailto"})
URL_ATTRS = frozenset({"href", "src", "cite"})

STYLE_PROPERTIES = frozenset("""
background text-align vertical-align height width min-width max-width margin margin-left margin-right margin-top
margin-bottom padding padding-left padding-right top left bottom right position border-bottom-width
border-top-width border-right-width border-left-width border-style border-width border-color color
background-color display font-size font-weight font-style font-family line-height white-space
fill fill-opacity stroke stroke-width stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin
stroke-opacity opacity text-anchor dominant-baseline alignment-baseline marker-start marker-end
visibility cursor text-decoration letter-spacing overflow filter transform-origin
""".split())
UNSAFE_VALUE = re.compile(r"url\s*\((?!\s*['\"]?#[\w-]+['\"]?\s*\))|expression|\\|@|javascript:|[<>{}]|/\*", re.I)
SAFE_POSITION = frozenset({"relative", "absolute", "static"})


def _style(value: str) -> str | None:
    """A style attribute's value with only the declarations the site allows (None: nothing left)."""
    kept = []
    for decl in value.split(";"):
        if ":" not in decl:
            continue
        prop, _, val = decl.partition(":")
        prop, val = prop.strip().lower(), val.strip()
        if prop not in STYLE_PROPERTIES or not val or UNSAFE_VALUE.search(val):
            continue
        if prop == "position" and val.lower() not in SAFE_POSITION:
            continue
        kept.append(f"{prop}:{val}")
    return ";".join(kept) if kept else None


FRAGMENT = re.compile(r"#[\w.:-]*")


def _attribute_filter(tag: str, attr: str, value: str) -> str | None:
    if attr == "style":
        return _style(value)
    if tag == "use" and attr == "href":
        return value if FRAGMENT.fullmatch(value) else None     # a same-document reference only
    if tag == "input" and attr == "type":
        return value if value in ("checkbox", "radio") else None
    return value


_ATTRIBUTES = {"*": set(GLOBAL_ATTRS) | set(DATA_ATTRS), **{t: set(a) for t, a in ATTRS.items()}}


PAGE_CLEANER = nh3.Cleaner(tags=set(TAGS), clean_content_tags=set(DROP_WITH_CONTENT), attributes=_ATTRIBUTES,
                           attribute_filter=_attribute_filter, strip_comments=True, link_rel=None,
                           url_schemes=set(URL_SCHEMES))


def _nh3(html: str) -> str:
    return PAGE_CLEANER.clean(html)


# --- what was removed -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Removal:
    """Something the gate took out: an element (`attr` empty) or an attribute of one."""
    tag: str
    attr: str = ""
    value: str = ""

    def describe(self) -> str:
        if not self.attr:
            return f"<{self.tag}>"
        shown = self.value if len(self.value) <= 60 else self.value[:57] + "..."
        return f'<{self.tag} {self.attr}="{shown}">'

    @property
    def needle(self) -> str:
        """What to look for in the Markdown source to find where it came from."""
        return self.attr or f"<{self.tag}"


def _inventory(html: str) -> tuple[Counter, Counter]:
    tree = LexborHTMLParser("<body>" + html + "</body>")   # a fragment, as ammonia parses it
    body = tree.body
    tags, attrs = Counter(), Counter()
    if body is None:
        return tags, attrs
    for node in body.traverse(include_text=False):
        if node.tag in ("-comment", "_comment", "-text"):
            continue
        tags[node.tag] += 1
        for k, v in node.attributes.items():
            attrs[(node.tag, k, v or "")] += 1
    return tags, attrs


def removed(before: str, after: str) -> list[Removal]:
    """What `after` (the sanitized text) lacks of `before`: elements first, then attributes."""
    t0, a0 = _inventory(before)
    t1, a1 = _inventory(after)
    out = [Removal(tag) for tag in sorted(t0 - t1)]
    gone_tags = {r.tag for r in out}
    for (tag, attr, value) in sorted(a0 - a1):
        if tag in gone_tags and attr not in ("style",) and tag not in TAGS:
            continue            # the element itself is reported
        if attr == "style" and _style(value) == _normal_style(value):
            continue            # only re-serialised
        out.append(Removal(tag, attr, value))
    return out


def _normal_style(value: str) -> str | None:
    kept = [f"{p.strip().lower()}:{v.strip()}" for p, _, v in (d.partition(":") for d in value.split(";")) if v.strip()]
    return ";".join(kept) if kept else None


@dataclass
class Cleaned:
    html: str
    removed: list[Removal]


def clean(html: str) -> Cleaned:
    """`html` as the site may publish it, and what had to go."""
    out = _nh3(html)
    if out == html:
        return Cleaned(out, [])
    return Cleaned(out, removed(html, out))


def clean_text(html: str) -> str:
    """The sanitized text only (feeds, search records: the finding is the page's)."""
    return _nh3(html)


# --- a diagram's stylesheet -------------------------------------------------------------------------
SELECTOR = re.compile(r"[#.\w\s>:,()*+~\[\]=\"'-]+")


def clean_stylesheet(css: str) -> str:
    """A stylesheet rebuilt from its plain rules: selectors of names, classes, ids and combinators, and
    the declarations `_style` keeps; at-rules and anything else are dropped. The result has no `<`."""
    rules = []
    for prelude, body in blocks(css):
        if prelude.startswith("@") or not SELECTOR.fullmatch(prelude) or "<" in prelude:
            continue
        decls = _style(body.replace("!important", ""))
        important = "!important" in body
        if decls:
            if important:
                decls = ";".join(d + "!important" for d in decls.split(";"))
            rules.append(f"{prelude}{{{decls}}}")
    return "".join(rules)
