"""Benchmark results as data: each benchmark writes ``benchmarks/results/<name>.json``.

The form (read by tools/performance_doc.py, which renders docs/performance.md from every file)::

    {"benchmark": str, "measured": ISO date, "machine": {"cpu", "cores", "python", ...},
     "tables": [{"title": str, "columns": [str], "rows": [[...]], "notes": str}]}
"""

from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """What the figures depend on: the processor, the cores, Python, the load at the end."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def table(title: str, columns: list[str], rows: list[list[Any]], notes: str = "") -> dict[str, Any]:
    return {"title": title, "columns": columns, "rows": rows, "notes": notes}


def write(name: str, tables: list[dict[str, Any]], directory: Path = RESULTS) -> Path:
    """Write one benchmark's tables; returns the file written."""
    directory.mkdir(parents=True, exist_ok=True)
    document = {
        "benchmark": name,
        "measured": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "machine": machine(),
        "tables": tables,
    }
    path = directory / f"{name}.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
