"""One build of the site for a host: the project kept across rebuilds, the build's findings and renderings, a post page's data."""
