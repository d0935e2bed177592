"""Sentence AMR: two files read as a stream of graph pairs, paired in order, scored by Smatch.

Inputs are PENMAN or MRP JSON lines holding AMR graphs (converted by
:mod:`mrkit.codecs.amr_mrp`), named by ``format`` or guessed from each file's suffix and
first bytes; ``-`` reads standard input (for one of the two files at most).

:func:`smatch_files` streams: the parent finds where each graph of the two PENMAN files
begins and ends in the raw bytes (:mod:`mrkit.codecs.penman_units`, compiled; graphs need
not be separated by blank lines) and pairs them by position; chunks of byte ranges go
through the caller's executor, and each worker reads its own ranges of the two files,
parses them (the compiled reader), builds the triples and aligns -- no text is pickled, and
what a worker needs is imported before the workers fork.  On the compiled path a chunk is
two calls that let go of the GIL for the whole chunk (:func:`_score_units_coded`:
``code_pairs_units`` codes every pair from the files' bytes, ``smatch_stages`` runs the
engine's first stage on each), so an automatic executor (``-j 2``) runs the chunks on two
threads of this process (``map_shared(..., prefer="threads")``,
:class:`~mrkit.runtime.threads.SharedMap`: each thread draws its own chunks from
:class:`_UnitStream`), started by ``mrkit smatch`` as soon as its command line is read
(:func:`smatch_ahead`).  With ``--executor processes``, this process scores chunks too
(``map_shared``: ``-j 2`` is this process and one forked worker): this process cuts the
files, once, into guided chunks (:func:`_guided`), keeps each worker three chunks ahead (byte
ranges, 24 bytes a pair; the first one cut before the fork) and scores a small chunk itself
(:class:`_UnitStream`, at most :data:`UNIT_CHUNK_HERE` pairs) between handing them out.  A chunk comes back reduced where
it was scored (:func:`_packed`: ids, int64 counts and their sums, each pair's F1,
certificates, bounds) and lands in a :class:`~mrkit.aggregate.columns.ColumnCollector`:
after the map this process only concatenates arrays (session 28).  An executor whose workers do not see this
machine's files (a cluster) gets the texts instead.  Blocks the scanner leaves whole that
hold several graphs, different counts, bytes that are not UTF-8, MRP input and standard
input go the general way: graphs are read in this process (:func:`iter_amr_pairs`) and
chunks of graph pairs are scored through the executor.  Results never depend on the
executor.
"""

from __future__ import annotations

import os
import sys

from array import array

from ..errors import InputError
from ..model.inverted_roles import NON_INVERTED_OF
from . import CHUNK, chunked
from .amr_formats import (AMR_FORMATS, STDIN, _check_paths, _formats, _label, _stdin_bytes,  # noqa: F401
                          _stdin_head, file_size, input_format, large_input)

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Iterator

    from ..model.graph import Graph  # annotations only: the coded metrics build no Graph

if TYPE_CHECKING:  # the engine (and numpy) load only when pairs are scored
    from ..align import AlignConfig

PARALLEL_MIN_BYTES = 8_000_000
"""With the automatic executor (``-j 0``), a gold file smaller than this is scored in one
process (and a larger one too when the cores are busy: :func:`cores_free`).  Re-measured
with workers that read their own byte ranges (``bench_smatch.py --parallel``, 2 shared
cores under loads of 3.5-5, median of 3; CPU seconds of the parent + both workers): SICK x5
(24,645 pairs, 5.8 MB) -j 1 0.67 s CPU, -j 2 0.38 + 0.45 s; x10 1.27 s against 0.59 + 1.01
s; x50 5.55 s against 1.35 + 5.11 s.  The parent keeps ~0.35 s that -j 1 pays as well
(start-up, the general path's imports, the report), so on an idle machine two workers are
expected to start to pay between 5 and 10 MB; under these loads they never did (wall -j 2
0.75-0.89x -j 1).  8 MB stays the threshold."""

SHARED_MIN_BYTES = 1_000_000
"""The same threshold for classic Smatch of two PENMAN files, where ``-j 2`` is this process
and one forked worker (:meth:`~mrkit.runtime.executor.ProcessExecutor.map_shared`): no pool
to import or start, so two processes pay on smaller files.  Session 27 (this process cuts
the files once and hands the worker byte ranges; the worker no longer cuts them again):
CPU seconds, medians of 7 interleaved runs on 2 shared cores under loads of 2.4-3 (wall
clocks not meaningful there), -j 1 against -j 2's parent + worker: BAMBOO STS (1,380
pairs, 0.5 MB) 0.139 against 0.116 + 0.045; SICK x1 (4,929 pairs, 1.15 MB) 0.172 against
0.148 + 0.056; SICK x2 (2.3 MB) 0.280 against 0.196 + 0.101.  The parent's CPU (start-up,
its share, the report) is the critical path when the worker keeps up: -j 2 is expected to
gain ~0.02 s at 0.5-1 MB and more above; 1 MB keeps a margin for the fork and the
worker's wake-up.  (Session 26, when every process cut both files: 2 MB.)  Session 28
(chunks reduced where scored, tasks taken back at the end; medians of 5 runs at loads 4-5.5,
-j 1 CPU against -j 2's parent + worker): STS 0.115 against 0.085 + 0.042 s; SICK x1 0.162
against 0.123 + 0.068 s; self-scores of Bio test (0.6 MB) 0.097 against 0.086 + 0.026 s and
of the Little Prince v1.6 (0.8 MB) 0.104 against 0.090 + 0.033 s.  Below 1 MB the parent's
critical path shrinks by 10-26% (less on self-scores, where pairs are fast); 1 MB stays
until a quiet machine shows the wall clock follows."""


