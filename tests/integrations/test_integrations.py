"""Our presets inside inspect_ai (a scorer) and lm-evaluation-harness (a filter).

The inspect tests run real tasks with inspect's mock model. lm-eval is not a test dependency
(see README): `PresetFilter` is tested against the filter contract lm-eval calls it with
(`partial(cls, **yaml_kwargs)().apply(resps, docs)`, inputs possibly lazy, output one list per
document); the last two tests run the real harness when it is installed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from answer_audit import extract
from answer_audit.integrations.lm_eval import PresetFilter
from answer_audit.parsers import PresetError
from answer_audit.sources import ColumnMap, load_files
from lm_eval_fixtures import GSM8K, exact_match, write_run

pytestmark = pytest.mark.filterwarnings(
    "ignore:The 'initial' parameter is deprecated:DeprecationWarning"
)

# ------------------------------------------------------------------ inspect_ai


@pytest.fixture
def inspect_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pytest.importorskip("inspect_ai")
    from inspect_fixtures import isolate

    return isolate(tmp_path, monkeypatch)


def test_preset_scorer_scores_and_records_rule_and_span(inspect_logs: Path) -> None:
    from inspect_ai.log import read_eval_log
    from inspect_ai.scorer import choice

    from answer_audit.integrations.inspect import preset_scorer
    from inspect_fixtures import MC, run_mc

    path = run_mc(inspect_logs, scorer=[choice(), preset_scorer("choice/v3")])
    log = read_eval_log(str(path))
    assert log.results is not None and log.samples is not None
    assert [s.name for s in log.results.scores] == ["choice", "preset_scorer"]
    scores = {s.id: s.scores["preset_scorer"] for s in log.samples if s.scores is not None}
    assert len(scores) == len(log.samples)  # every sample was scored
    second = scores["mc1"]  # "... so the answer is (C)."
    assert (second.value, second.answer) == ("C", "c")
    assert second.metadata is not None
    assert second.metadata["preset"] == "choice/v3"
    start, end = second.metadata["span"]
    assert MC[1][3][start:end].lower() == "c"
    expected = extract(MC[1][3], "choice/v3", choices="abcd", choices_text=MC[1][1])
    assert (second.metadata["rule"], tuple(second.metadata["span"])) == (
        expected.rule,
        expected.span,
    )
    assert [scores[f"mc{i}"].value for i in range(6)] == ["C", "C", "C", "C", "C", "I"]
    # accuracy is a metric of the scorer, as for inspect's own scorers
    metrics = log.results.scores[1].metrics
    assert metrics["accuracy"].value == pytest.approx(5 / 6)


def test_preset_scorer_logs_read_back_as_stored_parse_and_label(inspect_logs: Path) -> None:
    from answer_audit.integrations.inspect import preset_scorer
    from inspect_fixtures import run_mc

    path = run_mc(inspect_logs, scorer=preset_scorer("choice/v1"))
    loaded = load_files(path, ColumnMap())
    assert loaded.frame["parsed"].to_list() == ["b", "c", "a", "b", "c", "d"]
    assert loaded.frame["label"].to_list() == [True, True, False, True, True, False]


def test_preset_scorer_free_form_with_a_normalizer_and_several_targets(inspect_logs: Path) -> None:
    from inspect_ai.dataset import Sample

    from answer_audit.integrations.inspect import preset_scorer
    from inspect_fixtures import run_task

    samples = [
        Sample(input="Half of 7?", target=["three and a half", "3.5"], id="h"),
        Sample(input="Twice 21?", target="42", id="t"),
        Sample(input="Thrice 7?", target="21", id="x"),
    ]
    completions = {"Half of 7?": "It is 3.50.", "Twice 21?": "Answer: 42.0",
                   "Thrice 7?": "I get 24."}  # fmt: skip
    path = run_task(inspect_logs, samples, completions,
                    preset_scorer("number/v1", normalizer="numeric"))  # fmt: skip
    loaded = load_files(path, ColumnMap())
    labels = dict(zip(loaded.frame["id"], loaded.frame["label"], strict=True))
    assert labels == {"quiz:h:1": True, "quiz:t:1": True, "quiz:x:1": False}


def test_preset_scorer_refuses_unknown_presets_and_normalizers(inspect_logs: Path) -> None:
    from answer_audit.integrations.inspect import preset_scorer

    with pytest.raises(PresetError, match="no-such/v9"):
        preset_scorer("no-such/v9")
    with pytest.raises(ValueError, match="unknown normalizer 'v9'"):
        preset_scorer("freeform/v2", normalizer="v9")


# -------------------------------------------------------- lm-eval, the contract


def build(**yaml_kwargs: Any) -> Callable[[], PresetFilter]:
    """What lm-eval's build_filter_ensemble makes of a YAML filter step: a factory."""
    return partial(PresetFilter, **yaml_kwargs)


