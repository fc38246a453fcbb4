"""Open a PDF with pdfplumber so that its pages parse faster, giving the very same objects.

Two steps of pdfplumber's reading are done the short way; everything else is pdfplumber's and
pdfminer's own.

**Content streams.** pdfminer reads a page's content stream a byte at a time in Python
(``PSBaseParser``), about two thirds of the reading time. :func:`content_objects` splits the stream
into the same operands and operators with one regular expression, by pdfminer's own rules: where
a token ends, how a number reads (an int, or a float if it has a dot; a lone sign or dot is no
token), keywords (``true``/``false`` are booleans), names, strings (escapes read as
``_parse_string_1`` reads them: octal, the named ones, a dropped line break or unknown escape;
brackets one deep inside), hex strings and arrays. Whatever it does not cover (dictionaries
``<< >>``, procedures ``{ }``, comments, ``#`` in a name, inline images, brackets two deep, a page
of several content streams) gives None, and the page is read by pdfminer's parser as before. The interpreter then runs the operators exactly as pdfminer's ``execute`` does.

**Objects.** pdfplumber turns each of pdfminer's layout objects into a dict (``Page.process_object``), resolving
every attribute recursively (``resolve_all``) and decoding each character's colour-space name; on a
sheet of a few thousand characters and paths that is about a third of the reading time. ``open_pdf``
gives each page a ``process_object`` that makes the same dict, key for key and value for value,
taking the short way for what needs no resolving: numbers, strings and flat tuples of numbers are
returned as they are (``resolve_all`` returns them unchanged too), and a class's kind and a colour
space's name are worked out once. Anything else goes through pdfplumber's own ``resolve_all``.

``tests/test_parsing.py`` compares every object of every page with stock pdfplumber's.
"""

from __future__ import annotations

import re

import pdfminer
import pdfplumber
from pdfminer import settings
from pdfminer.layout import LTChar, LTCurve, LTTextContainer
from pdfminer.pdfinterp import PDFInterpreterError, PDFPageInterpreter
from pdfminer.pdftypes import stream_value
from pdfminer.psparser import ESC_STRING, HEX_PAIR, KWD, LIT, SPC, PSKeyword, keyword_name
from pdfplumber.page import Page, PDFPageAggregatorWithMarkedContent
from pdfplumber.utils.exceptions import PdfminerException
from pdfplumber.page import ALL_ATTRS, fix_fontname_bytes, lt_pat
from pdfplumber.utils import resolve_all, resolve_and_decode
from unicodedata import normalize as normalize_unicode

_PLAIN = (int, float, str, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)
_KINDS: dict[type, str] = {}
_NAMES: dict[object, object] = {}


def _resolved(value):
    """``resolve_all(value)``: the same value, without the walk for plain ones."""
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is tuple:
        for item in value:
            if type(item) not in _PLAIN_TYPES:
                return resolve_all(value)
        return value
    return resolve_all(value)


def _process_object(page, obj) -> dict:
    """pdfplumber's ``Page.process_object`` (0.11.10), with the short ways named in the module's doc."""
    cls = obj.__class__
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = re.sub(lt_pat, "", cls.__name__).lower()
    plain = _PLAIN_TYPES
    attr = {k: v if type(v) in plain else _resolved(v) for k, v in obj.__dict__.items() if k in ALL_ATTRS}
    attr["object_type"] = kind
    attr["page_number"] = page.page_number
    for cs in ("ncs", "scs"):
        if hasattr(obj, cs):
            name = getattr(obj, cs).name
            try:
                decoded = _NAMES[name]
            except (KeyError, TypeError):  # TypeError: a name that cannot be a key is decoded each time
                decoded = resolve_and_decode(name)
                if type(name) in _PLAIN_TYPES or type(name) is bytes:
                    _NAMES[name] = decoded
            attr[cs] = decoded
    if isinstance(obj, (LTChar, LTTextContainer)):
        text = obj.get_text()
        attr["text"] = normalize_unicode(page.pdf.unicode_norm, text) if page.pdf.unicode_norm is not None else text
    if isinstance(obj, LTChar):
        gs = obj.graphicstate
        attr["stroking_color"] = gs.scolor if isinstance(gs.scolor, tuple) else (gs.scolor,)
        attr["non_stroking_color"] = gs.ncolor if isinstance(gs.ncolor, tuple) else (gs.ncolor,)
        if isinstance(attr["fontname"], bytes):
            attr["fontname"] = fix_fontname_bytes(attr["fontname"])
    elif isinstance(obj, LTCurve):
        attr["pts"] = list(map(page.point2coord, attr["pts"]))
        attr["path"] = [(cmd, *map(page.point2coord, pts)) for cmd, *pts in obj.original_path]
        attr["dash"] = obj.dashing_style
    mb_x0, mb_top = page.mediabox[:2]
    if "y0" in attr:
        attr["top"] = (page.height - attr["y1"]) + mb_top
        attr["bottom"] = (page.height - attr["y0"]) + mb_top
        attr["doctop"] = page.initial_doctop + attr["top"]
    if "x0" in attr and mb_x0 != 0:
        attr["x0"] = attr["x0"] + mb_x0
        attr["x1"] = attr["x1"] + mb_x0
    return attr


