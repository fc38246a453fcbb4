"""Read produced files back and compare them with the rule cores and the parameters.

Nothing here imports printables.layout, printables.render or printables.cad, so a drawing bug
cannot hide behind the same bug in its check.
"""
