"""Meta-evaluation of graph metrics: compare metrics with each other and with humans.

Given gold graphs, the graphs of two or more systems and (optionally) human labels,
:func:`meta_evaluate` computes system-level scores (micro and macro), ℙ (how often each
metric prefers one system over another), pairwise accuracy against human preferences, AΔ
(acceptable parses ranked above unacceptable ones), the Spearman matrix between metrics,
and paired significance tests, all seeded.  ``mrkit compare`` is its command line.
"""

from .acceptability import a_delta
from .correlation import spearman, spearman_matrix
from ..codecs.labels import HumanLabels, check_labels, parse_labels, read_labels
from .preference import human_signs, pairwise_accuracy, preference_share, sign_test, signs
from ..aggregate.significance import bootstrap_ci, paired_difference
from .study import MetaEvaluation, meta_evaluate, run_metric, sentence_length

__all__ = [
    "HumanLabels", "MetaEvaluation", "a_delta", "bootstrap_ci", "check_labels", "human_signs",
    "meta_evaluate", "paired_difference", "pairwise_accuracy", "parse_labels", "preference_share",
    "read_labels", "run_metric", "sentence_length", "sign_test", "signs", "spearman",
    "spearman_matrix",
]
