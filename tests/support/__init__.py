"""What the tests share: building and serving a site, driving the browser and the editor server, the
bad-input corpus, reading drawings, the HTML oracle, and the throw-away projects (project.py)."""
