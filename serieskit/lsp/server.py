"""`series-lsp`: the convention engine in the editor, a language server over stdio (pygls).

A thin adapter over serieskit/lsp/workspace.py, as serieskit/lint/cli.py is over the engine:

- Diagnostics on open, change (50 ms after the first change not yet linted, on the latest text) and
  save: what `series-lint <the open files>` reports, with each open post's unsaved text in place of its
  file (cross-post rules see the whole project with the buffers in it), published per file: every open
  document of a project, and any other file those findings name (a manifest, another post). Info
  findings too, as Information. Codes, lines, columns and messages are the CLI's.
- Code actions: a quick fix per fixable finding (the engine's edits), and `source.fixAll.series-lint`,
  one edit giving the file what `series-lint --fix` would write.
- Hover on a finding: its rule's docs, the text of `series-lint --explain CODE`.
- The saved files are looked at again (only what changed is re-read) before the lint of an open, a
  save or a watched-file change, and after any lint once the last look is a second old (edits by other
  tools; the open files are linted again if anything changed), so a keystroke never waits for it.
- A document outside a series project (no conventions.yml at or above it), an untitled buffer, or a
  file that is not under series/ gets no diagnostics. A broken conventions.yml is one diagnostic on it.
  Nothing the engine or the server does wrong stops the server: it logs to stderr (stdout is the
  protocol) and answers the next message.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from serieskit import __version__
from serieskit.lint.cli import find_root
from serieskit.conventions import CONVENTIONS_FILE, ConfigError
from serieskit.model.site import SERIES_DIR, Finding
from .workspace import Workspace, is_post_path, is_project_file
from . import convert
from .text import UTF16, Text

LINT_DELAY = 0.05          # s from the first change not yet linted to its lint (at least the last lint's time)
DISK_MAX_AGE = 1.0         # s: after a lint, the disk is looked at again when the last look is older
log = logging.getLogger("series-lsp")


@dataclass
class Doc:
    uri: str
    text: Text
    version: int | None
    project: Workspace | None = None
    rel: str | None = None          # path in its project (None: not in one)
    buffer: bool = True             # the editor's text counts (False: the saved file; see _buffer_counts)
    generation: int = 0             # bumped by every change
    linted: int = -1                # the generation last linted

    @property
    def checked(self) -> bool:
        return self.project is not None and self.rel is not None and is_project_file(self.rel)


class SeriesServer(LanguageServer):
    def __init__(self):
        super().__init__("series-lsp", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.docs: dict[str, Doc] = {}
        self.projects: dict[Path, Workspace] = {}
        self.shown: dict[str, list[tuple[Finding, T.Diagnostic]]] = {}   # uri -> what was last published
        self.others: dict[Path, set[str]] = {}   # project -> uris of files not open that got diagnostics
        self.due: set[Path] = set()              # projects with a change not linted yet
        self.timer: asyncio.TimerHandle | None = None
        self.lint_cost = 0.0
        self.told: set[str] = set()
        self.rules_url = convert.rules_page()

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        return getattr(enc, "value", enc) or UTF16

    # --- projects and documents ------------------------------------------------------------------
    def locate(self, uri: str) -> tuple[Workspace | None, str | None]:
        """The project of a document and its path there; (None, None) for an untitled buffer or a
        file in no series project."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if not path:
            return None, None
        p = Path(path).absolute()
        root = find_root(p.parent)
        if not (root / CONVENTIONS_FILE).is_file():
            return None, None
        root = root.resolve()
        ws = self.projects.get(root)
        if ws is None:
            ws = self.projects[root] = Workspace(root)
        try:
            return ws, p.resolve().relative_to(root).as_posix()
        except (ValueError, OSError, RuntimeError):
            return None, None

    def _buffer_counts(self, doc: Doc) -> bool:
        """Whether the editor's text, rather than the saved file, is the post: always after a change;
        on open and save, unless the saved file is not UTF-8 (the editor shows its own guess at
        decoding it; the file's problem is FMT008, which only the bytes on disk show)."""
        try:
            data = (doc.project.root / doc.rel).read_bytes()
        except OSError:
            return True     # not saved yet: the buffer is the post
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    # --- linting and publishing --------------------------------------------------------------------
    def schedule(self, ws: Workspace) -> None:
        self.due.add(ws.root)
        if self.timer is None:
            delay = max(LINT_DELAY, min(self.lint_cost, 1.0))   # a slow lint (a 5 MB post) leaves the loop room
            self.timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self) -> None:
        self.timer = None
        for root in sorted(self.due):
            self.lint_project(self.projects[root])

    def lint_project(self, ws: Workspace) -> None:
        """Lint the open documents of a project and publish the findings; never raises."""
        self.due.discard(ws.root)
        docs = [d for d in self.docs.values() if d.project is ws and d.checked]
        try:
            if not ws.refreshed:
                ws.refresh()            # opened, saved, a watched file changed: the disk first
            t0 = time.perf_counter()
            for d in docs:
                if is_post_path(d.rel):
                    ws.set_buffer(d.rel, d.text.text.encode("utf-8", "surrogatepass") if d.buffer else None)
            findings = ws.lint(d.rel for d in docs)
            self.publish_project(ws, docs, findings)
            self.lint_cost = time.perf_counter() - t0
            log.info("linted %d open file(s) of %s in %.1f ms", len(docs), ws.root, self.lint_cost * 1000)
            if time.monotonic() - ws.refreshed > DISK_MAX_AGE and ws.refresh():
                self.due.add(ws.root)   # edited on disk by another tool: lint again (the editor has had its answer)
        except ConfigError as exc:
            self.config_problem(ws, docs, exc)
        except Exception as exc:  # a bug in the server or the engine: say so, keep serving
            log.error("linting %s failed:\n%s", ws.root, traceback.format_exc())
            self.tell(f"series-lsp: internal error while checking {ws.root}: {type(exc).__name__}: {exc} "
                      f"(the server's log has the traceback; please report it)", T.MessageType.Error)
        for d in docs:
            d.linted = d.generation
        if ws.root in self.due and self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(LINT_DELAY, self.flush)

    def publish_project(self, ws: Workspace, docs: list[Doc], findings: list[Finding]) -> None:
        by_path: dict[str, list[Finding]] = {}
        for f in findings:
            by_path.setdefault(f.path, []).append(f)
            if f.code == "SPEC002":
                self.tell(f"series-lsp: {f.path}: {f.message}", T.MessageType.Error)
        for d in docs:
            self.publish(d.uri, d.text, by_path.pop(d.rel, []), d.version)
        others: set[str] = set()
        for path, found in by_path.items():
            uri = from_fs_path(str(ws.root / path))
            if uri in self.docs:
                continue    # open, but not as a file of this project (another name of it)
            others.add(uri)
            self.publish(uri, self.file_text(ws, path), found)
        for uri in self.others.get(ws.root, set()) - others:
            if uri not in self.docs:
                self.publish(uri, Text(""), [])
        self.others[ws.root] = others

    def file_text(self, ws: Workspace, rel: str) -> Text:
        """The text of a file that is not open (positions of its findings)."""
        post = ws.site().by_rel.get(rel)
        if post is not None:
            return Text(post.text)
        try:
            return Text((ws.root / rel).read_bytes().decode("utf-8-sig", "replace"))
        except OSError:
            return Text("")

    def publish(self, uri: str, text: Text, found: list[Finding], version: int | None = None) -> None:
        enc = self.encoding
        shown = [(f, convert.diagnostic(f, convert.finding_range(f, text, enc), self.rules_url)) for f in found]
        self.shown[uri] = shown
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=[d for _, d in shown], version=version))

    def config_problem(self, ws: Workspace, docs: list[Doc], exc: ConfigError) -> None:
        """conventions.yml is missing or broken: nothing can be checked. One diagnostic on it, the
        open documents cleared, and the message once in the editor."""
        for d in docs:
            self.publish(d.uri, d.text, [])
        for uri in self.others.pop(ws.root, set()):
            if uri not in self.docs:
                self.publish(uri, Text(""), [])
        path = Path(exc.path)
        f = Finding(CONVENTIONS_FILE, exc.line, 1, "", "error", exc.message)
        if path.is_file():
            uri = from_fs_path(str(path))
            self.publish(uri, Text(path.read_bytes().decode("utf-8", "replace")), [f])
            self.others[ws.root] = {uri}     # cleared by the first lint that works again
        self.tell(f"series-lsp: {exc.path}:{exc.line}: {exc.message}", T.MessageType.Error)

    def tell(self, message: str, kind: T.MessageType = T.MessageType.Info) -> None:
        """Show a message in the editor, once per session (and log it)."""
        log.warning("%s", message)
        if message not in self.told:
            self.told.add(message)
            self.window_show_message(T.ShowMessageParams(type=kind, message=message))

    def current(self, uri: str) -> Doc | None:
        """The document, linted up to its latest change (a code action must match the text)."""
        doc = self.docs.get(uri)
        if doc is not None and doc.checked and doc.linted != doc.generation:
            self.lint_project(doc.project)
        return doc


