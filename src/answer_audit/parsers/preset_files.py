"""User presets from TOML files: each becomes the same kind of frozen preset as a built-in.

A file's ``[preset.<name>]`` table names its ``family`` and optionally a built-in ``base`` to
start from; every other key replaces one setting. Everything is checked when the file is
loaded, and every problem names the file and the key: an unknown key, a name the command line
would read as something else, a step that could never answer, a pattern that cannot compile or
that could never match the lowercased text the choice engine reads. A file's regexes run with
a time limit (`timed`).

Over 400 lines on purpose: one check per key of every family, kept beside each other so the
messages stay alike; each family's checks are a few short functions.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from answer_audit.parsers.base import Parser, PresetError
from answer_audit.parsers.choice import ChoicePreset, choice_fill, choice_letters
from answer_audit.parsers.choice_patterns import (
    NEGATION_TEMPLATE,
    SCRIPT_NEGATION_TEMPLATE,
    SCRIPT_STOP_TEMPLATE,
    STEP_KINDS,
    STOP_TEMPLATE,
    cue_source,
    word_alternation,
)
from answer_audit.parsers.choice_script import script_choices, token_set
from answer_audit.parsers.choice_step import ChoiceStep, StepKind
from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.parsers.jsonfield import ADHOC_JSON_PARSERS, JsonFieldPreset
from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.number_statement import StatementNumberPreset
from answer_audit.parsers.presets import BUILTIN
from answer_audit.parsers.presets.freeform import FREEFORM_V3
from answer_audit.parsers.timed import check_user_pattern, compile_user_pattern
from answer_audit.text.prefilters import uppercase_literal


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _StepSpec(_Strict):
    kind: StepKind
    rule: str
    triggers: list[str] = []
    patterns: list[str] = []
    pick: Literal["first", "last"] = "last"
    lines: StrictInt | None = Field(default=None, ge=1)
    negations: list[str] = []
    ignore: list[str] = []
    stops: list[str] = []
    bare: StrictBool = False


class _ChoiceSpec(_Strict):
    family: Literal["choice"]
    base: str | None = None
    choices: str | None = None
    steps: list[_StepSpec] | None = None
    think: StrictBool | None = None
    masks: list[str] | None = None


class _FreeformSpec(_Strict):
    family: Literal["freeform"]
    base: str | None = None
    markers: list[str] | None = None
    case_sensitive: StrictBool | None = None
    strip_think: StrictBool | None = None
    cut_patterns: list[str] | None = None
    question_patterns: list[str] | None = None
    unwrap: StrictBool | None = None


class _NumberSpec(_Strict):
    family: Literal["number"]
    base: str | None = None
    region: str | None = None  # a built-in freeform preset


_REGION_FIELDS = ("cut_patterns", "question_patterns", "unwrap")
_REGIONS = (FreeformPreset, AnswerRegionPreset)  # what a number preset's `region` may name


class _JsonSpec(_Strict):
    family: Literal["json"]
    base: str | None = None
    field: str | None = None
    null_as: StrictInt | None = None
    allowed: tuple[StrictInt, StrictInt] | None = None
    integer_fallback: StrictBool | None = None
    tolerant: StrictBool | None = None  # the v2 reader (parsers/json_tolerant.py)


_AnySpec = _ChoiceSpec | _FreeformSpec | _JsonSpec | _NumberSpec
_Spec = Annotated[_AnySpec, Field(discriminator="family")]
_LIST_FIELDS = ("markers", "masks", "cut_patterns", "question_patterns")
_STEP_LIST_FIELDS = ("triggers", "patterns", "negations", "ignore", "stops")


class _PresetFile(_Strict):
    preset: dict[str, _Spec]


def load_preset_file(path: str | Path) -> dict[str, Parser]:
    """Parse a TOML preset file into presets; every problem names the file and the key."""
    path = Path(path)
    try:
        # utf-8-sig: a byte-order mark (which some editors write) is not a TOML error
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise PresetError(f"{path}: preset file not found") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise PresetError(f"{path}: not a readable TOML file: {err}") from None
    except RecursionError:
        raise PresetError(f"{path}: not a readable TOML file: nested too deeply") from None
    try:
        spec = _PresetFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = list(first["loc"])
        if len(loc) > 2 and loc[0] == "preset" and loc[2] in _ENGINES:
            del loc[2]  # the family tag pydantic adds: the file has no such key
        where = ".".join(str(p) for p in loc)
        raise PresetError(f"{path}: key {where!r}: {first['msg']}") from None
    for name in spec.preset:
        if name in BUILTIN:
            raise PresetError(
                f"{path}: key 'preset.{name}': {name} is a built-in preset and cannot be "
                "redefined; give yours a new name"
            )
        if name in _RESERVED_NAMES or name.startswith("stored:") or _UNUSABLE_NAME.search(name):
            raise PresetError(
                f"{path}: key {'preset.' + name!r}: {name!r} cannot name a preset: 'stored', "
                "'json' and 'json/v2' are keywords of --parser and --scheme, which also split "
                "names at '=', ':', ',' and spaces; give it a name such as 'mine/choice'"
            )
    return {name: _build(path, name, s) for name, s in spec.preset.items()}


# What a user preset starts from when it names no `base`.
_BLANK: Mapping[str, Parser] = MappingProxyType(
    {
        "choice": ChoicePreset("", ()),
        "freeform": FreeformPreset("", ()),
        "freeform-regions": AnswerRegionPreset("", ()),
        "json": JsonFieldPreset("", ""),
        "number": NumberPreset("", FREEFORM_V3),
    }
)


# Which engines a preset file's `family` may build on (its `base` must be one of them).
_ENGINES: Mapping[str, tuple[type, ...]] = MappingProxyType(
    {
        "choice": (ChoicePreset,),
        "freeform": (FreeformPreset, AnswerRegionPreset),
        "json": (JsonFieldPreset,),
        "number": (NumberPreset, StatementNumberPreset),
    }
)


def _start(path: Path, name: str, spec: _AnySpec) -> Parser:
    """What a user preset starts from: its built-in ``base``, or a blank of the spec's engine."""
    if spec.base is None:
        regions = any(getattr(spec, k, None) is not None for k in _REGION_FIELDS)
        return _BLANK["freeform-regions" if regions else spec.family]
    base = BUILTIN.get(spec.base)
    if base is None or not isinstance(base, _ENGINES[spec.family]):
        raise PresetError(
            f"{path}: key 'preset.{name}.base': {spec.base!r} is not a built-in {spec.family} preset"
        )
    return base


