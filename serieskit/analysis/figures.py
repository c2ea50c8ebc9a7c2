"""Figures: an image alone on its line and the caption on the next line.

Shared by the FIG rules and by the renderer that turns each pair into <figure>/<figcaption>.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from serieskit.parse.syntax import HEADING, LIST_ITEM, Image
from serieskit.model.site import Post

GOOD_TAIL = "  "
TAIL = re.compile(r"^(?P<tail>[ \t]*(?:\\|<br\s*/?>)?[ \t]*)$", re.I)
IMG_TAG = re.compile(r"<img\b[^>]*?\bsrc\s*=\s*(?P<q>[\"']?)(?P<src>[^\"'\s>]+)(?P=q)", re.I)


@dataclass
class Figure:
    image: Image
    tail: str               # raw characters after the image on its line
    caption: str | None     # the caption text, None when the next line is not a caption
    caption_line: int
    why_none: str = ""      # why there is no caption


def _next_line_kind(post: Post, ln: int, image_lines: set[int]) -> tuple[str | None, str]:
    if ln > post.nlines:
        return None, "the image is the last line of the file"
    if ln in post.body.in_code:
        return None, "the next line opens a code fence"
    prose = post.prose(ln)
    if not prose.strip():
        return None, "the next line is blank"
    stripped = prose.strip()
    if HEADING.match(prose):
        return None, "the next line is a heading"
    if LIST_ITEM.match(prose):
        return None, "the next line is a list item"
    if ln in image_lines and stripped.startswith("!["):
        return None, "the next line is another image"
    if stripped.startswith("|"):
        return None, "the next line is a table row"
    return stripped, ""


def figures(post: Post) -> list[Figure]:
    """The post's figures: images alone on their line, with the caption line after them."""
    return post.memo("figures", None, lambda: _figures(post))


def _figures(post: Post) -> list[Figure]:
    out: list[Figure] = []
    image_lines = {i.line for i in post.body.images}
    for img in post.body.images:
        prose = post.prose(img.line)
        if prose[:img.col - 1].strip():
            continue  # not alone on its line (inline image, list, quote, table)
        tail = post.line(img.line)[img.close_col - 1:]
        if not TAIL.match(tail):
            continue  # text follows the image on its line: an inline image
        caption, why = _next_line_kind(post, img.line + 1, image_lines)
        out.append(Figure(img, tail, caption, img.line + 1, why))
    return out


def image_refs(post: Post):
    """Every image source of a post: Markdown images and raw <img src>, as (line, col, src)."""
    for img in post.body.images:
        yield img.line, img.src_col, img.src
    for ln, text in post.body.prose.items():
        if "<" in text and "<img" in text.lower():
            for m in IMG_TAG.finditer(text):
                yield ln, m.start("src") + 1, m.group("src")
