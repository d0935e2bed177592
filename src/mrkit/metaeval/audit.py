"""Audit a metric against the known traps of AMR metrics (``mrkit audit``).

Each trap is a few small generated (gold, system) pairs and the behaviour a sound AMR
metric shows on them, written as a check on the pair scores:

==================  ======================================================================
trap                sound behaviour
==================  ======================================================================
self                a graph against itself scores 1 (plain, reentrant, with attributes)
empty               a graph against the empty graph scores 0 (both ways); empty against
                    empty scores in [0, 1] (no error)
duplicated triples  repeating triples never gains: a graph with its correct triples
                    written twice scores what it scores without them, a graph with a
                    duplicate scores 1 against itself and against the graph without it
                    (smatch.py < 1.0.1 went above 1 here)
TOP                 the same triples around another top (focus) is another graph: < 1
constant source     an attribute written inverted (``:polarity-of -``, a triple whose
                    source is the constant) is not the attribute: < 1; such a graph
                    scores 1 against itself
inverted edges      an edge written inverted (``:ARG0-of``) is the same triple: 1, both
                    ways round; an edge written both ways (``:ARG0`` and ``:ARG0-of``) is
                    one triple: 1
role swap           ARG0 and ARG1 swapped is another meaning: < 1
variable renaming   other variable names: 1
triple order        the same graph written in another order: 1
==================  ======================================================================

A metric *falls* for a trap when a check fails or the metric raises an error on a
trap's pairs.  Every check also requires every score of the trap to lie in [0, 1].
All pairs of all traps are scored in one call of the metric, through the registry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..model.graph import Graph

EPS = 1e-9

# the graphs of the traps (PENMAN); one top, a reentrancy, an attribute, named roles
HIT = "(h / hit-01 :ARG0 (b / boy) :ARG1 (g / girl) :manner (h2 / hard))"
WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)"
NAME = '(c / city :name (n / name :op1 "New" :op2 "York") :mod (b / big))'


@dataclass(frozen=True)
class Trap:
    """One known trap of AMR metrics: its pairs and the sound behaviour on them."""

    name: str
    expected: str
    """The sound behaviour, in words."""
    pairs: tuple[tuple[str | None, str | None], ...]
    """(gold, system) PENMAN texts; None = the empty graph."""
    check: Callable[[list[float]], bool]
    """Scores of ``pairs`` -> whether the metric behaves soundly."""


def _all(pred: Callable[[float], bool]) -> Callable[[list[float]], bool]:
    return lambda xs: all(pred(x) for x in xs)


def _one(x: float) -> bool:
    return abs(x - 1.0) <= EPS


def _below_one(x: float) -> bool:
    return x < 1.0 - EPS


TRAPS: tuple[Trap, ...] = (
    Trap("self", "a graph against itself scores 1",
         ((HIT, HIT), (WANT, WANT), (NAME, NAME)), _all(_one)),
    Trap("empty", "graph vs empty and empty vs graph score 0; empty vs empty lies in [0, 1]",
         ((HIT, None), (None, HIT), (None, None)),
         lambda xs: abs(xs[0]) <= EPS and abs(xs[1]) <= EPS),
    Trap("duplicated triples",
         "duplicating triples never gains; a graph with a duplicate scores 1 against itself "
         "and against the graph without it",
         (("(h / hit-01 :ARG0 (b / boy) :ARG1 (g / girl) :manner (h2 / hard))",
           "(h / hit-01 :ARG0 (b / boy) :ARG1 (c / cat) :manner (s / soft))"),
          ("(h / hit-01 :ARG0 (b / boy) :ARG1 (g / girl) :manner (h2 / hard))",
           "(h / hit-01 :ARG0 (b / boy) :ARG0 b :ARG0 b :ARG1 (c / cat) :manner (s / soft))"),
          ("(w / want-01 :ARG0 (b / boy) :polarity - :polarity -)",
           "(w / want-01 :ARG0 (b / boy) :polarity - :polarity -)"),
          ("(w / want-01 :ARG0 (b / boy) :polarity -)",
           "(w / want-01 :ARG0 (b / boy) :polarity - :polarity -)")),
         lambda xs: abs(xs[1] - xs[0]) <= EPS and _one(xs[2]) and _one(xs[3])),
    Trap("TOP", "the same triples around another top is another graph: < 1",
         ((HIT, "(g / girl :ARG1-of (h / hit-01 :ARG0 (b / boy) :manner (h2 / hard)))"),),
         _all(_below_one)),
    Trap("constant source",
         "an attribute written inverted (constant as source) is not the attribute: < 1; "
         "such a graph scores 1 against itself",
         (("(w / want-01 :ARG0 (b / boy) :polarity -)", "(w / want-01 :ARG0 (b / boy) :polarity-of -)"),
          ("(w / want-01 :ARG0 (b / boy) :polarity-of -)", "(w / want-01 :ARG0 (b / boy) :polarity-of -)")),
         lambda xs: _below_one(xs[0]) and _one(xs[1])),
    Trap("inverted edges",
         "an edge written inverted is the same triple (both ways round); an edge written "
         "both ways is one triple: 1",
         ((WANT, "(w / want-01 :ARG0 (b / boy :ARG0-of (g / go-02)) :ARG1 g :polarity -)"),
          ("(w / want-01 :ARG0 (b / boy :ARG0-of (g / go-02)) :ARG1 g :polarity -)", WANT),
          (WANT, "(w / want-01 :ARG0 (b / boy :ARG0-of (g / go-02 :ARG0 b)) :ARG1 g :polarity -)"),
          (HIT, "(h / hit-01 :ARG0 (b / boy :ARG0-of h) :ARG1 (g / girl) :manner (h2 / hard))")),
         _all(_one)),
    Trap("role swap", "ARG0 and ARG1 swapped is another meaning: < 1",
         ((HIT, "(h / hit-01 :ARG0 (g / girl) :ARG1 (b / boy) :manner (h2 / hard))"),),
         _all(_below_one)),
    Trap("variable renaming", "other variable names: 1",
         ((HIT, "(x / hit-01 :ARG0 (y / boy) :ARG1 (z / girl) :manner (v / hard))"),
          (WANT, "(a1 / want-01 :ARG0 (a2 / boy) :ARG1 (a3 / go-02 :ARG0 a2) :polarity -)")),
         _all(_one)),
    Trap("triple order", "the same graph written in another order: 1",
         ((HIT, "(h / hit-01 :manner (h2 / hard) :ARG1 (g / girl) :ARG0 (b / boy))"),
          (WANT, "(w / want-01 :polarity - :ARG1 (g / go-02 :ARG0 (b / boy)) :ARG0 b)"),
          (NAME, '(c / city :mod (b / big) :name (n / name :op2 "York" :op1 "New"))')),
         _all(_one)),
)

TRAP_NAMES = tuple(t.name for t in TRAPS)


@dataclass
class TrapResult:
    """How one metric fared on one trap."""

    trap: str
    expected: str
    scores: list[float]
    sound: bool
    error: str | None = None


@dataclass
class Audit:
    """The audit of one metric: one :class:`TrapResult` per trap."""

    metric: str
    results: list[TrapResult] = field(default_factory=list)

    @property
    def falls_for(self) -> list[str]:
        return [r.trap for r in self.results if not r.sound]

    def to_dict(self) -> dict:
        return {"metric": self.metric, "falls_for": self.falls_for,
                "traps": [{"trap": r.trap, "sound": r.sound, "expected": r.expected,
                           "scores": [None if math.isnan(x) else x for x in r.scores],
                           **({"error": r.error} if r.error else {})} for r in self.results]}


def _graph(text: str | None, index: int) -> Graph:
    if text is None:
        return Graph(id=f"trap-{index}-empty")
    from ..codecs.penman import loads

    (g,) = loads(text, name="<trap>")
    g.id = f"trap-{index}"
    return g


def trap_graphs(traps: Sequence[Trap] = TRAPS) -> tuple[list[Graph], list[Graph]]:
    """Gold and system graphs of every pair of ``traps``, in order."""
    golds, systems = [], []
    for t in traps:
        for a, b in t.pairs:
            golds.append(_graph(a, len(golds)))
            systems.append(_graph(b, len(systems)))
    return golds, systems


def _judge(trap: Trap, scores: list[float]) -> bool:
    return all(0.0 - EPS <= x <= 1.0 + EPS for x in scores) and bool(trap.check(scores))


def audit_metric(metric: str, traps: Sequence[Trap] = TRAPS, **options) -> Audit:
    """Run ``metric`` (a registered name; ``options`` as for
    :func:`mrkit.metrics.registry.score`) on every trap.  A metric error on the batch is
    retried trap by trap, so that one trap's error does not hide the others."""
    from ..metrics.registry import score

    golds, systems = trap_graphs(traps)
    out = Audit(metric)
    try:
        all_scores = [float(x) for x in score(metric, golds, systems, **options).pair_scores]
    except Exception:  # noqa: BLE001 - an error is a finding: find the trap that causes it
        all_scores = None
    at = 0
    for t in traps:
        n = len(t.pairs)
        if all_scores is not None:
            scores = all_scores[at:at + n]
            out.results.append(TrapResult(t.name, t.expected, scores, _judge(t, scores)))
        else:
            g, s = golds[at:at + n], systems[at:at + n]
            try:
                scores = [float(x) for x in score(metric, g, s, **options).pair_scores]
                out.results.append(TrapResult(t.name, t.expected, scores, _judge(t, scores)))
            except Exception as exc:  # noqa: BLE001
                out.results.append(TrapResult(t.name, t.expected, [float("nan")] * n, False,
                                              f"{type(exc).__name__}: {exc}"))
        at += n
    return out


def audit_metrics(metrics: Sequence[str], **options) -> list[Audit]:
    """:func:`audit_metric` for each metric; ``options`` reach the metrics that declare them."""
    from ..metrics.registry import metric_options

    audits = []
    for m in metrics:
        declared = metric_options(m)
        audits.append(audit_metric(m, **{k: v for k, v in options.items() if k in declared}))
    return audits
