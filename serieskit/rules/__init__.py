"""The rule registry: one module per rule in this package, each defining one `Rule` subclass.

A rule has a stable `code` (the contract in the spec), a `slug`, a default `severity`, a `scope`
("all" posts or "series" posts only), and a docstring with What / Why / Bad / Good sections that the
CLI's `--explain` and the generated 写作规范 page print. Adding a rule = adding one module here and
its fixtures under tests/rules/<CODE>/.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import textwrap
from typing import Iterable

from ..model import Edit, Finding
from ..schema import fill_doc

SEVERITIES = ("info", "warning", "error")


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

    def check(self, post, ctx) -> Iterable[Finding]:   # pragma: no cover - interface
        return ()

    def check_site(self, ctx) -> Iterable[Finding]:    # pragma: no cover - interface
        return ()

    @classmethod
    def doc(cls) -> str:
        return fill_doc(inspect.cleandoc(cls.__doc__ or ""))

    @classmethod
    def doc_sections(cls) -> dict[str, str]:
        """Split the docstring into its summary and What / Why / Bad / Good sections."""
        text = cls.doc()
        parts = re.split(r"^(What|Why|Bad|Good):[ \t]*\n?", text, flags=re.M)
        out = {"summary": parts[0].strip()}
        for i in range(1, len(parts) - 1, 2):
            out[parts[i].lower()] = textwrap.dedent(parts[i + 1]).strip("\n")
        return out


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
