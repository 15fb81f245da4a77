"""`audit --engine ray`: the checks the command line makes before it hands Parquet sources to
`answer_audit.engines.ray` (imported only then: Ray is an extra)."""

from __future__ import annotations

import glob
from collections.abc import Callable, Collection, Mapping, Sequence

from answer_audit.analysis.audit import AuditResult, AuditSettings
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme
from answer_audit.sources import ColumnMap, SourceError
from answer_audit.sources.spec import SourceSpec

ENGINES = ("local", "ray")


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
    except ImportError as exc:
        raise SourceError(
            f"--engine ray needs Ray Data: pip install 'answer-audit[ray]' ({exc})"
        ) from exc
    step("auditing on Ray")
    return audit_parquet([str(p) for p in spec.paths], cmap, schemes, settings, presets=presets,
                         address=address, user_schemes=user_schemes)  # fmt: skip
