"""Positions in words, elimination, asides, answer columns, indecision and invented item headers
(the classes choice/v8 reads beyond v7, which missed them on the second blind split): one test per
class with its near variants and its look-alikes that are not answers (v7 kept as it was); and
properties of the text handling checked with hypothesis.

Beside it, by topic: v1 .. v6 (`test_choice.py`), v7 (`test_choice_verdicts.py`), option text,
other scripts, the terminal rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.parsers.choice_script import position_index
from choice_cases import SEED_EXAMPLES, assert_choice_or_none
from strategies import CHOICE_OUTPUTS


def v8(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v8", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


def v7(text: str) -> str | None:
    value = extract(text, "choice/v7").value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v8_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v8(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The second one.", "b"),
        ("The last option.", "d"),
        ("Option number two.", "b"),
        ("**The first choice**", "a"),
        ("So the third one.", "c"),
        ("The answer is option three.", "c"),
        ("La respuesta es la segunda opción.", "b"),
        ("la tercera opción", "c"),
        ("Die dritte Antwort.", "c"),
        ("C'est la première option.", "a"),
        ("答案是第二个选项。", "b"),
        ("最后一个", "d"),
        ("二番目の選択肢。", "b"),
        ("The first option is wrong; the second option is correct.", "b"),
        # look-alikes: positions named in reasoning, rejected or doubted
        ("The first option is wrong.", None),
        ("The last option seems unlikely.", None),
        ("First, the second option mentions a gas, which is irrelevant. The answer is C.", "c"),
        ("I don't like the second one.", None),
        ("The fifth option.", None),  # beyond a four-option set
    ],
)
def test_choice_v8_reads_a_position_in_words(text: str, expected: str | None) -> None:
    assert v8(text) == expected


def test_a_position_beyond_the_set_names_nothing_and_the_last_is_the_sets_last() -> None:
    assert v8("The fifth option.", choices="abcde") == "e"
    assert v8("The last option.", choices="abcde") == "e"
    assert position_index("option number two", 4) == 1
    assert position_index("第三个", 4) == 2
    assert position_index("ninth option", 4) is None
    assert position_index("the option", 4) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "A is far too small, B has the wrong sign, and C ignores air resistance, so D is "
            "the only option left.",
            "d",
        ),
        ("A, B and D all fail, so only C remains.", "c"),
        ("After ruling out B, C and D, A is all that's left.", "a"),
        ("Crossing out A, C and D leaves B.", "b"),
        ("By elimination: D.", "d"),
        ("The only one left is A.", "a"),
        ("So D has to be the answer.", "d"),
        ("B, C and D fail, so only A remains.", "a"),  # option A, not the article
        ("So A must be the answer.", "a"),
        ("A, B y D son incorrectas; por eliminación, la C.", "c"),
        ("A项错误，B项错误，D项也错误，只剩下C。", "c"),
        # look-alikes: the one left only to be checked, two left, a remark about an option
        ("C is the only option left to check: it gives 12 m/s.", None),
        ("A and B can be ruled out; C and D both remain possible.", None),
        ("Only A remains unclear to me.", None),
    ],
)
def test_choice_v8_reads_elimination_that_names_the_one_left(
    text: str, expected: str | None
) -> None:
    assert v8(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is, as far as I can tell, D.", "d"),
        ("The correct option, as far as I can see, is C.", "c"),
        ("My answer is — after checking the units twice — A.", "a"),
        ("La respuesta es, si no me equivoco, la D.", "d"),
        ("Die Antwort ist, soweit ich das beurteilen kann, B.", "b"),
        ("答案是，根据上面的分析，C。", "c"),
        # look-alikes: an aside, then no option; an example aside
        ("The answer is, I am afraid, not among the four options.", None),
        ("The answer is, for example, B.", None),
    ],
)
def test_choice_v8_reads_an_aside_between_the_answer_words_and_the_choice(
    text: str, expected: str | None
) -> None:
    assert v8(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("| Question | Answer |\n|---|---|\n| 1 | B |", "b"),
        ("| Answer |\n| :---: |\n| **A** |", "a"),
        ("| # | Answer (letter) | Why |\n|---|---|---|\n| 1 | (D) | stable |", "d"),
        ("Question | Final answer\n---|---\n7 | C", "c"),
        ("| 题号 | 答案 |\n|---|---|\n| 1 | D |", "d"),
        ("| Pregunta | Respuesta |\n|---|---|\n| 12 | B |", "b"),
        # look-alikes: no answer column; an answer column that answers two questions
        ("| Option | Property |\n|---|---|\n| A | metal |\n| B | gas |\n| C | liquid |", None),
        ("| Question | Answer |\n|---|---|\n| 1 | B |\n| 2 | D |", None),
        ("| Question | Answer |\n|---|---|\n| 1 | B, because of X |", None),
    ],
)
def test_choice_v8_reads_a_markdown_tables_answer_column(text: str, expected: str | None) -> None:
    assert v8(text) == expected


def test_an_answer_cell_has_the_table_rule_and_its_span() -> None:
    text = "| Question | Answer |\n|---|---|\n| 1 | B |"
    found = extract(text, "choice/v8")
    assert found.rule == "table-answer"
    assert found.span is not None and text[found.span[0] : found.span[1]] == "B"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is (A)... no, (B)... I cannot decide between them.", None),
        ("Answer: C\nHonestly I'm torn between C and D.", None),
        ("It is probably B. Or C. Honestly, I can't decide.", None),
        ("Respuesta: B\nNo sé cuál elegir entre B y C.", None),
        ("答案可能是A，也可能是C，我无法确定。", None),
        # indecision before the final statement, or about something else
        ("I was torn between A and B at first, but the answer is B.", "b"),
        ("I cannot decide from the graph alone, but the table settles it: the answer is D.", "d"),
        ("The answer is D. I can't choose A because it ignores friction.", "d"),
    ],
)
def test_choice_v8_explicit_indecision_after_the_final_statement_is_no_answer(
    text: str, expected: str | None
) -> None:
    assert v8(text) == expected


def test_indecision_is_its_own_rule() -> None:
    found = extract("Answer: C\nI'm torn between C and D.", "choice/v8")
    assert (found.value, found.rule) == (None, "undecided-no-answer")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is D.\n\nPassage: In 1848 revolutions spread. Answer: B", "d"),
        ("C is correct.\n\nText: Plants convert light.\nAnswer: D", "c"),
        ("So the answer is (A).\nArticle: A survey was published. The answer is (D).", "a"),
        ("Answer: D\n\nStory: A fox met a crow.\nAnswer: B", "d"),
        ("The correct option is C.\n**Excerpt:** The treaty.\nThe correct option is A.", "c"),
        ("答案：B\n材料：某地区人口持续增长。\n答案：C", "b"),
        ("B is right.\n\nCONTEXT: rivers.\nAnswer: A", "b"),
        # a header before any answer is the prompt's, not a new item
        ("Context: the question asks about enzymes.\nThe answer is B.", "b"),
    ],
)
def test_choice_v8_an_invented_item_header_ends_the_answer(text: str, expected: str | None) -> None:
    assert v8(text) == expected


def test_the_terminal_rule_gives_way_to_a_header_before_the_last_line_only_in_v8() -> None:
    text = "C is correct.\n\nText: Plants convert light.\nAnswer: D"
    assert extract(text, "choice/v7").rule == "final-answer-line"  # v7 kept as it was
    assert extract(text, "choice/v8").rule == "answer-statement"
    assert extract("Reasoning.\n\nAnswer: D", "choice/v8").rule == "final-answer-line"


@pytest.mark.parametrize(
    "text",
    [
        "The second one.",
        "A and B fail, so only C remains.",
        "The answer is, as far as I can tell, D.",
        "| Question | Answer |\n|---|---|\n| 1 | B |",
    ],
)
def test_choice_v7_is_unchanged_on_the_new_classes(text: str) -> None:
    assert v7(text) is None


# ------------------------------------------------------------------ properties (hypothesis)

_POSITIONS = st.sampled_from(
    [("first", "a"), ("second", "b"), ("third", "c"), ("fourth", "d"), ("last", "d")]
)
_NOUNS = st.sampled_from(["option", "choice", "one", "alternative"])
_CASE = st.sampled_from([str.lower, str.upper, str.capitalize, str.title])
_WRAP = st.sampled_from([("", ""), ("**", "**"), ("_", "_"), ("> ", ""), ("- ", "")])
_END = st.sampled_from(["", ".", "!", " ", "."])


@settings(max_examples=300, deadline=None)
@given(_POSITIONS, _NOUNS, _CASE, _WRAP, _END, st.booleans())
def test_a_position_alone_on_a_line_names_its_option_in_any_case_and_markup(
    position: tuple[str, str],
    noun: str,
    case: object,
    wrap: tuple[str, str],
    end: str,
    article: bool,
) -> None:
    word, option = position
    phrase = ("the " if article else "") + f"{word} {noun}"
    text = wrap[0] + case(phrase) + wrap[1] + end  # type: ignore[operator]
    assert v8(text) == option


_ASIDE_WORDS = st.lists(
    st.sampled_from(["as", "far", "I", "can", "tell", "after", "checking", "twice", "honestly",
                     "in", "my", "view", "given", "the", "data"]),
    min_size=1,
    max_size=8,
).map(" ".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_ASIDE_WORDS, st.sampled_from("ABCD"), st.sampled_from([(", ", ", "), (" — ", " — ")]))
def test_an_aside_between_the_answer_and_its_letter_changes_nothing(
    aside: str, letter: str, marks: tuple[str, str]
) -> None:
    text = f"The answer is{marks[0]}{aside}{marks[1]}{letter}."
    assert v8(text) == letter.lower()


_HEADERS = st.sampled_from(
    ["Passage:", "Context:", "Text:", "Article:", "Story:", "PASSAGE:", "**Context:**",
     "Excerpt 2:", "Texto:", "材料："]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from("ABCD"), _HEADERS, CHOICE_OUTPUTS)
def test_an_invented_item_after_an_answer_never_changes_it(
    letter: str, header: str, after: str
) -> None:
    text = f"The answer is {letter}."
    assert v8(text + "\n\n" + header + " " + after) == letter.lower()


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["Answer", "Final answer", "answer", "Answer (letter)", "**Answer**"]),
    st.sampled_from("ABCD"),
    st.integers(0, 2),
    st.integers(1, 3),
)
def test_an_answer_column_with_one_choice_answers_it(
    header: str, letter: str, before: int, rows: int
) -> None:
    head = ["Q"] * before + [header]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join([str(i)] * before + [letter]) + " |" for i in range(rows)]
    assert v8("\n".join(lines)) == letter.lower()


_NEW_PIECES = st.sampled_from(
    ["The answer is", ", ", "as far as I can tell", "B", "C", " ", "\n", ".", "| ", " |",
     "|---|", "Answer", "the second one", "last option", "only", " remains", " is the only "
     "option left", "I can't decide", "Passage: ", "by elimination, ", "第二个选项", "—"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_NEW_PIECES, max_size=16).map("".join))
def test_choice_v8_reads_any_mix_of_its_new_forms_to_a_choice_or_none(text: str) -> None:
    assert_choice_or_none(extract(text, "choice/v8"), text)
