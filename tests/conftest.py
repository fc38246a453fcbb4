"""Shared test helpers."""


def assert_one_line_error(result, message: str) -> None:
    """Bad input: exit code 2 and exactly one line, ``Error: ...``, that contains ``message``."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output
