"""Run a pymqi or ibmmq program unchanged on the simulated queue manager (``mqlearn run``).

:func:`run` runs a program file as ``python PROGRAM.py ARGS`` would (``__name__ == "__main__"``,
``sys.argv``, the program's directory first on ``sys.path``, its exit code) with ``import pymqi``
and ``import ibmmq`` answered by mqlearn's shims: for the run, ``sys.modules`` holds the shims
under the libraries' names (``pymqi``, ``pymqi.CMQC``, ``pymqi.CMQCFC``, ``pymqi.CMQXC``, the same
for ``ibmmq``, and pymqi 1.x's top-level ``CMQC``, ``CMQCFC`` and ``CMQXC``); afterwards what
was there before is put back. The shims are imported when a run starts, not when this module is
(``mqlearn --help`` and the other commands do not load them).

Before the program starts, the queue manager it will connect to is set up as the program's own
environment needs (its name, its listener's port, its server-connection channels, MQSC
commands) through the shims' registry (:mod:`mqlearn.compat.hosting`); :func:`event_log` prints
what happened on it afterwards. docs/compat.md, "Run it unchanged", is the user's guide.
"""

from __future__ import annotations

import builtins
import importlib.machinery
import os
import sys
import threading
import time
import traceback
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import SupportsIndex

from mqlearn.compat import hosting
from mqlearn.interop import mqsc

LIBRARIES = ("pymqi", "ibmmq")
# the submodules each library's package has and the shim holds (pymqi's CMQZC is not simulated;
# ibmmq's CMQSTRC is reached as ``ibmmq.CMQSTRC`` or ``from ibmmq import CMQSTRC``)
SUBMODULES = ("CMQC", "CMQCFC", "CMQXC")
# pymqi before 1.0 installed its constant modules at the top level (``import CMQC``)
TOP_LEVEL = ("CMQC", "CMQCFC", "CMQXC")
# event log columns shown by --events (the frame's msg_id, qmgr and deadline are left out; its
# index, the first column, is the event's seq)
EVENT_COLUMNS = [
    "time_ms",
    "queue",
    "kind",
    "msg_seq",
    "priority",
    "expiry",
    "cause",
    "reason",
    "detail",
]


class RunError(ValueError):
    """Bad input found before the program starts (``mqlearn run`` exits 2 with its text)."""


@dataclass(frozen=True)
class Environment:
    """The queue manager a program expects, as ``mqlearn run``'s options describe it."""

    qmgr: str = hosting.DEFAULT_QMGR  # its name (made with the developer container's objects)
    port: int | None = None  # its listener's port (None: leave it, 1414 for a new one)
    channels: Sequence[str] = ()  # server-connection channels a client may use with no user
    mqsc: str | Path | None = None  # a file of MQSC commands run on it before the program
    realtime: float | None = None  # virtual seconds per wall-clock second (None: virtual time)
    library: str | None = None  # give this shim whichever library the program imports

    def prepare(self) -> hosting.Host:
        """Make the queue manager ready, or raise RunError naming what is wrong."""
        if self.library is not None and self.library not in LIBRARIES:
            raise RunError(f"--library {self.library}: choose pymqi or ibmmq")
        if self.port is not None and not 0 < self.port < 65536:
            raise RunError(f"--port {self.port}: a TCP port is 1 to 65535")
        if self.realtime is not None and not self.realtime > 0:
            raise RunError(f"--realtime {self.realtime}: the speed must be above 0")
        script = _read_mqsc(Path(self.mqsc)) if self.mqsc is not None else None
        host = hosting.host(self.qmgr)
        with host.lock:
            if self.port is not None:
                host.port = self.port
            for channel in self.channels:
                host.define_svrconn(channel)
            if script is not None:
                _run_mqsc(host, Path(str(self.mqsc)), script)
        return host


