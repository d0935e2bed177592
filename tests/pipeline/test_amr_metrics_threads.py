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

from test_amr_metrics_parallel import GOOD, MORE, OPTIONS, _with_error, left_to_python  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(_pair_codes() is None, reason="compiled reader not built")


@pytest.fixture
def split(monkeypatch):
    """Two threads whenever the executor allows them (a core free, any size), halves of a
    batch from 2 pairs on; the calls of ``both`` counted."""
    monkeypatch.setattr(executors, "free_cores", lambda: 1.0)
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
    where = data.draw(st.integers(0, n - 1))
    side = data.draw(st.integers(0, 1))
    kind = data.draw(st.integers(0, 2))
    gold, system = _with_error(tmp_path, n, where, side, kind)
    for metric in ("sema", "wlk"):
        want = _outcome(metric, gold, system, 1)
        assert want is None or want[0] == "error"
        assert _outcome(metric, gold, system, 0) == want


def test_errors_of_both_files_gold_first(tmp_path, split, tiny):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    g, s = GOOD * 6, GOOD[::-1] * 6
    g[17] = "(p / q :ARG0 (r / s)"
    s[9] = "(a / b (c / d))"
    gold.write_text("\n\n".join(g) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(s) + "\n", encoding="utf-8")
    want = _outcome("simple", gold, system, 1)
    assert want[0] == "error" and want[2] == str(system) and str(want[4]) == "10"
    assert _outcome("simple", gold, system, 0) == want
    # a file that cannot be read on either side: gold's error first, as one after the other
    missing = tmp_path / "none.amr"
    for pair in ((missing, system), (gold, missing), (missing, tmp_path / "none2.amr")):
        assert _outcome("sema", *pair, 0) == _outcome("sema", *pair, 1)


def test_who_takes_two_threads(tmp_path, monkeypatch):
    """-j 0 (and only it) may: from THREADS_MIN_BYTES of gold, with half a core free."""
    gold = tmp_path / "g.amr"
    gold.write_text("(a / b)\n" * 10, encoding="utf-8")
    assert make_executor("auto", 0).threads == 0
    assert make_executor("auto", 1).threads == 1 and make_executor("serial", 0).threads == 1
    monkeypatch.setattr(executors, "free_cores", lambda: 0.6)
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 80)
    assert amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    assert not amr_metrics.threaded(SerialExecutor(), str(gold)) and not amr_metrics.threaded(None, str(gold))
    assert not amr_metrics.threaded(SerialExecutor(threads=0), "-")
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 81)
    assert not amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    monkeypatch.setattr(amr_metrics, "THREADS_MIN_BYTES", 80)
    monkeypatch.setattr(executors, "free_cores", lambda: 0.4)
    assert not amr_metrics.threaded(SerialExecutor(threads=0), str(gold))
    monkeypatch.setattr(executors.os, "cpu_count", lambda: 1)
    assert make_executor("auto", 0).threads == 1


def test_whole_commands_print_the_same_bytes():
    base = shared_path("amr")
    gold, system = AMR_PAIRS[0]
    for metric in OPTIONS:
        args = ["score", "-m", metric, str(base / gold), str(base / system), "--per-pair", "--json"]
        want = run_mrkit(*args, "-j", "1")
        assert want.returncode == 0, want.stderr
        got = run_mrkit(*args, "-j", "0")
        assert (got.returncode, got.stdout, got.stderr) == (0, want.stdout, want.stderr)
