"""The site's Markdown extension (serieskit/publish/mdext.py): a rendered post's tooltip marks become <abbr>
elements with their titles from the post's last line, which never reaches the page; a hostile title
stays text; a page without the line is converted as it is."""
from __future__ import annotations

import markdown

from serieskit import sanitize

from serieskit.render.post import TIP_BASE, TIP_CLOSE, TIP_OPEN, tooltip_table


def convert(text: str) -> str:
    return markdown.Markdown(extensions=["serieskit.publish.mdext", "tables"]).convert(text)


def mark(k: int, term: str) -> str:
    return TIP_OPEN + chr(TIP_BASE + k) + term + TIP_CLOSE


def test_marks_become_abbr_elements_and_the_table_line_is_gone():
    text = f"用 {mark(0, 'KV cache')} 与 {mark(1, 'TTFT')}。\n\n" + tooltip_table(["键值缓存", "首字延迟"]) + "\n"
    out = convert(text)
    assert out == ('<p>用 <abbr class="series-term" title="键值缓存">KV cache</abbr> 与 '
                   '<abbr class="series-term" title="首字延迟">TTFT</abbr>。</p>')


def test_a_hostile_title_is_text_and_cannot_end_the_comment():
    title = '--> <script>alert(1)</script> "x'
    line = tooltip_table([title])
    assert line.count("-->") == 1 and line.endswith("-->")
    out = convert(f"{mark(0, 'A')}\n\n{line}\n")
    assert "<script>" not in out and "&lt;script&gt;" in out and "&quot;x" in out


def test_the_last_block_ends_where_it_did_without_the_line():
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert convert(table + "\n" + tooltip_table([]) + "\n") == convert(table)


def test_a_page_without_the_line_is_converted_as_it_is_through_the_gate():
    """No tooltips to add; the output gate still applies (it drops comments, as every page's)."""
    text = "正文\n\n<!-- 普通注释 -->\n"
    plain = markdown.Markdown(extensions=["tables"]).convert(text)
    assert convert(text) == sanitize.clean(plain).html.strip() and "注释" not in convert(text)
