"""Pages the site generates from the model: the series index ("训推加速系列导航"), tags, archive by
month, the rules page (写作规范, straight from the registry) and the home page's blocks.

Each returns Markdown. Short blocks link to .md sources, which MkDocs resolves and validates like
any hand-written link. The long lists (the series index, tags, archive: one entry per post, so they
grow with the series) are written as plain HTML blocks with the posts' URLs, which Python-Markdown
passes through without parsing every entry again (the 性能 page, 构建速度, has the figures); the URLs come from the
same model that places the posts (directory URLs: `<area>/<slug>/`), so they cannot go stale.
"""
from __future__ import annotations

import functools
import re

from serieskit.markup import Markup, doc_text, escape, html, join, md_text
from serieskit.model.site import Post, Series, Site
from serieskit.model.urls import href, link_from, rule_anchor, tag_anchor, tag_fragment, url_dir
from serieskit.model.pagetable import PAGES, SERIES_NAV, STANDALONE_TITLE
from serieskit.lint.rules import REGISTRY
from . import series_map

SEVERITY_ZH = {"error": "错误", "warning": "警告", "info": "提示"}


def visible_posts(site: Site, include_drafts: bool) -> list[Post]:
    return [p for p in site.posts if include_drafts or not p.is_draft]


def post_meta_line(post: Post, site: Site) -> str:
    st = post.stats(site.conv)
    bits = []
    if post.date:
        bits.append(post.date.isoformat())
    bits.append(f"约 {st.minutes} 分钟")
    return " · ".join(bits)


def series_index(series: Series, site: Site, include_drafts: bool) -> str:
    """The series' index page: every post in `order`, planned posts greyed with 在做."""
    page = series.index_site_path
    posts = [p for p in site.series_posts(series.slug, include_drafts)]
    items: list[tuple[float, str]] = []
    for p in posts:
        st = p.stats(site.conv)
        draft = Markup(' <span class="series-badge series-badge--draft">草稿</span>') if p.is_draft else ""
        order = p.order if p.order is not None else 10 ** 6
        summary = html('<span class="series-index__summary">{}</span>', p.summary) if p.summary else ""
        items.append((order, html(
            '<li class="series-index__item" value="{order}">'
            '<span class="series-index__order">{order}</span>'
            '<span class="series-index__body">'
            '<a href="{href}">{title}</a>{draft}'
            '<span class="series-index__meta">{date} · {chars:,} 字 · 约 {minutes} 分钟</span>{summary}</span></li>',
            order=order, href=href(url_dir(page), p.url_dir), title=p.title, draft=draft,
            date=p.date.isoformat() if p.date else "", chars=st.cjk_chars, minutes=st.minutes, summary=summary)))
    planned = site.planned_open(series, include_drafts)
    for pl in planned:
        order = pl.order if pl.order is not None else 10 ** 6 + 1
        summary = html('<span class="series-index__summary">{}</span>', pl.summary) if pl.summary else ""
        items.append((order + 0.5 if pl.order is None else order, html(
            '<li class="series-index__item series-index__item--planned" value="{value}">'
            '<span class="series-index__order">{shown}</span>'
            '<span class="series-index__body"><span class="series-planned">{title}'
            '<span class="series-badge">在做</span></span>{summary}</span></li>',
            value=pl.order or "", shown=pl.order if pl.order is not None else "·", title=pl.title, summary=summary)))
    items.sort(key=lambda t: t[0])
    n_pub = sum(1 for p in posts if not p.is_draft)
    lines = [f"# {md_text(series.index_title)}", ""]
    if series.description:
        lines += [md_text(series.description), ""]
    lines += [html('<p class="series-index__count">已发布 {} 篇，计划中 {} 篇。按系列顺序排列，灰色条目标注“在做”。</p>',
                   n_pub, len(planned)), ""]
    lines += series_map_block(series, site, include_drafts)
    lines += ['<ol class="series-index">', *(t for _, t in items), "</ol>", ""]
    return "\n".join(lines)


