"""Turn a parsed post into the Markdown the site renders: the conventions' mechanical parts become
markup (sister block, timeliness notice, <figure>/<figcaption>, palette classes in diagrams, glossary
tooltips, the glossary table). Plain Python over the one parsed `Post`; the project's build (serieskit/pipeline/project.py) calls it
for both hosts.

The output needs the Markdown extensions `md_in_html` and `attr_list`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from serieskit.analysis.figures import figures
from serieskit.analysis.lead import QUOTE_PREFIX, banner, sister_line
from serieskit.parse.syntax import MAX_NESTING
from serieskit.analysis.mermaid import analyse, mermaid_fences
from serieskit.model.site import GlossaryEntry, Post, Site
from serieskit.markup import Markup, html, join, md_text
from serieskit.analysis.prose import eligible, link_spans

GLOSSARY_PLACEHOLDER = "<!-- glossary-table -->"


@dataclass
class Rendered:
    markdown: str
    glossary_terms: list[str] = field(default_factory=list)   # terms that got a tooltip
    stale_days: int | None = None
    tooltips: list[str] = field(default_factory=list)         # titles of the marked terms (see apply_tooltips)


# Glossary tooltips travel through Markdown as marked plain text, `TIP_OPEN + chr(TIP_BASE + k) +
# term + TIP_CLOSE` (private-use characters, no word characters), and become
# `<abbr class="series-term" title="...">term</abbr>` in the HTML (apply_tooltips, called by the
# Markdown extension serieskit/publish/mdext.py on each post's HTML). Python-Markdown's inline processing costs more per post when each tooltip is
# written as raw <abbr> tags (the 性能 page's history has the figure); the HTML is the same (tests/test_fast_paths.py builds both).
TIP_OPEN, TIP_CLOSE, TIP_BASE, TIP_MAX = "\ue000", "\ue001", 0xE100, 0xF00
TIP_MARK = re.compile("\ue000([\ue100-\uefff])(.*?)\ue001", re.S)
# The titles travel on the rendered post's last line, read and removed by the Markdown extension
# (serieskit/publish/mdext.py) before the conversion; every rendered post ends with one, so an author's own
# comment of that shape is never taken for it.
TOOLTIP_TABLE = re.compile(r"<!-- series-tooltips (\[.*\]) -->")


def tooltip_table(titles: list[str]) -> str:
    """The line that carries a post's tooltip titles: JSON inside an HTML comment, with no `-`
    written as itself, so no title can end the comment."""
    data = json.dumps(titles, ensure_ascii=True).replace("-", "\\u002d")
    return f"<!-- series-tooltips {data} -->"


def apply_tooltips(html_text: str, tooltips: list[str]) -> str:
    """Turn the tooltip marks of a rendered post into <abbr> elements."""
    if not tooltips or TIP_OPEN not in html_text:
        return html_text

    def abbr(m: re.Match) -> str:
        k = ord(m.group(1)) - TIP_BASE
        if k >= len(tooltips):
            return m.group(0)
        return html('<abbr class="series-term" title="{}">{}</abbr>', tooltips[k], Markup(m.group(2)))
    return TIP_MARK.sub(abbr, html_text)


# --- glossary matching ------------------------------------------------------------------------------
class GlossaryMatcher:
    """One compiled regex over every surface form of a series' glossary, longest first."""

    def __init__(self, entries: list[GlossaryEntry]):
        self.entries = entries
        forms: dict[str, GlossaryEntry] = {}
        for e in entries:
            for f in [e.term, *e.aliases]:
                forms.setdefault(f, e)
            if e.abbr and len(e.abbr) >= 2:
                forms.setdefault(e.abbr, e)
        self.forms = forms
        self.lower = {f.lower(): e for f, e in forms.items() if _ascii_ci(f)}
        parts = []
        for f in sorted(forms, key=len, reverse=True):
            # A form starting with a letter or digit must not continue a word: the check is written
            # after the form's first character, `X(?<![A-Za-z0-9_].)`, which means the same as
            # `(?<![A-Za-z0-9_])X` but lets the regex engine skip ahead by the first character
            # (the 性能 page has the figure; tests/test_fast_paths.py compares the two).
            ci = _ascii_ci(f)
            first, rest = re.escape(f[0]), re.escape(f[1:])
            if ci:
                first, rest = f"(?i:{first})", (f"(?i:{rest})" if rest else "")
            p = first + (r"(?<![A-Za-z0-9_].)" if re.match(r"[A-Za-z0-9]", f) else "") + rest
            if re.search(r"[A-Za-z0-9]$", f):
                p = p + r"(?![A-Za-z0-9_])"
            parts.append(p)
        self.regex = re.compile("|".join(parts)) if parts else None

    def entry(self, text: str) -> GlossaryEntry | None:
        return self.forms.get(text) or self.lower.get(text.lower())


