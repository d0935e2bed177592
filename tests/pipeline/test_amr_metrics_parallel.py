"""The coded corpus path of SEMA, SemBLEU, WLK and SIMPLE on several processes
(:mod:`mrkit.pipeline.amr_coded_shared`: ``-j 2`` is this process and one forked worker)
gives exactly the serial coded path's result: ids, columns, pair scores, corpus and macro
scores and details to the bit; whole commands print the same bytes with ``-j 1``, ``-j 2``
and ``-j 3``; errors are the serial run's (the first bad block in file order, gold first:
the same message, file, line and graph, exit 2, nothing written).  Tiny windows and tasks
(many tasks, windows read by the workers from the files) give the same results."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from penman_graphs import AMR_PAIRS
from mrkit.errors import InputError
from mrkit.features.triples import _pair_codes
from mrkit.pipeline import amr_coded_shared, amr_metrics
from mrkit.pipeline.amr_metrics import score_files
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor
from mrkit.runtime.forked import available as forks

pytestmark = [pytest.mark.skipif(_pair_codes() is None, reason="compiled reader not built"),
              pytest.mark.skipif(not forks(), reason="no fork on this platform")]

OPTIONS = {
    "sema": [{}],
    "simple": [{}, {"bags": True}],
    "wlk": [{}, {"k": 3}, {"k": 0}],
    "sembleu": [{}, {"k": 2}, {"k": 1}, {"weights": [0.5, 0.5]}],
}

GOOD = ["(a / b :ARG0 (c / d))", "(x / y :mod \"z\")", "(p / q :polarity -)", "(e / f :ARG1 (g / h :ARG2 e))"]
MORE = ["(p / q :ARG0 p)", "(a / \"b c\" :ARG0~1 (c / d))", "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"]


def _score(metric, gold, system, workers, **options):
    executor = SerialExecutor() if workers == 1 else ProcessExecutor(workers)
    with executor:
        return score_files(metric, str(gold), str(system), None, executor, **options)


def _outcome(metric, gold, system, workers, **options):
    """The result's every value, or the error's message, file, line and graph."""
    try:
        r = _score(metric, gold, system, workers, **options)
    except InputError as exc:
        return ("error", str(exc), exc.file, exc.line, exc.graph)
    if r is None:
        return None
    return (r.ids, r.columns, r.pair_scores, r.corpus, r.macro, r.detail, r.summary())


@pytest.fixture
def tiny(monkeypatch):
    """Windows of 64 bytes (the first one too: later windows read from the files by the
    workers), tasks of 1-3 pairs."""
    monkeypatch.setattr(amr_metrics, "WINDOW", 64)
    monkeypatch.setattr(amr_coded_shared, "FIRST", 64)
    monkeypatch.setattr(amr_coded_shared, "TASK_MIN", 1)
    monkeypatch.setattr(amr_coded_shared, "TASK_MAX", 3)


@pytest.fixture
def left_to_python(monkeypatch):
    """Every kernel leaves every third pair of a call to the per-pair function (its first
    value -1), so that whichever process runs a task reads those blocks again and counts
    them the triples path's way."""
    for metric, spec in list(amr_metrics.CODED.items()):
        def kernel(codes, pairs, options, real=spec[1], width=spec[4]):
            vals = real(codes, pairs, options)
            if vals is not None:
                for i in range(0, pairs, 3):
                    vals[i * width(options)] = -1
            return vals

        monkeypatch.setitem(amr_metrics.CODED, metric, (spec[0], kernel, *spec[2:]))


@pytest.fixture
def counted(monkeypatch):
    """The tasks the shared path draws (in this process)."""
    drawn = []
    it = amr_coded_shared._Tasks.__iter__

    def counting(self):
        for task in it(self):
            drawn.append(task[0])
            yield task

    monkeypatch.setattr(amr_coded_shared._Tasks, "__iter__", counting)
    return drawn


def _every_metric_the_same(gold, system, workers=(2, 3)):
    for metric, sets in OPTIONS.items():
        for options in sets:
            want = _outcome(metric, gold, system, 1, **options)
            for j in workers:
                assert _outcome(metric, gold, system, j, **options) == want, (metric, options, j)


@pytest.mark.parametrize("gold,system", [AMR_PAIRS[0], AMR_PAIRS[2], AMR_PAIRS[6]],
                         ids=["sick", "lp-t5", "lp-v1.6~v3.0"])
def test_shared_pairs_are_the_same_on_two_and_three_processes(gold, system, counted):
    base = shared_path("amr")
    assert _score("sema", base / gold, base / system, 1) is not None
    _every_metric_the_same(base / gold, base / system)
    assert len(counted) > 3  # the shared path ran, in several tasks


