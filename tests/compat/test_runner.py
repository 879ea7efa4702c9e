"""``mqlearn run``: programs run with their ``import pymqi`` line as it is (mqlearn.program_runner).

The corpus of tests/compat/programs/ runs through :func:`runner.run` untouched, once with the
library it imports and once with ``--library ibmmq``; a program written for another environment
(tests/compat/written_elsewhere/, pymqi's examples' QM01 at 192.168.1.135(1434) over SVRCONN.1,
queue TEST.1, ``import CMQC``) fails with the reason codes a real client would get until the
options describe its environment; exit codes, tracebacks and the interpreter's state after a run
are Python's. A few tests run the ``mqlearn run`` command in a subprocess, end to end.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from mqlearn import ibmmq, pymqi
from mqlearn import program_runner as runner
from mqlearn.compat import hosting
from mqlearn.program_runner import Environment, RunError

HERE = Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))
REALTIME = "# mqlearn-test: realtime"
ELSEWHERE = HERE / "written_elsewhere"
QM01_PROGRAM = ELSEWHERE / "put_get_qm01.py"
QM01_MQSC = ELSEWHERE / "qm01.mqsc"
QM01 = Environment(qmgr="QM01", port=1434, channels=("SVRCONN.1",), mqsc=QM01_MQSC)


@pytest.fixture(autouse=True)
def fresh_queue_managers() -> None:
    pymqi.reset()


def write(directory: Path, name: str, source: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


# -- the corpus, unchanged ------------------------------------------------------------------------
@pytest.mark.parametrize("library", [None, "ibmmq"], ids=["as-imported", "library-ibmmq"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_corpus_program_runs_unchanged(
    program: Path, library: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = program.read_text(encoding="utf-8")
    assert "import pymqi" in source.splitlines()  # the real library's import, as written
    speed = 1.0 if source.startswith(REALTIME) else None
    code = runner.run(program, [], Environment(realtime=speed, library=library))
    assert code == 0, capsys.readouterr().err


def test_the_corpus_is_all_there() -> None:
    assert len(PROGRAMS) >= 45


def test_import_pymqi_gives_the_shim_and_library_switches_it(tmp_path: Path) -> None:
    """What each import resolves to, checked against the shims' documented defaults: pymqi's MD
    is version 1, ibmmq's version 2 (docs/compat.md)."""
    out = tmp_path / "out.txt"
    program = write(
        tmp_path,
        "which.py",
        f"""\
        import CMQC
        import CMQCFC
        import ibmmq
        import ibmmq.CMQC
        import pymqi
        import pymqi.CMQXC
        from pymqi import CMQC as FROM_PYMQI

        seen = [pymqi.__name__, ibmmq.__name__, pymqi.MD().Version, ibmmq.MD().Version,
                CMQC is FROM_PYMQI, ibmmq.CMQC.MQGMO_WAIT, pymqi.CMQXC.MQCHT_SVRCONN,
                CMQCFC.MQCMD_PING_Q_MGR]
        open({str(out)!r}, "w").write(repr(seen))
        """,
    )
    assert runner.run(program) == 0
    assert eval(out.read_text()) == ["mqlearn.pymqi", "mqlearn.ibmmq", 1, 2, True, 1, 7, 40]
    assert runner.run(program, [], Environment(library="ibmmq")) == 0
    assert eval(out.read_text()) == ["mqlearn.ibmmq", "mqlearn.ibmmq", 2, 2, True, 1, 7, 40]
    assert sys.modules["mqlearn.pymqi"] is pymqi and sys.modules["mqlearn.ibmmq"] is ibmmq


