"""The rule registry: one module per rule in this package, each defining one `Rule` subclass.

A rule has a stable `code` (the contract in the spec), a `slug`, a default `severity`, a `scope`
("all" posts or "series" posts only), a docstring with a summary and What / Why sections, and its
fixtures under `fixtures/<CODE>/`: `bad.md` (or a folder `bad/`) with the findings it must produce
marked inside it, `bad.snap` (their line:column, code, message and hint), `good.md` (or `good/`),
and `fixed.md` for a fixable rule (the bad fixture after `--fix`). The fixtures are the rule's
反例 / 正例 in `--explain` and on the 写作规范 page, and tests/test_rules.py lints each of them
with that rule only. Adding a rule = one module `<code>_<slug>.py` here + its fixtures (see
CONTRIBUTING.md).
"""
from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
import textwrap
from pathlib import Path
from collections.abc import Iterable

from serieskit.finding import Edit
from serieskit.model.site import Finding
from serieskit.model.schema import fill_doc

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SECURITY = "SEC"   # the family of the security rules, which answer to the maintainers only


@functools.cache     # (asked for every rule of every post)
def unsilenceable(code: str) -> bool:
    """A security rule's code (family SEC, in any case, a registered rule or not): no suppression
    comment and no series manifest can silence or lower it (SPEC001 and MAN001 report the attempt);
    only the project's conventions.yml can. The engine, serieskit/lint/suppress.py and MAN001 ask here."""
    return str(code).upper().startswith(SECURITY)

# Markers a fixture uses to say where its findings are (tests/test_rules.py reads them; the examples
# shown to authors leave them out):
#   <!-- expect: CODE[, CODE] -->   the next line has these findings (one marker line per finding)
#   <!-- expect-line N: CODE -->    line N has it (line 1, broken frontmatter, ...)
#   # expect: CODE                  (YAML, at the end of a line) this line has it
#   %% expect-next-line: CODE       (inside a mermaid fence) the next line has it
#   EXPECT                          (a file of a folder fixture) rows of `path line CODE`
MARKER_LINE = re.compile(r"^\s*(?:<!--\s*expect(?:-line\s+\d+)?:[^>]*-->|%%\s*expect-next-line:.*)\s*$")
SERIES_HEADER = "---\nseries: demo\norder: 10\n---\n"   # makes a fixture a series post; left out of examples
MARKER_TAIL = re.compile(r"\s*#\s*expect:\s*[A-Z0-9, ]+\s*$")


def Hit(line: int, col: int, message: str, fix: list[Edit] | None = None, path: str | None = None, *,
        hint: str | None = None) -> Finding:
    """A finding at `line`:`col` as a rule reports it: what is wrong (`message`), what to do (`hint`),
    the edits of an auto-fix (`fix`); site rules name the file (`path`). The engine adds the code,
    the severity and, for post rules, the post's path."""
    return Finding(path or "", line, col, "", "", message, hint, fix)


class Rule:
    code: str = ""
    slug: str = ""
    severity: str = "error"
    scope: str = "all"        # "all" | "series"
    target: str = "post"      # "post" | "site"
    fixable: bool = False
    family: str = ""
    # True for a rule whose hits depend on nothing but the post's own bytes and conventions.yml (no
    # other post, no manifest, no date): the lint CLI keeps them between runs (parsecache.HitCache)
    reads_only_post: bool = False

    def check(self, post, ctx) -> Iterable[Finding]:   # pragma: no cover - interface
        return ()

    def check_site(self, ctx) -> Iterable[Finding]:    # pragma: no cover - interface
        return ()

    @classmethod
    def doc(cls) -> str:
        return fill_doc(inspect.cleandoc(cls.__doc__ or ""))

    @classmethod
    def doc_sections(cls) -> dict[str, str]:
        """The docstring's summary and What / Why sections, and the fixtures as Bad / Good."""
        text = cls.doc()
        parts = re.split(r"^(What|Why):[ \t]*\n?", text, flags=re.M)
        out = {"summary": parts[0].strip()}
        for i in range(1, len(parts) - 1, 2):
            out[parts[i].lower()] = textwrap.dedent(parts[i + 1]).strip("\n")
        for kind in ("bad", "good"):
            example = cls.example(kind)
            if example:
                out[kind] = example
        return out

    @classmethod
    def fixture(cls, kind: str) -> Path | None:
        """`fixtures/<CODE>/<kind>.md` or the folder `fixtures/<CODE>/<kind>/` (kind: bad, good, fixed)."""
        d = FIXTURES / cls.code
        return next((p for p in (d / f"{kind}.md", d / kind) if p.exists()), None)

    @classmethod
    def example(cls, kind: str) -> str:
        """A fixture as authors read it: without the expect markers and the minimal series header
        (`series: demo`, `order: 10`); a folder fixture as each of its files under a `# path` line."""
        fx = cls.fixture(kind)
        if fx is None:
            return ""
        if fx.is_file():
            text = _without_markers(fx.read_text(encoding="utf-8", errors="replace"))
            return text[len(SERIES_HEADER):].lstrip("\n") if text.startswith(SERIES_HEADER) else text
        out = []
        for p in sorted(fx.rglob("*")):
            rel = p.relative_to(fx).as_posix()
            if p.is_symlink():
                out.append(f"# {rel} -> {p.readlink()}")
                continue
            if p.name == "EXPECT" or not p.is_file():
                continue
            data = p.read_bytes()
            text = data.decode("utf-8", errors="replace")
            out.append(f"# {rel}\n{_without_markers(text)}" if b"\0" not in data else f"# {rel} (binary)")
        return "\n\n".join(out)


def _without_markers(text: str) -> str:
    lines = [MARKER_TAIL.sub("", l) for l in text.split("\n") if not MARKER_LINE.match(l)]
    return "\n".join(lines).strip("\n")


def _discover() -> dict[str, Rule]:
    found: dict[str, Rule] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__ and obj.code:
                if obj.code in found:
                    raise RuntimeError(f"rule code {obj.code} defined twice")
                found[obj.code] = obj()
    return dict(sorted(found.items()))


REGISTRY: dict[str, Rule] = _discover()


def get(code: str) -> Rule | None:
    return REGISTRY.get(code.upper())