# --- the protocol ------------------------------------------------------------------------------------
def make_server() -> SeriesServer:
    server = SeriesServer()

    @server.feature(T.INITIALIZED)
    def initialized(ls: SeriesServer, params: T.InitializedParams):
        folders = [f.uri for f in ls.workspace.folders.values()] or ([ls.workspace.root_uri] if ls.workspace.root_uri else [])
        for uri in folders:
            path = to_fs_path(uri) if uri and uri.startswith("file:") else None
            if path and not (find_root(Path(path)) / CONVENTIONS_FILE).is_file():
                ls.tell(f"series-lsp: {path} is not a series project (no {CONVENTIONS_FILE} at or above it): "
                        f"only posts under the {SERIES_DIR}/ folder of such a project are checked")
        _watch_files(ls)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SeriesServer, params: T.DidOpenTextDocumentParams):
        td = params.text_document
        ws, rel = ls.locate(td.uri)
        doc = ls.docs[td.uri] = Doc(td.uri, Text(td.text), td.version, ws, rel)
        if not doc.checked:
            log.info("not checked (no series project, or not under %s/): %s", SERIES_DIR, td.uri)
            return
        doc.buffer = ls._buffer_counts(doc)
        ws.refreshed = 0.0          # look at the disk again
        ls.lint_project(ws)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SeriesServer, params: T.DidChangeTextDocumentParams):
        doc = ls.docs.get(params.text_document.uri)
        if doc is None:
            return
        enc = ls.encoding
        for ch in params.content_changes:
            rng = getattr(ch, "range", None)
            doc.text = doc.text.apply((rng.start.line, rng.start.character) if rng else None,
                                      (rng.end.line, rng.end.character) if rng else None, ch.text, enc)
        doc.version, doc.buffer = params.text_document.version, True
        doc.generation += 1
        if doc.checked:
            ls.schedule(doc.project)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
    def did_save(ls: SeriesServer, params: T.DidSaveTextDocumentParams):
        doc = ls.docs.get(params.text_document.uri)
        if doc is None or not doc.checked:
            return
        doc.buffer = ls._buffer_counts(doc)
        doc.project.refreshed = 0.0
        ls.lint_project(doc.project)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SeriesServer, params: T.DidCloseTextDocumentParams):
        doc = ls.docs.pop(params.text_document.uri, None)
        if doc is None or not doc.checked:
            return
        doc.project.set_buffer(doc.rel, None)       # unsaved text is gone: the saved file counts
        ls.publish(doc.uri, doc.text, [])
        ls.shown.pop(doc.uri, None)
        ls.lint_project(doc.project)                # the others may have depended on it

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: SeriesServer, params: T.DidChangeWatchedFilesParams):
        for ch in params.changes:
            ws, _ = ls.locate(ch.uri)
            if ws is not None:
                ws.refreshed = 0.0
                ls.schedule(ws)

    _register_requests(server)
    return server


