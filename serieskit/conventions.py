"""The conventions config (`conventions.yml`): palette, patterns, staleness and reading speed.

Read once per run; the linter, the build's CSS/mermaid theme and the generated rules page all take
the same `Conventions` object, so the palette cannot drift between them.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .yamlsafe import Loader as _SafeLoader

CONVENTIONS_FILE = "conventions.yml"
# The data files conventions.yml may let authors publish next to their posts (`assets: data_files:`):
# types a browser shows as text or offers as a download, never runs (serieskit/model/assets.py).
DATA_SUFFIXES = (".csv", ".tsv", ".txt", ".json")
HEX_COLOUR = re.compile(r"#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})")


class ConfigError(Exception):
    """The conventions file is missing or invalid; `line` is 1-based when known."""

    def __init__(self, path: str, message: str, line: int = 1):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.message, self.line = path, message, line


def norm_hex(value: str) -> str | None:
    """`#abc` / `#AABBCC` / `#aabbccff` -> `#aabbcc`; None when not an opaque hex colour."""
    v = value.strip().lower()
    if not HEX_COLOUR.fullmatch(v):
        return None
    h = v[1:]
    if len(h) in (3, 4):
        if len(h) == 4 and h[3] != "f":
            return None
        h = "".join(c * 2 for c in h[:3])
    elif len(h) == 8:
        if h[6:] != "ff":
            return None
        h = h[:6]
    return "#" + h


@dataclass(frozen=True)
class Colour:
    name: str
    zh: str
    fill: str
    stroke: str


@dataclass
class Conventions:
    path: str
    palette: list[Colour]
    neutrals: dict[str, str]
    default_node: str
    classdef_diagrams: tuple[str, ...]
    sister_prefix: str
    sister_separator: re.Pattern
    planned_marker: str
    banner_prefix: str
    banner_regex: re.Pattern
    skeleton_heading: str
    skeleton_columns: list[str]
    closing_sections: tuple[str, ...]
    stale_after_days: int
    standing_examples: tuple[str, ...]
    cjk_chars_per_minute: int
    words_per_minute: int
    allowed_colours: frozenset[str] = field(default=frozenset())
    data_files: tuple[str, ...] = ()       # suffixes of data files published beside posts (DATA_SUFFIXES)
    fingerprint: str = ""
    # the project's own rule switches (`rules: {CODE: off|info|warning|error}`): the maintainers' file,
    # the only place a security rule (SEC) can be relaxed; `rule_lines`: the line of each switch
    rules: dict[str, str] = field(default_factory=dict)
    rule_lines: dict[str, int] = field(default_factory=dict)

    @property
    def class_names(self) -> frozenset[str]:
        return frozenset(c.name for c in self.palette)

    def colour(self, name: str) -> Colour:
        return next(c for c in self.palette if c.name == name)

    def banner(self, date: str) -> str:
        """The start of a timeliness banner for `date` (`⚠️ 时效声明（最后更新：2026-05-08）`), built
        from `banner_prefix`; what `banner_regex` reads back."""
        return f"{self.banner_prefix}（最后更新：{date}）"

    def classdef_lines(self) -> list[str]:
        """The mermaid `classDef` lines the build injects into every diagram that accepts them."""
        text = self.neutrals["text"]
        return [f"classDef {c.name} fill:{c.fill},stroke:{c.stroke},color:{text}" for c in self.palette]


SWITCH_VALUES = ("off", "info", "warning", "error")
STALE_AFTER_DAYS = 180   # how long a timely post stays current, unless conventions.yml or a series says otherwise
# numbers of the conventions: (dotted key, default, smallest, largest)
NUMBERS = (("staleness.stale_after_days", STALE_AFTER_DAYS, 1, 36500),
           ("reading.cjk_chars_per_minute", 400, 1, 100_000),
           ("reading.words_per_minute", 200, 1, 100_000))
MAX_PATTERN = 500   # characters of a regular expression from the conventions


class _Doc:
    """The conventions' data with the line of each key (`line("reading.words_per_minute")`)."""

    def __init__(self, path: str, text: str):
        self.path = path
        loader = _SafeLoader(text)
        try:
            node = loader.get_single_node()
            self.data = loader.construct_document(node) if node is not None else None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            raise ConfigError(path, f"YAML does not parse: {getattr(exc, 'problem', None) or exc}",
                              (mark.line + 1) if mark else 1)
        finally:
            loader.dispose()
        self.lines: dict[str, int] = {}
        self._index(node, "")

    def _index(self, node, prefix: str) -> None:
        stack = [(node, prefix)]
        while stack:
            n, pre = stack.pop()
            if isinstance(n, yaml.MappingNode):
                for k, v in n.value:
                    key = f"{pre}{k.value}" if isinstance(k, yaml.ScalarNode) else pre.rstrip(".")
                    self.lines.setdefault(key, k.start_mark.line + 1)
                    stack.append((v, key + "."))
            elif isinstance(n, yaml.SequenceNode):
                for i, v in enumerate(n.value):
                    key = f"{pre}{i}"
                    self.lines.setdefault(key, v.start_mark.line + 1)
                    stack.append((v, key + "."))

    def line(self, key: str) -> int:
        while key and key not in self.lines:
            key = key.rpartition(".")[0]
        return self.lines.get(key, 1)

    def error(self, key: str, message: str) -> ConfigError:
        return ConfigError(self.path, message, self.line(key))

    def get(self, key: str, default=None):
        value = self.data
        for part in key.split("."):
            if not isinstance(value, dict) or part not in value:
                return default
            value = value[part]
        return default if value is None else value


