"""The error a malformed dump file raises: which line, and what was expected there."""

from __future__ import annotations


class DumpFormatError(ValueError):
    """A dmpmqmsg file that cannot be read; ``line`` is its 1-based line number.

    Raised before anything is put: a file either loads completely or not at all.
    """

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(f"line {line}: {problem}")
