#!/usr/bin/env python3
"""The page's Korean and Chinese font (docs/ARCHITECTURE.md, "The web build"): Noto Sans CJK cut
down to what the page draws, fetched by the page only when a text needs it.

    scripts/cjk_subset.py NOTO_DIR CATALOG_DIR OUT_DIR

For each weight (NotoSansCJK-Regular.ttc, -Bold.ttc in NOTO_DIR) writes OUT_DIR/<same name>: a
collection whose faces 1 and 2 are the Korean and simplified Chinese faces (the indices the app
reads, font_atlas.cpp's han_face; face 0, Japanese in Debian's file, is the Korean one again), each
holding every character of the catalogs in CATALOG_DIR (*.po), the 2,350 Hangul syllables of
KS X 1001 and the 3,755 Han characters of GB 2312 level 1. Needs python3-fonttools.
"""
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

KOREAN_FACE, CHINESE_FACE = 1, 2   # in Debian's NotoSansCJK-*.ttc: JP, KR, SC, TC, HK


def encoded_range(codec, first_lead, last_lead):
    """The characters of a double-byte code's rows first_lead..last_lead (cells 0xA1..0xFE)."""
    chars = set()
    for lead in range(first_lead, last_lead + 1):
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes([lead, cell]).decode(codec))
            except UnicodeDecodeError:
                pass   # an unassigned cell
    return chars


def catalog_characters(catalog_dir):
    chars = set()
    for po in sorted(pathlib.Path(catalog_dir).glob("*.po")):
        chars |= set(po.read_text(encoding="utf-8"))
    return {c for c in chars if ord(c) >= 0x80}


def subset_face(font, unicodes, glyphs=()):
    """Cuts `font` to `unicodes` (and `glyphs`, by name); returns the glyph names it keeps."""
    options = subset.Options()
    options.layout_features = ["*"]   # locl and vert stay: the Korean and Chinese forms
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in unicodes), glyphs=sorted(glyphs))
    subsetter.subset(font)
    return set(font.getGlyphOrder())


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    noto, catalogs, out = (pathlib.Path(a) for a in argv[1:])
    hangul = encoded_range("euc_kr", 0xB0, 0xC8)   # KS X 1001: 가..힝, 2,350 syllables
    han = encoded_range("gb2312", 0xB0, 0xD7)      # GB 2312 level 1: 啊..座, 3,755 characters
    assert len(hangul) == 2350 and len(han) == 3755, (len(hangul), len(han))
    wanted = catalog_characters(catalogs) | hangul | han
    out.mkdir(parents=True, exist_ok=True)
    for name in ("NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc"):
        # The faces share Debian's outlines; cut both to the union of what either keeps, so that
        # they share them here too (one CFF table in the file, two character maps).
        source = lambda index: TTCollection(str(noto / name), lazy=False).fonts[index]
        keep = set()
        for index in (KOREAN_FACE, CHINESE_FACE):
            keep |= subset_face(source(index), wanted)
        faces = [source(index) for index in (KOREAN_FACE, CHINESE_FACE)]
        for face in faces:
            subset_face(face, wanted, keep)
        collection = TTCollection()
        collection.fonts = [faces[0], faces[0], faces[1]]
        collection.save(str(out / name), shareTables=True)
        print(f"{out / name}: {(out / name).stat().st_size / 1e6:.2f} MB, {len(wanted)} characters")


if __name__ == "__main__":
    main(sys.argv)