def _ascii_ci(form: str) -> bool:
    """Multi-word or mixed-case ASCII terms match case-insensitively; all-caps abbreviations do not."""
    return form.isascii() and not form.isupper() and any(c.isalpha() for c in form)


def tooltip(e: GlossaryEntry) -> str:
    name = e.en + (f"（{e.abbr}）" if e.abbr and e.abbr != e.en else "") if e.en else e.abbr
    return f"{name}：{e.desc}" if name else e.desc


def glossary_table(site: Site, post: Post, entries: list[GlossaryEntry]) -> list[str]:
    rows = ["| 术语 | English | 缩写 | 解释 | 详见 |", "|---|---|---|---|---|"]
    for e in entries:
        see = ""
        if e.post:
            target = next((p for p in site.by_slug.get(e.post, []) if p.series_slug == post.series_slug), None)
            if target is not None and target is not post and not target.is_draft:
                see = f"[{md_text(target.short_title)}]({site.rel_link(post, target.site_path)})"
            elif target is post:
                see = "本文"
        cells = [e.term, e.en, e.abbr, e.desc, see]
        rows.append("| " + " | ".join([*(md_text(c) for c in cells[:4]), see]) + " |")
    return rows


# --- the transform ----------------------------------------------------------------------------------
class LineMap:
    """The post's body lines as the renderer rewrites them: a block of raw lines replaced by new
    lines (`block`), a line replaced (`replace`), the lines a block swallowed (`drop`)."""

    def __init__(self, post: Post):
        self.first, self.last = post.body_start, post.nlines
        self.lines: dict[int, str] = {n: post.line(n) for n in range(self.first, self.last + 1)}
        self.replace: dict[int, list[str]] = {}   # raw line -> replacement lines
        self.drop: set[int] = set()

    def block(self, start: int, end: int, new: list[str]) -> None:
        """Lines start..end become `new`, set apart by blank lines (an HTML block of its own)."""
        self.replace[start] = ["", *new, ""]
        self.drop.update(range(start + 1, end + 1))

    def taken(self) -> set[int]:
        """Lines already rewritten by a transform."""
        return set(self.replace) | self.drop

    def markdown(self) -> str:
        result: list[str] = []
        for n in range(self.first, self.last + 1):
            if n in self.drop:
                continue
            result.extend(self.replace[n] if n in self.replace else [self.lines[n]])
        return "\n".join(result) + "\n"


def render_post(post: Post, site: Site, include_drafts: bool = False,
                matchers: dict[str, GlossaryMatcher] | None = None) -> Rendered:
    """The post's body as the Markdown MkDocs renders: each transform rewrites its lines of one map.
    `matchers`: the glossary matchers by series slug, kept by the caller across the posts of one
    build (compiled on first use; each call compiles its own without)."""
    series = site.series_of(post)
    out = Rendered("")
    m = LineMap(post)
    if series is not None:
        _sister_nav(m, post, site, include_drafts)
        _banner_notice(m, post, site, out)
    _figures(m, post)
    _mermaid_classes(m, post, site.conv)
    _too_deep(m, post)
    entries = series.glossary if series else []
    _glossary_table(m, post, site, entries)
    if entries:      # glossary tooltips on each term's first occurrence, in prose only
        gm = matchers.get(series.slug) if matchers is not None else None
        if gm is None:
            gm = GlossaryMatcher(entries)
            if matchers is not None:
                matchers[series.slug] = gm
        tips, out.glossary_terms, out.tooltips = _tooltips(post, gm, m.taken())
        m.lines.update(tips)
    out.markdown = m.markdown() + "\n" + tooltip_table(out.tooltips) + "\n"
    return out


