"""What the output gate and the drawings found on a converted page, as findings of its source file:
SEC003 for what the allow-list removed, MER004 / MAT001 for a diagram or formula that does not parse.
Both hosts use this: the MkDocs adapter with each page's report (serieskit/publish/mdext.py `take_report`),
the Zensical adapter with the reports the extension wrote to its file."""
from __future__ import annotations

from serieskit.finding import Finding
from serieskit.lint.rules.mat001_formula_parse_error import formula_finding
from serieskit.lint.rules.mer004_diagram_parse_error import diagram_finding
from serieskit.lint.rules.sec003_sanitized_output import gate_findings, line_of
from serieskit.sanitize import Removal


def findings(path: str, raw: str, removed: list, draw_errors: list, draw_removed: list) -> list[Finding]:
    """`removed`: sanitize.Removal of the page; `draw_errors`: (kind, source, message);
    `draw_removed`: (kind, source, Removal) taken out of a drawing."""
    out = gate_findings(path, raw, removed)
    for kind, source, message in draw_errors:
        out.append(diagram_finding(path, raw, source, message) if kind == "diagram"
                   else formula_finding(path, raw, source, message))
    for kind, source, r in draw_removed:
        f = gate_findings(path, raw, [r])[0]
        anchor = source.strip().splitlines()[0] if source.strip() else ""
        f.line, f.column = line_of(raw, anchor) if anchor else (f.line, f.column)
        f.message = f"the drawn {kind} carries {r.describe()}, which the site's allow-list does not allow: it was removed"
        out.append(f)
    return sorted(out, key=Finding.sort_key)


def switched(found: list[Finding], conv) -> list[Finding]:
    """The project's own switches (`conventions.yml` `rules:`, the maintainers' file) applied: a
    post or a series manifest cannot switch these off (they never see them)."""
    out = []
    for f in found:
        sev = conv.rules.get(f.code, f.severity) if conv is not None else f.severity
        if sev != "off":
            f.severity = sev
            out.append(f)
    return out


def from_report(path: str, raw: str, report) -> list[Finding]:
    """Findings of a mdext.PageReport."""
    return findings(path, raw, report.removed, [(e.kind, e.source, e.message) for e in report.draw_errors],
                    report.draw_removed)


def from_json(path: str, raw: str, data: dict) -> list[Finding]:
    """Findings of a report line a host in another process wrote (mdext.PageReport.as_json)."""
    removed = [Removal(*r) for r in data.get("removed", [])]
    return findings(path, raw, removed, [tuple(e) for e in data.get("draw_errors", [])], [])
