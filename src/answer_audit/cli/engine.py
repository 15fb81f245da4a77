"""`audit --engine ray` and `rescore --engine ray`: the checks the command line makes before it
hands Parquet sources to `answer_audit.engines.ray` (imported only then: Ray is an extra)."""

from __future__ import annotations

import glob
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from answer_audit.analysis.audit import AuditResult, AuditSettings
from answer_audit.analysis.rescore_result import RescoreResult
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme
from answer_audit.sources import ColumnMap, SourceError
from answer_audit.sources.spec import SourceSpec

ENGINES = ("local", "ray")
ROW_SUFFIXES = (".jsonl", ".csv", ".parquet", ".json")


def check_engine(engine: str, address: str | None) -> None:
    """Refuse an unknown ``--engine``, and ``--address`` without ``--engine ray``."""
    if engine not in ENGINES:
        raise ValueError(f"--engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if address is not None and engine != "ray":
        raise ValueError("--address applies to --engine ray; add --engine ray or drop it")


def check_ray_sources(spec: SourceSpec, cmap: ColumnMap) -> None:
    """What the Ray engine reads: Parquet files, folders of them or globs, with an --id."""
    ray_only = "--engine ray reads Parquet files only (a file, a folder or a glob of them)"
    if spec.runs_dir is not None or spec.metadata is not None:
        raise SourceError(f"{ray_only}, not --runs-dir folders; write the runs as Parquet first")
    if spec.fmt not in ("auto", "parquet") or spec.records_key or spec.table or spec.query:
        raise SourceError(f"{ray_only}; drop --format/--records/--table/--query")
    if not spec.paths:
        raise SourceError("no input: pass one or more Parquet files or folders")
    for path in spec.paths:
        text = str(path)
        if path.is_file() and path.suffix.lower() != ".parquet":
            raise SourceError(f"{path}: {ray_only}; this is not a .parquet file")
        if not path.exists() and not glob.has_magic(text):
            raise SourceError(f"{path}: no such file or folder")
    if cmap.id is None:
        from answer_audit.engines.ray import NEEDS_ID

        raise SourceError(NEEDS_ID)


def check_ray_out(out: Path | None) -> None:
    """``--out`` with ``--engine ray``: a folder the workers write Parquet parts to, not a file."""
    if out is None:
        return
    is_file = out.is_file() or (not out.exists() and out.suffix.lower() in ROW_SUFFIXES)
    if is_file:
        raise SourceError(
            f"--out {out}: --engine ray writes the rows as a folder of Parquet files, one per "
            "batch, written by the workers; give --out a folder (e.g. --out rescored/), or "
            "drop --engine ray for one file"
        )


def _needs_ray(exc: ImportError) -> SourceError:
    """The one line that says how to install the extra."""
    return SourceError(f"--engine ray needs Ray Data: pip install 'answer-audit[ray]' ({exc})")


def audit_on_ray(
    spec: SourceSpec,
    cmap: ColumnMap,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    *,
    presets: Mapping[str, Parser] | None,
    user_schemes: Collection[str],
    address: str | None,
    step: Callable[[str], None],
) -> AuditResult:
    """The audit of ``spec``'s Parquet sources on Ray (checked by `check_ray_sources`)."""
    try:
        from answer_audit.engines.ray import audit_parquet
        from answer_audit.engines.ray_data import quiet_ray_data
    except ImportError as exc:
        raise _needs_ray(exc) from exc
    step("auditing on Ray")
    with quiet_ray_data():
        return audit_parquet([str(p) for p in spec.paths], cmap, schemes, settings,
                             presets=presets, address=address, user_schemes=user_schemes)  # fmt: skip


def rescore_on_ray(
    spec: SourceSpec,
    cmap: ColumnMap,
    parser: str | Parser,
    *,
    presets: Mapping[str, Parser] | None,
    choices: str | None,
    normalizer: str | None,
    n_boot: int,
    seed: int,
    conclusions: tuple[str | None, str | None, str | None],
    address: str | None,
    out: Path | None,
    step: Callable[[str], None],
) -> RescoreResult:
    """The rescore of ``spec``'s Parquet sources on Ray (checked by `check_ray_sources` and
    `check_ray_out`); ``conclusions`` is (compare, baseline, item)."""
    try:
        from answer_audit.engines.ray import rescore_parquet
        from answer_audit.engines.ray_data import quiet_ray_data
    except ImportError as exc:
        raise _needs_ray(exc) from exc
    step(f"rescoring with {parser if isinstance(parser, str) else parser.name} on Ray")
    compare, baseline, item = conclusions
    with quiet_ray_data():
        return rescore_parquet([str(p) for p in spec.paths], cmap, parser, presets=presets,
                               choices=choices, normalizer=normalizer, n_boot=n_boot, seed=seed,
                               compare=compare, baseline=baseline, item=item, address=address,
                               out=out)  # fmt: skip
