"""A directory that appears whole or not at all: built beside its place, then moved there."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def building(out: Path) -> Iterator[Path]:
    """Yield a temporary directory beside ``out`` to write into; on success it becomes ``out``,
    on any failure it is removed and nothing is left behind. ``out`` must not exist or be
    empty: a directory of earlier work is never written over (ValueError)."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"{out} already exists and is not empty: give a new directory")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        yield work
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
