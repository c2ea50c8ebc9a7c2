"""Findings and fixes as LSP values: a diagnostic's range, severity, code and link; a fix's text edits;
a rule's docs as hover text. Everything the editor shows of the engine is worded here (lsprotocol
types only; the server in serieskit/lsp/server.py sends them)."""
from __future__ import annotations

import os

from lsprotocol import types as T

from serieskit.lint.cli import UsageError, explain
from serieskit.lint.fix import applicable
from serieskit.finding import Edit
from serieskit.model.site import Finding
from serieskit.model import urls
from .text import Text

SOURCE = "series-lint"                       # what the editor shows as the diagnostics' origin
FIX_ALL = f"{T.CodeActionKind.SourceFixAll.value}.{SOURCE}"   # source.fixAll.series-lint
SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "info": T.DiagnosticSeverity.Information}


def rules_page() -> str | None:
    """The address of the site's 写作规范 page (serieskit/model/pagetable.py `rules.md`), when the site's
    published address is known: SITE_URL, the variable mkdocs.yml's `site_url` reads (its default is
    the local preview, which is no place to send a reader)."""
    base = os.environ.get("SITE_URL", "").strip()
    if not base.startswith(("https://", "http://")):
        return None
    return urls.rules_url(base)


def lsp_range(text: Text, a: int, b: int, encoding: str) -> T.Range:
    (l1, c1), (l2, c2) = text.position(a, encoding), text.position(b, encoding)
    return T.Range(start=T.Position(line=l1, character=c1), end=T.Position(line=l2, character=c2))


def finding_range(f: Finding, text: Text, encoding: str) -> T.Range:
    """Where a finding is: from its column to the end of what its fix replaces there; without one,
    the whole line for a finding at column 1 (it is about the line), else the word at the column."""
    start = text.engine_offset(f.line, f.column)
    end = next((text.engine_offset(e.line, e.end) for e in f.fix or ()
                if e.line == f.line and e.start == f.column and e.end > e.start), None)
    if end is None:
        end = text.engine_line(f.line)[1] if f.column <= 1 else text.word_end(f.line, f.column)
    return lsp_range(text, start, max(start, end), encoding)


def diagnostic(f: Finding, r: T.Range, rules_url: str | None) -> T.Diagnostic:
    """The finding as `series-lint` reports it: the same code, severity and message (the hint, which
    the CLI prints on the next line, is in the hover and the quick fix's title)."""
    href = f"{rules_url}#{urls.rule_anchor(f.code)}" if rules_url and f.code else None
    return T.Diagnostic(range=r, message=f.message, severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
                        code=f.code or None, source=SOURCE,
                        code_description=T.CodeDescription(href=href) if href else None,
                        data={"hint": f.hint} if f.hint else None)


def text_edits(edits: list[Edit], nlines: int, text: Text, encoding: str) -> list[T.TextEdit]:
    """The engine's edits as LSP text edits: the ones `series-lint --fix` applies (serieskit/lint/fix.py)."""
    out = []
    for e in applicable(edits, nlines):
        a, b = text.engine_offset(e.line, e.start), text.engine_offset(e.line, e.end)
        out.append(T.TextEdit(range=lsp_range(text, a, b, encoding), new_text=e.text))
    return out


def quick_fix(uri: str, f: Finding, d: T.Diagnostic, edits: list[T.TextEdit]) -> T.CodeAction:
    return T.CodeAction(title=f"{f.code}: {f.hint or f.message}", kind=T.CodeActionKind.QuickFix,
                        diagnostics=[d], is_preferred=True, edit=T.WorkspaceEdit(changes={uri: edits}))


def fix_all(uri: str, text: Text, new: str, n: int, encoding: str) -> T.CodeAction:
    """One edit from the first to the last changed character: what `series-lint --fix` makes of the file."""
    a, b, rep = text.edit_to(new)
    edit = T.TextEdit(range=lsp_range(text, a, b, encoding), new_text=rep)
    return T.CodeAction(title=f"Fix all {SOURCE} findings in this file ({n} fixable)", kind=FIX_ALL,
                        edit=T.WorkspaceEdit(changes={uri: [edit]}))


def hover_text(found: list[Finding], markdown: bool) -> str:
    """The docs of each rule found at a place (what `series-lint --explain CODE` prints), each after
    the hints of its findings there."""
    parts, seen = [], []
    for f in found:
        if f.code and f.code not in seen:
            seen.append(f.code)
    for code in seen:
        hints = [f.hint for f in found if f.code == code and f.hint]
        lead = "".join(f"{'**hint:**' if markdown else 'hint:'} {h}\n\n" for h in dict.fromkeys(hints))
        try:
            parts.append(lead + explain(code, markdown=markdown))
        except UsageError:   # a code the registry does not know (the engine's own findings always have one)
            parts.append(lead + code)
    return ("\n---\n\n" if markdown else "\n\n").join(parts)


def contains(r: T.Range, p: T.Position) -> bool:
    return (r.start.line, r.start.character) <= (p.line, p.character) <= (r.end.line, r.end.character)


def overlaps(r: T.Range, q: T.Range) -> bool:
    return ((r.start.line, r.start.character) <= (q.end.line, q.end.character)
            and (q.start.line, q.start.character) <= (r.end.line, r.end.character))