THREADS_MIN_BYTES = 256_000
"""The same threshold where the classic Smatch run's chunks run on threads (the compiled
path, no per-pair records): no fork, no pipe, no second heap, so two threads pay on smaller
files still.  Session 32, whole commands on a quiet 2-core machine, medians of 11
interleaved runs, -j 1 against -j 2 (two threads): QALD-9 train (100 KB) 13.5 against
13.7 ms; Bio test (0.6 MB) 21.3 against 18.2 ms; Little Prince v1.6 against a perturbed
copy (0.8 MB) 24.1 against 19.8 ms; BAMBOO STS (0.5 MB) 34.7 against 25.3 ms; SICK
(1.15 MB) 37.9 against 28.3 ms."""


def parallel_worth_it(gold: str, shared: bool = False, threads: bool = False) -> bool:
    """Whether workers pay on this gold file (its size; standard input: no) on this machine
    now (:func:`cores_free`); ``shared``: the classic Smatch run of :func:`smatch_files`,
    where this process scores a share (:data:`SHARED_MIN_BYTES`); ``threads``: that run on
    the compiled path, on threads (:data:`THREADS_MIN_BYTES`)."""
    least = THREADS_MIN_BYTES if threads else SHARED_MIN_BYTES if shared else PARALLEL_MIN_BYTES
    return large_input(gold, least) and cores_free()


def cores_free() -> bool:
    """Whether a second core is free for workers: the one-minute load average leaves more
    than half a core beside this process.  On the 2 shared cores under loads of 3.5-5 (other
    jobs), two workers were slower than one process at every size up to SICK x50 (246,450
    pairs: 12.8 s against 11.4 s; benchmarks/README.md), though they spent about the CPU of
    one process between them: what they lack is a core."""
    from ..runtime.executor import free_cores

    return free_cores() > 0.5


# ------------------------------------------------------------------ reading graphs

def iter_amr_graphs(path: str, format: str | None = None) -> Iterator[Graph]:
    """Stream the AMR graphs of one file (``-``: standard input), as PENMAN-style graphs
    (variables as node ids) whatever the input format."""
    fmt = input_format(path, format, _stdin_head(path, format))
    yield from _graphs(path, fmt)


def _graphs(path: str, fmt: str) -> Iterator[Graph]:
    label = _label(path)
    if fmt == "mrp":
        import io

        from ..codecs.amr_mrp import mrp_to_penman
        from ..codecs.mrp import iter_mrp
        from . import HeldWarnings

        source = io.TextIOWrapper(_stdin_bytes(), encoding="utf-8") if path == STDIN else path
        graphs, held = iter_mrp(source, label), HeldWarnings()
        while True:  # the reader's warnings held until the file is read whole: a bad file gives one line
            with held:
                g = next(graphs, None)
            if g is None:
                break
            if g.framework not in (None, "amr"):
                raise InputError(f"{g.framework} graph, not AMR: Smatch scores AMR graphs",
                                 g.source_file, g.source_line, g.id)
            yield mrp_to_penman(g)
        held.show()
        return
    from ..codecs.penman import iter_blocks, parse_block

    index = 0
    for start, text in iter_blocks(_stdin_bytes() if path == STDIN else path, label):
        graphs = parse_block(start, text, label, index)
        index += len(graphs)
        yield from graphs


def _count_mismatch(n_gold: int, n_system: int, gold: str, system: str) -> InputError:
    if n_gold == n_system == 0:
        return InputError(f"holds no graph, nor does the system file {_label(system)}: nothing to score",
                          _label(gold))
    return InputError(f"holds {n_system} graphs but the gold file {_label(gold)} holds {n_gold}",
                      _label(system))


def iter_amr_pairs(gold: str, system: str, format: str | None = None) -> Iterator[tuple[Graph, Graph]]:
    """Stream the (gold, system) graph pairs of two files, paired in order.  Files holding
    different numbers of graphs (or none) are an error naming them, raised when the
    shorter one ends."""
    gfmt, sfmt = _formats(gold, system, format)
    yield from _pairs(gold, system, gfmt, sfmt)


def _pairs(gold: str, system: str, gfmt: str, sfmt: str) -> Iterator[tuple[Graph, Graph]]:
    from itertools import zip_longest

    n = 0
    gs, ss = _graphs(gold, gfmt), _graphs(system, sfmt)
    for g, s in zip_longest(gs, ss):
        if g is None or s is None:
            n_gold = n + (g is not None) + sum(1 for _ in gs)
            n_system = n + (s is not None) + sum(1 for _ in ss)
            raise _count_mismatch(n_gold, n_system, gold, system)
        n += 1
        yield g, s
    if n == 0:
        raise _count_mismatch(0, 0, gold, system)


# ------------------------------------------------------------------ scoring (in the workers)

def _scored(k: int, g: Graph, s: Graph, config: "AlignConfig", keep: frozenset[str], record: bool) -> tuple:
    from ..metrics.amr.smatch import smatch_pair

    p = smatch_pair(g, s, config, k, keep)
    return (p.id, p.matched, p.gold, p.system, p.certified, p.bound, p.to_dict() if record else None)


def _score_graphs(task: tuple) -> tuple:
    """Worker: score a chunk of (index, gold graph, system graph)."""
    config, keep, record, items = task
    ids, cols, certs, bounds = [], ([], [], []), bytearray(), []
    records = [] if record else None
    for k, g, s in items:
        _add_scored(_scored(k, g, s, config, keep, record), ids, cols, certs, bounds, records)
    return _packed(ids, cols, certs, bounds, records)


def _fast_path(config: "AlignConfig", keep: frozenset[str], record: bool):
    """The compiled common case of one pair, ``(code_pair, smatch_stage, keep, (work, restarts,
    seed), (code_pairs_units, smatch_stages) or None)`` (the last: a chunk at once, where the
    modules have it), or ``None`` when it does not apply (records asked for, the compiled modules missing, the
    pure-Python reader forced by ``MRKIT_PURE_PENMAN``, ``MRKIT_NO_FAST_SMATCH`` set)."""
    if record or os.environ.get("MRKIT_PURE_PENMAN") or os.environ.get("MRKIT_NO_FAST_SMATCH"):
        return None
    key = (config, frozenset(keep))
    try:
        return _FAST_PATHS[key]
    except KeyError:
        pass
    if len(_FAST_PATHS) >= 8:  # a few configurations per process: no unbounded growth
        _FAST_PATHS.clear()
    fast = _FAST_PATHS[key] = _fast_path_of(*key)
    return fast


