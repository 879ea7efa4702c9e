"""Progress reporting (issue 14): what a terminal, a notebook and a log see of a long job.

Tooling, no behaviour rule. A fake clock drives the bars, a fake status tracker stands for
Spark's, so nothing here needs a terminal, a kernel or a JVM.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from mqlearn.pipeline.progress_bar import (
    Progress,
    SparkStages,
    TerminalBar,
    WidgetBar,
    reporter,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_terminal_bar_shows_count_rate_and_eta_in_place() -> None:
    stream, clock = io.StringIO(), Clock()
    bar = TerminalBar(stream, clock=clock, every_s=0.5)
    bar.start("replay", 1_000_000)
    clock.now += 2
    bar.update(400_000)
    clock.now += 0.1
    bar.update(450_000)  # within every_s of the last drawing: not drawn
    clock.now += 0.5
    bar.update(500_000)
    bar.finish()
    lines = stream.getvalue().split("\r")[1:]
    assert len(lines) == 4  # start, 400k, 500k, finish
    assert lines[1].startswith("[##########..............] replay  400,000/1.00M rows  40%")
    assert "200,000 rows/s  ETA 0:00:03" in lines[1]
    assert "192,308 rows/s" in lines[2] and "ETA 0:00:03" in lines[2]
    assert lines[3].endswith("\n") and "50%" in lines[3]


def test_terminal_bar_without_a_total_shows_count_and_rate() -> None:
    stream, clock = io.StringIO(), Clock()
    bar = TerminalBar(stream, clock=clock, every_s=0)
    bar.start("index", None)
    clock.now += 4
    bar.update(6_000_000)
    assert stream.getvalue().split("\r")[-1].strip() == "index  6.00M rows  1.50M rows/s"


def test_reporter_is_silent_when_stderr_is_not_a_terminal() -> None:
    chosen = reporter(io.StringIO())
    assert type(chosen) is Progress


def test_widget_bar_follows_the_task() -> None:
    clock = Clock()
    bar = WidgetBar(clock=clock, every_s=0)
    bar.start("replay", 200)
    clock.now += 1
    bar.update(50)
    assert (bar.bar.max, bar.bar.value) == (200, 50)
    assert bar.label.value.startswith("replay  50/200 rows  25%  50 rows/s")
    bar.finish()
    assert bar.bar.bar_style == "success"


@dataclass
class Stage:
    numTasks: int
    numCompletedTasks: int


class Tracker:
    """Answers like ``SparkContext.statusTracker()`` from a dict of stages."""

    def __init__(self) -> None:
        self.stages: dict[int, Stage] = {}

    def getActiveStageIds(self) -> list[int]:
        return list(self.stages)

    def getStageInfo(self, stage_id: int) -> Stage | None:
        return self.stages.get(stage_id)


class Recorder(Progress):
    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def start(self, task: str, total: int | None, unit: str = "rows") -> None:
        self.events.append(("start", task, total, unit))

    def update(self, done: int) -> None:
        self.events.append(("update", done))

    def finish(self) -> None:
        self.events.append(("finish",))


def test_spark_stages_are_reported_as_tasks() -> None:
    """Stages running together are one task counted in Spark tasks; the next set of stages
    starts a new one; leaving the block finishes the last."""
    tracker, recorder = Tracker(), Recorder()
    stages = SparkStages(tracker, recorder, interval_s=3600)  # polled by hand below
    with stages:
        stages.poll()  # nothing running yet
        tracker.stages = {3: Stage(10, 2), 4: Stage(6, 0)}
        stages.poll()
        tracker.stages[4] = Stage(6, 6)
        stages.poll()
        tracker.stages = {5: Stage(4, 1)}
        stages.poll()
    assert recorder.events == [
        ("start", "Spark stages 3, 4", 16, "tasks"),
        ("update", 2),
        ("update", 8),
        ("finish",),
        ("start", "Spark stage 5", 4, "tasks"),
        ("update", 1),
        ("finish",),
    ]
