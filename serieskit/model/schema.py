"""The keys authors write: one table for a post's frontmatter, one for a series manifest, one for a
glossary entry. The FMT and MAN rules check against them, the loader reads values through them,
`new_post` writes the frontmatter in their order, and the rules' docs list the keys from here (a
docstring names them as `<<frontmatter-keys>>`, `<<manifest-keys>>` or `<<glossary-keys>>`).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

SLUG_RE = re.compile(r"^[a-z0-9-]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
STATUSES = ("published", "draft")
SWITCHES = ("off", "info", "warning", "error")    # a manifest's `rules:` values


@dataclass(frozen=True)
class Key:
    name: str
    kind: str           # frontmatter: a key of FORMATS; manifest: a Python type name (see MANIFEST_TYPES)
    required: str = ""  # "always", "with series" (frontmatter only) or "" (optional)
    doc: str = ""


FRONTMATTER: tuple[Key, ...] = (
    Key("title", "text", "always", "the post's title"),
    Key("slug", "slug", "always", "file name and URL, `[a-z0-9-]+`"),
    Key("date", "date", "always", "first published, `YYYY-MM-DD`"),
    Key("updated", "date", "", "last updated, not before `date`"),
    Key("author", "text", "", "the author"),
    Key("series", "series", "", "the series' slug (its folder under series/)"),
    Key("order", "order", "with series", "place in the series, a positive integer"),
    Key("status", "status", "", "`published` or `draft`"),
    Key("tags", "tags", "", "a list of strings"),
    Key("summary", "text", "", "one sentence for the navigation and the home page"),
    Key("timely", "bool", "", "whether the post needs a timeliness banner (default: the manifest's)"),
    Key("image", "image", "", "share image next to the post (PNG, JPEG, WebP or GIF)"),
)
FRONTMATTER_KEYS: tuple[str, ...] = tuple(k.name for k in FRONTMATTER)
FRONTMATTER_BY_NAME = {k.name: k for k in FRONTMATTER}
REQUIRED_KEYS: tuple[str, ...] = tuple(k.name for k in FRONTMATTER if k.required == "always")


def is_date(v) -> bool:
    if not isinstance(v, str) or not DATE_RE.match(v.strip()):
        return False
    try:
        dt.date.fromisoformat(v.strip())
        return True
    except ValueError:
        return False


def _text(key, v):
    if not isinstance(v, str) or not v.strip():
        return f"`{key}` must be a non-empty string"


def _slug(key, v):
    if not isinstance(v, str) or not SLUG_RE.match(v):
        return f"`{key}: {v}` must use only a-z, 0-9 and '-'"


def _series(key, v):
    if not isinstance(v, str) or not SLUG_RE.match(v):
        return f"`{key}: {v}` must be a series slug ([a-z0-9-]+)"


def _date(key, v):
    if v not in (None, "") and not is_date(v):
        return f"`{key}: {v}` is not a valid ISO date (YYYY-MM-DD)"


def _order(key, v):
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
        return f"`{key}: {v!r}` must be a positive integer"


def _status(key, v):
    if v not in STATUSES:
        return f"`{key}: {v}` must be `published` or `draft`"


def _tags(key, v):
    if v is not None and (not isinstance(v, list) or not all(isinstance(t, str) and t.strip() for t in v)):
        return f"`{key}` must be a list of strings, e.g. `tags: [推理, MoE]`"


def _bool(key, v):
    if not isinstance(v, bool):
        return f"`{key}: {v}` must be true or false"


# kind -> check(key, value) -> message or None; `image` needs the site and is checked by FMT003 itself
FORMATS = {"text": _text, "slug": _slug, "series": _series, "date": _date, "order": _order,
           "status": _status, "tags": _tags, "bool": _bool}


MANIFEST: tuple[Key, ...] = (
    Key("title", "str", "", "the series' title (default: the folder name)"),
    Key("slug", "str", "", "must equal the folder name"),
    Key("index_title", "str", "", "title of the series index page (default: `title`)"),
    Key("description", "str", "", "shown on the series index"),
    Key("author", "str", "", "written into new posts by new_post"),
    Key("standing_examples", "list", "", "models a post should name (EXM001)"),
    Key("stale_after_days", "int", "", "days after which a timely post is stale (TML003)"),
    Key("timely", "bool", "", "default of the posts' `timely`"),
    Key("glossary", "str", "", "the glossary file, relative to the series folder"),
    Key("rules", "dict", "", "per-rule switches: `CODE: off | info | warning | error`"),
    Key("planned", "list", "", "planned posts: a title, or `{title:, order:, summary:}`"),
)
MANIFEST_KEYS: tuple[str, ...] = tuple(k.name for k in MANIFEST)
MANIFEST_BY_NAME = {k.name: k for k in MANIFEST}
MANIFEST_TYPES = {"str": str, "int": int, "bool": bool, "list": list, "dict": dict}

GLOSSARY_KEYS: tuple[str, ...] = ("term", "en", "abbr", "desc", "post", "aliases")


def manifest_value_ok(key: str, value) -> bool:
    """Whether a manifest value has its key's type (None counts as absent)."""
    kind = MANIFEST_TYPES[MANIFEST_BY_NAME[key].kind]
    return value is None or (isinstance(value, kind) and not (kind is int and isinstance(value, bool)))


DOC_VALUES = {
    "frontmatter-keys": ", ".join(FRONTMATTER_KEYS),
    "manifest-keys": ", ".join(MANIFEST_KEYS),
    "glossary-keys": ", ".join(GLOSSARY_KEYS),
}


def fill_doc(text: str) -> str:
    """Replace `<<name>>` placeholders of a rule's docstring with the key lists above."""
    return re.sub(r"<<([a-z-]+)>>", lambda m: DOC_VALUES[m.group(1)], text)
