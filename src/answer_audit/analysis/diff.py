"""Two labellings of the same outputs, row by row: agreement, confusion, accuracy, disagreements.

A side is a preset (``choice/v3``), the stored parse (``stored``), a stored column
(``stored:predicted_answer``) or ready-made Labels. Both sides label one table, or, for two
result files, two tables aligned beforehand by `pair_tables` (by id or by row order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from answer_audit.analysis.conclusions_results import ConclusionSettings
from answer_audit.analysis.conclusions_section import (
    ConclusionsSection,
    check_conclusion_columns,
    conclusion_settings,
    conclusions_from_labels,
)
from answer_audit.analysis.diff_result import (
    Agreement,
    DiffGroup,
    DiffResult,
    Disagreement,
    DisagreementSide,
    PairedAccuracy,
    RulePair,
)
from answer_audit.analysis.incidence import value_comparison, value_label
from answer_audit.analysis.input_notes import input_notes
from answer_audit.analysis.stats import check_bootstrap, mcnemar_paired
from answer_audit.extraction import Span
from answer_audit.parsers import Parser
from answer_audit.schemes.kinds import KINDS, KindName
from answer_audit.schemes.labels import (
    STORED_PREFIX,
    Labels,
    Value,
    group_indices,
    kind_of,
    parser_labels,
    pick_normalizer,
    resolve_parser,
    stored_labels,
)
from answer_audit.schemes.scheme import STORED
from answer_audit.table.canonical import LoadedTable, in_memory_table

Side = str | Parser | Labels
Align = Literal["rows", "id", "order"]
SPAN_OPEN, SPAN_CLOSE = "⟦", "⟧"

__all__ = ["DiffResult", "diff_labelings", "pair_tables", "side_kind", "side_labels",
           "snippet_around"]  # fmt: skip


def side_kind(
    a: Side, b: Side, presets: Mapping[str, Parser] | None, kind: KindName | None
) -> KindName:
    """The matcher kind both sides share: from their presets, else ``kind``; ValueError if unclear."""
    found = {_side_name(s): _family(s, presets) for s in (a, b)}
    kinds = {k for k in found.values() if k is not None}
    listed = ", ".join(f"{name} is {k}" for name, k in found.items() if k is not None)
    if kind is not None and kinds - {kind}:
        raise ValueError(f"kind {kind!r} does not fit the sides: {listed}")
    if len(kinds) > 1:
        raise ValueError(f"the two sides are of different kinds: {listed}")
    if kind is not None:
        return kind
    if not kinds:
        raise ValueError("both sides are stored parses: say which matcher to use with --kind")
    return kinds.pop()


def side_labels(
    frame: pl.DataFrame,
    side: Side,
    kind: KindName,
    *,
    columns: pl.DataFrame | None = None,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str = "v1",
    workers: int = 1,
) -> Labels:
    """Label the rows of ``frame`` with one side; ``stored:COL`` reads COL from ``columns``
    (the input table in the same row order; default ``frame``)."""
    if isinstance(side, Labels):
        return side
    if isinstance(side, str) and (side == STORED or side.startswith(STORED_PREFIX)):
        values = None
        if side != STORED:
            values = _stored_column(columns if columns is not None else frame, side)
        return stored_labels(frame, kind, values, normalizer=normalizer, name=side)
    preset = resolve_parser(side, presets, choices)
    return parser_labels(frame, preset, normalizer=normalizer, workers=workers)


def diff_labelings(
    frame: pl.DataFrame,
    a: Side,
    b: Side,
    *,
    frame_b: pl.DataFrame | None = None,
    columns: pl.DataFrame | None = None,
    columns_b: pl.DataFrame | None = None,
    kind: KindName | None = None,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str | None = None,
    context: int = 80,
    align: Align = "rows",
    group_by: Sequence[str] = (),
    workers: int = 1,
    compare: str | None = None,
    baseline: str | None = None,
    item: str | None = None,
    seed: int = 0,
    n_boot: int = 1000,
) -> DiffResult:
    """Compare side ``a`` on ``frame`` with side ``b`` on ``frame_b`` (default: the same rows).

    ``columns``/``columns_b`` are the input tables (same row order) that ``stored:COL`` sides
    read; ``group_by`` names columns of ``frame`` to break agreement and accuracy down by;
    ``workers`` > 1 runs row-by-row presets in that many processes (same result).
    ``compare`` (a column of A's table, with ``baseline`` and ``item``) adds conclusions:
    whether each effect and ranking of that column under A survives under B (the other
    ``group_by`` columns are strata; ``seed`` and ``n_boot`` drive their resampling).

    >>> t = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: b", "so b\\nAnswer: c"],
    ...                   "truth": ["b", "c"]})
    >>> d = diff_labelings(t, "choice/v1", "choice/v3")
    >>> d.agreement.agree, d.accuracy.a, d.accuracy.b
    (2, 1.0, 1.0)
    """
    frame, other = _checked_tables(frame, frame_b, a, b, group_by)
    chosen = _checked_conclusions(frame, compare, baseline, item, group_by, seed, n_boot)
    kind = side_kind(a, b, presets, kind)
    normalizer = pick_normalizer(normalizer, kind)
    options: dict[str, Any] = {
        "presets": presets, "choices": choices, "normalizer": normalizer, "workers": workers
    }  # fmt: skip
    la = side_labels(frame, a, kind, columns=columns, **options)
    columns_b = columns_b if frame_b is not None else columns
    lb = side_labels(other, b, kind, columns=columns_b, **options)
    notes = _truth_notes(frame, other) if frame_b is not None else []
    return _compare_labels(frame, other, la, lb, kind=kind, normalizer=normalizer, align=align,
                           group_by=group_by, context=context, conclusions=chosen, notes=notes)  # fmt: skip


def _compare_labels(
    frame: pl.DataFrame,
    other: pl.DataFrame,
    la: Labels,
    lb: Labels,
    *,
    kind: KindName,
    normalizer: str,
    align: Align = "rows",
    group_by: Sequence[str] = (),
    context: int = 80,
    conclusions: ConclusionSettings | None = None,
    notes: Sequence[str] = (),
) -> DiffResult:
    """The comparison of A's labels ``la`` of ``frame`` with B's labels ``lb`` of ``other``
    (row i of one is row i of the other): agreement, accuracy, value changes, rule pairs and
    disagreements, overall and by ``group_by``; ``notes`` come first among the notes."""
    same = [_key(x, kind, normalizer) == _key(y, kind, normalizer)
            for x, y in zip(la.values, lb.values, strict=True)]  # fmt: skip
    rows = [i for i, agree in enumerate(same) if not agree]
    everything = list(range(frame.height))
    accuracy = _accuracy(la, lb, everything)
    matrix, changes = value_comparison(kind, la.values, lb.values, normalizer)
    return DiffResult(
        a=la.name, b=lb.name, family=kind, align=align, n=frame.height,
        agreement=_agreement(la, lb, same, everything), confusion=matrix, accuracy=accuracy,
        groups=_groups(frame, group_by, la, lb, same),
        rule_pairs=_rule_pairs(la, lb, rows),
        disagreements=tuple(_disagreement(i, frame, other, la, lb, context) for i in rows),
        notes=(*notes, *_input_notes(frame, kind, la.name, lb.name, accuracy)),
        raw_texts=tuple((frame["raw"][i], other["raw"][i]) for i in rows),
        conclusions=None if conclusions is None else _conclusions(frame, conclusions, la, lb),
        value_changes=changes,
    )  # fmt: skip


def _checked_conclusions(
    frame: pl.DataFrame,
    compare: str | None,
    baseline: str | None,
    item: str | None,
    group_by: Sequence[str],
    seed: int,
    n_boot: int,
) -> ConclusionSettings | None:
    """The conclusions asked for (None without ``compare``), their columns checked in A's
    table, and the bootstrap settings checked either way."""
    check_bootstrap(n_boot, seed)
    chosen = conclusion_settings(compare, baseline, item, group_by, seed=seed, n_boot=n_boot,
                                 alpha=0.05)  # fmt: skip
    if chosen is not None:
        check_conclusion_columns(frame.columns, chosen)
    return chosen


def _input_notes(
    frame: pl.DataFrame, kind: KindName, a: str, b: str, accuracy: PairedAccuracy | None
) -> list[str]:
    """Truths the kind cannot match (A's table), and both sides wrong on every scored row."""
    truth = frame["truth"] if "truth" in frame.columns else None
    both = {} if accuracy is None else {a: (accuracy.a, accuracy.n), b: (accuracy.b, accuracy.n)}
    return input_notes(truth, kind, both, what="sides")


def _conclusions(
    frame: pl.DataFrame, chosen: ConclusionSettings, la: Labels, lb: Labels
) -> ConclusionsSection:
    """B's labels held against A's, on A's rows (A stands where the stored labels stand)."""
    scheme = lb.name if lb.name != STORED else f"{STORED} (B)"
    found = conclusions_from_labels(frame, chosen, la.correct, {scheme: lb.correct})
    names = {scheme: f"B ({lb.name})"}
    return ConclusionsSection(found, stored_name=f"A ({la.name})", scheme_names=names)


def _checked_tables(
    frame: pl.DataFrame, frame_b: pl.DataFrame | None, a: Side, b: Side, group_by: Sequence[str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A's and B's canonical tables (the same one without ``frame_b``); errors for sides that
    are none of the accepted kinds, tables of different sizes and missing group columns."""
    for name, side in (("a", a), ("b", b)):
        if not isinstance(side, str | Labels) and not hasattr(side, "extract"):
            raise TypeError(
                f"side {name} must be a preset name ('choice/v4'), 'stored' or 'stored:COLUMN', "
                f"a preset, or Labels; got {side!r}"
            )
    frame = in_memory_table(frame, group_by, what="A's table")  # as load_files reads a file
    other = frame if frame_b is None else in_memory_table(frame_b, what="B's table")
    if other.height != frame.height:
        raise ValueError(f"A has {frame.height} rows, B {other.height}: align the tables first")
    missing = [g for g in group_by if g not in frame.columns]
    if missing:
        raise ValueError(f"no group column(s) {', '.join(missing)} in A's table")
    return frame, other


def _agreement(la: Labels, lb: Labels, same: list[bool], idx: list[int]) -> Agreement:
    agree = sum(1 for i in idx if same[i])
    both_none = sum(1 for i in idx if la.values[i] is None and lb.values[i] is None)
    rate = agree / len(idx) if idx else None
    return Agreement(n=len(idx), agree=agree, rate=rate, both_none=both_none)


def _groups(
    frame: pl.DataFrame, group_by: Sequence[str], la: Labels, lb: Labels, same: list[bool]
) -> tuple[DiffGroup, ...]:
    return tuple(
        DiffGroup(group=dict(zip(group_by, key, strict=True)),
                  agreement=_agreement(la, lb, same, idx), accuracy=_accuracy(la, lb, idx))
        for key, idx in (group_indices(frame, group_by) if group_by else ())
    )  # fmt: skip


def _rule_pairs(la: Labels, lb: Labels, rows: list[int]) -> tuple[RulePair, ...]:
    """The (A rule, B rule) pairs of the disagreeing rows, most frequent first."""
    pairs = Counter((la.rules[i], lb.rules[i]) for i in rows)
    ordered = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
    return tuple(RulePair(a=ra, b=rb, n=n) for (ra, rb), n in ordered)


def pair_tables(
    a: LoadedTable, b: LoadedTable, by: Literal["id", "order"]
) -> tuple[LoadedTable, LoadedTable, list[str]]:
    """Two tables cut and ordered so row i of one is row i of the other, and notes on what was
    left out. ``order`` needs equal sizes; ``id`` needs unique ids and keeps A's order."""
    na, nb = a.frame.height, b.frame.height
    if by == "order":
        if na != nb:
            raise ValueError(f"--align order: A has {na} rows and B has {nb}; sizes must match")
        return a, b, []
    ids_a, ids_b = a.frame["id"].to_list(), b.frame["id"].to_list()
    for name, ids in (("A", ids_a), ("B", ids_b)):
        repeated = [i for i, n in Counter(ids).items() if n > 1 and i is not None]
        if repeated:
            raise ValueError(
                f"--align id: ids repeat in {name} (e.g. {repeated[0]!r}, {len(repeated)} "
                "repeated); rows are paired by id, so each needs its own: pass an --id column "
                "whose values are unique, or --align order for files in the same row order"
            )
    # a missing id identifies nothing: such rows pair with no row of the other table
    where_b = {v: i for i, v in enumerate(ids_b) if v is not None}
    idx_a = [i for i, v in enumerate(ids_a) if v is not None and v in where_b]
    if not idx_a:
        raise ValueError("--align id: the two tables share no id; check --id")
    idx_b = [where_b[ids_a[i]] for i in idx_a]
    missing = {"A": ids_a.count(None), "B": ids_b.count(None)}
    notes = [
        f"{n} row(s) of {name} have no id and are left out" for name, n in missing.items() if n
    ] + [
        f"{n} row(s) of {name} have no matching id in the other table and are left out"
        for name, n in (
            ("A", na - len(idx_a) - missing["A"]),
            ("B", nb - len(idx_b) - missing["B"]),
        )
        if n
    ]
    return _take(a, idx_a), _take(b, idx_b), notes


def snippet_around(raw: str | None, span: Span | None, context: int = 80) -> str:
    """The raw text around the span, the span marked ⟦like this⟧; the tail when there is none.

    >>> snippet_around("xxxx Answer: c yyyy", (13, 14), 3)
    '…r: ⟦c⟧ yy…'
    """
    if not raw:
        return ""
    if span is None:
        cut = max(len(raw) - 2 * context, 0)
        return ("…" if cut else "") + raw[cut:]
    start, end = span
    lo, hi = max(0, start - context), min(len(raw), end + context)
    head = ("…" if lo else "") + raw[lo:start]
    return (
        f"{head}{SPAN_OPEN}{raw[start:end]}{SPAN_CLOSE}{raw[end:hi]}{'…' if hi < len(raw) else ''}"
    )


def _side_name(side: Side) -> str:
    return side.name if isinstance(side, Labels | Parser) else side


def _family(side: Side, presets: Mapping[str, Parser] | None) -> KindName | None:
    if isinstance(side, Labels):
        return side.kind
    if isinstance(side, str) and (side == STORED or side.startswith(STORED_PREFIX)):
        return None
    return kind_of(resolve_parser(side, presets))


def _stored_column(columns: pl.DataFrame, side: str) -> pl.Series:
    name = side.removeprefix(STORED_PREFIX)
    if name not in columns.columns:
        raise ValueError(f"{side}: no column {name!r}; available: {', '.join(columns.columns)}")
    try:
        return columns[name].cast(pl.String)
    except pl.exceptions.PolarsError as exc:
        raise ValueError(f"{side}: column {name!r} cannot be read as text") from exc


def _key(value: Value, kind: KindName, normalizer: str) -> object:
    return KINDS[kind].agreement_key(value, normalizer)


def _accuracy(la: Labels, lb: Labels, idx: list[int]) -> PairedAccuracy | None:
    both = [i for i in idx if la.correct[i] is not None and lb.correct[i] is not None]
    if not both:
        return None
    a_ok = np.array([bool(la.correct[i]) for i in both])
    b_ok = np.array([bool(lb.correct[i]) for i in both])
    a_only, b_only, p = mcnemar_paired(a_ok, b_ok)
    acc_a, acc_b = float(a_ok.mean()), float(b_ok.mean())
    return PairedAccuracy(n=len(both), a=acc_a, b=acc_b, delta=acc_b - acc_a,
                          a_only_correct=a_only, b_only_correct=b_only, mcnemar_p=p)  # fmt: skip


def _disagreement(
    i: int, fa: pl.DataFrame, fb: pl.DataFrame, la: Labels, lb: Labels, context: int
) -> Disagreement:
    def side(frame: pl.DataFrame, labels: Labels) -> DisagreementSide:
        span = labels.spans[i]
        return DisagreementSide(
            id=frame["id"][i],
            value=labels.values[i],
            label=value_label(labels.values[i]),
            rule=labels.rules[i],
            span=None if span is None else (span[0], span[1]),
            correct=labels.correct[i],
            snippet=snippet_around(frame["raw"][i], span, context),
        )

    truth = fa["truth"][i] if "truth" in fa.columns else None
    return Disagreement(id=fa["id"][i], truth=truth, a=side(fa, la), b=side(fb, lb))


def _truth_notes(fa: pl.DataFrame, fb: pl.DataFrame) -> list[str]:
    if "truth" not in fa.columns or "truth" not in fb.columns:
        return []
    differ = int((fa["truth"].fill_null("") != fb["truth"].fill_null("")).sum())
    if not differ:
        return []
    return [f"{differ} aligned row(s) have a different truth in A and B; each side is scored "
            "against its own truth"]  # fmt: skip


def _take(table: LoadedTable, idx: list[int]) -> LoadedTable:
    return LoadedTable(table.frame[idx], table.original[idx], table.coverage, table.notes)
