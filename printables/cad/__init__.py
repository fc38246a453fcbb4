"""cadquery model builders (the only package importing cadquery, and only when a model command runs)."""
