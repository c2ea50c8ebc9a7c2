"""The conventions config (`conventions.yml`): palette, patterns, staleness and reading speed.

Read once per run; the linter, the build's CSS/mermaid theme and the generated rules page all take
the same `Conventions` object, so the palette cannot drift between them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CONVENTIONS_FILE = "conventions.yml"
# The data files conventions.yml may let authors publish next to their posts (`assets: data_files:`):
# types a browser shows as text or offers as a download, never runs (serieskit/assets.py).
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
    """Load and validate `conventions.yml`. Raises ConfigError with a line number on bad input."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(str(path), "the conventions file is missing (expected conventions.yml at the project root)")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), f"cannot read the conventions file: {exc}")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(str(path), f"YAML does not parse: {getattr(exc, 'problem', exc)}",
                          (mark.line + 1) if mark else 1)
    if not isinstance(data, dict):
        raise ConfigError(str(path), "the conventions file must be a mapping")
    spath = str(path)
    palette = []
    for i, item in enumerate(_req(data, "palette", list, spath)):
        if not isinstance(item, dict) or not {"name", "fill", "stroke"} <= set(item):
            raise ConfigError(spath, f"palette entry {i + 1} needs name, fill and stroke")
        fill, stroke = norm_hex(str(item["fill"])), norm_hex(str(item["stroke"]))
        if not fill or not stroke:
            raise ConfigError(spath, f"palette entry `{item['name']}` has a colour that is not #rrggbb")
        palette.append(Colour(str(item["name"]), str(item.get("zh", item["name"])), str(item["fill"]).upper(),
                              str(item["stroke"]).upper()))
    neutrals = {str(k): str(v) for k, v in _req(data, "neutrals", dict, spath).items()}
    patterns = _req(data, "patterns", dict, spath)
    staleness = data.get("staleness") or {}
    reading = data.get("reading") or {}
    allowed = {norm_hex(c.fill) for c in palette} | {norm_hex(c.stroke) for c in palette}
    allowed |= {norm_hex(v) for v in neutrals.values() if norm_hex(v)}
    try:
        conv = Conventions(
            path=spath,
            palette=palette,
            neutrals=neutrals,
            default_node=str(data.get("default_node", palette[0].name if palette else "")),
            classdef_diagrams=tuple(data.get("classdef_diagrams") or ("flowchart", "graph")),
            sister_prefix=str(patterns["sister_prefix"]),
            sister_separator=re.compile(str(patterns["sister_separator"])),
            planned_marker=str(patterns["planned_marker"]),
            banner_prefix=str(patterns["banner_prefix"]),
            banner_regex=re.compile(str(patterns["banner_regex"])),
            skeleton_heading=str(patterns["skeleton_heading"]),
            skeleton_columns=[str(c) for c in patterns["skeleton_columns"]],
            closing_sections=tuple(str(c) for c in patterns["closing_sections"]),
            stale_after_days=int(staleness.get("stale_after_days", 180)),
            standing_examples=tuple(str(e) for e in (data.get("standing_examples") or [])),
            cjk_chars_per_minute=int(reading.get("cjk_chars_per_minute", 400)),
            words_per_minute=int(reading.get("words_per_minute", 200)),
            allowed_colours=frozenset(a for a in allowed if a),
            data_files=data_files(data.get("assets"), spath),
        )
    except KeyError as exc:
        raise ConfigError(spath, f"missing pattern {exc}")
    except (re.error, ValueError, TypeError) as exc:
        raise ConfigError(spath, f"invalid value: {exc}")
    if conv.default_node not in conv.class_names:
        raise ConfigError(spath, f"default_node `{conv.default_node}` is not a palette colour")
    import hashlib
    conv.fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return conv
