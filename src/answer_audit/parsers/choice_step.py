"""The data of the choice engine: a preset's steps, and what a step decides.

The engine (`choice`) and the readers of the ``statements`` and ``option-text`` steps
(`choice_statements`, `choice_option_text`) all import these types from here, so none of them
imports another's internals the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

StepKind = Literal[
    "trigger-lines",
    "regex",
    "window",
    "tail-repeat",
    "last-char",
    "statements",
    "option-text",
    "guard",
    "last-resort",
    "correction",
    "plain-answer",
]
TAIL = 2000
"""How many of the answer region's last characters choice/v9's ``guard`` and ``last-resort``
steps read (`choice_last_resort`)."""
# The options' texts of one question: in choice order, or keyed by letter.
OptionTexts = Sequence[str] | Mapping[str, str]
# The non-blank lines of a normalized text, stripped, each with the offset where it starts.
Lines = list[tuple[int, str]]


@dataclass(frozen=True)
class ChoiceStep:
    """One step of a choice preset.

    - ``trigger-lines``: lines from the last upward that contain a trigger; in the first such
      line where a pattern matches (patterns tried in order), take its ``pick`` match.
    - ``regex``: the patterns on the whole normalized text, ``pick`` match of the first that hits.
    - ``window``: the patterns (in order) over the last ``lines`` lines (all text when None),
      first match in reading order.
    - ``tail-repeat``: among the last ``lines`` lines from the last upward, drop every character
      that is not a choice token; a non-empty run of one repeated character is the choice.
    - ``last-char``: the last choice-token character anywhere in the text.
    - ``statements``: every answer statement (``patterns``; with ``bare``, also lines that are
      one choice alone and a first line led by one), minus negated ones (``negations`` right
      after the token), examples (``ignore`` earlier on the line) and those after an invented
      next question (``stops``); the final statement wins, unless the statements cycle through
      the options or enumerate them, which is no answer (see `choice_statements`).
    - ``option-text``: the text of exactly one option (given at extraction time), after the
      last answer trigger (``patterns``) or in a short whole answer.
    - ``guard`` and ``last-resort`` (choice/v9): see `choice_last_resort`.
    - ``correction`` and ``plain-answer`` (choice/v10): see `choice_plain`.
    """

    kind: StepKind
    rule: str
    triggers: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    pick: Literal["first", "last"] = "last"
    lines: int | None = None
    negations: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    stops: tuple[str, ...] = ()
    bare: bool = False
    # choice/v5 only (a ``scripts`` preset): cues that make a statement with would/could/might
    # counterfactual ("if it asked about mass, the answer would be A"), and doubts that, after
    # the final statement, name another choice ("Hmm, or maybe D?"): no answer.
    conditionals: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    # choice/v5: statement patterns whose choice ends its line (but closing marks), read only on
    # such lines ("So C.", "Cevap: D")
    line_final: tuple[str, ...] = ()
    # choice/v7 (off for older presets): per-option verdict lines ("- C: yes", "| B | ✓ |"),
    # one pattern whose group 1 is the choice and group 2 takes part only in a positive
    # verdict; read when two or more choices get one (a list), and no answer when the
    # statements end in positive verdicts for different choices
    verdict_lines: tuple[str, ...] = ()
    # choice/v7: the second of two alternatives ("\\boxed{A} or \\boxed{C}") is dropped
    # with the first, which every version drops
    pair_alternatives: bool = False
    # choice/v7: what, right after a token "a", makes it option A rather than the English
    # article ("A best fits", "A would be my answer")
    not_article: tuple[str, ...] = ()
    # choice/v8 (off for older presets): the headers of a Markdown table's answer column
    # ("Answer", "Final answer", 答案), read as one pattern on a header cell; the cells under
    # it that hold one choice are statements, when they all name the same one
    table_answers: tuple[str, ...] = ()
    # choice/v8: explicit indecision after the final statement ("I cannot decide between
    # them", "I'm torn between C and D"): no answer
    undecided: tuple[str, ...] = ()
    # choice/v9 (off for older presets): a first line led by a choice that a negation cue
    # (``negations``) follows ("(A) is incorrect because ...") is no lead line
    lead_negated: bool = False
    # choice/v12 (off for older presets): a ``correction``, ``last-resort`` or ``plain-answer``
    # step reads the text with the letters that look like labels but are not blanked (a unit
    # after a number, a letter fused into a CJK word, the end of a name, a count):
    # `choice_precision`
    precise: bool = False

    def describe(self) -> str:
        """The step as one line of the preset's rules (for docs and `parsers`)."""
        return self._describe_kind() + self._precise_note()

    def _describe_kind(self) -> str:
        pats = " else ".join(f"`{p}`" for p in self.patterns)
        trig = " or ".join(f"`{t}`" for t in self.triggers)
        match self.kind:
            case "trigger-lines":
                where = f"lines from the last upward containing {trig}"
                return f"`{self.rule}`: {where}: {self.pick} match of {pats}"
            case "regex":
                return f"`{self.rule}`: {self.pick} match of {pats} in the whole text"
            case "window":
                where = f"the last {self.lines} lines" if self.lines else "the whole text"
                return f"`{self.rule}`: first match of {pats} in {where}"
            case "tail-repeat":
                return (
                    f"`{self.rule}`: among the last {self.lines} lines (from the last), keep only "
                    "choice characters; one repeated character is the answer"
                )
            case "last-char":
                return f"`{self.rule}`: the last choice character anywhere in the text"
            case "statements":
                return self._describe_statements()
            case "guard":
                return (
                    "`multi-box-no-answer`: the final `\\boxed{}` holds several choices; "
                    "`cut-off-no-answer`: the output stops right after a copula (or 'and', "
                    "'or', 'but', 'because', 'the', 'of') in a sentence that names a choice "
                    f"(both read the answer region's last {TAIL:,} characters)"
                )
            case "last-resort":
                return (
                    f"`{self.rule}`: when nothing above answered, the choices in answer "
                    f"positions ({len(self.patterns)} patterns: after a copula in any language, "
                    "before a Korean/Japanese copula, after 'but' in a correction, first on a "
                    "line before 。/、/a dash, last on a short final line, an appositive option, "
                    "a JSON string field holding one choice under any key), minus negated, "
                    f"compared and example ones, in the answer region's last {TAIL:,} characters: "
                    "the answer when they name exactly one choice"
                )
            case "correction":
                return (
                    f"`{self.rule}`: the output opens with a sentence naming one choice and its "
                    "final sentence ends in another, repeating the word just before the first or "
                    "the words just after it, and no sentence between names one: the later choice "
                    f"(in the answer region's last {TAIL:,} characters)"
                )
            case "plain-answer":
                return (
                    f"`{self.rule}`: when nothing above answered, the labels standing alone in the "
                    "options' script after a word (not a cased label before a word, a digit in a "
                    "set of letters, a question, nor a negated, compared, listed or example one), "
                    f"in the answer region's last {TAIL:,} characters, name exactly one choice and "
                    "one stands in the first sentence, the final sentence or the last line's first "
                    "sentence: that choice"
                )
            case "option-text":
                return (
                    f"`{self.rule}`: the options' texts (when given; longest first, whole words): "
                    "exactly one of them after the last answer trigger, else in a one- or two-line "
                    "answer"
                )
        raise AssertionError(self.kind)  # pragma: no cover

    def _precise_note(self) -> str:
        return (
            "; letters that only look like labels are not read (`choice_precision`: a unit after "
            "a number, a letter fused into a Chinese/Japanese/Korean word, the end of a "
            "name or a compound, a count in digit options)"
            if self.precise
            else ""
        )

    def _describe_statements(self) -> str:
        lines = (
            ", lines that are one choice alone (`bare-line`) and a first line led by one "
            "(`lead-line`, unless other lines list options the same way"
            + (" or a negation cue follows the choice" if self.lead_negated else "")
            + ")"
            if self.bare
            else ""
        )
        v5 = (
            f"; an example cue reaches back to its clause's start, not the line's; "
            f"counterfactual statements ({len(self.conditionals)} conditional cues before a "
            f"would/could/might) do not count; `doubt-no-answer`: after the final statement the "
            f"output doubts it by naming another choice ({len(self.doubts)} doubt patterns)"
            if self.conditionals or self.doubts
            else ""
        )
        v7 = (
            "; `verdict-line`: a positive verdict in a per-option list (two or more options "
            "judged), `verdict-list-no-answer` when the statements end in positive verdicts for "
            "different options"
            if self.verdict_lines
            else ""
        )
        if self.pair_alternatives:
            v7 += "; both of two alternatives ('X or Y', in any wrappers) are dropped"
        v8 = (
            f"; `table-answer`: the one choice in the cells of a Markdown table's answer column "
            f"({len(self.table_answers)} header patterns)"
            if self.table_answers
            else ""
        )
        if self.undecided:
            v8 += (
                f"; `undecided-no-answer`: after the final statement the output says it cannot "
                f"decide ({len(self.undecided)} indecision patterns)"
            )
        return self._describe_v4_statements(lines) + v5 + v7 + v8

    def _describe_v4_statements(self, lines: str) -> str:
        return (
            f"`{self.rule}`: every answer statement ({len(self.patterns)} patterns){lines}, minus "
            f"negated ones ({len(self.negations)} cue patterns right after the choice), examples "
            f"({len(self.ignore)} cue patterns earlier on the line), 'x or y' ones and those after "
            f"an invented next question ({len(self.stops)} marker patterns); the final statement "
            "wins. `cycle-no-answer`: the statements end in a cycle through the options (a period "
            "of 2+ different choices, repeated); then only a reasoned statement (its line says more "
            "than a label and the choice) can answer (`answer-before-cycle`), if those in the cycle "
            "agree. `enumeration-no-answer`: they end by naming every option once"
        )


@dataclass(frozen=True)
class NoAnswer:
    """A step's decision that the output gives no answer (rule says why); stops the steps."""

    rule: str
    span: tuple[int, int] | None = None


Found = tuple[int, int, str, str]  # start, end, token, rule
# What a step decides: a token and where (with its own rule, or the step's), no answer, or
# nothing (the next step runs).
Decision = Found | tuple[int, int, str] | NoAnswer | None
