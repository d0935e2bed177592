"""Sharded inputs: a directory or a glob of files on each side, paired by file name.

``mrkit smatch GOLD_DIR SYSTEM_DIR`` (or ``'gold/*.amr' 'sys/*.amr'``) scores every pair of
shards with the same name (the path under the directory, or the file name for a glob) as
one corpus: shard after shard, each streamed through the caller's executor in raw-text
chunks, the rows collected in shard order, so that the numbers equal those of one file
holding the shards one after the other.  Inside a pair of shards graphs are paired in
order, and where both graphs carry an ``# ::id`` the ids must agree.

A shard that fails (bad input, different numbers of graphs, a shard missing on one side)
stops the run with the usual one-line error naming its file and line; with
``keep_going`` it is skipped instead, its rows are dropped whole, and the result names
it (``skipped``, ``complete: false``): nothing partial passes as complete.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import InputError, MrkitError
from . import is_sharded  # noqa: F401  (kept here too; it lives in the package: start-up)

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Iterator

if TYPE_CHECKING:
    from ..aggregate.corpus import CorpusResult
    from ..align import AlignConfig


def expand(spec: str) -> dict[str, str]:
    """Shard name -> path: the files under a directory (recursively, hidden ones left out;
    name = the path under the directory) or the files a glob matches (name = the file
    name); sorted by name."""
    out: dict[str, str] = {}
    if os.path.isdir(spec):
        for root, dirs, files in os.walk(spec):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for f in files:
                if not f.startswith("."):
                    path = os.path.join(root, f)
                    out[os.path.relpath(path, spec)] = path
    else:
        import glob

        for path in glob.glob(spec, recursive=True):
            if os.path.isfile(path):
                name = os.path.basename(path)
                if name in out:
                    raise MrkitError(f"{spec}: two files named {name} ({out[name]}, {path}): shards are paired by name")
                out[name] = path
    if not out:
        raise InputError("no file: a directory or glob of shards must match files", spec)
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Shard:
    """One shard: its name and its file on each side (``None``: missing on that side)."""

    name: str
    gold: str | None
    system: str | None


def pair_shards(gold: str, system: str) -> list[Shard]:
    """Shards of the two sides paired by name, in name order (a shard on one side only
    comes with ``None`` on the other: the run reports it as a failed shard)."""
    g = expand(gold) if is_sharded(gold) else {os.path.basename(gold): gold}
    s = expand(system) if is_sharded(system) else {os.path.basename(system): system}
    if len(g) == 1 and len(s) == 1 and not (is_sharded(gold) and is_sharded(system)):
        (gn, gp), (sn, sp) = next(iter(g.items())), next(iter(s.items()))
        return [Shard(gn, gp, sp)]  # one file against one file (or a one-file shard set)
    return [Shard(n, g.get(n), s.get(n)) for n in sorted(set(g) | set(s))]


@dataclass
class Skipped:
    """A shard left out by ``--keep-going``, and why."""

    shard: str
    reason: str

    def to_dict(self) -> dict:
        return {"shard": self.shard, "reason": self.reason}


_ID = r"#\s*::id\s+(\S+)"  # compiled at first use (re's cache), not at start-up


def _checked_chunks(shard: Shard, chunk: int) -> Iterator[tuple]:
    """(index of the first pair, gold blocks, system blocks) of a shard pair, ``chunk`` pairs
    at a time, in order, ids checked (the chunks :func:`mrkit.pipeline.amr._score_blocks`
    takes)."""
    from .amr import _block_chunks, _unit_chunks, _units_available

    if _units_available():  # graphs cut by the compiled scanner (blank lines or not)
        from ..codecs.penman_units import unit_texts

        chunks = ((k0, unit_texts(shard.gold, shard.gold, g), unit_texts(shard.system, shard.system, s))
                  for k0, g, s in _unit_chunks(shard.gold, shard.system, chunk))
    else:
        chunks = _block_chunks(shard.gold, shard.system, chunk)
    for k0, golds, systems in chunks:
        for k, g, s in zip(range(k0, k0 + len(golds)), golds, systems):
            gi, si = re.search(_ID, g[1]), re.search(_ID, s[1])
            if gi and si and gi.group(1) != si.group(1):
                raise InputError(f"graph {k + 1} has id {si.group(1)} but graph {k + 1} of {shard.gold} has id "
                                 f"{gi.group(1)}: the graphs of a shard pair must be in the same order",
                                 shard.system, s[0])
        yield k0, golds, systems


def _shard_rows(shard: Shard, config, keep: frozenset[str], executor, chunk: int):
    """Score one pair of shards: (its collector, the sum of its pairs' bounds)."""
    from ..aggregate.columns import ColumnCollector
    from ..aggregate.resampling import prf_reduce
    from . import chunked
    from .amr import _Regroup, _collect, _formats, _label, _pairs, _score_blocks, _score_graphs

    def collector():
        return ColumnCollector("smatch", prf_reduce, 3, certified=True)

    if shard.gold is None or shard.system is None:
        side, other = ("system", shard.gold) if shard.system is None else ("gold", shard.system)
        raise InputError(f"no {side} shard of this name: shards are paired by file name", other)
    gfmt, sfmt = _formats(shard.gold, shard.system, None)
    if gfmt == sfmt == "amr":
        labels = (_label(shard.gold), _label(shard.system))
        tasks = ((config, keep, False, labels, items) for items in _checked_chunks(shard, chunk))
        try:
            return _collect(executor.map(_score_blocks, tasks), collector, None)
        except _Regroup:  # blocks that are not one graph each: graph by graph, as smatch_files
            pass
    items = ((k, g, s) for k, (g, s) in enumerate(_pairs(shard.gold, shard.system, gfmt, sfmt)))
    tasks = ((config, keep, False, c) for c in chunked(items, chunk))
    return _collect(executor.map(_score_graphs, tasks), collector, None)


def smatch_shards(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                  keep_going: bool = False, chunk: int | None = None,
                  progress: Callable[[int], None] | None = None,
                  on_skip: Callable[[Skipped], None] | None = None) -> "CorpusResult":
    """Corpus Smatch of sharded inputs (see the module docstring): one
    :class:`~mrkit.aggregate.corpus.CorpusResult` over every pair of every shard, its
    detail as :func:`mrkit.pipeline.amr.smatch_files` plus ``shards`` (how many were
    scored), ``skipped`` and ``complete``.  ``progress(1)`` after each shard."""
    import numpy as np

    from ..aggregate.corpus import Collector
    from ..aggregate.prf import prf
    from ..aggregate.resampling import prf_reduce
    from ..model.amr import NON_INVERTED_OF
    from ..runtime.executor import SerialExecutor
    from . import CHUNK

    if config is None:
        from ..align import AlignConfig

        config = AlignConfig()
    executor = executor if executor is not None else SerialExecutor()
    chunk = chunk or CHUNK
    total = Collector("smatch", prf_reduce, 3, certified=True)
    bound = 0.0
    skipped: list[Skipped] = []
    shards = pair_shards(gold, system)
    done = 0
    for shard in shards:
        try:
            part, b = _shard_rows(shard, config, NON_INVERTED_OF, executor, chunk)
        except InputError as exc:
            if not keep_going:
                raise
            skip = Skipped(shard.name, " ".join(str(exc).split()))
            skipped.append(skip)
            if on_skip is not None:
                on_skip(skip)
        else:
            res = part.result()
            for i in range(res.pairs):
                total.add(res.ids[i], res.table[i], bool(res.certified[i]))
            bound += b
            done += 1
        if progress is not None:
            progress(1)
    if done == 0:
        raise InputError("no shard could be scored" + (f" ({len(skipped)} skipped)" if skipped else ""), gold)
    result = total.result()
    sums = result.table.sum(axis=0) if result.pairs else np.zeros(3)
    matched, n_gold, n_system = float(sums[0]), int(sums[1]), int(sums[2])
    result.detail.update(matched=matched, gold_triples=n_gold, system_triples=n_system,
                         f1_upper_bound=prf(bound, n_gold, n_system)[2], shards=done,
                         skipped=[s.to_dict() for s in skipped], complete=not skipped)
    return result
