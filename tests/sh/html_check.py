#!/usr/bin/env python3
"""Checks one report.html as a browser laid it out.

usage: html_check.py REPORT-DIR DOM.html SHOT.png WIDTH HEIGHT

REPORT-DIR holds report.html, analysis.json and charts/; DOM.html is
chromium's --dump-dom of a copy of report.html with html_measure.js injected;
SHOT.png its --screenshot at WIDTH x HEIGHT. Checks that the first heading
opens with the verdict of analysis.json, one drawn <svg> per chart file (not of zero
size, in its viewBox's proportions), no id used twice (a glyph of one chart
would show in another), no <script> in the report itself,
nothing wider than its box or the window, and a screenshot of the expected
size that is not blank. At a desktop's width (DESKTOP px and more) every
table and chart fits its box, with nothing to scroll sideways; at any width
each chart is drawn at least at its natural size (one canvas unit a CSS px:
its smallest text, 11.5 units, stays readable), scrolling in its box where
the screen is narrower. Prints each problem; exits 1 when there is one.
"""
import collections
import glob
import html.parser
import json
import os
import struct
import sys
import zlib

VERDICTS = {"confirmed": "CONFIRMED", "refuted": "REFUTED", "inconclusive": "INCONCLUSIVE"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
DESKTOP = 1280  # px: a laptop's window, where nothing may need a sideways scroll


class Page(html.parser.HTMLParser):
    """The first heading's text, the <svg> and <script> elements, <html>'s data-measure."""

    def __init__(self):
        super().__init__()
        self.first_heading = None
        self.in_heading = False
        self.text = ""
        self.svgs = 0
        self.scripts = 0
        self.measure = None
        self.ids = []

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.measure = dict(attrs).get("data-measure")
        self.ids += [v for k, v in attrs if k == "id"]
        self.svgs += tag == "svg"
        self.scripts += tag == "script"
        if tag in HEADINGS and self.first_heading is None:
            self.in_heading = True

    def handle_endtag(self, tag):
        if tag in HEADINGS and self.in_heading:
            self.first_heading = self.text.strip()
            self.in_heading = False

    def handle_data(self, data):
        if self.in_heading:
            self.text += data


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def png_colours(path, enough=2):
    """(width, height, distinct colours) of an 8-bit RGB or RGBA PNG, counted until there are enough."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("colour type %d depth %d" % (ctype, depth))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, colours = zlib.decompress(idat), w * bpp, None, set()
    for y in range(h):
        if len(colours) >= enough:
            break
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b, c = up[i], up[i - bpp] if i >= bpp else 0
            if kind == 1:
                cur[i] = (cur[i] + a) & 255
            elif kind == 2:
                cur[i] = (cur[i] + b) & 255
            elif kind == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(bytes(cur[i:i + 3]) for i in range(0, stride, bpp))
        prev = cur
    return w, h, len(colours)


def main():
    rdir, dom, shot, width, height = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    problems = []
    with open(os.path.join(rdir, "analysis.json"), encoding="utf-8") as f:
        verdict = (json.load(f).get("comparison") or {}).get("verdict")
    want = VERDICTS.get(verdict, "NO VERDICT")
    charts = len(glob.glob(os.path.join(rdir, "charts", "*.svg")))

    report = parse(os.path.join(rdir, "report.html"))
    if report.scripts:
        problems.append("report.html holds %d <script>" % report.scripts)
    page = parse(dom)
    if page.scripts != 1:
        problems.append("the browser built %d <script>, not the one injected" % page.scripts)
    if not (page.first_heading or "").startswith(want):
        problems.append("the first heading is %r, not the verdict %r" % (page.first_heading, want))
    shared = sorted(i for i, k in collections.Counter(page.ids).items() if k > 1)
    if shared:
        problems.append("%d ids used twice, as %s" % (len(shared), shared[0]))
    if page.svgs != charts:
        problems.append("%d <svg> on the page for %d charts" % (page.svgs, charts))
    if page.measure is None:
        problems.append("the measuring script left nothing")
    else:
        m = json.loads(page.measure)
        if m["width"] != width:
            problems.append("measured at %s px" % m["width"])
        problems += m["overflow"]
        if len(m["svgs"]) != charts:
            problems.append("%d charts measured for %d chart files" % (len(m["svgs"]), charts))
        for i, s in enumerate(m["svgs"]):
            if s["w"] < 1 or s["h"] < 1 or not s["marks"]:
                problems.append("chart %d is drawn %gx%g px with %d marks" % (i + 1, s["w"], s["h"], s["marks"]))
            elif s["vbw"] and abs(s["h"] / s["w"] - s["vbh"] / s["vbw"]) > 0.02:
                problems.append("chart %d is %gx%g px, not in its viewBox's proportions" % (i + 1, s["w"], s["h"]))
            if s["w"] < s["vbw"] - 0.5:
                problems.append("chart %d is drawn %g px wide, below its natural %g px: its text shrinks"
                                % (i + 1, s["w"], s["vbw"]))
            if width >= DESKTOP and s["bsw"] > s["bw"] + 1:
                problems.append("chart %d needs a sideways scroll: %d px in a %d px box" % (i + 1, s["bsw"], s["bw"]))
        if not m["tables"]:
            problems.append("no table measured: the run table is missing")
        for i, t in enumerate(m["tables"]):
            if width >= DESKTOP and (t["w"] > t["bw"] + 1 or t["bsw"] > t["bw"] + 1 or t["right"] > width + 0.5):
                problems.append("table %d is %d px wide in a %d px box of a %d px window: it scrolls sideways"
                                % (i + 1, round(t["w"]), t["bw"], width))
    try:
        w, h, n = png_colours(shot)
        if (w, h) != (width, height):
            problems.append("screenshot %dx%d, expected %dx%d" % (w, h, width, height))
        if n < 2:
            problems.append("screenshot of one colour: blank")
    except (OSError, ValueError, zlib.error) as e:
        problems.append("screenshot: %s" % e)
    for p in problems:
        print("%s at %dx%d: %s" % (os.path.basename(rdir), width, height, p))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
