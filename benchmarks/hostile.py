"""Hostile inputs up to 1 MB through every built-in preset (and the matcher): seconds per MB.

    python benchmarks/hostile.py [--json FILE] [--timeout 60] [--preset NAME ...] [--shape NAME ...]

Each shape is built at 1/64, 1/16, 1/4 and 1 MB (UTF-8 bytes; MB = 2**20). Each measurement is
the best of 3 runs (CPU seconds) in a forked child that is killed after ``--timeout`` seconds
(wall time). Reported per
preset and shape: seconds per MB at 1 MB, and ``ratio`` = time(1 MB) / time(0.25 MB), which is ~4
for linear work. Flagged superlinear: a 4x larger size took more than 8x as long (above 0.02 s),
or the size that timed out ran far past 4x the size before it. Target: < 0.2 s/MB everywhere. Exit code 1 when a
target is missed and ``--strict`` is given.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from multiprocessing.connection import Connection
from typing import Any

from answer_audit import extract, is_correct, list_parsers
from answer_audit.matching import NORMALIZERS
from answer_audit.parsers.presets.recommended import RECOMMENDED

MB = 1 << 20
SIZES = (MB // 64, MB // 16, MB // 4, MB)  # smaller sizes catch superlinear work that times out
TARGET_S_PER_MB = 0.2
SUPERLINEAR_RATIO = 8.0
NOISE_FLOOR_S = 0.02  # below this at 1 MB a ratio is cache and timer noise, not a trend
REPEATS = 3


def repeat_to(unit: str, nbytes: int) -> str:
    """``unit`` repeated to exactly ``nbytes`` UTF-8 bytes (a cut multibyte char is dropped)."""
    count = nbytes // len(unit.encode()) + 1
    return (unit * count).encode()[:nbytes].decode("utf-8", errors="ignore")


SHAPES: dict[str, Callable[[int], str]] = {
    "braces": lambda n: repeat_to("{", n),
    "json-key": lambda n: repeat_to('{"a":', n),
    "short-lines": lambda n: repeat_to("ab cd 12\n", n),  # ~116,000 lines at 1 MB
    "one-line": lambda n: repeat_to("lorem ipsum dolor sit amet ", n),
    "think-roles": lambda n: repeat_to("ok</think>\nUSER: hi\nASSISTANT: yes\n", n),
    "a-b-c-d": lambda n: repeat_to("a b c d ", n),
    "answer-colon": lambda n: repeat_to("Answer: ", n),
    "japanese": lambda n: repeat_to(
        "これは長い日本語の説明です。理由を述べます。\n回答：わかりません\n", n
    ),
    # Extra shapes: NFKC changes every character, so offset maps take their slow path.
    "fullwidth": lambda n: repeat_to("Ａｎｓｗｅｒ：Ｂ ", n),
    "combining": lambda n: repeat_to("e\u0301", n),
    # A restated question, then ~116,000 question lines (each used to re-read all before it).
    "questions": lambda n: "Let's look at your question:\n" + repeat_to("q: why 1\n", n - 29),
    # One answer trigger, then a long run of the marks that may stand between it and a choice
    # (its old pattern backtracked exponentially: 40 stars after "answer" took a minute).
    "answer-marks": lambda n: "answer" + repeat_to('*"$_ “', n - 6),
    # Option texts over and over (`choice/v4 +options` matches them; the overlap check was
    # quadratic in the hits).
    "option-words": lambda n: repeat_to("paris rome ", n),
    # JSON objects that fail a few characters in, over and over (each failed decode used to
    # count the lines of the whole text before it), and the same in the forms only the
    # tolerant reader (json/.../v2) reads: unquoted keys, single quotes, an unclosed comment.
    "json-members": lambda n: repeat_to('{"a":1,', n),
    "json5-members": lambda n: repeat_to("{a:1,", n),
    "json5-quotes": lambda n: repeat_to("{'a':'b',", n),
    "json5-comment": lambda n: repeat_to("{/*", n),
    # One object the tolerant reader reads to the end: a token every character.
    "json5-array": lambda n: "{a:[" + repeat_to("1,", n - 4),
    # Floods of valid-looking numeric answers: numbers on one line and one per line, answer
    # lines (the same value, and two values cycling), boxes, sums, numbers whose separators
    # need the text's convention, LaTeX fractions, and a prompt echoed over and over.
    "numbers": lambda n: repeat_to("12 ", n),
    "number-lines": lambda n: repeat_to("7\n", n),
    "answer-lines": lambda n: repeat_to("The answer is 5.\n", n),
    "answer-cycle": lambda n: repeat_to("The answer is 3.\nThe answer is 4.\n", n),
    "boxes": lambda n: repeat_to("\\boxed{5} ", n),
    "sums": lambda n: repeat_to("3 + 4 = 7, ", n),
    "separators": lambda n: repeat_to("Antwort: 1.500 und 2,500 ", n),
    "latex-fractions": lambda n: repeat_to("\\frac{1}{2} ", n),
    "prompt-echo": lambda n: repeat_to(
        "Question: What is 6 × 7?\nAnswer: Let's think step by step.\n", n
    ),
    # Floods of valid-looking multiple-choice answers: a letter per line, the options' letters
    # cycling one per line, an answer line repeated, answer lines cycling, a prompt echoed.
    "letter-lines": lambda n: repeat_to("B\n", n),
    "option-lines": lambda n: repeat_to("a\nb\nc\nd\n", n),
    "choice-answer-lines": lambda n: repeat_to("Answer: B\n", n),
    "choice-answer-cycle": lambda n: repeat_to("The answer is (A).\nThe answer is (B).\n", n),
    "choice-prompt-echo": lambda n: repeat_to(
        "Question: Which gas is most of the air?\nA. Oxygen\nB. Nitrogen\nC. Argon\nD. Neon\n"
        "Answer:",
        n,
    ),
    # a label looping after a short preamble: every label of one sentence read (choice/v10's
    # plain answers once reread the sentence for each)
    "choice-label-loop": lambda n: "Let me think. " + repeat_to("(C) C- ", n - 14),
    # The matchers' truth "8" mentioned in every clause and never asserted (negated, one side
    # of an alternative: each mention is read), a reasoning block never closed (freeform/v4
    # reads it as the answer), and the chat roles freeform/v4 added, over and over.
    "mentions-negated": lambda n: repeat_to("not 8, ", n),
    "mentions-or": lambda n: repeat_to("8 or 9 ", n),
    "open-trace": lambda n: "<think>" + repeat_to("hmm, maybe 8? no wait\n", n - 7),
    "more-roles": lambda n: repeat_to("ok\nH: hi\nStudent: x\n用户：y\n", n),
    # What number/v4 reads: number words after answer words (and one compound word that never
    # ends), code blocks with an answer prefix inside, answers in parts, ConvFinQA programs,
    # follow-up question headers, and an answer word with a parenthesis.
    "number-words": lambda n: repeat_to("Antwort: dreiundzwanzig quatre-vingt-dix-sept ", n),
    "word-compound": lambda n: "Die Antwort lautet " + repeat_to("achtzehn", n - 19),
    "code-fences": lambda n: repeat_to("```python\nans = price * 2\n```\n```output\n8\n```\n", n),
    "answer-parts": lambda n: repeat_to("Answer: a) 1  b) 2\n", n),
    "programs": lambda n: repeat_to("subtract(2460, 2115), divide(#0, 2115) = 0.16 ", n),
    "follow-ups": lambda n: repeat_to("## Follow-up question 1\n12 x 11 = 132\n", n),
    "answer-parentheses": lambda n: repeat_to("the answer (arabic numerals) is (", n),
    # Floods of dates for a date truth (`DATE_TRUTH`, read by the date jobs): its day without
    # its year, another day in ISO form, its day first, a span of days that holds it (in its
    # year and month), and the truth itself negated in every clause (each mention is read).
    "date-flood": lambda n: repeat_to("may 5 ", n),
    "iso-dates": lambda n: repeat_to("2020-01-01 ", n),
    "day-of-month": lambda n: repeat_to("5th of may ", n),
    "date-ranges": lambda n: repeat_to("may 5-6, 2020 ", n),
    "dates-negated": lambda n: repeat_to("not 05/05/2020, ", n),
}
OPTIONS = ["paris", "rome", "berlin", "madrid"]
DATE_TRUTH = "May 5, 2020"


def _matcher(normalizer: str) -> Callable[[str], object]:
    # The audit matches every parse against the truth; a short truth takes the boundary regex.
    return lambda text: is_correct(text, "8", normalizer)


def workloads() -> dict[str, Callable[[str], object]]:
    """Every built-in preset, plus each matcher on a whole text (as the audit calls them)."""
    jobs: dict[str, Callable[[str], object]] = {
        name: (lambda text, name=name: extract(text, name)) for name in list_parsers()
    }
    jobs["choice/v4 +options"] = lambda text: extract(text, "choice/v4", choices_text=OPTIONS)
    jobs.update({f"is_correct/{n}": _matcher(n) for n in NORMALIZERS})
    # v5 reads a date truth its own way; and the recommended free-form scheme end to end
    jobs["is_correct/v5 date"] = lambda text: is_correct(text, DATE_TRUTH, "v5")
    freeform = RECOMMENDED["freeform"]
    jobs[f"{freeform.preset}+{freeform.matcher} date"] = _recommended_freeform
    return jobs


def _recommended_freeform(text: str) -> object:
    freeform = RECOMMENDED["freeform"]
    value = extract(text, freeform.preset).value
    return is_correct(None if value is None else str(value), DATE_TRUTH, freeform.matcher)


def best_time(fn: Callable[[str], object], text: str, repeats: int = REPEATS) -> float:
    """The best of ``repeats`` runs, in CPU seconds of this process: on a shared machine
    (other processes wanting the same cores) wall time would time them too."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        fn(text)
        best = min(best, time.process_time() - started)
    return best


