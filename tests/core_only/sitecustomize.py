"""Makes this interpreter look like Pyodide from JupyterLite: the packages the lite course has no
wasm build of (see docs/teaching.md) cannot be imported. Put this directory first on PYTHONPATH;
tests/test_core_only.py runs notebooks 00-08 so, in a kernel of their own."""

import importlib.abc
import sys

BLOCKED = ("numpy", "pandas", "pyarrow", "numba", "pyspark")


class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: not in the lite course)")
        return None


sys.meta_path.insert(0, _Blocker())
