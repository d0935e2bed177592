"""The coded corpus path of SEMA, SemBLEU, WLK and SIMPLE on two threads of one process
(the automatic executor, ``-j 0``, when a core is free: :func:`mrkit.pipeline.amr_metrics.threaded`):
the two files' first windows cut at once and each batch coded and counted in two halves at
once give exactly the one-thread result -- ids, columns, pair scores, corpus and macro
scores and details to the bit -- and the same errors (the first bad block in file order,
gold first)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from penman_graphs import AMR_PAIRS
from mrkit.errors import InputError
from mrkit.features.triples import _pair_codes
from mrkit.pipeline import amr_metrics
from mrkit.pipeline.amr_metrics import score_files
from mrkit.runtime import executor as executors
from mrkit.runtime import threads
from mrkit.runtime.executor import SerialExecutor, make_executor

from test_amr_metrics_parallel import (GOOD, MORE, OPTIONS, first_errors_in_file_order, left_to_python,  # noqa: F401
                                       same_errors)

pytestmark = pytest.mark.skipif(_pair_codes() is None, reason="compiled reader not built")


@pytest.fixture
def split(monkeypatch):
    """Two threads whenever the executor allows them (two cores, any size), halves of a
    batch from 2 pairs on; the calls of ``both`` counted."""
    monkeypatch.setattr(threads, "cores", lambda: 2)
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 0)
    monkeypatch.setattr(amr_metrics, "SPLIT_MIN", 2)
    calls = []
    real = threads.both
    monkeypatch.setattr(threads, "both", lambda a, b: calls.append(1) or real(a, b))
    return calls


@pytest.fixture
def tiny(monkeypatch):
    """Windows of 64 bytes: many batches, pieces joined across windows."""
    monkeypatch.setattr(amr_metrics, "WINDOW", 64)


def _outcome(metric, gold, system, threads_, **options):
    try:
        r = score_files(metric, str(gold), str(system), None, SerialExecutor(threads=threads_), **options)
    except InputError as exc:
        return ("error", str(exc), exc.file, exc.line, exc.graph)
    if r is None:
        return None
    return (r.ids, r.columns, r.pair_scores, r.corpus, r.macro, r.detail, r.summary())


def _every_metric_the_same(gold, system):
    for metric, sets in OPTIONS.items():
        for options in sets:
            assert _outcome(metric, gold, system, 0, **options) == _outcome(metric, gold, system, 1, **options), \
                (metric, options)


@pytest.mark.parametrize("gold,system", [AMR_PAIRS[0], AMR_PAIRS[2], AMR_PAIRS[6]],
                         ids=["sick", "lp-t5", "lp-v1.6~v3.0"])
def test_shared_pairs_are_the_same_on_two_threads(gold, system, split):
    base = shared_path("amr")
    _every_metric_the_same(base / gold, base / system)
    assert len(split) > 10  # the threads ran: the cut and the halves of every metric's batch


@pytest.mark.parametrize("fallback", [False, True], ids=["kernel", "left-to-python"])
def test_tiny_windows_halves_and_pairs_left_to_python(tmp_path, split, tiny, request, fallback):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    blocks = [f"# ::id g{k}\n{b}" if k % 3 == 0 else b for k, b in enumerate((GOOD + MORE) * 4)]
    gold.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    system.write_text("\n\n".join((MORE + GOOD[::-1]) * 4) + "\n", encoding="utf-8")
    if fallback:
        request.getfixturevalue("left_to_python")
    _every_metric_the_same(gold, system)
    assert len(split) > 40
    # a block of two graphs late in the system file: the general path decides, as with one thread
    system.write_text("\n\n".join((MORE + GOOD[::-1]) * 3 + ["(a / b)\n(c / d)"] + GOOD) + "\n", encoding="utf-8")
    assert _outcome("sema", gold, system, 0) is None and _outcome("sema", gold, system, 1) is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 40), data=st.data())
def test_an_error_anywhere_is_the_one_thread_runs(tmp_path, split, tiny, n, data):
    same_errors(tmp_path, n, data, ("sema", "wlk"), _outcome, 1, 0)


def test_errors_of_both_files_gold_first(tmp_path, split, tiny):
    first_errors_in_file_order(tmp_path, "simple", _outcome, 1, (0,))
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    # a file that cannot be read on either side: gold's error first, as one after the other
    missing = tmp_path / "none.amr"
    for pair in ((missing, system), (gold, missing), (missing, tmp_path / "none2.amr")):
        assert _outcome("sema", *pair, 0) == _outcome("sema", *pair, 1)


def test_who_takes_two_threads(tmp_path, monkeypatch):
    """-j 0 (and only it) may: from THREADS_MIN_BYTES of gold, on two cores or more."""
    gold = tmp_path / "g.amr"
    gold.write_text("(a / b)\n" * 10, encoding="utf-8")
    monkeypatch.setattr(executors.os, "cpu_count", lambda: 2)
    assert make_executor("auto", 0).threads == 0
    assert make_executor("auto", 1).threads == 1 and make_executor("serial", 0).threads == 1
    monkeypatch.setattr(threads, "cores", lambda: 2)
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 80)
    assert amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    assert not amr_metrics.threaded(SerialExecutor(), str(gold)) and not amr_metrics.threaded(None, str(gold))
    assert not amr_metrics.threaded(SerialExecutor(threads=0), "-")
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 81)
    assert not amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 80)
    monkeypatch.setattr(threads, "cores", lambda: 1)
    assert not amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    monkeypatch.setattr(executors.os, "cpu_count", lambda: 1)
    assert make_executor("auto", 0).threads == 1


def test_cores_is_the_affinity():
    import os

    if hasattr(os, "sched_getaffinity"):
        assert threads.cores() == len(os.sched_getaffinity(0))
    assert threads.cores() >= 1


def test_whole_commands_print_the_same_bytes():
    base = shared_path("amr")
    gold, system = AMR_PAIRS[0]
    for metric in OPTIONS:
        args = ["score", "-m", metric, str(base / gold), str(base / system), "--per-pair", "--json"]
        want = run_mrkit(*args, "-j", "1")
        assert want.returncode == 0, want.stderr
        got = run_mrkit(*args, "-j", "0")
        assert (got.returncode, got.stdout, got.stderr) == (0, want.stdout, want.stderr)


# ---------------------------------------------------------------- reading ahead


@pytest.fixture
def ahead(monkeypatch, split):
    """read_ahead at any size on two cores; the unit_pieces streams opened, counted; no
    read-ahead left behind."""
    from mrkit.codecs import penman_units

    opened = []
    real = penman_units.unit_pieces
    monkeypatch.setattr(penman_units, "unit_pieces", lambda path, *a, **k: opened.append(str(path)) or real(path, *a, **k))
    yield opened
    amr_metrics._AHEAD.clear()


def _big(tmp_path, n=300, bad=None):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    g = [f"# ::id g{k}\n{GOOD[k % len(GOOD)]}" for k in range(n)]
    s = [MORE[k % len(MORE)] for k in range(n)]
    if bad is not None:
        (g if bad[0] == 0 else s)[bad[1]] = bad[2]
    gold.write_bytes(("\n\n".join(g) + "\n").encode("utf-8").replace(b"ZZZ", b"\xff"))
    system.write_bytes(("\n\n".join(s) + "\n").encode("utf-8").replace(b"ZZZ", b"\xff"))
    return gold, system


def test_the_reading_takes_what_was_read_ahead(tmp_path, ahead):
    gold, system = _big(tmp_path)
    want = {m: _outcome(m, gold, system, 1) for m in OPTIONS}
    for metric in OPTIONS:
        ahead.clear()
        amr_metrics.read_ahead(str(gold), str(system))
        assert len(amr_metrics._AHEAD) == 1
        assert _outcome(metric, gold, system, 0) == want[metric]
        assert ahead == [str(gold), str(system)]  # the streams of the read-ahead, no others
        assert not amr_metrics._AHEAD


def test_a_read_ahead_of_other_files_is_dropped(tmp_path, ahead):
    gold, system = _big(tmp_path)
    other = tmp_path / "o.amr"
    other.write_bytes(system.read_bytes())
    amr_metrics.read_ahead(str(gold), str(other))
    assert _outcome("sema", gold, system, 0) == _outcome("sema", gold, system, 1)
    assert not amr_metrics._AHEAD
    assert ahead.count(str(system)) == 2 and ahead.count(str(other)) == 1
    # one no reading took is replaced by the next (a long-lived process keeps at most one)
    amr_metrics.read_ahead(str(gold), str(other))
    amr_metrics.read_ahead(str(gold), str(system))
    assert [a[:2] for a in amr_metrics._AHEAD] == [(str(gold), str(system))]
    assert _outcome("sema", gold, system, 0) == _outcome("sema", gold, system, 1) and not amr_metrics._AHEAD


def test_nothing_is_read_ahead_of_pipes_small_files_or_one_core(tmp_path, ahead, monkeypatch):
    import os

    gold, system = _big(tmp_path)
    fifo = tmp_path / "p.amr"
    os.mkfifo(fifo)
    amr_metrics.read_ahead(str(gold), str(fifo))
    amr_metrics.read_ahead("-", str(system))
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", gold.stat().st_size + 1)
    amr_metrics.read_ahead(str(gold), str(system))
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 0)
    monkeypatch.setattr(threads, "cores", lambda: 1)
    amr_metrics.read_ahead(str(gold), str(system))
    monkeypatch.setenv("MRKIT_PURE_UNITS", "1")
    monkeypatch.setattr(threads, "cores", lambda: 2)
    amr_metrics.read_ahead(str(gold), str(system))
    assert not amr_metrics._AHEAD and not ahead


@pytest.mark.parametrize("bad", [(0, 250, "(p / q :ARG0 (r / s)"), (1, 7, "(a / b (c / d))"),
                                 (1, 290, "(z / ZZZ)"), (0, 3, "(z / ZZZ)")],
                         ids=["gold-unparsable", "system-refused", "system-not-utf8", "gold-not-utf8"])
def test_errors_read_ahead_are_the_serial_ones(tmp_path, ahead, bad):
    gold, system = _big(tmp_path, bad=bad)
    want = _outcome("wlk", gold, system, 1)
    assert want[0] == "error"
    amr_metrics.read_ahead(str(gold), str(system))
    assert _outcome("wlk", gold, system, 0) == want


@pytest.mark.parametrize("bad", [None, (0, 2000, "(p / q :ARG0 (r / s)"), (1, 2100, "(z / ZZZ)")],
                         ids=["good", "gold-unparsable", "system-not-utf8"])
def test_whole_commands_read_ahead_print_the_same(tmp_path, bad):
    """-j 0 on files above THREADS_MIN_BYTES reads ahead (on two cores): the same bytes out,
    the same error line and status, nothing written."""
    gold, system = _big(tmp_path, 4000, bad)
    assert gold.stat().st_size > amr_metrics.THREADS_MIN_BYTES
    out = tmp_path / "out.json"
    runs = [run_mrkit("score", "-m", "sema", str(gold), str(system), "--json", "-o", str(out), *j)
            for j in (["-j", "1"], [])]
    assert [(r.returncode, r.stdout, r.stderr) for r in runs[1:]] == [(runs[0].returncode, runs[0].stdout,
                                                                         runs[0].stderr)]
    assert runs[0].returncode == (0 if bad is None else 2)
    assert out.exists() == (bad is None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4000), st.integers(1, 4000), st.integers(0, 3), st.integers(0, 3)),
                min_size=2, max_size=60),
       st.integers(0, 10**6), st.integers(0, 10**6))
def test_halfway_splits_the_text_of_both_files_in_two(blocks, gold_at, system_at):
    """The halves of a batch hold about as much text each (the byte of both files, blank
    lines between blocks included): the split is the first pair whose blocks start at or
    after half the text, and each half keeps at least one pair."""
    from array import array

    runs, starts = [], []
    for side, at in ((0, gold_at), (1, system_at)):
        units, pos = array("q"), at
        for b in blocks:
            size, gap = b[side], b[side + 2]
            units.extend((pos, pos + size, 1))
            pos += size + gap
        runs.append((b"", at, memoryview(units.tobytes())))
        starts.append([units[3 * i] - at for i in range(len(blocks))])
    n = len(blocks)
    text = sum(memoryview(r[2]).cast("q")[3 * n - 2] - r[1] for r in runs)
    h = amr_metrics._halfway(runs)
    assert 1 <= h <= n - 1
    first = next((i for i in range(1, n) if starts[0][i] + starts[1][i] >= text / 2), n - 1)
    assert h == first


# ---------------------------------------------------------------- coding ahead (session 31)


@pytest.mark.parametrize("part", [1, 3, 7, 256])
@pytest.mark.parametrize("ahead_first", [False, True, None], ids=["meet", "all-ahead", "both-code"])
def test_the_first_batch_coded_ahead_and_here_is_the_serial_one(tmp_path, ahead, monkeypatch, part, ahead_first):
    """After read_ahead the read-ahead thread codes the first batch from the front and this
    thread from the back, in parts of any size, or the read-ahead thread codes it all before
    this one comes (then both count it), or it starts only when this one has come (both
    code): every metric's ids, columns, scores and details are the one-thread run's, and
    the parts cover the batch once, in order."""
    import time

    monkeypatch.setattr(amr_metrics, "PRECODE_BATCH", part)
    if ahead_first is None:
        run = amr_metrics._Precoding.run

        def late(self):
            deadline = time.monotonic() + 30
            while self.kernel is None and self.m and time.monotonic() < deadline:
                time.sleep(0.0005)
            return run(self)

        monkeypatch.setattr(amr_metrics._Precoding, "run", late)
    gold, system = _big(tmp_path, 60)
    want = {(m, str(o)): _outcome(m, gold, system, 1, **o) for m, sets in OPTIONS.items() for o in sets}
    finished, here = [], []
    real = amr_metrics._Precoding.finish
    monkeypatch.setattr(amr_metrics._Precoding, "finish",
                        lambda self, *a: finished.append((self.next, self.m)) or real(self, *a))
    coded_here = amr_metrics._coded_values
    monkeypatch.setattr(amr_metrics, "_coded_values", lambda *a: here.append(1) or coded_here(*a))
    for metric, sets in OPTIONS.items():
        for options in sets:
            amr_metrics.read_ahead(str(gold), str(system))
            if ahead_first:
                pre = amr_metrics._AHEAD[-1][3]
                deadline = time.monotonic() + 30
                while (pre.m == 0 or pre.next < pre.m) and time.monotonic() < deadline:
                    time.sleep(0.001)
            assert _outcome(metric, gold, system, 0, **options) == want[(metric, str(options))], (metric, options)
            assert not amr_metrics._AHEAD
    assert len(finished) == sum(len(s) for s in OPTIONS.values())
    if ahead_first:
        assert all(n == m > 50 for n, m in finished), finished  # (the last block comes with the next piece)
    elif ahead_first is None:
        assert all(n == 0 for n, m in finished) and len(here) >= len(finished)  # this thread coded parts


@pytest.mark.parametrize("metric", ["sema", "wlk"])
def test_the_codes_of_a_counted_part_are_let_go(tmp_path, ahead, monkeypatch, metric):
    """Once the kernel has counted a part, its codes are dropped (their memory serves the
    next part's): every part coded ahead keeps only its ids and refused pairs, so does a
    part coded and counted here (_coded_values), unless the kernel declined it -- and the
    result is the serial one."""
    import time

    from mrkit.codecs.penman_units import unit_pieces

    monkeypatch.setattr(amr_metrics, "PRECODE_BATCH", 4)
    gold, system = _big(tmp_path, 60)
    want = _outcome(metric, gold, system, 1)
    amr_metrics.read_ahead(str(gold), str(system))
    pre = amr_metrics._AHEAD[-1][3]
    deadline = time.monotonic() + 30
    while pre.next < 8 and time.monotonic() < deadline:  # a few parts coded ahead
        time.sleep(0.001)
    assert _outcome(metric, gold, system, 0) == want
    assert len(pre.parts) >= 2
    for a, b, coded, values in pre.parts:
        ids, codes, refused = coded
        assert values is not None and codes is None and len(ids) == b - a
    runs = [next(unit_pieces(str(path), str(path), False)) for path in (gold, system)]
    coded, values = amr_metrics._coded_values(metric, runs, amr_metrics.NON_INVERTED_OF, {})
    assert values is not None and coded[1] is None and len(coded[0]) == len(runs[0][2]) // 24
    kernel = amr_metrics.CODED[metric]
    monkeypatch.setitem(amr_metrics.CODED, metric, (kernel[0], lambda *a: None) + kernel[2:])
    coded, values = amr_metrics._coded_values(metric, runs, amr_metrics.NON_INVERTED_OF, {})
    assert values is None and len(coded[1]) > 0  # declined: the codes kept for the caller


def test_what_was_coded_ahead_with_other_roles_is_dropped(tmp_path, ahead, monkeypatch):
    """SemBLEU with --reference keeps inverted roles: the parts coded ahead (with the
    default roles) are not used, the coding ahead stops, and the result is the serial one."""
    monkeypatch.setattr(amr_metrics, "PRECODE_BATCH", 5)
    gold, system = _big(tmp_path, 80)
    want = _outcome("sembleu", gold, system, 1, reference=True)
    amr_metrics.read_ahead(str(gold), str(system))
    pre = amr_metrics._AHEAD[-1][3]
    assert _outcome("sembleu", gold, system, 0, reference=True) == want
    pre.join()
    assert pre.back == 0 and pre.next < 80 or all(p[3] is None for p in pre.parts)


@pytest.mark.parametrize("part", [2, 256])
@pytest.mark.parametrize("bad", [(0, 41, "(p / q :ARG0 (r / s)"), (1, 7, "(a / b (c / d))"), (1, 59, "(z / ZZZ)"),
                                 (0, 0, "(a / b)\n(c / d)")],
                         ids=["gold-unparsable", "system-refused", "system-not-utf8", "two-graphs"])
def test_errors_of_pairs_coded_ahead_are_the_serial_ones(tmp_path, ahead, monkeypatch, part, bad):
    monkeypatch.setattr(amr_metrics, "PRECODE_BATCH", part)
    gold, system = _big(tmp_path, 60, bad=bad)
    for metric in ("sema", "wlk"):
        want = _outcome(metric, gold, system, 1)
        amr_metrics.read_ahead(str(gold), str(system))
        assert _outcome(metric, gold, system, 0) == want
