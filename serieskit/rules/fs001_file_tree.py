from . import Hit, Rule


class FileTree(Rule):
    """Every file under series/ can be read and stays inside the project.

    What:
    A symlink under `series/` is broken, loops (`a -> b -> a`), points outside the project, or a file
    cannot be read. Symlinked folders are not followed.

    Why:
    A looping link would hang a naive build; a link out of the project would publish a file from
    elsewhere on the machine.

    Bad:
    series/train-infer-accel/assets -> /home/me/Pictures

    Good:
    series/train-infer-accel/assets/   (a real folder with the images)
    """
    code, slug, severity, target = "FS001", "file-tree", "error", "site"
    family = "FS"

    def check_site(self, ctx):
        for f in ctx.site.fs_problems:
            yield Hit(f.line, f.column, f.message, path=f.path)
