"""reportlab renderers: walk layout data and draw it (the only package importing reportlab)."""
