"""Built-in presets (frozen) and user presets loaded from TOML, looked up by name."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from answer_audit.parsers.base import Parser
from answer_audit.parsers.choice import (
    CHOICE_V1,
    CHOICE_V2,
    CHOICE_V3,
    ChoicePreset,
    ChoiceStep,
    StepKind,
    choice_fill,
    choice_letters,
)
from answer_audit.parsers.choice_presets import (
    CHOICE_ANSWER_COLON_FIRST,
    CHOICE_LETTER_BOUNDARY,
    CHOICE_V4,
)
from answer_audit.parsers.choice_read import NEGATION_TEMPLATE, STOP_TEMPLATE, cue_source
from answer_audit.parsers.freeform import (
    FREEFORM_V1,
    FREEFORM_V2,
    FREEFORM_V3,
    AnswerRegionPreset,
    FreeformPreset,
)
from answer_audit.parsers.jsonfield import JSON_ISUP_GRADE, JsonFieldPreset
from answer_audit.parsers.number import NUMBER_V1, NumberPreset
from answer_audit.parsers.timed import check_user_pattern, compile_user_pattern
from answer_audit.text.prefilters import uppercase_literal

# Frozen once released: tests/golden pins what each of them extracts.
BUILTIN: Mapping[str, Parser] = MappingProxyType(
    {
        p.name: p
        for p in (
            FREEFORM_V1,
            FREEFORM_V2,
            FREEFORM_V3,
            CHOICE_V1,
            CHOICE_V2,
            CHOICE_V3,
            CHOICE_V4,
            CHOICE_ANSWER_COLON_FIRST,
            CHOICE_LETTER_BOUNDARY,
            JSON_ISUP_GRADE,
            NUMBER_V1,
        )
    }
)
# Presets that mimic other frameworks' conventions: for comparison, not recommended for use.
COMPARISON = frozenset({CHOICE_ANSWER_COLON_FIRST.name, CHOICE_LETTER_BOUNDARY.name})


class PresetError(ValueError):
    """A preset name or preset file that cannot be used; the message says what and where."""


class PresetSet(Mapping[str, Parser]):
    """An immutable set of presets: the built-ins plus any user presets given to it."""

    def __init__(self, extra: Mapping[str, Parser] | None = None) -> None:
        clash = sorted(set(extra or {}) & set(BUILTIN))
        if clash:
            raise PresetError(f"user presets may not redefine built-in presets: {', '.join(clash)}")
        self._presets: Mapping[str, Parser] = MappingProxyType({**BUILTIN, **(extra or {})})

    def __getitem__(self, name: str) -> Parser:
        return self._presets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._presets)

    def __len__(self) -> int:
        return len(self._presets)

    @classmethod
    def from_file(cls, path: str | Path | None) -> PresetSet:
        """Built-ins plus the presets defined in a TOML file (None: built-ins only)."""
        return cls(load_preset_file(path) if path else None)


def get_parser(name: str, presets: Mapping[str, Parser] | None = None) -> Parser:
    """The preset called ``name`` (built-in, or from ``presets``).

    >>> get_parser("choice/v3").family
    'choice'
    """
    table = presets if presets is not None else BUILTIN
    try:
        return table[name]
    except KeyError:
        raise PresetError(f"unknown parser {name!r}; known: {', '.join(sorted(table))}") from None


def list_parsers(presets: Mapping[str, Parser] | None = None) -> list[str]:
    """Names of every available preset, sorted."""
    return sorted(presets if presets is not None else BUILTIN)


# ------------------------------------------------------------ user preset files


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


class _JsonSpec(_Strict):
    family: Literal["json"]
    base: str | None = None
    field: str | None = None
    null_as: StrictInt | None = None
    allowed: tuple[StrictInt, StrictInt] | None = None
    integer_fallback: StrictBool | None = None


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
                f"{path}: key {'preset.' + name!r}: {name!r} cannot name a preset: 'stored' and "
                "'json' are keywords of --parser and --scheme, which also split names at '=', "
                "':', ',' and spaces; give it a name such as 'mine/choice'"
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
        "number": (NumberPreset,),
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
_RESERVED_NAMES = frozenset({"stored", "json"})
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
        if not isinstance(region, FreeformPreset | AnswerRegionPreset):
            raise PresetError(
                f"{path}: key 'preset.{name}.region': {fields['region']!r} is not a built-in "
                "freeform preset"
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
    try:
        preset: Parser = dataclasses.replace(start, name=name, **fields)  # type: ignore[type-var]
    except ValueError as err:  # a choice preset's choices are checked when it is made
        raise PresetError(f"{path}: key 'preset.{name}.choices': {err}") from None
    if isinstance(preset, ChoicePreset):
        if not preset.steps:
            raise PresetError(f"{path}: key 'preset.{name}.steps': a choice preset needs steps")
        _check_steps(path, name, preset.steps)
        try:
            fill = choice_fill(choice_letters(preset.choices.lower()))
        except ValueError as err:
            raise PresetError(f"{path}: key 'preset.{name}.choices': {err}") from None
        templates = {"negations": NEGATION_TEMPLATE, "stops": STOP_TEMPLATE, "ignore": "{}"}
        for i, step in enumerate(preset.steps):
            for key in ("triggers", "patterns", "negations", "ignore", "stops"):
                for pattern in getattr(step, key):
                    _check_lowercase(path, f"preset.{name}.steps.{i}.{key}", pattern, key)
            for key in ("patterns", "negations", "ignore", "stops"):
                for pattern in getattr(step, key):
                    # as the engine compiles it: choices filled, a cue inside its template
                    source = cue_source(templates[key], [pattern]) if key in templates else pattern
                    _check_pattern(path, f"preset.{name}.steps.{i}.{key}", source, fill)
        for pattern in preset.masks:
            _check_lowercase(path, f"preset.{name}.masks", pattern, "masks")
            _check_pattern(path, f"preset.{name}.masks", pattern, fill)
    if isinstance(preset, AnswerRegionPreset):
        for key in ("cut_patterns", "question_patterns"):
            for pattern in getattr(preset, key):
                _check_pattern(path, f"preset.{name}.{key}", pattern)
    if isinstance(preset, JsonFieldPreset) and not preset.field:
        raise PresetError(f"{path}: key 'preset.{name}.field': a json preset needs a field")
    return preset


def _check_lowercase(path: Path, key: str, pattern: str, kind: str) -> None:
    """Choice presets read NFKC-lowercased text: an uppercase letter written in a trigger, or as
    a literal of a pattern (outside ``(?i)``), can never match there."""
    upper = (
        uppercase_literal(pattern)
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