def _register_requests(server: SeriesServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(
        code_action_kinds=[T.CodeActionKind.QuickFix, convert.FIX_ALL]))
    def code_action(ls: SeriesServer, params: T.CodeActionParams):
        doc = ls.current(params.text_document.uri)
        if doc is None or not doc.checked:
            return None
        try:
            return _actions(ls, doc, params)
        except Exception:
            log.error("code actions for %s failed:\n%s", doc.uri, traceback.format_exc())
            return None

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: SeriesServer, params: T.HoverParams):
        doc = ls.current(params.text_document.uri)
        if doc is None:
            return None
        here = [(f, d) for f, d in ls.shown.get(doc.uri, []) if convert.contains(d.range, params.position)]
        if not here:
            return None
        fmt = getattr(getattr(ls.client_capabilities.text_document, "hover", None), "content_format", None)
        markdown = not fmt or T.MarkupKind.Markdown in fmt
        value = convert.hover_text([f for f, _ in here], markdown)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown if markdown else T.MarkupKind.PlainText,
                                                value=value), range=here[0][1].range)


def _wanted(only, kind: str) -> bool:
    """Whether a client's `only` list asks for a kind of code action (kinds are hierarchical)."""
    return not only or any(kind == k or kind.startswith(f"{k}.") for k in (getattr(k, "value", k) for k in only))


