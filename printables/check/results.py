"""The outcome of one named check on a produced file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CheckResult:
    """One named check: whether it passed and a one-line detail saying what was found."""

    name: str
    ok: bool
    detail: str = ""

    def __str__(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}: {self.detail}"
