"""The coded corpus path of SEMA, SemBLEU, WLK and SIMPLE
(:func:`mrkit.pipeline.amr_metrics.score_coded`: blocks -> int64 codes -> compiled counts)
gives exactly the triples path's result (``MRKIT_PURE_CODES``: Triples objects, the
metrics' Python or per-pair C functions): ids, per-pair rows and values to the bit, corpus
and macro scores, details; whole commands print the same bytes (``--json``, ``--per-pair
--json``) and the same error line.  tests/pipeline/test_amr_metrics.py holds both paths
against the general (graph) path on the same inputs."""

from __future__ import annotations

import json
from array import array

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from penman_graphs import AMR_PAIRS, graphs, robustness_pairs, write_pair_files
from mrkit.errors import InputError
from mrkit.features.triples import _pair_codes, pair_codes
from mrkit.model.amr import NON_INVERTED_OF
from mrkit.pipeline import amr_metrics
from mrkit.pipeline.amr_metrics import CODED, FAST, _General, read_triple_pairs, score_coded

pytestmark = pytest.mark.skipif(_pair_codes() is None, reason="compiled reader not built")

OPTIONS = {
    "sema": [{}],
    "simple": [{}, {"bags": True}],
    "wlk": [{}, {"k": 3}, {"k": 0}],
    "sembleu": [{}, {"k": 2}, {"k": 1}, {"weights": [0.5, 0.5]}],
}


def triples_path(metric, gold, system, **options):
    import importlib

    spec = FAST[metric]
    read = read_triple_pairs(str(gold), str(system), spec[2](options))
    if read is None:
        return None
    ids, golds, systems = read
    return getattr(importlib.import_module(spec[0]), spec[1])(golds, systems, ids, **options)


def coded_path(metric, gold, system, **options):
    try:
        return score_coded(metric, str(gold), str(system), FAST[metric][2](options), **options)
    except _General:
        return None


def assert_same(metric, gold, system, **options):
    try:
        slow = triples_path(metric, gold, system, **options)
    except InputError as exc:
        with pytest.raises(InputError) as got:
            coded_path(metric, gold, system, **options)
        assert str(got.value) == str(exc)
        assert (got.value.file, got.value.line, got.value.graph) == (exc.file, exc.line, exc.graph)
        return None
    fast = coded_path(metric, gold, system, **options)
    if slow is None:
        assert fast is None
        return None
    assert fast is not None
    assert fast.ids == slow.ids
    assert fast.columns == slow.columns
    np.testing.assert_array_equal(np.asarray(fast.table), np.asarray(slow.table))
    assert fast.pair_scores == slow.pair_scores
    assert fast.detail == slow.detail
    assert fast.corpus == slow.corpus and fast.macro == slow.macro
    assert fast.summary() == slow.summary()
    return fast


def every_metric(gold, system):
    for metric, sets in OPTIONS.items():
        for options in sets:
            assert_same(metric, gold, system, **options)


@pytest.mark.parametrize("gold,system", AMR_PAIRS, ids=[p[0].split("/")[-1] + "~" + p[1].split("/")[-1]
                                                        for p in AMR_PAIRS])
def test_shared_pairs_score_the_same_both_ways(gold, system):
    base = shared_path("amr")
    assert coded_path("sema", base / gold, base / system) is not None  # not vacuous
    every_metric(base / gold, base / system)


@pytest.mark.parametrize("gold,system", AMR_PAIRS[:3] + AMR_PAIRS[5:6],
                         ids=[p[0].split("/")[-1] + "~" + p[1].split("/")[-1] for p in AMR_PAIRS[:3] + AMR_PAIRS[5:6]])
