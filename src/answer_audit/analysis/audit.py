"""The parsing-sensitivity audit: flips, per-group deltas with significance, incidence, examples.

Pure: takes the canonical table, returns an AuditResult of plain data; renderers do the I/O.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import polars as pl

from answer_audit.analysis.stats import (
    as_integer,
    check_bootstrap,
    check_fraction,
    holm,
    mcnemar,
    paired_delta_ci_counts,
)
from answer_audit.parsers import FreeformPreset, Parser
from answer_audit.parsers.choice import validated_choices
from answer_audit.schemes.apply import (
    CONSISTENCY,
    KINDS,
    ExtractionCache,
    Kind,
    Scheme,
    apply_scheme,
    check_scheme,
    default_schemes,
    extract_column,
    label_column,
    mask_error_rows,
    row_by_row,
)
from answer_audit.schemes.labels import outside_choices, with_choices
from answer_audit.table.canonical import in_memory_table
from answer_audit.table.lazy import InMemoryRows, Rows, StreamedRows

ROLE_MARKERS = ("user:", "assistant:", "system:", "\nuser", "\nassistant", "\nsystem")
BLOCK_MARKERS = ("passage:", "question:", "article:", "movie title:", "movie plot:")
SNIPPET_HEAD = 300
SNIPPET_TAIL = 200


@dataclass(frozen=True)
class AuditSettings:
    """Everything besides the table that decides an audit's numbers."""

    kind: Kind = "freeform"
    group_by: tuple[str, ...] = ()
    seed: int = 0
    n_boot: int = 1000
    alpha: float = 0.05
    max_examples: int = 30
    choices: str | None = None  # choice audits: the choice letters (default: each preset's)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if isinstance(self.group_by, str):
            raise TypeError(
                f"group_by takes a sequence of column names, e.g. ({self.group_by!r},); "
                f"got the string {self.group_by!r}"
            )
        object.__setattr__(self, "group_by", tuple(self.group_by))
        check_bootstrap(self.n_boot, self.seed)
        check_fraction("alpha", self.alpha, 0.05)
        examples = as_integer(self.max_examples)
        if examples is None or examples < 0:
            raise ValueError(
                f"max_examples must be a non-negative integer; got {self.max_examples!r}"
            )
        if self.choices is not None:
            object.__setattr__(self, "choices", validated_choices(self.choices))


