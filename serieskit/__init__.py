"""serieskit: the convention engine of the 训推加速 series site.

Plain Python (no MkDocs import): the post and series model, the one-pass Markdown parser, the rule
registry (one module per rule under `serieskit.lint.rules`), suppressions, fixes and reporters. The MkDocs
hooks under `hooks/` and the CLIs under `scripts/` are thin adapters over this package.
"""

__version__ = "0.1.0"