def test_the_plain_summary_has_numpys_bits(gold, system, monkeypatch):
    """As a command runs (numpy not imported): the coded path keeps its counts as a
    ColumnTable and sums them in plain Python; the same summary, per-pair values and
    output as the triples path's numpy arrays."""
    import mrkit.aggregate.corpus as corpus
    from mrkit.aggregate.columns import ColumnTable

    base = shared_path("amr")
    monkeypatch.setattr(corpus, "numpy_loaded", lambda: False)
    for metric, sets in OPTIONS.items():
        for options in sets:
            fast = coded_path(metric, base / gold, base / system, **options)
            assert isinstance(fast._raw("table"), ColumnTable)
            got = (fast.to_dict(per_pair=True), fast.summary(), fast.pair_scores, fast.macro, fast.column_sums())
            assert isinstance(fast._raw("table"), ColumnTable)  # no array was needed
            monkeypatch.setattr(corpus, "numpy_loaded", lambda: True)
            slow = triples_path(metric, base / gold, base / system, **options)
            want = (slow.to_dict(per_pair=True), slow.summary(), slow.pair_scores, slow.macro, slow.column_sums())
            monkeypatch.setattr(corpus, "numpy_loaded", lambda: False)
            assert got == want
            np.testing.assert_array_equal(np.asarray(fast.table), np.asarray(slow.table))


def test_robustness_files_score_the_same_both_ways():
    for gold, system in robustness_pairs():
        every_metric(gold, system)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(graphs(extra=4), graphs(extra=4)), min_size=1, max_size=4))
def test_generated_graphs_score_the_same_both_ways(tmp_path, pairs):
    gold, system = write_pair_files(tmp_path, pairs)
    every_metric(gold, system)


def test_batches_and_errors_in_order(tmp_path, monkeypatch):
    """Small batches: pairs across batch ends, a refused pair (a duplicate variable, left to
    the general reader) and an error after it, and bytes that are not UTF-8 later in one
    file: the first error of the triples path, with its file, line and graph."""
    monkeypatch.setattr(amr_metrics, "BATCH", 2)
    good = ["(a / b :ARG0 (c / d))", "(x / y :mod \"z\")", "(p / q :polarity -)"]
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join(good * 3) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(good[::-1] * 3) + "\n", encoding="utf-8")
    every_metric(gold, system)
    # a graph the fast reader leaves alone but that parses: scored the triples path's way
    system.write_text("\n\n".join(good[::-1] * 2 + ["(p / q :ARG0 p)", "(a / \"b c\" :ARG0~1 (c / d))",
                                                    "(x / y)"]) + "\n", encoding="utf-8")
    every_metric(gold, system)
    # errors: a bad graph at pair 5, invalid bytes in the gold file after pair 7
    system.write_text("\n\n".join(good * 1 + ["(p / q", "(x / y :ARG0 (x / z))"] + good * 2) + "\n",
                      encoding="utf-8")
    gold.write_bytes(("\n\n".join(good * 3) + "\n").encode() + b"\n(z / \xff)\n")
    every_metric(gold, system)
    system.write_text("\n\n".join(good * 4) + "\n", encoding="utf-8")
    every_metric(gold, system)
    # different numbers of blocks: the general path decides
    gold.write_text("\n\n".join(good * 3) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(good * 2) + "\n", encoding="utf-8")
    assert coded_path("sema", gold, system) is None and triples_path("sema", gold, system) is None


def _codes(golds, systems):
    return pair_codes(golds, systems, NON_INVERTED_OF)


def _renumbered(codes: bytes, pairs: int, shift: int) -> bytes:
    """The codes with every string number (concepts, roles, values) moved up by ``shift``:
    a consistent renaming of the strings."""
    a = array("q")
    a.frombytes(codes)
    p = 0
    for _ in range(2 * pairs):
        n, ni, na, nr, nt = a[p:p + 5]
        p += 5
        for k in range(ni):
            a[p + 2 * k + 1] += shift
        p += 2 * ni
        for k in range(na):
            a[p + 3 * k + 1] += shift
            a[p + 3 * k + 2] += shift
        p += 3 * na
        for k in range(nr):
            a[p + 3 * k + 1] += shift
        p += 3 * nr + nt
    return a.tobytes()


