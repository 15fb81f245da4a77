"""Every input format to one canonical Polars table (id, raw, parsed, label, truth, groups).

Readers live here because reading files is an edge: the rest of the package works on the
canonical frame and never opens a file.
"""

from answer_audit.sources.canonical import ColumnMap, LoadedTable
from answer_audit.sources.errors import SourceError
from answer_audit.sources.files import FORMATS, read_table
from answer_audit.sources.labels import parse_label
from answer_audit.sources.lm_eval import filter_agreement
from answer_audit.sources.load import load_files
from answer_audit.sources.runs import DEFAULT_CONDITIONS, load_runs
from answer_audit.sources.runs_write import write_runs

__all__ = [
    "DEFAULT_CONDITIONS",
    "FORMATS",
    "ColumnMap",
    "LoadedTable",
    "SourceError",
    "filter_agreement",
    "load_files",
    "load_runs",
    "parse_label",
    "read_table",
    "write_runs",
]
