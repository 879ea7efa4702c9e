"""``mqlearn pipeline compile`` (:mod:`mqlearn.pipeline.precompile`): after it, a replay compiles
nothing more, whatever trace it is given.

numba compiles a function again for every new combination of argument types (a read-only array,
a strided one, another dtype), so the check is on those: in a fresh interpreter, where numba's
dispatchers hold only what that process compiled or loaded from the cache, the signatures
after ``compile_replay`` must be all there are after replaying traces of other shapes too (a
CSV file cut into pieces of 150 rows, a single queue in one piece, a schema v2 trace with
ARRIVE rows and CorrelId matching, Parquet in seq order with deep backlogs).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pandas as pd

from mqlearn.cli import EXIT_OK, main
from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.generate import TraceSpec, generate_local

ROOT = Path(__file__).resolve().parents[2]
OTHER = TraceSpec(seed=5, events=4_000, queues=4, qmgrs=2, hours=0.5, outage_share=1.0)


def signatures() -> dict[str, list[str]]:
    """Every compiled function of the pipeline loaded in this process, and its signatures."""
    from numba.core.dispatcher import Dispatcher

    found: dict[str, list[str]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("mqlearn.pipeline."):
            continue
        for value in vars(module).values():
            if isinstance(value, Dispatcher):
                function = value.py_func
                key = f"{function.__module__}.{function.__qualname__}"
                found[key] = sorted(map(str, value.signatures))
    return found


def v2_trace(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its first PUT made an ARRIVE row with Expiry 0 (it arrived expired), and
    CorrelIds on its puts that its gets ask for."""
    frame = frame.copy()
    puts = np.flatnonzero(frame["op"] == "PUT")
    gets = np.flatnonzero(frame["op"] == "GET")
    frame.loc[puts[0], ["op", "expiry"]] = ["ARRIVE", 0]
    correl = [f"{k % 7:048x}" for k in range(len(puts))]
    frame.loc[puts, "correl_id"] = correl
    frame.loc[gets, "correl_id"] = [correl[k % len(correl)] for k in range(len(gets))]
    frame.loc[gets, "match_options"] = C.MQMO_MATCH_CORREL_ID
    return frame


def replay_other_traces(work: Path) -> None:
    """The replays the check runs after ``compile_replay`` (in the fresh interpreter)."""
    from mqlearn.pipeline.progress_bar import Progress
    from mqlearn.pipeline.replay import replay_local
    from mqlearn.pipeline.stream import replay_files

    frame, queues = generate_local(OTHER)
    # scans every minute on one queue manager, none on the other
    scanned = queues["qmgr"] == queues["qmgr"].iloc[0]
    queues["expiry_interval_s"] = np.where(scanned, 60, 0).astype(np.int32)
    queues.to_parquet(work / "queues.parquet", index=False)
    frame.to_csv(work / "trace.csv", index=False)
    frame.to_parquet(work / "trace.parquet", index=False)
    one = frame[frame["queue"] == frame["queue"].iloc[0]]
    one.to_parquet(work / "one.parquet", index=False)
    for name, rows in (("trace.csv", 150), ("one.parquet", 1_000_000), ("trace.parquet", 400)):
        out = work / f"out-{name}"
        replay_files(
            work / name, work / "queues.parquet", out, batch_rows=rows, progress=Progress()
        )
    replay_local(v2_trace(frame), queues, schema_version=2)


def check(work: str) -> None:
    """Print, as JSON, the signatures the other traces added after ``compile_replay``."""
    from mqlearn.pipeline.precompile import compile_replay

    compile_replay(Path(work))
    before = signatures()
    replay_other_traces(Path(work))
    after = signatures()
    added = {
        name: sorted(set(found) - set(before.get(name, [])))
        for name, found in after.items()
        if set(found) - set(before.get(name, []))
    }
    print(json.dumps({"functions": len(before), "added": added}))


def test_compile_covers_every_replay(tmp_path: Path) -> None:
    code = f"from tests.pipeline.test_precompile import check; check({str(tmp_path)!r})"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["functions"] >= 20  # the replay's compiled functions were all seen
    assert found["added"] == {}, f"compiled after mqlearn pipeline compile: {found['added']}"


def test_v2_trace_has_what_it_says() -> None:
    frame = v2_trace(generate_local(OTHER)[0])
    arrive = frame[frame["op"] == "ARRIVE"]
    assert len(arrive) == 1 and arrive["expiry"].iloc[0] == 0
    gets = frame[frame["op"] == "GET"]
    assert (gets["match_options"] == C.MQMO_MATCH_CORREL_ID).all() and gets[
        "correl_id"
    ].notna().all()


def test_cli_compile_says_it_is_cached() -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["pipeline", "compile"]) == EXIT_OK
    assert "the local replay's compiled code is cached (" in err.getvalue()