def _sister_nav(m: LineMap, post: Post, site: Site, include_drafts: bool) -> None:
    """The sister line -> <nav class="series-sister">."""
    sl = sister_line(post, site.conv)
    if sl is None or not sl.items:
        return
    parts = []
    for item in sl.items:
        if item.kind == "link":
            kind, target = site.resolve(post, item.href)
            tp = site.post_at(target) if kind == "page" else None
            if tp is not None and tp.is_draft and not include_drafts:
                parts.append(html('<span class="series-planned">{}</span>', item.label))
                continue
            note = html('<span class="series-sister__note">{}</span>', item.note) if item.note else ""
            # the author's own Markdown link, as written in the post (SEC001 lints it)
            parts.append(Markup(f"[{item.label}]({item.href})") + note)
        else:
            badge = Markup('<span class="series-badge">在做</span>') if item.marked else ""
            parts.append(html('<span class="series-planned">{}{}</span>', item.label, badge))
    sep = ' <span class="series-sister__sep" aria-hidden="true">·</span> '
    end = max(i.end_line or i.line for i in sl.items)
    m.block(sl.line, end, [html('<nav class="series-sister" aria-label="姊妹篇" markdown="span">'
                                '<span class="series-sister__label">姊妹篇</span> {}</nav>', join(sep, parts))])


def _banner_notice(m: LineMap, post: Post, site: Site, out: Rendered) -> None:
    """The timeliness banner -> a notice, "可能已过时" when stale."""
    b = banner(post, site.conv)
    if b is None:
        return
    end = b.line
    while end + 1 <= post.nlines and post.prose(end + 1).strip() and QUOTE_PREFIX.sub("", post.prose(end + 1)).strip() \
            and end + 1 not in post.body.in_code and not post.prose(end + 1).lstrip().startswith("#"):
        end += 1
    text = " ".join(QUOTE_PREFIX.sub("", post.line(n), count=1).strip() for n in range(b.line, end + 1))
    st = site.staleness(post)      # the one decision TML003 takes too
    stale = st is not None and st.stale
    cls = "series-banner series-banner--stale" if stale else "series-banner"
    extra = ""
    if stale:
        out.stale_days = st.age
        extra = html('<strong class="series-banner__stale">可能已过时：本文最后更新于 {}，'
                     '距今已超过 {} 天，部分内容可能已经变化。</strong><br>', st.last.isoformat(), st.window)
    # the banner's text is the author's Markdown, rendered as such (markdown="span")
    m.block(b.line, end, [html('<div class="{}" role="note" markdown="span">{}{}</div>', cls, extra, Markup(text))])


def _figures(m: LineMap, post: Post) -> None:
    """Figures -> <figure> with <figcaption>."""
    for fig in figures(post):
        if fig.caption is None or fig.image.line in m.drop:
            continue
        img_line = post.line(fig.image.line)
        img_md = img_line[:fig.image.close_col - 1].strip()
        cap = post.line(fig.caption_line).strip()
        # the image and the caption are the author's Markdown, rendered as such
        m.block(fig.image.line, fig.caption_line, [
            '<figure class="series-figure" markdown="span">', img_md,
            html('<figcaption markdown="span">{}</figcaption>', Markup(cap)), "</figure>"])


