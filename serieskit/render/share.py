"""What link previews, search engines and feed readers read of a page: Open Graph and Twitter card
metadata and schema.org JSON-LD, as plain data (the host's template writes it, escaped: meta values
through its HTML escaping, the JSON-LD through a JSON encoder that escapes `<`, `>` and `&`, so a
`</script>` in a summary cannot leave its block).

Every URL is absolute, from the site's URL (`SITE_URL`). A post's share image is its frontmatter
`image:` (a file next to the post) or the site's default card.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from serieskit.model.site import Post, Series, Site
from serieskit.model.urls import absolute, base_url, url_dir

DEFAULT_IMAGE = "assets/images/share.png"     # 1200 x 630, written by scripts/figures/share_card.py
LOCALE = "zh_CN"


@dataclass
class Share:
    meta: list[tuple[str, str, str]] = field(default_factory=list)   # (attribute, name, content)
    ld: dict | None = None


def post_image(site: Site, post: Post) -> str | None:
    """The site path of the post's own share image, when its frontmatter names one that exists."""
    if not post.image:
        return None
    kind, target = site.resolve(post, post.image)
    return target if kind == "file" else None


def _common(title: str, description: str, url: str, image: str, site_name: str, kind: str) -> Share:
    s = Share()
    s.meta += [("property", "og:type", kind), ("property", "og:title", title),
               ("property", "og:url", url), ("property", "og:site_name", site_name),
               ("property", "og:locale", LOCALE), ("property", "og:image", image)]
    if description:
        s.meta.append(("property", "og:description", description))
    s.meta += [("name", "twitter:card", "summary_large_image"), ("name", "twitter:title", title),
               ("name", "twitter:image", image)]
    if description:
        s.meta.append(("name", "twitter:description", description))
    return s


def _person(name: str) -> dict:
    return {"@type": "Person", "name": name}


def post_share(site: Site, post: Post, site_url: str, site_name: str, site_author: str) -> Share:
    url = absolute(site_url, post.url_dir)
    own = post_image(site, post)
    image = absolute(site_url, own or DEFAULT_IMAGE)
    s = _common(post.title, post.summary or "", url, image, site_name, "article")
    author = post.author or site_author
    if post.date:
        s.meta.append(("property", "article:published_time", post.date.isoformat()))
    if post.last_update:
        s.meta.append(("property", "article:modified_time", post.last_update.isoformat()))
    if author:
        s.meta.append(("property", "article:author", author))
    s.meta += [("property", "article:tag", t) for t in post.tags]
    ld = {"@context": "https://schema.org", "@type": "BlogPosting", "headline": post.title,
          "url": url, "mainEntityOfPage": url, "image": image, "inLanguage": "zh-CN"}
    if post.summary:
        ld["description"] = post.summary
    if post.date:
        ld["datePublished"] = post.date.isoformat()
    if post.last_update:
        ld["dateModified"] = post.last_update.isoformat()
    if author:
        ld["author"] = _person(author)
    if post.tags:
        ld["keywords"] = list(post.tags)
    series = site.series_of(post)
    if series is not None:
        ld["isPartOf"] = {"@type": "CreativeWorkSeries", "name": series.title,
                          "url": absolute(site_url, url_dir(series.index_site_path))}
        if post.order is not None:
            ld["position"] = post.order
    s.ld = ld
    return s


def series_share(site: Site, series: Series, site_url: str, site_name: str, include_drafts: bool = False) -> Share:
    url = absolute(site_url, url_dir(series.index_site_path))
    s = _common(series.index_title, series.description or "", url, absolute(site_url, DEFAULT_IMAGE), site_name,
                "website")
    posts = site.series_posts(series.slug, include_drafts)
    s.ld = {"@context": "https://schema.org", "@type": "CollectionPage", "name": series.index_title, "url": url,
            "inLanguage": "zh-CN",
            "hasPart": [{"@type": "BlogPosting", "headline": p.title, "url": absolute(site_url, p.url_dir),
                         **({"position": p.order} if p.order is not None else {})} for p in posts]}
    if series.description:
        s.ld["description"] = series.description
    return s


def home_share(site: Site, site_url: str, site_name: str, description: str, site_author: str,
               include_drafts: bool = False) -> Share:
    url = base_url(site_url)
    s = _common(site_name, description, url, absolute(site_url, DEFAULT_IMAGE), site_name, "website")
    posts = [p for p in site.posts if include_drafts or not p.is_draft]
    s.ld = {"@context": "https://schema.org", "@type": "Blog", "name": site_name, "url": url, "inLanguage": "zh-CN",
            "blogPost": [{"@type": "BlogPosting", "headline": p.title, "url": absolute(site_url, p.url_dir),
                          **({"datePublished": p.date.isoformat()} if p.date else {})} for p in posts]}
    if description:
        s.ld["description"] = description
    if site_author:
        s.ld["author"] = _person(site_author)
    return s


def page_share(title: str, description: str, url: str, site_url: str, site_name: str) -> Share:
    """Any other page: the basic card."""
    return _common(title, description, url, absolute(site_url, DEFAULT_IMAGE), site_name, "website")
