"""A rescore as a Markdown report, and the number formats the terminal summary shares."""

from __future__ import annotations

from answer_audit.analysis.incidence import ValueChanges
from answer_audit.analysis.metrics import Bootstrap, Metrics
from answer_audit.analysis.rescore_result import (
    Comparison,
    RescoreGroup,
    RescoreResult,
    StoredLabelCheck,
)
from answer_audit.report.markdown.audit import pval
from answer_audit.report.markdown.conclusions import conclusions_markdown
from answer_audit.report.markdown.safe import OwnMarkdown, cell, table
from answer_audit.report.value_changes import change_rows, changes_caption
from answer_audit.schemes.kinds import KINDS

SIDES = ("stored", "rescored")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as a percentage: ``0.5648`` -> ``56.5``; ``—`` for None."""
    return "—" if x is None else f"{100 * x:.{digits}f}"


def pct_pm(value: float | None, boot: Bootstrap | None) -> str:
    """``56.5 ± 4.8``: a rate and its bootstrap std, in percent."""
    if value is None or boot is None:
        return "—"
    return f"{pct(value)} ± {pct(boot.std)}"


def pct_ci(value: float | None, boot: Bootstrap | None) -> str:
    """``46.3–65.8``: a rate's bootstrap percentile interval, in percent."""
    if value is None or boot is None:
        return "—"
    lo, hi = boot.ci
    return f"{pct(lo)}–{pct(hi)}"


def flips_text(entry: Comparison) -> str:
    """One sentence on the paired change between stored and rescored labels."""
    change = entry.change
    if change is None:
        return "No stored parse given: nothing to compare."
    return (
        f"Flips: {change.flips} (stored only correct {change.stored_only_correct}, "
        f"rescored only correct {change.rescored_only_correct}); accuracy change "
        f"{100 * change.accuracy_delta:+.1f} pp; exact McNemar p = {pval(change.mcnemar_p)}."
    )


def render_rescore_markdown(result: RescoreResult, *, generated_at: str = "") -> str:
    """The full report: metrics, per-class recall, groups, incidence, confusion, notes."""
    parts = [f"# Rescore with `{result.parser}`", ""]
    if generated_at:
        parts += [f"_Generated at {generated_at}._", ""]
    parts += conclusions_markdown(result.conclusions, result.conclusions_hint)
    parts += _coverage(result) + _overall(result) + _recall(result) + _groups(result)
    parts += _incidence(result) + _confusion(result) + _notes(result)
    return "\n".join(parts).rstrip() + "\n"


def _coverage(r: RescoreResult) -> list[str]:
    c = r.coverage
    rows: list[list[object]] = [
        ["rows", c.rows],
        ["scored (with a truth)", c.scored],
        ["skipped: no truth", c.no_truth],
        ["parser", f"{r.parser} ({r.family})"],
        ["bootstrap", f"B={r.settings.bootstrap}, seed {r.settings.seed}"],
    ]
    if KINDS[r.family].compares_text:  # choice and JSON values are matched as they are
        rows.append(["normalizer", r.normalizer])
    rows += [["file", name] for name in c.files]
    return ["## Coverage", "", table(["", "value"], rows), ""]


def sides(entry: Comparison, stored_name: str = SIDES[0]) -> list[tuple[str, Metrics]]:
    """The labellings compared, by name (`SIDES`, the stored one as ``stored_name``): the
    stored one only when there is one."""
    named = zip((stored_name, SIDES[1]), (entry.stored, entry.rescored), strict=True)
    return [(name, m) for name, m in named if m is not None]


def metric_rows(entry: Comparison, stored_name: str = SIDES[0]) -> list[list[object]]:
    """Rows of the stored-vs-rescored table: side, n, accuracy, CI, balanced, failures, errors
    (the stored side named ``stored_name``: `RescoreResult.stored_name`)."""
    rows: list[list[object]] = []
    for side, m in sides(entry, stored_name):
        acc, bal = m.bootstrap.accuracy, m.bootstrap.balanced_accuracy
        rows.append([side, m.n, pct_pm(m.accuracy, acc), pct_ci(m.accuracy, acc),
                     pct_pm(m.balanced_accuracy, bal), pct_ci(m.balanced_accuracy, bal),
                     m.failures, m.errors])  # fmt: skip
    return rows


METRIC_HEADER = ["labels", "n", "accuracy % ± std", "95% CI", "balanced acc. % ± std", "95% CI",
                 "failures", "errors"]  # fmt: skip


def _overall(r: RescoreResult) -> list[str]:
    o = r.overall
    out = ["## Stored vs rescored", "", table(METRIC_HEADER, metric_rows(o, r.stored_name)), ""]
    out += [flips_text(o), ""]
    out += [
        "Failures: no value extracted. Errors: an error message, or an empty output. Both count "
        "as incorrect. ± is the bootstrap standard deviation; the interval is its percentile "
        "interval.",
        "",
    ]
    label = o.stored_label
    if label is not None:
        out += [cell(stored_label_text(label)), ""]  # row ids are input data
    return out