def test_kernels_do_not_depend_on_the_numbering():
    """String numbers of 2^21 and more: WLK renumbers the pair densely (same scores),
    SemBLEU leaves the pair to the caller (-1 first), SEMA and SIMPLE do not care."""
    from mrkit.metrics.amr.sema import sema_codes
    from mrkit.metrics.amr.sembleu import sembleu_codes
    from mrkit.metrics.amr.simple import simple_codes
    from mrkit.metrics.amr.wlk import wlk_codes

    blocks = ["(a / b :ARG0 (c / d :mod \"e\") :ARG1 c)", "(x / y :ARG0-of (z / w) :polarity -)",
              "(b / a :ARG0 (d / c :mod \"e\"))"]
    _, codes, _ = _codes(blocks, blocks[::-1])
    big = _renumbered(codes, 3, 1 << 22)
    assert wlk_codes(big, 3, 2) == wlk_codes(codes, 3, 2)
    assert sema_codes(big, 3) == sema_codes(codes, 3)
    assert simple_codes(big, 3) == simple_codes(codes, 3)
    assert list(sembleu_codes(big, 3, 3)[0::8]) == [-1, -1, -1]
    assert min(sembleu_codes(codes, 3, 3)) >= 0


def test_malformed_codes_are_an_error_not_a_crash():
    from mrkit.metrics.amr import _sema, _sembleu, _simple, _wlk

    _, view, _ = _codes(["(a / b :ARG0 (c / d))"], ["(a / b)"])
    codes = bytes(view)  # the reader's codes: a read-only view of its own buffer, not copied
    assert isinstance(view, memoryview) and view.readonly and view == codes
    bad = [codes[:-8], codes + codes[:8], b"\x00" * 7, array("q", [3, 1, 0, 1, 1, 0, 5, 0, 1, 7, 0]).tobytes()]
    bad += [view[:-8], memoryview(b"\x00" + codes[:-8])[1:]]  # any buffer; one not on an 8-byte boundary
    for b in bad:
        for call in (lambda: _sema.sema_codes(b, 1), lambda: _simple.simple_codes(b, 1, False),
                     lambda: _wlk.wlk_codes(b, 1, 2), lambda: _sembleu.sembleu_codes(b, 1, 3)):
            with pytest.raises(ValueError):
                call()


@pytest.mark.parametrize("metric,extra", [("sema", []), ("sembleu", []), ("wlk", []), ("simple", []),
                                          ("wlk", ["-k", "3"]), ("sembleu", ["-k", "2"])])
def test_whole_commands_print_the_same(metric, extra, monkeypatch):
    base = shared_path("amr")
    for gold, system in (AMR_PAIRS[0], AMR_PAIRS[2]):
        args = ["score", "-m", metric, *extra, str(base / gold), str(base / system)]
        for out in (["--json"], ["--per-pair", "--json"]):
            monkeypatch.delenv("MRKIT_PURE_CODES", raising=False)
            fast = run_mrkit(*args, *out)
            monkeypatch.setenv("MRKIT_PURE_CODES", "1")
            slow = run_mrkit(*args, *out)
            assert fast.returncode == slow.returncode == 0, fast.stderr
            assert fast.stdout == slow.stdout
            json.loads(fast.stdout)


