"""Where a line may break: the words a wrapper moves as wholes, so no line starts with a separator."""

from __future__ import annotations

# A mark standing alone between spaces belongs to a neighbour: separators and closing marks to the
# word before them (a line never starts with them), opening marks to the word after them.
SEPARATORS = frozenset("·‧・|/–—")
CLOSING = frozenset(",.;:!?)]}»›”’、。，．：；！？）」』】〉》")
OPENING = frozenset("([{«‹“‘（「『【〈《")


def is_trailing_mark(word: str) -> bool:
    """Whether ``word`` is only separators or closing marks (it must not start a line)."""
    return bool(word) and all(c in SEPARATORS or c in CLOSING for c in word)


def is_leading_mark(word: str) -> bool:
    """Whether ``word`` is only opening marks (it must not end a line)."""
    return bool(word) and all(c in OPENING for c in word)


def glue_words(words) -> list[str]:
    """``words`` (split at spaces) with each word that starts with a separator or closing mark joined
    to the word before it and each that ends with an opening mark to the word after it, a space
    between: the units a line breaks between."""
    glued: list[str] = []
    opening = ""
    for word in words:
        if glued and is_trailing_mark(word[0]) and not opening:
            glued[-1] = f"{glued[-1]} {word}"
        elif is_leading_mark(word[-1]):
            opening = f"{opening} {word}" if opening else word
        else:
            glued.append(f"{opening} {word}" if opening else word)
            opening = ""
    if opening:
        glued.append(opening)
    return glued