def _number(doc: _Doc, key: str, default: int, lo: int, hi: int) -> int:
    v = doc.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise doc.error(key, f"`{key}: {v}` must be a whole number from {lo} to {hi:,}")
    return v


def _pattern(doc: _Doc, key: str) -> re.Pattern:
    """A regular expression of the conventions, compiled; one that does not compile, is too long, or
    could take exponential time on a line that almost matches (a repeat inside a repeat, `(a+)+`,
    or an alternation inside one, `(a|ab)*`) is an error with its line. Python's `re` has no time
    bound, and these patterns run on every post's lines, so the risky shapes are refused before any
    post is read; patterns that are merely slow (polynomial, such as `a*a*a*`) are not caught."""
    raw = doc.get(key)
    if not isinstance(raw, str):
        raise doc.error(key, f"`{key}` must be a regular expression (a string)")
    if len(raw) > MAX_PATTERN:
        raise doc.error(key, f"`{key}` is longer than {MAX_PATTERN} characters")
    try:
        compiled = re.compile(raw)
    except re.error as exc:
        raise doc.error(key, f"`{key}` is not a valid regular expression: {exc}")
    risk = _backtracking_risk(re._parser.parse(raw))   # the tree `re` itself compiles
    if risk:
        raise doc.error(key, f"`{key}` has {risk}, which can take exponential time on a line that almost "
                             f"matches; write it without")
    return compiled


def _backtracking_risk(tree, in_repeat: bool = False) -> str | None:
    """The first nested repeat or repeated alternation in a parsed pattern, described; else None."""
    from re import _constants as c
    for op, av in tree:
        sub: list = []
        inner = in_repeat
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            lo, hi, body = av
            if in_repeat and hi > 1:
                return "a repeat inside a repeat (like `(a+)+`)"
            sub, inner = [body], in_repeat or hi > 1
        if op is c.BRANCH:
            if in_repeat:
                return "an alternation inside a repeat (like `(a|ab)*`)"
            sub = av[1]
        elif op is c.SUBPATTERN:
            sub = [av[3]]
        elif op in (c.ASSERT, c.ASSERT_NOT):
            sub = [av[1]]
        elif op is c.GROUPREF_EXISTS:
            sub = [b for b in av[1:] if b is not None]
        for branch in sub:
            risk = _backtracking_risk(branch, inner)
            if risk:
                return risk
    return None


RULES_DIR = Path(__file__).resolve().parent / "lint" / "rules"
RULE_FILE = re.compile(r"([a-z]+\d{3})_\w+\.py")


def rule_codes() -> frozenset[str]:
    """The rule codes there are, from the rules' file names (`sec003_sanitized_output.py` is SEC003: the
    registry checks that each module's code is its name's), so that the conventions, which every layer
    reads, need not import the linter."""
    return frozenset(m.group(1).upper() for p in RULES_DIR.glob("*.py") if (m := RULE_FILE.fullmatch(p.name)))


def _switches(doc: _Doc) -> dict[str, str]:
    """`rules: {CODE: off|info|warning|error}` of the conventions (YAML reads a bare `off` as false)."""
    codes = rule_codes()
    raw = doc.get("rules", {})
    if not isinstance(raw, dict):
        raise doc.error("rules", "`rules` must be a mapping of rule codes to off, info, warning or error")
    out = {}
    for code, sev in raw.items():
        sev = "off" if sev is False else str(sev)
        if str(code) not in codes:
            raise doc.error(f"rules.{code}", f"`rules`: unknown rule code `{code}` (see series-lint --list-rules)")
        if sev not in SWITCH_VALUES:
            raise doc.error(f"rules.{code}", f"rule switch `{code}: {sev}` must be one of {', '.join(SWITCH_VALUES)}")
        out[str(code)] = sev
    return out