_FAST_PATHS: dict = {}
""":func:`_fast_path_of` per ``(config, keep)`` (a dict, not functools' cache: the smatch
path loads no functools)."""


def _fast_path_of(config: "AlignConfig", keep: frozenset[str]):
    try:
        from ..align import _kernel
        from ..features import _triples
    except ImportError:
        return None
    from ..align.config import WORK_PER_SECOND

    if config.exact == "always" or config.time_limit is None:
        work = -1.0
    else:
        work = max(0.0, float(config.time_limit)) * WORK_PER_SECOND
    batch = getattr(_triples, "code_pairs_units", None), getattr(_kernel, "smatch_stages", None)
    return (_triples.code_pair, _kernel.smatch_stage, tuple(sorted(keep)),
            (work, config.restarts, config.seed & 0xFFFFFFFFFFFFFFFF), None if None in batch else batch)


def _score_blocks(task: tuple) -> tuple | None:
    """Worker: parse and score a chunk of (index, gold block, system block); ``None`` when a
    block does not hold exactly one graph (the pipeline then pairs graph by graph)."""
    config, keep, record, (glabel, slabel), (k0, golds, systems) = task
    return _score_texts(config, keep, record, glabel, slabel, k0, golds, systems)


def _score_units(task: tuple) -> tuple | None:
    """Worker: read, parse and score a chunk of pairs given as byte ranges of the two files
    (:mod:`mrkit.codecs.penman_units`): no text travels between processes."""
    return _score_units_of(*task)


def _score_units_of(config: "AlignConfig", keep: frozenset[str], record: bool, labels: tuple[str, str],
                    paths: tuple[str, str], items: tuple[int, bytes, bytes], sources: tuple = (None, None)) -> tuple | None:
    """:func:`_score_units` with the run's settings apart from the chunk ``items`` (bound by
    :class:`_UnitsScorer`: a task is then plain ints and bytes, which travel without pickle,
    ``runtime/forked.py``).  ``sources``: the files' mappings
    (:func:`mrkit.codecs.penman_units.map_file`) where this process holds them, the chunk's
    bytes then views of them; else (``None``) read from the files."""
    from ..codecs.penman_units import unit_texts

    (glabel, slabel), (gpath, spath), (k0, gunits, sunits) = labels, paths, items
    fast = _fast_path(config, keep, record)
    if fast is not None and fast[4] is not None:
        done = _score_units_coded(fast, config, keep, labels, paths, items, sources)
        if done is not None:
            return done
    golds = unit_texts(gpath, glabel, gunits, sources[0])
    systems = unit_texts(spath, slabel, sunits, sources[1])
    return _score_texts(config, keep, record, glabel, slabel, k0, golds, systems)


def _score_units_coded(fast: tuple, config: "AlignConfig", keep: frozenset[str], labels: tuple[str, str],
                       paths: tuple[str, str], items: tuple[int, bytes, bytes], sources: tuple = (None, None)) -> tuple | None:
    """:func:`_score_units_of` of a chunk by two compiled calls that let go of the GIL for
    the whole chunk (another thread scores another chunk meanwhile: ``-j 2``):
    :func:`mrkit.features._triples.code_pairs_units` codes every pair straight from the
    files' bytes, :func:`mrkit.align._kernel.smatch_stages` runs the engine's first stage
    on each -- the very calls :func:`_score_texts` makes pair by pair, with the same
    results (tested).  A pair the stage does not certify goes the general way, as there;
    ``None`` (the caller goes :func:`_score_texts`'s way) when the coder refuses a pair, so
    that unusual PENMAN and errors take exactly that way."""
    from ..codecs.penman_units import done_with, unit_bytes, unit_texts

    (glabel, slabel), (gpath, spath), (k0, gunits, sunits) = labels, paths, items
    gpiece, gbase = unit_bytes(gpath, glabel, gunits, sources[0])
    spiece, sbase = unit_bytes(spath, slabel, sunits, sources[1])
    code_pairs, stages = fast[4]
    ids, counts, codes, offsets, refused = code_pairs(gpiece, gbase, gunits, spiece, sbase, sunits, fast[2], k0)
    done_with(gpiece, gbase, glabel)  # coded: a mapped chunk's pages given back
    done_with(spiece, sbase, slabel)
    if refused:
        return None
    scores = stages(codes, offsets, *fast[3])
    del codes
    matched = array("d")
    matched.frombytes(scores)
    n = len(ids)
    if _NAN not in scores or all(x == x for x in matched):  # every pair certified (no NaN)
        return _packed_columns(ids, matched, counts, scores)
    # a pair the first stage leaves open: the general way, pair by pair, as _score_texts
    sizes = array("q")
    sizes.frombytes(counts)
    cols, certs, bounds = ([], [], []), bytearray(), []
    out_ids: list = []
    for j in range(n):
        if matched[j] == matched[j]:
            out_ids.append(ids[j])
            cols[0].append(matched[j])
            cols[1].append(sizes[j])
            cols[2].append(sizes[n + j])
            certs.append(1)
            bounds.append(matched[j])
            continue
        (gstart, gtext), = unit_texts(gpath, glabel, gunits[24 * j:24 * j + 24], sources[0])
        (sstart, stext), = unit_texts(spath, slabel, sunits[24 * j:24 * j + 24], sources[1])
        item = _general_pair(k0 + j, (gstart, gtext), (sstart, stext), labels, config, keep, False)
        if item is None:
            return None
        _add_scored(item, out_ids, cols, certs, bounds, None)
    return _packed(out_ids, cols, certs, bounds, None)


