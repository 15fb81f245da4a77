"""lm-evaluation-harness `--log_samples` files, written the way the harness writes them.

The line layout follows lm-eval's evaluator (`doc_id, doc, target, arguments, resps,
filtered_resps, filter, metrics, doc_hash, prompt_hash, target_hash`, then each metric) and
EvaluationTracker.save_results_samples (arguments as `{"gen_args_0": {"arg_0": ...}}`, resps
and filtered_resps through `sanitize_list`: every leaf a string, tuples as lists), one file per
task named `samples_<task>_<date_id>.jsonl`, all documents of one filter before the next.

The gsm8k-like task applies the harness's two GSM8K filters (strict-match: `#### N`, and
flexible-extract: the last number) and its exact_match (ignore case, strip "," "$" "(?s).*#### "
and a final "."), computed here exactly as the harness does, so labels are what lm-eval would
have stored. The arc-like task is a loglikelihood (multiple-choice) task: no generated text.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

DATE_ID = "2025-01-15T10-31-07.512893"
STRICT = re.compile(r"#### (\-?[0-9\.\,]+)")
FLEXIBLE = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")
IGNORE = (",", r"\$", r"(?s).*#### ", r"\.$")
UNTIL = {"until": ["Question:", "</s>", "<|im_end|>"], "do_sample": False, "temperature": 0.0}

# (question, solution with "#### answer", model response)
GSM8K = [
    (
        "A baker makes 16 muffins, eats 3 and gives 4 away. She sells the rest for $2 each. "
        "How much does she earn?",
        "She has 16 - 3 - 4 = <<16-3-4=9>>9 muffins left.\nShe earns 9 * 2 = $<<9*2=18>>18.\n#### 18",
        "She has 16 - 3 - 4 = 9 muffins left. She sells them for $2 each: 9 * 2 = $18.\n#### 18",
    ),
    (
        "A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in "
        "total?",
        "White fiber: 2 / 2 = <<2/2=1>>1 bolt.\nTotal: 2 + 1 = <<2+1=3>>3 bolts.\n#### 3",
        "It takes 2 / 2 = 1 bolt of white fiber, so 2 + 1 = 3 bolts in total.\nThe answer is 3.",
    ),
    (
        "A house bought for $80,000 gets $50,000 of repairs and its value rises by 150%. What "
        "is the profit?",
        "Cost: 80,000 + 50,000 = $<<80000+50000=130000>>130,000.\nValue: 80,000 * 2.5 = "
        "<<80000*2.5=200000>>200,000.\nProfit: 200,000 - 130,000 = <<200000-130000=70000>>70,000."
        "\n#### 70000",
        "The cost was 80,000 + 50,000 = 130,000. The new value is 80,000 * 2.5 = 200,000.\n"
        "Profit = 200,000 - 130,000 = 70,000\n#### 70,000",
    ),
    (
        "A farmer feeds 20 hens 3 cups each per day: 15 cups in the morning, 25 in the "
        "afternoon. How many cups in the evening?",
        "Daily: 20 * 3 = <<20*3=60>>60 cups.\nEvening: 60 - 15 - 25 = <<60-15-25=20>>20 cups.\n"
        "#### 20",
        "She needs 20 * 3 = 60 cups a day and has given 15 + 25 = 40, so 60 - 40 = 20 cups.\n"
        "#### 20\nThat is about 1 cup for each hen.",
    ),
    (
        "Glasses cost $5; every second glass costs 60% of that. What do 16 glasses cost?",
        "Discounted: 5 * 0.6 = $<<5*0.6=3>>3.\nTotal: 8 * 5 + 8 * 3 = <<8*5+8*3=64>>64.\n#### 64",
        "Every second glass costs 5 * 0.6 = $3. So 8 * 5 + 8 * 3 = 40 + 24 = $64.\n#### 64",
    ),
    (
        "Town A has 20 sheep, town B four times as many, town C twice as many as B. How many "
        "sheep in all?",
        "B: 4 * 20 = <<4*20=80>>80.\nC: 2 * 80 = <<2*80=160>>160.\nAll: 20 + 80 + 160 = "
        "<<20+80+160=260>>260.\n#### 260",
        "B has 4 * 20 = 80 sheep and C has 2 * 80 = 160. Together 20 + 80 + 160 = 260.\n"
        "Answer: 260",
    ),
    (
        "A 200 GB download runs at 2 GB per minute; at 40% it restarts after a 20 minute "
        "update. How long does it take?",
        "40% is 80 GB: 80 / 2 = <<80/2=40>>40 minutes.\nRestart: 200 / 2 = <<200/2=100>>100 "
        "minutes.\nTotal: 40 + 20 + 100 = <<40+20+100=160>>160.\n#### 160",
        "80 GB takes 80 / 2 = 40 minutes, then 20 minutes of updates, then 100 / 2 = 50 "
        "minutes.\n#### 110",
    ),
    (
        "A course costs $1,000 plus $200 of books. What is the total?",
        "Total: 1000 + 200 = $<<1000+200=1200>>1200.\n#### 1200",
        "The course and the books cost 1,000 + 200 = $1,200 in total.\n#### $1,200",
    ),
    (
        "Five friends share 25 apples equally. How many does each get?",
        "Each: 25 / 5 = <<25/5=5>>5.\n#### 5",
        "Each friend gets 25 / 5 = \\boxed{5} apples.",
    ),
    (
        "A train travels 60 km per hour for 3 hours. How far does it go?",
        "Distance: 60 * 3 = <<60*3=180>>180 km.\n#### 180",
        "It travels 60 * 3 = 180 km.\n#### 180",
    ),
]

ARC = [
    ("Which gas do plants absorb from the air?", ["Oxygen", "Carbon dioxide", "Helium"], 1),
    ("What is the boiling point of water at sea level?", ["50 C", "100 C", "150 C", "0 C"], 1),
    ("Which organ pumps blood?", ["Lungs", "Liver", "Heart", "Kidney"], 2),
]


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _strict(response: str) -> str:
    found = STRICT.findall(response)
    return found[0].strip() if found else "[invalid]"


def _flexible(response: str) -> str:
    found = FLEXIBLE.findall(response)
    if not found:
        return "[invalid]"
    last: tuple[str, ...] = found[-1]  # FLEXIBLE has groups, so findall gives tuples of str
    return next(m for m in last if m).strip()


def exact_match(prediction: str, target: str) -> float:
    """The harness's exact_match with GSM8K's options (ignore_case, regexes_to_ignore)."""
    for pattern in IGNORE:
        prediction, target = re.sub(pattern, "", prediction), re.sub(pattern, "", target)
    return float(prediction.lower() == target.lower())


def gsm8k_lines() -> list[dict[str, Any]]:
    """All documents under strict-match, then all under flexible-extract."""
    lines = []
    for name, extract in (("strict-match", _strict), ("flexible-extract", _flexible)):
        for doc_id, (question, answer, response) in enumerate(GSM8K):
            prompt = f"Question: {question}\nAnswer:"
            filtered = extract(response)
            lines.append(
                {
                    "doc_id": doc_id,
                    "doc": {"question": question, "answer": answer},
                    "target": answer,
                    "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": UNTIL}},
                    "resps": [[response]],
                    "filtered_resps": [filtered],
                    "filter": name,
                    "metrics": ["exact_match"],
                    "doc_hash": _hash(
                        json.dumps({"question": question, "answer": answer}, indent=2)
                    ),
                    "prompt_hash": _hash(prompt),
                    "target_hash": _hash(answer),
                    "exact_match": exact_match(filtered, answer),
                }
            )
    return lines


def arc_lines() -> list[dict[str, Any]]:
    """One loglikelihood request per option: resps [[[logprob, is_greedy]], ...]."""
    lines = []
    for doc_id, (question, options, answer) in enumerate(ARC):
        prompt = f"Question: {question}\nAnswer:"
        scores = [-4.0 - i * 1.5 for i in range(len(options))]
        scores[answer] = -1.25
        if doc_id == 2:
            scores[0] = -0.5  # the model prefers a wrong option here
        pairs = [[str(s), "False"] for s in scores]
        best = max(range(len(scores)), key=scores.__getitem__)
        lengths = [len(" " + o) for o in options]
        best_norm = max(range(len(scores)), key=lambda i: scores[i] / lengths[i])
        labels = [chr(ord("A") + i) for i in range(len(options))]
        doc = {"id": f"arc-{doc_id}", "question": question,
               "choices": {"text": options, "label": labels}, "answerKey": labels[answer]}  # fmt: skip
        lines.append(
            {
                "doc_id": doc_id,
                "doc": doc,
                "target": str(answer),  # lm-eval 0.4.13 writes the rendered index as text
                "arguments": {
                    f"gen_args_{i}": {"arg_0": prompt, "arg_1": " " + o}
                    for i, o in enumerate(options)
                },
                "resps": [[pair] for pair in pairs],
                "filtered_resps": pairs,
                "filter": "none",
                "metrics": ["acc", "acc_norm"],
                "doc_hash": _hash(json.dumps(doc, indent=2)),
                "prompt_hash": _hash(prompt),
                "target_hash": _hash(str(answer)),
                "acc": float(best == answer),
                "acc_norm": float(best_norm == answer),
            }
        )
    return lines


def write_samples(folder: Path, task: str, lines: list[dict[str, Any]]) -> Path:
    """``folder/samples_<task>_<DATE_ID>.jsonl``, one JSON object per line."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_{DATE_ID}.jsonl"
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    path.write_text(text, encoding="utf-8")
    return path


def write_run(folder: Path) -> tuple[Path, Path]:
    """A model's output folder with a gsm8k-like and an arc-like samples file."""
    return write_samples(folder, "gsm8k", gsm8k_lines()), write_samples(
        folder, "arc_easy", arc_lines()
    )
