"""The alternative metrics of ``mrkit score`` on two PENMAN files, read straight to triples.

SEMA, SemBLEU, WLK, SIMPLE, S2match and WWLK count what the Smatch triples of a graph hold
(:class:`mrkit.features.triples.Triples`); the graph model in between is only a cost.
S2match and WWLK stream (:func:`triple_pair_batches`: a batch of pairs at a time).
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

import os
import sys

from ..model.inverted_roles import NON_INVERTED_OF

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
    "wwlk": ("mrkit.metrics.amr.wwlk", "wwlk_triple_batches", lambda o: NON_INVERTED_OF),
    "wwlk-k3e2n": ("mrkit.metrics.amr.wwlk", "wwlk_triple_batches", lambda o: NON_INVERTED_OF),
}
"""The metrics that read triples, and how."""


def fast_path(metric: str) -> bool:
    """Whether ``metric`` has a triples path (:func:`score_files` may still decline a pair
    of files)."""
    return metric in FAST


class _General(Exception):
    """Not for this path: the caller reads graphs."""


def _read_block(label: str, start: int, text: str, k: int, keep: frozenset[str]):
    """``(id, triples)`` of block ``k`` (first line ``start``) of file ``label``: by the
    compiled reader, else parsed (its errors raised); :class:`_General` when the block is
    not one graph."""
    from ..features.triples import block_triples, triples

    r = block_triples(text, keep)
    if r is not None:
        return r
    from ..codecs.penman import parse_block  # only here: the general reader costs ~13 ms to load

    graphs = parse_block(start, text, label, k)
    if len(graphs) != 1:
        raise _General
    return graphs[0].id, triples(graphs[0], keep)


def read_triple_pairs(gold: str, system: str, keep: frozenset[str] = NON_INVERTED_OF):
    """``(ids, gold triples, system triples)`` of two PENMAN files paired in order, or
    ``None`` when a block is not one graph or the files hold different numbers of blocks.
    Errors of a block (raised by the general reader) come in the order the general path
    meets them: pair by pair, gold first."""
    ids: list[str | None] = []
    tg: list = []
    ts: list = []
    try:
        for i, a, b in triple_pair_batches(gold, system, keep):
            ids += i
            tg += a
            ts += b
    except _General:
        return None
    return ids, tg, ts


TRIPLE_BATCH = 4096
"""Pairs of triples :func:`triple_pair_batches` gives at a time (a multiple of S2match's
similarity batch, so that its batches are the whole corpus's)."""


def triple_pair_batches(gold: str, system: str, keep: frozenset[str] = NON_INVERTED_OF,
                        size: int = TRIPLE_BATCH):
    """:func:`read_triple_pairs` streamed: ``(ids, gold triples, system triples)`` of up to
    ``size`` pairs at a time, in file order; raises :class:`_General` (when it gets there)
    where :func:`read_triple_pairs` returns ``None``."""
    from ..codecs.penman import iter_block_lists

    glabel, slabel = str(gold), str(system)

    def blocks(path: str):
        for chunk in iter_block_lists(path, content_only=True):
            yield from chunk

    gs, ss = blocks(gold), blocks(system)
    k = 0
    ids: list[str | None] = []
    tg: list = []
    ts: list = []
    while True:
        g = next(gs, None)
        s = next(ss, None)
        if g is None or s is None:
            if g is not None or s is not None or k == 0:
                raise _General
            break
        gid, a = _read_block(glabel, g[0], g[1], k, keep)
        _, b = _read_block(slabel, s[0], s[1], k, keep)
        ids.append(str(k + 1) if gid is None else gid)
        tg.append(a)
        ts.append(b)
        k += 1
        if len(ids) == size:
            yield ids, tg, ts
            ids, tg, ts = [], [], []
    if ids:
        yield ids, tg, ts


def score_files(metric: str, gold: str, system: str, format: str | None = None, executor=None,
                **options):
    """Metric ``metric`` of two PENMAN files by the triples path, or ``None`` when the
    general path must run (metric without a triples path, MRP input, standard input,
    blocks that are not one graph each, ``MRKIT_PURE_PENMAN`` set).  The same result as
    reading the graphs and calling :func:`mrkit.metrics.registry.score`."""
    from ..metrics.registry import check_options
    from .amr_formats import STDIN, _formats

    spec = FAST.get(metric)
    if spec is None or os.environ.get("MRKIT_PURE_PENMAN"):
        return None
    if _formats(gold, system, format) != ("amr", "amr") or STDIN in (gold, system):
        return None
    from ..codecs._gc_paused import gc_paused

    check_options(metric, options)
    with gc_paused():  # many small acyclic objects: collections only cost time
        coded = CODED.get(metric)
        if coded is not None and coded[0](options):
            try:
                return score_coded(metric, gold, system, spec[2](options), executor, **options)
            except _Declined:
                pass
            except _General:
                return None
        if metric == "s2match":
            return _s2match_streamed(gold, system, spec[2](options), executor, options)
        if metric in ("wwlk", "wwlk-k3e2n"):
            return _wwlk_streamed(metric, gold, system, spec[2](options), options)
        read = read_triple_pairs(gold, system, spec[2](options))
        if read is None:
            return None
        import importlib

        fn = getattr(importlib.import_module(spec[0]), spec[1])
        ids, golds, systems = read
        return fn(golds, systems, ids, executor=executor, **options)


def _s2match_streamed(gold: str, system: str, keep: frozenset[str], executor, options: dict):
    """S2match of two PENMAN files by the triples path, a batch of pairs at a time (memory:
    one batch, and per pair its counts; a vectors file is read once for the corpus's
    concepts, gathered by a first pass over the files), or ``None`` for the general path."""
    from ..metrics.amr.s2match import concept_vocabulary, needs_vocabulary, s2match_triple_batches

    try:
        vocab = None
        if needs_vocabulary(options.get("vectors")):
            vocab = set()
            for _, golds, systems in triple_pair_batches(gold, system, keep):
                vocab |= concept_vocabulary((*golds, *systems))
        return s2match_triple_batches(triple_pair_batches(gold, system, keep), vocabulary=vocab,
                                      executor=executor, **options)
    except _General:
        return None


WWLK_READ = 512
"""Pairs of triples WWLK reads at a time (its embedding batches do not depend on it)."""


def _wwlk_streamed(metric: str, gold: str, system: str, keep: frozenset[str], options: dict):
    """WWLK (``wwlk`` or ``wwlk-k3e2n``) of two PENMAN files by the triples path, a batch of
    pairs at a time (memory: one batch, and per pair its score and id; a vectors file is
    read once for the corpus's words, gathered by a first pass over the files), or
    ``None`` for the general path: also when a pair cannot be scored, so that the error
    names the graph's file and line as the general path does."""
    from ..codecs.vectors import check_vectors, is_vector_file, read_edge_weights
    from ..metrics.amr.wwlk import UnscoredPair, wwlk_triple_batches, wwlk_vocabulary

    vectors = options.get("vectors")
    if options.get("edge_weights") is not None:
        read_edge_weights(options["edge_weights"])  # its errors before the corpus is read
    check_vectors(vectors)
    try:
        vocab = None
        if is_vector_file(vectors):
            vocab = set()
            for _, golds, systems in triple_pair_batches(gold, system, keep, WWLK_READ):
                vocab |= wwlk_vocabulary((*golds, *systems), metric == "wwlk-k3e2n")
        return wwlk_triple_batches(triple_pair_batches(gold, system, keep, WWLK_READ), metric,
                                   vocabulary=vocab, **options)
    except (_General, UnscoredPair):
        return None


# ---------------------------------------------------------------- the coded corpus path


class _Declined(Exception):
    """A compiled kernel is missing (or switched off): the triples path runs instead."""


# Each metric of the coded path: whether its options have a kernel; the kernel of (codes,
# pairs, options) -> a flat array.array, `width` values per pair, a pair it leaves to the
# caller marked by a negative or NaN first value; the per-pair function of (gold Triples,
# system Triples, options) -> those values (the triples path's); the result of (columns,
# ids, options).


def _always(o) -> bool:
    return True


def _sema_kernel(codes, pairs, o):
    from ..metrics.amr.sema import sema_codes
    return sema_codes(codes, pairs)


def _sema_pair(a, b, o):
    from ..metrics.amr.sema import sema_triple_counts
    return sema_triple_counts(a, b)


def _sema_result(columns, ids, o):
    from ..metrics.amr.sema import sema_from_columns
    return sema_from_columns(columns, ids)


def _simple_kernel(codes, pairs, o):
    from ..metrics.amr.simple import simple_codes
    return simple_codes(codes, pairs, o.get("bags", False))


def _simple_pair(a, b, o):
    from ..metrics.amr.simple import simple_triples_pair
    return (simple_triples_pair(a, b, o.get("bags", False)),)


def _simple_result(columns, ids, o):
    from ..metrics.amr.simple import simple_from_scores
    return simple_from_scores(columns[0], ids, o.get("bags", False))


def _wlk_kernel(codes, pairs, o):
    from ..metrics.amr.wlk import wlk_codes
    return wlk_codes(codes, pairs, o.get("k", 2))


def _wlk_pair(a, b, o):
    from ..metrics.amr.wlk import wlk_triples_pair
    return (wlk_triples_pair(a, b, o.get("k", 2), False),)


def _wlk_result(columns, ids, o):
    from ..metrics.amr.wlk import wlk_from_scores
    return wlk_from_scores(columns[0], ids, o.get("k", 2), False)


def _sembleu_width(o) -> int:
    from ..metrics.amr.sembleu import _weights
    return len(_weights(o.get("k", 3), o.get("weights"), False))


def _sembleu_kernel(codes, pairs, o):
    from ..metrics.amr.sembleu import sembleu_codes
    return sembleu_codes(codes, pairs, _sembleu_width(o))


def _sembleu_pair(a, b, o):
    from ..metrics.amr.sembleu import sembleu_triples_row
    return sembleu_triples_row(a, b, _sembleu_width(o), False)


def _sembleu_result(columns, ids, o):
    from ..metrics.amr.sembleu import sembleu_from_columns
    return sembleu_from_columns(columns, ids, o.get("k", 3), o.get("weights"))


def _sembleu_fast(o) -> bool:
    if o.get("reference"):
        return False
    try:
        return 1 <= _sembleu_width(o) <= 3
    except ValueError:
        return False


CODED = {
    "sema": (_always, _sema_kernel, _sema_pair, _sema_result, lambda o: 3),
    "simple": (_always, _simple_kernel, _simple_pair, _simple_result, lambda o: 1),
    "wlk": (lambda o: not o.get("edge_to_node") and o.get("k", 2) >= 0, _wlk_kernel, _wlk_pair, _wlk_result,
            lambda o: 1),
    "sembleu": (_sembleu_fast, _sembleu_kernel, _sembleu_pair, _sembleu_result,
                lambda o: 2 * _sembleu_width(o) + 2),
}
"""The metrics counted over the whole corpus in C (for the options named), and how:
(options have a kernel, kernel, per-pair function, result, values per pair)."""

BATCH = 1 << 14
"""Pairs per call of the compiled reader and kernels (at most: a window of either file
bounds a call too)."""

WINDOW = 1 << 22
"""Bytes of a file read at a time by the coded path (then completed to the end of a line)."""


def _pair_batches(gold: str, system: str):
    """``(gold blocks, system blocks)`` lists of equal length, the pairs of the two files in
    order; raises :class:`_General` when the files hold different numbers of blocks (or
    none).  Errors of reading the files come where the triples path meets them: block by
    block, gold first (the blocks read before an error are handed out first)."""
    from ..codecs.penman import iter_block_lists

    streams = [iter_block_lists(gold, content_only=True), iter_block_lists(system, content_only=True)]
    bufs: list[list] = [[], []]
    done = [False, False]
    errs: list = [None, None]
    k = 0
    while True:
        for side in (0, 1):
            while len(bufs[side]) < BATCH and not done[side]:
                try:
                    nxt = next(streams[side], None)
                except Exception as exc:  # raised when the triples path would reach it
                    errs[side], done[side] = exc, True
                    break
                if nxt is None:
                    done[side] = True
                else:
                    bufs[side].extend(nxt)
        n = min(len(bufs[0]), len(bufs[1]), BATCH)
        if n:
            yield [t for _, t in bufs[0][:n]], [t for _, t in bufs[1][:n]], bufs[0][:n], bufs[1][:n]
            del bufs[0][:n], bufs[1][:n]
            k += n
            continue
        # one side has no block left: as the pair loop meets it, gold first
        missing = []
        for side in (0, 1):
            if not bufs[side]:
                if errs[side] is not None:
                    raise errs[side]
                missing.append(side)
        if missing and (len(missing) == 1 or k == 0):
            raise _General
        return


def _block_batches(gold: str, system: str, keep: frozenset[str]):
    """The batches of :func:`score_coded` from the blocks as text (:func:`_pair_batches`):
    ``(pair_codes result, pairs, blocks)``, ``blocks(i)`` the ``(first line, text)`` of pair
    ``i``'s gold and system block."""
    from ..features.triples import pair_codes

    for gtexts, stexts, gblocks, sblocks in _pair_batches(gold, system):
        yield pair_codes(gtexts, stexts, keep), len(gtexts), lambda i, g=gblocks, s=sblocks: (g[i], s[i]), None


SPLIT_MIN = 512
"""Pairs from which a batch of the coded path is split in two halves for two threads (when
the executor allows a second thread, :func:`threaded`): a thread costs ~0.1 ms, a pair
~2.5 us of reading and counting."""

THREADS_MIN_BYTES = 1 << 17
"""Bytes of gold from which the coded path asks for a second thread (:func:`threaded`): about
:data:`SPLIT_MIN` pairs of short sentences."""


def threaded(executor, gold: str) -> bool:
    """Whether the coded path runs on two threads of this process
    (:mod:`mrkit.runtime.threads`): with the automatic executor (``-j 0``,
    :attr:`~mrkit.runtime.executor.SerialExecutor.threads` 0; never ``-j 1``), a gold file
    of :data:`THREADS_MIN_BYTES` or more, and two cores this process may run on
    (:func:`_threads_pay`).  Not the load average: a thread costs ~0.1 ms, not the 5-7 ms of
    a process, and where the second core is busy with another job the two halves, each given
    part of a core, still end sooner than one thread doing both (with one other job: 3/4 of
    the time)."""
    return getattr(executor, "threads", 1) == 0 and _threads_pay(gold)


def _threads_pay(gold: str) -> bool:
    """A gold file of :data:`THREADS_MIN_BYTES` or more, and two cores to run on (the cores
    are asked only then: a small run loads nothing for it)."""
    from .amr_formats import large_input

    if not large_input(gold, THREADS_MIN_BYTES):
        return False
    from ..runtime.threads import cores

    return cores() >= 2


def _unit_batches(gold: str, system: str, keep: frozenset[str], metric: str | None = None,
                  options: dict | None = None, executor=None):
    """The batches of :func:`_block_batches` read from the files' bytes with no Python
    object per block: the blocks of each file found by the compiled scanner
    (:func:`mrkit.codecs.penman_units.unit_pieces`), paired in order and coded in place
    (:func:`mrkit.features.triples.pair_codes_units`).  The same blocks, pairs and
    :class:`_General` as :func:`_block_batches`; raises
    :class:`~mrkit.codecs.penman_units.CutDeclined` when a file is not UTF-8 (the caller
    reads the blocks as text, which reports it where it should).  With ``metric`` and an
    ``executor`` that allows a second thread (:func:`threaded`), the two files' first
    windows are read and cut on two threads at once, and a batch of :data:`SPLIT_MIN` pairs
    or more is two halves coded and counted by the metric's kernel on two threads at once
    (the scanner, the reader and the kernels let go of the GIL): each half a batch of its
    own, with its kernel values; and a file's next window is cut on a second thread while
    this one codes the current one.  The first windows may have been cut already, since the
    command started, and the first batch partly coded (:func:`read_ahead`: this thread then
    codes the rest of it from the back).  The same values and errors either way."""
    from ..codecs.penman_units import UNIT, check_whole, release_piece, unit_pieces
    from ..features.triples import pair_codes_units

    # the first read is a whole window too: no piece is the small first read joined to
    # the next one (a copy of the file)
    cur: list = [None, None]  # per file: [piece, offset, units (a memoryview), bytes of units used]
    k = 0
    split = metric is not None and threaded(executor, gold)
    got = _read_ahead_of(gold, system)
    pre = None
    if got is not None:  # cut on a second thread since the command started (read_ahead)
        streams, ahead, pre = got
    else:
        streams = [unit_pieces(gold, str(gold), False, WINDOW, first=WINDOW),
                   unit_pieces(system, str(system), False, WINDOW, first=WINDOW)]
        ahead = None
    pending: list = [None, None]  # per file, with two threads: its next window, cut meanwhile (a join)
    if split:
        from ..runtime.threads import both, start
        from .amr_formats import file_size

        _kernel_loaded(metric, options)  # not on a thread: its import would hold the GIL there
        sizes = (file_size(gold), file_size(system))
        if ahead is None:
            # both files' first windows at once (an error: gold's first, as one after the other)
            ahead = list(both(lambda: next(streams[0], None), lambda: next(streams[1], None)))
    while True:
        for side in (0, 1):
            while cur[side] is None or cur[side][3] == len(cur[side][2]):
                if ahead is not None and ahead[side] is not False:
                    nxt, ahead[side] = ahead[side], False
                elif pending[side] is not None:  # its errors come here, where the reading meets them
                    join, pending[side] = pending[side], None
                    nxt = join()
                else:
                    nxt = next(streams[side], None)
                if cur[side] is not None:  # the piece is done with: its pages given back up to the next one
                    release_piece(cur[side][0], cur[side][1], nxt)
                if nxt is None:
                    cur[side] = None
                    break
                cur[side] = [nxt[0], nxt[1], memoryview(nxt[2]), 0]
                if split and nxt[1] + len(nxt[0]) < sizes[side]:  # more of the file: its next window
                    pending[side] = start(lambda s=streams[side]: next(s, None), wait=False)
        if cur[0] is None or cur[1] is None:
            if cur[0] is not None or cur[1] is not None or k == 0:
                raise _General
            return
        n = min(len(cur[0][2]) - cur[0][3], len(cur[1][2]) - cur[1][3], BATCH * UNIT)
        runs = [(c[0], c[1], c[2][c[3]:c[3] + n]) for c in cur]
        for c in cur:
            c[3] += n
        k += n // UNIT
        ahead_parts = None
        if pre is not None:  # the first batch: partly coded ahead, the rest here
            ahead_parts = pre.finish(metric, options, keep, n // UNIT) if split else pre.drop()
            pre = None
        if ahead_parts is not None:
            parts, done = [p for p, _ in ahead_parts], [cv for _, cv in ahead_parts]
        elif split and n // UNIT >= SPLIT_MIN:
            h = _halfway(runs) * UNIT
            parts = [[(r[0], r[1], r[2][:h]) for r in runs], [(r[0], r[1], r[2][h:]) for r in runs]]
            done = both(*[lambda r=part: _coded_values(metric, r, keep, options) for part in parts])
        else:
            parts = [runs]
            done = [(pair_codes_units(runs[0], runs[1], keep), None)]  # the kernel: batch_values's
        for c, label in zip(cur, (gold, system)):  # a mapped file shortened meanwhile: zeros were read
            check_whole(c[0], str(label))
        for part, (coded, vals) in zip(parts, done):
            yield coded, len(part[0][2]) // UNIT, lambda i, r=part: (_unit_block(r[0], i), _unit_block(r[1], i)), vals


def _halfway(runs: list) -> int:
    """The pair at which the pairs of ``runs`` (``(piece, offset, units)`` of both files)
    split into two halves of about equal text, both files counted (coding and counting take
    time by the byte: halves of equal pairs were 955 and 1,323 KB on SICK, 4.0 and 5.4 ms
    coded one after the other); at least one pair each side."""
    g, s = runs[0][2].cast("q"), runs[1][2].cast("q")
    n = len(g) // 3
    g0, s0 = g[0], s[0]
    half = (g[3 * n - 2] - g0 + s[3 * n - 2] - s0) / 2  # the ends of the last blocks
    lo, hi = 1, n - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if g[3 * mid] - g0 + s[3 * mid] - s0 < half:
            lo = mid + 1
        else:
            hi = mid
    return lo


_AHEAD: list = []
"""The read-ahead started by :func:`read_ahead`: ``(gold, system, window, its _Precoding)``."""


def read_ahead(gold: str, system: str) -> None:
    """Start cutting the first windows of ``gold`` and ``system`` (what :func:`_unit_batches`
    reads first) on a second thread, and then coding the pairs of the first batch from the
    front (with the roles every coded metric keeps by default: :class:`_Precoding`), while
    this one goes on loading and checking what the command needs; the next
    :func:`_unit_batches` takes them if it reads these very files (and codes the rest of the
    batch from the back meanwhile), else drops them.  ``mrkit score`` calls it before
    anything else when the metric has a coded path and the executor is the automatic one
    (:func:`mrkit.cli.main` sooner, from the command line as typed: a second call for the
    same files keeps the first).  Only for two
    regular files named PENMAN by their suffix (reading a pipe ahead would take its bytes
    from the path that reads it), of :data:`THREADS_MIN_BYTES` or more, on two cores, with
    the compiled scanner; else nothing happens.  Errors of the reading are raised where the
    serial reading raises them, and only if the command gets there."""
    if _AHEAD and _AHEAD[-1][:3] == (gold, system, WINDOW):
        return  # started already (mrkit.cli.main, from the command line as typed)
    _AHEAD.clear()  # one read-ahead at a time: a later one replaces one no reading took
    if os.environ.get("MRKIT_PURE_PENMAN") or os.environ.get("MRKIT_PURE_UNITS"):
        return
    from .amr_formats import _penman_by_suffix

    if not (_penman_by_suffix(gold) and _penman_by_suffix(system) and _threads_pay(gold)):
        return
    from ..codecs.penman_units import available, unit_pieces
    from ..runtime.threads import start

    if not available():
        return

    window = WINDOW
    streams = [unit_pieces(gold, str(gold), False, window, first=window),
               unit_pieces(system, str(system), False, window, first=window)]
    pre = _Precoding()

    def cut() -> tuple:
        firsts: list = []
        try:
            for stream in streams:  # as the serial reading: gold first, system only after it
                try:
                    firsts.append((next(stream, None), None))
                except BaseException as exc:  # raised where the reading would raise it
                    firsts.append((None, exc))
                    break
            pre.first(streams, firsts)
        finally:
            pre.cut.release()
        pre.run()
        return pre.parts

    # not waiting for the thread to run: this one goes on importing, reading files (each
    # read lets go of the GIL, and the new thread takes it then)
    pre.join = start(cut, wait=False)
    _AHEAD.append((gold, system, window, pre))


PRECODE_BATCH = 256
"""Pairs coded at a time while the read-ahead thread and this one share the first batch
(:class:`_Precoding`): about half a millisecond of SICK pairs, the most one thread may wait
for the other at the end."""


class _Precoding:
    """The read-ahead's work (:func:`read_ahead`): the files' first windows cut, then the
    pairs of the first batch coded from the front, :data:`PRECODE_BATCH` at a time, while
    this thread is still loading and checking what the command needs.  When this thread
    comes to that batch (:meth:`finish`) it codes parts from the back while the read-ahead
    thread goes on from the front, until they meet (no guess of which pairs take longer:
    session 31, halves of equal text or of equal pairs each left one thread waiting 2-4 ms
    for the other); each thread counts its own parts with the metric's kernel.  The batch's
    pairs are coded exactly once, in parts that together are the batch, in order."""

    def __init__(self) -> None:
        import _thread

        self.lock = _thread.allocate_lock()
        self.cut = _thread.allocate_lock()  # held until the first windows are cut
        self.cut.acquire()
        self.firsts: tuple | None = None  # (streams, [(piece, error)]) once cut
        self.join = None
        self.next = 0        # the first pair not yet claimed from the front
        self.back = 0        # the pair after the last one not yet claimed from the back
        self.kernel = None   # (metric, options): set when this thread comes
        self.keep = NON_INVERTED_OF
        self.m = 0           # pairs of the first batch (0: nothing to code ahead)
        self.runs: list = []
        self.parts: list = []  # [start, end, coded, values] of each part coded ahead

    def first(self, streams, firsts) -> None:
        self.firsts = (streams, firsts)
        if len(firsts) == 2 and all(f is not None and e is None for f, e in firsts):
            self.runs = [(f[0], f[1], memoryview(f[2])) for f, _ in firsts]
            self.m = min(len(self.runs[0][2]) // 24, len(self.runs[1][2]) // 24, BATCH)
            if self.m < SPLIT_MIN:
                self.m = 0
            self.back = self.m

    def _part(self, a: int, b: int) -> list:
        return [(r[0], r[1], r[2][24 * a:24 * b]) for r in self.runs]

    def run(self) -> None:
        """On the read-ahead thread: code parts from the front until they meet the parts
        coded from the back; count them once the metric's kernel is known."""
        from ..features.triples import pair_codes_units

        while True:
            with self.lock:
                kernel = self.kernel
                a = self.next
                b = self.next = min(a + PRECODE_BATCH, self.back) if a < self.back else a
            if kernel is not None:
                for part in self.parts:
                    _count_part(kernel, part)
            if a == b:
                return
            gold, system = self._part(a, b)
            self.parts.append([a, b, pair_codes_units(gold, system, self.keep), None])

    def drop(self) -> None:
        """Nothing more coded ahead (what was is not used): None, as :meth:`finish` then."""
        with self.lock:
            self.back = 0
        return None

    def finish(self, metric: str, options: dict, keep: frozenset[str], m: int):
        """On this thread, at the first batch (``m`` pairs): the batch as parts
        ``[(runs, (coded, values))]`` in order, coded here and ahead; None when what was
        coded ahead does not serve (other roles kept, another batch), and nothing more is
        coded ahead then."""
        if keep != self.keep or m != self.m or not m:
            return self.drop()
        with self.lock:
            self.kernel = (metric, options)
        mine = []
        while True:
            with self.lock:
                if self.back <= self.next:
                    break
                b = self.back
                a = self.back = max(self.next, b - PRECODE_BATCH)
            mine.append((a, b, _coded_values(metric, self._part(a, b), keep, options)))
        parts = self.join()
        if any(part[3] is None for part in parts):
            # all coded ahead before this thread came: their counting on both threads
            from ..runtime.threads import both

            half = len(parts) // 2
            both(lambda: [_count_part((metric, options), q) for q in parts[:half]],
                 lambda: [_count_part((metric, options), q) for q in parts[half:]])
        done = [(a, b, (coded, vals)) for a, b, coded, vals in parts] + mine[::-1]
        if [d[0] for d in done] != [0] + [d[1] for d in done[:-1]] or done[-1][1] != m:
            raise AssertionError("the parts of the first batch do not cover it")  # never: a bug
        return [(self._part(a, b), cv) for a, b, cv in done]


def _count_part(kernel: tuple, part: list) -> None:
    """The kernel's values of a part coded ahead (``[start, end, coded, values]``), in place;
    its codes then dropped (:func:`_counted`)."""
    metric, options = kernel
    coded = part[2]
    if part[3] is None and coded is not None:
        part[3] = CODED[metric][1](coded[1], part[1] - part[0], options)
        if part[3] is not None:
            part[2] = _counted(coded)


def _read_ahead_of(gold: str, system: str) -> tuple | None:
    """``(streams, [gold's first piece, system's], its _Precoding)`` of :func:`read_ahead` of
    these files (waiting for the cut, not the coding ahead; its errors raised, gold's
    first), else ``None``.  The first
    reading after :func:`read_ahead` takes it, or drops it when it reads other files."""
    if not _AHEAD:
        return None
    ahead = _AHEAD.pop()
    if ahead[:3] != (gold, system, WINDOW):
        return None
    pre = ahead[3]
    with pre.cut:  # the cut, not the coding ahead
        pass
    if pre.firsts is None:  # the thread failed before it had cut (out of memory): its error
        pre.join()
    streams, firsts = pre.firsts
    for _, exc in firsts:
        if exc is not None:
            pre.join()  # no coding ahead after an error
            raise exc
    return streams, [first for first, _ in firsts], pre


def _kernel_loaded(metric: str, options: dict) -> None:
    """Load the compiled reader and ``metric``'s kernel (each run on no pairs) where the work
    starts: before a second thread runs them (an import there would hold the GIL) or before
    workers fork (they share them)."""
    from ..features.triples import pair_codes_units

    pair_codes_units((b"", 0, b""), (b"", 0, b""), NON_INVERTED_OF)
    CODED[metric][1](b"", 0, options)


def _coded_values(metric: str, runs: list, keep: frozenset[str], options: dict) -> tuple:
    """``(coded, values)`` of the pairs of ``runs`` (``(piece, offset, units)`` of both
    files): the compiled reader's result (without its codes once counted: :func:`_counted`)
    and the metric's kernel's values of it (``None`` when either is missing:
    :func:`batch_values` then declines)."""
    from ..features.triples import pair_codes_units

    coded = pair_codes_units(runs[0], runs[1], keep)
    if coded is None:
        return None, None
    values = CODED[metric][1](coded[1], len(runs[0][2]) // 24, options)
    return (coded, None) if values is None else (_counted(coded), values)


def _counted(coded: tuple) -> tuple:
    """``coded`` without its codes, once the kernel has counted them: what
    :func:`batch_values` still reads of it (the ids, the pairs refused), and the codes'
    memory free for the next part's (its pages not faulted in again)."""
    return coded[0], None, coded[2]


def _unit_block(run: tuple, i: int) -> tuple[int, str]:
    """``(first line, text)`` of unit ``i`` of ``(piece, offset, units)``: the block as
    :func:`mrkit.codecs.penman.iter_block_lists` gives it."""
    piece, offset, units = run
    start, end, line = units[24 * i:24 * i + 24].cast("q")
    return line, str(piece[start - offset:end - offset], "utf-8")


def score_coded(metric: str, gold: str, system: str, keep: frozenset[str], executor=None, **options):
    """Metric ``metric`` (one of :data:`CODED`) of two PENMAN files counted in C over the
    whole corpus: the blocks go to the compiled reader a batch at a time (straight from the
    files' bytes, :func:`_unit_batches`, or as text, :func:`_block_batches`, when the
    scanner is missing or a file is not UTF-8), its codes to the metric's kernel, and the
    kernel's flat array of counts or scores, as columns, straight to the metric's result
    (a :class:`~mrkit.aggregate.columns.ColumnTable`), with no Python object per block,
    triple, graph or pair.  A pair the reader or the kernel leaves alone is read and
    counted as the triples path does (the same errors, in the same order).  Raises
    :class:`_Declined` when a compiled piece is missing, :class:`_General` when the
    general path must run; the same result as the triples path
    (``tests/pipeline/test_amr_metrics_coded.py``).  With an ``executor`` of several local
    processes (:func:`shared`) the batches run on all of them
    (:mod:`mrkit.pipeline.amr_coded_shared`), with the same result and errors
    (``tests/pipeline/test_amr_metrics_parallel.py``)."""
    from ..codecs.penman_units import CutDeclined, available

    if available() and not os.environ.get("MRKIT_PURE_UNITS"):
        try:
            if shared(executor):
                from .amr_coded_shared import score_shared

                return score_shared(metric, gold, system, keep, executor, options)
            return _score_batches(metric, _unit_batches(gold, system, keep, metric, options, executor), gold,
                                  system, keep, options)
        except CutDeclined:
            pass
    return _score_batches(metric, _block_batches(gold, system, keep), gold, system, keep, options)


def shared(executor) -> bool:
    """Whether ``executor`` runs the coded path on several processes of this machine, this
    one among them (:mod:`mrkit.pipeline.amr_coded_shared`)."""
    return (getattr(executor, "workers", 1) > 1 and getattr(executor, "local", False)
            and hasattr(executor, "map_shared"))


def _score_batches(metric: str, batches, gold: str, system: str, keep: frozenset[str], options: dict):
    from array import array

    w = CODED[metric][4](options)
    labels = (str(gold), str(system))
    flat = None
    ids: list = []
    for coded, npairs, blocks, vals in batches:
        vals, bids = batch_values(metric, coded, npairs, blocks, len(ids), labels, keep, options, vals)
        if flat is None:
            flat = vals
        else:
            flat.extend(vals)
        ids.extend(bids)
    if flat is None:
        flat = array("d")
    return coded_result(metric, flat, ids, options, w)


def coded_result(metric: str, flat, ids: list, options: dict, w: int | None = None):
    """The metric's result of the kernel values of every pair (``flat``, ``w`` per pair)
    and their ids, in file order."""
    w = w or CODED[metric][4](options)
    columns = [flat[j::w] for j in range(w)]
    return CODED[metric][3](columns, ids, options)


def batch_values(metric: str, coded, npairs: int, blocks, base: int, labels: tuple, keep: frozenset[str],
                 options: dict, vals=None) -> tuple:
    """``(values, ids)`` of one batch of pairs, the ``base``-th pair of the files first:
    ``coded`` (the compiled reader's result, ``None``: :class:`_Declined`) run through the
    metric's kernel, a flat array of ``width`` values per pair; a pair the reader or the
    kernel leaves alone read from its blocks (``blocks(i)``: the ``(first line, text)`` of
    pair ``i``'s gold and system block) and counted as the triples path does, its errors
    raised in pair order, gold first; ids the blocks' or the pairs' numbers.  ``vals``: the
    kernel's values of ``coded`` when they are already counted (:func:`_coded_values`)."""
    from array import array

    _, kernel, per_pair, _result, width = CODED[metric]
    if coded is None:
        raise _Declined
    w = width(options)
    bids, codes, _refused = coded
    if vals is None:
        vals = kernel(codes, npairs, options)
    if vals is None:
        raise _Declined
    firsts = vals[0::w]
    for i in _left(firsts):
        (gline, gtext), (sline, stext) = blocks(i)
        gid, a = _read_block(labels[0], gline, gtext, base + i, keep)
        _, b = _read_block(labels[1], sline, stext, base + i, keep)
        bids[i] = gid
        vals[i * w:(i + 1) * w] = array(vals.typecode, per_pair(a, b, options))
    if None not in bids:  # every block has its id (a list of its own: the reader's)
        return vals, bids
    base1 = base + 1
    return vals, [str(base1 + i) if x is None else x for i, x in enumerate(bids)]


_SIGN = 7 if sys.byteorder == "little" else 0
"""The byte of an int64 or a double that holds its sign and the top of its exponent."""

_LOW = bytes(range(0x7F))


def _left(firsts) -> list[int]:
    """The pairs whose first kernel value is negative or NaN (left to the per-pair function).
    None at once when every value's top byte is below 0x7F: an int64 that is not negative
    (and below 2**62), or a double that is neither negative nor NaN nor infinite -- one
    pass in C over a byte per value, no Python object per value."""
    if not firsts.tobytes()[_SIGN::firsts.itemsize].translate(None, _LOW):
        return []
    return [i for i, x in enumerate(firsts) if not x >= 0]  # negative or NaN: left to us