# ---------------------------------------------------------------------------- content streams

_TOKEN = re.compile(
    rb"[\s\x00]*(?:"  # pdfminer skips whitespace and NUL between tokens
    rb"(?P<num>[-+0-9][0-9]*(?:\.[0-9]*)?|\.[0-9]*)"  # ends at the first non-digit (a second dot too)
    rb"|(?P<kw>[A-Za-z][^#/%\[\]()<>{}\s]*)"
    rb"|(?P<name>/[^#/%\[\]()<>{}\s]*)(?P<hash>\#?)"
    rb"|\((?P<str>[^()\\]*)\)"
    rb"|(?P<string>\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\))"  # escapes, brackets one deep
    rb"|<(?P<hex>[\s0-9a-fA-F]*)>(?P<gt>>?)"
    rb"|(?P<bad>[<>%{}(])"
    rb"|(?P<one>[^\s\x00])"  # pdfminer's one-byte keywords: [ ] ' " * and strays
    rb")",
    re.S,
)
# Every byte at a token's start matches some group, so ``finditer`` skips nothing but whitespace.
_OPEN, _CLOSE = KWD(b"["), KWD(b"]")
_INLINE = (KWD(b"BI"), KWD(b"ID"))


class _Unsupported(Exception):
    """Content the short way does not read: pdfminer's parser reads the page."""


_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.S)


def _unescaped(match) -> bytes:
    """One backslash escape of a string, as pdfminer's ``_parse_string_1`` reads it."""
    code = match[1]
    if 0x30 <= code[0] <= 0x37:  # octal: one to three digits
        value = int(code, 8)
        assert value < 256, f"Invalid octal {code!r} ({value})"  # pdfminer's own check and words
        return bytes((value,))
    if code in ESC_STRING:
        return bytes((ESC_STRING[code],))
    return b""  # a line break after the backslash, or an escape PDF does not define: dropped


def _string(raw: bytes) -> bytes:
    """The bytes of a literal string ``(...)`` (escapes, brackets inside), as pdfminer reads them."""
    return _ESCAPE.sub(_unescaped, raw[1:-1])


def _hex_string(raw: bytes) -> bytes:
    """The bytes of a hex string ``<...>``, as pdfminer's ``_parse_hexstring`` reads them."""
    return HEX_PAIR.sub(lambda m: bytes((int(m.group(0), 16),)), SPC.sub(b"", raw.strip(b" \t\n\r\f\v\x00")[1:-1]))


def _tokens(data: bytes):
    """pdfminer's tokens of a content stream (``PSBaseParser.nexttoken``), or _Unsupported."""
    out = []
    add = out.append
    seen: dict[bytes, object] = {}  # a number, keyword or name reads the same each time
    for m in _TOKEN.finditer(data):
        kind = m.lastgroup
        if kind == "num" or kind == "kw":
            text = m[kind]
            try:
                add(seen[text])
                continue
            except KeyError:
                pass
            if kind == "kw":
                value = True if text == b"true" else False if text == b"false" else KWD(text)
            else:
                try:
                    value = float(text) if b"." in text else int(text)
                except ValueError:  # a lone sign or dot: pdfminer makes no token of it
                    continue
            seen[text] = value
            add(value)
        elif kind == "name" or kind == "hash":
            if m["hash"]:
                raise _Unsupported("# in a name")
            text = m["name"][1:]
            try:
                add(LIT(str(text, "utf-8")))
            except UnicodeDecodeError:
                add(LIT(text))
        elif kind == "str":
            add(m[kind])
        elif kind == "string":
            add(_string(m[kind]))
        elif kind == "hex" or kind == "gt":
            if m["gt"]:
                raise _Unsupported("a hex string followed by >")
            add(_hex_string(m[0]))
        elif kind == "one":
            add(KWD(m[kind]))
        else:
            raise _Unsupported(f"{m[kind]!r} at {m.start(kind)}")
    return out


