"""Draws the search-time table printed by bench/search/run.sh as an SVG line chart (no plotting
library needed): search time (log scale) against devices, one line per search mode and graph size;
cases stopped at the time limit are drawn at the limit with an open marker; cases without a time
(the search refused, e.g. "No available cost") are left out.

Usage: python3 bench/search/plot.py TABLE.txt OUT.svg
"""
import math
import sys

COLORS = {"recursive_programming": "#1b9e77", "sharding_propagation": "#d95f02",
          "dynamic_programming": "#7570b3"}


def read(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in COLORS:
            if not (cells[3].startswith(">") or cells[3][:1].isdigit()):
                continue  # no time: the search gave no answer (e.g. "No available cost")
            stopped = cells[3].startswith(">")
            seconds = float(cells[3].split()[1] if stopped else cells[3])
            rows.append((cells[0], int(cells[1]), int(cells[2]), seconds, stopped))
    return rows


def main(table, out):
    rows = read(table)
    width, height, left, right, top, bottom = 720, 420, 70, 230, 30, 50
    devices = sorted({r[2] for r in rows})
    lo, hi = 0.1, max(r[3] for r in rows) * 1.5

    def x(d):
        return left + (width - left - right) * devices.index(d) / max(1, len(devices) - 1)

    def y(s):
        frac = (math.log10(max(s, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
        return top + (height - top - bottom) * (1 - frac)

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18">strategy search time (s, log scale) vs devices</text>']
    for t in (0.1, 1, 10, 60):
        svg.append(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 8}" y="{y(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    for d in devices:
        svg.append(f'<text x="{x(d):.1f}" y="{height - bottom + 18}" text-anchor="middle">{d}</text>')
    svg.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 12}" text-anchor="middle">devices</text>')
    legend = 0
    for mode in COLORS:
        for ops in sorted({r[1] for r in rows if r[0] == mode}):
            pts = sorted((r for r in rows if r[0] == mode and r[1] == ops), key=lambda r: r[2])
            dash = "" if ops < 5000 else ' stroke-dasharray="6,4"'
            path = " ".join(f"{x(r[2]):.1f},{y(r[3]):.1f}" for r in pts)
            svg.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[mode]}" stroke-width="2"{dash}/>')
            for r in pts:
                fill = "white" if r[4] else COLORS[mode]
                svg.append(f'<circle cx="{x(r[2]):.1f}" cy="{y(r[3]):.1f}" r="4" fill="{fill}" '
                           f'stroke="{COLORS[mode]}" stroke-width="2"/>')
            ly = top + 20 + 20 * legend
            lx = width - right + 15
            svg.append(f'<line x1="{lx}" x2="{lx + 25}" y1="{ly}" y2="{ly}" stroke="{COLORS[mode]}" '
                       f'stroke-width="2"{dash}/>')
            svg.append(f'<text x="{lx + 32}" y="{ly + 4}">{mode.split("_")[0]} {ops} ops</text>')
            legend += 1
    ly = top + 20 + 20 * legend
    svg.append(f'<text x="{width - right + 15}" y="{ly + 4}">open marker: stopped at the limit</text>')
    svg.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
