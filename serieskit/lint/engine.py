"""Run the rules over a loaded site: severities (defaults, the project's switches in conventions.yml,
per-series switches), suppression comments, select/ignore, and isolation (a rule that crashes reports
SPEC002 and the rest go on).

Security rules (family SEC) answer to the maintainers only: a post's suppression comment and a
series manifest's switch do not silence or lower them (SPEC001 and MAN001 report the attempt); only
`rules:` in conventions.yml can, and `relaxed_security()` lists where it does.
"""
from __future__ import annotations

from dataclasses import dataclass

from serieskit.conventions import Conventions
from serieskit.model.site import SERIES_DIR, Finding, Post, Series, Site
from .rules import REGISTRY, Rule, unsilenceable
from serieskit.lint.rules.spec002_internal_error import rule_crashed
from .suppress import suppressions
from serieskit.model.forking import fork_map



@dataclass
class Ctx:
    site: Site
    conv: Conventions
    series: Series | None = None

    @property
    def today(self):
        return self.site.today


def severity_for(rule: Rule, series: Series | None, conv: Conventions | None = None) -> str:
    """The rule's default, unless conventions.yml switches it; then the series' switch, except for a
    security rule, which only conventions.yml can switch."""
    base = conv.rules.get(rule.code, rule.severity) if conv is not None else rule.severity
    if series is not None and not unsilenceable(rule.code):
        sw = series.rules.get(rule.code)
        if sw:
            return sw
    return base


def relaxed_security(conv: Conventions) -> list[str]:
    """One line per security rule that conventions.yml turns off or lowers below its default severity
    (what `--strict` prints, in the CLI and the build)."""
    order = ("off", "info", "warning", "error")
    out = []
    for code, sev in sorted(conv.rules.items()):
        rule = REGISTRY.get(code)
        if rule is not None and unsilenceable(code) and order.index(sev) < order.index(rule.severity):
            out.append(f"{conv.path}:{conv.rule_lines.get(code, 1)}:1: note: the project's conventions relax "
                       f"security rule {code} to `{sev}` (default `{rule.severity}`)")
    return out


def _wanted(code: str, select: set[str] | None, ignore: set[str] | None) -> bool:
    def match(spec: set[str]) -> bool:
        return any(code == s or (s.isalpha() and code.startswith(s)) for s in spec)
    if select and not match(select):
        return False
    if ignore and match(ignore):
        return False
    return True


def post_rules(select=None, ignore=None) -> list[tuple[str, Rule]]:
    """The post rules a run checks (by --select / --ignore), in code order."""
    return [(code, rule) for code, rule in REGISTRY.items() if rule.target == "post" and _wanted(code, select, ignore)]


def lint_post(post: Post, site: Site, select=None, ignore=None, rules=None, hits=None) -> list[Finding]:
    """The findings of one post; `rules` is post_rules(select, ignore) when the caller has it;
    `hits`: a HitCache (serieskit/parse/parsecache.py) for the rules that read only the post."""
    series = site.series_of(post)
    ctx = Ctx(site, site.conv, series)
    sup = suppressions(post)
    out: list[Finding] = []
    for code, rule in rules if rules is not None else post_rules(select, ignore):
        if rule.scope == "series" and series is None:
            continue   # a rule for series posts, and the post is in no series
        sev = severity_for(rule, series, site.conv)
        if sev == "off":
            continue
        found = hits.get(post.rel, post.digest, code) if hits is not None and rule.reads_only_post else None
        if found is None:
            try:
                found = list(rule.check(post, ctx))
            except Exception as exc:  # a crashing rule is a bug: report it and go on
                out.append(rule_crashed(post.rel, rule, exc))
                continue
            if hits is not None and rule.reads_only_post:
                hits.put(post.rel, post.digest, code, found)
        last = max(post.nlines, 1)
        silenceable = not unsilenceable(code)
        for h in found:
            if silenceable and (code in sup.file_codes or code in sup.by_line.get(h.line, ())):
                continue
            if h.path in ("", post.rel) and not 1 <= h.line <= last:
                # e.g. "no sister line" in a post that is only frontmatter: its body starts past the end
                h.line, h.column = min(max(h.line, 1), last), 1
            h.path, h.code, h.severity = h.path or post.rel, code, sev
            out.append(h)
    return out


def lint(site: Site, only: set[str] | None = None, select: set[str] | None = None,
         ignore: set[str] | None = None, hits=None, jobs: int = 1) -> list[Finding]:
    """All findings of the site (or of the files in `only`, by repo-relative path), sorted. `hits`:
    a HitCache, saved here. `jobs`: processes for the post rules (serieskit/model/forking.py)."""
    rules = post_rules(select, ignore)
    posts = [post for post in site.posts if only is None or post.rel in only]

    def share(mine: list[Post]) -> list:
        """The findings of these posts, and (from a child process) the hits it found."""
        found = [f for post in mine for f in lint_post(post, site, rules=rules, hits=hits)]
        return [(found, hits.entries_of([p.rel for p in mine]) if hits is not None else {})]

    findings: list[Finding] = []
    for found, entries in fork_map(share, posts, jobs):
        findings.extend(found)
        if hits is not None:
            hits.adopt(entries)
    if hits is not None:
        hits.save(keep=[p.rel for p in site.posts])
    ctx = Ctx(site, site.conv)
    for code, rule in REGISTRY.items():
        if rule.target != "site" or not _wanted(code, select, ignore):
            continue
        try:
            hits = list(rule.check_site(ctx))
        except Exception as exc:
            findings.append(rule_crashed("series", rule, exc))
            continue
        for h in hits:
            if only is not None and not _site_hit_wanted(h.path, site, only):
                continue
            sev = severity_for(rule, _series_of_file(site, h.path), site.conv)
            if sev != "off":
                h.code, h.severity = code, sev
                findings.append(h)
    findings.sort(key=Finding.sort_key)
    return findings


def _series_of_file(site: Site, path: str) -> Series | None:
    """The series a project file belongs to (its manifest, glossary or a file in its folder)."""
    for s in site.series.values():
        if path in (s.manifest_rel, s.glossary_rel) or path.startswith(f"{SERIES_DIR}/{s.slug}/"):
            return s
    return None


def _site_hit_wanted(path: str, site: Site, only: set[str]) -> bool:
    """A site-level finding is shown when its file is linted, or a post of its series is."""
    if path in only:
        return True
    for s in site.series.values():
        if path in (s.manifest_rel, s.glossary_rel):
            return any(p.rel in only for p in site.posts if p.series_slug == s.slug)
    return any(path.startswith(o.rstrip("/") + "/") or o.startswith(path + "/") for o in only)
