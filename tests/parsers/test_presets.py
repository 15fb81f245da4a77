"""The built-in presets: each is frozen, hashable data in one presets/ module per family, and the
registry lists exactly those."""

from __future__ import annotations

import dataclasses
from types import ModuleType

import pytest

from answer_audit import PresetSet, get_parser, list_parsers
from answer_audit.parsers import BUILTIN, COMPARISON, ChoicePreset, Parser
from answer_audit.parsers.presets import choice, freeform, json, number

# Each family's module, by the prefix of its presets' names.
FAMILY_MODULES: dict[str, ModuleType] = {
    "choice": choice,
    "freeform": freeform,
    "json": json,
    "number": number,
}


def presets_of(prefix: str, module: ModuleType) -> dict[str, Parser]:
    """The presets a family module defines (an imported preset of another family is skipped:
    number/v1 reads its region with freeform/v3)."""
    found = [
        value
        for value in vars(module).values()
        if not isinstance(value, type) and isinstance(value, Parser)
    ]
    return {p.name: p for p in found if p.name.startswith(f"{prefix}/")}


def test_the_registry_lists_exactly_the_presets_of_the_presets_modules() -> None:
    defined: dict[str, Parser] = {}
    for prefix, module in FAMILY_MODULES.items():
        own = presets_of(prefix, module)
        assert own, f"presets/{module.__name__.rsplit('.', 1)[-1]}.py defines no preset"
        assert not set(own) & set(defined)
        defined.update(own)
    assert set(defined) == set(list_parsers()) and len(defined) == len(list_parsers())
    assert all(BUILTIN[name] is preset for name, preset in defined.items())


@pytest.mark.parametrize("name", list_parsers())
def test_every_built_in_name_resolves_to_its_preset(name: str) -> None:
    preset = get_parser(name)
    assert preset is BUILTIN[name] is PresetSet()[name]
    assert preset.name == name
    assert name.split("/", 1)[0] in FAMILY_MODULES


@pytest.mark.parametrize("name", list_parsers())
def test_every_built_in_preset_is_frozen_and_hashable(name: str) -> None:
    preset = BUILTIN[name]
    assert dataclasses.is_dataclass(preset)
    assert type(preset).__dataclass_params__.frozen
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(preset, "name", "changed")  # noqa: B010  (the assignment mypy would refuse)
    copy = dataclasses.replace(preset)
    assert copy == preset and hash(copy) == hash(preset)
    if isinstance(preset, ChoicePreset):
        for step in preset.steps:
            assert type(step).__dataclass_params__.frozen
            assert hash(dataclasses.replace(step)) == hash(step)


def test_comparison_presets_are_built_in_choice_presets() -> None:
    assert COMPARISON
    assert all(isinstance(BUILTIN[name], ChoicePreset) for name in COMPARISON)


def test_every_recommendation_names_a_built_in_preset_of_its_family() -> None:
    from answer_audit.matching import MATCHERS
    from answer_audit.parsers.presets.recommended import RECOMMENDED

    assert set(RECOMMENDED) == {"choice", "freeform", "number", "json"}
    for family, r in RECOMMENDED.items():
        assert r.preset in BUILTIN and r.preset.startswith(f"{family}/")
        assert r.matcher in MATCHERS


def test_parsers_marks_the_recommended_presets_and_explain_uses_the_choice_one() -> None:
    from typer.testing import CliRunner

    from answer_audit.cli import app
    from answer_audit.parsers.presets.recommended import RECOMMENDED

    runner = CliRunner()
    listed = runner.invoke(app, ["parsers"])
    assert listed.exit_code == 0
    for r in RECOMMENDED.values():
        assert f"{r.preset} (recommended)" in listed.stdout
        assert f"recommended {r.family}: {r.preset}" in listed.stdout
    explained = runner.invoke(app, ["explain", "Reasoning.\n\nThe answer is (B)."])
    assert f"parser  {RECOMMENDED['choice'].preset}" in explained.stdout


def test_the_audit_defaults_run_every_recommended_preset_with_its_matcher() -> None:
    from answer_audit.parsers.presets.recommended import RECOMMENDED
    from answer_audit.schemes.apply import default_schemes

    for family, r in RECOMMENDED.items():
        schemes = {(s.parser, s.normalizer) for s in default_schemes(family)}
        assert (r.preset, r.matcher) in schemes, f"the {family} defaults lack {r.preset}"
