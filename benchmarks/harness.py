"""The one harness of the benchmarks: run, time, compare side by side, print a table.

Every ``bench_*.py`` uses it:

* ``run(cmd, repeat, timeout)`` times a whole command (start-up included) ``repeat``
  times and keeps the median wall time (``Run.wall``), the output of the last run and
  whether it failed or timed out; ``mrkit(...)`` is the command line of this checkout's
  mrkit (what the ``mrkit`` console script runs, with ``src`` on ``PYTHONPATH``).
* ``best_of(fn, repeat)`` times an in-process call and keeps the fastest run (on a
  shared 2-core machine single runs vary by 30%).
* ``side_by_side(tools, repeat, timeout, base)`` runs several tools on one workload and
  adds the time ratio of each to the ``base`` tool.
* ``table(head, rows)`` prints the rows as an aligned text (or Markdown) table;
  ``ratio(t, base)`` formats ``t / base``.
* ``reference_python()`` is the Python of the reference tools' virtual environment:
  ``BENCH_PYTHON``, else the one given, else this one.
* ``headline(report)`` reads the headline score of an mrkit JSON report (``summary.f1``,
  or the top-level ``f1`` of older reports).

It asserts nothing: timings are wall-clock on whatever machine runs them.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def data(*parts: str) -> Path:
    """A path under the shared data folder; exits with a message when it is absent."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise SystemExit(f"shared data not found: {path}; nothing to benchmark")
    return path


def use_checkout() -> None:
    """Import mrkit from this checkout's ``src`` (in-process benchmarks)."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)


def reference_python(default: str | None = None) -> str:
    """The Python of the reference tools: BENCH_PYTHON, else ``default``, else this one."""
    return os.environ.get("BENCH_PYTHON") or default or sys.executable


def reference_tool(name: str) -> str | None:
    """An executable of the reference environment: BENCH_<NAME>, beside BENCH_PYTHON, or on PATH."""
    env = os.environ.get("BENCH_" + name.upper().replace("-", "_").replace(".", "_"))
    if env:
        return env
    py = os.environ.get("BENCH_PYTHON")
    if py and (Path(py).parent / name).exists():
        return str(Path(py).parent / name)
    return shutil.which(name)


CONSOLE = "import sys; from mrkit.cli import console; sys.exit(console())"
"""What the ``mrkit`` console script runs (pip >= 25 and uv generate these lines; the
``mrkit.cli:console`` entry point of pyproject.toml)."""


def mrkit(*args: str) -> list[str]:
    """The command line of this checkout's mrkit (run it with ``env=mrkit_env()``): the
    console script's lines (:data:`CONSOLE`) with ``src`` on the path, as a user's
    ``mrkit ARGS`` runs them; not ``python -m mrkit``, whose ``runpy`` (importlib.util,
    contextlib, ...) a user's command does not load."""
    return [sys.executable, "-c", CONSOLE, *args]


def mrkit_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(extra)
    return env


@dataclass
class Run:
    """A timed command: the median wall time of its runs and the last run's output."""

    cmd: list[str]
    walls: list[float] = field(default_factory=list)
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False

    @property
    def wall(self) -> float:
        return statistics.median(self.walls) if self.walls else float("nan")

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.returncode == 0

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def run(cmd: Sequence[str], repeat: int = 1, timeout: float | None = None, env: dict | None = None,
        cwd: str | Path | None = None, preexec_fn: Callable[[], None] | None = None,
        check: bool = False, quiet: bool = False) -> Run:
    """Run a whole command ``repeat`` times (start-up included); the median wall time is
    ``Run.wall``.  A time-out stops the repeats and counts as ``timeout`` seconds; a
    failure is reported on stderr (``check=True``: raised)."""
    res = Run(list(cmd))
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(res.cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd,
                                  preexec_fn=preexec_fn)
        except subprocess.TimeoutExpired:
            res.walls.append(float(timeout))
            res.timed_out = True
            return res
        res.walls.append(time.perf_counter() - t0)
        res.returncode, res.stdout, res.stderr = proc.returncode, proc.stdout, proc.stderr
        if proc.returncode != 0:
            if check:
                raise subprocess.CalledProcessError(proc.returncode, res.cmd, proc.stdout, proc.stderr)
            if not quiet:
                sys.stderr.write(f"[{' '.join(res.cmd[:4])} ...] failed: {proc.stderr.strip()[-300:]}\n")
            return res
    return res


def best_of(fn: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    """The fastest of ``repeat`` in-process runs of ``fn`` (seconds) and its last value."""
    best, value = float("inf"), None
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def side_by_side(tools: dict[str, Sequence[str] | Callable[[], Run]], repeat: int = 1,
                 timeout: float | None = None, base: str | None = None, env: dict | None = None) -> dict[str, dict]:
    """Run each tool (a command, or a function returning a Run) on one workload; returns
    {tool: {"run": Run, "ratio": wall / base wall or None}}; ``base`` defaults to the first tool."""
    out: dict[str, dict] = {}
    for name, tool in tools.items():
        r = tool() if callable(tool) else run(tool, repeat, timeout, env)
        out[name] = {"run": r, "ratio": None}
    base = base or next(iter(tools), None)
    if base in out and out[base]["run"].ok:
        b = out[base]["run"].wall
        for name, v in out.items():
            if name != base and b:
                v["ratio"] = v["run"].wall / b
    return out


def ratio(t: float | None, base: float | None, digits: int = 1) -> str:
    if t is None or base is None or not base or t != t or base != base:
        return ""
    return f"{t / base:.{digits}f}x"


def fmt(v, pattern: str = "{:.4f}") -> str:
    return "-" if v is None or (isinstance(v, float) and v != v) else pattern.format(v)


def table(head: Sequence[str], rows: Iterable[Sequence[object]], markdown: bool = False,
          right: Sequence[int] = (), file=None) -> None:
    """Print an aligned table: `` | ``-separated text, or Markdown with ``markdown=True``
    (columns listed in ``right`` are right-aligned)."""
    rows = [[str(c) for c in r] for r in rows]
    head = [str(h) for h in head]
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(len(head))]

    def line(cells):
        cells = [c.rjust(w) if k in right else c.ljust(w) for k, (c, w) in enumerate(zip(cells, widths))]
        return ("| " + " | ".join(cells) + " |") if markdown else " | ".join(cells)

    print(line(head), file=file)
    if markdown:
        print("|" + "|".join(("-" * (w + 1) + ":") if k in right else ("-" * (w + 2))
                             for k, w in enumerate(widths)) + "|", file=file)
    else:
        print("-|-".join("-" * w for w in widths), file=file)
    for r in rows:
        print(line(r), file=file)


def headline(report: dict) -> float | None:
    """The headline score of an mrkit JSON report: ``summary.f1`` (issue 13), else ``f1``."""
    summary = report.get("summary")
    if isinstance(summary, dict) and "f1" in summary:
        return summary["f1"]
    return report.get("f1")


def field_of(report: dict, *names: str):
    """The first of ``names`` found in ``report["summary"]`` or at the top level (``a.b`` paths)."""
    for name in names:
        for where in (report.get("summary") or {}, report):
            cur = where
            for part in name.split("."):
                cur = cur.get(part) if isinstance(cur, dict) else None
            if cur is not None:
                return cur
    return None
