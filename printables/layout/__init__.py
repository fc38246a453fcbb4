"""Sheet geometry as plain data in millimetres."""
