"""answer-audit: trustworthy answer extraction, rescoring, and parsing-sensitivity audits."""

from answer_audit.extract import extract
from answer_audit.extraction import Extraction
from answer_audit.matching import is_correct
from answer_audit.parsers import (
    PresetError,
    PresetSet,
    extract_json_field,
    first_json_object,
    get_parser,
    list_parsers,
)
from answer_audit.text import normalize, strip_think, truncate_at_markers

__version__ = "0.1.0"

__all__ = [
    "Extraction",
    "PresetError",
    "PresetSet",
    "__version__",
    "extract",
    "extract_json_field",
    "first_json_object",
    "get_parser",
    "is_correct",
    "list_parsers",
    "normalize",
    "strip_think",
    "truncate_at_markers",
]