def _general_pair(k: int, gold: tuple[int, str], system: tuple[int, str], labels: tuple[str, str],
                  config: "AlignConfig", keep: frozenset[str], record: bool) -> tuple | None:
    """Pair ``k`` of two (first line, text) blocks the general way (the PENMAN codec, the
    engine): :func:`_scored`'s item, or None when a block does not hold exactly one graph."""
    from ..codecs.penman import parse_block

    g = parse_block(gold[0], gold[1], labels[0], k)
    s = parse_block(system[0], system[1], labels[1], k)
    if len(g) != 1 or len(s) != 1:
        return None
    return _scored(k, g[0], s[0], config, keep, record)


def _packed_columns(ids: list, matched: array, counts: bytes, scores: bytes) -> tuple:
    """:func:`_packed` of a chunk whose every pair the compiled stage certified: the
    columns are the compiled calls' own bytes (matched float64, the triples int64), no
    Python object per pair."""
    from ..aggregate.columns import chunk_values
    from ..aggregate.reducers import prf_reduce

    n = len(ids)
    gold, system = array("q"), array("q")
    gold.frombytes(counts[:8 * n])
    system.frombytes(counts[8 * n:])
    columns = [matched, gold, system]
    f1 = chunk_values(prf_reduce, columns, ("f1",))["f1"]
    joined = "\n".join(ids)
    return (joined if joined.count("\n") == n - 1 and ids else ids, "dqq", scores + counts,
            tuple(map(_exact_sum, columns)), b"\x01" * n, scores, f1.tobytes(), None)


_NAN = array("d", [float("nan")]).tobytes()
"""The NaN ``smatch_stages`` writes for a pair it does not certify (C's ``NAN``); found in
a chunk's scores also across two values at worst (then the pairs are looked at one by one)."""


class _UnitsScorer:
    """:func:`_score_units_of` with every argument but the chunk bound (what
    ``functools.partial`` would give, without loading functools and collections on the
    smatch path; picklable for executors that send it: the files' mappings ``sources``
    stay in this process and forked ones, a process it is sent to reads the files)."""

    def __init__(self, *settings, sources: tuple = (None, None)) -> None:
        self.settings = settings
        self.sources = sources

    def __call__(self, items: tuple[int, bytes, bytes]) -> tuple | None:
        return _score_units_of(*self.settings, items, self.sources)

    def __reduce__(self):
        return _UnitsScorer, self.settings


def _score_texts(config, keep, record, glabel, slabel, k0, golds, systems) -> tuple | None:
    """Score (first line, text) blocks pairwise: the chunk's :func:`_packed` results, or
    ``None`` when a block does not hold exactly one graph.

    A pair goes the compiled way first (:mod:`mrkit.features._triples` codes the two
    blocks' Smatch triples, :func:`mrkit.align._kernel.smatch_stage` runs the engine's
    first stage on them): when both apply and the first stage certifies its score, that
    is the pair's result -- the score, triple counts and certificate the general way
    gives, without a Python object per node.  Any other pair (unusual PENMAN, an error, a
    search the first stage does not certify) goes the general way below."""
    fast = _fast_path(config, keep, record)
    ids, cols, certs, bounds = [], ([], [], []), bytearray(), []
    matched, n_gold, n_system = (c.append for c in cols)
    records = [] if record else None
    for k, (gstart, gtext), (sstart, stext) in zip(range(k0, k0 + len(golds)), golds, systems):
        if fast is not None:
            coded = fast[0](gtext, stext, fast[2])
            if coded is not None:
                score = fast[1](coded[3], *fast[3])
                if score is not None:
                    gid = coded[0]
                    ids.append(str(k + 1) if gid is None else gid)
                    matched(score)
                    n_gold(coded[1])
                    n_system(coded[2])
                    certs.append(1)
                    bounds.append(score)
                    continue
        item = _general_pair(k, (gstart, gtext), (sstart, stext), (glabel, slabel), config, keep, record)
        if item is None:
            return None
        _add_scored(item, ids, cols, certs, bounds, records)
    return _packed(ids, cols, certs, bounds, records)


def _packed(ids: list, cols: tuple, certs: bytearray, bounds: list, records) -> tuple:
    """A chunk's results in few objects for the trip back to this process, reduced where
    the chunk was scored (with ``-j 2``, by either process: after the map this process only
    concatenates arrays): ids joined by newlines; the columns (matched, gold, system) as
    int64 or float64 bytes (:func:`_column`) with their sums where they are exact in any
    grouping (:func:`_exact_sum`); each pair's F1 as the corpus result computes it
    (:func:`~mrkit.aggregate.columns.chunk_values`), certificates (a byte each) and bounds.
    :func:`_unpacked` restores them exactly."""
    from array import array

    from ..aggregate.columns import chunk_values
    from ..aggregate.reducers import prf_reduce

    joined = "\n".join(ids)
    if joined.count("\n") == len(ids) - 1 and ids:
        ids = joined
    columns = [_column(c) for c in cols]
    f1 = chunk_values(prf_reduce, columns, ("f1",))["f1"]
    return (ids, "".join(c.typecode for c in columns), b"".join(c.tobytes() for c in columns),
            tuple(map(_exact_sum, columns)), bytes(certs), array("d", bounds).tobytes(), f1.tobytes(), records)


def _column(values: list) -> array:
    """A column of counts: int64 when every one is an int, else float64 (the engine gives
    the matched count as a float)."""
    from array import array

    try:
        return array("q", values)
    except (TypeError, OverflowError):
        return array("d", values)


def _exact_sum(col: array) -> int | float | None:
    """The sum of a column when it is the same in any grouping (ints; whole non-negative
    floats whose total stays within 2**53: every partial sum is exact), else None (then it
    is summed after the last chunk, in row order)."""
    if col.typecode == "q":
        return sum(col)
    if not col:
        return 0.0
    if min(col) >= 0.0 and all(map(float.is_integer, col)):
        total = sum(col)
        if total <= 2.0 ** 53:
            return total
    return None


