"""Progress of long jobs: a bar with rate and ETA on a terminal, a widget in a notebook.

A job reports to a :class:`Progress`: ``start(task, total, unit)``, ``update(done)`` as it goes,
``finish()``. The base class shows nothing (for output that is not a terminal, and the class a
test subclasses to capture what a job reports); :class:`TerminalBar` redraws one line in place,
:class:`WidgetBar` is an ipywidgets bar; :func:`reporter` picks one for where the code runs.
Spark jobs are polled (:class:`SparkStages`) and reported the same way, in tasks.

Times here are wall-clock (``time.monotonic``): this is the user's waiting time, not the
simulation's virtual time.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, Protocol


class Progress:
    """Receives a job's progress and shows nothing."""

    def start(self, task: str, total: int | None, unit: str = "rows") -> None:
        """A task begins: ``total`` units to do (None: unknown)."""

    def update(self, done: int) -> None:
        """``done`` units of the current task are done (a running total)."""

    def finish(self) -> None:
        """The current task is over."""


def _amount(value: float) -> str:
    """1234 -> 1,234; 1_234_567 -> 1.23M."""
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    return f"{value:,.0f}"


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"


class Tracking(Progress):
    """A reporter that keeps the current task, its count and its rate, and shows them in
    :meth:`text`; subclasses decide where, at most every ``every_s`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every_s: float = 0.1) -> None:
        self.clock = clock
        self.every_s = every_s
        self.task, self.unit = "", "rows"
        self.total: int | None = None
        self.done = 0
        self.started = self.shown = 0.0

    def start(self, task: str, total: int | None, unit: str = "rows") -> None:
        self.task, self.total, self.unit = task, total, unit
        self.done = 0
        self.started = self.clock()
        self.show()
        self.shown = self.started

    def update(self, done: int) -> None:
        self.done = done
        now = self.clock()
        if now - self.shown >= self.every_s:
            self.show()
            self.shown = now

    def finish(self) -> None:
        self.show()

    def fraction(self) -> float | None:
        """How much of the task is done, if its total is known."""
        return min(1.0, self.done / self.total) if self.total else None

    def text(self) -> str:
        """``task  520,000/1.00M rows  52%  1.20M rows/s  ETA 0:00:04`` (what is known)."""
        elapsed = self.clock() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        parts = [
            self.task,
            f"{_amount(self.done)}{f'/{_amount(self.total)}' if self.total else ''} {self.unit}",
        ]
        fraction = self.fraction()
        if fraction is not None:
            parts.append(f"{fraction:.0%}")
        if rate:
            parts.append(f"{_amount(rate)} {self.unit}/s")
            if self.total:
                parts.append(f"ETA {_duration(max(0, self.total - self.done) / rate)}")
        return "  ".join(parts)

    def show(self) -> None:
        """Draw the current state."""


class TerminalBar(Tracking):
    """One line on a terminal, redrawn in place (carriage return); a task's last state stays."""

    WIDTH = 24

    def __init__(self, stream: IO[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stream = stream
        self.drawn = 0

    def show(self) -> None:
        fraction = self.fraction()
        bar = ""
        if fraction is not None:
            filled = round(fraction * self.WIDTH)
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] "
        line = bar + self.text()
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = len(line)

    def finish(self) -> None:
        super().finish()
        self.stream.write("\n")
        self.stream.flush()
        self.drawn = 0


class WidgetBar(Tracking):
    """An ipywidgets progress bar with the same text beside it, for notebooks."""

    def __init__(self, **kwargs: Any) -> None:
        import ipywidgets as widgets
        from IPython.display import display

        super().__init__(**kwargs)
        self.bar = widgets.IntProgress(min=0, max=1, value=0)
        self.label = widgets.Label()
        display(widgets.HBox([self.bar, self.label]))

    def start(self, task: str, total: int | None, unit: str = "rows") -> None:
        self.bar.max = total or 1
        self.bar.bar_style = ""
        super().start(task, total, unit)

    def show(self) -> None:
        self.bar.value = min(self.done, self.bar.max) if self.total else 0
        self.label.value = self.text()

    def finish(self) -> None:
        super().finish()
        self.bar.bar_style = "success"


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where widgets display)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    ipython = shell.get_ipython()
    return ipython is not None and "IPKernelApp" in ipython.config


def reporter(stream: IO[str] | None = None) -> Progress:
    """A widget bar in a notebook, a terminal bar when ``stream`` (default stderr) is a terminal,
    else a reporter that shows nothing."""
    if _in_notebook():
        return WidgetBar()
    stream = sys.stderr if stream is None else stream
    return TerminalBar(stream) if stream.isatty() else Progress()


class StageInfo(Protocol):
    numTasks: int
    numCompletedTasks: int


class StatusTracker(Protocol):
    """What :class:`SparkStages` asks of ``SparkContext.statusTracker()``."""

    def getActiveStageIds(self) -> list[int]: ...

    def getStageInfo(self, stage_id: int) -> StageInfo | None: ...


class SparkStages:
    """Reports the running Spark stages to a :class:`Progress` while a block runs.

    A daemon thread polls the status tracker every ``interval_s`` seconds; the stages running
    together are one task (``stages 3, 4``) counted in Spark tasks, and a new set of stages
    starts a new one.
    """

    def __init__(self, tracker: StatusTracker, progress: Progress, interval_s: float = 0.5) -> None:
        self.tracker = tracker
        self.progress = progress
        self.interval_s = interval_s
        self.stages: tuple[int, ...] = ()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="mqlearn-progress", daemon=True)

    def __enter__(self) -> SparkStages:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop.set()
        self.thread.join()
        if self.stages:
            self.progress.finish()

    def _run(self) -> None:
        while not self.stop.wait(self.interval_s):
            self.poll()

    def poll(self) -> None:
        """Report the active stages once."""
        infos = {s: self.tracker.getStageInfo(s) for s in sorted(self.tracker.getActiveStageIds())}
        running = {s: info for s, info in infos.items() if info is not None}
        if not running:
            return
        stages = tuple(running)
        if stages != self.stages:
            if self.stages:
                self.progress.finish()
            self.stages = stages
            total = sum(info.numTasks for info in running.values())
            name = "stage" if len(stages) == 1 else "stages"
            self.progress.start(f"Spark {name} {', '.join(map(str, stages))}", total, "tasks")
        self.progress.update(sum(info.numCompletedTasks for info in running.values()))
