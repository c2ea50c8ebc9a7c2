"""What a host writes out: feeds, the CSP, the search index, vendored files, the output gate and drawings, sources for a host without plugins."""
