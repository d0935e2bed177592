"""The alternative metrics of ``mrkit score`` on two PENMAN files, read straight to triples.

SEMA, SemBLEU, WLK, SIMPLE and S2match count what the Smatch triples of a graph hold
(:class:`mrkit.features.triples.Triples`); the graph model in between is only a cost.
:func:`score_files` cuts the two files into blocks (:func:`mrkit.codecs.penman.iter_block_lists`),
turns each block into its triples with the compiled reader
(:func:`mrkit.features.triples.block_triples`) and hands the triples to the metric's
``*_from_triples`` function, which runs the very pair function of its graph path.  A block
the compiled reader leaves alone (unusual PENMAN, an error) is parsed by the general reader
and its triples made from the graph, as the general path does; when a block does not hold
exactly one graph, or the files hold different numbers of blocks, or the input is MRP or
standard input, :func:`score_files` returns ``None`` and the caller takes the general path
(which also reports the errors).  Scores never differ from the general path's
(``tests/pipeline/test_amr_metrics.py`` compares them on every shared AMR file).
"""

from __future__ import annotations

import importlib
import os

from ..model.amr import NON_INVERTED_OF

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable

# metric -> (module, function of (golds, systems, ids, **options), the keep set of the triples)
FAST: dict[str, tuple[str, str, Callable[[dict], frozenset[str]]]] = {
    "sema": ("mrkit.metrics.amr.sema", "sema_from_triples", lambda o: NON_INVERTED_OF),
    "simple": ("mrkit.metrics.amr.simple", "simple_from_triples", lambda o: NON_INVERTED_OF),
    "wlk": ("mrkit.metrics.amr.wlk", "wlk_from_triples", lambda o: NON_INVERTED_OF),
    "sembleu": ("mrkit.metrics.amr.sembleu", "sembleu_from_triples",
                lambda o: frozenset() if o.get("reference") else NON_INVERTED_OF),
    "s2match": ("mrkit.metrics.amr.s2match", "s2match_from_triples", lambda o: NON_INVERTED_OF),
}
"""The metrics that read triples, and how."""


def fast_path(metric: str) -> bool:
    """Whether ``metric`` has a triples path (:func:`score_files` may still decline a pair
    of files)."""
    return metric in FAST


class _General(Exception):
    """Not for this path: the caller reads graphs."""


def read_triple_pairs(gold: str, system: str, keep: frozenset[str] = NON_INVERTED_OF):
    """``(ids, gold triples, system triples)`` of two PENMAN files paired in order, or
    ``None`` when a block is not one graph or the files hold different numbers of blocks.
    Errors of a block (raised by the general reader) come in the order the general path
    meets them: pair by pair, gold first."""
    from ..codecs.penman import iter_block_lists, parse_block
    from ..features.triples import block_triples, triples

    glabel, slabel = str(gold), str(system)
    ids: list[str | None] = []
    tg: list = []
    ts: list = []

    def read(label: str, start: int, text: str, k: int):
        r = block_triples(text, keep)
        if r is not None:
            return r
        graphs = parse_block(start, text, label, k)
        if len(graphs) != 1:
            raise _General
        return graphs[0].id, triples(graphs[0], keep)

    def blocks(path: str):
        for chunk in iter_block_lists(path, content_only=True):
            yield from chunk

    gs, ss = blocks(gold), blocks(system)
    k = 0
    try:
        while True:
            g = next(gs, None)
            s = next(ss, None)
            if g is None or s is None:
                if g is not None or s is not None or k == 0:
                    raise _General
                break
            gid, a = read(glabel, g[0], g[1], k)
            _, b = read(slabel, s[0], s[1], k)
            ids.append(str(k + 1) if gid is None else gid)
            tg.append(a)
            ts.append(b)
            k += 1
    except _General:
        return None
    return ids, tg, ts


def score_files(metric: str, gold: str, system: str, format: str | None = None, executor=None,
                **options):
    """Metric ``metric`` of two PENMAN files by the triples path, or ``None`` when the
    general path must run (metric without a triples path, MRP input, standard input,
    blocks that are not one graph each, ``MRKIT_PURE_PENMAN`` set).  The same result as
    reading the graphs and calling :func:`mrkit.metrics.registry.score`."""
    from ..metrics.registry import check_options
    from .amr import STDIN, _formats

    spec = FAST.get(metric)
    if spec is None or os.environ.get("MRKIT_PURE_PENMAN"):
        return None
    if _formats(gold, system, format) != ("amr", "amr") or STDIN in (gold, system):
        return None
    from ..codecs._files import gc_paused

    check_options(metric, options)
    with gc_paused():  # many small acyclic objects: collections only cost time
        read = read_triple_pairs(gold, system, spec[2](options))
        if read is None:
            return None
        fn = getattr(importlib.import_module(spec[0]), spec[1])
        ids, golds, systems = read
        return fn(golds, systems, ids, executor=executor, **options)
