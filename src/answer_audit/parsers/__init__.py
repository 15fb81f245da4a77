"""Parser families (one engine each) and their frozen presets."""

from answer_audit.parsers.base import Parser
from answer_audit.parsers.choice import ChoicePreset, ChoiceStep
from answer_audit.parsers.choice_presets import MULTILINGUAL_PREFIXES
from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.parsers.jsonfield import (
    JsonFieldPreset,
    extract_json_field,
    first_json_object,
)
from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.registry import (
    BUILTIN,
    COMPARISON,
    PresetError,
    PresetSet,
    get_parser,
    list_parsers,
    load_preset_file,
)

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