def content_objects(data: bytes) -> list | None:
    """What pdfminer's ``PDFContentParser.nextobject`` gives for one content stream, in order
    (operands, arrays as lists, operators as keywords), or None where the short way does not read it."""
    try:
        tokens = _tokens(data)
    except _Unsupported:
        return None
    out: list = []
    arrays: list[list] = []  # the open arrays, innermost last
    for token in tokens:
        if token is _OPEN:
            arrays.append([])
        elif token is _CLOSE:
            if arrays:  # a stray ] is dropped, as pdfminer does
                done = arrays.pop()
                (arrays[-1] if arrays else out).append(done)
        elif token in _INLINE:
            return None
        else:
            (arrays[-1] if arrays else out).append(token)
    return out  # arrays still open at the end are lost, as in pdfminer


class _Interpreter(PDFPageInterpreter):
    """pdfminer's interpreter, reading each content stream with :func:`content_objects` where it can."""

    _methods: dict = {}

    def execute(self, streams) -> None:
        objects = self._objects(streams)
        if objects is None:
            return super().execute(streams)
        stream = stream_value(streams[0])
        self.stream_ids.clear()
        self.stream_ids.add(stream.objid)
        methods = self._methods
        cls = type(self)
        for obj in objects:
            if isinstance(obj, PSKeyword):
                key = (cls, obj)
                try:
                    method, nargs = methods[key]
                except KeyError:
                    name = keyword_name(obj)
                    method = "do_{}".format(name.replace("*", "_a").replace('"', "_w").replace("'", "_q"))
                    if hasattr(self, method):
                        nargs = getattr(self, method).__code__.co_argcount - 1
                    else:
                        method, nargs = None, name
                    methods[key] = (method, nargs)
                if method is None:
                    if settings.STRICT:
                        raise PDFInterpreterError(f"Unknown operator: {nargs!r}")
                    continue
                func = getattr(self, method)
                if nargs:
                    args = self.pop(nargs)
                    if len(args) == nargs:
                        func(*args)
                else:
                    func()
            else:
                self.push(obj)

    def _objects(self, streams) -> list | None:
        if len(streams) != 1:
            return None
        stream = stream_value(streams[0])
        if stream.objid is None or stream.objid in self.parent_stream_ids:
            return None  # pdfminer's execute says why it skips it
        return content_objects(stream.get_data())


class _Page(Page):
    """A pdfplumber page that parses with :class:`_Interpreter` and :func:`_process_object`."""

    @property
    def layout(self):
        if hasattr(self, "_layout"):
            return self._layout
        device = PDFPageAggregatorWithMarkedContent(self.pdf.rsrcmgr, pageno=self.page_number, laparams=self.pdf.laparams)
        interpreter = _Interpreter(self.pdf.rsrcmgr, device)
        try:
            interpreter.process_page(self.page_obj)
        except Exception as e:
            raise PdfminerException(e)
        self._layout = device.get_result()
        return self._layout

    def process_object(self, obj) -> dict:
        return _process_object(self, obj)


# The releases whose code the copies above are (pdfplumber's ``Page.layout`` and
# ``process_object``, pdfminer's ``PDFPageInterpreter.execute`` and tokenizer); with others the
# pages are read by the libraries' own code.
COPIED_FROM = {"pdfplumber": ("0.11.",), "pdfminer": ("20260107",)}


def speed_up(pdf):
    """Make every page of an open pdfplumber PDF parse the faster way; returns ``pdf``."""
    if not (pdfplumber.__version__.startswith(COPIED_FROM["pdfplumber"])
            and pdfminer.__version__.startswith(COPIED_FROM["pdfminer"])):
        return pdf
    for page in pdf.pages:
        if type(page) is Page:
            page.__class__ = _Page
    return pdf


def open_pdf(path) -> "pdfplumber.PDF":
    """``pdfplumber.open(path)`` whose pages parse faster into the same objects."""
    return speed_up(pdfplumber.open(str(path)))
