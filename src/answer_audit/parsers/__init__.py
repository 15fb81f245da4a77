"""Parser families (one engine each) and their frozen presets.

Engines: `choice` (with `choice_step`, `choice_patterns`, `choice_statements`,
`choice_option_text`), `freeform`, `number`, `jsonfield` (with `json_tolerant`, the reader of
its v2 presets). The built-in presets are data in `presets/` (one module per family);
`registry` looks presets up by name, and `preset_files` reads user presets from TOML.
"""

from answer_audit.parsers.base import Parser, PresetError
from answer_audit.parsers.choice import ChoicePreset
from answer_audit.parsers.choice_step import ChoiceStep
from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.parsers.jsonfield import (
    JsonFieldPreset,
    extract_json_field,
    first_json_object,
)
from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.preset_files import load_preset_file
from answer_audit.parsers.registry import (
    BUILTIN,
    COMPARISON,
    PresetSet,
    get_parser,
    list_parsers,
)

# The answer words (text/vocabulary.py), under the name this package exports them by.
from answer_audit.text.vocabulary import ANSWER_WORDS as MULTILINGUAL_PREFIXES

__all__ = [
    "BUILTIN",
    "COMPARISON",
    "MULTILINGUAL_PREFIXES",
    "AnswerRegionPreset",
    "ChoicePreset",
    "ChoiceStep",
    "FreeformPreset",
    "JsonFieldPreset",
    "NumberPreset",
    "Parser",
    "PresetError",
    "PresetSet",
    "extract_json_field",
    "first_json_object",
    "get_parser",
    "list_parsers",
    "load_preset_file",
]
