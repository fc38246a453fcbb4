"""Validated, frozen parameter objects in millimetres (pure: no drawing or CAD imports)."""