def _child(conn: Connection, job: str, shape: str) -> None:
    fn = workloads()[job]
    for size in SIZES:
        conn.send((size, best_time(fn, SHAPES[shape](size))))
    conn.close()


def measure(job: str, shape: str, timeout: float) -> dict[str, Any]:
    """Times at each size in a forked child, and how long an unfinished size had run."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, job, shape), daemon=True)
    proc.start()
    child.close()
    times: dict[int, float] = {}
    last = started = time.monotonic()
    deadline = started + timeout
    while len(times) < len(SIZES):
        left = deadline - time.monotonic()
        if left <= 0 or not parent.poll(left):
            break
        try:
            size, seconds = parent.recv()
        except EOFError:  # the child died (e.g. RecursionError killed it)
            break
        times[size], last = seconds, time.monotonic()
    if proc.is_alive():
        proc.kill()
    proc.join()
    return _verdict(job, shape, times, timeout, unfinished_for=time.monotonic() - last)


def _verdict(
    job: str, shape: str, times: dict[int, float], timeout: float, unfinished_for: float
) -> dict[str, Any]:
    quarter, full = times.get(SIZES[-2]), times.get(SIZES[-1])
    row: dict[str, Any] = {"job": job, "shape": shape, "t_quarter": quarter, "t_full": full}
    row["times"] = {str(size): t for size, t in times.items()}
    if full is None:
        # 1 MB did not finish within the timeout: at least timeout / 3 runs per MB. It is
        # superlinear when the size that did not finish ran well past 4x the size before it.
        done = [times[size] for size in SIZES if size in times]
        expected = REPEATS * 4 * done[-1] if done else None
        row.update(s_per_mb=None, at_least=timeout / REPEATS, ratio=None, slow=True)
        late = expected is not None and unfinished_for > 2 * expected + 1
        row["superlinear"] = late or _grows_superlinearly(times)
        return row
    ratio = full / quarter if quarter else None
    row.update(s_per_mb=full * MB / SIZES[-1], ratio=ratio)
    row["slow"] = row["s_per_mb"] >= TARGET_S_PER_MB
    row["superlinear"] = _grows_superlinearly(times)
    return row


def _grows_superlinearly(times: dict[int, float]) -> bool:
    """Some 4x larger input took more than 8x as long (above the noise floor)."""
    done = [times[size] for size in SIZES if size in times]
    return any(b > SUPERLINEAR_RATIO * a and b >= NOISE_FLOOR_S for a, b in pairwise(done))


def cell(row: dict[str, Any]) -> str:
    at_least = row["s_per_mb"] is None  # 1 MB did not finish before the timeout
    text = f">{row['at_least']:.0f}" if at_least else f"{row['s_per_mb']:.3f}"
    return text + ("!" if row["slow"] else "") + ("^" if row["superlinear"] else "")


def ratio_cell(row: dict[str, Any]) -> str:
    return "-" if row["ratio"] is None else f"{row['ratio']:.1f}"


def render(results: list[dict[str, Any]], jobs: list[str], shapes: list[str]) -> str:
    by = {(r["job"], r["shape"]): r for r in results}
    name = max(len(j) for j in jobs) + 1
    width = max(8, *(len(s) + 1 for s in shapes))
    head = f"{'preset':<{name}}" + "".join(f"{s:>{width}}" for s in shapes)
    lines = [
        f"seconds per MB at 1 MB (! slower than {TARGET_S_PER_MB} s/MB, ^ superlinear)",
        head,
    ]
    for job in jobs:
        lines.append(f"{job:<{name}}" + "".join(f"{cell(by[(job, s)]):>{width}}" for s in shapes))
    lines += ["", f"time(1 MB) / time(0.25 MB): ~4 is linear, > {SUPERLINEAR_RATIO:g} superlinear "
              f"(a 4x step over 8x is flagged ^ when above {NOISE_FLOOR_S} s)", head]  # fmt: skip
    for job in jobs:
        lines.append(
            f"{job:<{name}}" + "".join(f"{ratio_cell(by[(job, s)]):>{width}}" for s in shapes)
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="also write the results as JSON here")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per preset x shape")
    parser.add_argument("--preset", nargs="*", help="only these jobs (default: all)")
    parser.add_argument("--shape", nargs="*", help="only these shapes (default: all)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    jobs = args.preset or list(workloads())
    shapes = args.shape or list(SHAPES)
    results = []
    for shape in shapes:
        for job in jobs:
            results.append(measure(job, shape, args.timeout))
            row = results[-1]
            print(f"  {shape:<14} {job:<26} {cell(row)} x{ratio_cell(row)}", file=sys.stderr)
    print(render(results, jobs, shapes))
    slow = [f"{r['job']} on {r['shape']}" for r in results if r["slow"] or r["superlinear"]]
    verdict = "PASS" if not slow else f"FAIL ({len(slow)}): " + "; ".join(slow)
    print(f"\ntarget < {TARGET_S_PER_MB} s/MB and linear for every preset and shape: {verdict}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 1 if slow and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