# Names the command line reads as something else than a preset.
_RESERVED_NAMES = frozenset({"stored", *ADHOC_JSON_PARSERS})
_UNUSABLE_NAME = re.compile(r"[=:,\s]")
# Rules the engines and the audit report themselves: a step of a preset file that took one
# would be counted with them.
RESERVED_RULES = frozenset({
    "not-found", "pattern-timeout", "no-output", "error", "empty", "unclosed-think",
    "stored", "stored-missing", "stored-unparseable",
})  # fmt: skip
# Which step fields each kind of choice step reads its answer from: without them it never
# answers.
_NEEDED = {"trigger-lines": ("triggers", "patterns"), "regex": ("patterns",),
           "window": ("patterns",), "statements": ("patterns",)}  # fmt: skip


def _check_steps(path: Path, name: str, steps: tuple[ChoiceStep, ...]) -> None:
    """Refuse steps that could never answer or would mislabel their answers."""
    for i, step in enumerate(steps):
        key = f"preset.{name}.steps.{i}"
        if step.rule in RESERVED_RULES:
            raise PresetError(
                f"{path}: key '{key}.rule': {step.rule!r} is a rule the engine reports itself "
                "(no answer, a timeout, a stored parse); give the step its own rule name"
            )
        bare_statements = step.kind == "statements" and step.bare  # lines that are one choice
        needed = () if bare_statements else _NEEDED.get(step.kind, ())
        for field_name in needed:
            if not getattr(step, field_name):
                raise PresetError(
                    f"{path}: key '{key}.{field_name}': a {step.kind} step needs at least one "
                    f"of its {field_name}; without them it never answers"
                )


