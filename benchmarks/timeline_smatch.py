"""The timeline of one `mrkit smatch` run, per process, for `bench_smatch.py --parallel --timeline`.

    python benchmarks/timeline_smatch.py smatch GOLD SYSTEM -j 2

Runs `mrkit.cli.main(ARGS)` in this process with a few functions wrapped (nothing of
mrkit is changed on disk) and writes one line per event to stderr:
``TL <pid> <ms since this script started> <event> flt=<this process's minor page faults>
cpu=<this process's CPU ms>`` (a page fault costs about 4 us on the 2-core VM: session 31).
Events of this process: ``imported`` (mrkit.cli), ``smatch_files``, ``fork``, ``map done``
(the last result in, the workers let go; with ``-j 1`` the last chunk collected), ``emit start``/``emit end``, ``main end``;
of every task: ``task <start>-<end> pairs=<n>`` (by this process, or by a forked worker:
then ``wtask``; ``n``: the pairs of a smatch chunk of byte ranges, else 0).  The clock is ``time.perf_counter`` (CLOCK_MONOTONIC: one clock for the
parent and its forked workers).  What happens before this script's first line
(interpreter start-up) and after ``main end`` (interpreter exit) is the whole command's
wall time minus these events: the caller measures it.
"""

import os
import resource
import sys
import time

T0 = time.perf_counter()
MAIN = os.getpid()


def log(msg: str) -> None:
    os.write(2, f"TL {os.getpid()} {1000 * (time.perf_counter() - T0):.2f} {msg} "
                f"flt={resource.getrusage(resource.RUSAGE_SELF).ru_minflt} "
                f"cpu={1000 * time.process_time():.2f}\n".encode())


def _timed(fn, name):
    def run(task):
        began = time.perf_counter()
        out = fn(task)
        kind = name if os.getpid() == MAIN else "wtask"
        pairs = len(task[1]) // 24 if isinstance(task, tuple) and len(task) == 3 and isinstance(task[1], bytes) else 0
        log(f"{kind} {1000 * (began - T0):.2f}-{1000 * (time.perf_counter() - T0):.2f} pairs={pairs}")
        return out
    return run


def _patch_forked(forked) -> None:
    shared_map = forked.shared_map

    def timed_map(fn, tasks, workers):
        yield from shared_map(_timed(fn, "task"), tasks, workers)
        log("map done")

    fork_workers = forked._fork_workers

    def timed_fork(fn, count, *rest):
        log("fork")
        return fork_workers(fn, count, *rest)

    forked.shared_map, forked._fork_workers = timed_map, timed_fork
    forked.reap = _between(forked.reap, "reap start", "reap end")


def _between(fn, before: str, after: str):
    """``fn`` logging ``before`` when it is called and ``after`` when it returns."""
    def run(*a, **k):
        log(before)
        out = fn(*a, **k)
        log(after)
        return out
    return run


def _patch_amr(amr) -> None:
    smatch_files = amr.smatch_files

    def timed(*a, **k):
        log("smatch_files")
        return smatch_files(*a, **k)

    amr.smatch_files = timed
    collect = amr._collect

    def timed_collect(*a, **k):
        out = collect(*a, **k)
        log("map done")  # -j 1 (and any executor): the last chunk collected
        return out

    amr._collect = timed_collect


def _patch_common(common) -> None:
    common.emit_result = _between(common.emit_result, "emit start", "emit end")


PATCHES = {"mrkit.runtime.forked": _patch_forked, "mrkit.pipeline.amr": _patch_amr,
           "mrkit.cli.common": _patch_common}


def _install() -> None:
    """Wrap the functions above when their modules are first imported (importing them here
    would change what the run imports, and when).  The finder is a plain class and finds
    through the interpreter's own ``PathFinder``: ``importlib.abc`` would load 59 modules
    (``re``, ``typing``, ``pathlib``, ...) that the command may not, and count them in its
    start-up."""
    path_finder = next(f for f in sys.meta_path if getattr(f, "__name__", "") == "PathFinder")

    class Finder:
        def find_spec(self, name, path, target=None):
            if name not in PATCHES:
                return None
            spec = path_finder.find_spec(name, path)
            exec_module = spec.loader.exec_module

            def patched(module):
                exec_module(module)
                PATCHES[name](module)

            spec.loader.exec_module = patched
            return spec

    sys.meta_path.insert(0, Finder())


def summary(lines: list[str], wall_ms: float) -> dict[str, float]:
    """The phases of one run (ms) from its ``TL`` lines and its whole wall time:
    ``before`` (interpreter start-up to this script, and after ``main end``: exit),
    ``to smatch_files`` (imports, arguments), ``to first task`` (from ``smatch_files``:
    reading the heads, the fork, the first cut), ``tail`` (this process idle at the end:
    the last task anywhere ends after this process's last one), ``after map`` (result,
    report, to ``main end``); the CPU ms of this process before the fork and after the
    map (``-j 1``: before ``smatch_files`` and after its last chunk); ``worker start`` (from
    the fork to a worker's first task) and ``worker idle`` (the workers' time between the
    fork and their last task's end not spent in tasks: waiting for work, pipes)."""
    ev, tasks, wtasks = {}, [], []
    lines = [line for line in lines if line.startswith("TL ")]
    main = lines[0].split()[1] if lines else None
    for line in lines:
        _, pid, at, rest = line.split(" ", 3)
        msg, _, cpu = rest.rpartition(" cpu=")
        msg = msg.rpartition(" flt=")[0]
        if msg.startswith(("task ", "wtask ")):
            a, b = (float(x) for x in msg.split()[1].split("-"))
            (tasks if msg.startswith("task") else wtasks).append((a, b))
        elif pid == main:
            ev.setdefault(msg, (float(at), float(cpu)))
    end = ev.get("main end", (wall_ms, 0.0))
    start = ev.get("smatch_files", (0.0, 0.0))
    first = min(a for a, _ in tasks + wtasks) if tasks or wtasks else start[0]
    done = ev.get("map done", (max((b for _, b in tasks + wtasks), default=first), 0.0))
    last_here = max((b for _, b in tasks), default=first)
    last_any = max((b for _, b in tasks + wtasks), default=first)
    fork = ev.get("fork", start)[0]
    w_first = min((a for a, _ in wtasks), default=fork)
    w_last = max((b for _, b in wtasks), default=fork)
    return {"before": wall_ms - end[0], "to smatch_files": start[0], "to first task": first - start[0],
            "tail": max(0.0, last_any - last_here), "after map": end[0] - done[0],
            "cpu to fork": ev.get("fork", start)[1], "cpu after map": end[1] - done[1],
            "worker start": w_first - fork,
            "worker idle": max(0.0, (w_last - fork) - sum(b - a for a, b in wtasks)) if wtasks else 0.0}


if __name__ == "__main__":
    log("start")
    _install()
    import mrkit.cli

    log("imported")
    try:
        rc = mrkit.cli.main(sys.argv[1:])
    except SystemExit as exc:
        rc = exc.code
    log("main end")
    sys.exit(rc or 0)
