import datetime as dt

from ..model import DATE_RE, SLUG_RE
from . import Hit, Rule


def _is_date(v) -> bool:
    if not isinstance(v, str) or not DATE_RE.match(v.strip()):
        return False
    try:
        dt.date.fromisoformat(v.strip())
        return True
    except ValueError:
        return False


class KeyFormat(Rule):
    """Frontmatter values have the right type and format.

    What:
    `title` and `summary` and `author` are non-empty strings; `slug` matches `[a-z0-9-]+`; `date`
    and `updated` are real ISO dates `YYYY-MM-DD`; `order` is a positive integer; `series` is a
    slug; `status` is `published` or `draft`; `tags` is a list of strings; `timely` is true or false;
    `image` (the post's picture in link previews) is a PNG, JPEG, WebP or GIF file next to the post.
    A key written twice is reported too (YAML would silently keep the last one).

    Why:
    These values become URLs, dates and positions on the site. `date: 2026-5-8` or `order: "3"`
    would otherwise fail later, far from the line that caused it.

    Bad:
    ---
    slug: Speculative_Decoding
    date: 2026-13-45
    order: "14"
    tags: 推理
    ---

    Good:
    ---
    slug: speculative-decoding
    date: 2026-05-08
    order: 14
    tags: [推理, 解码优化]
    ---
    """
    code, slug, severity = "FMT003", "key-format", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        m = post.meta
        for key, line, col in post.fm.duplicate_keys:
            yield Hit(line, col, f"`{key}` is written twice in the frontmatter", hint="keep one")
        for key in ("title", "summary", "author"):
            if key in m and (not isinstance(m[key], str) or not m[key].strip()):
                yield Hit(*post.pos(key), f"`{key}` must be a non-empty string")
        if "slug" in m and (not isinstance(m["slug"], str) or not SLUG_RE.match(m["slug"])):
            yield Hit(*post.pos("slug"), f"`slug: {m['slug']}` must use only a-z, 0-9 and '-'")
        for key in ("date", "updated"):
            if key in m and m[key] not in (None, "") and not _is_date(m[key]):
                yield Hit(*post.pos(key), f"`{key}: {m[key]}` is not a valid ISO date (YYYY-MM-DD)")
        if "order" in m and m["order"] is not None:
            v = m["order"]
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                yield Hit(*post.pos("order"), f"`order: {v!r}` must be a positive integer")
        if "series" in m and (not isinstance(m["series"], str) or not SLUG_RE.match(m["series"])):
            yield Hit(*post.pos("series"), f"`series: {m['series']}` must be a series slug ([a-z0-9-]+)")
        if "status" in m and m["status"] not in ("published", "draft"):
            yield Hit(*post.pos("status"), f"`status: {m['status']}` must be `published` or `draft`")
        if "tags" in m and m["tags"] is not None:
            v = m["tags"]
            if not isinstance(v, list) or not all(isinstance(t, str) and t.strip() for t in v):
                yield Hit(*post.pos("tags"), "`tags` must be a list of strings, e.g. `tags: [推理, MoE]`")
        if "timely" in m and not isinstance(m["timely"], bool):
            yield Hit(*post.pos("timely"), f"`timely: {m['timely']}` must be true or false")
        if "image" in m:
            yield from _image(post, ctx, m["image"])


SHARE_IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".webp", ".gif")


def _image(post, ctx, v):
    """Link previews take raster images only (no SVG), from the site itself."""
    if not isinstance(v, str) or not v.strip():
        yield Hit(*post.pos("image"), "`image` must be a file path next to the post, e.g. `image: assets/card.png`")
        return
    if not v.lower().endswith(SHARE_IMAGE_TYPES):
        yield Hit(*post.pos("image"), f"`image: {v}` must be a PNG, JPEG, WebP or GIF file (link previews show no SVG)")
        return
    kind, target = ctx.site.resolve(post, v)
    if kind != "file":
        yield Hit(*post.pos("image"), f"`image: {v}` is not a file of the site (looked for series/{target})")