@dataclass
class AuditResult:
    """Plain data; ``to_dict()`` is the documented JSON report."""

    settings: dict[str, Any]
    coverage: dict[str, Any]
    consistency: dict[str, Any] | None
    schemes: list[dict[str, Any]]
    cells: list[dict[str, Any]]
    markers: dict[str, int]
    think: dict[str, Any]
    rules: dict[str, Any]
    examples: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def audit(
    frame: pl.DataFrame | Rows,
    schemes: Sequence[Scheme] | None = None,
    settings: AuditSettings | None = None,
    *,
    presets: Mapping[str, Parser] | None = None,
    source_coverage: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    workers: int = 1,
) -> AuditResult:
    """Relabel every row under each scheme and compare with the stored labels.

    ``frame`` is a canonical table (``id, raw, parsed?, label?, truth, <groups>``), in memory
    or streamed from files (`answer_audit.table.lazy`); ``progress`` is called with a short
    message as each scheme starts. ``workers`` > 1 runs the row-by-row presets and matchers in
    that many processes (`answer_audit.schemes.parallel`; a script doing so needs an
    ``if __name__ == "__main__":`` guard); the numbers are the same.

    >>> import polars as pl
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Paris.\\nUSER: hi"], "parsed": ["Paris."],
    ...                   "label": [True], "truth": ["Paris"]})
    >>> audit(t).schemes[0]["flips"]
    0
    """
    settings = settings or AuditSettings()
    if not isinstance(settings, AuditSettings):
        raise TypeError(
            f"settings must be an AuditSettings, e.g. AuditSettings(group_by=('model',)); got "
            f"{type(settings).__name__}"
        )
    schemes = _checked_schemes(schemes) if schemes is not None else default_schemes(settings.kind)
    if settings.choices is not None:
        if settings.kind != "choice":
            raise ValueError("choices apply to choice audits only (--kind choice)")
        presets = with_choices(presets, settings.choices)
    if isinstance(frame, StreamedRows | InMemoryRows):
        rows: Rows = frame
    else:  # a caller's table, read as the file readers read one
        rows = InMemoryRows(in_memory_table(frame, settings.group_by, what="the audit table"))
    _check_columns(rows.columns, settings)
    for scheme in schemes:
        check_scheme(scheme, settings.kind, presets)
    small = rows.small
    if "label" not in rows.columns and "parsed" not in rows.columns:
        raise ValueError(
            "the audit compares with stored labels: pass --label COLUMN (stored correctness) "
            "or --parsed COLUMN (stored parse, labelled with the v1 matcher); a framework log "
            "without scores has neither: `answer-audit rescore` labels its outputs afresh"
        )
    # A row is scored when it has a truth the kind's v1 matcher accepts and a stored label;
    # a scheme whose own matcher cannot judge a scored row leaves it out (see `_compare`).
    blank = pl.Series([""] * rows.height, dtype=pl.String)
    has_truth = label_column(blank, small["truth"], settings.kind, "v1").is_not_null()

    # Rows are read and scored in slices: a slice's text and what is made from it (extracted
    # values, lowercased copies) are freed before the next, and only rules, spans and labels
    # are kept, so memory grows with the slice, not the table. Results do not depend on the
    # slicing (every rule is a function of its row).
    consistency_parts: list[pl.DataFrame] = []
    parts: dict[str, list[pl.DataFrame]] = {s.name: [] for s in schemes}
    markers: Counter[str] = Counter()
    think = _ThinkTally(settings)
    # The schemes of a slice run side by side: the vectorized ones in threads, one per parser
    # (so schemes sharing a parser extract once; Polars works outside the GIL), and, with
    # worker processes, the row-by-row ones from another thread that hands them to the
    # workers. Markers and think counts run here meanwhile. Same results as one after another.
    background = [s for s in schemes if workers > 1 and row_by_row(s, settings.kind, presets)]
    by_parser: dict[str, list[Scheme]] = {}
    if "parsed" in rows.columns:
        by_parser[CONSISTENCY.parser] = [CONSISTENCY]
    for scheme in schemes:
        if scheme not in background:
            by_parser.setdefault(scheme.parser, []).append(scheme)
    groups = [*by_parser.values(), *([background] if background else [])]
    with ThreadPoolExecutor(max_workers=max(len(groups), 1)) as threads:
        for start in range(0, max(rows.height, 1), CHUNK_ROWS):
            where = _where(start, rows.height)
            if progress is not None:
                progress(f"reading rows{where}")
            chunk = rows.slice(start, CHUNK_ROWS)
            pending = [
                threads.submit(_slim_all, chunk, group, settings, presets, workers)
                for group in groups
            ]
            if progress is not None:
                progress(f"scoring {', '.join(s.name for s in schemes)}{where}")

            def tally(stored: pl.Series, chunk: pl.DataFrame = chunk, start: int = start) -> None:
                scored = has_truth.slice(start, chunk.height) & stored.is_not_null()
                markers.update(_markers(chunk, scored))
                think.add(chunk, scored, stored)

            if "label" in chunk.columns:
                tally(chunk["label"])  # while the threads score
            for group, future in zip(groups, pending, strict=True):
                for scheme, part in zip(group, future.result(), strict=True):
                    if scheme is CONSISTENCY:
                        consistency_parts.append(part)
                    else:
                        parts[scheme.name].append(part)
            if "label" not in chunk.columns:  # the stored labels come from the consistency scheme
                tally(consistency_parts[-1]["correct"])
            del chunk, pending
    if progress is not None:
        progress("comparing with the stored labels")
    consistency_labels = pl.concat(consistency_parts) if consistency_parts else None
    labelled = {name: pl.concat(chunks) for name, chunks in parts.items()}
    if "label" in small.columns:
        stored = small["label"]
    else:  # checked above: the stored parse, labelled by the consistency scheme
        assert consistency_labels is not None
        stored = consistency_labels["correct"]
    scored = has_truth & stored.is_not_null()
    if rows.height and not scored.any():
        # Error rates of 0.00 over no rows would read as "no errors"; say what is missing.
        raise ValueError(
            f"no row has both a truth and a stored label ({int((~has_truth).sum())} of "
            f"{rows.height} without a truth, {int(stored.is_null().sum())} without a stored "
            "label); check --truth, --label/--parsed and --null-values"
        )
    ok_columns = {s.name: labelled[s.name]["correct"].filter(scored) for s in schemes}
    table = (
        small.select(*settings.group_by, stored.cast(pl.Boolean).alias("_stored"))
        .filter(scored)
        .with_columns(**{f"_ok{i}": ok_columns[s.name] for i, s in enumerate(schemes)})
    )
    stored_ok = table["_stored"].to_numpy().astype(bool)

    consistency = None
    if consistency_labels is not None and "label" in small.columns:
        derived = consistency_labels["correct"].filter(scored).to_numpy().astype(bool)
        consistency = {"scheme": CONSISTENCY.spec(), "n": len(derived),
                       "mismatches": int((derived != stored_ok).sum())}  # fmt: skip

    summaries, cells, flips_by_scheme, rules = [], [], {}, {}
    for i, scheme in enumerate(schemes):
        summary, scheme_cells = _compare(scheme, table, f"_ok{i}", settings)
        summaries.append(summary)
        cells.extend(scheme_cells)
        # A row the scheme's matcher cannot judge (null) is left out of its comparison.
        ok = ok_columns[scheme.name]
        judged = ok.is_not_null().to_numpy()
        flips_by_scheme[scheme.name] = np.flatnonzero(
            judged & (ok.fill_null(False).to_numpy() != stored_ok)
        )
        if not scheme.uses_stored_parse:
            rule = labelled[scheme.name]["rule"].filter(scored)
            rules[scheme.name] = _rule_counts(
                table.with_columns(rule.alias("_rule")), settings.group_by
            )

    if progress is not None:
        progress("collecting examples")
    n_groups = (
        table.select(settings.group_by).n_unique()
        if settings.group_by and table.height
        else min(table.height, 1)
    )
    return AuditResult(
        settings={**asdict(settings), "schemes": [s.spec() for s in schemes]},
        coverage=_coverage(rows.height, has_truth, stored, n_groups, source_coverage),
        consistency=consistency,
        schemes=summaries,
        cells=sorted(cells, key=lambda c: (-abs(c["delta_pp"]), -c["flips"], c["scheme"])),
        markers={k: markers[k] for k in MARKER_COUNTS},
        think=think.result(),
        rules=rules,
        examples=_examples(
            rows, stored, labelled, scored, flips_by_scheme, schemes, settings, presets
        ),
        notes=(
            outside_choices(small["truth"].filter(scored), schemes, presets)
            if settings.kind == "choice"
            else []
        ),
    )


