"""Frozen records: the classes ``@dataclass(frozen=True)`` makes, without compiling code at import.

``dataclasses`` writes a class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as source text and compiles it whenever the module is imported,
some 0.45 ms a class; a sheet command imports a dozen such classes (the drawing primitives, the
patches, the parameters) before it draws anything. A record class writes its ``__init__`` in its
body, the one ``@dataclass(frozen=True)`` would write (the fields in order, each set with
``object.__setattr__``, ``__post_init__`` last), and ``frozen_record`` adds the other methods as
functions that do what the generated ones do:

- ``__repr__``: ``Name(field=value!r, ...)`` of the fields with ``repr``, recursion shown as ``...``;
- ``__eq__``: the same class and equal tuples of the fields with ``compare``, else NotImplemented;
- ``__hash__``: the hash of that tuple (the fields with ``hash``, or ``compare`` when unset);
- ``__setattr__``/``__delattr__``: FrozenInstanceError for a field (for any name on the class
  itself), as the generated ones do (``slots=True`` as Pythons with gh-105936 fixed do it);

and the class keeps everything the ``dataclasses`` functions read (``fields``, ``replace``,
``asdict``, ``__match_args__``, ``__dataclass_params__`` saying frozen). tests/test_records.py
builds each record's twin with ``@dataclass(frozen=True)`` and compares fields, signatures,
reprs, equality, hashes, refusals and pickling on real instances.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from reprlib import recursive_repr

set_field = object.__setattr__  # what a frozen dataclass's __init__ sets each field with


class _Factory:
    """The default of a field made by a factory in a record's ``__init__`` (dataclasses' ``<factory>``)."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _Factory()


def _getter(names: tuple[str, ...]):
    """A function giving the tuple of these attributes of an object (a 1-tuple for one name)."""
    if len(names) >= 2:
        return attrgetter(*names)
    return lambda obj: tuple(getattr(obj, name) for name in names)


def frozen_record(cls=None, /, *, slots: bool = False):
    """``@dataclass(frozen=True)`` (``slots`` as there) for a class that writes its own ``__init__``."""

    def wrap(cls):
        if "__init__" not in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a frozen record writes its __init__")
        cls = dataclass(cls, init=False, repr=False, eq=False, slots=slots)
        # The class itself, slotted or not: Python 3.11's generated methods of a slotted class name
        # the class before slots (cpython gh-105936, fixed in later releases), so assigning a
        # non-field there raises TypeError from super(); a record raises FrozenInstanceError, as a
        # fixed Python's dataclass does.
        defined = cls
        params = cls.__dataclass_params__
        params.init = params.repr = params.eq = params.frozen = True
        field_list = fields(cls)
        names = tuple(f.name for f in field_list)
        shown = tuple(f.name for f in field_list if f.repr)
        compared = _getter(tuple(f.name for f in field_list if f.compare))
        hashed = _getter(tuple(f.name for f in field_list if (f.compare if f.hash is None else f.hash)))

        def __repr__(self):
            return self.__class__.__qualname__ + "(" + ", ".join(
                [f"{name}={getattr(self, name)!r}" for name in shown]) + ")"

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        def __hash__(self):
            return hash(hashed(self))

        def __setattr__(self, name, value):
            if type(self) is defined or name in names:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")
            super(defined, self).__setattr__(name, value)

        def __delattr__(self, name):
            if type(self) is defined or name in names:
                raise FrozenInstanceError(f"cannot delete field {name!r}")
            super(defined, self).__delattr__(name)

        for function in (recursive_repr()(__repr__), __eq__, __hash__, __setattr__, __delattr__):
            if function.__name__ in cls.__dict__:
                raise TypeError(f"{cls.__name__} defines {function.__name__}; a frozen record makes it")
            function.__qualname__ = f"{cls.__qualname__}.{function.__name__}"
            setattr(cls, function.__name__, function)
        if slots:  # pickling a slotted frozen dataclass (dataclasses' _dataclass_getstate/_setstate)
            if "__getstate__" not in cls.__dict__:
                cls.__getstate__ = _getstate
            if "__setstate__" not in cls.__dict__:
                cls.__setstate__ = _setstate
        return cls

    return wrap if cls is None else wrap(cls)


def _getstate(self):
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self, state):
    for field, value in zip(fields(self), state):
        object.__setattr__(self, field.name, value)
