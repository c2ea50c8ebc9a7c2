"""The reporters: every text the engine prints about a finding comes from here.

text (`path:line:col: CODE [severity] message`, the hint on the next line), json, GitHub
annotations, SARIF 2.1.0. The lint CLI, the MkDocs hook's log and `new_post` all use `line()` /
`text()`; a hint is never glued to the message, so tools can show it as help. A site build's report
(`build_messages`, `page_messages`, `policy_error`, `aborted`: the strict gate's message) is the
same on both hosts: each adapter only prints it its own way.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from serieskit import __version__
from serieskit.model.site import Finding
from .engine import relaxed_security
from .rules import REGISTRY

SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


HINT_PREFIX = "  hint: "

# What a terminal would act on rather than show: C0 controls but tab (newlines too: one finding is one
# line), DEL, C1 controls (ESC and CSI among them), and the bidirectional overrides that reorder what
# a reader sees (U+202A-U+202E, U+2066-U+2069).
UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every control character shown as an escape (`\\x1b`, `\\u202e`): post text quoted in
    a message (a link, a title, a file name) cannot move the cursor, retitle the terminal or fake a line."""
    if not UNPRINTABLE.search(text):
        return text
    return UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                           text)


def line(f: Finding, severity: bool = True) -> str:
    """One finding on one line: `path:line:col: CODE [severity] message` (no hint; controls escaped)."""
    sev = f" [{f.severity}]" if severity else ""
    return printable(f"{f.path}:{f.line}:{f.column}: {f.code}{sev} {f.message}")


def entry(f: Finding, severity: bool = True) -> str:
    """A finding as text: its line, then `  hint: …` on the next line when it has a hint."""
    return line(f, severity) + (f"\n{HINT_PREFIX}{printable(f.hint)}" if f.hint else "")


def problem(path: str, line_no: int, message: str, column: int = 1) -> str:
    """A problem that stops a run before any rule (a bad conventions.yml): `path:line:col: message`."""
    return printable(f"{path}:{line_no}:{column}: {message}")


def text(findings: list[Finding], root=None) -> str:
    lines = [entry(f) for f in findings]
    return "\n".join(lines) + ("\n" if lines else "")


def summary(findings: list[Finding]) -> str:
    if not findings:
        return "No findings.\n"
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    parts = [f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n]
    fixable = sum(1 for f in findings if f.fixable)
    tail = f" ({fixable} fixable with --fix)" if fixable else ""
    return f"Found {', '.join(parts)}{tail}.\n"


def as_json(findings: list[Finding], root=None) -> str:
    return json.dumps([{"path": f.path, "line": f.line, "column": f.column, "code": f.code,
                        "severity": f.severity, "message": f.message, "hint": f.hint, "fixable": f.fixable}
                       for f in findings], ensure_ascii=False, indent=2) + "\n"


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def github(findings: list[Finding], root=None) -> str:
    out = []
    for f in findings:
        props = f"file={_gh_escape(printable(f.path), True)},line={f.line},col={f.column},title={_gh_escape(f.code, True)}"
        body = printable(f"{f.code} {f.message}") + (f"\nhint: {printable(f.hint)}" if f.hint else "")
        out.append(f"::{GITHUB_LEVEL[f.severity]} {props}::{_gh_escape(body)}")
    return "\n".join(out) + ("\n" if out else "")


def sarif(findings: list[Finding], root=None) -> str:
    rules = list(REGISTRY.values())
    index = {r.code: i for i, r in enumerate(rules)}
    driver_rules = []
    for r in rules:
        d = r.doc_sections()
        driver_rules.append({
            "id": r.code,
            "name": r.slug,
            "shortDescription": {"text": d.get("summary", r.slug)},
            "fullDescription": {"text": d.get("what", d.get("summary", ""))},
            "help": {"text": r.doc()},
            "defaultConfiguration": {"level": SARIF_LEVEL[r.severity]},
            "properties": {"tags": [r.family, r.scope]},
        })
    results = []
    for f in findings:
        res = {
            "ruleId": f.code,
            "level": SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": f.line, "startColumn": f.column},
            }}],
        }
        if f.code in index:
            res["ruleIndex"] = index[f.code]
        if f.hint:
            res["properties"] = {"help": f.hint}
        results.append(res)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "series-lint", "version": __version__, "rules": driver_rules}},
            "columnKind": "unicodeCodePoints",
            **({"originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).resolve().as_uri() + "/"}}} if root else {}),
            "results": results,
        }],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


FORMATS = {"text": text, "json": as_json, "github": github, "sarif": sarif}


# --- a site build's report, the same on both hosts (hooks/serieshooks/gate.py, zensical_adapter/build.py) ------
@dataclass(frozen=True)
class Message:
    """A line of a build's report. `level`: "error" (a convention error: the strict gate counts it),
    "note" (shown even when the host is told to be quiet), "info", "debug"."""
    level: str
    text: str


def build_messages(findings: list[Finding], conv, strict: bool) -> list[Message]:
    """The build's convention findings, reported before anything is built; under strict, first one
    note per security rule conventions.yml relaxes (the maintainers' choice is stated, not hidden)."""
    out = [Message("note", printable(n)) for n in relaxed_security(conv)] if strict else []
    errors = warnings = 0
    for f in findings:
        if f.severity == "error":
            errors += 1
            out.append(Message("error", entry(f, severity=False)))
        elif f.severity == "warning":
            warnings += 1
            out.append(Message("info", f"warning: {entry(f, severity=False)}"))
        else:
            out.append(Message("debug", entry(f, severity=False)))
    if errors or warnings:
        out.append(Message("info", f"conventions: {errors} error(s), {warnings} warning(s); details: python scripts/lint.py"))
    return out


def page_messages(found: list[Finding]) -> list[Message]:
    """What the output gate and the drawings found on a converted page (serieskit/publish/outputgate.py)."""
    return [Message("error", entry(f, severity=False)) if f.severity == "error"
            else Message("info", f"{f.severity}: {entry(f, severity=False)}") for f in found]


def policy_error(where: str, start: str) -> Message:
    """A built page carries an inline script the site's policy does not allow (serieskit/publish/csp.py)."""
    return Message("error", printable(
        f"{where}:1:1: SEC001 the built page carries an inline script the site's policy does not allow (`{start}`); "
        f"posts carry no scripts, and a theme feature's script belongs in serieskit/publish/csp.py THEME_SCRIPTS"))


def aborted(errors: int, host_warnings: int = 0, host: str = "") -> str:
    """The strict gate's message: the build stops on its convention errors (and the host's own warnings)."""
    parts = [f"{errors} convention error(s)"] if errors else []
    if host_warnings:
        parts.append(f"{host_warnings} {host} warning(s)")
    return (f"Aborted with {' and '.join(parts)} in strict mode "
            f"(details above; python scripts/lint.py lists the convention errors too)")
