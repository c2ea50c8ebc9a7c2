"""The site's colour theme, generated from conventions.yml: the palette as CSS custom properties and
the mermaid variables that Material's renderer reads inside each diagram's shadow root. The linter
reads the same file, so the palette on the page and the palette the rules allow cannot drift.
"""
from __future__ import annotations

from serieskit.conventions import Conventions


def palette_css(conv: Conventions) -> str:
    d = conv.colour(conv.default_node)
    text, line, white = conv.neutrals["text"], conv.neutrals["line"], conv.neutrals["white"]
    yellow = conv.colour("yellow") if "yellow" in conv.class_names else d
    lines = ["/* Generated from conventions.yml at build time; do not edit. */", ":root {"]
    for c in conv.palette:
        lines.append(f"  --series-{c.name}-fill: {c.fill};")
        lines.append(f"  --series-{c.name}-stroke: {c.stroke};")
    lines += [f"  --series-text: {text};", f"  --series-line: {line};", f"  --series-white: {white};", "}", "",
              "/* Diagrams sit on white paper in light and dark mode alike: the pastel palette is made for it,",
              "   and node text keeps its contrast. Unstyled nodes get the default palette colour. */",
              ".md-typeset .mermaid {",
              f"  --md-mermaid-node-bg-color: {d.fill};",
              f"  --md-mermaid-node-fg-color: {d.stroke};",
              f"  --md-mermaid-label-fg-color: {text};",
              f"  --md-mermaid-label-bg-color: {white};",
              f"  --md-mermaid-edge-color: {line};",
              f"  --md-mermaid-sequence-actor-bg-color: {d.fill};",
              f"  --md-mermaid-sequence-actor-fg-color: {text};",
              f"  --md-mermaid-sequence-actor-border-color: {d.stroke};",
              f"  --md-mermaid-sequence-actor-line-color: {line};",
              f"  --md-mermaid-sequence-actorman-bg-color: {d.fill};",
              f"  --md-mermaid-sequence-actorman-line-color: {d.stroke};",
              f"  --md-mermaid-sequence-note-bg-color: {yellow.fill};",
              f"  --md-mermaid-sequence-note-border-color: {yellow.stroke};",
              f"  --md-mermaid-sequence-note-fg-color: {text};",
              f"  --md-mermaid-sequence-label-bg-color: {d.fill};",
              f"  --md-mermaid-sequence-label-fg-color: {text};",
              f"  --md-mermaid-sequence-loop-bg-color: {white};",
              f"  --md-mermaid-sequence-loop-border-color: {line};",
              f"  --md-mermaid-sequence-loop-fg-color: {text};",
              f"  --md-mermaid-sequence-message-fg-color: {text};",
              f"  --md-mermaid-sequence-message-line-color: {line};",
              f"  --md-mermaid-sequence-box-bg-color: {white};",
              f"  --md-mermaid-sequence-box-fg-color: {text};",
              f"  --md-mermaid-sequence-number-bg-color: {d.stroke};",
              f"  --md-mermaid-sequence-number-fg-color: {white};",
              f"  --series-cluster-fill: {white};",
              f"  --series-cluster-stroke: {line};",
              f"  --series-cluster-fg: {text};",
              f"  background: {white};",
              "}", ""]
    for c in conv.palette:
        lines.append(f".series-swatch--{c.name} {{ background: {c.fill}; border-color: {c.stroke}; }}")
    return "\n".join(lines) + "\n"
