"""Names a module hands out from another module that loads on first use.

A sheet command imports only what it draws with: the play of Breakfast Shy and Patchwork, the
preset loader and the translation catalogues live in modules of their own, and the module users
import (``printables.rules.peas`` ...) still offers every name through a module ``__getattr__``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable


def lazy_names(namespace: dict[str, Any], source: str, names: Iterable[str] | None = None
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__`` handing out ``names`` of module ``source`` (every
    public name when ``names`` is None), imported on first use and then kept in ``namespace``
    (the module's ``globals()``) so later lookups cost nothing."""
    module = namespace["__name__"]
    offered = None if names is None else frozenset(names)

    def __getattr__(name: str) -> Any:
        # What the import system asks a module for (__path__, __wrapped__ ...) is never the source's.
        if name.startswith("__") or (offered is not None and name not in offered):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        from importlib import import_module

        try:
            value = getattr(import_module(source), name)
        except AttributeError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        if offered is not None:
            return sorted(set(namespace) | offered)
        from importlib import import_module

        return sorted(set(namespace) | {name for name in vars(import_module(source)) if not name.startswith("__")})

    return __getattr__, __dir__