def _read_mqsc(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RunError(f"--mqsc {path}: cannot read it ({error})") from None


def _run_mqsc(host: hosting.Host, path: Path, script: str) -> None:
    """Run the script's commands on the queue manager; any that fails is a RunError naming its
    line and runmqsc's answer."""
    failed = [a for a in mqsc.answers(host.qm, script) if a.outcome in ("syntax", "failed")]
    if failed:
        lines = [f"{path}:{a.line}: {a.command}\n    " + "\n    ".join(a.response) for a in failed]
        raise RunError(
            f"--mqsc {path}: {len(failed)} command(s) failed on {host.qm.name}:\n"
            + "\n".join(lines)
        )


def aliases(library: str | None = None) -> dict[str, tuple[str, str | None]]:
    """The module names a program may import -> (the library whose shim answers, and which of its
    constant modules, or None for the shim itself)."""
    found: dict[str, tuple[str, str | None]] = {}
    for name in LIBRARIES:
        shim = library or name
        found[name] = (shim, None)
        found.update({f"{name}.{sub}": (shim, sub) for sub in SUBMODULES})
    found.update({sub: (library or "pymqi", sub) for sub in TOP_LEVEL})
    return found


def _shim(library: str) -> types.ModuleType:
    """mqlearn's shim of ``library``."""
    if library == "pymqi":
        import mqlearn.pymqi as pymqi_shim

        return pymqi_shim
    import mqlearn.ibmmq as ibmmq_shim

    return ibmmq_shim


def _module(library: str, constants: str | None) -> types.ModuleType:
    """A shim module, or one of its constant modules (an attribute of the shim: the shims'
    ``CMQC`` is not a module named ``mqlearn.pymqi.CMQC``)."""
    module = _shim(library)
    if constants is None:
        return module
    found = getattr(module, constants)
    assert isinstance(found, types.ModuleType)
    return found


@contextmanager
def shims_installed(library: str | None = None) -> Iterator[None]:
    """For the block, ``import pymqi`` (and the rest of :func:`aliases`) gives mqlearn's shims;
    afterwards ``sys.modules`` holds again what it held for those names (or nothing)."""
    names = aliases(library)
    saved = {name: sys.modules[name] for name in names if name in sys.modules}
    try:
        for name, (library_of, constants) in names.items():
            sys.modules[name] = _module(library_of, constants)
        yield
    finally:
        for name in names:
            if name in saved:
                sys.modules[name] = saved[name]
            else:
                sys.modules.pop(name, None)


@contextmanager
def _as_main(program: Path, argv: Sequence[str]) -> Iterator[None]:
    """``sys.argv`` and ``sys.path`` as Python sets them for a script; both restored after, and
    the modules the program imported from its own directory forgotten (a later run imports its
    own), as a new process would."""
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    before = set(sys.modules)
    home = program.resolve().parent
    sys.argv = [str(program), *argv]
    sys.path.insert(0, str(home))
    try:
        yield
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        for name in set(sys.modules) - before:
            if _is_under(sys.modules.get(name), home) and name.split(".")[0] not in before:
                del sys.modules[name]


def _is_under(module: types.ModuleType | None, home: Path) -> bool:
    where = getattr(module, "__file__", None)
    return where is not None and Path(where).resolve().is_relative_to(home)


def _execute(program: Path) -> None:
    """Run the file as Python runs a script: compiled under its absolute path (``__file__``
    and tracebacks show it, as since Python 3.9), in a fresh ``__main__`` module that replaces
    the process's one for the run."""
    where = os.path.abspath(program)
    main = types.ModuleType("__main__")
    main.__file__ = where
    main.__dict__["__builtins__"] = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", where)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        code = compile(Path(where).read_bytes(), where, "exec", dont_inherit=True)
        exec(code, main.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


@contextmanager
def _sleep_noted() -> Iterator[None]:
    """In virtual time a program's ``time.sleep`` moves no simulated clock, where on real MQ its
    messages would age: say so on stderr, once, the first time the program sleeps."""
    wall_sleep = time.sleep
    told = False

    def sleep(seconds: float | SupportsIndex) -> None:
        nonlocal told
        if not told:
            told = True
            print(
                f"mqlearn run: time.sleep({seconds}) lets wall-clock time pass, not the simulated "
                "queue manager's: no message ages while the program sleeps (on real MQ it would); "
                "run it with --realtime 1 to make the clock follow the wall clock",
                file=sys.stderr,
            )
        wall_sleep(seconds)

    time.sleep = sleep
    try:
        yield
    finally:
        time.sleep = wall_sleep


def _exit_code(code: object) -> int:
    """What Python exits with for ``SystemExit(code)`` (a code that is not a number is printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_uncaught(error: BaseException, program: Path) -> None:
    """The traceback Python prints, from the program's first frame (not the runner's)."""
    tb = error.__traceback__
    where = os.path.abspath(program)
    while tb is not None and tb.tb_frame.f_code.co_filename != where:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb, file=sys.stderr)


def _join_new_threads(before: set[threading.Thread]) -> None:
    """Wait for the program's non-daemon threads, as the interpreter does before it exits."""
    while True:
        waiting = [
            t
            for t in threading.enumerate()
            if t not in before and not t.daemon and t is not threading.current_thread()
        ]
        if not waiting:
            return
        for thread in waiting:
            thread.join()


def run(
    program: str | os.PathLike[str],
    argv: Sequence[str] = (),
    environment: Environment | None = None,
) -> int:
    """Run ``program`` as ``python program argv...`` would, its ``import pymqi`` and ``import
    ibmmq`` answered by the shims, on the queue manager ``environment`` describes; returns the
    exit code (0, ``SystemExit``'s code, or 1 after printing an uncaught exception's traceback
    on stderr). Raises RunError, before the program starts, for a missing program file or bad
    environment (an unreadable MQSC file, an MQSC command that fails)."""
    env = environment or Environment()
    path = Path(program)
    if not path.is_file():
        raise RunError(f"{path}: no such program file")
    host = env.prepare()
    factor = host.factor
    if env.realtime is not None:
        host.realtime(env.realtime)
    threads = set(threading.enumerate())
    try:
        noted = _sleep_noted() if env.realtime is None else nullcontext()
        with shims_installed(env.library), _as_main(path, argv), noted:
            try:
                _execute(path)
                code = 0
            except SystemExit as stop:
                code = _exit_code(stop.code)
            except KeyboardInterrupt as error:
                _print_uncaught(error, path)
                code = 130  # as Python's exit status after SIGINT, 128 + 2
            except BaseException as error:  # the program's, reported as Python reports it
                _print_uncaught(error, path)
                code = 1
            finally:
                _join_new_threads(threads)
                sys.stdout.flush()
    finally:
        if env.realtime is not None and factor is not None:
            host.realtime(factor)
        elif env.realtime is not None:
            host.virtual()
    return code


def event_log(qmgr: str | None = None) -> str:
    """The event log of the simulated queue manager ``qmgr`` (every one the process has, when
    None) as text: the engine's events frame, one line an event, times in virtual milliseconds
    since the simulation started."""
    hosts = [hosting.host(qmgr)] if qmgr is not None else hosting.all_hosts()
    parts = []
    for host in hosts:
        with host.lock:
            host.sync()
            events = len(host.qm.events)
            head = (
                f"Event log of {host.qm.name}: {events} events, virtual time now {host.sim.now} ms"
            )
            if not events:
                parts.append(head)
                continue
            frame = host.qm.events_frame()[EVENT_COLUMNS]
            parts.append(f"{head}\n{frame.to_string()}")
    return "\n\n".join(parts)
