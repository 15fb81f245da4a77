"""The seed's multiple-choice cases: every choice preset must read them as written; and what any
reading of a made-up text must be (a choice or none, with a span inside the text)."""

from answer_audit import Extraction

SEED_EXAMPLES = [
    ("問題文....\n\nAnswer: c", "c"),
    ("回答（1文字のみ）: ３", "c"),
    (
        "(1) 選択肢aは条文の要件を満たさない。\n(2) 選択肢bも不適切である。\n"
        "以上より、正解はcである。\n\nAnswer: c",
        "c",
    ),
    ("回答（1文字のみ）: a\n回答（1文字のみ）: b\n回答（1文字のみ）: c\n回答（1文字のみ）: c", "c"),
    ("選択肢dは不適切である。\nしたがって、正解は b である。", "b"),
    ("よく分かりません。", None),
]


def assert_choice_or_none(found: Extraction, text: str, choices: str = "abcd") -> None:
    """``found`` is one of ``choices`` or nothing, and its span (if any) lies in ``text``."""
    assert found.value is None or (isinstance(found.value, str) and found.value in choices)
    if found.span is not None:
        start, end = found.span
        assert 0 <= start < end <= len(text)
