"""answer-audit: trustworthy answer extraction, rescoring, and parsing-sensitivity audits."""

from typing import TYPE_CHECKING

from answer_audit.extraction import Extraction
from answer_audit.matching import is_correct, normalize
from answer_audit.parsers import (
    PresetError,
    PresetSet,
    extract_json_field,
    first_json_object,
    get_parser,
    list_parsers,
)
from answer_audit.parsers.extract import extract
from answer_audit.text.regions import strip_think, truncate_at_markers

if TYPE_CHECKING:  # the lazy names below, for type checkers and editors
    from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
    from answer_audit.analysis.diff import DiffResult, diff_labelings
    from answer_audit.analysis.rescore import RescoreResult, rescore
    from answer_audit.schemes.apply import Scheme
    from answer_audit.sources import (
        ColumnMap,
        LoadedTable,
        SourceError,
        StreamedTable,
        load_files,
        load_runs,
        stream_files,
        stream_runs,
    )

__version__ = "0.1.0"

# The table-level API imports Polars and NumPy; it loads on first use, so extracting one answer
# stays a light import.
_LAZY = {
    "audit": "answer_audit.analysis.audit",
    "AuditResult": "answer_audit.analysis.audit",
    "AuditSettings": "answer_audit.analysis.audit",
    "Scheme": "answer_audit.schemes.apply",
    "rescore": "answer_audit.analysis.rescore",
    "RescoreResult": "answer_audit.analysis.rescore",
    "diff_labelings": "answer_audit.analysis.diff",
    "DiffResult": "answer_audit.analysis.diff",
    "ColumnMap": "answer_audit.sources",
    "LoadedTable": "answer_audit.sources",
    "SourceError": "answer_audit.sources",
    "load_files": "answer_audit.sources",
    "load_runs": "answer_audit.sources",
    "StreamedTable": "answer_audit.sources",
    "stream_files": "answer_audit.sources",
    "stream_runs": "answer_audit.sources",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'answer_audit' has no attribute {name!r}")


__all__ = [
    "AuditResult",
    "AuditSettings",
    "ColumnMap",
    "DiffResult",
    "Extraction",
    "LoadedTable",
    "PresetError",
    "PresetSet",
    "RescoreResult",
    "Scheme",
    "SourceError",
    "StreamedTable",
    "__version__",
    "audit",
    "diff_labelings",
    "extract",
    "extract_json_field",
    "first_json_object",
    "get_parser",
    "is_correct",
    "list_parsers",
    "load_files",
    "load_runs",
    "normalize",
    "rescore",
    "stream_files",
    "stream_runs",
    "strip_think",
    "truncate_at_markers",
]
