"""The simulated figures of the publisher's box, as stored, and each sheet's facts with them.

``measured_facts.json`` beside this module is written by ``tools/simulated_facts.py`` from the rule
cores (``printables.rules.simulation``); sheets and checks only read it. A sheet whose parameters
were not measured prints no simulated figure: never a guess.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from printables.rules.facts import GAME_FACTS, GameFacts, Measure, params_key, sheet_facts

MEASURED_PATH = Path(__file__).with_name("measured_facts.json")


def entry(kind: str, params: dict, measure: Measure) -> dict:
    """The stored form of one parameter set's figures."""
    from printables.rules.simulation import POLICIES  # the tool's and tests' business: a sheet never plays

    found = {
        "params": params,
        "policy": POLICIES[kind],
        "games": measure.games,
        "seed": measure.seed,
        "turns": {"shortest": measure.turns_low, "median": measure.turns_median, "longest": measure.turns_high},
    }
    if measure.first_wins is not None:
        found["first_wins"] = measure.first_wins
        found["draws"] = measure.draws
    return found


def dumps(figures: dict) -> str:
    """The file's text for ``figures`` ({kind: {key: entry}}): one parameter set a line, stable."""
    lines = ["{", '  "about": "simulated with printables.rules.simulation; written by tools/simulated_facts.py",',
             '  "figures": {']
    kinds = sorted(figures)
    for k, kind in enumerate(kinds):
        lines.append(f"    {json.dumps(kind)}: {{")
        keys = list(figures[kind])
        for i, key in enumerate(keys):
            comma = "," if i < len(keys) - 1 else ""
            lines.append(f"      {json.dumps(key)}: {json.dumps(figures[kind][key], sort_keys=True)}{comma}")
        lines.append("    }" + ("," if k < len(kinds) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def stored() -> dict:
    """{kind: {key: entry}} as stored; empty if the file is missing."""
    try:
        return json.loads(MEASURED_PATH.read_text(encoding="utf-8"))["figures"]
    except (OSError, ValueError, KeyError):
        return {}


def stored_measure(kind: str, **params) -> Measure | None:
    """The stored figures for a sheet's parameters, or None if that set was not measured."""
    try:
        key = params_key(kind, **params)
    except (KeyError, TypeError, ValueError):
        return None
    found = stored().get(kind, {}).get(key)
    if found is None:
        return None
    turns = found["turns"]
    return Measure(found["games"], found["seed"], turns["median"], turns["shortest"], turns["longest"],
                              found.get("first_wins"), found.get("draws"))


def facts_for(kind: str, cell_mm: float | None = None, **params) -> GameFacts:
    """The publisher's box facts of a sheet: the game's facts, its pieces for ``cell_mm`` (Minefield)
    and the stored simulated figures for its parameters, if they were measured."""
    return sheet_facts(GAME_FACTS[kind], kind, stored_measure(kind, **params), cell_mm)