def _build(path: Path, name: str, spec: _AnySpec) -> Parser:
    """The preset a file's spec describes, checked as the engine will run it."""
    start = _start(path, name, spec)
    fields: dict[str, Any] = spec.model_dump(exclude={"family", "base"}, exclude_none=True)
    if "steps" in fields:
        fields["steps"] = tuple(
            ChoiceStep(**{**s, **{k: tuple(s[k]) for k in _STEP_LIST_FIELDS}})
            for s in fields["steps"]
        )
    for key in _LIST_FIELDS:
        if key in fields:
            fields[key] = tuple(fields[key])
    if "allowed" in fields and fields["allowed"][0] > fields["allowed"][1]:
        low, high = fields["allowed"]
        raise PresetError(
            f"{path}: key 'preset.{name}.allowed': [{low}, {high}] allows no value; give "
            "[lowest, highest]"
        )
    if "region" in fields:
        region = BUILTIN.get(fields["region"])
        # number/v2's engine reads a region of turn patterns (freeform/v3 and later)
        kinds = AnswerRegionPreset if isinstance(start, StatementNumberPreset) else _REGIONS
        if not isinstance(region, kinds):
            later = " from freeform/v3 on" if kinds is AnswerRegionPreset else ""
            raise PresetError(
                f"{path}: key 'preset.{name}.region': {fields['region']!r} is not a built-in "
                f"freeform preset{later}"
            )
        fields["region"] = region
    unknown = sorted(set(fields) - {f.name for f in dataclasses.fields(start)})  # type: ignore[arg-type]
    if unknown:
        raise PresetError(
            f"{path}: key 'preset.{name}.{unknown[0]}': not a setting of a {type(start).__name__}"
            " (freeform/v1 and v2 take markers, case_sensitive, strip_think; freeform/v3 takes "
            "cut_patterns, question_patterns, unwrap)"
        )
    if any(f.name == "user_patterns" for f in dataclasses.fields(start)):  # type: ignore[arg-type]
        fields["user_patterns"] = True  # a file's regexes run with a time limit (parsers/timed.py)
    if isinstance(start, ChoicePreset) and start.terminal and {"steps", "masks"} & set(fields):
        # choice/v5's terminal-answer rule stands in for its own reading (`choice_terminal`):
        # a file that replaces the steps or masks is read by those alone
        fields["terminal"] = False
    try:
        preset: Parser = dataclasses.replace(start, name=name, **fields)  # type: ignore[type-var]
    except ValueError as err:  # a choice preset's choices are checked when it is made
        raise PresetError(f"{path}: key 'preset.{name}.choices': {err}") from None
    if isinstance(preset, ChoicePreset):
        _check_choice_preset(path, name, preset)
    if isinstance(preset, AnswerRegionPreset):
        for key in ("cut_patterns", "question_patterns"):
            for pattern in getattr(preset, key):
                _check_pattern(path, f"preset.{name}.{key}", pattern)
    if isinstance(preset, JsonFieldPreset) and not preset.field:
        raise PresetError(f"{path}: key 'preset.{name}.field': a json preset needs a field")
    return preset


# What a choice pattern's placeholders stand for: `{L}` and `{D}` in every choice preset; the
# others only in one based on choice/v5 (a `scripts` preset, `choice_script.TokenSet`): `{T}` one
# captured choice token, `{K}` the token characters, `{W}` what a token must not touch, `{A}` the
# letters without digits, `{TRIGGER}` the step's triggers (patterns of statements and
# option-text steps only).
_SCRIPT_PLACEHOLDERS = ("{TRIGGER}", "{T}", "{K}", "{W}", "{A}")
# The fields of a step that the engine reads as patterns (the others are cues or trigger words).
_PATTERN_FIELDS = ("patterns", "line_final")
_CUE_FIELDS = ("negations", "ignore", "stops", "conditionals", "doubts")


def _choice_fill(preset: ChoicePreset) -> dict[str, str]:
    """What the placeholders of ``preset``'s patterns stand for, for its own choice set (as the
    engine fills them: `choice._compile`, `choice._compile_scripts`)."""
    if not preset.scripts:
        return choice_fill(choice_letters(preset.choices.lower()))
    labels = script_choices(preset.choices)
    odd = [c for c in labels if not unicodedata.category(c).startswith(("L", "N"))]
    if odd:  # choice/v5 takes labels in any script, but "a-e" is a range, not three labels
        shown = " ".join(repr(c) for c in odd)
        raise ValueError(
            f"choices {preset.choices!r} holds {shown}; list every option label, e.g. abcde or "
            "أبجد (ranges such as a-e are not read)"
        )
    fill = dict(token_set(labels).fill)
    fill["{A}"] = "".join(c for c in fill["{K}"] if not c.isdigit())
    return fill


