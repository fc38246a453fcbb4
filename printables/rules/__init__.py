"""Pure rule cores, one module per game: no I/O, no reportlab, cadquery or click."""