# -- a program written for another queue manager ---------------------------------------------------
@pytest.mark.parametrize(
    ("environment", "reason"),
    [
        (Environment(), "2538: FAILED: MQRC_HOST_NOT_AVAILABLE"),  # nothing listens on 1434
        (Environment(port=1434), "2059: FAILED: MQRC_Q_MGR_NOT_AVAILABLE"),  # QM1 listens there
        (Environment(qmgr="QM01", port=1434), "2540: FAILED: MQRC_UNKNOWN_CHANNEL_NAME"),
        (
            Environment(qmgr="QM01", port=1434, channels=("SVRCONN.1",)),
            "2085: FAILED: MQRC_UNKNOWN_OBJECT_NAME",  # TEST.1 is not defined
        ),
    ],
    ids=["no-options", "port", "qmgr-port", "qmgr-port-channel"],
)
def test_program_for_another_queue_manager_fails_as_a_real_client_would(
    environment: Environment, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(QM01_PROGRAM, [], environment) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert f"MQMIError: MQI Error. Comp: 2, Reason {reason}" in err


def test_program_for_another_queue_manager_runs_with_its_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert runner.run(QM01_PROGRAM, ["hello"], QM01) == 0
    assert capsys.readouterr().out == "got hello from TEST.1 on QM01\n"
    queue = pymqi.queue_manager("QM01").local("TEST.1")
    assert queue.maxdepth == 5000  # the MQSC file's continued line was read


def test_every_client_on_a_channel_option_acts_as_admin(tmp_path: Path) -> None:
    """--channel's channel has an administrator as MCAUSER and no CONNAUTH: a client that gives
    app acts as admin and may open TEST.1; on DEV.APP.SVRCONN it is app, which may not (2035, as
    on the developer container), until --channel DEV.APP.SVRCONN redefines that channel too."""
    program = write(
        tmp_path,
        "as_app.py",
        """\
        import sys

        import pymqi

        qmgr = pymqi.connect("QM01", sys.argv[1], "host(1434)", "app", "any password")
        try:
            pymqi.Queue(qmgr, "TEST.1").put(b"x")
        except pymqi.MQMIError as e:
            raise SystemExit(e.reason - 2000)
        """,
    )
    assert runner.run(program, ["SVRCONN.1"], QM01) == 0
    assert runner.run(program, ["DEV.APP.SVRCONN"], QM01) == 35
    redefined = Environment(qmgr="QM01", port=1434, channels=("DEV.APP.SVRCONN",))
    assert runner.run(program, ["DEV.APP.SVRCONN"], redefined) == 0


# -- Python's behaviour ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "code", "stderr"),
    [
        ("x = 1\n", 0, ""),
        ("import sys\nsys.exit()\n", 0, ""),
        ("import sys\nsys.exit(3)\n", 3, ""),
        ("raise SystemExit('bye')\n", 1, "bye\n"),
        ("raise KeyboardInterrupt\n", 130, "KeyboardInterrupt\n"),
    ],
    ids=["ends", "exit-none", "exit-3", "exit-text", "interrupt"],
)
def test_exit_codes(
    tmp_path: Path, body: str, code: int, stderr: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(write(tmp_path, "p.py", body)) == code
    assert capsys.readouterr().err.endswith(stderr)


def test_uncaught_exception_traceback_starts_in_the_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "boom.py", "def f():\n    raise ValueError('no')\n\nf()\n")
    monkeypatch.chdir(tmp_path)
    assert runner.run("boom.py") == 1  # as typed; Python shows the absolute path
    program = tmp_path / "boom.py"
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "Traceback (most recent call last):",
        f'  File "{program}", line 4, in <module>',
        "    f()",
        f'  File "{program}", line 2, in f',
        "    raise ValueError('no')",
        "ValueError: no",
    ]


def test_syntax_error_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.run(write(tmp_path, "bad.py", "def (:\n")) == 1
    assert "SyntaxError" in capsys.readouterr().err