def _unpacked(chunk: tuple) -> tuple:
    """``(ids, columns, column sums (None where not exact), certified bytes, bounds,
    {"f1": values}, records)`` of a :func:`_packed` chunk."""
    from array import array

    ids, codes, packed, sums, certs, bounds, f1, records = chunk
    if isinstance(ids, str):
        ids = ids.split("\n")
    size = len(packed) // len(codes)  # int64 and float64: 8 bytes each
    columns = []
    for i, code in enumerate(codes):
        c = array(code)
        c.frombytes(packed[i * size:(i + 1) * size])
        columns.append(c)
    b, v = array("d"), array("d")
    b.frombytes(bounds)
    v.frombytes(f1)
    return ids, columns, sums, certs, b, {"f1": v}, records


def _add_scored(item: tuple, ids: list, cols: tuple, certs: bytearray, bounds: list, records: list | None) -> None:
    pid, matched, n_gold, n_system, certified, b, rec = item
    ids.append(pid)
    for col, x in zip(cols, (matched, n_gold, n_system)):
        col.append(x)
    certs.append(1 if certified else 0)
    bounds.append(b)
    if records is not None:
        records.append(rec)


# ------------------------------------------------------------------ the pipeline

UNIT_CHUNK = 1024
"""Pairs per task when workers read their own byte ranges.  A task costs the parent a round
trip through the pool whatever its size: SICK x5 (24,645 pairs) with two workers under a
load average of 6, the parent spent 0.26 s CPU with 256 pairs a task, 0.13-0.15 s with 1,024,
0.12 s with 2,048 or 4,096 (workers 0.4-0.6 s in every case); 1,024 keeps the last tasks
short enough that neither worker waits long for the other (~20 ms of SICK pairs).  On
larger corpora tasks grow with the pairs already sent (a 32nd of them, at most
:data:`UNIT_CHUNK_MAX`): the pool's threads cost the parent ~1-2 ms per task (SICK x50,
246,450 pairs: 241 tasks of 1,024 pairs, ~0.5 s of the parent's CPU), and the last task
stays a small share of the run."""

UNIT_CHUNK_MAX = 8192

UNIT_CHUNK_MIN = 128
"""The smallest guided chunk (:func:`_guided`), and the first one (:func:`_unit_chunks`):
~2 ms of SICK or Little Prince pairs, ~6 ms of Bio pairs; a task costs this process ~15 us
of CPU (its byte ranges and its result through pipes, ``runtime/forked.py``), so the
chunks at the end stay small and neither process waits long for the other's last one."""


