"""The coded corpus path of ``mrkit score`` (:func:`mrkit.pipeline.amr_metrics.score_coded`)
on several processes: ``-j 2`` is this process and one forked worker
(:meth:`~mrkit.runtime.executor.ProcessExecutor.map_shared`, :mod:`mrkit.runtime.forked`).

This process cuts the two files into windows (:func:`mrkit.codecs.penman_units.unit_pieces`,
as the serial path does) and hands out tasks of a few hundred pairs: the index of the first
pair and, per file, the window's number and the pairs' units (24 bytes a pair) -- never
their text.  Whoever runs a task (this process or a worker) codes the pairs with the
compiled reader, runs the metric's kernel and counts the pairs the kernel leaves to Python
(:func:`mrkit.pipeline.amr_metrics.batch_values`), and sends back the values as array
bytes and the ids joined by newlines (none when every pair has its number for id).  A
window held when the workers fork (the first window of each file, read before the map) is
read by the worker from its own memory; a later one from the file's mapping the worker
inherited (:func:`mrkit.codecs.penman_units.map_file`; a file that is read, not mapped:
one ``pread`` per task), whose pages it gives back once the task is coded.  This process
joins the values in file order and hands them to the metric's result exactly as the
serial path does: the same columns, hence the same sums and bytes of output.
Errors come as in a serial run: the first bad block in file order, gold first (the map
raises a task's exception after every earlier task's result, and the stream's own after
every task drawn before it).
"""

from __future__ import annotations

import os

from ..errors import InputError

FIRST = 1 << 16
"""Bytes of each file read (and cut) before the workers fork: they read these windows from
their own memory, later windows from the file.  The windows after it double up to the
serial path's (:data:`mrkit.pipeline.amr_metrics.WINDOW`).  Small, so that the workers
start early: cutting both SICK files (1.15 MB each) takes ~2.5 ms, their first 64 KB
~0.12 ms."""

TASK_MIN = 256
"""The fewest pairs in a task (but the last ones of a window).  The compiled reader interns a
task's strings afresh, so that its time per pair falls with the task's size (SICK, SEMA,
under load: 4.2 us a pair in tasks of 64 pairs, 3.3 in 256, 2.9 in 1,024)."""

TASK_MAX = 4096
"""The most pairs in a task (~10 ms of SICK pairs): the memory a process holds for a task
stays small on any corpus."""

GUIDE = 2
"""A task holds ``1 / (GUIDE * processes)`` of the pairs estimated left (guided
self-scheduling), between :data:`TASK_MIN` and :data:`TASK_MAX`."""


class _Pieces:
    """The windows of the two files this process holds, ``(side, number) -> (bytes, file
    offset)`` (a worker: those held when it was forked), the files' mappings
    (:func:`mrkit.codecs.penman_units.map_file`, side -> mapping: a worker keeps those of
    its parent), and the files to read the others from."""

    __slots__ = ("paths", "labels", "held", "fds", "maps")

    def __init__(self, paths: tuple, labels: tuple) -> None:
        self.paths, self.labels, self.held, self.fds, self.maps = paths, labels, {}, {}, {}

    def run(self, side: int, number: int, units: bytes) -> tuple:
        """``(bytes, file offset, units)`` of consecutive units of file ``side`` (window
        ``number``): a view of the window when held, else of the file's mapping, else read
        from the file."""
        units = memoryview(units)
        u = units.cast("q")
        start, end = u[0], u[-2]
        got = self.held.get((side, number))
        if got is not None:
            piece, offset = got
            return memoryview(piece)[start - offset:end - offset], start, units
        mapped = self.maps.get(side)
        if mapped is not None:
            return memoryview(mapped)[start:end], start, units
        try:
            fd = self.fds.get(side)
            if fd is None:
                fd = self.fds[side] = os.open(self.paths[side], os.O_RDONLY)
            buf = os.pread(fd, end - start, start)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", self.labels[side]) from None
        if len(buf) != end - start:
            raise InputError("the file changed while it was read", self.labels[side])
        return buf, start, units

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()


def _task_values(metric: str, keep: frozenset[str], options: dict, pieces: _Pieces, task: tuple) -> tuple:
    """``(typecode, value bytes, ids)`` of one task ``(k0, (window, units), (window,
    units))``: ids ``None`` when every pair's id is its number, else joined by newlines (a
    list if an id holds one)."""
    from ..codecs.penman_units import done_with
    from ..features.triples import pair_codes_units
    from .amr_metrics import _unit_block, batch_values

    k0, (gw, gu), (sw, su) = task
    runs = (pieces.run(0, gw, gu), pieces.run(1, sw, su))
    n = len(gu) // 24
    coded = pair_codes_units(runs[0], runs[1], keep)
    for run, label in zip(runs, pieces.labels):  # coded: its pages given back (read again if a pair needs it)
        done_with(run[0], run[1], label)
    vals, ids = batch_values(metric, coded, n,
                             lambda i: (_unit_block(runs[0], i), _unit_block(runs[1], i)),
                             k0, pieces.labels, keep, options)
    if ids == [str(k) for k in range(k0 + 1, k0 + n + 1)]:
        ids = None
    else:
        joined = "\n".join(ids)
        if joined.count("\n") == n - 1:
            ids = joined
    return vals.typecode, vals.tobytes(), ids


