"""A small Inspect AI evaluation run offline, for the importer's tests: Inspect's own mock
model (``mockllm``) answers arithmetic questions for two "models", several epochs, one
sample failing with an error in one epoch. Each mock output carries its ``ModelUsage``:
without it mockllm counts tokens with tiktoken, which downloads an encoding (offline, it
fails)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Score, Target, match, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, generate, solver

QUESTIONS = 5
EPOCHS = 3
#: Each model's answers, in the order the samples run (one at a time: sample by sample,
#: epoch by epoch), cycled.
ANSWERS = {"alpha": ["2", "4", "7", "8", "10", "3"], "beta": ["2", "5", "6", "9", "1"]}
#: The sample and epoch whose solver raises (an evaluation-incomplete run, never a 0).
FAILING = ("q3", 2)


def _outputs(name: str, answers: list[str], calls: int) -> list[ModelOutput]:
    out = []
    for i in range(calls):
        output = ModelOutput.from_content(model=name, content=answers[i % len(answers)])
        output.usage = ModelUsage(input_tokens=20 + i, output_tokens=2, total_tokens=22 + i)
        out.append(output)
    return out


@solver
def flaky() -> Any:
    """Fail on one sample's one epoch, as a lost sandbox would; else pass the state on."""

    async def solve(state: TaskState, generate_: Generate) -> TaskState:
        if (state.sample_id, state.epoch) == FAILING:
            raise RuntimeError("the sandbox went away")
        return state

    return solve


@scorer(metrics=[mean(), stderr()])
def closeness() -> Any:
    """A numeric score: 1 / (1 + |answer - target|)."""

    async def score(state: TaskState, target: Target) -> Score:
        try:
            gap = abs(float(state.output.completion) - float(target.text))
        except ValueError:
            gap = 99.0
        return Score(value=1 / (1 + gap), answer=state.output.completion)

    return score


def run_eval(log_dir: Path) -> list[Any]:
    """Run the evaluation into ``log_dir``; its logs, one per model."""
    samples = [
        Sample(id=f"q{i}", input=f"What is {i} + {i}?", target=str(2 * i))
        for i in range(1, QUESTIONS + 1)
    ]
    task = Task(
        dataset=samples, solver=[flaky(), generate()], scorer=[match(), closeness()], name="arith"
    )
    calls = QUESTIONS * EPOCHS
    models = [
        get_model(f"mockllm/{name}", custom_outputs=_outputs(name, answers, calls))
        for name, answers in ANSWERS.items()
    ]
    return list(
        inspect_eval(
            task,
            model=models,
            epochs=EPOCHS,
            log_dir=str(log_dir),
            display="none",
            max_samples=1,
            fail_on_error=False,
            log_format="eval",
        )
    )
