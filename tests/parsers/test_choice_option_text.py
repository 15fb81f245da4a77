"""Option text: an output that names an option by its text instead of its letter (choice/v4
and later), and the search for option texts checked against a definition written plainly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract


def v4(text: str, options: list[str] | dict[str, str] | None = None) -> str | None:
    value = extract(text, "choice/v4", choices_text=options).value
    assert value is None or isinstance(value, str)
    return value


CITIES = ["London", "Paris", "Rome", "Berlin"]


def test_option_text_instead_of_a_letter() -> None:
    assert v4("Paris", CITIES) == "b"
    assert v4("The capital of France is Paris.", CITIES) == "b"
    assert v4("Answer: Berlin", {"a": "London", "b": "Paris", "c": "Rome", "d": "Berlin"}) == "d"
    e = extract("The capital of France is Paris.", "choice/v4", choices_text=CITIES)
    assert e.rule == "option-text" and e.span == (25, 30)
    assert v4("Both Paris and London are large cities.", CITIES) is None
    assert v4("The answer is not Paris.", CITIES) is None
    assert v4("Paris") is None  # no options given


def test_option_text_is_longest_first_and_boundary_safe() -> None:
    assert v4("The answer is JavaScript.", ["Java", "JavaScript", "Python", "Rust"]) == "b"
    assert v4("Answer: Java", ["Java", "JavaScript", "Python", "Rust"]) == "a"
    assert v4("It's a catalog.", ["cat", "catalog", "dog", "bird"]) == "b"
    assert v4("首都は東京都です。", ["東京", "大阪", "京都", "名古屋"]) == "a"
    assert v4("The treaty was signed in 1648.", ["1648", "1748", "1848", "1948"]) == "a"


def test_option_text_after_the_last_trigger_of_a_longer_answer() -> None:
    # three lines or more: only the text after the last answer trigger, to its line's end
    reasoning = "Let me think.\nParis and Rome are both big cities.\n"
    assert v4(reasoning + "Answer: Paris", CITIES) == "b"
    e = extract(reasoning + "The answer is Rome.\nok", "choice/v4", choices_text=CITIES)
    assert (e.value, e.rule) == ("c", "option-text")
    assert v4(reasoning + "So that is that.", CITIES) is None  # no trigger: no option text


def test_a_letter_wins_over_option_text() -> None:
    assert v4("Answer: C (Rome is lovely, Paris too)", CITIES) == "c"


def test_option_keys_must_be_one_choice_letter() -> None:
    # a key of two letters or none named no option (it came back as the value)
    for key in ("ab", ""):
        assert (
            extract("The answer is Paris", "choice/v4", choices_text={key: "Paris"}).value is None
        )
    assert extract("The answer is Paris", "choice/v4", choices_text={"B": "Paris"}).value == "b"


def test_option_text_without_its_closing_full_stop() -> None:
    options = ["Paris is big.", "Rome is old.", "Madrid is hot.", "Berlin is cold."]
    assert extract("Rome is old", "choice/v5", choices_text=options).value == "b"


# ---------------------------------------------------------------------- the definition


def _option_hits_by_definition(
    norm: str, start: int, end: int, table: list[tuple[str, str]]
) -> list[tuple[int, int, str, str]]:
    """Every whole-word occurrence, longest text first, kept unless it overlaps one kept."""
    taken: list[tuple[int, int, str]] = []
    for key, letter in table:
        for pos in range(start, end - len(key) + 1):
            stop = pos + len(key)
            if norm[pos:stop] != key:
                continue
            if key[0].isalnum() and key[0].isascii() and pos > 0 and norm[pos - 1].isalnum():
                continue
            if (
                key[-1].isalnum()
                and key[-1].isascii()
                and stop < len(norm)
                and norm[stop].isalnum()
            ):
                continue
            if all(stop <= s or pos >= e for s, e, _ in taken):
                taken.append((pos, stop, letter))
    return [(s, e, letter, "option-text") for s, e, letter in sorted(taken)]


_OPTION_KEYS = ["paris", "rome", "aa", "a", "par", "is", "paris rome", "パパ", "パ", "パリ", "ローマ",
                "リロ", "(b)", "b)"]  # fmt: skip


@given(st.data())
@settings(max_examples=400)  # cheap; overlaps between texts need many tries
def test_option_hits_are_the_definition(data: st.DataObject) -> None:
    from answer_audit.parsers.choice_option_text import _option_hits

    keys = data.draw(st.lists(st.sampled_from(_OPTION_KEYS), min_size=1, max_size=4, unique=True))
    pieces = st.sampled_from([*keys, "", " ", "x", "\n", "パ"])  # texts made of the keys
    text = "".join(data.draw(st.lists(pieces, max_size=20)))
    start = data.draw(st.integers(0, 6))
    end = data.draw(st.integers(0, len(text) + 2))
    table = sorted(zip(keys, "abcd", strict=False), key=lambda kv: -len(kv[0]))
    full = _option_hits(text, start, end, table)
    assert full == _option_hits_by_definition(text, start, end, table)
    # stopping once two letters are taken decides "one letter" the same way
    early = _option_hits(text, start, end, table, one_letter=True)
    if len({hit[2] for hit in full}) == 1:
        assert early == full
    else:
        assert len({hit[2] for hit in early}) != 1 or not full
