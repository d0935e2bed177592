"""Figures of a meta-evaluation: Spearman heatmap between metrics, and sentence length
against score for every metric.  Needs matplotlib (``pip install 'mrkit[plot]'``)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np

from ..errors import MrkitError
from ..codecs._files import atomic_write
from ..metaeval.study import MetaEvaluation


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise MrkitError("plots need matplotlib: pip install 'mrkit[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(ev: MetaEvaluation, path: str | Path) -> None:
    """Write the figure to ``path`` (format from the suffix: .png, .pdf, .svg), atomically."""
    plt = _pyplot()
    fmt = Path(path).suffix.lstrip(".").lower() or "png"
    m = len(ev.metrics)
    cols = min(4, m)
    rows = 1 + math.ceil(m / cols)
    fig = plt.figure(figsize=(3.2 * max(cols, 2), 3.0 * rows), constrained_layout=True)
    grid = fig.add_gridspec(rows, cols)

    ax = fig.add_subplot(grid[0, : max(1, cols // 2)] if cols > 2 else grid[0, :])
    mat = np.array([[np.nan if ev.correlation[a][b] is None else ev.correlation[a][b]
                     for b in ev.metrics] for a in ev.metrics], dtype=float)
    im = ax.imshow(mat, vmin=-1, vmax=1, cmap="RdBu_r")
    ax.set_xticks(range(m), ev.metrics, rotation=45, ha="right")
    ax.set_yticks(range(m), ev.metrics)
    for i in range(m):
        for j in range(m):
            if not np.isnan(mat[i, j]):
                ax.text(j, i, f"{mat[i, j]:.2f}", ha="center", va="center", fontsize=6 if m > 5 else 8)
    ax.set_title("Spearman correlation between metrics")
    fig.colorbar(im, ax=ax, shrink=0.8)

    lengths = np.asarray(ev.lengths, dtype=float)
    for k, metric in enumerate(ev.metrics):
        sub = fig.add_subplot(grid[1 + k // cols, k % cols])
        for s in ev.systems:
            sub.scatter(lengths, ev.scores(metric, s), s=6, alpha=0.6, label=s)
        sub.set_title(metric, fontsize=9)
        sub.set_xlabel("sentence length (tokens)", fontsize=8)
        sub.set_ylabel("score", fontsize=8)
        if k == 0:
            sub.legend(fontsize=7)
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format=fmt)
    except ValueError as exc:
        raise MrkitError(f"cannot write plot {path}: {exc}") from None
    finally:
        plt.close(fig)
    atomic_write(path, buf.getvalue())
