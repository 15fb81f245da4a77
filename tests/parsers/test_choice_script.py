"""Option letters in other scripts (choice/v5): native letters when the choices say so, never
for Latin choices, and the validation of a script's choice letters."""

from __future__ import annotations

import pytest

from answer_audit import extract
from answer_audit.parsers.choice_script import script_choices, token_set


def v5(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v5", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(
    ("text", "letters", "expected"),
    [
        ("الإجابة: ج", "أبجد", "ج"),
        ("الجواب: أ", "أبجد", "أ"),
        ("ا", "أبجد", "أ"),  # a bare alif for أ
        ("ج) تزداد الحرارة", "أبجد", "ج"),
        ("الخيار أ خاطئ، والخيار ب خاطئ. الإجابة: د", "أبجد", "د"),
        ("الإجابة: B", "أبجد", "ب"),  # a Latin letter names the option at its position
        ("उत्तर: (ग)", "कखगघ", "ग"),
        ("उत्तर：क", "कखगघ", "क"),
        ("উত্তরঃ ঘ", "কখগঘ", "ঘ"),
        ("উত্তর: অ", "অবডঢ", "অ"),
        ("正解はウです。", "アイウエ", "ウ"),
        ("アとエは時代が異なるので誤り。したがって答えはウ。", "アイウエ", "ウ"),
        ("①と④は誤り。よって答えは②。", "①②③④", "②"),
        ("甲、乙两项均错误，故选丁。", "甲乙丙丁", "丁"),
        ("ㄱ과 ㄷ은 옳지 않으므로 정답은 ㄹ이다.", "ㄱㄴㄷㄹ", "ㄹ"),
    ],
)
def test_native_option_letters_when_the_choices_say_so(
    text: str, letters: str, expected: str
) -> None:
    assert v5(text, letters) == expected


def test_native_letters_are_not_read_for_latin_choices() -> None:
    assert v5("الإجابة: ج") is None
    assert v5("正解はウです。") is None


def test_script_choices_are_validated() -> None:
    assert script_choices("A, B, C") == "abc"
    with pytest.raises(ValueError):
        script_choices("aA")  # two labels that read the same
    with pytest.raises(ValueError):
        extract("Answer: B", "choice/v4", choices="أبجد")  # older presets take Latin only
    assert token_set("abcd").value("third option") == "c"