def take_first(resps: Iterable[Sequence[str]]) -> Iterable[str]:
    return (r[0] for r in resps)  # lm-eval's take_first returns a lazy map as well


def test_filter_replaces_each_response_keeping_shape_and_order() -> None:
    resps = [[response] for _, _, response in GSM8K]
    docs = [{"question": q, "answer": a} for q, a, _ in GSM8K]
    filtered = build(preset="number/v1")().apply(resps, docs)
    assert filtered == [["18"], ["3"], ["70000"], ["20"], ["64"], ["260"], ["110"], ["1200"],
                        ["5"], ["180"]]  # fmt: skip
    # scored as the GSM8K task's exact_match scores it: only the truly wrong answer fails
    scores = [exact_match(f, a) for f, (_, a, _) in zip(take_first(filtered), GSM8K, strict=True)]
    assert sum(scores) == 9


def test_filter_takes_lazy_inputs_and_several_responses_per_document() -> None:
    repeats = [("Answer: B", "I pick (c)", "no idea"), ("**D**", "ANSWER: A", "A")]
    lazy = map(list, repeats)  # what an earlier filter such as take_first_k hands on
    filtered = build(preset="choice/v3", case="upper")().apply(lazy, ({}, {}))
    assert filtered == [["B", "C", "[invalid]"], ["D", "A", "A"]]


def test_filter_reads_the_choice_set_and_texts_from_a_doc_field() -> None:
    doc = {"choices": {"text": ["Oxygen", "Carbon dioxide", "Helium", "Neon", "Argon"],
                       "label": ["A", "B", "C", "D", "E"]}}  # fmt: skip
    step = build(preset="choice/v4", choices_field="choices", case="upper", fallback="X")()
    assert step.apply([["The answer is E."], ["Carbon dioxide, clearly."], ["?"]], [doc] * 3) == [
        ["E"], ["B"], ["X"],
    ]  # fmt: skip
    # without the field the preset's own set (abcd) has no e
    assert build(preset="choice/v4", case="upper")().apply([["The answer is E."]], [doc]) == [
        ["[invalid]"]
    ]


def test_filter_refuses_bad_options_when_the_task_is_built() -> None:
    with pytest.raises(PresetError, match="no-such/v9"):
        build(preset="no-such/v9")()
    with pytest.raises(ValueError, match="case 'title'"):
        build(preset="choice/v3", case="title")()


def test_filter_without_docs_and_with_json_presets() -> None:
    outputs = [['{"isup_grade": 3}'], ['{"isup_grade": null} done'], ["nothing"]]
    assert PresetFilter("json/isup_grade").apply(outputs) == [["3"], ["0"], ["[invalid]"]]


# ------------------------------------------------ lm-eval itself, when installed


