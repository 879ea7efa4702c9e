"""Voila and JupyterLab servers for the browser tests: localhost, a free port, always stopped.

Readiness is a TCP probe of the port, never an HTTP request: Voila starts a kernel for every page
load, so probing ``/`` would start (and leak) a kernel before the test even opens the page.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

HOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 120.0  # a cold start on a busy 2-core machine imports a lot
STOP_TIMEOUT_S = 20.0

# User settings of the test's JupyterLab: no news toast over the page, and every cell attached to
# the DOM (no windowing), so widgets and figures below the fold render too.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false"},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


def free_port() -> int:
    """A port nobody listens on right now (the server binds it a moment later)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex((HOST, port)) == 0


def _wait_until_listening(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not _accepts(port):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}; see {log}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing listens on {HOST}:{port} after {STARTUP_TIMEOUT_S} s")
        time.sleep(0.25)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM lets Jupyter shut its kernels down; SIGKILL the group if it does not exit."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextmanager
def _serving(argv: list[str], port: int, log: Path, env: dict[str, str]) -> Iterator[str]:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        try:
            _wait_until_listening(proc, port, log)
            yield f"http://{HOST}:{port}"
        finally:
            _stop(proc)


REPO = Path(__file__).resolve().parents[2]
# mqlearn's Voila template (voila.json): found here whether or not it is installed in the prefix
TEMPLATES_ROOT = REPO / "share" / "jupyter"


# the ``voila_app`` fixture (conftest.py): serve a notebook under Voila, open it in the test's
# page, return its URL; the server stops when the test ends
VoilaApp = Callable[[Path], str]


def notebook_file(path: Path, *sources: str) -> Path:
    """A notebook written to ``path`` with one code cell per source, for Voila to serve."""
    cells = [
        {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
         "outputs": [], "source": source}
        for i, source in enumerate(sources)
    ]  # fmt: skip
    path.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    return path


@contextmanager
def voila(notebook: Path, log: Path, extra: Sequence[str] = ()) -> Iterator[str]:
    """Voila serving ``notebook`` alone with mqlearn's template (``extra``: more Voila options);
    yields the page URL."""
    port = free_port()
    argv = [
        sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
        f"--Voila.ip={HOST}", "--Voila.port_retries=0", "--show_tracebacks=True",
        "--template=mqlearn", *extra,
    ]  # fmt: skip
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(
        filter(None, [str(TEMPLATES_ROOT), env.get("JUPYTER_PATH")])
    )
    with _serving(argv, port, log, env) as url:
        yield url


@contextmanager
def jupyterlab(root_dir: Path, state_dir: Path, log: Path) -> Iterator[str]:
    """JupyterLab on ``root_dir`` without auth, its settings and workspaces under ``state_dir``."""
    port = free_port()
    for plugin, values in LAB_SETTINGS.items():
        path = state_dir / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(state_dir / "config"),
        JUPYTER_RUNTIME_DIR=str(state_dir / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(state_dir / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(state_dir / "workspaces"),
    )
    argv = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
        f"--ServerApp.ip={HOST}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root_dir}",
        "--IdentityProvider.token=", "--ServerApp.password=", "--allow-root",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    with _serving(argv, port, log, env) as url:
        yield url
