"""The register of sources (factcheck/sources.yml) checked against the fact-check tables
(factcheck/<slug>.md) and the posts' 参考资料 sections (series/**/*.md): `check(root)` returns one
`Problem` (`path:line: message`) per disagreement. The rules are described in factcheck/README.md.

`register` (the entries and their fields, one spelling per address) -> `tables` (the tables, quotes
and sources cells of a fact-check file) -> `posts` (each post's slug and 参考资料 links) -> `check`;
`cli` is `scripts/check_sources.py`. Plain Python and PyYAML: no MkDocs, no network.
"""
from .check import check
from .register import Problem, normalize_url

__all__ = ["Problem", "check", "normalize_url"]
