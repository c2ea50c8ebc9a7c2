"""The linter: the rules (one module each), the engine that runs them, suppression comments, fixes, reporters and the command line."""
