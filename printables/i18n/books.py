"""The catalogues: each language's translations of the English texts, read from ``<lang>.toml``.

Imported only where a sheet is drawn in another language or a check reads one: an English sheet
never loads this module (nor ``tomllib``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from printables import i18n  # CATALOGUE_DIR is read from there when a catalogue is loaded
from printables.i18n import DEFAULT_LANG, LANG_NAMES, PART_SEPARATOR, MissingTranslation, Translated, require_lang

# A text needs a translation if it has a word of 3 or more Latin letters; grid labels (A, AA),
# numbers, units and token names (P1, 7x7) read the same in every language.
WORD_RE = re.compile(r"[A-Za-z]{3,}")
FIELD_RE = re.compile(r"\{([a-z_0-9]+)\}")
# Giuthi's sowing notation (4cw, 0ccw) reads the same in every language.
SOWING_RE = re.compile(r"\b[0-9]+c?cw\b")
# File names (giuthi-board-left-2x6-4seeds.stl, dremel-3d45-giuthi.ini) too.
FILE_RE = re.compile(r"[\w.-]+\.(?:stl|3mf|ini|pdf|json)\b")
LIST_SEPARATOR = ", "


def needs_translation(text: str) -> bool:
    """True if ``text`` has words to translate (not just numbers, grid letters or units)."""
    return bool(WORD_RE.search(SOWING_RE.sub("", FILE_RE.sub("", text))))


@dataclass(frozen=True, eq=False)  # one object per language (cached): compared and hashed by identity
class Catalogue:
    """One language's translations of the English texts."""

    lang: str
    texts: dict[str, str]
    patterns: tuple[tuple[re.Pattern, str, str], ...]  # (English as a regex, English, translation)
    phrases: dict[str, str] = dataclasses.field(default_factory=dict)  # fragments the checks look for

    def phrase(self, english: str) -> str:
        """How an English text or fragment (``[phrase]``, may hold {fields}) reads in this language."""
        if self.lang == DEFAULT_LANG:
            return english
        if english in self.phrases:
            return self.phrases[english]
        for _, source, translation in self.patterns:
            if source == english:
                return translation
        return self.translate(english)

    def lookup(self, text: str) -> str | None:
        """The translation of ``text``, or None if the catalogue does not cover it."""
        if isinstance(text, Translated) or not needs_translation(text):
            return str(text)
        if text in self.texts:
            return self.texts[text]
        for regex, _, translation in self.patterns:
            match = regex.fullmatch(text)
            if match:
                fields = {}
                for name, value in match.groupdict().items():
                    fields[name] = self.lookup(value)
                    if fields[name] is None:
                        fields[name] = self._lookup_list(value)
                    if fields[name] is None:
                        break
                else:
                    return translation.format(**fields)
        if PART_SEPARATOR in text:
            parts = [self.lookup(part) for part in text.split(PART_SEPARATOR)]
            if all(part is not None for part in parts):
                return PART_SEPARATOR.join(parts)
        return None

    def _lookup_list(self, value: str) -> str | None:
        """A field's value that lists known texts joined with ", " (the texts may hold commas
        themselves: "Board, left half, Board, right half"), translated item by item, or None."""
        pieces = value.split(LIST_SEPARATOR)
        n = len(pieces)
        # best[i]: the fewest items that make up pieces[:i], translated
        best: list[list[str] | None] = [[]] + [None] * n
        for i in range(1, n + 1):
            for j in range(i):
                if best[j] is None or (j == 0 and i == n):
                    continue
                found = self.lookup(LIST_SEPARATOR.join(pieces[j:i]))
                if found is not None and (best[i] is None or len(best[j]) + 1 < len(best[i])):
                    best[i] = best[j] + [found]
        return LIST_SEPARATOR.join(best[n]) if best[n] else None

    def english(self, text: str) -> str | None:
        """The English a translated text (exact or from a pattern) was made from, or None."""
        if self.lang == DEFAULT_LANG or not text:
            return text
        found = _reverse(self).get(text)
        if found is not None:
            return found
        for regex, english, _ in _reverse_patterns(self):
            match = regex.fullmatch(text)
            if match:
                fields = {name: self.english(value) or value for name, value in match.groupdict().items()}
                return english.format(**fields)
        return None

    def translate(self, text: str) -> str:
        """The translation of ``text``; MissingTranslation if there is none."""
        found = self.lookup(text)
        if found is None:
            raise MissingTranslation(f"no {LANG_NAMES[self.lang]} translation for {str(text)!r} "
                                     f"(add it to printables/i18n/{self.lang}.toml)")
        return found


@functools.lru_cache(maxsize=None)
def _reverse(book: "Catalogue") -> dict[str, str]:
    return {translation: english for english, translation in book.texts.items()}


@functools.lru_cache(maxsize=None)
def _reverse_patterns(book: "Catalogue") -> tuple[tuple[re.Pattern, str, str], ...]:
    found = [(_pattern_regex(translation), english, translation) for _, english, translation in book.patterns]
    return tuple(sorted(found, key=lambda p: -len(p[2])))


def _pattern_regex(english: str) -> re.Pattern:
    pieces, last = [], 0
    for match in FIELD_RE.finditer(english):
        pieces.append(re.escape(english[last:match.start()]))
        # A field never spans a " · " (each part of a joined line is its own text) and may be empty
        # (the plural "s" of "coin{s}").
        pieces.append(f"(?P<{match.group(1)}>(?:(?! · ).)*?)")
        last = match.end()
    pieces.append(re.escape(english[last:]))
    return re.compile("".join(pieces), re.DOTALL)


@functools.lru_cache(maxsize=None)
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (an empty one for English, the source language)."""
    lang = require_lang(lang)
    if lang == DEFAULT_LANG:
        return Catalogue(lang, {}, (), {})
    import tomllib  # only when a sheet is drawn in another language: a start-up cost otherwise

    data = tomllib.loads((i18n.CATALOGUE_DIR / f"{lang}.toml").read_text(encoding="utf-8"))
    patterns = []
    for english, translation in data.get("pattern", {}).items():
        if not set(FIELD_RE.findall(translation)) <= set(FIELD_RE.findall(english)):
            raise ValueError(f"{lang}.toml: the translation of {english!r} names a field the English does not")
        patterns.append((_pattern_regex(english), english, translation))
    # Longer patterns first: the most specific one wins.
    patterns.sort(key=lambda p: -len(p[1]))
    return Catalogue(lang, dict(data.get("text", {})), tuple(patterns), dict(data.get("phrase", {})))
