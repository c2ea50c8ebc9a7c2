"""The posts under series/ as the check reads them: each post's slug and text, the links of a
参考资料 section."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from serieskit.parse import frontmatter
from .register import REFERENCES_HEADING, SERIES_DIR, read_text
from .tables import CODE_SPAN_RE, unfenced_lines

# ---------------------------------------------------------------------------------------------
# Posts


@dataclass
class Post:
    slug: str
    path: Path
    rel: str
    text: str


def find_posts(root: Path, problems: list) -> list[Post]:
    """The posts under series/ (not its assets), each with the slug its frontmatter gives (or its file
    name's); a file that cannot be read or is not UTF-8 is a problem in `problems`."""
    posts = []
    base = root / SERIES_DIR
    if not base.is_dir():
        return posts
    for p in sorted(base.rglob("*.md")):
        if "assets" in p.relative_to(base).parts:
            continue
        rel = p.relative_to(root).as_posix()
        text = read_text(p, rel, problems, keep_going=True)
        if text is None:
            continue
        slug = p.stem
        # the frontmatter as the engine reads a post's (no aliases, bounded nesting; None when it
        # does not load: the linter reports it)
        fm = frontmatter.parse(text.splitlines()).data
        if isinstance(fm, dict) and isinstance(fm.get("slug"), str) and fm["slug"].strip():
            slug = fm["slug"].strip()
        posts.append(Post(slug, p, rel, text))
    return posts


_INLINE_LINK_RE = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
_REF_LINK_RE = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\[([^\]]*)\]")
_AUTOLINK_RE = re.compile(r"<((?i:https?)://[^>\s]+)>")
_BARE_URL_RE = re.compile(r"(?i)\bhttps?://[^\s<>\]\[\"'`]+")
_REF_DEF_RE = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s.*)?$")


def _strip_bare(url: str) -> str:
    url = url.rstrip(".,;:!?。，；：！？、）")
    while url.endswith(")") and url.count(")") > url.count("("):
        url = url[:-1]
    return url


def links(text: str, refdefs: dict) -> list[str]:
    """Link targets in a piece of Markdown: inline, reference-style, autolinks, bare URLs (not
    inside code spans)."""
    text = CODE_SPAN_RE.sub(lambda m: "code", text)
    out = []

    def inline(m):
        out.append(m.group(1))
        return " "
    text = _INLINE_LINK_RE.sub(inline, text)

    def ref(m):
        label = (m.group(2) or m.group(1)).strip().lower()
        if label in refdefs:
            out.append(refdefs[label])
        return " "
    text = _REF_LINK_RE.sub(ref, text)
    for label, target in refdefs.items():
        if re.search(r"\[" + re.escape(label) + r"\](?![\[(:])", text, re.I):
            out.append(target)

    def auto(m):
        out.append(m.group(1))
        return " "
    text = _AUTOLINK_RE.sub(auto, text)
    out.extend(_strip_bare(u) for u in _BARE_URL_RE.findall(text))
    return out


def reference_items(post: Post):
    """The 参考资料 section's blocks: (line, text, is_list_item) for each top-level list item
    (with its continuation lines and sub-items) and each other paragraph."""
    lines = list(unfenced_lines(post.text))
    start = None
    for idx, (no, line) in enumerate(lines):
        if re.match(r"^##\s+" + REFERENCES_HEADING, line):
            start = idx + 1
            break
    if start is None:
        return None
    blocks = []
    cur = None
    prev_no = None
    for no, line in lines[start:]:
        if re.match(r"^#{1,2}\s", line):
            break
        if prev_no is not None and no != prev_no + 1:
            cur = None                       # a fenced block sat between: ends the paragraph
        prev_no = no
        if not line.strip():
            if cur is not None and not cur[2]:
                cur = None
            elif cur is not None:
                cur[3] = True                # a blank line inside a list item
            continue
        m = re.match(r"^( {0,1})([-*+]|\d+[.)])\s+", line)
        if m:
            cur = [no, line, True, False]
            blocks.append(cur)
        elif cur is not None and (line.startswith((" ", "\t")) or not cur[3]):
            cur[1] += "\n" + line
        else:
            cur = [no, line, False, False]
            blocks.append(cur)
    return [(b[0], b[1], b[2]) for b in blocks]


def reference_definitions(text: str) -> dict:
    defs = {}
    for _, line in unfenced_lines(text):
        m = _REF_DEF_RE.match(line)
        if m:
            defs.setdefault(m.group(1).strip().lower(), m.group(2))
    return defs
