"""The output gate (serieskit/sanitize/) against what Python-Markdown actually writes, and against
SEC001's reading of the source: whatever SEC001 misses, nothing active reaches a page, and what the gate
removes is reported.

The classes of the attack on the rendered output (ATTACKS, tests/support/attacks.py; issue "secure on the
rendered output"): markup that the engine's parser and Python-Markdown read differently (indented
containers, continuations, a raw HTML block over a blank line, a fence opened inside a quote), attribute
tricks (`>` inside a quoted value), SVG animation, attributes on a mermaid fence's opening line, raw
`<style>`, `style=` overlays, `<meta http-equiv=refresh>`, Pagefind attributes that rewrite the search
record.
"""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from support.attacks import ATTACKS, EVASIONS, PIECES, sec001
from support.htmloracle import active, render
from serieskit import sanitize

LOADS = re.compile(r'<(?:link|meta|base|form|style|set|animate\w*)\b|\bstyle="[^"]*(?:url\(|position:\s*fixed)|data-pagefind', re.I)


def harmful(html: str) -> list[str]:
    """What runs (html5lib's reading: htmloracle.active), loads from elsewhere, restyles the page or
    rewrites the search record."""
    return active(html) + LOADS.findall(html)


def test_every_attack_is_live_before_the_gate_and_gone_after_it():
    counts = {"cases": 0, "live before": 0, "SEC001 misses": 0, "live after": 0, "unreported": 0}
    for name, body in ATTACKS + [(i, b) for i, b, _ in EVASIONS]:
        raw = render(body)
        cleaned = sanitize.clean(raw)
        counts["cases"] += 1
        assert harmful(raw), f"{name}: renders harmless, the case proves nothing"
        counts["live before"] += 1
        counts["SEC001 misses"] += not sec001(body)
        counts["live after"] += bool(harmful(cleaned.html))
        counts["unreported"] += not cleaned.removed
    print("\noutput gate:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    assert counts["live after"] == 0 and counts["unreported"] == 0, counts


def test_the_sites_own_markup_passes_untouched():
    """What the site's extensions write for ordinary Markdown is on the allow-list: nothing reported."""
    body = "\n\n".join([
        "# 标题", "段落 **粗** *斜* `代码` [链接](x.md){: .cls title=t } ![图](a.png)", "| a | b |\n|:-|-:|\n| 1 | 2 |",
        "!!! note \"说明\"\n    提示", "??? tip \"折叠\"\n    内容", '=== "甲"\n    一\n=== "乙"\n    二',
        "- [x] 完成\n- [ ] 未完成", "术语\n:   定义", "正文[^1]\n\n[^1]: 注释", "```python\nprint(1)\n```",
        "```mermaid\nflowchart LR\n  A --> B\n```", "$$a+b$$ 与 $c$", "*[HTML]: Hyper Text", "> 引用\n\n---",
        "<details><summary>摘要</summary>内容</details>", "<kbd>Ctrl</kbd><sup>1</sup><sub>2</sub><br>",
    ])
    assert sanitize.clean(render(body)).removed == []


def test_what_mermaid_draws_for_a_state_diagram_passes_untouched():
    """A state diagram's start and end circles carry `width` and `height` (inert on a circle): the
    drawing keeps them, and the author is not told of markup they did not write."""
    svg = ('<div class="mermaid"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><g class="node default">'
           '<circle class="state-start" r="7" width="14" height="14" cx="7" cy="7"></circle></g></svg></div>')
    assert sanitize.clean(svg).removed == []


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=14).map("".join))
def test_differential_the_gate_catches_whatever_sec001_misses(body):
    """Over generated snippets: if the raw rendering is live, the gate reports and removes it — whether
    or not SEC001 saw it in the source."""
    raw = render(body)
    cleaned = sanitize.clean(raw)
    assert not active(cleaned.html), (body, cleaned.html)
    if active(raw):
        assert cleaned.removed, body
