"""Every input format to one canonical Polars table (id, raw, parsed, label, truth, groups).

Readers live here because reading files is an edge: the rest of the package works on the
canonical frame and never opens a file. `stream_files` (Parquet, CSV and JSON Lines) and
`stream_runs` give the same table with its long text columns left in the inputs, read a slice
at a time (`table.lazy`).
"""

from answer_audit.sources.files import FORMATS, read_table
from answer_audit.sources.lm_eval import filter_agreement
from answer_audit.sources.load import load_files, stream_files
from answer_audit.sources.runs import load_runs, stream_runs
from answer_audit.sources.runs_write import write_runs
from answer_audit.table.canonical import ColumnMap, LoadedTable
from answer_audit.table.errors import SourceError
from answer_audit.table.labels import parse_label
from answer_audit.table.lazy import StreamedTable

__all__ = [
    "FORMATS",
    "ColumnMap",
    "LoadedTable",
    "SourceError",
    "StreamedTable",
    "filter_agreement",
    "load_files",
    "load_runs",
    "parse_label",
    "read_table",
    "stream_files",
    "stream_runs",
    "write_runs",
]
