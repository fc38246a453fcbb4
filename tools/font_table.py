"""Write the stored font metrics (printables/fontdata/*.json) from the installed font files.

The instanced bold faces (printables/fonts.py) have none: their bytes follow the fontTools version.

Run: python tools/font_table.py   (after the font package changes; tests/test_fonts.py says when)

Each table holds a face's units per em, cap height, .notdef advance and the advance width of every
code point in its cmap, read with fontTools, with the size and SHA-256 of the file it was read from:
printables.fonts uses a table only for that very file and reads any other file itself.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printables import fonts  # noqa: E402


def main() -> None:
    fonts.METRICS_DIR.mkdir(exist_ok=True)
    # the files found now, and the files that come with pip install (NanumGothic's are the same bytes as
    # Debian's; Noto Sans' variable fonts are not): a table per file name, used only for that very file
    paths = {fonts.font_file(face) for face in fonts.FACES}
    paths |= {path for path in map(fonts.package_file, fonts.PACKAGE_FILES) if path is not None}
    for path in sorted(paths):
        table = fonts.table_of(path, fonts.measure_face(path))
        target = fonts.metrics_table_path(path)
        target.write_text(json.dumps(table, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{target}: {len(table['advances'])} code points from {path} (sha256 {table['sha256'][:12]}...)")


if __name__ == "__main__":
    main()
