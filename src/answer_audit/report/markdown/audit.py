"""The audit as a Markdown report."""

from __future__ import annotations

from collections.abc import Mapping

from answer_audit.analysis.audit import AuditResult, GroupCell, PairedComparison
from answer_audit.report.markdown.conclusions import conclusions_markdown
from answer_audit.report.markdown.safe import cell, fence, table


def pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def pval(p: float | None) -> str:
    return "—" if p is None else (f"{p:.2e}" if p < 1e-3 else f"{p:.3f}")


def group_text(group: Mapping[str, object]) -> str:
    """``k=v, ...``; a missing value is ``—`` as in the HTML report (the text "None" stays
    "None", so the two groups can be told apart)."""
    shown = ("—" if v is None else v for v in group.values())
    return ", ".join(f"{k}={v}" for k, v in zip(group, shown, strict=True)) or "all rows"


def render_audit_markdown(
    result: AuditResult, *, max_rows: int = 40, generated_at: str = ""
) -> str:
    """The full Markdown report: every section in a fixed order, model text escaped."""
    parts = ["# Answer-parsing audit", ""]
    if generated_at:
        parts += [f"_Generated at {generated_at}._", ""]
    parts += conclusions_markdown(result.conclusions, result.conclusions_hint)
    parts += _coverage(result) + _consistency(result) + _sensitivity(result) + _verdicts(result)
    parts += _markers(result) + _cells(result, max_rows) + _think(result) + _rules(result)
    parts += _examples(result) + _notes(result)
    return "\n".join(parts).rstrip() + "\n"


def coverage_rows(r: AuditResult) -> list[list[object]]:
    """The coverage facts as ``[label, value]`` rows (shared by the Markdown and HTML reports)."""
    c = r.coverage
    rows: list[list[object]] = [
        ["rows", c.rows],
        ["scored (truth and stored label)", c.scored],
        ["skipped: no truth", c.skipped.no_truth],
        ["skipped: no stored label", c.skipped.no_stored_label],
        ["groups", c.groups],
    ]
    # what the reader reported: its own shape, one per source format
    source = c.source
    for f in source.get("files", ()):
        rows.append([f"file {f.get('source', f)}", f"{f.get('rows', '?')} rows ({f.get('format', '?')})"
                     if isinstance(f, dict) else f])  # fmt: skip
    for run in source.get("runs", ()):
        rows.append([f"run {run.get('run_id', run)}", f"{run.get('rows', '?')} rows, temperature {run.get('temperature', '?')}"
                     if isinstance(run, dict) else run])  # fmt: skip
    for key in ("bad_lines_skipped", "decode_replacements"):
        if source.get(key):
            rows.append([key.replace("_", " "), source[key]])
    return rows


def _coverage(r: AuditResult) -> list[str]:
    group_by = ", ".join(r.settings.group_by) or "(none)"
    rows = coverage_rows(r)
    out = ["## Coverage", "", table(["", "value"], rows), "", f"Grouped by: {group_by}.", ""]
    if not r.recorded_labels:
        out += [f"The source recorded no correctness: stored means the {r.stored_name}.", ""]
    return out


def _consistency(r: AuditResult) -> list[str]:
    out = ["## Stored-label consistency", ""]
    c = r.consistency
    if c is None:
        return [*out, "Not checked: the table has no stored parse or no stored label.", ""]
    line = (
        f"Re-scoring the stored parse with `{c.scheme}` reproduces the stored label on "
        f"{c.n - c.mismatches} of {c.n} scored rows ({c.mismatches} mismatches)."
    )
    out += [line, ""]
    if c.mismatches:
        out += [
            "> **WARNING: the stored labels were not produced by this matcher.** The deltas below "
            "mix parser effects with matcher differences; find the runner's matcher before "
            "trusting them.",
            "",
        ]
    return out


# How to read the deltas; the HTML report shows the same sentences.
DELTA_NOTE = (
    "Δpp is the scheme's error % minus the stored error %, in percentage points: negative means "
    "the scheme finds fewer errors than the stored labels. The 95% CI is a paired bootstrap "
    "percentile interval; McNemar p is the exact two-sided test on the flipped rows. A scheme "
    "that changes both the parser and the normalizer shows both effects at once; a scheme "
    "that keeps the stored parse (stored:NORMALIZER) separates the normalizer's share."
)
CELLS_NOTE = (
    "Per-group intervals are not adjusted for the number of groups; Holm p is. When every flip "
    "in a small group goes one way, the interval can exclude 0 while Holm p is far from "
    "significant: judge significance by Holm p."
)


def ci_text(c: PairedComparison, digits: int) -> str:
    """The interval of Δpp as ``+lo to +hi``."""
    lo, hi = c.delta_ci
    return f"{lo:+.{digits}f} to {hi:+.{digits}f}"


