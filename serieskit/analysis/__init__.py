"""Views of a parsed post shared by the rules and the renderer: the lead, the prose, quotation marks, figures, sections, mermaid fences."""
