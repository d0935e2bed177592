"""A registry of corpus-level graph metrics, for scoring, comparison and meta-evaluation.

Every metric is a function ``(golds, systems, **options) -> MetricScores`` over two
equally long lists of graphs (:class:`mrkit.metrics.result.MetricScores`, a
:class:`mrkit.aggregate.corpus.CorpusResult` with the accessors of the former
``MetricResult``: ``corpus``, ``pair_scores``, ``macro``, ``details``).  A metric declares
with :func:`register`

- its options: the keyword parameters of its function after the two graph lists (its
  signature is the declaration; :func:`metric_options`).  ``executor`` is not an option:
  a metric that takes it runs its pairs through the caller's executor;
- how its corpus score is made from per-pair summable rows: ``columns`` (the names of a
  row's statistics) and ``reduce`` (column sums -> statistics, see
  :mod:`mrkit.aggregate.resampling`), or ``reduce=None`` when the reducer depends on the
  options (SemBLEU's n-gram order); ``corpus`` says it in words.

The registry imports the modules listed in ``_MODULES`` on first use, so that importing
mrkit stays cheap (no numpy here).
"""

from __future__ import annotations

from ..errors import MrkitError
from ..model.frozen import Frozen, setfields

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator, Sequence

    from ..model.graph import Graph

    MetricFn = Callable[..., Any]


def _metric_result_class():
    from dataclasses import dataclass, field

    @dataclass
    class MetricResult:
        """The former result of a metric (kept for one release: a metric registered by
        user code may still return it; the built-in metrics return
        :class:`mrkit.metrics.result.MetricScores`)."""

        name: str
        per_pair: list[float]
        """One score in [0, 1] per pair."""
        corpus: float
        """The metric's corpus-level score (micro average for Smatch-like metrics)."""
        details: dict = field(default_factory=dict)

        @property
        def pair_scores(self) -> list[float]:
            return list(self.per_pair)

        @property
        def macro(self) -> float:
            return sum(self.per_pair) / len(self.per_pair) if self.per_pair else 1.0

    MetricResult.__module__, MetricResult.__qualname__ = __name__, "MetricResult"
    return MetricResult


def __getattr__(name: str):
    # built on first use: typing is not loaded at start-up, and a dataclass costs about a
    # millisecond to build (issue 14)
    if name == "MetricFn":
        from typing import Any, Callable

        value = globals()["MetricFn"] = Callable[..., Any]
        return value
    if name == "MetricResult":
        value = globals()["MetricResult"] = _metric_result_class()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Declaration(Frozen):
    """How a metric's corpus score is made from its per-pair rows.

    Immutable, compared and hashed by value, as ``@dataclass(frozen=True)`` would make it
    (:class:`mrkit.model.frozen.Frozen`: the dataclass costs about a millisecond of every
    ``mrkit score`` to build)."""

    __slots__ = ("columns", "reduce", "corpus", "aligns")
    __match_args__ = ("columns", "reduce", "corpus", "aligns")

    columns: tuple[str, ...] | None
    """Names of the summable statistics of a pair (None: they depend on the options)."""
    reduce: Callable | None
    """Column sums -> named statistics (None: made from the options by the metric)."""
    corpus: str
    """The corpus score in words (``micro F1``, ``corpus BLEU``, ``mean of pairs``)."""
    aligns: bool
    """Whether the metric searches an alignment per pair (work enough for worker processes
    to pay on large corpora; the other metrics' pairs are cheaper than sending them)."""

    def __init__(self, columns: tuple[str, ...] | None, reduce: Callable | None, corpus: str,
                 aligns: bool = False) -> None:
        setfields(self, columns, reduce, corpus, aligns)


_METRICS: dict[str, MetricFn] = {}
_DECLARED: dict[str, Declaration] = {}

# metric name -> module that registers it
_MODULES: dict[str, str] = {
    "smatch": "mrkit.metrics.amr.smatch_metric",
    "sema": "mrkit.metrics.amr.sema",
    "sembleu": "mrkit.metrics.amr.sembleu",
    "s2match": "mrkit.metrics.amr.s2match",
    "wlk": "mrkit.metrics.amr.wlk",
    "wwlk": "mrkit.metrics.amr.wwlk",
    "wwlk-k3e2n": "mrkit.metrics.amr.wwlk",
    "simple": "mrkit.metrics.amr.simple",
}

EXECUTOR = "executor"
"""The keyword by which a metric takes the caller's executor (not an option)."""


def register(name: str, *, columns: Sequence[str] | None = None, reduce: Callable | None = None,
             corpus: str = "", aligns: bool = False) -> Callable[[MetricFn], MetricFn]:
    def deco(fn: MetricFn) -> MetricFn:
        _METRICS[name] = fn
        _DECLARED[name] = Declaration(None if columns is None else tuple(columns), reduce, corpus, aligns)
        return fn

    return deco


def available() -> list[str]:
    return list(_MODULES)


def builtin(name: str) -> bool:
    """Whether metric ``name`` is mrkit's own: listed in :data:`_MODULES` and not replaced
    by a later :func:`register` of user code (a metric not loaded yet is mrkit's own)."""
    if name not in _MODULES:
        return False
    fn = _METRICS.get(name)
    return fn is None or getattr(fn, "__module__", None) == _MODULES[name]


def get_metric(name: str) -> MetricFn:
    if name not in _METRICS:
        module = _MODULES.get(name)
        if module is None:
            raise MrkitError(f"unknown metric {name!r}; choose from {', '.join(available())}")
        __import__(module)  # importlib.import_module(module) without importing importlib
    return _METRICS[name]


