"""Bitcoin Harvest figures: CLI cold-start cost against importing reportlab, and games per second.

Usage: python benchmarks/bench_harvest.py   (prints figures; asserts nothing)
"""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from printables.rules import harvest
from printables.rules.pentominoes import LETTERS

RUNS = 7


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def cold_start() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "h.pdf")
        cli = [sys.executable, "-m", "printables", "harvest", "-o", out]
        base = [sys.executable, "-c", "import reportlab.pdfgen.canvas"]
        wall(cli), wall(base)  # warm the file cache
        cli_t, base_t = [], []
        for _ in range(RUNS):
            cli_t.append(wall(cli))
            base_t.append(wall(base))
    c, b = statistics.median(cli_t), statistics.median(base_t)
    print(f"printables harvest (cold process, median of {RUNS}): {c * 1000:7.1f} ms")
    print(f"python -c 'import reportlab.pdfgen.canvas':          {b * 1000:7.1f} ms")
    print(f"ratio: {c / b:.2f}x  (aim: under 1.5x)")


def games_per_second(players: int, seconds: float = 3.0) -> None:
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        final = harvest.play_game(10, 10, rng.sample(LETTERS, players), rng.randrange(1 << 30))
        games += 1
        moves += len(final.pieces)
    elapsed = time.perf_counter() - start
    print(f"random games, 10x10, {players} players: {games / elapsed:8.1f} games/s ({moves / games:.1f} placements a game, "
          f"coin policy {harvest.COIN_POLICY_RANDOM})")


if __name__ == "__main__":
    print(f"cores: {os.cpu_count()}")
    cold_start()
    games_per_second(2)
    games_per_second(4)
