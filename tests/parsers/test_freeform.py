import pytest

from answer_audit import extract


@pytest.mark.parametrize(
    ("parser", "text", "value", "rule"),
    [
        ("freeform/v1", "  Paris.\nUSER: and Rome?", "Paris.", "truncated-at-marker"),
        ("freeform/v1", "Paris.\nuser: and Rome?", "Paris.\nuser: and Rome?", "whole-text"),
        ("freeform/v1", "reasoning</think>Paris", "reasoning</think>Paris", "whole-text"),
        ("freeform/v2", "reasoning</think>Paris", "Paris", "after-think"),
        ("freeform/v2", "x</think> Paris\nuser: hi", "Paris", "truncated-at-marker"),
        ("freeform/v2", "Paris.\n\nQuestion: next?", "Paris.", "truncated-at-marker"),
        ("freeform/v2", "   ", "", "empty"),
        ("freeform/v2", "", "", "empty"),
        ("freeform/v2", "thinking only</think>   ", "", "empty"),
        ("freeform/v1", "Rome", "Rome", "whole-text"),
    ],
)
def test_freeform_presets(parser: str, text: str, value: str, rule: str) -> None:
    e = extract(text, parser)
    assert (e.value, e.rule) == (value, rule)
    if e.span is not None:
        assert text[e.span[0] : e.span[1]] == value
