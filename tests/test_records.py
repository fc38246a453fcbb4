"""Frozen records (printables/records.py) behave as the ``@dataclass(frozen=True)`` classes they replace.

Each record class gets a twin made by ``dataclasses`` itself from the same fields; real instances
(a Patchwork sheet's primitives, the patches, the parameters, the packings and the track's spaces)
are rebuilt as twins and compared: fields, __init__ signatures, reprs, equality, hashes, refusals
to change a field, dataclasses.replace/asdict, pickling and copying.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from printables.layout import patchwork as pw_layout
from printables.layout import primitives
from printables.layout.sheet import Box, regions
from printables.params.patchwork import PatchworkSheet
from printables.records import FACTORY, frozen_record, set_field
from printables.rules import patchwork as pw_rules
from printables.rules.facts import GAME_FACTS, GameFacts

RECORDS = (primitives.Rect, primitives.Line, primitives.Circle, primitives.Polygon, primitives.Text,
           primitives.Page, primitives.Document, pw_rules.Patch, PatchworkSheet, GameFacts, Box,
           pw_layout.Placed, pw_layout.Space)


def twin_of(cls):
    """``cls`` as ``@dataclass(frozen=True)`` (slots as the record has them) makes it from its fields."""
    namespace = {"__annotations__": {}, "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                 "__doc__": cls.__doc__}
    for f in dataclasses.fields(cls):
        namespace["__annotations__"][f.name] = f.type
        namespace[f.name] = dataclasses.field(
            default=f.default, default_factory=f.default_factory, init=f.init, repr=f.repr, hash=f.hash,
            compare=f.compare, metadata=f.metadata, kw_only=f.kw_only)
    for name in ("__post_init__",):
        if name in cls.__dict__:
            namespace[name] = cls.__dict__[name]
    slots = "__slots__" in cls.__dict__
    return dataclasses.dataclass(frozen=True, slots=slots)(type(cls.__name__, (), namespace))


TWINS = {cls: twin_of(cls) for cls in RECORDS}


def instances():
    """Real instances of every record class, as a Patchwork sheet makes them."""
    sheet = PatchworkSheet()
    document = pw_layout.layout(sheet)
    found = [document, *document.pages, sheet, PatchworkSheet(part="track", cell_mm=15, ink="low", lang="ko")]
    seen = set()
    for page in document.pages:
        for item in page.items:
            found.append(item)
            seen.add(type(item))
    assert seen == {primitives.Rect, primitives.Line, primitives.Circle, primitives.Polygon, primitives.Text}
    found += [primitives.Rect(1, 2, 3, 4, dash_mm=(1.0, 2.0)), primitives.Text(1, 2, "x", angle=90.0)]
    found += list(pw_rules.PATCHES) + list(GAME_FACTS.values())
    found += regions(Box(0, 0, 100, 50), 2, 2, 3)
    found += [placed for page in pw_layout.packed_patches(9, 10) for placed in page]
    found += pw_layout.spiral_spaces(12.0)
    assert {type(obj) for obj in found} == set(RECORDS)
    return found


INSTANCES = instances()


def as_twin(obj):
    twin = TWINS[type(obj)]
    made = twin(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init})
    for f in dataclasses.fields(obj):  # fields made in __post_init__ (a patch's orientations)
        assert getattr(made, f.name) == getattr(obj, f.name)
    return made


def outcome(call):
    try:
        return "ok", call()
    except Exception as error:  # noqa: BLE001 - the very exception is what is compared
        return type(error), str(error)


def as_fixed(twin_outcome, twin):
    """What the twin's refusal is on a Python with cpython gh-105936 fixed: 3.11's generated
    ``__setattr__``/``__delattr__`` of a slotted frozen dataclass name the class before slots, so a
    non-field fails in ``super()`` with TypeError; a record (and a fixed Python) says FrozenInstanceError."""
    kind, text = twin_outcome
    if kind is TypeError and "super(type, obj)" in text and "__slots__" in vars(type(twin)):
        return dataclasses.FrozenInstanceError, None
    return twin_outcome


def refusal(ours, theirs, twin):
    """``ours`` against the twin's, the message aside only where ``as_fixed`` rewrote the twin's."""
    fixed = as_fixed(theirs, twin)
    return ours == fixed if fixed is theirs else (ours[0], None) == fixed


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_class_matches_its_dataclass_twin(cls):
    twin = TWINS[cls]
    ours, theirs = dataclasses.fields(cls), dataclasses.fields(twin)
    assert [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only)
            for f in ours] == [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash,
                                f.compare, f.kw_only) for f in theirs]
    assert repr(cls.__dataclass_params__) == repr(twin.__dataclass_params__)
    assert cls.__match_args__ == twin.__match_args__
    assert getattr(cls, "__slots__", None) == getattr(twin, "__slots__", None)
    assert dataclasses.is_dataclass(cls)
    # the written __init__ takes the same parameters with the very same defaults
    mine, generated = inspect.signature(cls.__init__), inspect.signature(twin.__init__)
    assert list(mine.parameters) == list(generated.parameters)
    for name, parameter in mine.parameters.items():
        other = generated.parameters[name]
        assert parameter.kind == other.kind
        if repr(other.default) == "<factory>":
            assert parameter.default is FACTORY
        else:
            assert parameter.default is other.default, name
    for name in ("__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__init__"):
        assert getattr(cls, name).__qualname__ == f"{cls.__qualname__}.{name}"


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_instances_behave_as_the_twins(cls):
    objects = [obj for obj in INSTANCES if type(obj) is cls]
    twins = [as_twin(obj) for obj in objects]
    for obj, twin in zip(objects, twins):
        assert repr(obj) == repr(twin)
        assert outcome(lambda: hash(obj)) == outcome(lambda: hash(twin))
        assert dataclasses.asdict(obj) == dataclasses.asdict(twin)
        assert dataclasses.astuple(obj) == dataclasses.astuple(twin)
        for name in [f.name for f in dataclasses.fields(obj)] + ["not_a_field"]:
            assert refusal(outcome(lambda: setattr(obj, name, 1)), outcome(lambda: setattr(twin, name, 1)), twin)
            assert refusal(outcome(lambda: delattr(obj, name)), outcome(lambda: delattr(twin, name)), twin)
        assert (obj == 1) is (twin == 1) is False
        assert obj.__eq__(twin) is NotImplemented and twin.__eq__(obj) is NotImplemented
        again = pickle.loads(pickle.dumps(obj))
        assert again == obj and type(again) is cls and obj.__getstate__() == twin.__getstate__()
        assert copy.deepcopy(obj) == obj and copy.copy(obj) == obj
        first = dataclasses.fields(obj)[0]
        if first.init:
            changed = dataclasses.replace(obj, **{first.name: getattr(obj, first.name)})
            assert changed == obj and changed is not obj
    # equality and hashes among instances, pair by pair, as the twins have them
    sample = list(zip(objects, twins))[:60]
    for a, ta in sample:
        for b, tb in sample:
            assert (a == b) == (ta == tb) and (a != b) == (ta != tb)
    if outcome(lambda: hash(objects[0]))[0] == "ok":
        assert len(set(objects)) == len(set(twins))


def test_defaults_and_post_init_as_the_dataclass():
    line = primitives.Line(0, 0, 1, 1)
    twin = TWINS[primitives.Line](0, 0, 1, 1)
    assert repr(line) == repr(twin) and line.stroke is twin.stroke and line.line_mm is twin.line_mm
    document, other = primitives.Document((), "t", "s", "k"), primitives.Document((), "t", "s", "k")
    assert document.metadata == {} and document.metadata is not other.metadata  # a new dict each
    assert primitives.Document((), "t", "s", "k", None).metadata is None  # None is a value, as there
    sheet = PatchworkSheet(cell_mm=12)
    assert sheet.cell_mm == 12.0 and isinstance(sheet.cell_mm, float)  # __post_init__ ran
    assert outcome(lambda: PatchworkSheet(part="none")) == outcome(lambda: TWINS[PatchworkSheet](part="none"))
    assert outcome(lambda: primitives.Line(1, 2))[0] is TypeError
    assert outcome(lambda: primitives.Line(1, 2, 3, 4, x1=1))[0] is TypeError
    patch = pw_rules.PATCHES[7]
    assert patch.orientations == pw_rules.orientations_of(patch.shape)


def test_recursion_in_repr_is_shown_as_dots():
    items: list = []
    page = primitives.Page(1.0, 2.0, items)
    items.append(page)
    twin_items: list = []
    twin = TWINS[primitives.Page](1.0, 2.0, twin_items)
    twin_items.append(twin)
    assert repr(page) == repr(twin) == "Page(width=1.0, height=2.0, items=[...])"


def test_a_record_must_write_its_init_and_not_the_made_methods():
    with pytest.raises(TypeError, match="writes its __init__"):
        @frozen_record
        class NoInit:
            a: int

    with pytest.raises(TypeError, match="defines __eq__"):
        @frozen_record
        class OwnEq:
            a: int

            def __init__(self, a):
                set_field(self, "a", a)

            def __eq__(self, other):
                return True


def test_subclass_of_a_record_refuses_field_changes_only():
    @frozen_record
    class Base:
        a: int

        def __init__(self, a):
            set_field(self, "a", a)

    class Child(Base):
        pass

    twin_base = dataclasses.dataclass(frozen=True)(type("Base", (), {"__annotations__": {"a": "int"}}))

    class TwinChild(twin_base):
        pass

    child, twin = Child(1), TwinChild(1)
    assert outcome(lambda: setattr(child, "other", 2)) == outcome(lambda: setattr(twin, "other", 2)) == ("ok", None)
    assert child.other == twin.other == 2
    assert outcome(lambda: setattr(child, "a", 2)) == outcome(lambda: setattr(twin, "a", 2))
    assert outcome(lambda: delattr(child, "other")) == outcome(lambda: delattr(twin, "other"))


def test_a_slotted_record_refuses_a_new_attribute_as_a_frozen_dataclass_should():
    # Patch is slotted: a new attribute is refused as frozen (not a TypeError from super()).
    from printables.rules.patchwork import PATCHES

    patch = PATCHES[0]
    with pytest.raises(dataclasses.FrozenInstanceError, match="not_a_field"):
        patch.not_a_field = 1
    with pytest.raises(dataclasses.FrozenInstanceError, match="not_a_field"):
        del patch.not_a_field