def test_whole_command_errors_are_the_same(tmp_path, monkeypatch):
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("(a / b)\n\n(c / d)\n\n(e / f)\n", encoding="utf-8")
    system.write_text("(a / b)\n\n(c / d :ARG0 (e / f)\n\n(e / f)\n", encoding="utf-8")
    for metric in CODED:
        monkeypatch.delenv("MRKIT_PURE_CODES", raising=False)
        fast = run_mrkit("score", "-m", metric, str(gold), str(system), "--json", "-o", str(tmp_path / "o"))
        monkeypatch.setenv("MRKIT_PURE_CODES", "1")
        slow = run_mrkit("score", "-m", metric, str(gold), str(system), "--json", "-o", str(tmp_path / "o"))
        assert fast.returncode == slow.returncode == 2
        assert fast.stderr == slow.stderr and len(fast.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("graph", ["(a / b (c / d))", "(a / b :x (e / f) (c / d))"])
def test_a_node_without_a_role_is_the_general_paths_error(tmp_path, graph):
    """A '(' that follows neither '(' var '/' concept's start nor a role: the compiled
    reader crashed on the first (before session 28) and scored the second as if it were
    ':x (c / d)'; both are penman's error, exit 2, for every command that reads codes."""
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text(graph + "\n", encoding="utf-8")
    system.write_text("(a / b :x (c / d))\n", encoding="utf-8")
    want = f"mrkit: {gold}:1, graph 1: malformed PENMAN: expected a role or ')' but found '('\n"
    for args in [("score", "-m", m) for m in CODED] + [("smatch",)]:
        r = run_mrkit(*args, str(gold), str(system), "--json", "-o", str(tmp_path / "o"))
        assert (r.returncode, r.stderr) == (2, want), args
        assert not (tmp_path / "o").exists()


def test_the_bytes_path_runs_and_is_the_text_path(monkeypatch):
    """The coded path reads the files' bytes (no block as text) unless the scanner declines;
    pieces of a few hundred bytes and batches of 3 pairs (blocks across pieces, pairs
    across batches) and MRKIT_PURE_UNITS=1 (blocks as text) give the same results."""
    base = shared_path("amr")

    def no_text(*a, **k):
        raise AssertionError("blocks read as text")

    for gold, system in (AMR_PAIRS[2], AMR_PAIRS[5]):
        g, s = base / gold, base / system
        want = {(m, str(o)): coded_path(m, g, s, **o) for m, sets in OPTIONS.items() for o in sets}
        with monkeypatch.context() as mp:
            mp.setattr(amr_metrics, "_pair_batches", no_text)
            mp.setattr(amr_metrics, "WINDOW", 300)
            mp.setattr(amr_metrics, "BATCH", 3)
            for m, sets in OPTIONS.items():
                for o in sets:
                    got = coded_path(m, g, s, **o)
                    assert got.ids == want[m, str(o)].ids and got.columns == want[m, str(o)].columns
                    assert got.pair_scores == want[m, str(o)].pair_scores
        with monkeypatch.context() as mp:
            mp.setenv("MRKIT_PURE_UNITS", "1")
            assert coded_path("sembleu", g, s).pair_scores == want["sembleu", "{}"].pair_scores
        every_metric(g, s)


def test_small_pieces_batches_and_errors_in_order(tmp_path, monkeypatch):
    """test_batches_and_errors_in_order with pieces of 32 bytes: refused pairs and errors read
    from the bytes of the right piece."""
    monkeypatch.setattr(amr_metrics, "WINDOW", 32)
    test_batches_and_errors_in_order(tmp_path, monkeypatch)


def test_kernels_read_any_buffer_of_codes():
    """The kernels take the reader's view, bytes, or a buffer that does not start on an
    8-byte boundary (read through a copy): the same values."""
    from mrkit.metrics.amr import _sema, _sembleu, _simple, _wlk

    _, view, _ = _codes(["(a / b :ARG0 (c / d))", "(x / y :mod \"z\")"], ["(a / b)", "(x / y :mod (z / w))"])
    odd = memoryview(b"\x00" + bytes(view))[1:]
    for call in (lambda b: _sema.sema_codes(b, 2), lambda b: _simple.simple_codes(b, 2, True),
                 lambda b: _wlk.wlk_codes(b, 2, 2), lambda b: _sembleu.sembleu_codes(b, 2, 3)):
        want = call(bytes(view))
        assert call(view) == want and call(odd) == want and call(bytearray(view)) == want


@given(st.one_of(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=12).map(lambda v: array("d", v)),
                 st.lists(st.integers(-2**63, 2**63 - 1), max_size=12).map(lambda v: array("q", v))))
def test_the_pairs_left_to_python_are_the_negative_or_nan_ones(firsts):
    """amr_metrics._left's one pass over the top bytes gives the plain test's pairs."""
    from mrkit.pipeline.amr_metrics import _left

    assert _left(firsts) == [i for i, x in enumerate(firsts) if not x >= 0]
