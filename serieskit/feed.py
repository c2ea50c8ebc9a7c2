"""The Atom feed of the site (RFC 4287): the newest published posts, with their summaries."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urljoin
from xml.sax.saxutils import escape

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
           f'<feed xmlns="{ATOM_NS}" xml:lang="zh-CN">',
           f"  <id>tag:{authority},2026:/</id>",
           f"  <title>{escape(site_name)}</title>",
           f"  <updated>{_ts(updated)}</updated>",
           f'  <link rel="self" type="application/atom+xml" href="{escape(urljoin(base, "feed.xml"))}"/>',
           f'  <link rel="alternate" type="text/html" href="{escape(base)}"/>',
           f"  <author><name>{escape(author)}</name></author>",
           "  <generator>serieskit</generator>"]
    for p in posts:
        s = site.series_of(p)
        url = urljoin(base, p.url_dir)
        out += ["  <entry>",
                f"    <id>{escape(_tag_id(authority, p))}</id>",
                f"    <title>{escape(p.title)}</title>",
                f'    <link rel="alternate" type="text/html" href="{escape(url)}"/>',
                f"    <published>{_ts(p.date)}</published>",
                f"    <updated>{_ts(p.last_update)}</updated>",
                f"    <author><name>{escape(p.author or author)}</name></author>"]
        if s is not None:
            out.append(f'    <category term="{escape(s.slug, {chr(34): "&quot;"})}" label="{escape(s.title, {chr(34): "&quot;"})}"/>')
        for t in p.tags:
            out.append(f'    <category term="{escape(t, {chr(34): "&quot;"})}"/>')
        if p.summary:
            out.append(f'    <summary type="text">{escape(p.summary)}</summary>')
        out.append("  </entry>")
    out.append("</feed>")
    return "\n".join(out) + "\n"