def _check_choice_preset(path: Path, name: str, preset: ChoicePreset) -> None:
    """Refuse a choice preset with no steps, a step that could never answer, or a pattern that
    could never match or compile once its choices (and, based on choice/v5, its triggers) are
    filled in."""
    if not preset.steps:
        raise PresetError(f"{path}: key 'preset.{name}.steps': a choice preset needs steps")
    _check_steps(path, name, preset.steps)
    try:
        fill = _choice_fill(preset)
    except ValueError as err:
        raise PresetError(f"{path}: key 'preset.{name}.choices': {err}") from None
    negation, stop = (
        (SCRIPT_NEGATION_TEMPLATE, SCRIPT_STOP_TEMPLATE)
        if preset.scripts
        else (NEGATION_TEMPLATE, STOP_TEMPLATE)
    )
    templates = {"negations": negation, "stops": stop}
    for i, step in enumerate(preset.steps):
        key = f"preset.{name}.steps.{i}"
        for pattern in step.triggers:
            _check_lowercase(path, f"{key}.triggers", pattern, "triggers")
        # {TRIGGER} is filled in the patterns of statements and option-text steps with triggers
        triggers = (
            word_alternation(step.triggers) if step.triggers and step.kind in STEP_KINDS else None
        )
        for field_name in (*_PATTERN_FIELDS, *_CUE_FIELDS):
            where = f"{key}.{field_name}"
            trigger = triggers if field_name in _PATTERN_FIELDS else None
            for pattern in getattr(step, field_name):
                _check_placeholders(path, where, pattern, preset.scripts, trigger)
                filled = pattern if trigger is None else pattern.replace("{TRIGGER}", trigger)
                # as the engine compiles it: placeholders filled, a cue inside its template
                if field_name in _CUE_FIELDS:
                    filled = cue_source(templates.get(field_name, "{}"), [filled])
                _check_lowercase(path, where, pattern, field_name, _filled(filled, fill))
                _check_pattern(path, where, filled, fill)
    for pattern in preset.masks:
        _check_placeholders(path, f"preset.{name}.masks", pattern, preset.scripts, None)
        _check_lowercase(path, f"preset.{name}.masks", pattern, "masks", _filled(pattern, fill))
        _check_pattern(path, f"preset.{name}.masks", pattern, fill)


def _filled(pattern: str, fill: Mapping[str, str]) -> str:
    for placeholder, value in fill.items():
        pattern = pattern.replace(placeholder, value)
    return pattern


def _check_placeholders(
    path: Path, key: str, pattern: str, scripts: bool, trigger: str | None
) -> None:
    """Refuse a placeholder the engine would leave as it is (it would match itself, literally)."""
    if not scripts:
        found = next((p for p in _SCRIPT_PLACEHOLDERS if p in pattern), None)
        if found is not None:
            raise PresetError(
                f"{path}: key {key!r}: {pattern!r} holds {found}, which only a preset based on "
                'choice/v5 fills in (`base = "choice/v5"`); here write the choices as [{L}{D}]'
            )
    elif "{TRIGGER}" in pattern and trigger is None:
        raise PresetError(
            f"{path}: key {key!r}: {pattern!r} holds {{TRIGGER}}, which stands for the step's "
            "triggers only in the patterns of a statements or option-text step that has "
            "triggers; give the step triggers, or write the words in the pattern"
        )


def _check_lowercase(
    path: Path, key: str, pattern: str, kind: str, filled: str | None = None
) -> None:
    """Choice presets read NFKC-lowercased text: an uppercase letter written in a trigger, or as
    a literal of a pattern (outside ``(?i)``), can never match there. ``filled``: the pattern
    with its placeholders filled in (``{T}`` is no literal ``T``), when it has any."""
    upper = (
        uppercase_literal(pattern if filled is None else filled)
        if kind != "triggers"
        else next((c for c in pattern if c != c.lower()), None)
    )
    if upper is not None:
        raise PresetError(
            f"{path}: key {key!r}: {pattern!r} holds {upper!r}, but choice presets read the "
            "text lowercased, so it can never match; write it in lowercase"
        )


def _check_pattern(
    path: Path, key: str, pattern: str, fill: Mapping[str, str] | None = None
) -> None:
    """Refuse a pattern the engine could not compile (with the `regex` module, as it will run)
    or that would blow up while compiling (`timed.check_user_pattern`)."""
    probe = pattern
    for placeholder, value in (fill or {}).items():
        probe = probe.replace(placeholder, value)
    problem = check_user_pattern(probe)
    if problem is None:
        try:
            compile_user_pattern(probe)
            return
        except Exception as err:  # regex.error, OverflowError, RecursionError (too deep)
            problem = f"invalid regular expression: {err}"
    raise PresetError(f"{path}: key {key!r}: {problem}")
