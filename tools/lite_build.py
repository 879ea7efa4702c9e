"""Build the course as a JupyterLite site (build/lite): notebooks 00-08 and the workbench, run by
Pyodide in the learner's browser, with no Python server and nothing fetched from another host.

    python tools/lite_build.py [--out build/lite] [--pyodide local|cdn] [--force]

Where each part comes from (only PyPI and the npm registry are needed, at build time):

- the site and the kernel: jupyterlite-core and jupyterlite-pyodide-kernel (LITE_TOOLS, pinned),
  installed in a build venv of their own (build/lite-env), with the widget and plotly packages
  whose JupyterLab extensions the site needs (the same versions as the wheels below);
- Pyodide's core (``--pyodide local``, the default): the npm package ``pyodide`` at the version
  the kernel names, into static/pyodide. It holds no wheels, so the pure wheels the kernel loads
  at start (its lock's closure of KERNEL_PACKAGES) are taken from PyPI at the lock's versions and
  the lock's sha256 of each is rewritten to the file's own;
- a piplite index (pypi/all.json): mqlearn's own wheel and PIPLITE_WHEELS, PyPI fallback off;
- the contents: the notebooks, each with a first cell that installs mqlearn from that index, the
  docs their links open, and the sample file notebook 08 reads.

``--pyodide cdn`` leaves Pyodide's core to the kernel's default (its public CDN): a smaller site
for a host that can reach it (docs/teaching.md, "Classroom without a server").

The build is skipped when build/lite holds a build of the same inputs (STAMP: a hash of this file,
the package, the notebooks and the docs), so the browser tests can call it every run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
ENV = BUILD / "lite-env"
CACHE = BUILD / "lite-cache"
STAMP = ".mqlearn-lite-inputs"

LITE_TOOLS = (
    "jupyterlite-core==0.8.6",
    "jupyterlite-pyodide-kernel==0.8.6",
    "jupyter-server==2.21.1",  # the build's `jupyter lite` needs it
)
# Into the piplite index, and into the build venv for their JupyterLab extensions (widget
# manager, anywidget, plotly's renderer): one version for both, or the front end and the kernel
# disagree. mqlearn's core dependencies and theirs that Pyodide's lock does not have.
PIPLITE_WHEELS = (
    "plotly==7.1.0",
    "narwhals==2.29.0",
    "ipywidgets==8.1.9",
    "jupyterlab-widgets==3.0.17",
    "comm==0.2.3",
    "anywidget==0.11.0",
    "psygnal==0.16.1",
    "typing-extensions==4.16.0",
)
# What the kernel loads from Pyodide's lock when it starts (its worker: micropip, then ipykernel,
# comm, pyodide-kernel, jedi, ipython) and what the widgets need from it; their lock dependencies
# are added.
KERNEL_PACKAGES = ("micropip", "ipython", "jedi", "traitlets", "packaging")
COURSE = [f"{n:02d}_" for n in range(9)]  # notebooks 00-08; 09 needs Spark
EXTRA_CONTENTS = ("docs", "tests/interop/samples/dlq-dump.txt")
# The cells the build adds to each notebook. The workbook and its widgets first; plotly (9.7 MB,
# the largest wheel) only just before the first cell that draws a chart, so that the lessons'
# first cells and the workbench's queue view do not wait for it (benchmarks/bench_lite.py).
INSTALL_CELL = (
    "# The course in the browser: install the workbook from this site (no server, no PyPI).\n"
    "%pip install -q --no-deps mqlearn\n"
    "%pip install -q ipywidgets anywidget"
)
CHARTS_CELL = (
    "# The charts' library, from this site: the next cell draws one.\n%pip install -q plotly"
)
DRAWS_A_CHART = re.compile(r"\bfigures\b|Comparison|XqhInspector|Workbench")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"


def run(*command: str | Path, cwd: Path = ROOT) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run([str(c) for c in command], check=True, cwd=cwd)


def inputs_hash(pyodide: str) -> str:
    """A hash of everything the site is built from."""
    digest = hashlib.sha256(pyodide.encode())
    files = [Path(__file__), ROOT / "pyproject.toml"]
    files += sorted((ROOT / "mqlearn").rglob("*"))
    files += sorted((ROOT / "notebooks").glob("*.ipynb"))
    files += sorted((ROOT / "docs").rglob("*.md"))
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build_env() -> Path:
    """The build venv (made once per set of pins); its python."""
    python = ENV / "bin" / "python"
    pins = "\n".join([*LITE_TOOLS, *PIPLITE_WHEELS])
    stamp = ENV / ".pins"
    if python.exists() and stamp.exists() and stamp.read_text() == pins:
        return python
    shutil.rmtree(ENV, ignore_errors=True)
    run(sys.executable, "-m", "venv", ENV)
    run(python, "-m", "pip", "install", "--quiet", *LITE_TOOLS, *PIPLITE_WHEELS)
    stamp.write_text(pins)
    return python


def kernel_pyodide_version(python: Path) -> str:
    """The Pyodide version the installed kernel names (its constants.PYODIDE_VERSION)."""
    code = "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)"
    done = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def download_wheel(python: Path, requirement: str, dest: Path) -> Path:
    """A pure (py3-none-any) wheel from PyPI, kept in the cache."""
    dest.mkdir(parents=True, exist_ok=True)
    name = requirement.split("==")[0].replace("-", "_").lower()
    version = requirement.split("==")[1]
    found = [
        p for p in dest.glob("*.whl") if p.name.lower().startswith(f"{name}-{version}-".lower())
    ]
    if not found:
        run(
            python, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
            "--platform", "any", "--implementation", "py", "--python-version", "3.14",
            "--abi", "none", "--dest", dest, requirement,
        )  # fmt: skip
        found = [
            p for p in dest.glob("*.whl") if p.name.lower().startswith(f"{name}-{version}-".lower())
        ]
    if len(found) != 1:
        raise SystemExit(f"expected one wheel for {requirement} in {dest}, found {found}")
    return found[0]


def canonical(name: str) -> str:
    """A project name as Pyodide's lock keys it (PEP 503 normalized)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def npm_pyodide(version: str) -> Path:
    """The npm package ``pyodide`` (its core runtime and lock, no wheels), kept in the cache."""
    tgz = CACHE / f"pyodide-{version}.tgz"
    if not tgz.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", "--silent", f"pyodide@{version}", cwd=CACHE)
    return tgz


