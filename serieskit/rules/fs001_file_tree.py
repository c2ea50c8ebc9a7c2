from . import Hit, Rule


class FileTree(Rule):
    """Every file under series/ can be read and stays inside the project.

    What:
    A symlink under `series/` is broken, loops (`a -> b -> a`), points outside the project, a file
    cannot be read, or an entry is not a regular file (a named pipe, a socket, a device: it is not
    opened). Symlinked folders are not followed.

    Why:
    A looping link would hang a naive build; a link out of the project would publish a file from
    elsewhere on the machine.
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
    "link-outside": ("symlink points outside the project (-> {}); it would publish that file", None),
    "unreadable": ("cannot read the file: {}", None),
    "not-a-file": ("not a regular file ({}); it is not read", "remove it: series/ holds files only"),
}
