"""Maximum-Bayes-Smatch ensemble selection (``mrkit select``): given ``k`` candidate parses
of the same sentences (``k`` PENMAN files, graphs paired in order), pick for each sentence
the candidate with the highest mean Smatch F1 against the other ``k - 1`` candidates
(Lee et al. 2022, "Maximum Bayes Smatch Ensemble Distillation for AMR Parsing").

Work is shipped as chunks of sentences, each the raw text of its ``k`` blocks (and the
gold block when a gold file is given); a worker parses them and aligns the ``k (k - 1) / 2``
unordered candidate pairs once each (Smatch F1 is symmetric: the certified optimum of
(a, b) is that of (b, a)), plus each candidate against the gold.  What comes back is a few
numbers per sentence, so the choice and every number equal the single-process run
whatever the executor or chunk size.  Ties go to the earlier candidate file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import zip_longest
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from ..errors import InputError, MrkitError
from . import chunked

if TYPE_CHECKING:
    from ..align import AlignConfig

CHUNK = 32
"""Sentences per task (``k (k - 1) / 2`` alignments each)."""


def _blocks(path: str) -> Iterator[tuple[int, str]]:
    from .matrix import _CONTENT
    from ..codecs.penman import iter_blocks

    for start, text in iter_blocks(path):
        if _CONTENT.search(text):
            yield start, text


def _items(paths: Sequence[str], gold: str | None) -> Iterator[tuple]:
    """(sentence index, candidate blocks, gold block) in order; different numbers of
    graphs are an error naming the shorter file."""
    sources = [_blocks(p) for p in paths] + ([_blocks(gold)] if gold else [])
    names = list(paths) + ([gold] if gold else [])
    n = -1
    for n, row in enumerate(zip_longest(*sources)):
        missing = [names[i] for i, b in enumerate(row) if b is None]
        if missing:
            raise InputError(f"holds {n} graphs but {names[0] if names[0] not in missing else names[-1]} holds more: "
                             "every file must hold the same sentences in the same order", missing[0])
        yield n, row[:len(paths)], (row[-1] if gold else None)
    if n < 0:
        raise InputError("holds no graph: nothing to select", paths[0])


def _parse(label: str, index: int, block: tuple[int, str]):
    from ..codecs.penman import parse_block

    start, text = block
    graphs = parse_block(start, text, label, index)
    if len(graphs) != 1:
        raise InputError(f"{len(graphs)} graphs in one block: put a blank line between graphs", label, start)
    return graphs[0]


def _select_chunk(task: tuple) -> list[tuple]:
    """Worker: for each sentence, the pair rows (matched, gold, system) of every unordered
    candidate pair and their certification, and each candidate against the gold."""
    from ..features.triples import triples
    from ..metrics.amr.smatch import _pair_score

    config, labels, gold_label, items = task
    out = []
    for n, blocks, gold_block in items:
        trip = [triples(_parse(labels[c], n, b)) for c, b in enumerate(blocks)]
        pairs = []
        for a in range(len(trip)):
            for b in range(a + 1, len(trip)):
                p = _pair_score(n, None, trip[a], trip[b], config)
                pairs.append((p.matched, p.gold, p.system, p.certified))
        versus_gold = None
        if gold_block is not None:
            tg = triples(_parse(gold_label, n, gold_block))
            versus_gold = []
            for t in trip:
                p = _pair_score(n, None, tg, t, config)
                versus_gold.append((p.matched, p.gold, p.system, p.certified))
        out.append((n, pairs, versus_gold))
    return out


@dataclass
class SelectResult:
    """The choice per sentence and the agreement behind it."""

    candidates: list[str]
    gold: str | None
    ids: list[str | None] = field(default_factory=list)
    choice: list[int] = field(default_factory=list)
    """0-based candidate chosen per sentence."""
    agreement: list[list[float]] = field(default_factory=list)
    """Per sentence, each candidate's mean Smatch F1 against the others."""
    certified: list[bool] = field(default_factory=list)
    """Per sentence, whether every candidate pair's alignment is certified optimal."""
    blocks: list[str] = field(default_factory=list)
    """The chosen graph of each sentence, as the raw text of its candidate file."""
    gold_rows: list[list[tuple]] | None = None
    """Per sentence, each candidate's (matched, gold, system, certified) against the gold."""

    @property
    def sentences(self) -> int:
        return len(self.choice)

    def chosen_counts(self) -> list[int]:
        counts = [0] * len(self.candidates)
        for c in self.choice:
            counts[c] += 1
        return counts

    def gold_scores(self) -> dict | None:
        """Corpus Smatch (micro P/R/F1) against the gold of every candidate and of the
        selection (the chosen candidate's counts per sentence)."""
        if self.gold_rows is None:
            return None
        import numpy as np

        from ..aggregate.resampling import prf_reduce

        def score(rows):
            sums = np.asarray([r[:3] for r in rows], dtype=np.float64).sum(axis=0)
            return {k: float(v) for k, v in prf_reduce(sums).items()}

        out = {"candidates": [score([s[c] for s in self.gold_rows]) for c in range(len(self.candidates))],
               "selected": score([s[c] for s, c in zip(self.gold_rows, self.choice)])}
        out["certified"] = sum(all(r[3] for r in s) for s in self.gold_rows)
        return out

    def rows(self) -> list[dict]:
        """One row per sentence for the agreement table."""
        import numpy as np

        from ..aggregate.resampling import prf_reduce

        out = []
        for n in range(self.sentences):
            row: dict = {"sentence": n + 1, "id": self.ids[n], "selected": self.choice[n] + 1,
                         "agreement": self.agreement[n][self.choice[n]]}
            for c, m in enumerate(self.agreement[n]):
                row[f"mean_{c + 1}"] = m
            row["certified"] = self.certified[n]
            if self.gold_rows is not None:
                f = prf_reduce(np.asarray([r[:3] for r in self.gold_rows[n]], dtype=np.float64))["f1"]
                row["gold_f1"] = float(f[self.choice[n]])
                for c in range(len(self.candidates)):
                    row[f"gold_f1_{c + 1}"] = float(f[c])
            out.append(row)
        return out

    def to_dict(self) -> dict:
        counts = self.chosen_counts()
        out: dict = {"sentences": self.sentences,
                     "candidates": [{"file": f, "chosen": counts[c]} for c, f in enumerate(self.candidates)],
                     "mean_agreement": (sum(a[c] for a, c in zip(self.agreement, self.choice)) / self.sentences
                                        if self.sentences else None),
                     "certified_sentences": sum(self.certified)}
        gs = self.gold_scores()
        if gs is not None:
            out["gold"] = self.gold
            for c, s in enumerate(gs["candidates"]):
                out["candidates"][c]["gold_smatch"] = s
            out["selected_gold_smatch"] = gs["selected"]
        return out