def test_main_argv_path_and_modules_restored(tmp_path: Path) -> None:
    write(tmp_path, "helper_of_the_program.py", "VALUE = 'mine'\n")
    out = tmp_path / "seen.txt"
    program = write(
        tmp_path,
        "main.py",
        f"""\
        import sys

        import helper_of_the_program
        import pymqi

        sys.argv.append("changed")
        seen = [__name__, sys.argv[:-1], sys.path[0], helper_of_the_program.VALUE, __file__,
                sys.modules["__main__"].__dict__ is globals()]
        open({str(out)!r}, "w").write(repr(seen))
        """,
    )
    sentinel = object()
    sys.modules["pymqi"] = sentinel  # type: ignore[assignment]  # a real pymqi, say
    argv, path, modules, main = sys.argv[:], sys.path[:], set(sys.modules), sys.modules["__main__"]
    try:
        assert runner.run(program, ["a", "--b"]) == 0
        assert sys.modules["pymqi"] is sentinel
    finally:
        del sys.modules["pymqi"]
    expected = [
        "__main__",
        [str(program), "a", "--b"],
        str(tmp_path.resolve()),
        "mine",
        str(program.absolute()),
        True,
    ]
    assert eval(out.read_text()) == expected
    assert (sys.argv, sys.path, sys.modules["__main__"]) == (argv, path, main)
    added = set(sys.modules) - modules
    assert not added & {"helper_of_the_program", "ibmmq", "CMQC", "pymqi.CMQC", "ibmmq.CMQC"}


def test_program_threads_are_joined_before_run_returns(tmp_path: Path) -> None:
    done = tmp_path / "done"
    program = write(
        tmp_path,
        "threads.py",
        f"""\
        import threading
        import time

        def later():
            time.sleep(0.2)
            open({str(done)!r}, "w").write("yes")

        threading.Thread(target=later).start()
        """,
    )
    before = threading.active_count()
    assert runner.run(program) == 0
    assert done.read_text() == "yes"
    assert threading.active_count() == before


def test_a_sleep_in_virtual_time_is_pointed_out_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sleeping program's messages do not age in virtual time: the runner says so (once), and
    not under --realtime; time.sleep is the wall clock's again after the run."""
    wall_sleep = time.sleep
    program = write(tmp_path, "p.py", "import time\ntime.sleep(0.01)\ntime.sleep(0.01)\n")
    assert runner.run(program) == 0
    err = capsys.readouterr().err
    assert err.count("mqlearn run: time.sleep(0.01) lets wall-clock time pass") == 1
    assert "--realtime 1" in err
    assert runner.run(program, [], Environment(realtime=1.0)) == 0
    assert capsys.readouterr().err == ""
    assert time.sleep is wall_sleep


def test_realtime_is_for_the_run_only(tmp_path: Path) -> None:
    program = write(tmp_path, "p.py", "import pymqi\nassert pymqi.host('QM1').factor == 2.5\n")
    assert runner.run(program, [], Environment(realtime=2.5)) == 0
    assert hosting.host("QM1").factor is None


# -- bad input ----------------------------------------------------------------------------------------
def test_missing_program(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="no such program file"):
        runner.run(tmp_path / "absent.py")


def test_unreadable_mqsc(tmp_path: Path) -> None:
    program = write(tmp_path, "p.py", "")
    with pytest.raises(RunError, match=r"--mqsc .*absent\.mqsc: cannot read it"):
        runner.run(program, [], Environment(mqsc=tmp_path / "absent.mqsc"))


def test_failing_mqsc_command_names_its_line(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "s.mqsc",
        "DEFINE QLOCAL(A.1)\n* comment\nDEFINE QLOCAL(DEV.QUEUE.1)\nDEFINE QLOCAL(B) FOO(1)\n",
    )
    ran = tmp_path / "ran"
    program = write(tmp_path, "p.py", f"open({str(ran)!r}, 'w')\n")
    with pytest.raises(RunError) as caught:
        runner.run(program, [], Environment(mqsc=script))
    text = str(caught.value)
    assert f"{script}:3: DEFINE QLOCAL(DEV.QUEUE.1)\n    AMQ8150E" in text
    assert f"{script}:4: DEFINE QLOCAL(B) FOO(1)\n    AMQ8405I" in text
    assert ":1:" not in text and not ran.exists()  # the program did not start


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        (Environment(port=0), "--port 0"),
        (Environment(realtime=0), "--realtime 0"),
        (Environment(library="jms"), "--library jms"),
    ],
)
def test_bad_options(tmp_path: Path, environment: Environment, message: str) -> None:
    with pytest.raises(RunError, match=message):
        runner.run(write(tmp_path, "p.py", ""), [], environment)


