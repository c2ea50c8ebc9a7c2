"""What the tests share: building and serving a site, driving the browser and the editor server, the
bad-input corpus, reading drawings, the HTML oracle, the throw-away projects (project.py), and the
checks run in a copy of the project with a rule added by CONTRIBUTING.md's recipe (added_rule.py)."""