def select_files(candidates: Sequence[str], gold: str | None = None, *, config: "AlignConfig | None" = None,
                 executor=None, chunk: int = CHUNK, progress: Callable[[int], None] | None = None) -> SelectResult:
    """MBSE selection over ``candidates`` (PENMAN files, the same sentences in the same
    order), optionally scored against ``gold``; pairs aligned through ``executor``."""
    import numpy as np

    from ..aggregate.resampling import prf_reduce
    from ..runtime.executor import SerialExecutor

    if len(candidates) < 2:
        raise MrkitError("give two candidate files at least: each candidate is scored against the others")
    if config is None:
        from ..align import AlignConfig

        config = AlignConfig()
    executor = executor if executor is not None else SerialExecutor()
    k = len(candidates)
    labels = [str(c) for c in candidates]
    result = SelectResult(labels, None if gold is None else str(gold), gold_rows=[] if gold else None)
    texts: dict[int, tuple] = {}

    def tasks():
        for items in chunked(_items(labels, gold), chunk):
            for n, blocks, gold_block in items:
                texts[n] = (*blocks, gold_block) if gold_block is not None else blocks
            yield config, labels, None if gold is None else str(gold), items

    from .matrix import _ID

    for out in executor.map(_select_chunk, tasks()):
        for n, pairs, versus_gold in out:
            f1 = prf_reduce(np.asarray([p[:3] for p in pairs], dtype=np.float64))["f1"]
            total = [0.0] * k
            q = 0
            for a in range(k):
                for b in range(a + 1, k):
                    total[a] += float(f1[q])
                    total[b] += float(f1[q])
                    q += 1
            means = [t / (k - 1) for t in total]
            best = max(range(k), key=lambda c: (means[c], -c))
            blocks = texts.pop(n)
            result.choice.append(best)
            result.agreement.append(means)
            result.certified.append(all(p[3] for p in pairs))
            result.blocks.append(blocks[best][1])
            # the id: the selected graph's, else the first other file's that has one
            found = (_ID.search(b[1]) for b in (blocks[best], *blocks))
            m = next((x for x in found if x), None)
            result.ids.append(m.group(1) if m else None)
            if result.gold_rows is not None:
                result.gold_rows.append(versus_gold)
        if progress is not None:
            progress(len(out))
    return result
