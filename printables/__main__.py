"""``python -m printables``."""

from printables.cli import main

main()