@pytest.mark.parametrize("fallback", [False, True], ids=["kernel", "left-to-python"])
def test_tiny_windows_and_tasks_pairs_left_to_python_and_ids(tmp_path, tiny, counted, request, fallback):
    """Many tasks and windows, the workers reading windows from the files; pairs the kernel
    leaves to the per-pair function (read again from the blocks in whichever process runs
    them: the same values as the kernel's); some blocks with an ::id, others without."""
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    blocks = [f"# ::id g{k}\n{b}" if k % 3 == 0 else b for k, b in enumerate((GOOD + MORE) * 4)]
    gold.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    system.write_text("\n\n".join((MORE + GOOD[::-1]) * 4) + "\n", encoding="utf-8")
    want = {(m, str(o)): _outcome(m, gold, system, 1, **o) for m, sets in OPTIONS.items() for o in sets}
    assert want["sema", "{}"][0][:2] == ["g0", "2"]  # ids: the block's, else the pair's number
    read = []
    if fallback:
        request.getfixturevalue("left_to_python")
        real_read = amr_metrics._read_block
        monkeypatch = request.getfixturevalue("monkeypatch")
        monkeypatch.setattr(amr_metrics, "_read_block", lambda *a: read.append(1) or real_read(*a))
    for m, sets in OPTIONS.items():
        for o in sets:
            for j in (1, 2, 3):
                assert _outcome(m, gold, system, j, **o) == want[m, str(o)], (m, o, j)
    assert len(counted) > 40
    assert bool(read) == fallback  # (this process's share)
    # a block of two graphs late in the system file: the general path decides, as serially
    system.write_text("\n\n".join((MORE + GOOD[::-1]) * 3 + ["(a / b)\n(c / d)"] + GOOD) + "\n",
                      encoding="utf-8")
    gold.write_text("\n\n".join(blocks[:len(MORE + GOOD) * 3 + 1 + len(GOOD)]) + "\n", encoding="utf-8")
    assert _outcome("sema", gold, system, 1) is None
    _every_metric_the_same(gold, system)


def test_the_worker_runs_tasks(tmp_path, tiny, monkeypatch):
    """Not vacuous: tasks run in a second process (each task appends its process id)."""
    log = tmp_path / "pids"
    real = amr_coded_shared._task_values

    def logged(*args):
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, f"{os.getpid()}\n".encode())
        os.close(fd)
        return real(*args)

    monkeypatch.setattr(amr_coded_shared, "_task_values", logged)
    base = shared_path("amr")
    gold, system = AMR_PAIRS[2]
    assert _outcome("sema", base / gold, base / system, 2) == _outcome("sema", base / gold, base / system, 1)
    assert len(set(log.read_text().split())) == 2


def test_one_pair_and_different_counts(tmp_path):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("(a / b :ARG0 (c / d))\n", encoding="utf-8")
    system.write_text("(a / b)\n", encoding="utf-8")
    _every_metric_the_same(gold, system)
    r = run_mrkit("score", "-m", "sema", str(gold), str(system), "-j", "2", "--json")
    assert r.returncode == 0 and r.stdout == run_mrkit("score", "-m", "sema", str(gold), str(system),
                                                        "-j", "1", "--json").stdout
    # different numbers of blocks: the general path decides, with any number of processes
    system.write_text("(a / b)\n\n(c / d)\n", encoding="utf-8")
    assert _score("sema", gold, system, 2) is None and _score("sema", gold, system, 1) is None


def _with_error(tmp_path, n: int, where: int, side: int, kind: int):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    texts = [[GOOD[k % len(GOOD)] for k in range(n)], [GOOD[(k + 1) % len(GOOD)] for k in range(n)]]
    raw = [("\n\n".join(t) + "\n").encode() for t in texts]
    if kind == 0:  # a graph that does not parse
        texts[side][where] = "(p / q :ARG0 (r / s)"
        raw[side] = ("\n\n".join(texts[side]) + "\n").encode()
    elif kind == 1:  # a graph that the general reader refuses after the compiled one left it
        texts[side][where] = "(a / b (c / d))"
        raw[side] = ("\n\n".join(texts[side]) + "\n").encode()
    else:  # bytes that are not UTF-8 (the scanner declines: the text path reports them)
        texts[side][where] = "(z / ZZZ)"
        raw[side] = ("\n\n".join(texts[side]) + "\n").encode().replace(b"ZZZ", b"\xff")
    gold.write_bytes(raw[0])
    system.write_bytes(raw[1])
    return gold, system


def same_errors(tmp_path, n, data, metrics, outcome, one, other) -> None:
    """Files of ``n`` pairs with an error at a place, on a side and of a kind drawn from
    ``data`` (:func:`_with_error`): ``outcome(metric, gold, system, other)`` is the error
    (or the general path's ``None``) that ``outcome(..., one)`` gives, for each metric."""
    where = data.draw(st.integers(0, n - 1))
    side = data.draw(st.integers(0, 1))
    kind = data.draw(st.integers(0, 2))
    gold, system = _with_error(tmp_path, n, where, side, kind)
    for metric in metrics:
        want = outcome(metric, gold, system, one)
        assert want is None or want[0] == "error"
        assert outcome(metric, gold, system, other) == want


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 40), data=st.data())
def test_an_error_anywhere_is_the_serial_runs(tmp_path, tiny, n, data):
    same_errors(tmp_path, n, data, ("sema", "sembleu"), _outcome, 1, 2)