def _sensitivity(r: AuditResult) -> list[str]:
    rows: list[list[object]] = []
    for s in r.schemes:
        o = s.overall
        rows.append([s.name, s.parser, s.normalizer, o.n, o.flips, pct(o.stored_error_pct),
                     pct(o.error_pct), f"{o.delta_pp:+.2f}", ci_text(o, 2), pval(o.mcnemar_p)])  # fmt: skip
    header = ["scheme", "parser", "normalizer", "n", "flips", "stored err %", "err %", "Δpp",
              "95% CI Δpp", "McNemar p"]  # fmt: skip
    return ["## Sensitivity (flips)", "", table(header, rows), "", DELTA_NOTE, ""]


def _verdicts(r: AuditResult) -> list[str]:
    out = ["## Significance verdicts", ""]
    out += [f"- **{s.name}**: {s.verdict}" for s in r.schemes]
    return [*out, ""]


def _markers(r: AuditResult) -> list[str]:
    m = r.markers
    rows: list[list[object]] = [
        ["raw output", m.raw_role, m.raw_block],
        ["stored parse", m.parsed_role, m.parsed_block],
    ]
    note = "Scored rows containing role markers (`user:`, `assistant:`, `system:`, or a line starting with one) or block markers (`passage:`, `question:`, `article:`, `movie title:`, `movie plot:`), case-insensitive."
    return [
        "## Marker incidence",
        "",
        note,
        "",
        table(["text", "role markers", "block markers"], rows),
        "",
    ]


def _cells(r: AuditResult, max_rows: int) -> list[str]:
    out = ["## Per-group deltas", "", CELLS_NOTE, ""]
    for s in r.schemes:
        cells = r.cells_of(s.name)
        shown = cells[:max_rows]
        rows = [_cell_row(c) for c in shown]
        header = [
            "group",
            "n",
            "stored err %",
            "err %",
            "Δpp",
            "95% CI",
            "flips",
            "McNemar p",
            "Holm p",
        ]
        more = (
            f" (top {len(shown)} of {len(cells)} by |Δpp|, flips; all in the JSON)"
            if len(cells) > len(shown)
            else ""
        )
        out += [f"### {s.name}{more}", "", table(header, rows), ""]
    return out


def _cell_row(c: GroupCell) -> list[object]:
    o = c.stats
    return [group_text(c.group), o.n, pct(o.stored_error_pct), pct(o.error_pct),
            f"{o.delta_pp:+.2f}", ci_text(o, 1), o.flips, pval(o.mcnemar_p), pval(c.holm_p)]  # fmt: skip


def _think(r: AuditResult) -> list[str]:
    t = r.think
    out = [
        "## Think artifacts",
        "",
        f"Scored rows whose raw output contains `</think>`: {t.rows}.",
    ]
    if t.post_think_flips is not None:
        out.append(
            f"Scoring only the text after the last `</think>` (normalizer v2) flips {t.post_think_flips} of them."
        )
        lost = t.stored_right_post_think_wrong
        if lost:
            out += ["", "Stored correct, but the post-think answer is not:", ""]
            rows: list[list[object]] = [[e.id, e.truth, e.post_think] for e in lost]
            out.append(table(["id", "truth", "text after </think>"], rows))
    return [*out, ""]


def _rules(r: AuditResult) -> list[str]:
    out = ["## Rule provenance", ""]
    if not r.rules:
        return [*out, "No parser schemes (only stored parses) were run.", ""]
    for name, counts in r.rules.items():
        rules = list(counts.overall)
        out += [
            f"### {name}",
            "",
            table(["rule", "rows"], [[k, v] for k, v in counts.overall.items()]),
            "",
        ]
        if len(counts.groups) > 1:
            rows = [
                [group_text(g.group), *(g.counts.get(k, 0) for k in rules)] for g in counts.groups
            ]
            out += [table(["group", *rules], rows), ""]
    return out


def _examples(r: AuditResult) -> list[str]:
    out = ["## Examples", ""]
    if not r.examples:
        return [*out, "No flips.", ""]
    seed = r.settings.seed
    out += [f"A seeded random sample (seed {seed}) of {len(r.examples)} flipped rows.", ""]
    for i, e in enumerate(r.examples, 1):
        verdict = (
            f"stored {'✓' if e.stored_label else '✗'} → {e.scheme} {'✓' if e.scheme_label else '✗'}"
        )
        out += [
            f"### {i}. {cell(e.id)} ({e.scheme})",
            "",
            table(["", ""], [["group", group_text(e.group)], ["truth", e.truth],
                             ["labels", verdict], ["rule", e.rule],
                             ["stored parse", e.stored_parse], ["scheme parse", e.scheme_parse]]),
            "",
            f"Raw output ({e.raw_chars} characters){', head and tail' if e.raw_tail else ''}:",
            "",
            fence(e.raw_head + (f"\n[…]\n{e.raw_tail}" if e.raw_tail else "")),
            "",
        ]  # fmt: skip
    return out


def _notes(r: AuditResult) -> list[str]:
    if not r.notes:
        return []
    return ["## Notes", "", *(f"- {cell(n)}" for n in r.notes), ""]
