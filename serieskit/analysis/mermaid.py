"""Read a mermaid fence the way the MER rules need it: the diagram type, every colour written in
it (with its position), theme switches, and the style classes it defines and uses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from serieskit.conventions import norm_hex
from serieskit.parse.syntax import Fence
from serieskit.model.site import Post

CSS_NAMED = frozenset("""aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue
darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid
darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink
deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold
goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush
lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey
lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime
limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin
navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise
palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue
saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow
springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen""".split())
NOT_COLOURS = frozenset({"none", "transparent", "currentcolor", "inherit", "initial", "unset"})
COLOUR_KEYS = frozenset({"fill", "stroke", "color", "background", "background-color", "border-color",
                         "outline-color", "stop-color", "flood-color", "lighting-color"})
PROP = re.compile(r"(?P<key>[A-Za-z-]+)\s*:\s*(?P<val>(?:rgba?|hsla?)\([^)]*\)|[^,;]+)")
FUNC_COLOUR = re.compile(r"(?:rgba?|hsla?)\([^)]*\)", re.I)
HEX = re.compile(r"#[0-9A-Fa-f]{3,8}\b")
THEME = re.compile(r"""["']?\btheme["']?\s*:\s*["']?(?P<theme>[A-Za-z_-]+)""")
STYLE_LINE = re.compile(r"^\s*(?P<kw>style|classDef|linkStyle)\s+(?P<target>\S+)\s+(?P<props>.*?);?\s*$")
CLASS_LINE = re.compile(r"^\s*class\s+(?P<ids>[^\s][^\n]*?)\s+(?P<name>[A-Za-z_][\w-]*)\s*;?\s*$")
TRIPLE = re.compile(r":::(?P<name>[A-Za-z_][\w-]*)")
SEQ_RECT = re.compile(r"^\s*(?P<kw>rect|box)\s+(?P<rest>.*)$")
IMPORTANT = re.compile(r"\s*!important$")
COLOUR_VALUE = re.compile(r"""["']?(?P<key>[A-Za-z]*(?:[Cc]olor|Bkg|Background|[Ff]ill|[Ss]troke)[A-Za-z]*)["']?\s*:\s*["']?(?P<val>[A-Za-z]+)\b""")


@dataclass
class Colour:
    line: int
    col: int
    text: str
    context: str


@dataclass
class Diagram:
    fence: Fence
    kind: str = ""
    kind_line: int = 0
    colours: list[Colour] = field(default_factory=list)
    themes: list[tuple[int, int, str]] = field(default_factory=list)   # (line, col, theme)
    defined: set[str] = field(default_factory=set)
    used: list[tuple[int, int, str]] = field(default_factory=list)     # (line, col, class name)
    lines: list[int] = field(default_factory=list)


def _colour_kind(text: str) -> str:
    t = text.strip().lower()
    if t.startswith("#"):
        return "hex"
    if FUNC_COLOUR.fullmatch(t):
        return "func"
    if t in CSS_NAMED:
        return "named"
    return ""


def _props(diagram: Diagram, ln: int, raw: str, start: int, props: str, context: str):
    for m in PROP.finditer(props):
        key = m.group("key").lower()
        if key not in COLOUR_KEYS:
            continue
        val = m.group("val").strip()
        if not val or val.lower() in NOT_COLOURS:
            continue
        vcol = start + m.start("val") + (len(m.group("val")) - len(m.group("val").lstrip())) + 1
        diagram.colours.append(Colour(ln, vcol, IMPORTANT.sub("", val), context))


def analyse(post: Post, fence: Fence) -> Diagram:
    """What a mermaid fence of the post holds: its lines, colours, themes, classes."""
    return post.memo("mermaid", fence.start, lambda: _analyse(post, fence))


def _analyse(post: Post, fence: Fence) -> Diagram:
    d = Diagram(fence)
    end = fence.end if fence.end is not None else post.nlines + 1
    d.lines = list(range(fence.start + 1, end))
    in_fm = False
    fm_done = False
    for ln in d.lines:
        raw = post.line(ln)
        s = raw.strip()
        if not fm_done and not in_fm and s == "---" and not d.kind:
            in_fm = True
            continue
        if in_fm:
            if s == "---":
                in_fm, fm_done = False, True
                continue
            _config_line(d, ln, raw)
            continue
        if s.startswith("%%{"):
            _config_line(d, ln, raw)
            continue
        if not s or s.startswith("%%"):
            continue
        if not d.kind:
            d.kind = s.split()[0].rstrip(":;")
            d.kind_line = ln
            continue
        code = raw.split("%%", 1)[0]
        m = STYLE_LINE.match(code)
        if m:
            if m.group("kw") == "classDef":
                d.defined.update(n.strip() for n in m.group("target").split(",") if n.strip())
            _props(d, ln, raw, m.start("props"), m.group("props"), m.group("kw"))
            continue
        if d.kind in ("sequenceDiagram",):
            sm = SEQ_RECT.match(code)
            if sm:
                rest = sm.group("rest")
                start = sm.start("rest")
                fm_ = FUNC_COLOUR.match(rest) or HEX.match(rest)
                if fm_:
                    d.colours.append(Colour(ln, start + 1, fm_.group(0), sm.group("kw")))
                else:
                    word = rest.split()[0] if rest.split() else ""
                    if word.lower() in CSS_NAMED:
                        d.colours.append(Colour(ln, start + 1, word, sm.group("kw")))
                continue
        if d.kind in ("flowchart", "graph", "stateDiagram", "stateDiagram-v2"):
            cm = CLASS_LINE.match(code)
            if cm:
                d.used.append((ln, cm.start("name") + 1, cm.group("name")))
                continue
        for tm in TRIPLE.finditer(code):
            d.used.append((ln, tm.start("name") + 1, tm.group("name")))
    return d


def _config_line(d: Diagram, ln: int, raw: str):
    """A line of diagram frontmatter or of an %%{init}%% directive: themes and colour values."""
    for tm in THEME.finditer(raw):
        d.themes.append((ln, tm.start("theme") + 1, tm.group("theme")))
    for hm in HEX.finditer(raw):
        d.colours.append(Colour(ln, hm.start() + 1, hm.group(0), "themeVariables"))
    for fm in FUNC_COLOUR.finditer(raw):
        d.colours.append(Colour(ln, fm.start() + 1, fm.group(0), "themeVariables"))
    # named colours as values of colour-ish keys: `primaryColor: red`, "lineColor": "teal"
    for km in COLOUR_VALUE.finditer(raw):
        if km.group("val").lower() in CSS_NAMED:
            d.colours.append(Colour(ln, km.start("val") + 1, km.group("val"), "themeVariables"))


def outside_palette(colour: str, allowed: frozenset[str]) -> bool:
    kind = _colour_kind(colour)
    if kind == "hex":
        n = norm_hex(colour)
        return n is None or n not in allowed
    if kind in ("func", "named"):
        return True
    return False


def mermaid_fences(post: Post):
    return [f for f in post.body.fences if f.lang == "mermaid"]
