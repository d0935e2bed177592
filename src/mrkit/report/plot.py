"""Figures of a meta-evaluation: Spearman heatmap between metrics, sentence-length
histogram and acceptability by length (Opitz & Frank 2022, Figures 8 and 6), and sentence
length against score for every metric.  Needs matplotlib (``pip install 'mrkit[plot]'``)."""

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
    """Write the figure to ``path`` (format from the suffix: .png, .pdf, .svg), atomically.

    First row: the Spearman heatmap between metrics (each value in black or white by the
    cell's colour), the length histogram (the paper's Figure 8: buckets of 5 tokens, 55+)
    and, with human labels, acceptability by sentence length per system (Figure 6).
    Below: sentence length against score for every metric."""
    from ..metaeval.lengths import acceptability_by_length, length_buckets

    plt = _pyplot()
    fmt = Path(path).suffix.lstrip(".").lower() or "png"
    m = len(ev.metrics)
    cols = max(3, min(4, m))
    rows = 1 + math.ceil(m / cols)
    fig = plt.figure(figsize=(3.6 * cols, 3.4 * rows), constrained_layout=True)
    grid = fig.add_gridspec(rows, cols)
    has_acc = ev.labels is not None and any(any(v is not None for v in row) for row in ev.labels.acceptable)
    heat_cols = cols - 2 if has_acc else cols - 1

    ax = fig.add_subplot(grid[0, :heat_cols])
    mat = np.array([[np.nan if ev.correlation[a][b] is None else ev.correlation[a][b]
                     for b in ev.metrics] for a in ev.metrics], dtype=float)
    cmap = plt.get_cmap("RdBu_r")
    im = ax.imshow(mat, vmin=-1, vmax=1, cmap=cmap, aspect="auto")  # fills its cells: no blank margin
    ax.set_xticks(range(m), ev.metrics, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(m), ev.metrics, fontsize=8)
    for i in range(m):
        for j in range(m):
            if not np.isnan(mat[i, j]):
                r, g, b, _ = cmap((mat[i, j] + 1) / 2)
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(j, i, f"{mat[i, j]:.2f}", ha="center", va="center",
                        fontsize=7 if m > 6 else 8, color="white" if dark else "black")
    ax.set_title("Spearman correlation between metrics", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8)

    labels, idx = length_buckets(ev.lengths)
    hist = fig.add_subplot(grid[0, heat_cols])
    hist.bar(range(len(labels)), np.bincount(idx, minlength=len(labels)), color="0.45")
    hist.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
    hist.set_xlabel("sentence length (tokens)", fontsize=8)
    hist.set_ylabel("sentences", fontsize=8)
    hist.set_title("Sentence lengths", fontsize=9)
    if has_acc:
        acc_ax = fig.add_subplot(grid[0, heat_cols + 1])
        for k, s in enumerate(ev.systems):
            col = [row[k] if k < len(row) and row[k] is not None else np.nan for row in ev.labels.acceptable]
            _, share, _ = acceptability_by_length(ev.lengths, col)
            acc_ax.plot(range(len(labels)), share, marker="o", ms=3, label=s)
        acc_ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
        acc_ax.set_ylim(-0.02, 1.02)
        acc_ax.set_xlabel("sentence length (tokens)", fontsize=8)
        acc_ax.set_ylabel("share acceptable (human)", fontsize=8)
        acc_ax.set_title("Acceptability by sentence length", fontsize=9)
        acc_ax.legend(fontsize=7)

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
        fig.savefig(buf, format=fmt, dpi=110)
    except ValueError as exc:
        raise MrkitError(f"cannot write plot {path}: {exc}") from None
    finally:
        plt.close(fig)
    atomic_write(path, buf.getvalue())
