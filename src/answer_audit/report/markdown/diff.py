"""A diff of two labellings as a Markdown report."""

from __future__ import annotations

from answer_audit.analysis.diff_result import DiffGroup, DiffResult, DisagreementSide
from answer_audit.report.markdown.audit import pval
from answer_audit.report.markdown.conclusions import conclusions_markdown
from answer_audit.report.markdown.rescore import changes_markdown, pct
from answer_audit.report.markdown.safe import cell, fence, table


def agreement_text(d: DiffResult) -> str:
    """``A and B agree on 97 of 108 rows (89.8%).``"""
    ag = d.agreement
    return (
        f"`{d.a}` and `{d.b}` extract the same value on {ag.agree} of {ag.n} rows "
        f"({pct(ag.rate)}%); both extract nothing on {ag.both_none}."
    )


def accuracy_rows(d: DiffResult) -> list[list[object]]:
    """One row: n, accuracy under A and B, their difference, discordant counts, McNemar p."""
    a = d.accuracy
    if a is None:
        return []
    return [[a.n, pct(a.a), pct(a.b), f"{100 * a.delta:+.1f}", a.a_only_correct,
             a.b_only_correct, pval(a.mcnemar_p)]]  # fmt: skip


ACCURACY_HEADER = ["n", "A acc. %", "B acc. %", "Δ pp (B − A)", "only A correct",
                   "only B correct", "McNemar p"]  # fmt: skip


def diff_group_rows(d: DiffResult) -> tuple[list[str], list[list[object]]]:
    """Per group: agreement, then accuracy under A and B, their difference and McNemar p."""
    names = list(d.groups[0].group) if d.groups else []
    rows = [_group_row(g) for g in d.groups]
    return [*names, "n", "agree", "A acc. %", "B acc. %", "Δ pp", "McNemar p"], rows


def _group_row(g: DiffGroup) -> list[object]:
    ag, acc = g.agreement, g.accuracy
    if acc is None:
        return [*g.group.values(), ag.n, f"{ag.agree} ({pct(ag.rate)}%)", "—", "—", "—", "—"]
    return [*g.group.values(), ag.n, f"{ag.agree} ({pct(ag.rate)}%)", pct(acc.a), pct(acc.b),
            f"{100 * acc.delta:+.1f}", pval(acc.mcnemar_p)]  # fmt: skip


def render_diff_markdown(d: DiffResult, *, max_rows: int = 50, generated_at: str = "") -> str:
    """Agreement, accuracy under each side, confusion, rule pairs, and the disagreements."""
    parts = [f"# Diff: `{d.a}` (A) vs `{d.b}` (B)", ""]
    if generated_at:
        parts += [f"_Generated at {generated_at}._", ""]
    parts += conclusions_markdown(d.conclusions, d.conclusions_hint)
    parts += [agreement_text(d), ""]
    if d.align != "rows":
        parts += [f"A and B come from two tables aligned by {d.align}.", ""]
    if d.accuracy is not None:
        parts += ["## Accuracy", "", table(ACCURACY_HEADER, accuracy_rows(d)), ""]
    if d.groups:
        parts += ["## Per group", "", table(*diff_group_rows(d)), ""]
    parts += _confusion(d) + _rule_pairs(d) + _disagreements(d, max_rows)
    if d.notes:
        parts += ["## Notes", "", *(f"- {cell(n)}" for n in d.notes), ""]
    return "\n".join(parts).rstrip() + "\n"


def _confusion(d: DiffResult) -> list[str]:
    if d.confusion is None:
        if d.value_changes is None or not d.value_changes.changed:
            return []
        return ["## Changed values", "", *changes_markdown(d.value_changes, "A", "B")]
    labels = d.confusion.labels
    rows = [[label, *counts] for label, counts in zip(labels, d.confusion.matrix, strict=True)]
    return ["## Confusion of extracted values", "", "Rows: A; columns: B.", "",
            table(["A \\ B", *labels], rows), ""]  # fmt: skip


def _rule_pairs(d: DiffResult) -> list[str]:
    if not d.rule_pairs:
        return []
    rows = [[p.a, p.b, p.n] for p in d.rule_pairs]
    return ["## Which rules disagree", "", table(["A rule", "B rule", "rows"], rows), ""]


def _disagreements(d: DiffResult, max_rows: int) -> list[str]:
    out = ["## Disagreements", ""]
    if not d.disagreements:
        return [*out, "None: both sides extract the same value on every row.", ""]
    shown = d.disagreements[:max_rows]
    if len(shown) < len(d.disagreements):
        out += [f"The first {len(shown)} of {len(d.disagreements)} (all in the JSON).", ""]
    rows: list[list[object]] = [[e.id, e.truth, e.a.label, e.a.rule, _mark(e.a), e.b.label, e.b.rule, _mark(e.b)]
            for e in shown]  # fmt: skip
    header = ["id", "truth", "A value", "A rule", "A ok", "B value", "B rule", "B ok"]
    out += [table(header, rows), "", "Snippets: the raw text around each span, marked ⟦so⟧.", ""]
    for e in shown:
        out += [f"### {cell(e.id)}", ""]
        out += [f"A (`{e.a.rule}`):", "", fence(e.a.snippet), ""]
        out += [f"B (`{e.b.rule}`):", "", fence(e.b.snippet), ""]
    return out


def _mark(side: DisagreementSide) -> str:
    return "—" if side.correct is None else ("✓" if side.correct else "✗")
