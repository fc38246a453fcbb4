"""printables.lazy: a module hands out another module's names, loaded on first use."""

from __future__ import annotations

import sys
import types

import pytest

from printables.lazy import lazy_names


@pytest.fixture
def source(monkeypatch):
    """A source module that records when it is imported (as the import system would run it)."""
    loads = []

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name != "printables_test_source":
                return None
            import importlib.util

            class Loader:
                def create_module(self, spec):
                    return None

                def exec_module(self, module):
                    loads.append(1)
                    module.play = lambda: "played"
                    module.State = type("State", (), {})
                    module._private = 1

            return importlib.util.spec_from_loader(name, Loader())

    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    monkeypatch.delitem(sys.modules, "printables_test_source", raising=False)
    yield loads
    sys.modules.pop("printables_test_source", None)


def test_every_public_name_is_handed_out_on_first_use_then_kept(source):
    host = types.ModuleType("host")
    host.__getattr__, host.__dir__ = lazy_names(vars(host), "printables_test_source")
    assert source == []  # nothing loaded yet
    assert host.play() == "played" and source == [1]
    assert "play" in vars(host)  # kept: the next lookup does not ask again
    assert host.State is sys.modules["printables_test_source"].State and source == [1]
    assert {"play", "State", "_private"} <= set(dir(host))  # private helpers too (tests patch them)
    with pytest.raises(AttributeError, match="module 'host' has no attribute 'missing'"):
        host.missing
    with pytest.raises(AttributeError):
        host.__path__  # what the import system asks for is never the source's


def test_only_the_listed_names_are_handed_out(source):
    host = types.ModuleType("host")
    host.__getattr__, host.__dir__ = lazy_names(vars(host), "printables_test_source", {"play"})
    assert "play" in dir(host) and source == []  # dir lists the offered names without loading
    with pytest.raises(AttributeError, match="no attribute 'State'"):
        host.State
    assert source == []
    assert host.play() == "played" and source == [1]