def _actions(ls: SeriesServer, doc: Doc, params: T.CodeActionParams) -> list[T.CodeAction]:
    only = params.context.only if params.context else None
    shown = ls.shown.get(doc.uri, [])
    post = doc.project.post(doc.rel) if is_post_path(doc.rel) else None
    if post is None or post.decode_error or not any(f.fix for f, _ in shown):
        return []
    out = []
    if _wanted(only, T.CodeActionKind.QuickFix.value):
        for f, d in shown:
            if f.fix and convert.overlaps(d.range, params.range):
                out.append(convert.quick_fix(doc.uri, f, d, convert.text_edits(f.fix, post.nlines, doc.text, ls.encoding)))
    if _wanted(only, convert.FIX_ALL):
        data = doc.project.fixed(doc.rel)
        if data is not None:
            n = sum(1 for f, _ in shown if f.fix)
            out.append(convert.fix_all(doc.uri, doc.text, data.decode("utf-8", "replace"), n, ls.encoding))
    return out


def _watch_files(ls: SeriesServer) -> None:
    """Ask the client to report changes of the project's files (when it can register watchers)."""
    caps = ls.client_capabilities.workspace
    watch = getattr(caps, "did_change_watched_files", None) if caps else None
    if not getattr(watch, "dynamic_registration", False):
        return      # the lints still look at the disk at least once a second
    opts = T.DidChangeWatchedFilesRegistrationOptions(watchers=[
        T.FileSystemWatcher(glob_pattern=f"**/{SERIES_DIR}/**"),
        T.FileSystemWatcher(glob_pattern=f"**/{CONVENTIONS_FILE}")])
    ls.client_register_capability(T.RegistrationParams(registrations=[
        T.Registration(id="series-lsp-files", method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=opts)]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="series-lsp", description="The series conventions in the editor: "
                                 "a language server over stdio (diagnostics, quick fixes, rule docs on hover).")
    ap.add_argument("--stdio", action="store_true", help="talk over stdin / stdout (the default and only transport)")
    ap.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                    help="what goes to stderr (default WARNING)")
    args = ap.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level, format="%(name)s %(levelname)s: %(message)s")
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr          # stdout is the protocol: a stray print must not corrupt it
    from .stdio import serve
    return serve(make_server(), stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
