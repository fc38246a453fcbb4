"""The faces each language is printed in; files, metrics and the missing-font error live in
printables/fonts.py (Noto Sans for Latin and Turkish ğ ş ı İ; NanumGothic, fonts-nanum, for Hangul).
"""

from __future__ import annotations

from printables import fonts

# lang -> (regular, bold, italic) font names; English keeps the fonts the layout chose.
LANG_FACES: dict[str, tuple[str, str, str]] = {
    "ko": ("NanumGothic", "NanumGothicBold", "NanumGothic"),  # Hangul has no italic; upright it is
    "tr": ("NotoSans", "NotoSans-Bold", "NotoSans-Italic"),
}


def face_for(lang: str, font: str) -> str:
    """The font a text the layout set in ``font`` is printed in for ``lang``."""
    if lang not in LANG_FACES:
        return font
    regular, bold, italic = LANG_FACES[lang]
    if "Bold" in font:
        return bold
    if "Oblique" in font or "Italic" in font:
        return italic
    return regular


def width_mm(text: str, size_pt: float, lang: str, font: str = "Helvetica") -> float:
    """The width of ``text`` as printed in ``lang`` for a text the layout set in ``font``."""
    return fonts.text_width_mm(text, size_pt, face_for(lang, font))
