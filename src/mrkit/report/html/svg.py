"""Small SVG charts drawn directly (no plotting library): histogram, scatter, grouped bars.

Hand-written SVG keeps the page self-contained and its bytes identical from run to run
(numbers are written with fixed decimals, no ids or dates), and costs no dependency; the
charts are styled by the page's CSS (``.ax``, ``.grid``, ``.pt``, ...).  Points carry
``data-pair`` so that a click opens the pair view.
"""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000")
"""Okabe-Ito colours (distinguishable with the common colour-vision deficiencies)."""

W, H = 460, 300
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 16, 44


def colour(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def _n(x: float) -> str:
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if not hi - lo > 1e-9:
        hi = lo + 1
    step = 10 ** math.floor(math.log10((hi - lo) / n))
    for m in (1, 2, 2.5, 5, 10):
        if (hi - lo) / (step * m) <= n:
            step *= m
            break
    first = math.ceil(lo / step - 1e-9) * step
    out, x = [], first
    while x <= hi + 1e-9 * step:
        out.append(round(x, 10))
        x += step
    return out


def _fmt_tick(x: float) -> str:
    return f"{x:g}" if abs(x) >= 1e-9 else "0"


class _Frame:
    """Axes from data ranges to pixels, with grid, ticks and labels."""

    def __init__(self, xlo, xhi, ylo, yhi, xlabel, ylabel, width=W, height=H):
        self.xlo, self.xhi, self.ylo, self.yhi = xlo, xhi if xhi > xlo else xlo + 1, ylo, yhi if yhi > ylo else ylo + 1
        self.w, self.h = width, height
        self.xlabel, self.ylabel = xlabel, ylabel

    def x(self, v: float) -> float:
        return LEFT + (v - self.xlo) / (self.xhi - self.xlo) * (self.w - LEFT - RIGHT)

    def y(self, v: float) -> float:
        return self.h - BOTTOM - (v - self.ylo) / (self.yhi - self.ylo) * (self.h - TOP - BOTTOM)

    def axes(self, xticks=None, yticks=None) -> list[str]:
        out = []
        for t in yticks if yticks is not None else _ticks(self.ylo, self.yhi):
            y = _n(self.y(t))
            out.append(f'<line class="grid" x1="{LEFT}" x2="{self.w - RIGHT}" y1="{y}" y2="{y}"/>'
                       f'<text class="tk" x="{LEFT - 6}" y="{y}" dy="0.32em" text-anchor="end">{_fmt_tick(t)}</text>')
        for t in xticks if xticks is not None else _ticks(self.xlo, self.xhi):
            x = _n(self.x(t))
            out.append(f'<line class="ax" x1="{x}" x2="{x}" y1="{self.h - BOTTOM}" y2="{self.h - BOTTOM + 4}"/>'
                       f'<text class="tk" x="{x}" y="{self.h - BOTTOM + 16}" text-anchor="middle">{_fmt_tick(t)}</text>')
        out.append(f'<line class="ax" x1="{LEFT}" x2="{self.w - RIGHT}" y1="{self.h - BOTTOM}" y2="{self.h - BOTTOM}"/>')
        out.append(f'<line class="ax" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{self.h - BOTTOM}"/>')
        out.append(f'<text class="lb" x="{_n((LEFT + self.w - RIGHT) / 2)}" y="{self.h - 8}" '
                   f'text-anchor="middle">{escape(self.xlabel)}</text>')
        out.append(f'<text class="lb" transform="translate(13 {_n((TOP + self.h - BOTTOM) / 2)}) rotate(-90)" '
                   f'text-anchor="middle">{escape(self.ylabel)}</text>')
        return out

    def svg(self, body: list[str], title: str) -> str:
        return (f'<svg class="chart" viewBox="0 0 {self.w} {self.h}" width="{self.w}" height="{self.h}" '
                f'role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
                f'<title>{escape(title)}</title>' + "".join(body) + "</svg>")


def legend(names: Sequence[str]) -> str:
    """An HTML legend (swatch and name per series)."""
    return '<div class="legend">' + "".join(
        f'<span><i style="background:{colour(k)}"></i>{escape(n)}</span>' for k, n in enumerate(names)) + "</div>"


def histogram(series: Sequence[tuple[str, Sequence[float]]], title: str, xlabel: str = "pair F1",
              bins: int = 20) -> str:
    """Distribution of scores in [0, 1] per series, as outlined step curves (share of pairs per bin)."""
    counts = []
    for _, values in series:
        c = [0] * bins
        for v in values:
            c[min(bins - 1, max(0, int(v * bins)))] += 1
        n = max(1, len(values))
        counts.append([x / n for x in c])
    top = max((max(c) for c in counts), default=1) or 1
    f = _Frame(0, 1, 0, top * 1.08, xlabel, "share of pairs")
    body = f.axes()
    for k, c in enumerate(counts):
        pts = [f"{_n(f.x(0))},{_n(f.y(0))}"]
        for b, v in enumerate(c):
            pts.append(f"{_n(f.x(b / bins))},{_n(f.y(v))}")
            pts.append(f"{_n(f.x((b + 1) / bins))},{_n(f.y(v))}")
        pts.append(f"{_n(f.x(1))},{_n(f.y(0))}")
        body.append(f'<polyline class="step" points="{" ".join(pts)}" stroke="{colour(k)}" '
                    f'fill="{colour(k)}" fill-opacity="0.12"/>')
    return f.svg(body, title)


def scatter(series: Sequence[tuple[str, Sequence[float], Sequence[float]]], title: str, xlabel: str,
            ylabel: str, *, xrange: tuple[float, float] | None = None, yrange=(0.0, 1.0),
            diagonal: bool = False, trend_bins: int = 0, series_colour: Sequence[str] | None = None) -> str:
    """Points (index = pair, for ``data-pair``) per series; with ``diagonal`` the line y = x;
    with ``trend_bins`` the mean of y in that many equal-width bins of x, as a line."""
    xs_all = [x for _, xs, _ in series for x in xs]
    if xrange is None:
        hi = max(xs_all, default=1)
        xrange = (0, _ticks(0, hi)[-1] if hi > 1e-9 else 1)
        if xrange[1] < hi:
            xrange = (0, hi)
    f = _Frame(xrange[0], xrange[1], yrange[0], yrange[1], xlabel, ylabel)
    body = f.axes()
    if diagonal:
        body.append(f'<line class="diag" x1="{_n(f.x(0))}" y1="{_n(f.y(0))}" x2="{_n(f.x(1))}" y2="{_n(f.y(1))}"/>')
    for k, (name, xs, ys) in enumerate(series):
        c = series_colour[k] if series_colour else colour(k)
        body.append(f'<g fill="{c}" class="pts">')
        for i, (x, y) in enumerate(zip(xs, ys)):
            body.append(f'<circle class="pt" data-pair="{i}" cx="{_n(f.x(x))}" cy="{_n(f.y(y))}" r="2.6"/>')
        body.append("</g>")
        if trend_bins and xs:
            lo, hi = f.xlo, f.xhi
            sums = [[0.0, 0] for _ in range(trend_bins)]
            for x, y in zip(xs, ys):
                b = min(trend_bins - 1, max(0, int((x - lo) / (hi - lo) * trend_bins)))
                sums[b][0] += y
                sums[b][1] += 1
            pts = [f"{_n(f.x(lo + (b + 0.5) * (hi - lo) / trend_bins))},{_n(f.y(s / n))}"
                   for b, (s, n) in enumerate(sums) if n]
            body.append(f'<polyline class="trend" points="{" ".join(pts)}" stroke="{c}"/>')
    return f.svg(body, title)


def bars(groups: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], title: str,
         ylabel: str = "F1") -> str:
    """Grouped bars in [0, 1]: one group per label, one bar per series (None: no bar)."""
    width = max(W, LEFT + RIGHT + len(groups) * (24 + 14 * len(series)))
    f = _Frame(0, 1, 0, 1, "", ylabel, width=width)
    body = f.axes(xticks=[])
    slot = (f.w - LEFT - RIGHT) / max(1, len(groups))
    bw = min(22.0, (slot - 10) / max(1, len(series)))
    for gi, g in enumerate(groups):
        x0 = LEFT + gi * slot + (slot - bw * len(series)) / 2
        for k, (name, values) in enumerate(series):
            v = values[gi]
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            y = f.y(v)
            body.append(f'<rect x="{_n(x0 + k * bw)}" y="{_n(y)}" width="{_n(bw - 2)}" '
                        f'height="{_n(f.y(0) - y)}" fill="{colour(k)}"><title>{escape(name)} {escape(g)}: '
                        f'{v:.4f}</title></rect>')
        body.append(f'<text class="tk" x="{_n(LEFT + (gi + 0.5) * slot)}" y="{f.h - BOTTOM + 16}" '
                    f'text-anchor="middle">{escape(g)}</text>')
    return f.svg(body, title)
