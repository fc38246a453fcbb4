"""Derive the recommended Bitcoin Harvest grid for 2 to 12 players (prints the table).

The method is documented in printables/rules/harvest.py (see RECOMMENDED_GRID); the printed
table is what that constant holds. Usage: python benchmarks/harvest_recommendation.py [GAMES]
"""

import sys
import time

from printables.rules import harvest

games = int(sys.argv[1]) if len(sys.argv) > 1 else harvest.RECOMMENDATION_GAMES
start = time.perf_counter()
target = harvest.mean_placements_per_player(10, 2, games)
print(f"target: {target:.2f} placements per player (10x10, 2 players, {games} games each)")
table = {}
for players in range(harvest.MIN_PLAYERS, harvest.MAX_PLAYERS + 1):
    side = harvest.derive_recommended_side(players, games)
    table[players] = side
    mean = harvest.mean_placements_per_player(side, players, games)
    print(f"{players:2d} players: {side}x{side}  ({mean:.2f} placements per player)")
print("RECOMMENDED_SIDE =", table)
print(f"took {time.perf_counter() - start:.1f} s")
