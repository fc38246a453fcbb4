"""printables uses reportlab through its public API only (issue 23): no module reads or sets a
private name (one leading underscore) of reportlab's modules, canvases, fonts or path objects.

An ``ast`` walk of every module in printables/, imports inside functions included. A canvas or font
travels through variables, which a walk cannot follow, so the rule is broad where reportlab is
imported: such a module accesses no attribute with a single leading underscore at all (on any
object). Everywhere else, no attribute may bear one of the private names the renderer once used.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "printables"

# reportlab's internals that printables/render once read or set (canvas state and content, the
# TrueType reader's buffers, the path operators table): flagged in every module.
KNOWN_PRIVATE = {
    "_code", "_doc", "_fontname", "_fontsize", "_leading", "_fillMode", "_strokeColorObj", "_fillColorObj",
    "_lineWidth", "_escape", "_ttf_data", "_pos", "_pdfScale", "_dynamicFont", "_asciiReadable",
    "_init_code_append", "_formatText", "PATH_OPS",
}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _reportlab_imports(tree: ast.AST) -> list[ast.stmt]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "reportlab" for a in node.names):
            found.append(node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "reportlab":
            found.append(node)
    return found


def private_uses(source: str, where: str = "<source>") -> list[str]:
    """Each use of a reportlab private name in ``source``, as "file:line: what"."""
    tree = ast.parse(source, where)
    imports = _reportlab_imports(tree)
    found = []
    for node in imports:
        if isinstance(node, ast.ImportFrom):
            found += [f"{where}:{node.lineno}: imports {a.name} from {node.module}"
                      for a in node.names if _is_private(a.name) or a.name in KNOWN_PRIVATE]
        else:
            found += [f"{where}:{node.lineno}: imports {a.name}" for a in node.names
                      if any(_is_private(part) for part in a.name.split("."))]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (node.attr in KNOWN_PRIVATE or (imports and _is_private(node.attr))):
            found.append(f"{where}:{node.lineno}: .{node.attr}")
    return found


def test_no_module_uses_a_private_reportlab_name():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += private_uses(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    assert found == []


def test_the_walk_finds_what_the_fast_paths_did():
    # what render/fastpath.py and render/ttf.py did before issue 23, in miniature
    fastpath = ("from reportlab.pdfgen.canvas import PATH_OPS\n"
                "def line(c, x):\n    c._code.append(x + PATH_OPS[1, 0, c._fillMode])\n")
    ttf = ("def read(face):\n    from reportlab.pdfbase.ttfonts import TTFont\n"
           "    face._ttf_data = b''\n    return face.table\n")
    helper = "def text(c):\n    return c._fontname\n"  # no reportlab import, a known private name
    private_import = "from reportlab.lib.utils import _className\n"
    assert sorted(use.split(": ", 1)[1] for use in private_uses(fastpath)) == [
        "._code", "._fillMode", "imports PATH_OPS from reportlab.pdfgen.canvas"]
    assert [use.split(": ", 1)[1] for use in private_uses(ttf)] == ["._ttf_data"]
    assert [use.split(": ", 1)[1] for use in private_uses(helper)] == ["._fontname"]
    assert [use.split(": ", 1)[1] for use in private_uses(private_import)] == ["imports _className from reportlab.lib.utils"]
    # public names pass: our own helpers' leading underscores outside reportlab modules, dunders
    assert private_uses("import reportlab.pdfgen.canvas as c\nc.Canvas.__init__\n") == []
    assert private_uses("from printables import fonts\nfonts._metrics('regular')\n") == []
