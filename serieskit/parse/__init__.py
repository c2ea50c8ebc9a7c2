"""Reading a post's raw file: the frontmatter with positions, the Markdown body in one pass, what the lint keeps between runs."""
