"""SEC001 against evasions, checked against what the site really renders.

The oracle (tests/support/htmloracle.py) renders a post body with the site's own Markdown configuration and
parses the HTML the way browsers do (html5lib). Every evasion (EVASIONS, tests/support/attacks.py) is first
shown to be live on the rendered page, then shown to be reported; the same text inside code spans, fences,
indented code and comments renders inert and is never reported. A hypothesis test mixes the pieces at
random: whatever renders live is reported.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.attacks import EVASIONS, PIECES, sec001
from support.htmloracle import live


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
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=14).map("".join))
def test_whatever_renders_live_is_reported(body):
    if live(body):
        assert sec001(body), (body, live(body))


@given(st.lists(st.sampled_from([p for p in PIECES if "~" not in p]), min_size=1, max_size=14).map("".join))
def test_nothing_in_a_fence_is_reported(body):
    text = f"~~~~~~~~~~\n{body}\n~~~~~~~~~~"
    assert not live(text) and sec001(text) == [], text
