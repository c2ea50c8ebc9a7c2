import re

from serieskit.model.schema import FORMATS, FRONTMATTER_BY_NAME
from . import Hit, Rule


class KeyFormat(Rule):
    """Frontmatter values have the right type and format.

    What:
    `title` and `summary` and `author` are non-empty strings; `slug` matches `[a-z0-9-]+`; `date`
    and `updated` are real ISO dates `YYYY-MM-DD`; `order` is a positive integer; `series` is a
    slug; `status` is `published` or `draft`; `tags` is a list of strings; `timely` is true or false;
    `image` (the post's picture in link previews) is a PNG, JPEG, WebP or GIF file next to the post.
    A key written twice is reported too (YAML would silently keep the last one), and so is a control
    character in a value (written as a YAML escape, `"\\x07"`): feeds cannot carry it, and a terminal
    acts on it.

    Why:
    These values become URLs, dates and positions on the site. `date: 2026-5-8` or `order: "3"`
    would otherwise fail later, far from the line that caused it.
    """
    code, slug, severity = "FMT003", "key-format", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        m = post.meta
        for key, line, col in post.fm.duplicate_keys:
            yield Hit(line, col, f"`{key}` is written twice in the frontmatter", hint="keep one")
        for key, value in m.items():
            spec = FRONTMATTER_BY_NAME.get(key)
            check = FORMATS.get(spec.kind) if spec is not None else None
            message = check(key, value) if check is not None else None
            if message:
                yield Hit(*post.pos(key), message)
        if "image" in m:
            yield from _image(post, ctx, m["image"])
        for key, value in m.items():
            bad = _control(value)
            if bad is not None:
                yield Hit(*post.pos(key), f"`{key}` holds the control character U+{ord(bad):04X}",
                          hint="remove it (a YAML escape such as `\\x07` writes one)")


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _control(value, depth: int = 0):
    """The first control character in a frontmatter value (strings in lists and mappings too), or None."""
    if isinstance(value, str):
        m = CONTROL.search(value)
        return m.group() if m else None
    if depth < 50 and isinstance(value, (list, dict)):
        for v in (value.values() if isinstance(value, dict) else value):
            found = _control(v, depth + 1)
            if found is not None:
                return found
    return None


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