# -- the event log --------------------------------------------------------------------------------------
EXPIRING = """\
import pymqi

qmgr = pymqi.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "pw")
qmgr.put1("DEV.QUEUE.1", b"short-lived", pymqi.MD(Expiry=5))  # half a second
other = pymqi.Queue(qmgr, "DEV.QUEUE.2")
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=2000)
try:
    other.get(None, pymqi.MD(), gmo)  # nothing comes: the clock moves two seconds
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE
try:
    pymqi.Queue(qmgr, "DEV.QUEUE.1").get()
except pymqi.MQMIError as e:
    print("get:", e.reason)
"""


def test_event_log_shows_the_discard_of_an_expired_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(write(tmp_path, "expiring.py", EXPIRING)) == 0
    assert capsys.readouterr().out == "get: 2033\n"
    lines = runner.event_log("QM1").splitlines()
    assert lines[0] == "Event log of QM1: 4 events, virtual time now 2000 ms"
    assert lines[1].split() == runner.EVENT_COLUMNS
    rows = [line.split() for line in lines[2:]]
    assert [(row[0], row[1], row[2], row[3]) for row in rows] == [
        ("0", "0", "DEV.QUEUE.1", "put"),
        ("1", "2000", "DEV.QUEUE.2", "failed"),
        ("2", "2000", "DEV.QUEUE.1", "discard"),
        ("3", "2000", "DEV.QUEUE.1", "failed"),
    ]


def test_event_log_of_a_queue_manager_nothing_happened_on(tmp_path: Path) -> None:
    assert runner.run(write(tmp_path, "p.py", "import pymqi\n"), [], QM01) == 0
    assert runner.event_log() == "Event log of QM01: 0 events, virtual time now 0 ms"


# -- the command, end to end ------------------------------------------------------------------------------
def mqlearn(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mqlearn.cli", "run", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )


def test_cli_runs_a_corpus_program_with_the_events() -> None:
    done = mqlearn("--realtime", "1", "--events", str(HERE / "programs/expiry_discarded_on_get.py"))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Event log of QM1: ")
    kinds = [line.split()[3] for line in done.stdout.splitlines()[2:]]
    assert "discard" in kinds and kinds[0] == "put"


def test_cli_program_for_another_queue_manager() -> None:
    options = ["--qmgr", "QM01", "--port", "1434", "--channel", "SVRCONN.1"]
    failed = mqlearn(*options, str(QM01_PROGRAM))
    assert failed.returncode == 1
    assert failed.stderr.rstrip().endswith("Reason 2085: FAILED: MQRC_UNKNOWN_OBJECT_NAME")
    done = mqlearn(*options, "--mqsc", str(QM01_MQSC), str(QM01_PROGRAM), "hi", "there")
    assert (done.returncode, done.stdout, done.stderr) == (0, "got hi from TEST.1 on QM01\n", "")


def test_cli_bad_input_is_exit_2(tmp_path: Path) -> None:
    missing = mqlearn(str(tmp_path / "absent.py"))
    assert missing.returncode == 2
    assert missing.stderr == f"mqlearn run: error: {tmp_path / 'absent.py'}: no such program file\n"
    program = write(tmp_path, "p.py", "")
    bad_mqsc = mqlearn("--mqsc", str(tmp_path / "absent.mqsc"), str(program))
    assert bad_mqsc.returncode == 2 and "cannot read it" in bad_mqsc.stderr


def test_cli_passes_the_exit_code_and_arguments(tmp_path: Path) -> None:
    program = write(tmp_path, "args.py", "import sys\nsys.exit(len(sys.argv))\n")
    assert mqlearn(str(program), "-x", "--y", "z").returncode == 4