def series_map_block(series: Series, site: Site, include_drafts: bool) -> list[str]:
    """The series map (serieskit/render/series_map.py) as a mermaid fence with its caption, or nothing for a
    series with no place yet."""
    page = url_dir(series.index_site_path)
    m = series_map.build(series, site, include_drafts, lambda p: href(page, p.url_dir))
    if not m.places:
        return []
    hubs = "、".join(str(pl.number) for pl in m.hubs if pl.number is not None)
    note = html("黄色“总览”框里的第 {} 篇是多数文章的姊妹篇，它们的连线不再逐条画出。", hubs) if hubs else ""
    implied = "（两篇若已能经由编号在它们之间的文章连通，就不再直接连线）" if m.implied else ""
    return ["```mermaid", series_map.mermaid(m, site.conv, series_title=series.title).rstrip("\n"), "```", "",
            html('<p class="series-map__caption">系列地图：蓝色框是已发布的文章（点击进入），灰色虚线框是在做的文章；'
                 '连线是文章之间的姊妹篇链接{}。{}</p>', implied, note), ""]


def tags_page(site: Site, include_drafts: bool) -> str:
    by_tag: dict[str, list[Post]] = {}
    for p in visible_posts(site, include_drafts):
        for t in p.tags:
            by_tag.setdefault(t, []).append(p)
    lines = ["# 标签", ""]
    if not by_tag:
        return "\n".join(lines + ["还没有带标签的文章。", ""])
    order = sorted(by_tag, key=lambda t: (-len(by_tag[t]), t))
    lines.append(html('<p class="series-tags">{}</p>', join(" ", (
        html('<a class="series-tag" href="#{}">{} <span>{}</span></a>', tag_fragment(t), t, len(by_tag[t]))
        for t in order))))
    lines.append("")
    for t in order:
        lines += [f"## {md_text(t)} {{ #{tag_anchor(t)} }}", "", "<ul>"]
        for p in sorted(by_tag[t], key=lambda p: (p.date.isoformat() if p.date else "", p.rel), reverse=True):
            lines.append(html('<li><a href="{}">{}</a> <span class="series-meta">{}</span></li>',
                              href(url_dir("tags.md"), p.url_dir), p.title, p.date.isoformat() if p.date else ""))
        lines += ["</ul>", ""]
    return "\n".join(lines)


def archive_page(site: Site, include_drafts: bool) -> str:
    lines = ["# 归档", ""]
    by_month: dict[str, list[Post]] = {}
    for p in visible_posts(site, include_drafts):
        if p.date:
            by_month.setdefault(p.date.strftime("%Y-%m"), []).append(p)
    for month in sorted(by_month, reverse=True):
        y, m = month.split("-")
        lines += [f"## {y} 年 {int(m)} 月 {{ #archive-{month} }}", "", "<ul>"]
        for p in sorted(by_month[month], key=lambda p: (p.date, p.rel), reverse=True):
            where = ""
            s = site.series_of(p)
            if s is not None:
                where = f" · {s.title} 第 {p.order} 篇" if p.order is not None else f" · {s.title}"
            lines.append(html('<li>{} <a href="{}">{}</a><span class="series-meta">{}</span></li>',
                              p.date.isoformat(), href(url_dir("archive.md"), p.url_dir), p.title, where))
        lines += ["</ul>", ""]
    return "\n".join(lines)


@functools.cache
def _markdown_highlighter():
    """Pygments' Markdown lexer and one HTML formatter, made once (a formatter builds its style table
    when it is made, which is most of the cost of a short block); None without Pygments."""
    try:
        from pygments.formatters import HtmlFormatter
        from pygments.lexers.markup import MarkdownLexer
    except ImportError:
        return None
    return MarkdownLexer(), HtmlFormatter(wrapcode=True)