def _mermaid_classes(m: LineMap, post: Post, conv) -> None:
    """Mermaid: the palette classes injected into every diagram that accepts classDef."""
    for fence in mermaid_fences(post):
        d = analyse(post, fence)
        if d.kind in conv.classdef_diagrams and d.kind_line:
            nxt = next((post.line(n) for n in d.lines if n > d.kind_line and post.line(n).strip()), "  ")
            indent = nxt[:len(nxt) - len(nxt.lstrip(" \t"))] or "  "
            defs = [indent + line for line, c in zip(conv.classdef_lines(), conv.palette) if c.name not in d.defined]
            m.replace[d.kind_line] = [post.line(d.kind_line), *defs]


def _too_deep(m: LineMap, post: Post) -> None:
    """Blocks nested too deep for Python-Markdown (SYN002): a note instead of a RecursionError."""
    for d in post.body.deep:
        span = f"第 {d.start}–{d.end} 行" if d.end > d.start else f"第 {d.start} 行"
        m.block(d.start, d.end, [html('<div class="series-unrendered" role="note">{}的列表或引用嵌套 {} 层'
                                      '（超过 {} 层），无法渲染，这里略去（SYN002）。</div>', span, d.depth, MAX_NESTING)])


def _glossary_table(m: LineMap, post: Post, site: Site, entries) -> None:
    """The glossary table placeholder -> the series' glossary as a table."""
    for n, text in m.lines.items():
        if text.strip() == GLOSSARY_PLACEHOLDER and n not in post.body.in_code:
            m.replace[n] = ["", *glossary_table(site, post, entries), ""]


def _tooltips(post: Post, m: GlossaryMatcher,
              skip: set[int]) -> tuple[dict[int, str], list[str], list[str]]:
    """New text of the lines that get a tooltip, the terms explained (in order), and the titles of the
    marks when the lines carry marks instead of <abbr> tags (see apply_tooltips)."""
    entries = m.entries
    terms: list[str] = []
    titles: list[str] = []
    if m.regex is None:
        return {}, terms, titles
    # Marks, unless the post itself contains the marker characters or has too many terms for them.
    marks = len(entries) <= TIP_MAX and TIP_OPEN not in post.text and TIP_CLOSE not in post.text
    headings = {h.line for h in post.body.headings}
    tables = {ln for t in post.body.tables for ln in range(t.start, t.start + 2)}  # header + separator rows
    in_display_math = False
    spans = link_spans(post)
    done: set[int] = set()   # id() of entries already explained in this post
    out: dict[int, str] = {}
    for n in range(post.body_start, post.nlines + 1):
        if n in post.body.in_code:
            continue
        raw = post.line(n)
        if raw.strip().startswith("$$"):
            if not (raw.strip() != "$$" and raw.strip().endswith("$$") and len(raw.strip()) > 4):
                in_display_math = not in_display_math
            continue
        if in_display_math or n in skip or n in headings or n in tables:
            continue
        text = eligible(post, n, spans)
        if not text.strip():
            continue
        edits = []
        for mt in m.regex.finditer(text):
            e = m.entry(mt.group(0))
            if e is None or id(e) in done:
                continue
            done.add(id(e))
            edits.append((mt.start(), mt.end(), e))
        if not edits:
            continue
        new = raw
        k = len(titles) + len(edits)
        for a, b, e in reversed(edits):
            k -= 1
            if marks:
                new = new[:a] + TIP_OPEN + chr(TIP_BASE + k) + new[a:b] + TIP_CLOSE + new[b:]
            else:
                # the term as the author wrote it (Markdown), inside an element whose title is escaped
                tag = html('<abbr class="series-term" title="{}">{}</abbr>', tooltip(e), Markup(new[a:b]))
                new = new[:a] + str(tag) + new[b:]   # str: Markup would escape the rest of the line
        if marks:
            titles.extend(tooltip(e) for _, _, e in edits)
        out[n] = new
        terms.extend(e.term for _, _, e in edits)
        if len(done) == len(entries):
            break
    return out, terms, titles
