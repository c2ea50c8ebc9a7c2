"""Atom feeds (RFC 4287): the site's, and one per series, with each post's full content.

A feed reader shows the post's HTML without the page's stylesheets and scripts: a diagram (inline SVG
styled by the page, or a fence left to the browser) becomes a link to the post, a formula its MathML
(KaTeX writes it beside the HTML; feed readers show MathML), permalink marks (¶) go, and every relative
URL (images, links) is made absolute from the post's URL. The entry then passes the site's allow-list
sanitizer (serieskit/sanitize/), like every page.

Written through `markup.html` like every HTML fragment: markupsafe's escapes (`&lt;`, `&amp;`, `&#34;`,
`&#39;`) are XML's too; the content is HTML escaped once as text (`type="html"`). Characters XML 1.0
forbids (control characters a title can carry through a YAML escape, `"\x07"`) are removed from the
whole feed, which cannot be written otherwise (XML has no escape for them).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from urllib.parse import urljoin

from serieskit import sanitize
from serieskit.markup import Markup, html
from serieskit.model.site import Post, Series, Site
from serieskit.model.urls import absolute, base_url, feed_path, url_dir

ATOM_NS = "http://www.w3.org/2005/Atom"
DIAGRAM = re.compile(r'<pre class="mermaid">.*?</pre>|<div class="mermaid"><svg\b.*?</svg></div>', re.S)
FORMULA = re.compile(r'<(div|span) class="arithmatex">(?!<span class="katex).*?</\1>', re.S)
HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
URL_ATTR = re.compile(r'\b(src|href)="([^"]*)"')
# what XML 1.0 forbids anywhere in a document (C0 controls but tab and newlines, lone surrogates,
# U+FFFE, U+FFFF): one of them in a title or a post makes the whole feed unreadable to a reader
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _ts(d: dt.date) -> str:
    return f"{d.isoformat()}T00:00:00Z"


def _tag_id(authority: str, post: Post) -> str:
    """A stable entry id (RFC 4151 tag URI): survives a change of host."""
    date = post.date.isoformat() if post.date else "2026-01-01"
    return f"tag:{authority},{date}:/{post.url_dir}"


def feed_html(content: str, post_url: str) -> str:
    """A post's rendered HTML as a feed reader can show it (see the module's docstring)."""
    content = HEADERLINK.sub("", content)
    content = DIAGRAM.sub(lambda m: str(html('<p><a href="{}">[图：请在原文中查看]</a></p>', post_url)), content)
    content = _formulas(content, post_url)

    def absolute(m: re.Match) -> str:
        url = m.group(2)
        if url.startswith(("#", "mailto:", "data:")):
            url = post_url + url if url.startswith("#") else url
        else:
            url = urljoin(post_url, url)
        return str(html('{}="{}"', Markup(m.group(1)), Markup(url)))
    return sanitize.clean_text(URL_ATTR.sub(absolute, content))


def _formulas(content: str, post_url: str) -> str:
    """Each formula as its MathML; one not drawn by the build (left to the browser) as a link."""
    from selectolax.lexbor import LexborHTMLParser

    if 'class="arithmatex"' not in content:
        return content
    if 'class="katex' in content:
        tree = LexborHTMLParser("<body>" + content + "</body>")
        for node in tree.css(".arithmatex"):
            math = node.css_first("math")
            if math is not None:
                node.replace_with(LexborHTMLParser(html("<{0}>{1}</{0}>", Markup(node.tag),
                                                         Markup(math.html))).body.child)
        content = tree.body.inner_html
    return FORMULA.sub(lambda m: str(html('<{0}><a href="{1}">[公式：请在原文中查看]</a></{0}>',
                                          Markup(m.group(1)), post_url)), content)


def feed_title(series: Series, site_name: str) -> str:
    return f"{series.title} 系列" if series.title == site_name else f"{series.title} · {site_name}"


def atom(site: Site, site_url: str, site_name: str, author: str, contents: dict[str, str] | None = None,
         series: Series | None = None, limit: int = 50, authority: str = "train-infer-accel",
         entry_html: Callable[[str, str], str] = feed_html) -> str:
    """The feed of the whole site, or of one series; `contents`: rendered HTML by post (`Post.rel`).
    `entry_html(content, post_url)`: `feed_html`, or a memo of it that the feeds of a build share, so
    that each post's HTML is made a feed's once."""
    contents = contents or {}
    posts = [p for p in site.posts if not p.is_draft and p.date and (series is None or site.series_of(p) is series)]
    posts.sort(key=lambda p: (p.last_update, p.date, p.rel), reverse=True)
    posts = posts[:limit]
    updated = max((p.last_update for p in posts), default=site.today)
    if series is None:
        here, title, feed_id = "feed.xml", site_name, f"tag:{authority},2026:/"
        home = base_url(site_url)
    else:
        here, title = feed_path(series), feed_title(series, site_name)
        folder = url_dir(series.index_site_path)
        feed_id, home = f"tag:{authority},2026:/{folder}", absolute(site_url, folder)
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           html('<feed xmlns="{}" xml:lang="zh-CN">', ATOM_NS),
           html("  <id>{}</id>", feed_id),
           html("  <title>{}</title>", title),
           html("  <updated>{}</updated>", _ts(updated)),
           html('  <link rel="self" type="application/atom+xml" href="{}"/>', absolute(site_url, here)),
           html('  <link rel="alternate" type="text/html" href="{}"/>', home),
           html("  <author><name>{}</name></author>", author),
           "  <generator>serieskit</generator>"]
    for p in posts:
        s = site.series_of(p)
        url = absolute(site_url, p.url_dir)
        out += ["  <entry>",
                html("    <id>{}</id>", _tag_id(authority, p)),
                html("    <title>{}</title>", p.title),
                html('    <link rel="alternate" type="text/html" href="{}"/>', url),
                html("    <published>{}</published>", _ts(p.date)),
                html("    <updated>{}</updated>", _ts(p.last_update)),
                html("    <author><name>{}</name></author>", p.author or author)]
        if s is not None:
            out.append(html('    <category term="{}" label="{}"/>', s.slug, s.title))
        out += [html('    <category term="{}"/>', t) for t in p.tags]
        if p.summary:
            out.append(html('    <summary type="text">{}</summary>', p.summary))
        if p.rel in contents:
            lead = ""
            if s is not None and p.order is not None:
                lead = html('<p><a href="{}">{}</a> · 第 {} 篇</p>', absolute(site_url, url_dir(s.index_site_path)),
                            s.title, p.order)
            shown = entry_html(contents[p.rel], url)
            body = str(Markup(lead) + Markup(shown))   # HTML, escaped once as text here
            out.append(html('    <content type="html">{}</content>', body))
        out.append("  </entry>")
    out.append("</feed>")
    return NOT_XML.sub("", "\n".join(out) + "\n")   # every text and attribute: removing a character changes no markup
