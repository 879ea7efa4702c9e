"""Run the property and differential tests un-derandomized, seed after seed, for a set time.

    python tools/fuzz.py --minutes 30          # what ``make fuzz`` runs (FUZZ_MINUTES=30)
    python tools/fuzz.py --seeds 123 456       # replay given seeds

CI runs the same derandomized examples every time (tests/conftest.py); this draws new ones. Each
round runs every Hypothesis test (``pytest -m hypothesis``, the browser tests left out) with a fresh
``--hypothesis-seed``, prints the seed and how it went, and stops when the time is up; a failing
seed is printed with the command that replays it. Exits 1 if any seed failed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pytest_argv(seed: int, extra: list[str]) -> list[str]:
    return [
        sys.executable, "-m", "pytest", "-m", "hypothesis", "-q", "-p", "no:cacheprovider",
        "--ignore=tests/browser", f"--hypothesis-seed={seed}", *extra,
    ]  # fmt: skip


def run_seed(seed: int, extra: list[str]) -> bool:
    env = dict(os.environ, MQLEARN_HYPOTHESIS="fuzz")
    started = time.monotonic()
    done = subprocess.run(
        pytest_argv(seed, extra), cwd=ROOT, env=env, capture_output=True, text=True
    )
    lines = done.stdout.strip().splitlines()
    print(
        f"seed {seed}: {lines[-1] if lines else 'no output'} ({time.monotonic() - started:.0f} s)"
    )
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")
        command = " ".join(pytest_argv(seed, extra))
        print(f"replay it with: MQLEARN_HYPOTHESIS=fuzz {command}")
    return done.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--minutes", type=float, default=30.0, help="stop starting rounds after this"
    )
    parser.add_argument("--seeds", type=int, nargs="*", help="run these seeds (once each) instead")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    failed: list[int] = []
    if args.seeds:
        seeds: list[int] = list(args.seeds)
        for seed in seeds:
            if not run_seed(seed, args.pytest_args):
                failed.append(seed)
    else:
        rng = random.SystemRandom()
        deadline = time.monotonic() + args.minutes * 60
        seeds = []
        while time.monotonic() < deadline:
            seed = rng.randrange(2**32)
            seeds.append(seed)
            if not run_seed(seed, args.pytest_args):
                failed.append(seed)
    print(f"seeds tried: {' '.join(map(str, seeds))}")
    print(f"failed: {' '.join(map(str, failed)) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