def lock_names(tgz: Path) -> set[str]:
    """The packages Pyodide's lock names: micropip takes these from the lock, never from piplite."""
    with tarfile.open(tgz) as archive:
        member = archive.extractfile("package/pyodide-lock.json")
        assert member is not None
        return set(json.load(member)["packages"])


def pyodide_core(python: Path, tgz: Path, static: Path, wanted: list[str]) -> None:
    """Pyodide's core from npm into ``static``, with the pure wheels of ``wanted`` and of what the
    kernel loads at start, and a lock whose hashes are those of the wheels beside it."""
    static.mkdir(parents=True)
    with tarfile.open(tgz) as archive:
        for member in archive.getmembers():
            if member.isfile() and not member.name.endswith((".map", ".d.ts", ".html")):
                member.name = member.name.removeprefix("package/")
                archive.extract(member, static, filter="data")
    lock_path = static / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    packages: dict[str, Any] = lock["packages"]
    needed: list[str] = []
    todo = [*KERNEL_PACKAGES, *wanted]
    while todo:
        name = canonical(todo.pop())  # "depends" may spell a key otherwise: prompt_toolkit
        if name in needed or name not in packages:
            continue
        needed.append(name)
        todo += packages[name]["depends"]
    for name in sorted(needed):
        entry = packages[name]
        if not entry["file_name"].endswith("-none-any.whl"):
            raise SystemExit(f"{name} in Pyodide's lock is not a pure wheel: {entry['file_name']}")
        wheel = download_wheel(python, f"{entry['name']}=={entry['version']}", CACHE / "lock")
        shutil.copyfile(wheel, static / entry["file_name"])
        entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock_path.write_text(json.dumps(lock, separators=(",", ":")))
    print(f"Pyodide {lock['info']}: core and {len(needed)} wheels", flush=True)


def _added_cell(cell_id: str, source: str) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": {"tags": [cell_id]},
        "outputs": [],
        "source": source.splitlines(keepends=True),
    }


