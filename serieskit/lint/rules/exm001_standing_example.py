from . import Hit, Rule


class StandingExample(Rule):
    """A series post names one of the series' standing examples.

    What:
    The post's prose (outside code) names none of the manifest's `standing_examples` (for 训推加速:
    Qwen3.5, Qwen3.6, DeepSeek-V4).

    Why:
    The series explains every technique on the same few current models, so readers can compare
    numbers across posts instead of re-learning a new model each time.
    """
    code, slug, severity, scope = "EXM001", "standing-example", "warning", "series"
    family = "EXM"

    def check(self, post, ctx):
        series = ctx.series
        if series is None or not series.standing_examples or post.fm.data is None:
            return
        for ln in range(post.body_start, post.nlines + 1):
            text = post.prose(ln)
            if any(e in text for e in series.standing_examples):
                return
        yield Hit(post.body_start, 1, f"the post names none of the standing examples "
                                      f"({' / '.join(series.standing_examples)})")
