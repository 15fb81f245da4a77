"""Multiple choice: one small engine running a preset's ordered steps.

The text is NFKC-normalized and lowercased, split into non-empty stripped lines, and the
steps run in order; the first step that yields a choice wins. Digit tokens map to letters
by position (1 -> a). Patterns are templates: ``{L}`` expands to the choice letters and
``{D}`` to the digit range (``abcd`` and ``1-4`` for the default choice set).

Two preset options added with ``choice/v4`` (off by default, so older presets are unchanged):
``think`` keeps only the text after the last closing reasoning delimiter, and ``masks`` blanks
text that is never an answer (format echoes, article numbers) before any step runs. The step
kinds ``statements`` and ``option-text`` are read by `choice_statements` and
`choice_option_text`, the step data is `choice_step`, and the built-in presets are data in
`answer_audit.parsers.presets.choice`.

Over 400 lines on purpose: the engine and the compiling of a preset for one choice set belong
together (a compiled preset is what every step reads); the steps themselves live elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from answer_audit.extraction import NOT_FOUND, Extraction
from answer_audit.parsers.choice_last_resort import read_guard, read_last_resort
from answer_audit.parsers.choice_lines import first_lines, lines_holding, split_lines
from answer_audit.parsers.choice_option_text import read_option_text
from answer_audit.parsers.choice_patterns import (
    STEP_KINDS,
    StepRegexes,
    compile_script_step,
    compile_step,
)
from answer_audit.parsers.choice_plain import invented_item_start, read_correction, read_plain
from answer_audit.parsers.choice_precision import precise
from answer_audit.parsers.choice_region import (
    RAW_END,
    RAW_LIMIT,
    READ_END,
    READ_LIMIT,
    drop_invisible,
    ends_only,
    masked,
    raw_span,
    turn_start,
)
from answer_audit.parsers.choice_script import TokenSet, script_choices, token_set
from answer_audit.parsers.choice_statements import read_statements
from answer_audit.parsers.choice_step import ChoiceStep, Decision, Lines, NoAnswer, OptionTexts
from answer_audit.parsers.choice_terminal import RULE as TERMINAL_RULE
from answer_audit.parsers.choice_terminal import terminal_rule
from answer_audit.parsers.timed import budgeted, compile_user_pattern
from answer_audit.text.offsets import nfkc_lower_with_map
from answer_audit.text.prefilters import (
    guarded,
    may_match,
    needed_strings,
    original,
    scans_fast,
)
from answer_audit.text.regions import reasoning_bounds

DEFAULT_CHOICES = "abcd"


@lru_cache(maxsize=256)
def validated_choices(value: str) -> str:
    """The choice letters ``value`` lists, as one word (``abcde``) or separated by commas or
    spaces; raises ValueError for anything else: ``a-e`` would read as the two letters a, e.

    >>> validated_choices("A, B, C")
    'abc'
    """
    if not isinstance(value, str):
        raise TypeError(f"choices must be a string of letters such as 'abcde', not {value!r}")
    letters = [c for c in value if c not in ", "]
    odd = sorted({c for c in letters if not ("a" <= c.lower() <= "z")})
    if odd or not letters:
        shown = " ".join(repr(c) for c in odd) if odd else "no letters"
        raise ValueError(
            f"choices {value!r} holds {shown}; list every choice letter, e.g. abcde "
            "(ranges such as a-e are not read)"
        )
    return "".join(letters).lower()


@dataclass(frozen=True)
class ChoicePreset:
    """A frozen multiple-choice preset: ordered steps and the default choice set."""

    name: str
    steps: tuple[ChoiceStep, ...]
    choices: str = DEFAULT_CHOICES
    family: str = field(default="choice")
    think: bool = False
    masks: tuple[str, ...] = ()
    user_patterns: bool = False  # from a preset file: run patterns with a time limit
    # choice/v5 (off for older presets): option labels in any script (`choice_script`; patterns
    # use {T}, {K}, {W}, {A}), invisible characters dropped first, and where an invented next
    # turn starts (`turns` anywhere, `replies` after the output's start; `choice_region`).
    scripts: bool = False
    invisible: bool = False
    turns: tuple[str, ...] = ()
    replies: tuple[str, ...] = ()
    terminal: bool = False  # the terminal-answer rule first (`choice_terminal`)
    # choice/v8: line starts (in the raw text's case) that, before the terminal answer line, send
    # the text to the full reading: the new-item headers its statements step stops at (`Passage:`)
    terminal_stops: tuple[str, ...] = ()
    # choice/v10: one label (group 1, a `scripts` pattern) by which an invented next item is
    # found (a question, then an option list or a used answer header: `choice_plain`); the
    # answer region ends where it starts
    item_token: str | None = None
    # choice/v12: such an item is invented only when an answer statement stands before it (a
    # question and its options restated in the reasoning are no next item)
    item_after_answer: bool = False

    def __post_init__(self) -> None:
        (script_choices if self.scripts else validated_choices)(self.choices)

    def extract(
        self, text: str, choices: str | None = None, choices_text: OptionTexts | None = None
    ) -> Extraction:
        """The choice in ``text``; ``choices_text`` gives the options' texts (by position, or
        keyed by letter) for the ``option-text`` step."""
        check = script_choices if self.scripts else validated_choices
        letters = check(choices) if choices else self.choices  # "": the preset's
        return _run(self, text, letters.lower(), choices_text)

    def describe(self) -> list[str]:
        head = (
            f"NFKC + lowercase, non-empty stripped lines; choices `{self.choices}` "
            "(digits 1.. map to them)"
        )
        pre = []
        if self.think:
            pre.append(
                "`unclosed-think`: a reasoning block opened and never closed has no answer; "
                "otherwise keep the text after the last closing delimiter (`</think>`, ...)"
            )
        if self.terminal:
            stops = (
                f" and no line before it starts a new item ({len(self.terminal_stops)} header "
                "patterns)"
                if self.terminal_stops
                else ""
            )
            pre.insert(
                0,
                "`final-answer-line`: the output ends with a plain answer line and nothing before "
                "it moves the answer region or names another choice in an answer line "
                f"(`choice_terminal`){stops}; else the rules below",
            )
        if self.scripts:
            pre.append(
                "option labels in any script when the choices say so (the Latin letter and the "
                "digit of each position too); a region over 64K characters is read at its two "
                "ends (16K each)"
            )
        if self.invisible:
            pre.append(
                "invisible characters (zero-width spaces, joiners, BOM, soft hyphens) dropped"
            )
        if self.item_token is not None:
            pre.append(
                "`item-cut`: the answer ends where an invented next item starts: a question line "
                "after a line naming an option, followed by an option list or by an answer header "
                "used before it (`choice_plain`)"
                + (
                    ", and only when an answer statement stands before it"
                    if self.item_after_answer
                    else ""
                )
            )
        if self.turns or self.replies:
            pre.append(
                f"`turn-cut`: the answer ends where an invented next turn starts ({len(self.turns)} "
                f"user-side patterns, anywhere; {len(self.replies)} answering-side patterns, after "
                "the output's start)"
            )
        if self.masks:
            shown = " ; ".join(f"`{m}`" for m in self.masks)
            pre.append(f"blank text that is never an answer ({len(self.masks)} patterns): {shown}")
        steps = [s.describe() for s in self.steps]
        return [head, *pre, *steps, "`not-found`: none of the above"]


@dataclass(frozen=True)
class _Compiled:
    letters: str
    token_chars: frozenset[str]
    steps: tuple[tuple[ChoiceStep, tuple[re.Pattern[str], ...]], ...]
    extras: tuple[StepRegexes | None, ...]
    masks: tuple[re.Pattern[str], ...]
    mask_needs: tuple[frozenset[str] | None, ...]  # each mask's `_needs_worth_checking`
    tokens: TokenSet | None = None  # a `scripts` preset's tokens
    # with the strings one of which each pattern's every match holds (`needed_strings`)
    turns: tuple[tuple[re.Pattern[str], frozenset[str] | None], ...] = ()
    replies: tuple[tuple[re.Pattern[str], frozenset[str] | None], ...] = ()
    item_token: re.Pattern[str] | None = None  # choice/v10's (`ChoicePreset.item_token`)


def choice_letters(choices: str) -> str:
    """The distinct letters a-z of a choice set, in order; ValueError when there is none."""
    letters = "".join(dict.fromkeys(c for c in choices if "a" <= c <= "z"))
    if not letters:
        raise ValueError(f"choice set {choices!r} has no letters a-z")
    return letters


def choice_fill(letters: str) -> dict[str, str]:
    """What ``{L}`` (the letters, escaped) and ``{D}`` (their digit range) stand for."""
    n_digits = min(len(letters), 9)
    return {"{L}": re.escape(letters), "{D}": "1" if n_digits == 1 else f"1-{n_digits}"}


@lru_cache(maxsize=256)
def _compile(preset: ChoicePreset, choices: str) -> _Compiled:
    if preset.scripts:
        return _compile_scripts(preset, choices)
    letters = choice_letters(choices)
    fill = choice_fill(letters)
    n_digits = min(len(letters), 9)
    expand = _expander(preset, choices, fill, user=preset.user_patterns)
    steps = tuple((s, tuple(expand(p) for p in _step_patterns(s))) for s in preset.steps)
    token_chars = frozenset(letters) | frozenset(str(i) for i in range(1, n_digits + 1))
    extras = tuple(
        compile_step(s, expand, user=preset.user_patterns) if s.kind in STEP_KINDS else None
        for s in preset.steps
    )
    masks = tuple(expand(m) for m in preset.masks)
    return _Compiled(
        letters, token_chars, steps, extras, masks, tuple(map(_needs_worth_checking, masks))
    )


def _expander(
    preset: ChoicePreset, choices: str, fill: dict[str, str], *, user: bool
) -> Callable[[str], re.Pattern[str]]:
    """Compiles a pattern with ``fill``'s placeholders filled: built-in patterns guarded (same
    matches; fails fast where none can start), a preset file's (``user``) timed, and a bad one
    a ValueError naming the preset and the pattern."""

    def expand(pattern: str) -> re.Pattern[str]:
        for key, value in fill.items():
            pattern = pattern.replace(key, value)
        if not user:
            return guarded(re.compile(pattern))
        try:
            return compile_user_pattern(pattern)  # type: ignore[return-value]  # same interface
        except Exception as err:  # regex.error, or too deep for it (RecursionError)
            raise ValueError(
                f"preset {preset.name!r}: pattern {pattern!r} (choices {choices!r}) is not a "
                f"valid regular expression: {err}"
            ) from None

    return expand


# (preset id, choices) -> the preset and its compiled form: `_compile` without hashing the
# preset on every row (a frozen preset's hash walks every pattern and trigger it holds)
_BY_ID: dict[tuple[int, str], tuple[ChoicePreset, _Compiled]] = {}


def _compiled(preset: ChoicePreset, choices: str) -> _Compiled:
    """`_compile(preset, choices)`, looked up by the preset's identity first."""
    key = (id(preset), choices)
    hit = _BY_ID.get(key)
    if hit is not None and hit[0] is preset:  # (an id is reused only once its preset is gone)
        return hit[1]
    if len(_BY_ID) >= 256:
        _BY_ID.clear()
    compiled = _compile(preset, choices)
    _BY_ID[key] = (preset, compiled)
    return compiled


