"""A YAML settings file (mkdocs.yml) as its top-level settings, as text: for tools that write a
variant of it (the Zensical build, the build benchmark) and must keep its YAML tags (`!ENV`,
`!!python/name`) as written."""
from __future__ import annotations

import re


def top_level_blocks(text: str) -> list[tuple[str, str]]:
    """Split a YAML file into (top-level key, block text) pairs, comments kept with the next key."""
    blocks: list[tuple[str, str]] = []
    pending = ""
    for chunk in re.split(r"(?m)^(?=[A-Za-z_][\w-]*:)", text):
        m = re.match(r"[A-Za-z_][\w-]*(?=:)", chunk)
        if m is None:
            pending += chunk
            continue
        blocks.append((m.group(0), pending + chunk))
        pending = ""
    if pending:
        blocks.append(("", pending))
    return blocks