def _where(start: int, height: int) -> str:
    end = min(start + CHUNK_ROWS, height)
    return f" (rows {start:,}-{end:,} of {height:,})" if height > CHUNK_ROWS else ""


CHUNK_ROWS = 100_000


def _slim_all(
    chunk: pl.DataFrame,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
) -> list[pl.DataFrame]:
    """`_slim` for several schemes of one slice, in order, sharing extractions."""
    cache: ExtractionCache = {}
    return [_slim(chunk, s, settings, presets, cache, workers) for s in schemes]


def _slim(
    chunk: pl.DataFrame,
    scheme: Scheme,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    cache: ExtractionCache,
    workers: int,
) -> pl.DataFrame:
    """One scheme on one slice: rule, span and label per row (the values are not kept)."""
    labelled = apply_scheme(chunk, scheme, settings.kind, presets, cache, workers)
    return mask_error_rows(chunk, labelled).select("rule", "span_start", "span_end", "correct")


def _checked_schemes(schemes: object) -> list[Scheme]:
    """The caller's schemes as a list, refused when one is not a Scheme or two share a name
    (each name keys its columns and report rows)."""
    if isinstance(schemes, str | Scheme) or not isinstance(schemes, Sequence):
        raise TypeError(
            "schemes must be a list of Scheme objects, e.g. [parse_scheme('mine=freeform/v3:v3')]"
        )
    odd = [s for s in schemes if not isinstance(s, Scheme)]
    if odd:
        raise TypeError(f"schemes must be Scheme objects (see parse_scheme); got {odd[0]!r}")
    names = [s.name for s in schemes]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"scheme name(s) {', '.join(repeated)} appear more than once; give each "
                         "scheme its own name")  # fmt: skip
    return list(schemes)