def _compile_scripts(preset: ChoicePreset, choices: str) -> _Compiled:
    """A `scripts` preset (choice/v5) for one choice set: tokens in the set's own script."""
    tokens = token_set(choices)
    fill = {**tokens.fill, "{A}": "".join(c for c in tokens.fill["{K}"] if not c.isdigit())}
    # a preset file based on choice/v5 has its patterns timed; its turns are the built-in ones
    expand = _expander(preset, choices, fill, user=preset.user_patterns)
    builtin = _expander(preset, choices, fill, user=False)
    steps = tuple((s, tuple(expand(p) for p in _step_patterns(s))) for s in preset.steps)
    chars = frozenset(t for t in tokens.position if len(t) == 1)
    extras = tuple(
        replace(compile_script_step(s, expand, user=preset.user_patterns), token_chars=chars)
        if s.kind in STEP_KINDS
        else None
        for s in preset.steps
    )
    masks = tuple(expand(m) for m in preset.masks)
    return _Compiled(
        choices,
        chars,
        steps,
        extras,
        masks,
        tuple(map(_needs_worth_checking, masks)),
        tokens,
        # turns and replies are the built-in preset's (a preset file cannot set them)
        tuple(map(_with_needs, map(builtin, preset.turns))),
        tuple(map(_with_needs, map(builtin, preset.replies))),
        builtin(preset.item_token) if preset.item_token is not None else None,
    )


