"""YAML from contributors (frontmatter, series.yml, glossary.yml, conventions.yml), loaded within bounds.

PyYAML's safe loaders still let a small file cost a lot:

- **aliases** (`&a [...]`, `*a`): a few hundred bytes of nested aliases ("billion laughs") make a
  value that is shared, not copied, while loading, and explodes in time and memory the first time
  something walks it (a search index, a JSON dump, `str()`); no file the engine reads needs them, so
  an alias is refused with its line and column;
- **nesting**: the pure-Python composer recurses once per level, so a value nested a thousand
  levels deep raises RecursionError (a traceback, and the editor's server stops answering);
  nesting deeper than `MAX_DEPTH` is refused with its line and column (libyaml caps it at 1000 on
  its own, and its tree is checked afterwards).

`SafeComposer` is mixed into a pure-Python loader; `check_tree(node)` checks a tree composed by
libyaml (`yaml.CSafeLoader`), whose composer is not Python and cannot be changed: a caller that gets
`Refused` from it parses again with the pure-Python loader, which names the line.
"""
from __future__ import annotations

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent

MAX_DEPTH = 50   # a real file of this project nests 3 levels; SYN002 allows lists 50 deep


class Refused(ComposerError):
    """A YAML construct the engine does not load (an alias, nesting too deep); a YAMLError with a mark."""


def alias_error(mark) -> Refused:
    return Refused(None, None, "YAML aliases (`*name`) are not allowed here: write the value out", mark)


def depth_error(mark) -> Refused:
    return Refused(None, None, f"the YAML is nested more than {MAX_DEPTH} levels deep", mark)


class SafeComposer:
    """Mixed into a pure-Python loader before yaml's own classes: refuses aliases and deep nesting
    while composing, before anything recurses or expands."""
    _depth = 0

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            raise alias_error(self.peek_event().start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise depth_error(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def check_tree(node) -> None:
    """Raise Refused when a composed tree holds a node twice (an alias) or nests past MAX_DEPTH."""
    if node is None:
        return
    seen: set[int] = set()
    stack = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise depth_error(n.start_mark)
        if id(n) in seen:
            raise alias_error(n.start_mark)
        seen.add(id(n))
        if isinstance(n, yaml.ScalarNode):
            continue
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
        else:
            stack.extend((c, depth + 1) for c in n.value)


class Loader(SafeComposer, yaml.SafeLoader):
    """PyYAML's SafeLoader, without aliases and deep nesting."""


def safe_load(text: str):
    """`yaml.safe_load` without aliases and deep nesting (raises a YAMLError with a mark)."""
    loader = Loader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
