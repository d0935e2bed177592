"""Pieces shared by the subcommands: output, progress, engine options."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

from ..align import AlignConfig
from ..codecs._files import atomic_write


def add_engine_options(p) -> None:
    g = p.add_argument_group("alignment engine")
    g.add_argument("--seed", type=int, default=0, help="seed of the random restarts (default 0)")
    g.add_argument("-r", "--restarts", type=int, default=4,
                   help="random restarts of the hill-climber after the smart start (default 4)")
    g.add_argument("--exact", action="store_true",
                   help="prove every pair optimal: run the ILP with no time limit when the bound is not reached")
    g.add_argument("--no-ilp", action="store_true",
                   help="never run the ILP; pairs not certified by the bound report their upper bound")
    g.add_argument("--time-limit", type=float, default=10.0,
                   help="work per pair, in seconds of a calibrated, deterministic budget (climbing, bounds, "
                        "ILP), before reporting the best score and its bound (default 10); the result "
                        "never depends on the machine's speed or load")
    g.add_argument("-j", "--workers", type=int, default=0,
                   help="worker processes (default 0: all cores for inputs of 1,000 pairs or more, "
                        "else one); results do not depend on it")


def add_output_options(p) -> None:
    """``--json``, ``-o/--output`` and ``--digits``, shared by the scoring commands."""
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report to this file (atomically; '-' is stdout; checked before any work)")
    p.add_argument("--digits", type=int, default=4, help="digits after the point (default 4)")


def engine_config(args) -> AlignConfig:
    exact = "always" if args.exact else ("never" if args.no_ilp else "auto")
    return AlignConfig(restarts=args.restarts, seed=args.seed, exact=exact, time_limit=args.time_limit)


@contextmanager
def progress_bar(total: int, label: str, enabled: bool | None = None) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr, only when stderr is a terminal and the input is long."""
    if enabled is None:
        enabled = sys.stderr.isatty() and total >= 50
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as prog:
        task = prog.add_task(label, total=total)
        yield lambda n: prog.advance(task, n)


def emit(text: str, output: str | None) -> None:
    """Print to stdout (``output`` None or ``-``), or write the whole text atomically to a file
    (through symlinks, directly into FIFOs and devices; see :func:`mrkit.codecs._files.atomic_write`)."""
    text = text if text.endswith("\n") else text + "\n"
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        atomic_write(output, text)


def to_json(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)