def _step_patterns(step: ChoiceStep) -> tuple[str, ...]:
    """The patterns a step's reader gets: its own, and for a ``last-resort`` step its
    negations after them (choice/v11's rejecting negation words; none before v11)."""
    return (*step.patterns, *step.negations) if step.kind == "last-resort" else step.patterns


def _with_needs(pattern: re.Pattern[str]) -> tuple[re.Pattern[str], frozenset[str] | None]:
    """A turn pattern with the strings it needs, to skip its search where none occurs; a
    pattern led by a newline, another literal or a few marks (``<|``, ``[inst]``) needs no such
    check (`re` skips from newline to newline, faster than looking for a few role words)."""
    return pattern, _needs_worth_checking(pattern)


def _needs_worth_checking(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """`needed_strings` of a pattern (to skip its search where none occurs), or None when the
    search itself is as cheap as that check (`scans_fast`): the same results either way."""
    if isinstance(pattern, re.Pattern) and scans_fast(original(pattern)):
        return None
    return needed_strings(pattern)


def _to_choice(token: str | None, letters: str) -> str | None:
    """The choice a captured token names: one letter of the set, or its number (1 is the
    first). A preset file's pattern may capture more than one letter, or nothing: no choice."""
    if not token:
        return None
    if token.isdecimal():  # (isdigit would take "²", which int() refuses)
        i = int(token) - 1 if len(token) <= 3 else -1
        return letters[i] if 0 <= i < len(letters) else None
    return token if len(token) == 1 and token in letters else None


def _run(preset: ChoicePreset, text: str, choices: str, options: OptionTexts | None) -> Extraction:
    if preset.terminal and (rule := terminal_rule(choices)) is not None:
        found = rule.answer(text)
        if (
            found is not None
            and not _stopped_before(preset.terminal_stops, text, found[0])
            and not _item_before(preset, text, choices, found[0])
        ):
            return Extraction(found[2], TERMINAL_RULE, (found[0], found[1]))
    return budgeted(lambda: _run_steps(preset, text, choices, options), timed=preset.user_patterns)


def _stopped_before(stops: tuple[str, ...], text: str, end: int) -> bool:
    """Whether a line of ``text`` before the line holding ``end`` starts with one of ``stops``
    (choice/v8's new-item headers): then the terminal answer line may belong to an invented
    item. Costs a skip from newline to newline (`re` finds a literal first character at once)."""
    if not stops:
        return False
    end = text.rfind("\n", 0, end)
    if end < 0 or (text.find(":", 0, end) < 0 and text.find("：", 0, end) < 0):
        return False  # the answer line is the first line, or no header's colon comes before it
    first, later = _stop_lines(stops)
    return first.match(text, 0, end) is not None or later.search(text, 0, end) is not None


def _item_before(preset: ChoicePreset, text: str, choices: str, end: int) -> bool:
    """Whether an invented next item (choice/v10) starts before ``end`` of the raw text; a
    question mark is its first need, so most outputs are not read again."""
    if preset.item_token is None or ("?" not in text and "？" not in text and "؟" not in text):
        return False
    compiled = _compiled(preset, choices)
    if compiled.item_token is None:
        return False
    norm, origin = nfkc_lower_with_map(text)
    cut = _item_cut(preset, compiled, norm)
    if cut is None:
        return False
    return (origin.span(cut, cut + 1)[0] if origin is not None else 0) < end


@lru_cache(maxsize=8)
def _stop_lines(stops: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The header patterns at the text's start, and after a newline (as written: the raw text,
    not lowercased; a preset lists the casings it reads)."""
    body = r"[ \t*#>]*+(?:" + "|".join(f"(?:{s})" for s in stops) + ")"
    return re.compile(body), re.compile("\n" + body)


def _run_steps(
    preset: ChoicePreset, text: str, choices: str, options: OptionTexts | None
) -> Extraction:
    compiled = _compiled(preset, choices)
    kept = None
    if preset.scripts:
        text = ends_only(text, RAW_LIMIT, RAW_END)
    if preset.invisible:
        text, kept = drop_invisible(text)
    norm, origin = nfkc_lower_with_map(text)
    if preset.think:
        start, unclosed = reasoning_bounds(norm)
        if unclosed:
            return Extraction(None, "unclosed-think", None)
        norm = " " * start + norm[start:]  # blank, not cut: offsets stay those of `norm`
    if compiled.turns or compiled.replies:
        cut = turn_start(norm, compiled.turns, compiled.replies)
        if cut is not None:  # blank, not cut: offsets stay those of `norm`
            norm = norm[:cut] + " " * (len(norm) - cut)
        norm = ends_only(norm, READ_LIMIT, READ_END)
    if compiled.item_token is not None:
        cut = _item_cut(preset, compiled, norm)
        if cut is not None:  # blank, not cut: offsets stay those of `norm`
            norm = norm[:cut] + " " * (len(norm) - cut)
    norm = _masked_text(preset, compiled, norm)
    # choice/v4's steps read the text without its line list (a megabyte of one-letter lines
    # makes half a million of them): built here only for a step that reads it
    lines = split_lines(norm) if preset.scripts else None
    for (step, patterns), extra in zip(compiled.steps, compiled.extras, strict=True):
        decision: Decision
        if extra is not None:
            decision = _read_step(step, extra, norm, lines, compiled, options)
        else:
            lines = split_lines(norm) if lines is None else lines
            decision = _runner(step)(step, patterns, norm, lines, compiled)
        if decision is None:
            continue
        if isinstance(decision, NoAnswer):
            span = origin.span(*decision.span) if origin is not None and decision.span else None
            return Extraction(None, decision.rule, _raw(kept, span))
        start, end, token = decision[0], decision[1], decision[2]
        rule = decision[3] if len(decision) == 4 else step.rule
        if compiled.tokens is not None:
            value = compiled.tokens.value(token)
        else:
            value = _to_choice(token, compiled.letters)
        if value is None:
            continue
        span = origin.span(start, end) if origin is not None and end > start else None
        return Extraction(value, rule, _raw(kept, span))
    return NOT_FOUND


def _item_cut(preset: ChoicePreset, compiled: _Compiled, norm: str) -> int | None:
    """Where an invented next item starts (choice/v10, `invented_item_start`); with
    ``item_after_answer`` (choice/v12), only when a step other than ``plain-answer`` reads an
    answer in the text before it (a label somewhere in the reasoning answers nothing)."""
    assert compiled.item_token is not None
    cut = invented_item_start(norm, compiled.item_token, compiled)
    if cut is None or not preset.item_after_answer:
        return cut
    before = _masked_text(preset, compiled, norm[:cut] + " " * (len(norm) - cut))
    lines = split_lines(before)
    for (step, patterns), extra in zip(compiled.steps, compiled.extras, strict=True):
        decision: Decision
        if step.kind == "plain-answer" or step.kind == "option-text":
            continue
        if extra is not None:
            decision = _read_step(step, extra, before, lines, compiled, None)
        else:
            decision = _runner(step)(step, patterns, before, lines, compiled)
        if isinstance(decision, NoAnswer):
            return None
        if decision is not None:
            return cut
    return None


def _masked_text(preset: ChoicePreset, compiled: _Compiled, norm: str) -> str:
    """``norm`` with the preset's masks blanked (offsets kept)."""
    for mask, needs in zip(compiled.masks, compiled.mask_needs, strict=True):
        if may_match(needs, norm):  # else it has no match: the text stays as it is
            norm = masked(mask, norm) if preset.scripts else mask.sub(_blank, norm)
    return norm


def _runner(step: ChoiceStep) -> Callable[..., Decision]:
    """The reader of a step kind read by pattern (choice/v12's ``precise`` steps read the text
    with its look-alike labels blanked)."""
    return _PRECISE_RUNNERS[step.kind] if step.precise else _STEP_RUNNERS[step.kind]


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _raw(kept: list[int] | None, span: tuple[int, int] | None) -> tuple[int, int] | None:
    """A span of the text read (invisible characters dropped) as a span of the raw text."""
    return raw_span(kept, *span) if span is not None and kept is not None else span


def _read_step(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    lines: Lines | None,
    compiled: _Compiled,
    options: OptionTexts | None,
) -> Decision:
    """Run one ``statements`` or ``option-text`` step on the normalized (masked) text (``lines``:
    its lines, or None when not built yet)."""
    letters = compiled.letters
    if step.kind == "option-text":
        if compiled.tokens is not None and options is not None:
            options = _without_end_marks(options)
        # it asks only whether the text has more than two lines
        few = lines if lines is not None else first_lines(norm, 3)
        return read_option_text(rx, norm, few, letters, options)
    canon = compiled.tokens.value if compiled.tokens is not None else None
    return read_statements(step, rx, norm, lines, len(letters), canon)


def _without_end_marks(options: OptionTexts) -> OptionTexts:
    """Option texts without their closing full stop (choice/v5): an output that copies an
    option usually drops it ("... is allowed" for "... is allowed.")."""
    if isinstance(options, Mapping):
        return {k: v.rstrip().rstrip(".。") for k, v in options.items()}
    return [v.rstrip().rstrip(".。") for v in options]


Hit = tuple[int, int, str] | None


def _match_hit(m: re.Match[str] | None, offset: int) -> Hit:
    """The captured token (group 1, else the match) and where; None when there is no match or
    its group took no part in it (a preset file's ``(?:\\(([a-d])\\)|([a-d]))``)."""
    if m is None:
        return None
    g = 1 if m.re.groups else 0
    if m.group(g) is None:
        return None
    return offset + m.start(g), offset + m.end(g), m.group(g)


def _trigger_lines(
    step: ChoiceStep, pats: tuple[re.Pattern[str], ...], norm: str, lines: Lines, c: _Compiled
) -> Hit:
    for offset, line in lines_holding(lines, norm, step.triggers):
        for pat in pats:
            found = list(pat.finditer(line)) if step.pick == "last" else [pat.search(line)]
            if found and (hit := _match_hit(found[-1], offset)) is not None:
                return hit
    return None


def _regex(
    step: ChoiceStep, pats: tuple[re.Pattern[str], ...], norm: str, lines: Lines, c: _Compiled
) -> Hit:
    for pat in pats:
        found = list(pat.finditer(norm)) if step.pick == "last" else [pat.search(norm)]
        if found and (hit := _match_hit(found[-1], 0)) is not None:
            return hit
    return None


def _window(
    step: ChoiceStep, pats: tuple[re.Pattern[str], ...], norm: str, lines: Lines, c: _Compiled
) -> Hit:
    region = lines[-step.lines :] if step.lines else [(0, norm)]
    for pat in pats:
        for offset, line in region:
            if (hit := _match_hit(pat.search(line), offset)) is not None:
                return hit
    return None


def _tail_repeat(
    step: ChoiceStep, pats: tuple[re.Pattern[str], ...], norm: str, lines: Lines, c: _Compiled
) -> Hit:
    for offset, line in reversed(lines[-(step.lines or 1) :]):
        kept = [i for i, ch in enumerate(line) if ch in c.token_chars]
        if kept and len({line[i] for i in kept}) == 1:
            return offset + kept[0], offset + kept[-1] + 1, line[kept[0]]
    return None


def _last_char(
    step: ChoiceStep, pats: tuple[re.Pattern[str], ...], norm: str, lines: Lines, c: _Compiled
) -> Hit:
    for i in range(len(norm) - 1, -1, -1):
        if norm[i] in c.token_chars:
            return i, i + 1, norm[i]
    return None


_STEP_RUNNERS = {
    "trigger-lines": _trigger_lines,
    "regex": _regex,
    "window": _window,
    "tail-repeat": _tail_repeat,
    "last-char": _last_char,
    "guard": read_guard,  # choice/v9
    "last-resort": read_last_resort,  # choice/v9
    "correction": read_correction,  # choice/v10
    "plain-answer": read_plain,  # choice/v10
}
# choice/v12: the label-shape readers on the text with its non-labels blanked (`precise`)
_PRECISE_RUNNERS = {
    "correction": precise(read_correction, lazy=True),  # (it runs on every text)
    "last-resort": precise(read_last_resort),
    "plain-answer": precise(read_plain),
}