def lite_notebook(source: Path, target: Path) -> None:
    """The notebook with the install cell first and the charts' cell before the first cell that
    draws one (the workbench: after it, as its charts open on request); outputs kept."""
    notebook = json.loads(source.read_text())
    cells = notebook["cells"]
    code = [i for i, c in enumerate(cells) if c["cell_type"] == "code"]
    charts = [i for i in code if DRAWS_A_CHART.search("".join(cells[i]["source"]))]
    if charts:
        at = charts[0] + 1 if source.name == "workbench.ipynb" else charts[0]
        cells.insert(at, _added_cell("lite-charts", CHARTS_CELL))
    cells.insert(0, _added_cell("lite-install", INSTALL_CELL))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


def stage(python: Path, src: Path, pyodide: str) -> None:
    """The lite dir: config, Pyodide (local), the piplite wheels and the contents."""
    shutil.rmtree(src, ignore_errors=True)
    files = src / "files"
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        if notebook.name == "workbench.ipynb" or notebook.name[:3] in COURSE:
            lite_notebook(notebook, files / "notebooks" / notebook.name)
    for extra in EXTRA_CONTENTS:
        origin = ROOT / extra
        if origin.is_dir():
            shutil.copytree(origin, files / extra)
        else:
            (files / extra).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(origin, files / extra)
    wheels = src / "pypi"
    wheels.mkdir(parents=True)
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps",
        "-w", wheels, ROOT)  # fmt: skip
    tgz = npm_pyodide(kernel_pyodide_version(python))
    in_lock = lock_names(tgz)
    from_lock = []  # at the lock's version: micropip looks there first
    for requirement in PIPLITE_WHEELS:
        name = canonical(requirement.split("==")[0])
        if name in in_lock:
            from_lock.append(name)
        else:
            shutil.copy(download_wheel(python, requirement, CACHE / "piplite"), wheels)
    settings: dict[str, Any] = {"disablePyPIFallback": True}
    if pyodide == "local":
        pyodide_core(python, tgz, src / "static" / "pyodide", from_lock)
    lite = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "mqlearn: IBM MQ message expiry",
            # window.jupyterapp, as JupyterLab's own UI tests use it: the browser tests run all
            # cells and read the outputs through it (tests/browser/test_lite.py)
            "exposeAppInBrowser": True,
            "litePluginSettings": {KERNEL_PLUGIN: settings},
        },
    }
    (src / "jupyter-lite.json").write_text(json.dumps(lite, indent=2))
    config = {
        "LiteBuildConfig": {
            "apps": ["lab"],
            "contents": ["files"],
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            "cache_dir": str(CACHE / "jupyterlite"),
        }
    }
    (src / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))


def build(out: Path, pyodide: str, force: bool) -> Path:
    key = inputs_hash(pyodide)
    stamp = out / STAMP
    if not force and stamp.exists() and stamp.read_text() == key:
        print(f"{out.relative_to(ROOT)} is up to date", flush=True)
        return out
    python = build_env()
    src = BUILD / "lite-src"
    stage(python, src, pyodide)
    shutil.rmtree(out, ignore_errors=True)
    jupyter = python.parent / "jupyter"
    run(jupyter, "lite", "build", "--lite-dir", src, "--output-dir", out, cwd=src)
    check_offline(out, pyodide)
    stamp.write_text(key)
    return out


def check_offline(out: Path, pyodide: str) -> None:
    """The built config points the kernel at this site's Pyodide and index, PyPI fallback off."""
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"][KERNEL_PLUGIN]
    problems = []
    if kernel.get("disablePyPIFallback") is not True:
        problems.append("PyPI fallback is on")
    if not any(url.startswith("./") for url in kernel.get("pipliteUrls", [])):
        problems.append(f"no local piplite index: {kernel.get('pipliteUrls')}")
    if pyodide == "local" and not str(kernel.get("pyodideUrl", "")).startswith("./"):
        problems.append(f"Pyodide is not the site's own: {kernel.get('pyodideUrl')}")
    if problems:
        raise SystemExit(f"{out}: " + "; ".join(problems))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BUILD / "lite")
    parser.add_argument("--pyodide", choices=("local", "cdn"), default="local")
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    args = parser.parse_args(argv)
    out = build(args.out.resolve(), args.pyodide, args.force)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    count = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"built {out}: {count} files, {size / 1e6:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