def first_errors_in_file_order(tmp_path, metric, outcome, one, others) -> None:
    """Errors in both files: ``outcome(metric, gold, system, j)`` for each ``j`` of
    ``others`` is the one of ``one``: the first bad block in file order, gold first."""
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    g = GOOD * 6
    s = GOOD[::-1] * 6
    g[17] = "(p / q :ARG0 (r / s)"
    s[9] = "(a / b (c / d))"
    s[17] = "(a / b (c / d))"
    gold.write_text("\n\n".join(g) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(s) + "\n", encoding="utf-8")
    want = outcome(metric, gold, system, one)
    assert want[0] == "error" and want[2] == str(system) and str(want[4]) == "10"
    assert [outcome(metric, gold, system, j) for j in others] == [want] * len(others)
    s[9] = GOOD[0]
    system.write_text("\n\n".join(s) + "\n", encoding="utf-8")
    want = outcome(metric, gold, system, one)
    assert want[0] == "error" and want[2] == str(gold) and str(want[4]) == "18"
    assert [outcome(metric, gold, system, j) for j in others] == [want] * len(others)


def test_two_errors_the_first_in_file_order_gold_first(tmp_path, tiny):
    first_errors_in_file_order(tmp_path, "wlk", _outcome, 1, (2, 3))


@pytest.mark.parametrize("metric,extra", [("sema", []), ("sembleu", []), ("sembleu", ["-k", "1"]),
                                          ("sembleu", ["-k", "2"]), ("wlk", []), ("wlk", ["-k", "3"]),
                                          ("wlk", ["--edge-to-node"]), ("simple", [])])
def test_whole_commands_print_the_same_bytes(metric, extra):
    base = shared_path("amr")
    gold, system = AMR_PAIRS[0]
    args = ["score", "-m", metric, *extra, str(base / gold), str(base / system), "--per-pair", "--json"]
    want = run_mrkit(*args, "-j", "1")
    assert want.returncode == 0, want.stderr
    for j in ("2", "3", "0"):
        got = run_mrkit(*args, "-j", j)
        assert (got.returncode, got.stdout, got.stderr) == (0, want.stdout, want.stderr), j


def test_whole_command_errors_are_the_same(tmp_path):
    gold, system = _with_error(tmp_path, 3000, 2500, 1, 0)
    for metric in OPTIONS:
        out = tmp_path / "o"
        runs = [run_mrkit("score", "-m", metric, str(gold), str(system), "-j", j, "--json", "-o", str(out))
                for j in ("1", "2")]
        assert runs[0].returncode == runs[1].returncode == 2
        assert runs[0].stderr == runs[1].stderr and len(runs[1].stderr.strip().splitlines()) == 1
        assert "graph 2501" in runs[1].stderr
        assert not out.exists()


def test_the_automatic_choice_is_never_processes(tmp_path, monkeypatch):
    """-j 0 runs the coded path in this process at any size (on two threads when a core is
    free: tests/pipeline/test_amr_metrics_threads.py), never on processes: two threads were
    1.6-1.8x one on SICK x5 where two processes were 1.2-1.3x (session 30)."""
    from types import SimpleNamespace

    from mrkit.cli.score import _worth
    from mrkit.pipeline import amr

    gold = tmp_path / "g.amr"
    gold.write_text("(a / b)\n" * 100_000, encoding="utf-8")
    monkeypatch.setattr(amr, "cores_free", lambda: True)
    monkeypatch.setattr(amr, "PARALLEL_MIN_BYTES", 1000)
    for metric in ("sema", "sembleu", "wlk", "simple"):
        assert not _worth(SimpleNamespace(metric=metric, gold=str(gold)), {})
    assert _worth(SimpleNamespace(metric="s2match", gold=str(gold)), {})  # aligns: the Smatch pipeline's measure


def test_a_window_not_held_is_a_view_of_the_mapping(tmp_path, monkeypatch):
    """A task of a window this process does not hold (a worker: a window cut after the
    fork) reads the file's mapping it inherited, not the file; a file that is read, not
    mapped, is read with one pread."""
    from array import array

    from mrkit.codecs import _mapped
    from mrkit.codecs.penman_units import map_file
    from mrkit.pipeline.amr_coded_shared import _Pieces

    p = tmp_path / "g.amr"
    data = b"(a / b)\n\n(c / d :ARG0 (e / f))\n\n(g / h)\n"
    p.write_bytes(data)
    units = array("q", [9, 31, 3, 33, 40, 5]).tobytes()
    mapped = _Pieces((str(p), str(p)), ("g", "g"))
    mapped.maps[0] = map_file(p, "g")
    piece, start, _ = mapped.run(0, 7, units)
    assert isinstance(piece.obj, _mapped.Mapped) and start == 9 and bytes(piece) == data[9:40]
    read = _Pieces((str(p), str(p)), ("g", "g"))
    piece, start, _ = read.run(0, 7, units)
    read.close()
    assert isinstance(piece, bytes) and start == 9 and piece == data[9:40]
