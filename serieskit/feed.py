"""The Atom feed of the site (RFC 4287): the newest published posts, with their summaries.

Written through `markup.html` like every HTML fragment: markupsafe's escapes (`&lt;`, `&amp;`, `&#34;`,
`&#39;`) are XML's too."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urljoin
from .markup import html
from .model import Post, Site

ATOM_NS = "http://www.w3.org/2005/Atom"


def _ts(d: dt.date) -> str:
    return f"{d.isoformat()}T00:00:00Z"


def _tag_id(authority: str, post: Post) -> str:
    """A stable entry id (RFC 4151 tag URI): survives a change of host."""
    date = post.date.isoformat() if post.date else "2026-01-01"
    return f"tag:{authority},{date}:/{post.url_dir}"


def atom(site: Site, site_url: str, site_name: str, author: str, limit: int = 50,
         authority: str = "train-infer-accel") -> str:
    base = site_url if site_url.endswith("/") else site_url + "/"
    posts = [p for p in site.posts if not p.is_draft and p.date]
    posts.sort(key=lambda p: (p.last_update, p.date, p.rel), reverse=True)
    posts = posts[:limit]
    updated = max((p.last_update for p in posts), default=site.today)
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           html('<feed xmlns="{}" xml:lang="zh-CN">', ATOM_NS),
           html("  <id>tag:{},2026:/</id>", authority),
           html("  <title>{}</title>", site_name),
           html("  <updated>{}</updated>", _ts(updated)),
           html('  <link rel="self" type="application/atom+xml" href="{}"/>', urljoin(base, "feed.xml")),
           html('  <link rel="alternate" type="text/html" href="{}"/>', base),
           html("  <author><name>{}</name></author>", author),
           "  <generator>serieskit</generator>"]
    for p in posts:
        s = site.series_of(p)
        out += ["  <entry>",
                html("    <id>{}</id>", _tag_id(authority, p)),
                html("    <title>{}</title>", p.title),
                html('    <link rel="alternate" type="text/html" href="{}"/>', urljoin(base, p.url_dir)),
                html("    <published>{}</published>", _ts(p.date)),
                html("    <updated>{}</updated>", _ts(p.last_update)),
                html("    <author><name>{}</name></author>", p.author or author)]
        if s is not None:
            out.append(html('    <category term="{}" label="{}"/>', s.slug, s.title))
        out += [html('    <category term="{}"/>', t) for t in p.tags]
        if p.summary:
            out.append(html('    <summary type="text">{}</summary>', p.summary))
        out.append("  </entry>")
    out.append("</feed>")
    return "\n".join(out) + "\n"
