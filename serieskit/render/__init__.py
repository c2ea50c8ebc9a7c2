"""A post and the generated pages as the Markdown the site renders, link previews, the series map, the colour theme."""
