"""Every line break the layouts' wrappers choose is a legal Unicode line-break opportunity (UAX #14,
read with uniseg, a test dependency), never splits a word (a Korean word included) unless the word
alone is wider than the line, and never leaves a separator or closing mark at a line's start."""

from hypothesis import example, given, settings
from hypothesis import strategies as st
from uniseg.linebreak import line_break_boundaries

from printables.layout.language import break_lines
from printables.i18n.fonts import width_mm
from printables.layout.primitives import wrap
from printables.linebreak import CLOSING, OPENING, SEPARATORS

LETTERS = {
    "en": "abcdefghijklmnopqrstuvwxyzABC0123456789'",
    "tr": "abcçdefgğhıijklmnoöprsştuüvyzİIÇĞÖŞÜ0123456789'",
    "ko": "가나다라마바사아자차카타파하한국어씨앗구덩이점수완두콩",
}
MARKS = ["·", "/", "–", ",", ".", ":", ";", ")", "(", "%"]


@st.composite
def texts(draw, lang: str):
    """A paragraph of random words in ``lang``, with lone separators and punctuation among them."""
    words = draw(st.lists(st.one_of(
        st.text(alphabet=LETTERS[lang], min_size=1, max_size=14),
        st.sampled_from(MARKS),
        st.builds(lambda w, m: w + m, st.text(alphabet=LETTERS[lang], min_size=1, max_size=8), st.sampled_from(MARKS)),
    ), min_size=1, max_size=40))
    return " ".join(words)


def _assert_legal(text: str, lines: list[str], width: float, measure) -> None:
    flat = " ".join(text.split())
    legal = set(line_break_boundaries(flat))
    assert all(lines), lines
    pos = 0
    for i, line in enumerate(lines):
        assert flat.startswith(line, pos), (flat, lines)
        if i:
            assert line[0] not in SEPARATORS and line[0] not in CLOSING, f"line {i + 1} starts with {line[0]!r}: {lines}"
        pos += len(line)
        if pos == len(flat):
            assert i == len(lines) - 1
            break
        assert not (line[-1] in OPENING and flat[pos] == " "), f"line {i + 1} ends with {line[-1]!r}: {lines}"
        if flat[pos] == " ":
            pos += 1
            assert pos in legal, f"a break at {pos} of {flat!r} is not a UAX #14 opportunity"
        else:  # inside a word: only when the word alone is wider than the line
            # the word: from the last break opportunity after a space to the next one (UAX #14 keeps
            # "( " with what follows it, and no line starts with a separator or closing mark, so a
            # word may hold a space)
            spaced = [b for b in legal if 0 < b < len(flat) and flat[b - 1] == " "
                      and flat[b] not in SEPARATORS and flat[b] not in CLOSING]
            start = max([b for b in spaced if b <= pos], default=0)
            end = min([b for b in spaced if b > pos], default=len(flat) + 1) - 1
            word = flat[start:end]
            assert measure(word) > width, f"the word {word!r} ({measure(word):.1f} mm) was split on a {width:.1f} mm line"
    assert pos == len(flat)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["ko", "tr"]).flatmap(lambda lang: st.tuples(st.just(lang), texts(lang))),
       st.floats(min_value=8.0, max_value=120.0), st.sampled_from([6.0, 7.0, 8.0, 9.0]))
# found in CI: a word and lone marks glued to it, too wide for the line, was cut at a space before "/"
@example(("ko", "가 / · · ·"), 8.0, 9.0)
def test_translated_lines_break_only_where_unicode_allows(lang_text, width, size_pt):
    lang, text = lang_text

    def measure(s: str) -> float:
        return width_mm(s, size_pt, lang)

    _assert_legal(text, break_lines(text, width, measure), width, measure)


@settings(max_examples=150, deadline=None)
@given(texts("en"), st.floats(min_value=8.0, max_value=120.0), st.sampled_from([6.0, 7.0, 8.0, 9.0]))
def test_english_lines_break_only_where_unicode_allows(text, width, size_pt):
    from printables import fonts

    def measure(s: str) -> float:
        return fonts.text_width_mm(s, size_pt)

    _assert_legal(text, wrap(text, width, size_pt), width, measure)


def test_a_lone_separator_stays_with_the_word_before_it():
    """The Patchwork box's Turkish paragraph broke before " · " (issue #24): the separator now ends a line."""
    def measure(s: str) -> float:
        return width_mm(s, 8.0, "tr")

    text = "Gerekenler: makas, yapıştırıcı · Kartona yazdırın"
    width = measure("Gerekenler: makas, yapıştırıcı") + 0.1
    lines = break_lines(text, width, measure)
    assert not any(line.startswith("·") for line in lines), lines
    assert any("yapıştırıcı ·" in line for line in lines), lines  # the mark went with its word
