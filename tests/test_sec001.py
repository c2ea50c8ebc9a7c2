"""SEC001 against evasions, checked against what the site really renders.

The oracle (tests/support/htmloracle.py) renders a post body with the site's own Markdown configuration and
parses the HTML the way browsers do (html5lib). Every evasion below is first shown to be live on the
rendered page, then shown to be reported; the same text inside code spans, fences, indented code and
comments renders inert and is never reported. A hypothesis test mixes the pieces at random: whatever
renders live is reported.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.htmloracle import live
from serieskit.model.site import Post
from serieskit.lint.rules import REGISTRY

HEAD = "---\ntitle: t\nslug: x\ndate: 2026-05-08\n---\n\n"
OFFSET = HEAD.count("\n")
SEC001 = REGISTRY["SEC001"]


def sec001(body: str, tmp: Path = Path("/nonexistent")) -> list[tuple[int, int]]:
    """(line, column) of SEC001's findings on `body`, lines counted from the body's first line."""
    root = tmp
    path = root / "series" / "solo" / "x.md"
    post = Post(root, path, (HEAD + body + "\n").encode("utf-8"))
    return [(h.line - OFFSET, h.column) for h in SEC001.check(post, None)]


# (id, body, line SEC001 must report) — each one renders live on the site
EVASIONS = [
    ("upper-case script", "<SCRIPT>alert(1)</SCRIPT>", 1),
    ("mixed-case script", "<ScRiPt src=x.js></sCrIpT>", 1),
    ("script with slash", "<script/src=x.js></script>", 1),
    ("script split across lines", "<script\n  src=x.js></script>", 1),
    ("script tag closed on the next line", "<script\n>alert(1)</script>", 1),
    ("svg script", "<svg><script>alert(1)</script></svg>", 1),
    ("mixed-case iframe", "<IfRaMe src=https://example.com></iframe>", 1),
    ("object", '<object data="x.swf"></object>', 1),
    ("embed", "<embed src=x.swf>", 1),
    ("img onerror", "<img src=x onerror=alert(1)>", 1),
    ("upper-case handler", "<img src=x ONERROR=alert(1)>", 1),
    ("svg onload", "<svg onload=alert(1)>", 1),
    ("details ontoggle", "<details open ontoggle=alert(1)>x</details>", 1),
    ("handler after slash", "<p/onclick=alert(1)>x</p>", 1),
    ("handler on the next line", "<div\n  onmouseover=alert(1)>x</div>", 2),
    ("handler with spaces around =", '<a href=x onclick = "alert(1)">x</a>', 1),
    ("handler on a markdown link (attr list)", '[a](x.md){: onclick="alert(1)" }', 1),
    ("handler in a table cell", "| a | <b onclick=x>b</b> |\n|---|---|\n| 1 | 2 |", 1),
    ("handler in a heading", "## <img src=x onerror=y>", 1),
    ("handler in an admonition", "!!! note\n    <img src=x onerror=y>", 2),
    ("handler in a footnote", "x[^1]\n\n[^1]: <img src=x onerror=y>", 3),
    ("handler after an empty comment <!-->", "<!--> <img src=x onerror=alert(1)> -->", 1),
    ("script after a comment closed by --!>", "<!-- x --!> <script>alert(1)</script> -->", 1),
    ("backticks inside a raw HTML block are no code span", '<p title="`"><img src=x onerror=y>`</p>', 1),
    ("raw HTML block runs past blank lines", "<div>\n\n`<img src=x onerror=y>`\n\n</div>", 3),
    ("markdown link", "[a](javascript:alert(1))", 1),
    ("markdown link, mixed case", "[a](JaVaScRiPt:alert(1))", 1),
    ("markdown link in angle brackets", "[a]( <javascript:alert(1)> )", 1),
    ("reference definition", "[a]: javascript:alert(1)\n\n[x][a]", 1),
    ("href via attr list", '[a](x.md){: href="javascript:alert(1)" }', 1),
    ("src via attr list", '![i](x.svg){: src="javascript:alert(1)" }', 1),
    ("unquoted href", "<a href=javascript:alert(1)>x</a>", 1),
    ("decimal entity", '<a href="&#106;avascript:alert(1)">x</a>', 1),
    ("decimal entity without ;", '<a href="&#106avascript:alert(1)">x</a>', 1),
    ("padded decimal entity without ;", '<a href="&#0000106avascript:alert(1)">x</a>', 1),
    ("hex entities", '<a href="&#x6a;avascript&#x3a;alert(1)">x</a>', 1),
    ("upper-case hex entity", '<a href="&#X6A;avascript:alert(1)">x</a>', 1),
    ("colon as &colon;", '<a href="javascript&colon;alert(1)">x</a>', 1),
    ("colon as &#58 without ;", '<a href="javascript&#58alert(1)">x</a>', 1),
    ("entity inside the word", '<a href="javas&#99;ript:alert(1)">x</a>', 1),
    ("encoded tab inside", '<a href="java&#x09;script:alert(1)">x</a>', 1),
    ("&Tab; inside", '<a href="java&Tab;script:alert(1)">x</a>', 1),
    ("encoded newline inside", '<a href="jav&#x0A;ascript:alert(1)">x</a>', 1),
    ("newline inside", '<a href="java\nscript:alert(1)">x</a>', 1),
    ("leading space and encoded control", '<a href=" &#14;javascript:alert(1)">x</a>', 1),
    ("leading &NewLine;", '<a href="&NewLine;javascript:alert(1)">x</a>', 1),
    ("markdown link with entity", "[a](&#106;avascript:alert(1))", 1),
    ("markdown link with encoded tab", "[a](java&#x09;script:alert(1))", 1),
    ("svg xlink:href", '<svg><a xlink:href="javascript:alert(1)">x</a></svg>', 1),
    ("math href", '<math><a href="javascript:alert(1)">x</a></math>', 1),
    ("formaction", '<form><button formaction="javascript:alert(1)">x</button></form>', 1),
    ("vbscript", '<a href="vbscript:msgbox(1)">x</a>', 1),
    ("data:text/html", '<a href="data:text/html,<script>alert(1)</script>">x</a>', 1),
    ("inside md_in_html", '<div markdown="1">\n<a href="javascript:alert(1)">y</a>\n</div>', 2),
    ("after a code span on the line", "`a` <img src=x onerror=y>", 1),
]


@pytest.mark.parametrize("body,line", [(b, n) for _, b, n in EVASIONS], ids=[i for i, _, _ in EVASIONS])
def test_evasion_is_live_on_the_page_and_reported(body, line):
    assert live(body), "not live on the rendered page: the case proves nothing"
    assert line in [ln for ln, _ in sec001(body)], sec001(body)


def _code_span(s: str) -> str:
    ticks = "`" * (max([0] + [len(run) for run in re.findall(r"`+", s)]) + 1)
    return f"文字 {ticks} {s} {ticks} 文字"


WRAPS = {
    "code span": lambda s: _code_span(s),
    "backtick fence": lambda s: f"```html\n{s}\n```",
    "tilde fence": lambda s: f"~~~\n{s}\n~~~",
    "long fence": lambda s: f"`````\n{s}\n`````",
    "indented code": lambda s: "段落。\n\n" + "\n".join("    " + l for l in s.split("\n")),
    "fence in a quote": lambda s: "> ```\n" + "\n".join("> " + l for l in s.split("\n")) + "\n> ```",
    "fence in a list": lambda s: "- 项目\n\n    ```\n" + "\n".join("    " + l for l in s.split("\n")) + "\n    ```",
    "fence in a raw HTML block": lambda s: f"<div>\n```\n{s}\n```\n</div>",
    "HTML comment": lambda s: f"<!-- {s} -->",
}
SINGLE_LINE = [(i, b) for i, b, _ in EVASIONS if "\n" not in b and "-->" not in b and "<!--" not in b]
ANY = [(i, b) for i, b, _ in EVASIONS if "-->" not in b and "<!--" not in b and "`" not in b and "```" not in b]


def test_a_code_span_over_several_lines_of_a_paragraph_is_code():
    """Python-Markdown renders a code span across the lines of one paragraph; a blank line ends it."""
    text = "见 `<img\nsrc=x onerror=y>` 与 ``<script\n>alert(1)</script>`` 两段代码。"
    assert not live(text) and sec001(text) == []
    text = "不闭合的反引号 ` <b onclick=x>y</b>\n\n另一段 ` 结束"
    assert live(text) and sec001(text) == [(1, 14)]


def test_a_comment_that_never_closes_is_no_comment():
    """Python-Markdown prints an unclosed `<!--` as text: what follows is live (an inline one must close
    within its paragraph), so it is checked; a comment that does close, even past blank lines, is inert."""
    for text, line in [("<!--\n<script>alert(1)</script>", 2), ("文字 <!-- 注释\n\n<img src=x onerror=y>\n\n-->", 3)]:
        assert live(text) and line in [ln for ln, _ in sec001(text)], text
    text = "<!-- 注释\n\n<img src=x onerror=y>\n\n-->\n\n正文"
    assert not live(text) and sec001(text) == []


@pytest.mark.parametrize("wrap", list(WRAPS))
def test_the_same_text_in_code_or_comments_is_inert_and_not_reported(wrap):
    cases = SINGLE_LINE if wrap in ("code span", "HTML comment") else ANY
    for name, body in cases:
        if wrap == "HTML comment" and "--" in body:
            continue
        text = WRAPS[wrap](body)
        assert not live(text), (name, text)
        assert sec001(text) == [], (name, text, sec001(text))


# --- random mixtures: whatever renders live is reported ---------------------------------------------------
PIECES = ["<script>", "</script>", "<SCRIPT src=x>", "<scr", "ipt>", "<img src=x onerror=y>", "<svg onload=x>",
          "<a href=\"", "<a href=", "javascript:", "java", "script:", "&#106", "&#106;", "&#x6a;", "&#58", "&colon;",
          "&Tab;", "&#9;", "\t", "\n", "\n\n", " ", "<!--", "-->", "<!-->", "--!>", "`", "``", "```", "~~~", "    ",
          "<div>", "</div>", '<div markdown="1">', '<p title="', '">', "[a](", ")", "[a]: ", "{: onclick=x }",
          "> ", "- ", "<iframe>", "x", '"', "'", ">", "<", "alert(1)", "onclick=", " on", "error=", "<p", "/"]


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=14).map("".join))
def test_whatever_renders_live_is_reported(body):
    if live(body):
        assert sec001(body), (body, live(body))


@given(st.lists(st.sampled_from([p for p in PIECES if "~" not in p]), min_size=1, max_size=14).map("".join))
def test_nothing_in_a_fence_is_reported(body):
    text = f"~~~~~~~~~~\n{body}\n~~~~~~~~~~"
    assert not live(text) and sec001(text) == [], text
