"""All-pairs similarity of AMR graphs (``mrkit matrix``): every graph of one file against
every other, or every graph of one file against every graph of a second, with any
registered graph metric (:mod:`mrkit.metrics.registry`).

The pairs are cut into *blocks*: a task holds the raw PENMAN text of ``block`` graphs of
the left side and ``block`` graphs of the right side (never a pickled graph), the worker
parses them and scores the ``block x block`` pairs, so no worker holds more than two
blocks whatever the size of the corpora.  A symmetric metric (:data:`SYMMETRIC`) on one
file computes each unordered pair once (blocks on and above the diagonal; inside a
diagonal block the pairs ``i < j``), scored as ``metric(graph i, graph j)``; a graph is
never paired with itself.

What comes back:

- without ``top_k``: every computed pair (``min_score``: those scoring at least that),
  row by row in the order (source, target) whatever the block size or executor (the
  results of one stripe of blocks are sorted before they are passed on, so memory holds
  one stripe, ``block x graphs`` pairs);
- with ``top_k``: each graph's ``k`` most similar graphs (highest score first, ties by
  position), reduced in the workers block by block and merged here (``graphs x k``
  numbers): the same neighbours as from the full matrix, with a ``rank`` per row.

Scores are those of the metric on the pair (the ``f1`` of its per-pair statistics), so
every number equals the single-process run whatever the number of workers or the block
size; ``certified`` comes with the metrics that search an alignment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Sequence

from ..errors import InputError, MrkitError

if TYPE_CHECKING:
    import numpy as np

SYMMETRIC = frozenset({"smatch", "sema", "s2match", "wlk", "wwlk", "wwlk-k3e2n", "simple"})
"""Metrics whose score of (a, b) is that of (b, a): checked on Little Prince pairs
(``tests/pipeline/test_matrix.py``); WWLK's two orders may differ in the last bit of a
float, so its unordered pair is computed once, as (lower position, higher position).
SemBLEU is not symmetric (BLEU's brevity penalty and n-gram precision have a direction)."""

BLOCK = 64
"""Graphs per side of a block, at most: 64 x 64 = 4,096 pairs per task (2,016 on the
diagonal).  Smaller inputs get smaller blocks (down to :data:`MIN_BLOCK`), so that every
worker has eight tasks at least (:func:`block_size`)."""

MIN_BLOCK = 8


def block_size(n_left: int, n_right: int | None, workers: int) -> int:
    """The largest block (a power of two from :data:`BLOCK` down to :data:`MIN_BLOCK`)
    that gives ``8 x workers`` tasks at least; ``n_right`` None: one file (symmetric
    blocks, about half as many tasks)."""
    block = BLOCK
    while block > MIN_BLOCK:
        n = -(-n_left // block)
        tasks = n * (n + 1) // 2 if n_right is None else n * -(-n_right // block)
        if tasks >= 8 * max(1, workers):
            break
        block //= 2
    return block

_CONTENT = re.compile(r"^[ \t]*[^#\s]", re.M)
_ID = re.compile(r"#\s*::id\s+(\S+)")


@dataclass
class Side:
    """The graphs of one input file as raw PENMAN blocks (first line, text) and ids."""

    path: str
    blocks: list[tuple[int, str]]
    ids: list[str | None]

    def __len__(self) -> int:
        return len(self.blocks)


def read_side(path: str) -> Side:
    """The graph blocks of a PENMAN file (comment-only blocks skipped), cut but not parsed."""
    from ..codecs.penman import iter_blocks

    blocks, ids = [], []
    for start, text in iter_blocks(path):
        if _CONTENT.search(text):
            blocks.append((start, text))
            m = _ID.search(text)
            ids.append(m.group(1) if m else None)
    if not blocks:
        raise InputError("holds no graph: nothing to compare", str(path))
    return Side(str(path), blocks, ids)


# ------------------------------------------------------------------ the workers

def _graphs(label: str, offset: int, blocks: Sequence[tuple[int, str]]) -> list:
    from ..codecs.penman import parse_block

    out = []
    for k, (start, text) in enumerate(blocks):
        graphs = parse_block(start, text, label, offset + k)
        if len(graphs) != 1:
            raise InputError(f"{len(graphs)} graphs in one block: mrkit matrix needs a blank line between graphs",
                             label, start)
        out.append(graphs[0])
    return out


def _first_k(owner: "np.ndarray", k: int) -> "np.ndarray":
    """Mask of the first ``k`` rows of every run of equal ``owner`` (sorted by owner)."""
    import numpy as np

    if not len(owner):
        return np.zeros(0, dtype=bool)
    starts = np.r_[0, np.flatnonzero(owner[1:] != owner[:-1]) + 1]
    return np.arange(len(owner)) - np.repeat(starts, np.diff(np.r_[starts, len(owner)])) < k


def _best(src, dst, s, cert, k: int) -> tuple:
    """The ``k`` best rows of every source: highest score, then lowest target position (a
    total order, so the best of the union of blocks is the best of the blocks' best)."""
    import numpy as np

    order = np.lexsort((dst, -s, src))
    src, dst, s, cert = src[order], dst[order], s[order], cert[order]
    keep = _first_k(src, k)
    return src[keep], dst[keep], s[keep], cert[keep]


def _score_block(task: tuple) -> tuple:
    """Worker: parse two blocks of raw text and score their pairs.  Returns (source,
    target, score, certified) arrays: every pair (``min_score`` applied), or with
    ``top_k`` the best ``k`` of each source (and, for a symmetric metric, of each
    target too, the pair seen from the other side); and how many of the block's pairs
    are certified optimal."""
    import numpy as np

    from ..metrics.registry import score

    (metric, options, top_k, min_score, symmetric, same), (li, left, llabel), (rj, right, rlabel) = task
    lg = _graphs(llabel, li, left)
    rg = lg if same and li == rj else _graphs(rlabel, rj, right)
    a, b = np.meshgrid(np.arange(len(lg)), np.arange(len(rg)), indexing="ij")
    a, b = a.ravel(), b.ravel()
    if same and li == rj:
        keep = a < b if symmetric else a != b
        a, b = a[keep], b[keep]
    if len(a):
        res = score(metric, [lg[x] for x in a], [rg[y] for y in b], **options)
        s = np.asarray(res.pair_scores, dtype=np.float64)
        cert = (np.asarray(res.certified, dtype=bool) if res.certified is not None
                else np.ones(len(a), dtype=bool))
    else:
        s, cert = np.zeros(0), np.zeros(0, dtype=bool)
    n_cert = int(cert.sum())
    src, dst = (a + li).astype(np.int64), (b + rj).astype(np.int64)
    if top_k is not None and symmetric and same:  # each pair is a neighbour of both its graphs
        src, dst = np.r_[src, dst], np.r_[dst, src]
        s, cert = np.r_[s, s], np.r_[cert, cert]
    if min_score is not None:
        keep = s >= min_score
        src, dst, s, cert = src[keep], dst[keep], s[keep], cert[keep]
    if top_k is not None:
        src, dst, s, cert = _best(src, dst, s, cert, top_k)
    return src, dst, s, cert, n_cert


# ------------------------------------------------------------------ the run

@dataclass
class MatrixResult:
    """What a matrix run did (the table itself is streamed: :meth:`MatrixRun.batches`)."""

    metric: str
    left: str
    right: str | None
    graphs_left: int
    graphs_right: int
    symmetric: bool
    top_k: int | None
    min_score: float | None
    pairs: int = 0
    """Pairs scored (each unordered pair once for a symmetric metric on one file)."""
    rows: int = 0
    """Rows of the table."""
    certified: int | None = None
    """Pairs whose alignment is certified optimal (metrics that align), of ``pairs``."""
    options: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"metric": self.metric, "left": self.left, "right": self.right,
               "graphs": [self.graphs_left, self.graphs_right], "symmetric": self.symmetric,
               "top_k": self.top_k, "min_score": self.min_score, "pairs": self.pairs, "rows": self.rows}
        if self.certified is not None:
            out["certified"] = self.certified
        return out


COLUMNS = ("source", "source_id", "target", "target_id", "score", "certified")
"""Columns of the table (1-based positions in the files, ids from ``# ::id``); with
``top_k`` a ``rank`` (1 = most similar) after ``target_id``."""


class MatrixRun:
    """One all-pairs run; iterate :meth:`batches` for the table (dicts of columns, in
    order), then read :attr:`result`."""

    def __init__(self, left: str, right: str | None = None, *, metric: str = "smatch",
                 options: dict | None = None, executor=None, top_k: int | None = None,
                 min_score: float | None = None, block: int | None = None) -> None:
        from ..metrics.registry import check_options, declaration

        if top_k is not None and top_k < 1:
            raise MrkitError(f"--top-k must be a positive number, not {top_k}")
        if block is not None and block < 1:
            raise MrkitError(f"--block must be a positive number, not {block}")
        self.options = dict(options or {})
        check_options(metric, self.options)
        self.metric, self.top_k, self.min_score, self.block = metric, top_k, min_score, block
        self.left = read_side(left)
        self.same = right is None
        self.right = self.left if self.same else read_side(right)
        if self.same and len(self.left) < 2:
            raise InputError("holds one graph: all pairs need two at least", self.left.path)
        self.symmetric = self.same and metric in SYMMETRIC
        self._auto_block = block is None
        self.use(executor)
        self.aligns = declaration(metric).aligns
        self.result = MatrixResult(metric, self.left.path, None if self.same else self.right.path,
                                   len(self.left), len(self.right), self.symmetric, top_k, min_score,
                                   certified=0 if self.aligns else None, options=self.options)

    def use(self, executor) -> "MatrixRun":
        """Run the blocks through ``executor`` (None: this process); the block size, when
        not given, follows its number of workers."""
        self.executor = executor
        if self._auto_block:
            self.block = block_size(len(self.left), None if self.same else len(self.right),
                                    getattr(executor, "workers", 1) or 1)
        return self

    def _starts(self, side: Side) -> range:
        return range(0, len(side), self.block)

    def tasks(self) -> Iterator[tuple]:
        """Blocks in stripe order (left block, then right blocks); above the diagonal only
        for a symmetric metric on one file."""
        head = (self.metric, self.options, self.top_k, self.min_score, self.symmetric, self.same)
        for li in self._starts(self.left):
            left = (li, self.left.blocks[li:li + self.block], self.left.path)
            for rj in self._starts(self.right):
                if self.symmetric and rj < li:
                    continue
                yield head, left, (rj, self.right.blocks[rj:rj + self.block], self.right.path)

    def pairs_to_score(self) -> int:
        n, m = len(self.left), len(self.right)
        if not self.same:
            return n * m
        return n * (n - 1) // 2 if self.symmetric else n * (n - 1)

    def n_tasks(self) -> int:
        n, m = len(range(0, len(self.left), self.block)), len(range(0, len(self.right), self.block))
        return n * (n + 1) // 2 if self.symmetric else n * m

    def _pairs_of(self, li: int, rj: int) -> int:
        n = min(self.block, len(self.left) - li)
        m = min(self.block, len(self.right) - rj)
        if self.same and li == rj:
            return n * (n - 1) // 2 if self.symmetric else n * (n - 1)
        return n * m

    def batches(self, progress=None) -> Iterator[dict]:
        """The table, in order: one batch (a dict of column arrays) per stripe of blocks
        without ``top_k``, one at the end with it.  ``progress(n)`` after each block."""
        import numpy as np

        from ..runtime.executor import SerialExecutor

        executor = self.executor if self.executor is not None else SerialExecutor()
        parts: list[tuple] = []
        stripe = None
        # the tasks are made as the executor asks for them (each holds two slices of the
        # blocks); their offsets come from a second pass over the same order
        offsets = ((li, rj) for _, (li, _, _), (rj, _, _) in self.tasks())
        for (li, rj), out in zip(offsets, executor.map(_score_block, self.tasks())):
            self.result.pairs += self._pairs_of(li, rj)
            if self.aligns:
                self.result.certified += out[4]
            out = out[:4]
            if self.top_k is None and stripe is not None and li != stripe:
                yield self._batch(parts)
                parts = []
            stripe = li
            parts.append(out)
            if self.top_k is not None and sum(len(p[0]) for p in parts) > max(1 << 20, 8 * self.top_k * len(self.left)):
                parts = [self._reduce(parts)]
            if progress is not None:
                progress(1)
        if self.top_k is None:
            if parts:
                yield self._batch(parts)
        else:
            src, dst, s, cert = self._reduce(parts) if parts else (np.zeros(0, np.int64),) * 2 + (np.zeros(0), np.zeros(0, bool))
            if len(src):
                starts = np.r_[0, np.flatnonzero(src[1:] != src[:-1]) + 1]
                rank = np.arange(len(src)) - np.repeat(starts, np.diff(np.r_[starts, len(src)])) + 1
            else:
                rank = np.zeros(0, np.int64)
            yield self._columns(src, dst, s, cert, rank)

    def _reduce(self, parts: list[tuple]) -> tuple:
        import numpy as np

        src = np.concatenate([p[0] for p in parts])
        dst = np.concatenate([p[1] for p in parts])
        s = np.concatenate([p[2] for p in parts])
        cert = np.concatenate([p[3] for p in parts])
        return _best(src, dst, s, cert, self.top_k)

    def _batch(self, parts: list[tuple]) -> dict:
        import numpy as np

        src = np.concatenate([p[0] for p in parts])
        dst = np.concatenate([p[1] for p in parts])
        s = np.concatenate([p[2] for p in parts])
        cert = np.concatenate([p[3] for p in parts])
        order = np.lexsort((dst, src))
        return self._columns(src[order], dst[order], s[order], cert[order], None)

    def _columns(self, src, dst, s, cert, rank) -> dict:
        lids, rids = self.left.ids, self.right.ids
        cols: dict = {"source": src + 1, "source_id": [lids[i] for i in src],
                      "target": dst + 1, "target_id": [rids[j] for j in dst]}
        if rank is not None:
            cols["rank"] = rank
        cols["score"] = s
        if self.aligns:
            cols["certified"] = cert
        self.result.rows += len(src)
        return cols


def matrix_rows(left: str, right: str | None = None, **kw) -> tuple[list[dict], MatrixResult]:
    """The whole table as a list of row dicts, and the run's result (for small inputs and
    tests; the command streams :meth:`MatrixRun.batches` to a file)."""
    run = MatrixRun(left, right, **kw)
    rows: list[dict] = []
    for batch in run.batches():
        names = list(batch)
        for values in zip(*(batch[n] for n in names)):
            rows.append({n: (v.item() if hasattr(v, "item") else v) for n, v in zip(names, values)})
    return rows, run.result
