from pathlib import Path

import pytest

from answer_audit import PresetError, PresetSet, extract, get_parser, list_parsers
from answer_audit.parsers import load_preset_file
from choice_cases import SEED_EXAMPLES

BUILTINS = {"freeform/v1", "freeform/v2", "choice/v1", "choice/v2", "choice/v3", "json/isup_grade"}


def test_builtins_are_listed_and_immutable() -> None:
    assert set(list_parsers()) >= BUILTINS
    preset = get_parser("choice/v3")
    with pytest.raises(AttributeError):
        preset.name = "x"  # type: ignore[misc]  # frozen: assigning on purpose


def test_unknown_parser_lists_known_ones() -> None:
    with pytest.raises(PresetError, match=r"unknown parser 'choice/v99'; known: .*choice/v3"):
        get_parser("choice/v99")


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
        ('[preset."x"]\nfamily = "choice"\nchoises = "ab"\n', r"key 'preset.x.choises'"),
        ('[preset."x"]\nfamily = "nope"\n', r"key 'preset.x'"),
        ('[preset."x"]\nfamily = "choice"\n', r"key 'preset.x.steps': a choice preset needs steps"),
        ('[preset."x"]\nfamily = "json"\n', r"key 'preset.x.field'"),
        ('[preset."x"]\nfamily = "choice"\nbase = "json/isup_grade"\n', r"not a built-in choice"),
        (
            '[preset."x"]\nfamily = "choice"\n[[preset."x".steps]]\nkind = "regex"\n'
            'rule = "r"\npatterns = ["([a"]\n',
            r"key 'preset.x.steps.0.patterns': invalid regular expression",
        ),
        (
            '[preset."choice/v3"]\nfamily = "choice"\nbase = "choice/v3"\n',
            r"key 'preset.choice/v3': .* cannot be redefined",
        ),
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


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
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


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
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
    presets = _choice_file(
        tmp_path,
        'kind = "statements"\nrule = "stmt"\npatterns = [\'answer:\\s*([{L}])\']\n'
        "negations = [' instead of [{L}]']",
        extra='choices = "abc"',
    )
    assert extract("answer: b instead of c. answer: a", "choice/u", presets=presets).value == "a"
    assert extract("answer: b instead of c", "choice/u", presets=presets).value is None


def _choice_file(tmp_path: Path, step: str, extra: str = "") -> PresetSet:
    body = f'[preset."choice/u"]\nfamily = "choice"\n{extra}\n[[preset."choice/u".steps]]\n{step}'
    return PresetSet.from_file(write(tmp_path, body))


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
def test_one_text_gets_one_time_budget_for_all_its_pattern_calls(tmp_path: Path) -> None:
    # each line's search takes a fraction of a second: alone within the 1 s limit, but a long
    # text of such lines used to run for minutes (one limit per call)
    presets = _choice_file(
        tmp_path,
        'kind = "trigger-lines"\nrule = "r"\ntriggers = ["ans"]\npatterns = [\'(a|aa)+z\']',
    )
    text = "\n".join(["ans " + "a" * 26 + "!"] * 150)
    assert extract(text, "choice/u", presets=presets).rule == "pattern-timeout"
    assert extract("ans b", "choice/u", presets=presets).rule == "not-found"  # budget is per text


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(?:(?:(?:a{100}){100}){100}){100}", "nested counted repeats expand to 100000000"),
        ("a{4294967296}", "expand to 4294967296 copies"),
        ("(" * 150 + "a" + ")" * 150, "groups nest 150 deep"),
        (r"answer: (\p{Ll", "invalid regular expression"),  # checked with regex, as it runs
    ],
)
def test_patterns_that_would_blow_up_are_refused_at_load(
    tmp_path: Path, pattern: str, message: str
) -> None:
    step = f'kind = "regex"\nrule = "r"\npatterns = [{pattern!r}]'.replace("'", "'''", 0)
    body = f'[preset."choice/u"]\nfamily = "choice"\n[[preset."choice/u".steps]]\n{step}'
    path = write(tmp_path, body.replace(f"[{pattern!r}]", "['''" + pattern + "''']"))
    with pytest.raises(PresetError, match=rf"key 'preset.choice/u.steps.0.patterns': .*{message}"):
        PresetSet.from_file(path)


def test_regex_only_syntax_is_accepted(tmp_path: Path) -> None:
    presets = _choice_file(
        tmp_path, 'kind = "regex"\nrule = "r"\npatterns = [\'answer: (\\p{Ll})\']'
    )
    assert extract("Answer: C", "choice/u", presets=presets).value == "c"


