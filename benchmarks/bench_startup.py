"""Start-up floor of the command line (issue 14): whole commands on tiny inputs.

    python benchmarks/bench_startup.py [--repeat 11] [--mrkit PATH] [--against PATH] [--modules]

Times, as whole processes (start-up included), ``python -c pass`` (the interpreter's own
floor), ``mrkit --help``, ``mrkit smatch`` on one pair, ``mrkit score -m sema`` on one pair
and on BAMBOO SICK (``--json``) and ``mrkit docsmatch`` on the 19-sentence Little Prince document (IBM's
docAMR graph against its no-coreference system); median wall time and median CPU (user +
system, of the child) of ``--repeat`` runs.  The runs of the tools are interleaved, so that
a load on the machine falls on both alike.

``--mrkit`` is the command to time: the installed console script (default: ``mrkit``
beside this Python, what users run; else the console script's lines with this checkout's
``src``).  ``--against`` adds a second install (e.g. a venv of main) side by side, with
the ratio against / mrkit.  ``--instructions`` adds the instructions each command executes
(one run under valgrind's cachegrind, no cache simulation): unlike times, the count does
not depend on the machine's load, so it compares installs on a busy machine.  ``--modules``
adds how many modules each command imports beyond ``python -c pass`` (each costs 0.1-0.5
ms of every run).  The one pair is the first pair of BAMBOO SICK
(``../shared/data``); the document pair comes from ``docamr/ibm-docamr-outputs-lpp``.
Before timing, compile the sources (``python -m compileall -q src``): with
``PYTHONDONTWRITEBYTECODE`` set, start-up would otherwise include compiling mrkit.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402


def first_pairs(path: Path, n: int, out: Path) -> Path:
    """The first ``n`` graphs of a PENMAN file (blocks separated by blank lines)."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()][:n]
    out.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return out


def timed(cmd: list[str], env: dict | None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(cmd: list[str], env: dict | None) -> float | None:
    """Millions of instructions ``cmd`` executes (valgrind), or None without valgrind."""
    import re
    import shutil

    if shutil.which("valgrind") is None:
        return None
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *cmd], capture_output=True, text=True, env=env)
    m = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    return int(m.group(1).replace(",", "")) / 1e6 if m else None


def imported(cmd: list[str], env: dict | None) -> tuple[set[str], float]:
    """The modules ``cmd`` imports (``PYTHONPROFILEIMPORTTIME``: one line per module) and
    the sum of the top-level imports' cumulative times in ms (inflated by the profiler:
    to compare installs, not a time to quote)."""
    env = dict(os.environ if env is None else env, PYTHONPROFILEIMPORTTIME="1")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    names, total = set(), 0.0
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        _, cumulative, name = line.split("|")
        names.add(name.strip())
        if not name.startswith("  "):  # top level: its cumulative time holds the nested ones
            total += int(cumulative) / 1000
    return names, total


def default_mrkit() -> tuple[list[str], dict | None]:
    script = Path(sys.executable).parent / "mrkit"
    if script.exists():
        return [str(script)], None
    return harness.mrkit(), harness.mrkit_env()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=11, help="runs per command and tool; medians (default 11)")
    ap.add_argument("--mrkit", metavar="PATH", help="the mrkit command to time (default: the console script "
                                                    "beside this Python, else its lines with src)")
    ap.add_argument("--against", metavar="PATH", help="a second mrkit command (another install) side by side")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one run of each command (valgrind; load-independent)")
    ap.add_argument("--modules", action="store_true",
                    help="also count the modules each command imports beyond python -c pass, and their "
                         "import time as -X importtime sums it (ms, inflated by the profiler)")
    args = ap.parse_args()

    mine, env = ([args.mrkit], None) if args.mrkit else default_mrkit()
    tools = [("mrkit", mine, env)]
    if args.against:
        tools.append(("against", [args.against], None))
    tmp = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    sick = harness.data("amr", "bamboo", "sick")
    gold = first_pairs(sick / "main_src.test.amr", 1, tmp / "gold1.amr")
    system = first_pairs(sick / "main_tgt.test.amr", 1, tmp / "system1.amr")
    lpp = harness.data("docamr", "ibm-docamr-outputs-lpp")
    workloads = [
        ("python -c pass", None),
        ("mrkit --help", ["--help"]),
        ("smatch, one pair", ["smatch", str(gold), str(system)]),
        ("score -m sema, one pair", ["score", "-m", "sema", str(gold), str(system), "--json"]),
        ("score -m sema, SICK", ["score", "-m", "sema", str(sick / "main_src.test.amr"),
                                 str(sick / "main_tgt.test.amr"), "--json"]),
        ("docsmatch, 19-sentence doc", ["docsmatch", str(lpp / "lpp_1-19.docAMR.amr"),
                                        str(lpp / "lpp_1-19.nocoref.amr")]),
    ]
    load = os.getloadavg()[0]
    head = ["command"] + [f"{name} {k}" for name, _, _ in tools for k in ("wall s", "CPU s")]
    if len(tools) == 2:
        head += ["wall ratio", "CPU ratio"]
    if args.instructions:
        head += [f"{name} M instr" for name, _, _ in tools]
    if args.modules:
        head += [f"{name} modules (importtime ms)" for name, _, _ in tools]
        floor = imported([sys.executable, "-c", "pass"], None)[0]
    rows = []
    for label, argv in workloads:
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in tools}
        for _ in range(max(1, args.repeat)):
            for name, cmd, tool_env in tools:
                full = [sys.executable, "-c", "pass"] if argv is None else cmd + argv
                samples[name].append(timed(full, tool_env))
        row = [label]
        medians = []
        for name, _, _ in tools:
            w = statistics.median(s[0] for s in samples[name])
            c = statistics.median(s[1] for s in samples[name])
            medians.append((w, c))
            row += [f"{w:.3f}", f"{c:.3f}"]
        if len(tools) == 2:
            (w0, c0), (w1, c1) = medians
            row += [harness.ratio(w1, w0), harness.ratio(c1, c0)]
        if args.instructions:
            for name, cmd, tool_env in tools:
                count = instructions([sys.executable, "-c", "pass"] if argv is None else cmd + argv, tool_env)
                row.append("n/a" if count is None else f"{count:.0f}")
        if args.modules:
            for name, cmd, tool_env in tools:
                if argv is None:
                    row.append("0")
                    continue
                names, ms = imported(cmd + argv, tool_env)
                row.append(f"{len(names - floor)} ({ms:.1f})")
        rows.append(row)
        print(" | ".join(row), flush=True)
    print()
    print(f"load average at start {load:.1f}, at end {os.getloadavg()[0]:.1f}; median of {args.repeat} runs, "
          "interleaved")
    harness.table(head, rows, markdown=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
