"""Serve the JupyterLite course (build/lite) on localhost: ``make lite-serve``.

Any static web server will do once the site is published (docs/teaching.md); this one only makes
sure that the types a browser is strict about are right on every Python (.wasm, .mjs, .json).

    python tools/lite_serve.py [--port 8000] [--dir build/lite]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import sys
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".ipynb": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **TYPES,
    }

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def serve(directory: Path, host: str, port: int, verbose: bool = True) -> None:
    if not (directory / "jupyter-lite.json").exists():
        raise SystemExit(f"no JupyterLite site in {directory}: run `make lite` first")
    handler = functools.partial(Handler, directory=str(directory))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        server.verbose = verbose  # type: ignore[attr-defined]
        print(f"the course: http://{host}:{port}/lab/index.html (Ctrl-C stops)", flush=True)
        server.serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--quiet", action="store_true", help="no line per request")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        serve(args.dir, args.host, args.port, not args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
