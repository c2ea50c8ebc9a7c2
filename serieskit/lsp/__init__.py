"""The language server (`series-lsp`, `python -m serieskit.lsp`): the engine in the editor.

The only part of serieskit that needs pygls; it is imported by nothing else. `server.py` speaks the
protocol, `convert.py` words findings and fixes as LSP values, `text.py` maps the engine's places
(lines, code point columns) to LSP's (UTF-16 code units by default).
"""
