from pathlib import Path

import pytest

from answer_audit import PresetError, PresetSet, extract, get_parser, list_parsers
from answer_audit.parsers import load_preset_file

BUILTINS = {"freeform/v1", "freeform/v2", "choice/v1", "choice/v2", "choice/v3", "json/isup_grade"}


def test_builtins_are_listed_and_immutable() -> None:
    assert set(list_parsers()) >= BUILTINS
    preset = get_parser("choice/v3")
    with pytest.raises(AttributeError):
        preset.name = "x"  # type: ignore[misc]


def test_unknown_parser_lists_known_ones() -> None:
    with pytest.raises(PresetError, match=r"unknown parser 'choice/v9'; known: .*choice/v3"):
        get_parser("choice/v9")


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "presets.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_user_presets_of_every_family(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[preset."choice/final-only"]
family = "choice"
choices = "abcde"
[[preset."choice/final-only".steps]]
kind = "trigger-lines"
rule = "final-line"
triggers = ["final"]
patterns = ['(?<![0-9a-z])([{D}{L}])(?![0-9a-z])']

[preset."freeform/mine"]
family = "freeform"
base = "freeform/v2"
markers = ["human:"]

[preset."json/gleason"]
family = "json"
field = "gleason"
allowed = [6, 10]
integer_fallback = false
""",
    )
    presets = PresetSet.from_file(path)
    assert extract("Final: E", "choice/final-only", presets=presets).value == "e"
    assert extract("Answer: E", "choice/final-only", presets=presets).value is None
    mine = extract("x</think>Paris\nHuman: more", "freeform/mine", presets=presets)
    assert (mine.value, mine.rule) == ("Paris", "truncated-at-marker")
    assert extract('{"gleason": 7}', "json/gleason", presets=presets).value == 7
    assert extract("gleason 7", "json/gleason", presets=presets).rule == "not-found"
    # the built-ins are still there, unchanged
    assert extract("Answer: c", "choice/v3", presets=presets).value == "c"


def test_base_inherits_steps(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[preset."choice/five"]\nfamily = "choice"\nbase = "choice/v3"\nchoices = "abcde"\n',
    )
    preset = load_preset_file(path)["choice/five"]
    assert extract("Answer: e", preset).value == "e"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[preset."x"]\nfamily = "choice"\nchoises = "ab"\n', r"key 'preset.x.choice.choises'"),
        ('[preset."x"]\nfamily = "nope"\n', r"key 'preset.x'"),
        ('[preset."x"]\nfamily = "choice"\n', r"key 'preset.x.steps': a choice preset needs steps"),
        ('[preset."x"]\nfamily = "json"\n', r"key 'preset.x.field'"),
        ('[preset."x"]\nfamily = "choice"\nbase = "json/isup_grade"\n', r"not a built-in choice"),
        (
            '[preset."x"]\nfamily = "choice"\n[[preset."x".steps]]\nkind = "regex"\n'
            'rule = "r"\npatterns = ["([a"]\n',
            r"key 'preset.x.steps.0.patterns': invalid regular expression",
        ),
        ('[preset."choice/v3"]\nfamily = "choice"\nbase = "choice/v3"\n', r"may not redefine"),
        ("not toml [", r"not a readable TOML file"),
    ],
)
def test_invalid_preset_files_name_the_key(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(PresetError, match=message):
        PresetSet.from_file(path)


def test_missing_preset_file(tmp_path: Path) -> None:
    with pytest.raises(PresetError, match="preset file not found"):
        PresetSet.from_file(tmp_path / "absent.toml")


def test_user_patterns_cannot_hang(tmp_path: Path) -> None:
    # (a|aa)+$ backtracks exponentially on "aaaa...!"; a user pattern gets a time limit instead
    path = write(
        tmp_path,
        """
[preset."choice/slow"]
family = "choice"
[[preset."choice/slow".steps]]
kind = "regex"
rule = "slow"
patterns = ['(a|aa)+$', '([{L}])']
pick = "first"
""",
    )
    presets = PresetSet.from_file(path)
    hostile = "a" * 40 + "!"
    assert extract(hostile, "choice/slow", presets=presets).rule == "pattern-timeout"
    assert extract("x c", "choice/slow", presets=presets).value == "c"  # ordinary text still works


@pytest.mark.parametrize(
    ("key", "text"),
    [  # each cue list of a statements step is a user pattern too: timed like the step's patterns
        ("negations", "answer: b" + "a" * 40 + "!"),  # matched right after the choice
        ("ignore", "a" * 40 + "! answer: b"),  # searched earlier on the line
        ("stops", "answer: b\n" + "a" * 40 + "!"),  # searched after the first statement
    ],
)
def test_user_cue_patterns_cannot_hang(tmp_path: Path, key: str, text: str) -> None:
    path = write(
        tmp_path,
        f"""
[preset."choice/cues"]
family = "choice"
[[preset."choice/cues".steps]]
kind = "statements"
rule = "stmt"
patterns = ['answer:\\s*([{{L}}])']
{key} = ['(a|aa)+$']
""",
    )
    presets = PresetSet.from_file(path)
    assert extract(text, "choice/cues", presets=presets).rule == "pattern-timeout"
    assert extract("answer: c", "choice/cues", presets=presets).value == "c"


def test_user_cue_patterns_fill_choice_letters(tmp_path: Path) -> None:
    # {L} in a negation cue means the choice letters, as in the step's patterns
    path = write(
        tmp_path,
        """
[preset."choice/cues"]
family = "choice"
choices = "abc"
[[preset."choice/cues".steps]]
kind = "statements"
rule = "stmt"
patterns = ['answer:\\s*([{L}])']
negations = [' instead of [{L}]']
""",
    )
    presets = PresetSet.from_file(path)
    assert extract("answer: b instead of c. answer: a", "choice/cues", presets=presets).value == "a"
    assert extract("answer: b instead of c", "choice/cues", presets=presets).value is None
