"""The MkDocs adapter's modules, one per concern, imported by hooks/series.py (the file mkdocs.yml lists):
a package of its own name, so that none of them lands in `sys.modules` as a bare `context`, `state`,
`search` or `gate` beside other packages' modules."""