def stored_label_text(label: StoredLabelCheck) -> str:
    """What the stored correctness column says, and whether the recomputed labels agree."""
    head = f"Stored correctness column: accuracy {pct(label.accuracy)}% on {label.n} rows"
    if label.disagreements is None:
        return head + "."
    if not label.disagreements:
        return f"{head}; the stored parse scored by this matcher reproduces every one of them."
    ids = ", ".join(map(str, label.disagreement_ids[:5]))
    return (
        f"{head}; the stored parse scored by this matcher disagrees with it on "
        f"{label.disagreements} row(s) (e.g. {ids}): the runner matched differently."
    )


def _recall(r: RescoreResult) -> list[str]:
    named = sides(r.overall, r.stored_name)
    recalls = [m.per_class_recall for _, m in named]
    classes = list(dict.fromkeys(c for rec in recalls for c in rec))
    if not classes or not KINDS[r.family].closed_values:
        return []
    rows: list[list[object]] = [
        [c, *(f"{rec[c].correct}/{rec[c].total}" if c in rec else "—" for rec in recalls)]
        for c in classes
    ]
    return ["## Recall per truth class", "", table(["truth", *(s for s, _ in named)], rows), ""]


GROUP_HEADER = ["n", "stored acc. %", "rescored acc. %", "Δ pp", "flips", "McNemar p",
                "failures", "errors"]  # fmt: skip


def group_rows(r: RescoreResult) -> tuple[list[str], list[list[object]]]:
    """Per-group table: one column per group-by column, then n, accuracies, Δ, flips, p, counts."""
    return [*r.settings.group_by, *GROUP_HEADER], [_group_row(g) for g in r.groups]


def _group_row(g: RescoreGroup) -> list[object]:
    c, change = g.comparison, g.comparison.change
    return [*g.group.values(), c.rescored.n, pct(_acc(c.stored)), pct(_acc(c.rescored)),
            "—" if change is None else f"{100 * change.accuracy_delta:+.1f}",
            "—" if change is None else change.flips,
            pval(None if change is None else change.mcnemar_p),
            c.rescored.failures, c.rescored.errors]  # fmt: skip


def _groups(r: RescoreResult) -> list[str]:
    if not r.groups:
        return []
    return ["## Per group", "", table(*group_rows(r)), ""]


def _acc(m: Metrics | None) -> float | None:
    return None if m is None else m.accuracy


def _incidence(r: RescoreResult) -> list[str]:
    inc = r.incidence
    classes = inc.classes
    title = "How the JSON field appeared" if inc.by == "json-field" else "Which rule fired"
    total = sum(c.n for c in inc.categories) or 1
    rows = [
        [c.category, OwnMarkdown(c.description), c.n, f"{100 * c.n / total:.1f}",
         f"{c.correct}/{c.scored}", *(c.truth[k] for k in classes)]
        for c in inc.categories
    ]  # fmt: skip
    header = ["category", "meaning", "rows", "%", "correct", *(f"truth {k}" for k in classes)]
    note = (
        "Rows per category of the rescored extraction; `correct` is out of the rows with a truth, "
        "and the `truth` columns count those rows per truth class"
    )
    if inc.by == "json-field":
        note += " (e.g. the `null` row: how many outputs said null, by their true value)"
    note += "."
    return [f"## {title}", "", note, "", table(header, rows), ""]


def _confusion(r: RescoreResult) -> list[str]:
    if r.confusion is None:
        if r.value_changes is None:
            return []
        return ["## Stored vs rescored values", "",
                *changes_markdown(r.value_changes, "stored", "rescored")]  # fmt: skip
    labels = r.confusion.labels
    rows = [[label, *counts] for label, counts in zip(labels, r.confusion.matrix, strict=True)]
    return [
        "## Stored vs rescored values",
        "",
        "Rows: the stored value; columns: the rescored value (`none`: nothing extracted).",
        "",
        table(["stored \\ rescored", *labels], rows),
        "",
    ]


def changes_markdown(changes: ValueChanges, rows_name: str, columns_name: str) -> list[str]:
    """The most frequent value changes as a caption and a table (`report.value_changes`)."""
    out = [changes_caption(changes, rows_name, columns_name), ""]
    if changes.top:
        header = [f"{rows_name} value", f"{columns_name} value", "rows"]
        out += [table(header, change_rows(changes)), ""]
    return out


def _notes(r: RescoreResult) -> list[str]:
    if not r.notes:
        return []
    return ["## Notes", "", *(f"- {cell(n)}" for n in r.notes), ""]
