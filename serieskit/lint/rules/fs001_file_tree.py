from . import Hit, Rule


class FileTree(Rule):
    """Every file under series/ can be read and stays inside series/.

    What:
    A symlink under `series/` is broken, loops (`a -> b -> a`), points outside `series/` (to `.git/`,
    to another folder of the project, or elsewhere on the machine) or to a hidden file, a file cannot
    be read, or an entry is not a regular file (a named pipe, a socket, a device: it is not opened).
    Symlinked folders are not followed. In a git checkout, git must be able to say which files it
    ignores (git-ignored files are never read or published).

    Why:
    A looping link would hang a naive build; a link out of series/ would publish a file from
    elsewhere (`.git/config`, a key, the machine's files).
    """
    code, slug, severity, target = "FS001", "file-tree", "error", "site"
    family = "FS"

    def check_site(self, ctx):
        for f in ctx.site.fs_problems:
            message, hint = MESSAGES[f.kind]
            yield Hit(1, 1, message.format(f.detail), path=f.path, hint=hint)


# Skipped.kind -> (message, hint); `{}` is the link's target or the error
MESSAGES = {
    "broken-link": ("symlink cannot be followed ({})", "remove it"),
    "linked-folder": ("symlinked folder (-> {}) is not followed", "move the files into series/ instead"),
    "link-outside": ("symlink points outside series/ (-> {}); it is not read or published",
                     "put the file itself in series/, or link to a file inside series/"),
    "link-hidden": ("symlink points to a hidden file (-> {}); it is not read or published",
                    "link to a file whose path has no dot-folder or dotfile"),
    "unreadable": ("cannot read the file: {}", None),
    "git-unavailable": ("git cannot say which files it ignores ({}); no file of series/ besides the posts is "
                        "published", "make `git check-ignore` work in this checkout (e.g. git's safe.directory)"),
    "not-a-file": ("not a regular file ({}); it is not read", "remove it: series/ holds files only"),
}
