"""The attacks the security tests share: SEC001's evasions of the source reading (`EVASIONS`, each live on the
rendered page), the pieces the random mixtures are made of (`PIECES`), the attacks on the rendered output
(`ATTACKS`), and `sec001`, SEC001's findings on a post body. Used by tests/test_sec001.py,
tests/test_output_gate.py and tests/test_attack_corpus_browser.py."""
from __future__ import annotations

from pathlib import Path

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

# what the random mixtures of SEC001 and the output gate are made of
PIECES = ["<script>", "</script>", "<SCRIPT src=x>", "<scr", "ipt>", "<img src=x onerror=y>", "<svg onload=x>",
          "<a href=\"", "<a href=", "javascript:", "java", "script:", "&#106", "&#106;", "&#x6a;", "&#58", "&colon;",
          "&Tab;", "&#9;", "\t", "\n", "\n\n", " ", "<!--", "-->", "<!-->", "--!>", "`", "``", "```", "~~~", "    ",
          "<div>", "</div>", '<div markdown="1">', '<p title="', '">', "[a](", ")", "[a]: ", "{: onclick=x }",
          "> ", "- ", "<iframe>", "x", '"', "'", ">", "<", "alert(1)", "onclick=", " on", "error=", "<p", "/"]

# (id, body) — each renders into something a reader's browser would run, load or show as the site's
ATTACKS = [
    ("script indented in an admonition", '!!! note "说明"\n\n    <script src="../assets/helper.js"></script>'),
    ("script indented in details", '??? note "展开"\n\n    <script src="x.js"></script>'),
    ("script indented in a tab", '=== "甲"\n\n    <script src="x.js"></script>'),
    ("script in a footnote continuation", "正文[^1]\n\n[^1]: 注释\n\n    <script src=x.js></script>"),
    ("script in a definition continuation", "术语\n:   定义\n\n    <script src=x.js></script>"),
    ("raw HTML block over a blank line", "<div>\n\n<script>alert(1)</script>\n\n</div>"),
    ("a > inside a quoted value", "<img alt='>' src=x onerror=alert(1)>"),
    ("svg set", '<svg><set attributeName="href" to="javascript:alert(1)"/></svg>'),
    ("svg animate", '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>'),
    ("attributes on a mermaid fence", '``` { .mermaid onclick="alert(1)" }\nflowchart LR\n  A --> B\n```'),
    ("a fence opened inside a quote", "> ```\n> x\n\n<img src=x onerror=alert(1)>"),
    ("raw style", "<style>body { display: none }</style>"),
    ("style overlay", '<p style="position:fixed;inset:0;z-index:99;background:#fff">覆盖</p>'),
    ("style url", '<span style="background:url(https://example.org/track.png)">x</span>'),
    ("meta refresh", '<meta http-equiv="refresh" content="0;url=https://example.org/">'),
    ("pagefind title", '<span data-pagefind-meta="title:假标题">x</span>'),
    ("pagefind ignore", '<div data-pagefind-ignore="all">正文</div>'),
    ("form", '<form action="https://example.org/"><input name=q></form>'),
    ("base", '<base href="https://example.org/">'),
    ("link", '<link rel="stylesheet" href="https://example.org/x.css">'),
]
