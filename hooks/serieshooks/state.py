"""What the adapter keeps, in one place: a `Process` per process and a `BuildState` per build.

`mkdocs build` runs one build in its process; `mkdocs serve` runs one build per change, in one process
(MkDocs loads the hook files once per process): the `Process` lives as long as that process, and each
build starts a fresh BuildState in on_config. Nothing else in hooks/ keeps state.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from serieskit.pipeline.project import Build, Project
from serieskit.publish.plan import PagePlan

from . import speedups
from .serve_cache import ServeCache

@dataclass
class BuildState:
    """One build: the engine's view of the project and what the events of this build share."""
    build: Build
    plan: PagePlan | None = None                                  # the page plan (on_files): files, page metadata
    contents: dict[str, str] = field(default_factory=dict)        # Post.rel -> its HTML (the feeds)
    allowed: set[str] = field(default_factory=set)                # sha256 of the theme's inline scripts
    policy: str = ""                                              # the Content-Security-Policy
    errors: int = 0                                               # convention errors (the strict gate)
    render_errors: dict[str, list] = field(default_factory=dict)  # src_uri -> SPEC002 findings (upstream.py)


class Process:
    """One `mkdocs` process: the command, the engine's `Project` (it re-parses only changed files),
    the serve cache (serve only, with the speed-ups on: hooks/serieshooks/speedups.py) and the current build."""

    def __init__(self):
        self.command = "build"
        self.project = Project()
        self.serve_cache: ServeCache | None = None
        self.current: BuildState | None = None
        self.drawer = None          # serieskit.publish.draw.Drawer, made by hooks/serieshooks/drawing.py on the first build

    def start(self, command: str) -> None:
        self.command = command
        self.serve_cache = ServeCache() if command == "serve" and speedups.on() else None

    @property
    def serving(self) -> bool:
        return self.command == "serve"

    @property
    def include_drafts(self) -> bool:
        """What the generated lists and the navigation show: drafts too while serving, as MkDocs
        builds the draft pages themselves (InclusionLevel.DRAFT) only for `mkdocs serve`."""
        return self.serving