def _check_columns(columns: list[str], settings: AuditSettings) -> None:
    missing = [c for c in ("raw", "truth", *settings.group_by) if c not in columns]
    if missing:
        raise ValueError(
            f"the audit table lacks column(s) {', '.join(missing)}; available: {', '.join(columns)}"
        )


def _coverage(
    height: int,
    has_truth: pl.Series,
    stored: pl.Series,
    n_groups: int,
    source_coverage: Mapping[str, Any] | None,
) -> dict[str, Any]:
    cov: dict[str, Any] = dict(source_coverage or {})
    cov.update(
        rows=height,
        scored=int((has_truth & stored.is_not_null()).sum()),
        skipped={
            "no_truth": int((~has_truth).sum()),
            "no_stored_label": int((has_truth & stored.is_null()).sum()),
        },
        groups=n_groups,
    )
    if "rows_with_truth" in cov:  # the matcher's word on what a truth is (a blank one is none)
        cov["rows_with_truth"] = int(has_truth.sum())
    return cov


# Underscored names: a group column may well be called "n" or "c".
_COUNTS = {
    "_n": pl.len(),
    "_both": (pl.col("_stored") & pl.col("_ok")).sum(),
    "_b": (pl.col("_stored") & ~pl.col("_ok")).sum(),  # stored right, scheme wrong
    "_c": (~pl.col("_stored") & pl.col("_ok")).sum(),
}