def test_a_group_that_takes_no_part_is_no_crash(tmp_path: Path) -> None:
    # group 1 is the one read; when the other alternative matched it is empty: no choice here
    for kind in ("regex", "trigger-lines", "statements"):
        presets = _choice_file(
            tmp_path,
            f'kind = "{kind}"\nrule = "r"\ntriggers = ["answer"]\n'
            "patterns = ['answer:\\s*(?:\\(([{L}])\\)|[{L}]\\b)']",
        )
        assert extract("The answer: (b)", "choice/u", presets=presets).value == "b"
        assert extract("The answer: b", "choice/u", presets=presets).value is None


def test_the_answer_is_group_1_helper_groups_may_follow(tmp_path: Path) -> None:
    presets = _choice_file(
        tmp_path, 'kind = "regex"\nrule = "r"\npatterns = [\'answer:\\s*\\(?([{L}])(\\)|\\.|$)\']'
    )
    assert extract("answer: (c)", "choice/u", presets=presets).value == "c"


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ('kind = "regex"\nrule = "r"', "steps.0.patterns': a regex step needs"),
        ('kind = "trigger-lines"\nrule = "r"\npatterns = [\'([{L}])\']',
         "steps.0.triggers': a trigger-lines step needs"),
        ('kind = "statements"\nrule = "r"', "steps.0.patterns': a statements step needs"),
        ('kind = "last-char"\nrule = "pattern-timeout"', "'pattern-timeout' is a rule the engine"),
    ],
)  # fmt: skip
def test_steps_that_never_answer_or_take_an_engine_rule_are_refused(
    tmp_path: Path, step: str, message: str
) -> None:
    with pytest.raises(PresetError, match=None) as info:
        _choice_file(tmp_path, step)
    assert message in str(info.value)


@pytest.mark.parametrize("name", ["stored", "json", "a=b:c", "stored:pred", "my preset"])
def test_names_the_command_line_cannot_use_are_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, f'[preset."{name}"]\nfamily = "choice"\nbase = "choice/v3"\n')
    with pytest.raises(PresetError, match="cannot name a preset"):
        load_preset_file(path)


def test_a_capture_of_more_or_less_than_one_letter_is_no_choice(tmp_path: Path) -> None:
    presets = _choice_file(
        tmp_path, 'kind = "regex"\nrule = "r"\npatterns = [\'answer:\\s*([{L}]*)\']'
    )
    for text in ("answer: bc", "answer: none"):
        assert extract(text, "choice/u", presets=presets).value is None
    assert extract("answer: c", "choice/u", presets=presets).value == "c"


def test_a_pattern_invalid_for_the_choices_given_at_run_time_is_a_clear_error(
    tmp_path: Path,
) -> None:
    presets = _choice_file(tmp_path, 'kind = "regex"\nrule = "r"\npatterns = [\'([{L}-e])\']')
    assert extract("c", "choice/u", presets=presets).value == "c"  # abcd: [abcd-e] is fine
    with pytest.raises(
        ValueError, match=r"preset 'choice/u': pattern .* \(choices 'xyz'\) is not a valid"
    ):
        extract("x", "choice/u", presets=presets, choices="xyz")


