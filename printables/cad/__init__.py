"""cadquery model builders (the only package importing cadquery, and only when a model command runs).

``import_cadquery`` imports cadquery without the VTK display libraries it loads at import time
(``cadquery.occ_impl.shapes`` imports ``OCP.IVtkOCC``, which imports the whole ``vtk`` package:
about 0.8 s of a ~1.8 s import) and uses only to show shapes and export them for display
(``toVtkPolyData``, ``cadquery.vis``, VTK/VRML export), which printables never does. While
cadquery is imported, each VTK module it asks for is a stand-in whose names (``vtkPolyData``,
``VTK_TRIANGLE``, ...) are placeholders; the first time anything uses a placeholder (calls it,
reads an attribute, compares it, ``isinstance`` with it, subclasses it), the real VTK module is
imported and every placeholder left in cadquery's modules (and in their functions' default
arguments, where cadquery has none today) is replaced by the real object. The stand-ins are gone
from ``sys.modules`` once cadquery is imported, so a later ``import vtk`` gets the real one. A cadquery
release whose import the stand-ins cannot serve is imported again the ordinary way, VTK and all.
Placeholders reach only cadquery's own VTK code, which uses them as classes and constants:
ezdxf (DXF, ~0.3 s) is not deferred the same way, because cadquery passes ``ezdxf.units.MM`` as a
default argument on to ezdxf, which compares it as a number.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

_DEFERRED_PACKAGES = ("vtk", "vtkmodules", "OCP.IVtk", "OCP.IVtkOCC", "OCP.IVtkVTK", "OCP.IVtkTools")


def _is_deferred(name: str) -> bool:
    return name in _DEFERRED_PACKAGES or name.startswith(("vtk.", "vtkmodules."))


class _NotYet(Exception):
    """A placeholder was used while cadquery is still being imported (its module is a stand-in)."""


def _load(module_name: str, path: str):
    """The real object at ``module_name`` + dotted ``path``, importing the module if need be."""
    value = importlib.import_module(module_name)
    if isinstance(value, _LaterModule):
        raise _NotYet(f"{module_name}.{path}")
    dotted = module_name
    for part in path.split("."):
        dotted = f"{dotted}.{part}"
        if not hasattr(value, part) and isinstance(value, types.ModuleType):
            importlib.import_module(dotted)  # ``from package import name`` may name a submodule
        value = getattr(value, part)
    return value


class _Later:
    """Stands for ``<module>.<path>`` of a deferred module until first used, then is the real object."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str) -> None:
        self._module = module
        self._name = name

    def _real(self):
        real = _load(self._module, self._name)
        _replace_placeholders()
        return real

    def __call__(self, *args, **kwargs):
        return self._real()(*args, **kwargs)

    def __getattr__(self, attr: str):
        try:
            return getattr(self._real(), attr)
        except _NotYet:
            if attr.startswith("__"):
                raise AttributeError(attr) from None
            return _Later(self._module, f"{self._name}.{attr}")  # a name used while importing

    def __eq__(self, other):
        if isinstance(other, _Later):
            return (self._module, self._name) == (other._module, other._name)
        try:
            return self._real() == other
        except _NotYet:
            return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        # The real object's hash once it can be had, as equality compares the real object.
        try:
            return hash(self._real())
        except _NotYet:
            return hash((self._module, self._name))

    def __int__(self) -> int:
        return int(self._real())

    def __index__(self) -> int:
        return self._real().__index__()

    def __instancecheck__(self, obj) -> bool:
        return isinstance(obj, self._real())

    def __subclasscheck__(self, cls) -> bool:
        return issubclass(cls, self._real())

    def __mro_entries__(self, bases):
        return (self._real(),)

    def __repr__(self) -> str:
        return f"<{self._module}.{self._name}, imported when first used>"


class _LaterModule(types.ModuleType):
    """A deferred module's stand-in: every name it is asked for is a placeholder."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Later(self.__name__, name)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if _is_deferred(name):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        return _LaterModule(spec.name)

    def exec_module(self, module) -> None:
        pass


def _real_defaults(function) -> None:
    """Replace placeholders among a function's default arguments."""
    function = getattr(function, "__func__", function)  # classmethod, staticmethod
    if not isinstance(function, types.FunctionType):
        return
    if function.__defaults__ and any(type(d) is _Later for d in function.__defaults__):
        function.__defaults__ = tuple(_load(d._module, d._name) if type(d) is _Later else d
                                      for d in function.__defaults__)
    if function.__kwdefaults__ and any(type(d) is _Later for d in function.__kwdefaults__.values()):
        function.__kwdefaults__ = {k: _load(d._module, d._name) if type(d) is _Later else d
                                   for k, d in function.__kwdefaults__.items()}


def _replace_placeholders() -> None:
    """Put the real object in place of every placeholder in cadquery's modules and defaults."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "cadquery" or name.startswith("cadquery.")):
            continue
        space = vars(module)
        for key, value in list(space.items()):
            if type(value) is _Later:
                space[key] = _load(value._module, value._name)
            elif isinstance(value, types.FunctionType) and value.__module__ == name:
                _real_defaults(value)
            elif isinstance(value, type) and value.__module__ == name:
                for member in vars(value).values():
                    _real_defaults(member)


def import_cadquery() -> types.ModuleType:
    """``cadquery``, imported (once) without its VTK display modules (see the module docstring)."""
    if "cadquery" in sys.modules:
        return sys.modules["cadquery"]
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    try:
        import cadquery
    except Exception:
        # A cadquery release that uses a display name while it is imported (the stand-ins cannot
        # serve it): forget the half-imported modules and import it the ordinary way, VTK and all.
        light = None
    else:
        light = cadquery
    finally:
        sys.meta_path.remove(finder)
        for name, module in list(sys.modules.items()):
            if isinstance(module, _LaterModule):
                del sys.modules[name]
                parent, _, child = name.rpartition(".")
                if parent in sys.modules and getattr(sys.modules[parent], child, None) is module:
                    delattr(sys.modules[parent], child)
    if light is not None:
        return light
    for name in [name for name in sys.modules if name == "cadquery" or name.startswith("cadquery.")]:
        del sys.modules[name]
    import cadquery

    return cadquery