def _compare(
    scheme: Scheme, table: pl.DataFrame, ok: str, settings: AuditSettings
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Overall and per-group comparison of one scheme with the stored labels, from counts."""
    # Rows this scheme's matcher cannot judge (e.g. `numeric` on a truth without a number) are
    # not scheme errors: they are left out of its n, like rescore leaves them out.
    t = table.select(*settings.group_by, "_stored", pl.col(ok).alias("_ok")).filter(
        pl.col("_ok").is_not_null()
    )
    overall = _delta(t.select(**_COUNTS).row(0, named=True), settings)
    per_group = (
        t.group_by(settings.group_by).agg(**_COUNTS) if settings.group_by else t.select(**_COUNTS)
    )
    cells = [
        {
            "scheme": scheme.name,
            "group": {g: r[g] for g in settings.group_by},
            **_delta(r, settings),
        }
        for r in per_group.iter_rows(named=True)
        if r["_n"]
    ]
    cells.sort(key=lambda c: tuple(str(v) for v in c["group"].values()))
    adjusted = holm([c["mcnemar_p"] for c in cells])
    for cell, p in zip(cells, adjusted, strict=True):
        cell["holm_p"] = p
    significant = [c for c in cells if c["holm_p"] is not None and c["holm_p"] < settings.alpha]
    max_abs = max((abs(c["delta_pp"]) for c in cells), default=0.0)
    summary = {
        "name": scheme.name,
        "parser": scheme.parser,
        "normalizer": scheme.normalizer,
        **overall,
        "max_abs_delta_pp": max_abs,
        "significant_groups": len(significant),
        "groups": len(cells),
        "verdict": _verdict(overall, max_abs, significant, len(cells), settings.alpha),
    }
    return summary, cells


def _delta(counts: Mapping[str, Any], settings: AuditSettings) -> dict[str, Any]:
    n, both, b, c = (int(counts[k] or 0) for k in ("_n", "_both", "_b", "_c"))
    stored_err = (1 - (both + b) / n) * 100 if n else 0.0
    err = (1 - (both + c) / n) * 100 if n else 0.0
    ci = (
        paired_delta_ci_counts(both, b, c, n - both - b - c, B=settings.n_boot, seed=settings.seed)
        if n
        else (0.0, 0.0)
    )
    return {
        "n": n,
        "flips": b + c,
        "stored_right_scheme_wrong": b,
        "stored_wrong_scheme_right": c,
        "stored_error_pct": float(stored_err),
        "error_pct": float(err),
        "delta_pp": float(err - stored_err),
        "delta_ci": [float(ci[0]), float(ci[1])],
        "mcnemar_p": float(mcnemar(b, c)),
    }


def _verdict(
    overall: Mapping[str, Any],
    max_abs: float,
    significant: list[dict[str, Any]],
    n_groups: int,
    alpha: float,
) -> str:
    lo, hi = overall["delta_ci"]
    head = (
        f"overall Δ {overall['delta_pp']:+.1f} pp (95% CI {lo:+.1f} to {hi:+.1f}, "
        f"McNemar p={overall['mcnemar_p']:.3g}); max |Δ| {max_abs:.1f} pp over {n_groups} group(s)"
    )
    if not significant:
        return f"{head}; no group significant at {alpha:g} after Holm"
    worst = max(significant, key=lambda c: abs(c["delta_pp"]))
    where = ", ".join(f"{k}={v}" for k, v in worst["group"].items()) or "all rows"
    return (
        f"{head}; {len(significant)} group(s) significant at {alpha:g} after Holm "
        f"(largest: {where}, Δ {worst['delta_pp']:+.1f} pp)"
    )


def _count_any(column: pl.Series, markers: Sequence[str], where: pl.Series) -> int:
    return int((_contains_any_lowercased(column, markers) & where).sum())


def _contains_any_lowercased(column: pl.Series, markers: Sequence[str]) -> pl.Series:
    """``column.str.to_lowercase()`` contains one of the lowercase ``markers`` (null: False),
    without the lowercased copy: an ASCII-case-insensitive search, plus the spelling with the
    Kelvin sign, the one non-ASCII character whose lowercase is a single ASCII letter ("k").
    U+0130 lowercases to "i" + a combining dot, which only a marker ending in "i" could match:
    none may."""
    assert all(m.isascii() and m == m.lower() and not m.endswith("i") for m in markers)
    variants = [*markers, *(m.replace("k", "\u212a") for m in markers if "k" in m)]
    return column.str.contains_any(variants, ascii_case_insensitive=True).fill_null(False)


MARKER_COUNTS = ("raw_role", "raw_block", "parsed_role", "parsed_block")


def _markers(chunk: pl.DataFrame, scored: pl.Series) -> dict[str, int]:
    """Scored rows whose raw text / stored parse holds a role or block marker."""
    parsed = (
        chunk["parsed"]
        if "parsed" in chunk.columns
        else pl.Series([None] * chunk.height, dtype=pl.String)
    )
    return {
        "raw_role": _count_any(chunk["raw"], ROLE_MARKERS, scored),
        "raw_block": _count_any(chunk["raw"], BLOCK_MARKERS, scored),
        "parsed_role": _count_any(parsed, ROLE_MARKERS, scored),
        "parsed_block": _count_any(parsed, BLOCK_MARKERS, scored),
    }


_AFTER_THINK = FreeformPreset("after-think", (), case_sensitive=False, strip_think=True)


class _ThinkTally:
    """Scored rows with ``</think>``, and what scoring only the text after the last one (v2)
    flips, added up slice by slice (`add`) and reported by `result`."""

    def __init__(self, settings: AuditSettings) -> None:
        self.settings = settings
        self.rows = 0
        self.flips = 0
        self.lost: list[dict[str, Any]] = []

    def add(self, chunk: pl.DataFrame, scored: pl.Series, stored: pl.Series) -> None:
        has = _contains_any_lowercased(chunk["raw"], ["</think>"]) & scored
        n = int(has.sum())
        self.rows += n
        if self.settings.kind != "freeform" or not n:
            return
        sub = chunk.filter(has)
        presets = {_AFTER_THINK.name: _AFTER_THINK}
        post = extract_column(sub, _AFTER_THINK.name, "freeform", presets)
        ok = label_column(post["value"], sub["truth"], "freeform", "v2").fill_null(False).to_numpy()
        before = stored.filter(has).cast(pl.Boolean).to_numpy().astype(bool)
        self.flips += int((ok != before).sum())
        room = self.settings.max_examples - len(self.lost)
        for i in np.flatnonzero(before & ~ok)[: max(room, 0)]:
            self.lost.append(
                {
                    "id": sub["id"][int(i)],
                    "truth": sub["truth"][int(i)],
                    "post_think": snippet(post["value"][int(i)]),
                }
            )

    def result(self) -> dict[str, Any]:
        freeform = self.settings.kind == "freeform"
        return {
            "rows": self.rows,
            "post_think_flips": self.flips if freeform else None,
            "stored_right_post_think_wrong": self.lost,
        }


def _rule_counts(table: pl.DataFrame, group_by: Sequence[str]) -> dict[str, Any]:
    overall = table.group_by("_rule").len().sort(["len", "_rule"], descending=[True, False])
    out: dict[str, Any] = {"overall": dict(overall.iter_rows()), "groups": []}
    if group_by:
        # Grouped by Polars, not by a dict of Python keys: NaN stays one group (NaN != NaN).
        per = table.group_by(list(group_by)).agg(pl.col("_rule")).iter_rows()
        grouped = [(tuple(r[:-1]), Counter(r[-1])) for r in per]
        out["groups"] = [
            {"group": dict(zip(group_by, key, strict=True)), "counts": dict(sorted(c.items()))}
            for key, c in sorted(grouped, key=lambda kv: tuple(map(str, kv[0])))
        ]
    else:
        out["groups"] = [{"group": {}, "counts": dict(sorted(out["overall"].items()))}]
    return out


def _examples(
    rows: Rows,
    stored: pl.Series,
    labelled: Mapping[str, pl.DataFrame],
    scored: pl.Series,
    flips: Mapping[str, np.ndarray[Any, np.dtype[np.intp]]],
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> list[dict[str, Any]]:
    pool = [(s.name, int(i)) for s in schemes for i in flips[s.name]]
    if not pool or settings.max_examples <= 0:
        return []
    chosen = random.Random(settings.seed).sample(pool, min(settings.max_examples, len(pool)))
    order = {s.name: k for k, s in enumerate(schemes)}
    chosen.sort(key=lambda p: (order[p[0]], p[1]))
    at = scored.arg_true()  # index among scored rows -> row of the table
    wanted = sorted({int(at[i]) for _, i in chosen})
    fetched = rows.take(wanted)  # one read of the chosen rows (a streamed table reads its files)
    position = {k: j for j, k in enumerate(wanted)}
    by_name = {s.name: s for s in schemes}
    out = []
    for name, i in chosen:
        k = int(at[i])
        one = fetched.slice(position[k], 1)
        row = one.row(0, named=True)
        lab = labelled[name].row(k, named=True)
        # the audit kept no values: the chosen row is extracted again (same rules, same value)
        again = apply_scheme(one, by_name[name], settings.kind, presets)
        lab["value"] = mask_error_rows(one, again)["value"][0]
        raw = row["raw"] or ""
        span = None if lab["span_start"] is None else [lab["span_start"], lab["span_end"]]
        out.append(
            {
                "scheme": name,
                "id": row["id"],
                "group": {g: row[g] for g in settings.group_by},
                "truth": row["truth"],
                "stored_label": bool(stored[k]),
                "scheme_label": bool(lab["correct"]),
                "rule": lab["rule"],
                "span": span,
                "raw": raw,
                "raw_head": raw[:SNIPPET_HEAD],
                "raw_tail": raw[-SNIPPET_TAIL:] if len(raw) > SNIPPET_HEAD + SNIPPET_TAIL else "",
                "raw_chars": len(raw),
                "stored_parse": snippet(row.get("parsed")),
                "scheme_parse": snippet(lab["value"]),
            }
        )
    return out


def snippet(text: str | None, limit: int = SNIPPET_HEAD) -> str | None:
    """The text cut to ``limit`` characters with an ellipsis marking the cut."""
    if text is None:
        return None
    return text if len(text) <= limit else text[:limit] + "…"
