"""Frontmatter: split it off the raw text and load it as YAML with each key's line and column.

Dates stay strings (PyYAML would resolve `2026-13-45` itself and raise ValueError); the FMT rules
validate them. Every failure becomes a neutral `Finding` (`Frontmatter.error`) with a line in the raw file.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from serieskit.finding import Finding
from serieskit.finding import problem as _problem
from serieskit.yamlsafe import SafeComposer, check_tree


class _Loader(SafeComposer, yaml.SafeLoader):
    """SafeLoader without the timestamp resolver (dates are validated by the rules, not by PyYAML),
    aliases and deep nesting (serieskit/yamlsafe.py)."""


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(yaml.CSafeLoader):
        """The same loader on libyaml's parser (faster: the 性能 page); used when the YAML is valid."""

    _FastLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
else:  # pragma: no cover - PyYAML built without libyaml
    _FastLoader = _Loader


@dataclass
class Frontmatter:
    data: dict | None = None
    start: int = 0            # line of the opening `---` (1-based); 0 when there is none
    end: int = 0              # line of the closing `---`
    key_pos: dict[str, tuple[int, int]] = field(default_factory=dict)    # key -> (line, col) of the key
    value_pos: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (line, col) of the value
    duplicate_keys: list[tuple[str, int, int]] = field(default_factory=list)
    error: Finding | None = None   # a neutral problem (no code): FMT001 reports it


def yaml_error(exc: Exception, text: str, offset: int = 0) -> Finding:
    """A YAML error as a neutral Finding: line and column 1-based within `text` (lines named in
    the message are shifted by `offset`, the text's first line in its file, minus one).

    When PyYAML stops at the end of the text (an unclosed bracket or quote), the error is placed
    where the unclosed construct started, which is where the author has to look.
    """
    if isinstance(exc, yaml.reader.ReaderError):   # a character YAML does not allow (control characters)
        before = text[:exc.position]
        what = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
        return _problem(before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1,
                        f"character {what} is not allowed in YAML ({exc.reason})", hint="remove it")
    mark = getattr(exc, "problem_mark", None)
    ctx = getattr(exc, "context_mark", None)
    problem = str(getattr(exc, "problem", None) or exc)
    context = getattr(exc, "context", None)
    last_line = text.rstrip("\n").count("\n")
    if mark is not None and ctx is not None and (mark.line > last_line or "end of the stream" in problem
                                                 or "end of stream" in problem or "<stream end>" in problem):
        return _problem(ctx.line + 1, ctx.column + 1, f"{context} that is never closed ({problem})")
    if (mark is not None and ctx is not None and mark.line > ctx.line and context
            and context.startswith("while parsing a flow")):
        # `[a, b` or `{k: v` left open on its line: PyYAML notices only on a later line
        return _problem(ctx.line + 1, ctx.column + 1,
                        f"{context} that is not closed before line {mark.line + 1 + offset} ({problem})")
    if mark is None:
        mark = ctx
    if context and ctx is not None and ctx.line != getattr(mark, "line", None):
        problem = f"{problem} ({context} on line {ctx.line + 1 + offset})"
    return _problem((mark.line + 1) if mark else 1, (mark.column + 1) if mark else 1, problem)


def split(lines: list[str]) -> tuple[int, int]:
    """Return (start, end) 1-based lines of the `---` delimiters, or (0, 0) when there is no block.

    An opening `---` without a closing one returns (1, -1).
    """
    if not lines or lines[0].rstrip() != "---":
        return 0, 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return 1, i + 1
    return 1, -1


def parse(lines: list[str]) -> Frontmatter:
    """Parse the frontmatter block of a post (its raw lines).

    Valid YAML is parsed with libyaml when PyYAML has it; anything that goes wrong is parsed again
    with the pure-Python loader, so error messages and positions never depend on the build of PyYAML.
    """
    fm = _parse(lines, _FastLoader) if _FastLoader is not _Loader else None
    if fm is None or fm.error is not None:
        fm = _parse(lines, _Loader)
    return fm


def _parse(lines: list[str], loader_class) -> Frontmatter | None:
    """Parse with `loader_class`; with the libyaml loader, None where libyaml is known to differ from
    the pure-Python loader (tabs, which libyaml accepts after a colon; empty values, which it places
    on the next line)."""
    fast = loader_class is not _Loader
    start, end = split(lines)
    fm = Frontmatter(start=start, end=end)
    if start == 0:
        fm.error = _problem(1, 1, "no frontmatter", hint="a post starts with a `---` line, YAML keys, and `---`")
        return fm
    if end == -1:
        fm.end = 0
        fm.error = _problem(1, 1, "the frontmatter is never closed", hint="add a `---` line after the YAML keys")
        return fm
    text = "\n".join(lines[start:end - 1])
    if fast and "\t" in text:
        return None
    offset = start  # YAML line 0 is raw line start+1
    loader = None
    try:
        loader = loader_class(text)    # the pure-Python reader rejects control characters right here
        node = loader.get_single_node()
        if fast:
            check_tree(node)           # libyaml's tree: an alias or deep nesting -> the pure-Python loader names it
    except yaml.YAMLError as exc:
        if loader is not None:
            loader.dispose()
        e = yaml_error(exc, text, offset)
        tabs = "\\t" in e.message or "tab" in e.message.lower()
        fm.error = _problem(offset + e.line, e.column, f"the frontmatter YAML does not parse: {e.message}",
                            hint="YAML does not allow tabs for indentation; use spaces" if tabs else e.hint)
        return fm
    if node is None:
        loader.dispose()
        fm.error = _problem(start, 1, "the frontmatter is empty", hint="it needs at least title, slug and date")
        return fm
    if not isinstance(node, yaml.MappingNode):
        loader.dispose()
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a plain value"
        fm.error = _problem(offset + 1 + node.start_mark.line, node.start_mark.column + 1,
                                    f"the frontmatter must be a mapping of keys, not {kind}")
        return fm
    if fast and any(isinstance(v, yaml.ScalarNode) and v.start_mark.index == v.end_mark.index for _, v in node.value):
        loader.dispose()
        return None
    seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
        pos = (offset + 1 + key_node.start_mark.line, key_node.start_mark.column + 1)
        if key in seen:
            fm.duplicate_keys.append((key, *pos))
        seen[key] = pos[0]
        fm.key_pos[str(key)] = pos
        fm.value_pos[str(key)] = (offset + 1 + value_node.start_mark.line, value_node.start_mark.column + 1)
    try:
        data = loader.construct_document(node)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = offset + 1 + (mark.line if mark else 0)
        fm.error = _problem(line, 1, f"the frontmatter YAML does not load: {getattr(exc, 'problem', None) or exc}")
        return fm
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        fm.error = _problem(start + 1, 1, "the frontmatter must be a mapping of keys")
        return fm
    fm.data = {str(k): v for k, v in data.items()}
    return fm