def markdown_example(text: str) -> str:
    """A Markdown example as a highlighted code block in plain HTML: the markup Material styles
    (`<div class="highlight"><pre><span></span><code>`), written once for the rules page's 70-odd
    examples instead of one formatter per fenced block (half of that page's conversion time)."""
    h = _markdown_highlighter()
    if h is None:
        return html('<div class="highlight"><pre><span></span><code>{}</code></pre></div>', text + "\n")
    from pygments import highlight
    out = highlight(text + "\n", *h).rstrip("\n")
    # a fence line the highlighter left bare would open a fence in the page's own Markdown
    return FENCE_AT_LINE_START.sub(lambda m: m.group(1) + ("&#96;" if m.group(2) == "`" else "&#126;"), out)


FENCE_AT_LINE_START = re.compile(r"(?m)^([ \t]*)([`~])(?=\2\2)")


def rules_page(site: Site, include_drafts: bool = False) -> str:
    """写作规范: every rule with its code, severity and docs, generated from the registry (it reads
    only the site's conventions: no post, so drafts or not, the same page)."""
    conv = site.conv
    lines = ["# 写作规范", "",
             "本页由规则注册表自动生成：构建（`mkdocs build --strict`）、命令行（`python scripts/lint.py`）"
             "和 CI 用的是同一套规则与同一份 `conventions.yml`。"
             "**错误** 会让严格构建和 lint 失败；**警告** 只在 `--strict` 的 lint 中失败；**提示** 只在 `--verbose` 时显示。", "",
             "单条豁免写在出问题那一行的上一行：`<!-- spec-disable-next-line SKL001: 理由 -->`；整篇豁免："
             "`<!-- spec-disable SKL001: 理由 -->`。理由必填。", "",
             "## 配色 { #palette }", "",
             "| 颜色 | 填充 fill | 描边 stroke | mermaid 写法 |", "|---|---|---|---|"]
    for c in conv.palette:
        swatch = html('<span class="series-swatch" style="background:{};border-color:{}"></span>', c.fill, c.stroke)
        lines.append(f"| {swatch} {md_text(c.zh)} `{c.name}` | `{c.fill}` | `{c.stroke}` | "
                     f"`class A {c.name}` 或 `A:::{c.name}` |")
    lines += ["", "中性色：" + "、".join(f"{k} `{v}`" for k, v in conv.neutrals.items()) + "。", "",
              "## 规则一览 { #rules }", "", "| 代码 | 名称 | 级别 | 适用 | 自动修复 |", "|---|---|---|---|---|"]
    for code, r in REGISTRY.items():
        scope = "系列文章" if r.scope == "series" else ("工程文件" if r.target == "site" else "全部文章")
        lines.append(f"| [{code}](#{rule_anchor(code)}) | {r.slug} | {SEVERITY_ZH[r.severity]} | {scope} | "
                     f"{'是' if r.fixable else '—'} |")
    lines.append("")
    for code, r in REGISTRY.items():
        d = r.doc_sections()
        lines += [f"## {code} · {r.slug} {{ #{rule_anchor(code)} }}", "", f"**{doc_text(d['summary'])}**", "",
                  f"级别：{SEVERITY_ZH[r.severity]}　自动修复：{'是（`--fix`）' if r.fixable else '否'}", ""]
        for key, title in (("what", "检查什么"), ("why", "为什么")):
            if d.get(key):
                lines += [f"*{title}*", "", doc_text(d[key]), ""]
        for key, title in (("bad", "反例"), ("good", "正例")):
            if d.get(key):
                lines += [f"*{title}*", "", markdown_example(d[key]), ""]
    return "\n".join(lines)


def latest_posts(site: Site, page_site_path: str, include_drafts: bool, n: int = 6) -> str:
    posts = sorted(visible_posts(site, include_drafts),
                   key=lambda p: ((p.last_update or p.date).isoformat() if (p.last_update or p.date) else "", p.rel),
                   reverse=True)[:n]
    out = ['<div class="series-latest" markdown="1">', ""]
    for p in posts:
        s = site.series_of(p)
        where = f"{md_text(s.title)} · 第 {p.order} 篇 · " if s is not None and p.order is not None else ""
        summary = html('<span class="series-index__summary">{}</span>', Markup(md_text(p.summary))) if p.summary else ""
        meta = html('<span class="series-index__meta">{}{}</span>', Markup(where), post_meta_line(p, site))
        out.append(f"- [{md_text(p.title)}]({link_from(page_site_path, p.site_path)}){meta}{summary}")
    out += ["", "</div>"]
    return "\n".join(out)