GSM_TASK = """\
task: mini_gsm
dataset_path: json
dataset_kwargs:
  cache_dir: {cache}
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_target: "{{{{answer}}}}"
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    ignore_punctuation: false
    regexes_to_ignore: [",", "\\\\$", "(?s).*#### ", "\\\\.$"]
generation_kwargs:
  until: ["Question:"]
  do_sample: false
filter_list:
  - name: strict-match
    filter:
      - function: regex
        regex_pattern: "#### (\\\\-?[0-9\\\\.\\\\,]+)"
      - function: take_first
  - name: number-v1
    filter:
      - function: !function answer_audit.integrations.lm_eval.PresetFilter
        preset: number/v1
      - function: take_first
"""


def test_lm_eval_runs_the_filter_from_a_task_yaml_and_we_read_its_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
                        "HF_HOME": str(tmp_path / "hf")}.items():  # fmt: skip
        monkeypatch.setenv(name, value)  # before the first import of datasets
    pytest.importorskip("lm_eval")
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    data = tmp_path / "gsm.jsonl"
    data.write_text("".join(json.dumps({"question": q, "answer": a}) + "\n" for q, a, _ in GSM8K))
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "mini_gsm.yaml").write_text(
        GSM_TASK.format(data=data, cache=tmp_path / "hf"), encoding="utf-8"
    )

    class Canned(LM):  # type: ignore[misc]  # lm_eval has no type hints: LM is Any
        def generate_until(self, requests: list[Any]) -> list[str]:
            return [next(r for q, _, r in GSM8K if q in req.args[0]) for req in requests]

        def loglikelihood(self, requests: list[Any]) -> list[tuple[float, bool]]:
            raise NotImplementedError

        def loglikelihood_rolling(self, requests: list[Any]) -> list[float]:
            raise NotImplementedError

    tracker = EvaluationTracker(output_path=str(tmp_path / "out"))
    manager = TaskManager(include_path=str(tasks), include_defaults=False)
    results = simple_evaluate(model=Canned(), tasks=["mini_gsm"], task_manager=manager,
                              evaluation_tracker=tracker, log_samples=True, bootstrap_iters=0)  # fmt: skip
    assert results is not None
    assert results["results"]["mini_gsm"]["exact_match,number-v1"] == pytest.approx(0.9)
    assert results["results"]["mini_gsm"]["exact_match,strict-match"] == pytest.approx(0.5)
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    tracker.save_results_samples(task_name="mini_gsm", samples=samples["mini_gsm"])

    written = sorted((tmp_path / "out").rglob("samples_mini_gsm_*.jsonl"))
    assert len(written) == 1
    loaded = load_files(written, ColumnMap())
    assert loaded.frame["filter"].unique(maintain_order=True).to_list() == [
        "strict-match",
        "number-v1",
    ]
    assert loaded.frame["truth"][0] == "18"
    assert any("strict-match vs number-v1 on 10 doc(s)" in n for n in loaded.notes)
    # the real file has the layout the hand-written fixtures imitate
    ours = json.loads(write_run(tmp_path / "fixture")[0].read_text().splitlines()[0])
    theirs = json.loads(written[0].read_text().splitlines()[0])
    assert list(theirs) == list(ours)


def test_lm_eval_builds_the_filter_with_build_filter_ensemble(tmp_path: Path) -> None:
    pytest.importorskip("lm_eval")
    from lm_eval.api.instance import Instance
    from lm_eval.filters import build_filter_ensemble

    ensemble = build_filter_ensemble(
        "choice-v3",
        [[PresetFilter, {"preset": "choice/v3", "case": "upper"}], ["take_first", None]],
    )
    instances = [
        Instance(
            "generate_until", {"q": i}, ("prompt", {}), idx=0, metadata=("t", i, 1), resps=[text]
        )
        for i, text in enumerate(["Answer: B", "I think (d).", "unsure"])
    ]
    ensemble.apply(instances)
    assert [inst.filtered_resps["choice-v3"] for inst in instances] == ["B", "D", "[invalid]"]
