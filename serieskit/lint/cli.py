"""`series-lint` / `python scripts/lint.py`: check posts against the series conventions.

Exit status: 0 clean, 1 errors found (warnings too with --strict), 2 usage or internal error.
"""
from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import re
import sys
import textwrap
from pathlib import Path

from . import report
from serieskit.conventions import CONVENTIONS_FILE, ConfigError, load_conventions
from .engine import lint, relaxed_security
from serieskit.model.loader import load_site
from serieskit.model.site import SERIES_DIR
from serieskit.parse.parsecache import FrontmatterCache, HitCache, VerdictCache
from serieskit.model.forking import default_jobs
from .rules import REGISTRY


class UsageError(Exception):
    pass


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding conventions.yml (else `start`)."""
    for d in [start, *start.parents]:
        if (d / CONVENTIONS_FILE).is_file() and (d / SERIES_DIR).is_dir():
            return d
    for d in [start, *start.parents]:
        if (d / CONVENTIONS_FILE).is_file():
            return d
    return start


def _codes(values: list[str] | None) -> set[str] | None:
    if not values:
        return None
    out = {c.strip().upper() for v in values for c in v.split(",") if c.strip()}
    for c in out:
        if c not in REGISTRY and not any(code.startswith(c) for code in REGISTRY):
            raise UsageError(f"unknown rule code or prefix `{c}` (see --list-rules)")
    return out


def _date(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{value}` is not a date (YYYY-MM-DD)")


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"`{value}` is not a number of processes (1 or more)")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="series-lint",
        description="Check Markdown posts under series/ against the series' writing conventions.",
        epilog="Exit status: 0 clean, 1 errors (or warnings with --strict), 2 usage or internal error.")
    p.add_argument("paths", nargs="*", help="posts or folders to check (default: the whole of series/)")
    p.add_argument("--root", type=Path, help="project root (default: nearest folder with conventions.yml)")
    p.add_argument("--format", choices=sorted(report.FORMATS), default="text")
    p.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    p.add_argument("--verbose", "-v", action="store_true", help="also show info findings")
    p.add_argument("--select", action="append", metavar="CODES", help="only these codes or prefixes (comma-separated)")
    p.add_argument("--ignore", action="append", metavar="CODES", help="skip these codes or prefixes (comma-separated)")
    p.add_argument("--fix", action="store_true", help="apply safe auto-fixes in place (atomic writes)")
    p.add_argument("--diff", action="store_true", help="print what --fix would change, change nothing")
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    p.add_argument("--list-rules", action="store_true", help="list every rule")
    p.add_argument("--no-cache", action="store_true", help="read and write nothing under .cache/series-lint/ (every frontmatter parsed and every file checked again)")
    p.add_argument("--jobs", "-j", type=_jobs, default=default_jobs(), metavar="N",
                   help="processes for the post rules (default: the cores available)")
    p.add_argument("--today", type=_date, help="date for staleness checks (default: SOURCE_DATE_EPOCH or today)")
    return p


def explain(code: str, markdown: bool = False) -> str:
    """A rule's documentation as `--explain` prints it; `markdown=True` gives the same text as Markdown
    (the heading line in bold, the examples in fences: the editor's hover shows it)."""
    rule = REGISTRY.get(code.upper())
    if rule is None:
        raise UsageError(f"unknown rule code `{code}` (see --list-rules)")
    scope = "series posts" if rule.scope == "series" else ("project files" if rule.target == "site" else "every post")
    fix = "yes" if rule.fixable else "no"
    d = rule.doc_sections()
    head = f"{rule.code} ({rule.slug}) — {rule.severity}, applies to {scope}, auto-fix: {fix}"
    examples = "".join(f"\n\n{title}:\n{_example(d[key], markdown)}" for key, title in (("bad", "Bad"), ("good", "Good"))
                       if d.get(key))
    return f"{f'**{head}**' if markdown else head}\n\n{rule.doc()}{examples}\n"


def _example(text: str, markdown: bool) -> str:
    """An example indented by four spaces, or (Markdown) in a fence longer than any backtick run in it."""
    if not markdown:
        return textwrap.indent(text, "    ")
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", text)), default=0))
    return f"{fence}markdown\n{text}\n{fence}"


def _resolve_paths(root: Path, paths: list[str]) -> set[str] | None:
    if not paths:
        return None
    out: set[str] = set()
    for raw in paths:
        p = Path(raw)
        p = (Path.cwd() / p) if not p.is_absolute() else p
        if not p.exists() and not p.is_symlink():
            raise UsageError(f"{raw}: no such file or folder")
        try:
            rel = p.absolute().relative_to(root.absolute()).as_posix()
        except ValueError:
            try:
                rel = p.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                raise UsageError(f"{raw}: not inside the project root {root}")
        out.add(rel)
    return out


def _expand(site, wanted: set[str] | None) -> set[str] | None:
    """Turn folders into the posts and manifests under them."""
    if wanted is None:
        return None
    files = {p.rel for p in site.posts} | {s.manifest_rel for s in site.series.values()} | {
        s.glossary_rel for s in site.series.values() if s.glossary_rel} | {f.path for f in site.fs_problems} | {
        p.path for p in site.assets.problems}
    out = set()
    for w in wanted:
        if w in ("", ".", CONVENTIONS_FILE):
            return None  # the whole project, or the conventions every post is checked against
        matched = {f for f in files if f == w or f.startswith(w.rstrip("/") + "/")}
        out |= matched or {w}
    return out


def _load(root: Path, conv, args, cache=None, verdicts=None, **kw):
    """The site as the lint reads it: checked only (the lint publishes nothing, so its asset plan
    needs the SVG checks' verdicts, not sanitized files). The caches it was read with are saved."""
    site = load_site(root, conv, today=args.today, jobs=args.jobs, checked_only=True, cache=cache, verdicts=verdicts, **kw)
    if cache is not None:
        cache.save()
    if verdicts is not None:
        verdicts.save()
    return site


def _fix(args, root: Path, conv, site, findings, scope, out, err):
    """`--fix` (write, then lint again, up to MAX_FIX_ROUNDS) or `--diff` (print what it would write).
    Returns (site, findings, exit status for --diff or None). A file that cannot be written safely
    (read-only, a link out of the project, a read-only folder) is named on stderr and left as it is."""
    from .fix import MAX_FIX_ROUNDS, NotWritten, planned_changes, unified_diff, write_fixed   # (tempfile, difflib: only for fixes)
    only, select, ignore, hits, cache = scope
    changed_any = False
    refused: set[str] = set()
    for _ in range(MAX_FIX_ROUNDS):
        changes = {rel: c for rel, c in planned_changes(site, findings).items() if rel not in refused}
        if not changes:
            break
        changed_any = True
        for rel, (post, data, n) in sorted(changes.items()):
            if args.diff:
                out.write(unified_diff(post, data))
                continue
            try:
                write_fixed(post.path, data, root)
            except NotWritten as exc:
                refused.add(rel)
                err.write(report.printable(f"{rel}:1:1: not fixed: {exc}") + "\n")
                continue
            err.write(report.printable(f"fixed {n} finding{'s' if n != 1 else ''} in {rel}") + "\n")
        if args.diff:
            break
        site = _load(root, conv, args, previous=site, cache=cache)
        findings = lint(site, only, select, ignore, hits, jobs=args.jobs)
    return site, findings, ((1 if changed_any else 0) if args.diff else None)


def run(argv: list[str] | None = None, out=None, err=None, keep: list | None = None) -> int:
    """The CLI's work and exit status. `keep`: a list the loaded sites are put in, for a caller that
    ends the process next and need not free them (main())."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    try:
        if args.list_rules:
            for r in REGISTRY.values():
                out.write(f"{r.code:8} {r.severity:8} {r.slug:28} {r.doc_sections()['summary']}\n")
            return 0
        if args.explain:
            out.write(explain(args.explain))
            return 0
        select, ignore = _codes(args.select), _codes(args.ignore)
        root = (args.root or find_root(Path.cwd())).resolve()
        conv = load_conventions(root / CONVENTIONS_FILE)
        wanted = _resolve_paths(root, args.paths)
        cache = None if args.no_cache else FrontmatterCache(root)
        verdicts = None if args.no_cache else VerdictCache(root)
        site = _load(root, conv, args, cache=cache, verdicts=verdicts)
        if keep is not None:
            keep.append(site)
        only = _expand(site, wanted)
        hits = None if args.no_cache else HitCache(root)
        findings = lint(site, only, select, ignore, hits, jobs=args.jobs)
        if args.fix or args.diff:
            site, findings, diff_status = _fix(args, root, conv, site, findings, (only, select, ignore, hits, cache), out, err)
            if keep is not None:
                keep.append(site)
            if diff_status is not None:
                return diff_status
        shown = [f for f in findings if args.verbose or f.severity != "info"]
        out.write(report.FORMATS[args.format](shown, root))
        if args.format == "text":
            err.write(report.summary(shown))
        if args.strict:
            for note in relaxed_security(conv):
                err.write(report.printable(note) + "\n")
        if any(f.code == "SPEC002" for f in findings):
            return 2
        if any(f.severity == "error" for f in findings):
            return 1
        if args.strict and any(f.severity == "warning" for f in findings):
            return 1
        return 0
    except UsageError as exc:
        err.write(f"series-lint: error: {exc}\n")
        return 2
    except ConfigError as exc:
        err.write(report.problem(exc.path, exc.line, exc.message) + "\n")
        return 2
    except KeyboardInterrupt:
        err.write("series-lint: interrupted\n")
        return 2


def main() -> None:
    # A run is a short process whose objects (the parsed posts above all) nearly all live until it
    # exits: the cyclic garbage collector's passes would only walk them again and again (the 性能
    # page has the figure), so the process goes without it; and it ends without freeing them one
    # by one (os._exit, as mypy ends its runs): the system takes the memory back at once. Nothing is
    # left to do at that point: the caches are written, the child processes joined, and the output
    # is flushed here. (run() itself, called in a longer-lived process such as the tests, leaves the
    # collector alone and frees what it made.)
    gc.disable()
    loaded: list = []
    try:
        code = run(keep=loaded)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`series-lint --list-rules | head`): not an error to report, and the
        # last flush must not meet the closed pipe either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)


if __name__ == "__main__":
    main()
