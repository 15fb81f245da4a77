"""Real inspect_ai logs, written by running tiny tasks with inspect's mock model, offline.

Every mock output carries a `usage`, so the mock model never counts tokens with tiktoken
(which would download an encoding); `display="none"` and a temporary log folder keep the run
quiet and contained. Tests call `isolate` first so nothing lands in the home folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Scorer, choice, includes, match
from inspect_ai.solver import Solver, generate, multiple_choice
from inspect_ai.tool import ToolChoice, ToolInfo

# Multiple choice: options, target letter, what the model answered.
MC = [
    ("Which gas do plants take in for photosynthesis?",
     ["Oxygen", "Carbon dioxide", "Nitrogen", "Helium"], "B",
     "Plants take in carbon dioxide and release oxygen.\n\nANSWER: B"),
    ("What is the boiling point of water at sea level?",
     ["50 °C", "75 °C", "100 °C", "150 °C"], "C",
     "Water boils at 100 °C at sea level, so the answer is (C)."),
    ("Which organ pumps blood through the body?",
     ["Lungs", "Heart", "Liver", "Kidneys"], "B",
     "ANSWER: A\n\nWait, the lungs exchange gas; the heart pumps blood. Final answer: B"),
    ("How many legs does a spider have?", ["6", "8", "10", "12"], "B",
     "Spiders are arachnids with eight legs.\n\nANSWER: B"),
    ("Which planet is closest to the Sun?", ["Venus", "Earth", "Mercury", "Mars"], "C",
     "**Answer: C** (Mercury)"),
    ("What do bees make?", ["Milk", "Silk", "Wax and honey", "Wool"], "C",
     "ANSWER: D"),
]  # fmt: skip

# Free-form arithmetic: question, target, what the model answered.
ARITH = [
    ("What is 17 + 25?", "42", "17 + 25 = 42."),
    ("What is 9 * 8?", "72", "9 * 8 = 72"),
    ("What is 100 - 37?", "63", "The result is 63, not 73."),
    ("What is 144 / 12?", "12", "144 / 12 = 12.0"),
]


def isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """inspect's log, data and cache folders under tmp_path; returns the log folder."""
    logs = tmp_path / "logs"
    monkeypatch.setenv("INSPECT_LOG_DIR", str(logs))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    return logs


def mock_output(text: str) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm/model", content=text)
    output.usage = ModelUsage(input_tokens=20, output_tokens=10, total_tokens=30)
    return output


# What the mock model accepts as `custom_outputs`: a function from the generate call to one output.
Respond = Callable[[list[ChatMessage], list[ToolInfo], ToolChoice, GenerateConfig], ModelOutput]


def answering(completions: dict[str, str]) -> Respond:
    """A mock-model callable: the completion of the question found in the last message.

    Samples (and epochs) may run in any order, so outputs go by question, not by position.
    """

    def respond(
        messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:  # fmt: skip
        prompt = messages[-1].text
        found = [answer for question, answer in completions.items() if question in prompt]
        assert len(found) == 1, f"no single mock completion for {prompt!r}"
        return mock_output(found[0])

    return respond


def run_task(
    log_dir: Path,
    samples: Sequence[Sample],
    completions: dict[str, str],
    scorer: Scorer | list[Scorer],
    *,
    solver: Solver | None = None,
    epochs: int = 1,
    name: str = "quiz",
    log_format: Literal["eval", "json"] = "eval",
) -> Path:
    """Run the task with the mock model answering each question from `completions`."""
    task = Task(dataset=list(samples), solver=solver or generate(), scorer=scorer, name=name)
    model = get_model("mockllm/model", custom_outputs=answering(completions))
    logs = eval(task, model=model, epochs=epochs, display="none", log_dir=str(log_dir),
                log_format=log_format)  # fmt: skip
    assert logs[0].status == "success", logs[0].error
    return Path(logs[0].location)


def mc_samples() -> list[Sample]:
    return [Sample(input=q, choices=options, target=t, id=f"mc{i}")
            for i, (q, options, t, _) in enumerate(MC)]  # fmt: skip


def run_mc(log_dir: Path, scorer: Scorer | list[Scorer] | None = None, **kwargs: Any) -> Path:
    """The multiple-choice task, scored by inspect's `choice()` unless told otherwise."""
    return run_task(log_dir, mc_samples(), {m[0]: m[3] for m in MC}, scorer or choice(),
                    solver=multiple_choice(), name="science_mc", **kwargs)  # fmt: skip


def run_arith(log_dir: Path, *, epochs: int = 1, **kwargs: Any) -> Path:
    """The arithmetic task with two scorers, `match(numeric=True)` and `includes()`."""
    samples = [Sample(input=q, target=t, id=f"a{i}") for i, (q, t, _) in enumerate(ARITH)]
    completions = {q: a for q, _, a in ARITH}
    return run_task(log_dir, samples, completions, [match(numeric=True), includes()],
                    epochs=epochs, name="arith", **kwargs)  # fmt: skip
