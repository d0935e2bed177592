"""SciCo beyond scoring: baselines (systems without a trained model), corpus statistics,
inter-annotator agreement.  Files in, plain result objects out (``mrkit scico``)."""

from __future__ import annotations

import os
from typing import Sequence

from ..errors import InputError
from .coref import read_topics


def levenshtein_baseline(path: str, threshold: float = 0.3, warn=None) -> list:
    """SciCo's edit-distance baseline on every topic of a SciCo file."""
    from ..systems.levenshtein import cluster_topic

    return [cluster_topic(t, threshold) for t in read_topics(path, warn)]


def pair_score_baseline(path: str, scores: str, coref_threshold: float = 0.6, hierarchy_threshold: float = 0.4,
                        warn=None) -> list:
    """The two-stage pipeline (clusters, then greedy hierarchy) from a pair scorer's
    probabilities (:mod:`mrkit.codecs.pair_scores`) on every topic of a SciCo file; a
    topic without scored pairs gets every mention in its own cluster."""
    from ..codecs.pair_scores import read_pair_scores
    from ..metrics.coref.pairs import mention_list
    from ..systems.two_stage import predict_topic

    topics = read_topics(path, warn)
    table = read_pair_scores(scores)
    ids = {t.id for t in topics}
    for tid in table:
        if tid not in ids:
            raise InputError(f"topic {tid} of the pair scores is not in {path}", scores)
    out = []
    for t in topics:
        scored = table.get(t.id, {})
        n = len(mention_list(t))
        for i, j in scored:
            if i >= n or j >= n:
                raise InputError(f"pair ({i}, {j}) names a mention the topic does not have ({n} mentions)",
                                 scores, None, t.id, unit="topic")
        if scored and not any("coref" in v for v in scored.values()):
            raise InputError("no coref column: the clusters need coreference probabilities", scores)
        out.append(predict_topic(t, scored, coref_threshold, hierarchy_threshold))
    return out


def stats_file(path: str, warn=None) -> dict:
    """Table 2 rows of a SciCo file."""
    from ..metrics.coref.corpus_stats import corpus_stats

    return {"file": os.fspath(path), **corpus_stats(read_topics(path, warn))}


def agreement_files(paths: Sequence[str], baseline: str | None = None, gold: str | None = None, warn=None) -> dict:
    """Agreement of two annotation files or more (same topic ids); with ``baseline`` and
    ``gold``, its Pearson/Spearman correlation with the baseline's per-topic CoNLL-F1."""
    from ..metrics.coref.agreement import agreement, baseline_per_topic, correlation
    from ..metrics.coref.hierarchy import pair_topics

    if len(paths) < 2:
        raise InputError("agreement needs two annotation files or more")
    annotations = [read_topics(p, warn) for p in paths]
    for p, a in zip(paths[1:], annotations[1:]):
        pair_topics(annotations[0], a, p)  # same topic ids (or an InputError naming them)
    out = agreement([sorted_like(annotations[0], a) for a in annotations], list(paths))
    if baseline is not None:
        if gold is None:
            raise InputError("--baseline needs --gold (the baseline is scored against it)")
        g, b = read_topics(gold, warn), read_topics(baseline, warn)
        out["correlation"] = correlation(out["per_topic"], baseline_per_topic(g, sorted_like(g, b)))
    return out


def sorted_like(reference: Sequence, topics: Sequence) -> list:
    order = {t.id: i for i, t in enumerate(reference)}
    return sorted((t for t in topics if t.id in order), key=lambda t: order[t.id])