class _Tasks:
    """The tasks of two files: their windows cut as the serial path cuts them
    (:func:`mrkit.pipeline.amr_metrics._unit_batches`), the first ones on :meth:`prime`
    (before the fork), and tasks of pairs drawn from them, sized by guided self-scheduling
    (:data:`GUIDE`): large first, small at the end, so that no process waits long for the
    other's last task."""

    def __init__(self, gold: str, system: str, pieces: _Pieces, parts: int) -> None:
        from ..codecs.penman_units import unit_pieces
        from . import amr_metrics
        from .amr_formats import file_size

        window = amr_metrics.WINDOW
        first = min(window, FIRST)
        self.streams = [unit_pieces(p, label, False, window, first=first)
                        for p, label in zip(pieces.paths, pieces.labels)]
        self.pieces, self.parts = pieces, parts
        self.size = file_size(gold)
        self.cur: list = [None, None]  # per file: [window number, units (a memoryview), bytes used]
        self.numbers = [0, 0]

    def _fill(self) -> bool:
        """Windows for both files with units left; False when a file has none left."""
        from ..codecs.penman_units import mapping_of, release_piece

        for side in (0, 1):
            while self.cur[side] is None or self.cur[side][2] == len(self.cur[side][1]):
                nxt = next(self.streams[side], None)
                held = self.pieces.held
                for key in [key for key in held if key[0] == side]:
                    # a worker holds its own copy; a task taken back reads the file; a mapped
                    # window's pages are given back up to the next window
                    release_piece(*held.pop(key), nxt)
                if nxt is None:
                    self.cur[side] = None
                    break
                self.numbers[side] += 1
                held[side, self.numbers[side]] = (nxt[0], nxt[1])
                if side not in self.pieces.maps and isinstance(nxt[0], memoryview):
                    self.pieces.maps[side] = mapping_of(nxt[0])
                self.cur[side] = [self.numbers[side], memoryview(nxt[2]), 0]
        return self.cur[0] is not None and self.cur[1] is not None

    prime = _fill

    def __iter__(self):
        from . import amr_metrics

        k = 0
        while True:
            if not self._fill():
                if self.cur[0] is not None or self.cur[1] is not None or k == 0:
                    raise amr_metrics._General
                return
            g, s = self.cur
            avail = min(len(g[1]) - g[2], len(s[1]) - s[2]) // 24
            n = min(avail, max(TASK_MIN, min(TASK_MAX, amr_metrics.BATCH, self._left(k) // (GUIDE * self.parts))))
            task = (k, (g[0], g[1][g[2]:g[2] + 24 * n].tobytes()), (s[0], s[1][s[2]:s[2] + 24 * n].tobytes()))
            g[2] += 24 * n
            s[2] += 24 * n
            k += n
            yield task

    def _left(self, k: int) -> int:
        """Pairs estimated left from pair ``k`` on: the gold file's size times the pairs per
        byte cut so far."""
        g = self.cur[0]
        units = g[1]
        cut = k + (len(units) - g[2]) // 24
        end = units[-24:].cast("q")[1] if len(units) else 0
        if not end or not self.size:
            return cut - k
        return max(cut, int(cut * self.size / end)) - k


def score_shared(metric: str, gold: str, system: str, keep: frozenset[str], executor, options: dict):
    """:func:`mrkit.pipeline.amr_metrics.score_coded` by ``executor.map_shared``: the same
    result, errors and exceptions (:class:`~mrkit.codecs.penman_units.CutDeclined`,
    ``_General``, ``_Declined``) as the serial path."""
    from array import array
    from functools import partial

    from . import amr_metrics

    pieces = _Pieces((gold, system), (str(gold), str(system)))
    tasks = _Tasks(gold, system, pieces, executor.workers)
    try:
        tasks.prime()  # the first windows, before the fork: the workers hold them
        amr_metrics._kernel_loaded(metric, options)  # before the fork too: the workers share them
        w = amr_metrics.CODED[metric][4](options)
        flat = None
        ids: list = []
        for typecode, data, got in executor.map_shared(partial(_task_values, metric, keep, options, pieces), tasks):
            if flat is None:
                flat = array(typecode)
            flat.frombytes(data)
            if got is None:
                base = len(ids)
                n = len(data) // (flat.itemsize * w)
                ids.extend([str(k) for k in range(base + 1, base + n + 1)])
            elif isinstance(got, str):
                ids.extend(got.split("\n"))
            else:
                ids.extend(got)
    finally:
        pieces.close()
    return amr_metrics.coded_result(metric, flat, ids, options)