def series_cards(site: Site, page_site_path: str, include_drafts: bool) -> str:
    out = ['<div class="grid cards series-cards" markdown>', ""]
    for s in site.series.values():
        posts = site.series_posts(s.slug, include_drafts)
        n_pub = sum(1 for p in posts if not p.is_draft)
        out += [f"-   **[{md_text(s.index_title)}]({link_from(page_site_path, s.index_site_path)})**", "",
                "    ---", "", f"    {md_text(s.description)}", "",
                f"    已发布 {n_pub} 篇 · 计划中 {len(s.planned)} 篇", ""]
    out += ["</div>"]
    return "\n".join(out)


PLACEHOLDERS = {"<!-- latest-posts -->": latest_posts, "<!-- series-cards -->": series_cards}


def fill_placeholders(markdown: str, site: Site, page_site_path: str, include_drafts: bool) -> str:
    """A hand-written page's lists (the home page's latest posts and series cards), at its placeholders."""
    for mark, build in PLACEHOLDERS.items():
        if mark in markdown:
            markdown = markdown.replace(mark, build(site, page_site_path, include_drafts))
    return markdown


# --- the generated pages and the navigation, from serieskit/model/pagetable.py (any host) ----------------
def generated_pages(site: Site, include_drafts: bool, reuse=None) -> dict[str, str]:
    """Every generated page of the site: its path -> its Markdown (the builders of the page table).
    `reuse(key, make)`: the project's memo across builds (serieskit/pipeline/project.py `Build.reuse`),
    for a page that reads nothing of the site but its conventions (the table's `reads`)."""
    out: dict[str, str] = {}
    for entry in PAGES:
        build = globals()[entry.builder]
        if entry.per_series:
            for s in site.series.values():
                out[entry.path_of(s.slug)] = build(s, site, include_drafts)
        elif entry.reads == "conventions" and reuse is not None:
            key = (entry.path, site.conv.fingerprint)
            out[entry.path] = reuse(key, lambda build=build: build(site, include_drafts))
        else:
            out[entry.path] = build(site, include_drafts)
    return out


def navigation(site: Site, include_drafts: bool, nav: list) -> list:
    """The site's navigation: `nav` (mkdocs.yml's, written by hand) with its SERIES_NAV entry replaced
    by each series (the page table's "series" pages, its index first, then its posts in order), the
    standalone posts (随笔, newest first) and the page table's "lists" pages. The titles taken from
    posts and manifests are escaped (MkDocs and Material print them as HTML); the page table's are
    the project's own constants."""
    out: list = []
    for item in nav:
        if item != SERIES_NAV:
            out.append(item)
            continue
        heads = [entry for entry in PAGES if entry.nav == "series"]
        for s in site.series.values():
            entries: list = [entry.path_of(s.slug) if entry.title is None else {entry.title: entry.path_of(s.slug)}
                             for entry in heads]
            for p in site.series_posts(s.slug, include_drafts):
                title = f"{p.order}. {p.short_title}" if p.order is not None else p.short_title
                entries.append({str(escape(title)): p.site_path})
            out.append({str(escape(s.title)): entries})
        standalone = [p for p in visible_posts(site, include_drafts) if site.series_of(p) is None]
        if standalone:
            standalone.sort(key=lambda p: (p.date.isoformat() if p.date else "", p.rel), reverse=True)
            out.append({STANDALONE_TITLE: [{str(escape(p.short_title)): p.site_path} for p in standalone]})
        out.extend({entry.title: entry.path} for entry in PAGES if entry.nav == "lists")
    return out
