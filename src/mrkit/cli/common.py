"""Pieces shared by the subcommands: output, progress, engine options."""

from __future__ import annotations

import sys

from ..errors import MrkitError
from ..report.output import emit  # noqa: F401  (the commands' one way to print or write a report)

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Iterator

if TYPE_CHECKING:  # the engine (and numpy) load only when a command scores
    from ..aggregate.corpus import CorpusResult
    from ..align import AlignConfig

REPORT_FORMATS = ("text", "json", "tsv", "csv")


def raw_description(sub):
    """``formatter_class`` for ``sub.add_parser``: argparse's ``RawDescriptionHelpFormatter``,
    or None for the quick parser's recorder (:mod:`mrkit.cli.quick_args`: no help is
    formatted, and argparse is not imported)."""
    if getattr(sub, "records_only", False):
        return None
    import argparse

    return argparse.RawDescriptionHelpFormatter


ENGINE_DEFAULTS = {"seed": 0, "restarts": 4, "exact": False, "no_ilp": False, "time_limit": 10.0}
"""The engine options' defaults: :class:`~mrkit.align.AlignConfig`'s own settings."""


def engine_options_given(args) -> bool:
    """Whether an engine option differs from its default (:func:`engine_config` would not
    be ``AlignConfig()``), told without importing the engine's package."""
    return any(getattr(args, k) != v for k, v in ENGINE_DEFAULTS.items())


def add_engine_options(p) -> None:
    g = p.add_argument_group("alignment engine")
    g.add_argument("--seed", type=int, default=ENGINE_DEFAULTS["seed"], help="seed of the random restarts (default 0)")
    g.add_argument("-r", "--restarts", type=int, default=ENGINE_DEFAULTS["restarts"],
                   help="random restarts of the hill-climber after the smart start (default 4)")
    g.add_argument("--exact", action="store_true",
                   help="prove every pair optimal: run the ILP with no time limit when the bound is not reached")
    g.add_argument("--no-ilp", action="store_true",
                   help="never run the ILP; pairs not certified by the bound report their upper bound")
    g.add_argument("--time-limit", type=float, default=ENGINE_DEFAULTS["time_limit"],
                   help="work per pair, in seconds of a calibrated, deterministic budget (climbing, bounds, "
                        "ILP), before reporting the best score and its bound (default 10); the result "
                        "never depends on the machine's speed or load")


def add_executor_options(p) -> None:
    """``-j/--workers`` and ``--executor``: how the pairs are run (never what they score)."""
    g = p.add_argument_group("execution")
    g.add_argument("-j", "--workers", type=int, default=0,
                   help="workers (default 0: automatic, i.e. one process unless the input is "
                        "large enough for all cores to pay; Smatch of files also asks that the load "
                        "average leave a second core free; score -m sema|sembleu|wlk|simple of PENMAN "
                        "files uses two threads instead); processes, or threads where the work lets go "
                        "of the GIL (smatch of PENMAN files); results do not depend on it")
    from ..runtime.executor import KINDS

    g.add_argument("--executor", choices=KINDS, default="auto",
                   help="how pairs are run: in this process (serial), on -j threads of this process "
                        "(threads), in worker processes, on a Dask cluster (dask: a local one of -j "
                        "workers, or --scheduler), or chosen from -j, the input size and the work "
                        "(auto, the default)")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="address of a running Dask scheduler (e.g. tcp://host:8786) to run the pairs on "
                        "(implies --executor dask; needs mrkit[dask])")


def add_stats_options(p) -> None:
    """``--bootstrap N``, ``--against SYSTEM_B``, ``--confidence``, ``--stats-seed``."""
    g = p.add_argument_group("statistics")
    g.add_argument("--bootstrap", type=int, default=0, metavar="N",
                   help="confidence intervals of the corpus scores from N bootstrap resamples of the pairs")
    g.add_argument("--against", metavar="SYSTEM_B",
                   help="compare with a second system file on the same gold: difference, paired-bootstrap "
                        "interval and p-value, approximate-randomization p-value (N rounds, default 1000)")
    g.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="confidence level of the intervals (default 0.95)")
    g.add_argument("--stats-seed", type=int, default=0, metavar="S",
                   help="seed of the bootstrap and randomization draws (default 0)")


def executor_of(args, parallel_worth_it: bool = False):
    """The executor ``-j`` / ``--executor`` ask for (see :func:`mrkit.runtime.executor.make_executor`)."""
    from ..runtime.executor import make_executor

    return make_executor(getattr(args, "executor", "auto"), getattr(args, "workers", 0),
                         parallel_worth_it=parallel_worth_it, scheduler=getattr(args, "scheduler", None))


def check_stats(args) -> None:
    """Statistics options that cannot work fail before any scoring."""
    if getattr(args, "bootstrap", 0) < 0:
        raise MrkitError("--bootstrap must be 0 or a positive number of samples")
    level = getattr(args, "confidence", 0.95)
    if not 0 < level < 1:
        raise MrkitError("--confidence must lie between 0 and 1")