def declaration(name: str) -> Declaration:
    """The rows and reducer metric ``name`` declares (see :class:`Declaration`)."""
    get_metric(name)
    return _DECLARED.get(name, Declaration(None, None, ""))


class _Parameter:
    """The part of :class:`inspect.Parameter` the registry reads: name, kind, default."""

    POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = range(5)
    empty = object()

    __slots__ = ("name", "kind", "default")

    def __init__(self, name: str, kind: int, default: object) -> None:
        self.name, self.kind, self.default = name, kind, default


def _code_parameters(fn) -> list[_Parameter] | None:
    """The parameters of a plain Python function read from its code object (what
    :func:`inspect.signature` finds for it, without importing :mod:`inspect`: start-up of
    ``mrkit score``), or ``None`` for anything else (wrapped, partial, builtin, class)."""
    code = getattr(fn, "__code__", None)
    if code is None or type(fn).__name__ != "function" or hasattr(fn, "__wrapped__") \
            or hasattr(fn, "__signature__"):
        return None
    P = _Parameter
    names = code.co_varnames
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    out = []
    first_default = npos - len(defaults)
    for i in range(npos):
        kind = P.POSITIONAL_ONLY if i < code.co_posonlyargcount else P.POSITIONAL_OR_KEYWORD
        out.append(P(names[i], kind, defaults[i - first_default] if i >= first_default else P.empty))
    k = npos
    star = code.co_flags & 0x04  # CO_VARARGS
    if star:
        out.append(P(names[npos + nkw], P.VAR_POSITIONAL, P.empty))
    for name in names[k:k + nkw]:
        out.append(P(name, P.KEYWORD_ONLY, kwdefaults.get(name, P.empty)))
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        out.append(P(names[npos + nkw + (1 if star else 0)], P.VAR_KEYWORD, P.empty))
    return out


def _parameters(name: str) -> list:
    fn = get_metric(name)
    params = _code_parameters(fn)
    if params is None:
        import inspect

        params = list(inspect.signature(fn).parameters.values())
    return params[2:]


def takes_executor(name: str) -> bool:
    """Whether metric ``name`` runs its pairs through a caller's executor."""
    return any(p.name == EXECUTOR for p in _parameters(name))


def metric_options(name: str) -> dict[str, object]:
    """The options metric ``name`` declares, with their defaults: the keyword parameters
    of its registered function after the two graph lists (its signature is the
    declaration), except ``executor`` (how pairs are run, not what is scored)."""
    out = {p.name: p.default for p in _parameters(name)
           if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != EXECUTOR}
    if any(v is _Parameter.empty for v in out.values()):  # a required option: inspect's marker
        import inspect

        out = {k: inspect.Parameter.empty if v is _Parameter.empty else v for k, v in out.items()}
    return out


def check_options(name: str, options: dict) -> None:
    """An option the metric does not declare (misspelt, or meant for another metric) is
    an error, never silently ignored."""
    declared = metric_options(name)
    unknown = sorted(set(options) - set(declared))
    if unknown:
        takes = ", ".join(declared) if declared else "none"
        raise MrkitError(f"metric {name!r} has no option {', '.join(map(repr, unknown))} (its options: {takes})")


def score(name: str, golds: Sequence[Graph], systems: Sequence[Graph], executor=None, **options):
    """Score aligned graph lists with the metric ``name`` under its declared
    ``options`` (:func:`metric_options`; any other is an error); returns its
    :class:`~mrkit.metrics.result.MetricScores` (a corpus result).  ``executor``
    (:mod:`mrkit.runtime.executor`; default: this process) runs the pairs of the metrics
    that take one.  The cyclic garbage collector is paused meanwhile, as for Smatch: a
    metric builds many small acyclic objects and collections over a whole corpus only cost
    time."""
    from ..codecs._gc_paused import gc_paused

    fn = get_metric(name)
    check_options(name, options)
    if executor is not None and takes_executor(name):
        options = {**options, EXECUTOR: executor}
    with gc_paused():
        return fn(golds, systems, **options)


# ------------------------------------------------------------------ running pairs

CHUNK = 256
"""At most this many pairs per task handed to an executor."""


def chunk_size(n: int, executor) -> int:
    """Pairs per task: about eight tasks per worker, at most :data:`CHUNK`."""
    workers = max(1, getattr(executor, "workers", 1) or 1)
    if workers == 1:
        return CHUNK
    return max(1, min(CHUNK, -(-n // (workers * 8))))


def through(executor, fn: Callable[[tuple], list], items: Sequence, *extra) -> list:
    """``fn((extra, chunk))`` over chunks of ``items``, through ``executor`` (None: in
    this process), results flattened in input order.  ``fn`` is module-level (a process
    executor pickles it with its task)."""
    size = chunk_size(len(items), executor)

    def tasks() -> Iterator[tuple]:
        from itertools import islice

        it = iter(items)
        while chunk := list(islice(it, size)):
            yield extra, chunk

    results = map(fn, tasks()) if executor is None else executor.map(fn, tasks())
    return [x for out in results for x in out]


def _pair_rows(task: tuple) -> list:
    (fn, options), chunk = task
    return [fn(g, s, **options) for g, s in chunk]


def pair_rows(fn: Callable, golds: Sequence[Graph], systems: Sequence[Graph], executor=None,
              **options) -> list:
    """``[fn(gold, system, **options) for each pair]`` (a pairwise metric's rows), in
    chunks through ``executor``.  ``fn`` is module-level."""
    return through(executor, _pair_rows, list(zip(golds, systems)), fn, options)
