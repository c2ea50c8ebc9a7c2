"""Suppression comments: `<!-- spec-disable-next-line CODE[, CODE]: reason -->` silences those codes
on the next line, `<!-- spec-disable CODE: reason -->` in the whole file. A suppression without a
known code or without a reason silences nothing and is itself reported (SPEC001). Security findings
(SEC) cannot be suppressed: a comment naming one is reported too, and silences none of its codes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from serieskit.model.site import Post

SUPPRESS = re.compile(r"^\s*spec-disable(?P<next>-next-line)?(?:\s+(?P<body>.*?))?\s*$", re.S)
SUPPRESS_BODY = re.compile(r"^(?P<codes>[A-Za-z]+\d+(?:\s*,\s*[A-Za-z]+\d+)*)\s*(?::\s*(?P<reason>.*))?$", re.S)


@dataclass
class Suppressions:
    file_codes: set[str] = field(default_factory=set)
    by_line: dict[int, set[str]] = field(default_factory=dict)
    problems: list = field(default_factory=list)   # Findings for SPEC001


def suppressions(post: Post) -> Suppressions:
    """Parse `<!-- spec-disable[-next-line] CODE[, CODE]: reason -->` comments of a post."""
    return post.memo("suppressions", None, lambda: _suppressions(post))


def _suppressions(post) -> Suppressions:
    from .rules import REGISTRY, Hit, unsilenceable  # the registry imports the rules, which import this module
    out = Suppressions()
    for c in post.body.comments:
        m = SUPPRESS.match(c.text)
        if not m:
            continue
        body = (m.group("body") or "").strip()
        bm = SUPPRESS_BODY.match(body)
        if not bm:
            out.problems.append(Hit(c.start, c.start_col,
                                    "suppression without a rule code",
                                    hint="write `spec-disable-next-line CODE: reason`"))
            continue
        codes = [x.strip().upper() for x in bm.group("codes").split(",")]
        reason = (bm.group("reason") or "").strip()
        bad = [x for x in codes if x not in REGISTRY]
        if bad:
            out.problems.append(Hit(c.start, c.start_col, f"suppression names unknown rule code(s): {', '.join(bad)}"))
            continue
        security = [x for x in codes if unsilenceable(x)]
        if security:
            out.problems.append(Hit(c.start, c.start_col,
                                    f"security findings cannot be suppressed ({', '.join(security)})",
                                    hint="remove what the finding names; only the project's conventions.yml "
                                         "can relax a security rule"))
            continue
        if not reason:
            out.problems.append(Hit(c.start, c.start_col,
                                    f"suppression of {', '.join(codes)} needs a reason",
                                    hint=f"`{', '.join(codes)}: why this is fine`"))
            continue
        if m.group("next"):
            out.by_line.setdefault(c.end + 1, set()).update(codes)
        else:
            out.file_codes.update(codes)
    return out