def test_cue_patterns_keep_their_own_groups(tmp_path: Path) -> None:
    # joined into one pattern, the second cue's \1 pointed at the first cue's group
    presets = _choice_file(
        tmp_path,
        'kind = "statements"\nrule = "r"\npatterns = [\'answer:\\s*([{L}])\']\n'
        "ignore = ['(x)\\1', '(y)\\1']",
    )
    assert extract("yy answer: b", "choice/u", presets=presets).value is None
    assert extract("xy answer: b", "choice/u", presets=presets).value == "b"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "not a readable TOML file: nested too deeply"),
        ('[preset."choice/u"]\nfamily = "choice"\nchoices = "1234"\n'
         '[[preset."choice/u".steps]]\nkind = "last-char"\nrule = "r"\n',
         r"key 'preset.choice/u.choices': choices '1234' holds '1' '2' '3' '4'"),
        ('[preset."choice/u"]\nfamily = "choice"\n[[preset."choice/u".steps]]\n'
         'kind = "window"\nrule = "r"\nlines = 0\n',
         r"key 'preset.choice/u.steps.0.lines'"),  # no family tag in the key
    ],
)  # fmt: skip
def test_more_invalid_files_name_the_key(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(PresetError, match=message):
        PresetSet.from_file(write(tmp_path, body))


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(
        b"\xef\xbb\xbf" + b'[preset."freeform/b"]\nfamily = "freeform"\nmarkers = ["x:"]\n'
    )
    assert "freeform/b" in PresetSet.from_file(path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[preset."choice/v3"]\nfamily = "choice"\n', r"key 'preset.choice/v3': .* cannot be "
         "redefined"),  # before any other problem of the entry
        ('[preset."json/g"]\nfamily = "json"\nfield = "g"\nallowed = [10, 6]\n',
         r"key 'preset.json/g.allowed': \[10, 6\] allows no value"),
        ('[preset."json/g"]\nfamily = "json"\nfield = "g"\nnull_as = "6"\n',
         r"key 'preset.json/g.null_as': Input should be a valid integer"),
        ('[preset."json/g"]\nfamily = "json"\nfield = "g"\nnull_as = 6.0\n',
         r"key 'preset.json/g.null_as'"),
        ('[preset."choice/t"]\nfamily = "choice"\nbase = "choice/v4"\nthink = "yes"\n',
         r"key 'preset.choice/t.think': Input should be a valid boolean"),
    ],
)  # fmt: skip
def test_values_are_not_coerced(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(PresetError, match=message):
        PresetSet.from_file(write(tmp_path, body))


@pytest.mark.parametrize(
    ("key", "value"),
    [("triggers", "Final"), ("patterns", "Final: ([{L}])"), ("negations", "(?<=X) not")],
)
def test_uppercase_that_can_never_match_lowercased_text_is_refused(
    tmp_path: Path, key: str, value: str
) -> None:
    step = 'kind = "statements"\nrule = "r"\npatterns = [\'answer: ([{L}])\']\n'
    if key == "triggers":
        step = 'kind = "trigger-lines"\nrule = "r"\npatterns = [\'([{L}])\']\n'
    if key == "patterns":
        step = 'kind = "regex"\nrule = "r"\n'
    body = f'[preset."choice/u"]\nfamily = "choice"\n[[preset."choice/u".steps]]\n{step}'
    body += f"{key} = [{value!r}]\n"
    with pytest.raises(PresetError, match=rf"steps.0.{key}': .* holds '[FX]', but choice presets"):
        PresetSet.from_file(write(tmp_path, body))


def test_case_insensitive_or_escaped_uppercase_is_fine(tmp_path: Path) -> None:
    body = ('[preset."choice/u"]\nfamily = "choice"\n[[preset."choice/u".steps]]\n'
            "kind = \"regex\"\nrule = \"r\"\npatterns = ['(?i:Final):\\s*([{L}])', '\\S([{L}])']\n")  # fmt: skip
    presets = PresetSet.from_file(write(tmp_path, body))
    assert extract("final: c", "choice/u", presets=presets).value == "c"


def test_a_choice_range_in_a_preset_file_names_the_key(tmp_path: Path) -> None:
    path = write(
        tmp_path, '[preset."c/x"]\nfamily = "choice"\nbase = "choice/v3"\nchoices = "a-e"\n'
    )
    with pytest.raises(PresetError, match=r"key 'preset\.c/x\.choices': .*ranges such as a-e"):
        load_preset_file(path)


# ------------------------------------------------------------ a preset file based on choice/v5

V5_TEXTS = [
    *(text for text, _ in SEED_EXAMPLES),
    "Reasoning... like A.\n\nSo the answer is (B).",
    "ANSWER: A\n\nUSER: next question? ANSWER: D",
    "الإجابة: ج",
    "The answer is \\boxed{\\text{C}}。",
    "I think the answer is D, not C.",
    "Answer: b or c",
]


@pytest.mark.parametrize("choices", [None, "abcde", "أبجد"])
def test_a_preset_file_based_on_choice_v5_reads_as_choice_v5(
    tmp_path: Path, choices: str | None
) -> None:
    body = '[preset."choice/mine"]\nfamily = "choice"\nbase = "choice/v5"\n'
    if choices is not None:
        body += f'choices = "{choices}"\n'
    presets = PresetSet.from_file(write(tmp_path, body))
    preset = presets["choice/mine"]
    assert preset.user_patterns  # type: ignore[attr-defined]  # a ChoicePreset
    for text in V5_TEXTS:
        own = extract(text, "choice/mine", presets=presets)
        assert own == extract(text, "choice/v5", choices=choices), text


def _v5_file(tmp_path: Path, step: str, extra: str = "") -> PresetSet:
    body = (
        f'[preset."choice/u"]\nfamily = "choice"\nbase = "choice/v5"\n{extra}\n'
        f'[[preset."choice/u".steps]]\n{step}'
    )
    return PresetSet.from_file(write(tmp_path, body))


def test_choice_v5_placeholders_fill_in_a_preset_file(tmp_path: Path) -> None:
    # {TRIGGER}: the step's triggers; {T}: one choice token in the choices' own script (and
    # the Latin letter and digit of each position); each cue keeps its own groups
    presets = _v5_file(
        tmp_path,
        'kind = "statements"\nrule = "final"\ntriggers = ["final", "endgültig"]\n'
        "patterns = ['{TRIGGER}\\s*[:：]\\s*{T}']\nnegations = ['(n)\\1ot']\n",
        extra='choices = "أبجد"',
    )

    def value(text: str) -> object:
        return extract(text, "choice/u", presets=presets).value

    assert value("Final: ج") == "ج"
    assert value("Endgültig: 2") == "ب"
    assert value("final: c") == "ج"  # the Latin letter of the third position
    assert value("final: c nnot") is None
    # the file's steps decide alone: choice/v5's terminal-answer rule is off
    assert value("Answer: ب") is None
    assert extract("Answer: ب", "choice/v5", choices="أبجد").value == "ب"


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
@pytest.mark.parametrize(
    ("step", "hostile", "ordinary"),
    [
        ("kind = \"regex\"\nrule = \"r\"\npatterns = ['(a|aa)+$', '([{K}])']\npick = \"first\"",
         "a" * 40 + "!", "x c"),
        ('kind = "statements"\nrule = "r"\ntriggers = ["final"]\n'
         "patterns = ['{TRIGGER}: {T}']\nstops = ['(a|aa)+$']", "final: b\n" + "a" * 40 + "!",
         "final: c"),
    ],
)  # fmt: skip
def test_user_patterns_based_on_choice_v5_cannot_hang(
    tmp_path: Path, step: str, hostile: str, ordinary: str
) -> None:
    presets = _v5_file(tmp_path, step)
    assert extract(hostile, "choice/u", presets=presets).rule == "pattern-timeout"
    assert extract(ordinary, "choice/u", presets=presets).value == "c"  # still works


@pytest.mark.parametrize(
    ("base", "step", "message"),
    [
        ("choice/v4", "kind = \"regex\"\nrule = \"r\"\npatterns = ['answer: {T}']",
         r"steps.0.patterns': 'answer: \{T\}' holds \{T\}, which only a preset based on choice/v5"),
        ("choice/v5", "kind = \"regex\"\nrule = \"r\"\npatterns = ['{TRIGGER}: {T}']",
         r"steps.0.patterns': .* holds \{TRIGGER\}, which stands for the step's triggers"),
        ("choice/v5", 'kind = "statements"\nrule = "r"\ntriggers = ["final"]\n'
         "patterns = ['{TRIGGER}: {T}']\nignore = ['{TRIGGER}']",
         r"steps.0.ignore': .* holds \{TRIGGER\}"),
        ("choice/v5", 'kind = "statements"\nrule = "r"\ntriggers = ["final"]\n'
         "patterns = ['Final: {T}']",
         r"steps.0.patterns': 'Final: \{T\}' holds 'F', but choice presets read"),
    ],
)  # fmt: skip
def test_choice_v5_placeholders_where_they_cannot_work_are_refused(
    tmp_path: Path, base: str, step: str, message: str
) -> None:
    body = f'[preset."u"]\nfamily = "choice"\nbase = "{base}"\n[[preset."u".steps]]\n{step}\n'
    with pytest.raises(PresetError, match=message):
        PresetSet.from_file(write(tmp_path, body))


def test_a_choice_range_based_on_choice_v5_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[preset."u"]\nfamily = "choice"\nbase = "choice/v5"\nchoices = "a-e"\n')
    with pytest.raises(PresetError, match=r"key 'preset\.u\.choices': .* holds '-'.*ranges"):
        load_preset_file(path)


def test_a_preset_file_can_build_on_number_v2(tmp_path: Path) -> None:
    body = '[preset."number/mine"]\nfamily = "number"\nbase = "number/v2"\nregion = "freeform/v3"\n'
    presets = PresetSet.from_file(write(tmp_path, body))
    text = "25 × 12 = 300, so the answer is 300.\nUSER: and 5?"
    assert extract(text, "number/mine", presets=presets) == extract(text, "number/v2")
    refused = body.replace('"freeform/v3"', '"freeform/v2"')  # no turn patterns to end it
    with pytest.raises(PresetError, match=r"key 'preset.number/mine.region': .* from freeform/v3"):
        PresetSet.from_file(write(tmp_path, refused))


def test_a_v5_based_pattern_invalid_for_the_choices_given_at_run_time_is_a_clear_error(
    tmp_path: Path,
) -> None:
    presets = _v5_file(tmp_path, 'kind = "regex"\nrule = "r"\npatterns = [\'([{L}-e])\']')
    assert extract("c", "choice/u", presets=presets).value == "c"  # abcd: [abcd-e] is fine
    with pytest.raises(
        ValueError, match=r"preset 'choice/u': pattern .* \(choices 'xyz'\) is not a valid"
    ):
        extract("x", "choice/u", presets=presets, choices="xyz")


def test_presets_are_listed_with_their_version_numbers_in_order() -> None:
    names = list_parsers({n: get_parser(n) for n in ("choice/v10", "choice/v2", "choice/v9")})
    assert names == ["choice/v2", "choice/v9", "choice/v10"]
    every = [n for n in list_parsers() if n.startswith("choice/v")]
    assert every == sorted(every, key=lambda n: int(n.removeprefix("choice/v")))
