"""``make binder-url``: Binder links from the git remote, and a clear refusal without one."""

from __future__ import annotations

import pytest

from tools.binder_url import binder_links, github_repo


@pytest.mark.parametrize(
    ("remote", "repo"),
    [
        ("https://github.com/acme/mqlearn.git\n", "acme/mqlearn"),
        ("https://github.com/acme/mqlearn", "acme/mqlearn"),
        ("git@github.com:acme/mq.learn.git", "acme/mq.learn"),
        ("ssh://git@github.com/acme/mqlearn/", "acme/mqlearn"),
        ("https://gitlab.com/acme/mqlearn.git", None),
        ("/srv/git/mqlearn", None),
    ],
)
def test_github_repo_of_a_remote(remote: str, repo: str | None) -> None:
    assert github_repo(remote) == repo


def test_links_open_the_course_and_the_voila_app() -> None:
    assert binder_links("acme/mqlearn") == {
        "course": "https://mybinder.org/v2/gh/acme/mqlearn/HEAD?labpath=notebooks/00_start_here.ipynb",
        "workbench app": (
            "https://mybinder.org/v2/gh/acme/mqlearn/HEAD?urlpath=voila/render/notebooks/workbench.ipynb"
        ),
    }
