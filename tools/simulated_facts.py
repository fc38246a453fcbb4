"""Write the simulated figures of the publisher's box (printables/measured_facts.json).

Run: python tools/simulated_facts.py   (after a rule core or a policy in printables/rules/simulation.py
changes; tests/test_simulated_facts.py says when: it re-plays some sets with the same seed and
compares, and re-measures others with another seed)

For every parameter set of ``simulation.measured_sets()`` it plays ``simulation.GAMES`` games with
seed ``simulation.SEED`` and stores the games' length (shortest, median, longest) and,
for two players, the first player's share of wins and of ties, with the parameters and the policy.
``--only KIND`` re-measures one game's sets, ``--sets KEY...`` the sets named (e.g. "11x5 2p 2/2
coins"), and keeps the others as stored; every set stands alone (its games are seeded by its own
key), so the file is the same as a full run's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.measured import MEASURED_PATH, dumps, entry  # noqa: E402
from printables.rules import simulation  # noqa: E402


def table(sets, games: int = simulation.GAMES, seed: int = simulation.SEED, progress=None) -> dict:
    """{kind: {key: entry}} for ``sets`` of (kind, key, parameters)."""
    found: dict[str, dict[str, dict]] = {}
    for kind, key, params in sets:
        start = time.perf_counter()
        found.setdefault(kind, {})[key] = entry(kind, params, simulation.measure(kind, key, games, seed))
        if progress:
            progress(f"{kind} {key}: {found[kind][key]['turns']} ({time.perf_counter() - start:.1f} s)")
    return found


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=simulation.KINDS, help="re-measure only this game's sets")
    parser.add_argument("--sets", nargs="+", metavar="KEY", help="re-measure only these parameter sets")
    args = parser.parse_args(argv)
    every = simulation.measured_sets()
    sets = [s for s in every if args.only in (None, s[0]) and (args.sets is None or s[1] in args.sets)]
    found = table(sets, progress=print)
    if args.only or args.sets:
        kept = json.loads(MEASURED_PATH.read_text(encoding="utf-8"))["figures"]
        merged: dict[str, dict] = {}
        for kind, key, _ in every:  # in the order a full run writes
            entry_ = found.get(kind, {}).get(key) or kept.get(kind, {}).get(key)
            if entry_ is not None:
                merged.setdefault(kind, {})[key] = entry_
        found = merged
    tmp = MEASURED_PATH.with_suffix(".json.tmp")
    tmp.write_text(dumps(found), encoding="utf-8")
    tmp.replace(MEASURED_PATH)
    print(f"wrote {MEASURED_PATH}")


if __name__ == "__main__":
    main()
