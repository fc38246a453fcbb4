"""Errors that the CLI reports as one line with exit code 2."""


class ParameterError(ValueError):
    """A bad parameter value: the message names the value and what is allowed."""
