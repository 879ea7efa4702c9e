"""Print the Binder links of this repository (course and workbench app) from its git remote.

``make binder-url`` runs it. Binder builds public GitHub repositories, so the remote must be one:
``https://github.com/OWNER/REPO(.git)`` or ``git@github.com:OWNER/REPO(.git)``. Without such a
remote it says so and exits 1 (nothing is guessed).
"""

from __future__ import annotations

import re
import subprocess
import sys

BINDER = "https://mybinder.org/v2/gh/{repo}/HEAD?{target}"
TARGETS = {
    "course": "labpath=notebooks/00_start_here.ipynb",
    "workbench app": "urlpath=voila/render/notebooks/workbench.ipynb",
}
_GITHUB = re.compile(r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)"
                     r"(?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?/?$")  # fmt: skip


def github_repo(remote: str) -> str | None:
    """``OWNER/REPO`` of a GitHub remote URL, else None."""
    found = _GITHUB.match(remote.strip())
    return found["repo"] if found else None


def binder_links(repo: str) -> dict[str, str]:
    return {name: BINDER.format(repo=repo, target=target) for name, target in TARGETS.items()}


def main(remote_name: str = "origin") -> int:
    try:
        remote = subprocess.run(
            ["git", "remote", "get-url", remote_name], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        print(
            f"no git remote {remote_name!r}: publish the repository on GitHub first",
            file=sys.stderr,
        )
        return 1
    repo = github_repo(remote)
    if repo is None:
        print(
            f"remote {remote_name!r} is not a GitHub repository: {remote.strip()}", file=sys.stderr
        )
        return 1
    for name, url in binder_links(repo).items():
        print(f"{name}: {url}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))