def _guided(k: int, gbuf: bytearray, size: int, parts: int, ended: bool) -> int:
    """Pairs in the next chunk when ``parts`` processes share the stream (guided
    self-scheduling): the pairs not yet handed out, estimated from how far into the gold
    file (``size`` bytes) the units cut so far reach, divided by ``4 * parts``, between
    :data:`UNIT_CHUNK_MIN` and :data:`UNIT_CHUNK_MAX`.  (A chunk costs little here -- its
    byte ranges through a pipe and its packed result -- so chunks stay small enough that a
    process slowed by other jobs holds up the other one for at most an eighth of the pairs
    with two.)"""
    from array import array

    cut = len(gbuf) // 24
    if ended or not cut:
        left = cut
    else:
        end = array("q", gbuf[-24:])[1]  # where the last unit cut ends in the gold file
        left = int((k + cut) * size / max(end, 1)) - k
    return max(UNIT_CHUNK_MIN, min(UNIT_CHUNK_MAX, left // (4 * parts)))


def _preload(config: "AlignConfig", keep: frozenset[str], record: bool, executor) -> None:
    """Import, before an executor forks its workers (at its first ``map``), the modules every
    worker needs for the compiled path: readers, the scanner's module, the two C kernels;
    each worker then shares them instead of importing them again."""
    from ..codecs import penman_units  # noqa: F401

    if _fast_path(config, keep, record) is None:  # else the codec loads where a pair needs it
        from ..codecs import penman  # noqa: F401
    from ..aggregate import columns, reducers  # noqa: F401  (each chunk's _packed)
    # Not the general path (numpy, the engine: ~0.25 s to import, serial in the parent):
    # since the compiled stage runs the branch-and-bound too, no pair of SICK, STS or the
    # Little Prince needs it, and a worker that meets such a pair imports it on its own.


def _units_available() -> bool:
    """Whether the compiled scanner cuts the files (``MRKIT_PURE_PENMAN``: the Python way)."""
    from ..codecs.penman_units import available

    return available() and not os.environ.get("MRKIT_PURE_PENMAN")


class _Regroup(Exception):
    """Blocks are not one graph each: pair graph by graph instead."""


def _graph_blocks(path: str) -> Iterator[tuple[int, str]]:
    """The blocks of a PENMAN file that hold more than comments (release headers hold no
    graph)."""
    for blocks in _graph_block_lists(path):
        yield from blocks


def _graph_block_lists(path: str) -> Iterator[list[tuple[int, str]]]:
    from ..codecs.penman import iter_block_lists

    return iter_block_lists(path, content_only=True)


def _block_chunks(gold: str, system: str, chunk: int) -> Iterator[tuple[int, list, list]]:
    """(index of the first pair, gold blocks, system blocks) of ``chunk`` pairs at a time:
    the two files' lists of blocks sliced side by side, with no Python work per block."""
    gs, ss = _graph_block_lists(gold), _graph_block_lists(system)
    gbuf: list = []
    sbuf: list = []
    g_end = s_end = False
    k = 0
    while True:
        while len(gbuf) < chunk and not g_end:
            nxt = next(gs, None)
            g_end = nxt is None
            gbuf = gbuf + nxt if nxt is not None else gbuf
        while len(sbuf) < chunk and not s_end:
            nxt = next(ss, None)
            s_end = nxt is None
            sbuf = sbuf + nxt if nxt is not None else sbuf
        n = min(chunk, len(gbuf), len(sbuf))
        if n == 0:
            if gbuf or sbuf or k == 0:  # different numbers of blocks, or none
                raise _Regroup
            return
        yield k, gbuf[:n], sbuf[:n]
        del gbuf[:n], sbuf[:n]
        k += n


def _unit_chunks(gold: str, system: str, chunk: int | None, parts: int = 1,
                 sources: tuple = (None, None)) -> Iterator[tuple[int, bytes, bytes]]:
    """(index of the first pair, gold units, system units) of ``chunk`` pairs at a time: the
    byte ranges of the two files' graphs (:mod:`mrkit.codecs.penman_units`), paired by
    position, with no Python object per graph.  ``chunk`` None: :data:`UNIT_CHUNK` pairs,
    growing to a 32nd of the pairs sent so far (at most :data:`UNIT_CHUNK_MAX`); with
    ``parts`` > 1 (processes sharing the stream) the chunks are guided instead
    (:class:`_UnitStream`).  ``sources``: the files' mappings when the caller holds them
    (:func:`_unit_tasks`), scanned where they lie."""
    if parts > 1 and not chunk:
        return _UnitStream(gold, system, parts, sources)
    return _fixed_unit_chunks(gold, system, chunk, sources)


def _unit_tasks(gold: str, system: str, chunk: int | None, parts: int, config: "AlignConfig",
                keep: frozenset[str], record: bool) -> tuple:
    """``(chunks, scorer)`` of a run on the compiled units: :func:`_unit_chunks` and the
    :class:`_UnitsScorer` of its chunks, sharing the two files' mappings
    (:func:`mrkit.codecs.penman_units.map_file`; ``None`` for a file that is read instead:
    neither the scan nor a chunk copies a mapped file, issue 14)."""
    from ..codecs.penman_units import map_file

    labels = (_label(gold), _label(system))
    sources = map_file(gold, labels[0]), map_file(system, labels[1])
    return (_unit_chunks(gold, system, chunk, parts, sources),
            _UnitsScorer(config, keep, record, labels, (gold, system), sources=sources))


def _unit_windows_of(gold: str, system: str, sources: tuple) -> tuple:
    """The two files' unit windows (:func:`mrkit.codecs.penman_units.unit_windows`), through
    their mappings ``sources`` where the caller holds them."""
    from ..codecs.penman_units import unit_windows

    return (unit_windows(gold, _label(gold), source=sources[0]),
            unit_windows(system, _label(system), source=sources[1]))


def _fixed_unit_chunks(gold: str, system: str, chunk: int | None,
                       sources: tuple = (None, None)) -> Iterator[tuple[int, bytes, bytes]]:
    from ..codecs.penman_units import UNIT, CutDeclined

    gs, ss = _unit_windows_of(gold, system, sources)
    gbuf, sbuf = bytearray(), bytearray()
    g_end = s_end = False
    k = 0
    try:
        while True:
            step = UNIT * (chunk or min(UNIT_CHUNK_MAX, max(UNIT_CHUNK, k // 32)))
            while len(gbuf) < step and not g_end:
                nxt = next(gs, None)
                g_end = nxt is None
                gbuf += nxt or b""
            while len(sbuf) < step and not s_end:
                nxt = next(ss, None)
                s_end = nxt is None
                sbuf += nxt or b""
            n = min(step, len(gbuf), len(sbuf))
            if not chunk:  # the automatic size: at most CHUNK_TEXT_MAX of text
                n = UNIT * _within(gbuf, sbuf, n // UNIT, CHUNK_TEXT_MAX)
            if n == 0:
                if gbuf or sbuf or k == 0:  # different numbers of graphs, or none
                    raise _Regroup
                return
            yield k, bytes(gbuf[:n]), bytes(sbuf[:n])
            del gbuf[:n], sbuf[:n]
            k += n // UNIT
    except CutDeclined:
        raise _Regroup from None


UNIT_CHUNK_HERE = 512
"""The most pairs this process takes as one task of its own when it shares the stream with
forked workers (:meth:`_UnitStream.here`; ~5 ms of SICK or Little Prince pairs, ~15 ms of
Bio pairs): between its tasks it hands the workers theirs and collects their results, so
a worker never waits long for work while this process scores (session 30: with chunks of
the same guided size for both, the worker waited 5-19 ms of a 170 ms run of SICK x5 while
this process scored a chunk of 1,024-2,034 pairs and cut the next ones)."""


RAMP = 2
"""The first chunks of a worker grow by ``2 ** RAMP`` (128, 512, 2,048 pairs, then the guided
size): session 30, with doubling (128, 256, 512), the three chunks queued to the worker
(~13 ms of Little Prince pairs) ran out while this process scored its own first chunk and
cut the next ones (the first windows of the files), and the worker waited 2-16 ms.  Cutting
four times the pairs still takes about half the scoring time of the chunk before."""

CHUNK_TEXT_MAX = 1 << 20
"""The most text (both files' blocks, in bytes) in one chunk of more than one pair
(:func:`_within`): a chunk's texts are read, decoded and parsed at once, and a process's
memory grows to its largest chunk -- every page touched for the first time costs a page
fault, about 4 us on the 2-core VM (session 31: with guided chunks of up to 2,699 Little
Prince pairs, 2.7 MB of text, the ``-j 2`` worker took 3,430 page faults; 1 MB is about
1,000 Little Prince pairs, 2,200 SICK pairs, 400 Bio pairs)."""


def _within(gbuf, sbuf, n: int, cap: int) -> int:
    """The most of the first ``n`` pairs of the units ``gbuf`` and ``sbuf`` whose blocks
    hold at most ``cap`` bytes of both files (from the first block's start to the last
    one's end), at least one."""
    order = sys.byteorder

    def text(j: int) -> int:  # bytes of the first j pairs
        return (int.from_bytes(gbuf[24 * j - 16:24 * j - 8], order, signed=True)
                - int.from_bytes(gbuf[:8], order, signed=True)
                + int.from_bytes(sbuf[24 * j - 16:24 * j - 8], order, signed=True)
                - int.from_bytes(sbuf[:8], order, signed=True))

    if n <= 1 or text(n) <= cap:
        return n
    lo, hi = 1, n  # text(lo) <= cap (or lo == 1), text(hi) > cap
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if text(mid) <= cap:
            lo = mid
        else:
            hi = mid
    return lo


PRELOAD_SHARED = True
"""Whether :func:`_preload` runs before ``map_shared`` forks its worker too (session 30):
this process imports those modules for its own chunks anyway, and a worker forked after
them does not import them again for its first chunk (~2-3 ms of its CPU: the engine's
kernel, the triples coder, the column collector's modules)."""


class _UnitStream:
    """The guided chunks of :func:`_unit_chunks` for ``parts`` processes sharing the stream
    (:func:`mrkit.runtime.forked.shared_map`): iterating gives a worker's chunk (guided,
    :func:`_guided`: large at first, small at the end, so that no process waits long for
    another's last chunk; the first ones ramp up from :data:`UNIT_CHUNK_MIN`, doubling, so
    that a worker starts as soon as the first small chunk is cut -- the cutting of the
    next one, twice its size, takes less than its scoring: cutting is 5-14% of a pair's
    time on SICK, the Little Prince and Bio); :meth:`here` gives this process's own chunk,
    at most :data:`UNIT_CHUNK_HERE` pairs.  Chunks come in file order whoever draws them."""

    def __init__(self, gold: str, system: str, parts: int, sources: tuple = (None, None)) -> None:
        self.gs, self.ss = _unit_windows_of(gold, system, sources)
        self.gbuf, self.sbuf = bytearray(), bytearray()
        self.g_end = self.s_end = False
        self.k = 0
        self.size = file_size(gold)
        self.parts = parts
        self.drawn = 0  # chunks drawn for workers so far (the ramp)

    def __iter__(self) -> "_UnitStream":
        return self

    def __next__(self) -> tuple[int, bytes, bytes]:
        return self._next(False)

    def here(self) -> tuple[int, bytes, bytes]:
        """The next chunk, sized for this process (``StopIteration`` at the end)."""
        return self._next(True)

    def _fill(self, step: int) -> None:
        self._fill_gold(step)
        while len(self.sbuf) < step and not self.s_end:
            nxt = next(self.ss, None)
            self.s_end = nxt is None
            self.sbuf += nxt or b""

    def _fill_gold(self, step: int) -> None:
        while len(self.gbuf) < step and not self.g_end:
            nxt = next(self.gs, None)
            self.g_end = nxt is None
            self.gbuf += nxt or b""

    def _next(self, here: bool) -> tuple[int, bytes, bytes]:
        from ..codecs.penman_units import UNIT, CutDeclined

        try:
            self._fill_gold(UNIT * UNIT_CHUNK_MIN)  # enough units cut to guide the size
            pairs = _guided(self.k, self.gbuf, self.size, self.parts, self.g_end)
            if here:
                pairs = min(pairs, max(UNIT_CHUNK_MIN, UNIT_CHUNK_HERE))
            else:
                pairs = min(pairs, UNIT_CHUNK_MIN << min(RAMP * self.drawn, 32))
                self.drawn += 1
            step = UNIT * pairs
            self._fill(step)
        except CutDeclined:
            raise _Regroup from None
        gbuf, sbuf = self.gbuf, self.sbuf
        n = UNIT * _within(gbuf, sbuf, min(step, len(gbuf), len(sbuf)) // UNIT, CHUNK_TEXT_MAX)
        if n == 0:
            if gbuf or sbuf or self.k == 0:  # different numbers of graphs, or none
                raise _Regroup
            raise StopIteration
        k = self.k
        out = k, bytes(gbuf[:n]), bytes(sbuf[:n])
        del gbuf[:n], sbuf[:n]
        self.k = k + n // UNIT
        return out


def _collect(results: Iterable[tuple | None], new_collector: Callable, progress) -> tuple:
    """``(collector, sum of the bounds)`` of the chunks' results; the collector
    (``new_collector()``) is made when the first result has come (with ``-j 2`` its module
    loads while the worker scores)."""
    bound = 0.0
    collector = None
    for chunk in results:
        if chunk is None:
            raise _Regroup
        if collector is None:
            collector = new_collector()
        ids, columns, sums, certs, bounds, values, records = _unpacked(chunk)
        collector.add_columns(ids, columns, certs, values, records, sums)
        for b in bounds:  # pair after pair (not sum(): the same float as serial)
            bound += b
        if progress is not None:
            progress(len(ids))
    return collector if collector is not None else new_collector(), bound


def _smatch_stream(gold, system, gfmt, sfmt, config, executor, keep, keep_records, progress, chunk) -> tuple:
    """``(collector, sum of the bounds)`` of :func:`smatch_files`: the compiled units where
    they apply, else graph by graph."""
    from ..codecs.penman_units import unit_texts
    from ..runtime.executor import thread_workers

    def collector():
        from ..aggregate.columns import ColumnCollector
        from ..aggregate.reducers import prf_reduce

        return ColumnCollector("smatch", prf_reduce, 3, certified=True, keep_records=keep_records)

    col = None
    penman = gfmt == sfmt == "amr" and STDIN not in (gold, system)
    local = penman and _units_available() and getattr(executor, "local", False)  # byte ranges to workers here
    if not local:
        _drop_early()  # (smatch_ahead's threads: this run does not take them)
    if penman:
        labels = (_label(gold), _label(system))
        mapper = None
        if local:
            mapper = getattr(executor, "map_shared", None)  # this process scores a share too
            parts = executor.workers if mapper is not None else 1
            # (k0, units, units): no pickle needed
            tasks, fn = _unit_tasks(gold, system, chunk, parts, config, keep, keep_records)
        elif _units_available():  # workers elsewhere (a cluster): the parent reads the texts
            step = chunk or CHUNK
            tasks = ((config, keep, keep_records, labels, (k0, unit_texts(gold, labels[0], g), unit_texts(system, labels[1], s)))
                     for k0, g, s in _unit_chunks(gold, system, step))
            fn = _score_blocks
        else:
            tasks = ((config, keep, keep_records, labels, items) for items in _block_chunks(gold, system, chunk or CHUNK))
            fn = _score_blocks
        if mapper is None or PRELOAD_SHARED:  # workers forked now share the modules
            _preload(config, keep, keep_records, executor)
        results = None
        try:
            if mapper is not None:
                # GIL-free chunks (the compiled path): an automatic executor runs threads
                fast = _fast_path(config, keep, keep_records)
                coded = fast is not None and fast[4] is not None
                early = (_early_map((gold, system, config, frozenset(keep), keep_records, chunk, thread_workers(executor)))
                         if coded else _drop_early())
                if early is not None:
                    results = early.results()
                else:
                    results = mapper(fn, tasks, prefer="threads" if coded else None)
            else:
                results = executor.map(fn, tasks)
            col, bound = _collect(results, collector, progress)
        except _Regroup:
            col = None
            close = getattr(results, "close", None)
            if close is not None:  # other threads or workers stop now, not at the end of the files
                close()
    if col is None:
        items = ((k, g, s) for k, (g, s) in enumerate(_pairs(gold, system, gfmt, sfmt)))
        tasks = ((config, keep, keep_records, c) for c in chunked(items, chunk or CHUNK))
        col, bound = _collect(executor.map(_score_graphs, tasks), collector, progress)
    return col, bound


_EARLY: list = []
"""The threads :func:`smatch_ahead` started: ``[(settings, SharedMap)]``, at most one."""


def smatch_ahead(gold: str, system: str, config: "AlignConfig", executor) -> None:
    """Start the threads of ``smatch_files(gold, system, config=config, executor=executor)``
    now, with the settings every other option keeps at its default (the Smatch roles kept,
    no records, the automatic chunks): ``mrkit smatch GOLD SYSTEM`` calls it once its
    command line is read, and the threads cut, read, code and score the first chunks while
    the command loads the rest of what it needs (~4 ms of SICK x5, issue 14).  The next
    :func:`smatch_files` takes their results if it runs these very settings, and stops
    them otherwise.  Only where that run would take threads (an executor that runs
    ``prefer="threads"`` on threads: :func:`mrkit.runtime.executor.thread_workers`), on two
    regular PENMAN files (by suffix) with the compiled path; else nothing happens.  Errors
    are raised where the run raises them, and only if it gets there."""
    from ..runtime.executor import thread_workers

    _drop_early()
    workers = thread_workers(executor)
    if workers < 2 or STDIN in (gold, system) or not _units_available():
        return
    from .amr_formats import _penman_by_suffix

    if not (_penman_by_suffix(gold) and _penman_by_suffix(system) and os.path.isfile(gold)
            and os.path.isfile(system)):
        return
    keep = NON_INVERTED_OF
    fast = _fast_path(config, keep, False)
    if fast is None or fast[4] is None:
        return
    from ..runtime.threads import SharedMap

    tasks, fn = _unit_tasks(gold, system, None, workers, config, keep, False)
    _EARLY.append(((gold, system, config, frozenset(keep), False, None, workers), SharedMap(fn, tasks, workers).start()))


def _early_map(settings: tuple):
    """The map :func:`smatch_ahead` started for these very settings, else None (and a map
    started for others is stopped)."""
    if _EARLY and _EARLY[0][0] == settings:
        return _EARLY.pop()[1]
    _drop_early()
    return None


def _drop_early() -> None:
    """Stop the threads :func:`smatch_ahead` started, if any (they end their chunk first)."""
    while _EARLY:
        _EARLY.pop()[1].close()


def smatch_files(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                 format: str | None = None, keep_records: bool = False,
                 progress: Callable[[int], None] | None = None,
                 keep: frozenset[str] = NON_INVERTED_OF, chunk: int | None = None):
    """Corpus Smatch of two files (PENMAN or MRP; ``-`` is standard input), streamed
    through ``executor`` (default: this process).

    Returns a :class:`~mrkit.aggregate.corpus.CorpusResult`: rows (matched, gold triples,
    system triples) per pair, micro precision/recall/F1, certification per pair, and the
    detail ``matched``, ``gold_triples``, ``system_triples``, ``f1_upper_bound``;
    ``records`` (each pair's scores, certification and variable mapping) only with
    ``keep_records``.  ``progress`` is called with the number of pairs finished.
    ``chunk``: pairs per task (default :data:`UNIT_CHUNK` where workers read their own
    byte ranges, else :data:`mrkit.pipeline.CHUNK`).
    """
    from ..codecs._gc_paused import gc_paused
    from ..runtime.executor import SerialExecutor

    if config is None:
        from ..align import AlignConfig

        config = AlignConfig()
    executor = executor if executor is not None else SerialExecutor()
    gfmt, sfmt = _formats(gold, system, format)

    with gc_paused():  # no collection walks every module's objects while pairs stream past (2-6 ms)
        col, bound = _smatch_stream(gold, system, gfmt, sfmt, config, executor, keep, keep_records, progress, chunk)
    from ..aggregate.prf import prf

    result = col.result()
    sums = result.column_sums()
    matched, n_gold, n_system = float(sums[0]), int(sums[1]), int(sums[2])
    result.detail.update(matched=matched, gold_triples=n_gold, system_triples=n_system,
                         f1_upper_bound=prf(bound, n_gold, n_system)[2])
    return result


def smatch_metric_files(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                        format: str | None = None):
    """Smatch of two files as the registered metric ``smatch`` reports it
    (:func:`mrkit.metrics.amr.smatch_metric.smatch_metric`'s
    :class:`~mrkit.metrics.result.MetricScores`: per pair F1, corpus micro F1, details
    ``precision``, ``recall``, ``certified``, ``pairs``), scored by :func:`smatch_files`:
    streamed (memory flat in the corpus) and read and aligned by the compiled path, with
    the same rows, ids and certification.  What ``mrkit score -m smatch`` runs."""
    from ..metrics.amr.smatch_metric import COLUMNS  # the registration only: no graph path
    from ..metrics.result import MetricScores

    result = smatch_files(gold, system, config=config, executor=executor, format=format)
    res = MetricScores("smatch", result._raw("table"), result.reduce, result.ids, result._raw("certified"),
                       columns=COLUMNS)
    res.detail.update(precision=res.precision, recall=res.recall, certified=res.n_certified, pairs=res.pairs)
    return res