def _req(data: dict, key: str, kind, path: str):
    if key not in data:
        raise ConfigError(path, f"missing key `{key}`")
    value = data[key]
    if not isinstance(value, kind):
        raise ConfigError(path, f"`{key}` must be a {getattr(kind, '__name__', kind)}")
    return value


def data_files(section, path: str) -> tuple[str, ...]:
    """`assets: data_files: [.csv, ...]`: each one of DATA_SUFFIXES (no other type is ever published)."""
    if section is None:
        return ()
    listed = section.get("data_files") if isinstance(section, dict) else None
    if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
        raise ConfigError(path, "`assets: data_files:` must be a list of file suffixes (e.g. [.csv, .json])")
    out = tuple(dict.fromkeys("." + x.strip().lower().lstrip(".") for x in listed))
    wrong = [x for x in out if x not in DATA_SUFFIXES]
    if wrong:
        raise ConfigError(path, f"`assets: data_files:` lists {', '.join(wrong)}: only "
                                f"{', '.join(DATA_SUFFIXES)} can be published as data files")
    return out


def load_conventions(path: str | Path) -> Conventions:
    """Load and validate `conventions.yml`. Raises ConfigError with a line number on bad input:
    YAML that does not parse (or uses aliases, or nests too deep: serieskit/yamlsafe.py), a missing
    key, a number out of range, a regular expression that does not compile or could backtrack
    without end, an unknown rule switch."""
    p = Path(path)
    spath = str(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(spath, "the conventions file is missing (expected conventions.yml at the project root)")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(spath, f"cannot read the conventions file: {exc}")
    doc = _Doc(spath, text)
    data = doc.data
    if not isinstance(data, dict):
        raise ConfigError(spath, "the conventions file must be a mapping")
    palette = []
    for i, item in enumerate(_req(data, "palette", list, spath)):
        if not isinstance(item, dict) or not {"name", "fill", "stroke"} <= set(item):
            raise doc.error(f"palette.{i}", f"palette entry {i + 1} needs name, fill and stroke")
        fill, stroke = norm_hex(str(item["fill"])), norm_hex(str(item["stroke"]))
        if not fill or not stroke:
            raise doc.error(f"palette.{i}", f"palette entry `{item['name']}` has a colour that is not #rrggbb")
        palette.append(Colour(str(item["name"]), str(item.get("zh", item["name"])), str(item["fill"]).upper(),
                              str(item["stroke"]).upper()))
    neutrals = {str(k): str(v) for k, v in _req(data, "neutrals", dict, spath).items()}
    patterns = _req(data, "patterns", dict, spath)
    for key in ("staleness", "reading"):
        if not isinstance(data.get(key) or {}, dict):
            raise doc.error(key, f"`{key}` must be a mapping")
    allowed = {norm_hex(c.fill) for c in palette} | {norm_hex(c.stroke) for c in palette}
    allowed |= {norm_hex(v) for v in neutrals.values() if norm_hex(v)}
    numbers = {key.rpartition(".")[2]: _number(doc, key, *limits) for key, *limits in NUMBERS}
    try:
        conv = Conventions(
            path=spath,
            palette=palette,
            neutrals=neutrals,
            default_node=str(data.get("default_node", palette[0].name if palette else "")),
            classdef_diagrams=tuple(data.get("classdef_diagrams") or ("flowchart", "graph")),
            sister_prefix=str(patterns["sister_prefix"]),
            sister_separator=_pattern(doc, "patterns.sister_separator"),
            planned_marker=str(patterns["planned_marker"]),
            banner_prefix=str(patterns["banner_prefix"]),
            banner_regex=_pattern(doc, "patterns.banner_regex"),
            skeleton_heading=str(patterns["skeleton_heading"]),
            skeleton_columns=[str(c) for c in patterns["skeleton_columns"]],
            closing_sections=tuple(str(c) for c in patterns["closing_sections"]),
            standing_examples=tuple(str(e) for e in (data.get("standing_examples") or [])),
            allowed_colours=frozenset(a for a in allowed if a),
            data_files=data_files(data.get("assets"), spath),
            rules=_switches(doc),
            **numbers,
        )
    except KeyError as exc:
        raise doc.error("patterns", f"missing pattern {exc}")
    except (ValueError, TypeError) as exc:
        raise ConfigError(spath, f"invalid value: {exc}")
    if conv.default_node not in conv.class_names:
        raise doc.error("default_node", f"default_node `{conv.default_node}` is not a palette colour")
    conv.rule_lines = {code: doc.line(f"rules.{code}") for code in conv.rules}
    conv.fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return conv