def statistics(args, result: "CorpusResult", score_against: Callable[[str], "CorpusResult"] | None = None
               ) -> tuple[dict | None, dict | None]:
    """The intervals (``--bootstrap``) and the comparison with ``--against`` of a command's
    result: ``score_against(path)`` scores the second system exactly as the first."""
    ci = against = None
    samples, seed, level = getattr(args, "bootstrap", 0), getattr(args, "stats_seed", 0), getattr(args, "confidence", 0.95)
    if samples:
        ci = {"intervals": result.bootstrap(samples, seed, level), "samples": samples, "level": level, "seed": seed}
    if getattr(args, "against", None):
        if score_against is None:
            raise MrkitError("--against is not available for this command")
        other = score_against(args.against)
        rounds = samples or 1000
        try:
            tests = result.compare(other, rounds, seed, level)
        except ValueError as exc:
            raise MrkitError(f"cannot compare with {args.against}: {exc}") from None
        against = {"system": args.against, "summary": other.summary(), "samples": rounds, "level": level,
                   "seed": seed, "tests": tests}
    return ci, against


def report_format(args) -> str:
    """``text``, ``json``, ``tsv`` or ``csv`` from ``--json`` / ``--format``."""
    fmt = getattr(args, "report_format", None) or "text"
    if getattr(args, "json", False):
        if fmt not in ("text", "json"):
            raise MrkitError(f"--json and --format {fmt} ask for two different reports")
        fmt = "json"
    return fmt


def add_format_option(p, input_formats: tuple[str, ...] = ()) -> None:
    """``--format NAME``: an input format (``input_formats``; default: guessed from each
    file's suffix and content) or a report format (text, json, tsv, csv); given twice, one
    of each.  Parsed by :func:`split_formats`."""
    choices = ", ".join((*input_formats, *REPORT_FORMATS))
    what = "the input format (default: guessed from suffix and content) or " if input_formats else ""
    p.add_argument("--format", action="append", metavar="NAME", dest="formats",
                   help=f"{what}the report format (text, json, tsv, csv: tsv/csv print one row per "
                        f"pair with --per-pair, else the summary); one of: {choices}")


def split_formats(args, input_formats: tuple[str, ...] = ()) -> None:
    """Sort the ``--format`` values into ``args.input_format`` and ``args.report_format``."""
    args.input_format = getattr(args, "input_format", None)
    args.report_format = None
    for name in getattr(args, "formats", None) or ():
        key = name.lower()
        if key in REPORT_FORMATS:
            if args.report_format not in (None, key):
                raise MrkitError(f"--format {args.report_format} and --format {key}: one report format, please")
            args.report_format = key
        elif key in input_formats:
            if args.input_format not in (None, key):
                raise MrkitError(f"--format {args.input_format} and --format {key}: one input format, please")
            args.input_format = key
        else:
            raise MrkitError(f"unknown format {name!r} (one of {', '.join((*input_formats, *REPORT_FORMATS))})")


def emit_result(args, result: "CorpusResult", header: dict, text_lines: list[str],
                ci: dict | None = None, against: dict | None = None, per_pair: bool = False,
                scale: float = 1.0) -> None:
    """Write a command's report in the asked format: JSON (``header``, the result's
    ``to_dict``, intervals, comparison), TSV/CSV (per-pair rows with ``--per-pair``,
    else one summary row), or text (``text_lines`` then intervals and comparison)."""
    from ..report.result import rows_text, statistics_dict, statistics_lines, to_json as json_text

    fmt = report_format(args)
    d = getattr(args, "digits", 4)
    if fmt == "json":
        emit(json_text({**header, **result.to_dict(per_pair=per_pair), **statistics_dict(ci, against)}),
             getattr(args, "output", None))
    elif fmt in ("tsv", "csv"):
        if per_pair:
            rows = result.rows()
        else:
            row = dict(result.summary())
            if ci is not None:
                for k, (lo, hi) in ci["intervals"].items():
                    row[f"{k}_ci_low"], row[f"{k}_ci_high"] = lo, hi
            if against is not None:
                for k, t in against["tests"].items():
                    row[f"{k}_difference"] = t["difference"]
                    row[f"{k}_p_randomization"] = t["p_randomization"]
                    row[f"{k}_p_bootstrap"] = t["p_bootstrap"]
            rows = [row]
        emit(rows_text(rows, fmt), getattr(args, "output", None))
    else:
        emit("\n".join(text_lines + statistics_lines(ci, against, d, scale)), getattr(args, "output", None))


def add_output_options(p) -> None:
    """``--json``, ``-o/--output`` and ``--digits``, shared by the scoring commands."""
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report to this file (atomically; '-' is stdout; checked before any work)")
    p.add_argument("--digits", type=int, default=4, help="digits after the point (default 4)")


def engine_config(args) -> "AlignConfig":
    from ..align import AlignConfig

    exact = "always" if args.exact else ("never" if args.no_ilp else "auto")
    return AlignConfig(restarts=args.restarts, seed=args.seed, exact=exact, time_limit=args.time_limit)


class _NoBar:
    """The context of :func:`progress_bar` when no bar is shown: its value is None."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> bool:
        return False


def progress_bar(total: int | None, label: str, enabled: bool | None = None):
    """A rich progress bar on stderr, only when stderr is a terminal and the input is long
    (``total`` None: not known in advance, e.g. a stream; the bar counts): a context whose
    value is the function that advances the bar, or None (no bar: contextlib and rich are
    not imported)."""
    if enabled is None:
        enabled = sys.stderr.isatty() and (total is None or total >= 50)
    if not enabled:
        return _NoBar()
    from contextlib import contextmanager

    return contextmanager(_bar)(total, label)


def _bar(total: int | None, label: str) -> Iterator[Callable[[int], None]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as prog:
        task = prog.add_task(label, total=total)
        yield lambda n: prog.advance(task, n)


def to_json(obj) -> str:
    from ..report.result import to_json as json_text

    return json_text(obj)
