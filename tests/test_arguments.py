"""Wrong argument types to the public functions: one clear error naming function and argument."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from answer_audit import extract, is_correct, normalize, strip_think


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: extract(None), TypeError, r"extract\(\): text must be a str, not NoneType"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: extract(b"x"), TypeError, r"not bytes \(decode bytes first"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: extract("x", choices=123), TypeError, r"choices must be a str or None, not int"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: extract("x", parser=None), TypeError, r"parser must be a preset name or a preset"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: extract("x", presets=123), TypeError, r"presets must be a PresetSet or dict"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: extract("x", "choice/v4", choices_text={1: "x"}), TypeError,  # type: ignore[dict-item]  # wrong on purpose
         r"choices_text holds 1: 'x'"),
        (lambda: extract("x", "choice/v4", choices_text=["a", None]), TypeError,  # type: ignore[list-item]  # wrong on purpose
         r"choices_text holds '\[1\]': None"),
        (lambda: extract("x", "choice/v4", choices_text="paris"), TypeError,
         r"choices_text must be a list of option texts or a dict"),
        (lambda: is_correct(b"x", "1", "numeric"), TypeError, r"is_correct\(\): prediction"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: is_correct("x", 1), TypeError, r"is_correct\(\): truth must be a str or None"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: is_correct("x", "1", rel_tol="x"), TypeError, r"rel_tol must be a number"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: is_correct("x", "1", rel_tol=float("inf")), ValueError, r"finite number >= 0"),
        (lambda: is_correct("x", "1", rel_tol=-0.1), ValueError, r"finite number >= 0"),
        (lambda: normalize(None), TypeError, r"normalize\(\): text must be a str"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: normalize("x", None), ValueError, r"unknown normalizer None"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: strip_think(None), TypeError, r"strip_think\(\): text must be a str"),  # type: ignore[arg-type]  # wrong on purpose
    ],
)  # fmt: skip
def test_wrong_arguments_are_named(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


def test_right_arguments_still_work() -> None:
    assert extract("Answer: B", "choice/v4", choices_text=("Paris", "Rome")).value == "b"
    assert extract("Rome it is", "choice/v4", choices_text={"B": "Rome"}).value == "b"
    assert is_correct(None, "8") is False and is_correct("8", None) is None
    assert is_correct("7.96", "8", "numeric", rel_tol=0.01) is True
    assert is_correct("8", "8", "numeric", rel_tol=0) is True
