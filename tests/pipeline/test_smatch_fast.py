"""The compiled path of `mrkit smatch` (features/_triples.c + align/_kernel.c smatch_stage)
gives, pair by pair, exactly the general path's (id, matched, gold, system, certified):
on every file pair of the shared AMR data, on the robustness files, and on generated
graphs (renamed variables, reentrancies, inverted roles, attributes, quoted constants,
duplicate triples, alignment markers, metadata)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from penman_graphs import AMR_PAIRS as PAIRS, graphs, robustness_pairs, write_pair_files
from mrkit.align import AlignConfig
from mrkit.errors import InputError
from mrkit.pipeline.amr import _fast_path, smatch_files

pytestmark = pytest.mark.skipif(_fast_path(AlignConfig(), frozenset(), False) is None,
                                reason="compiled Smatch path not built")


def _rows(gold, system, fast: bool, **kw):
    old = os.environ.pop("MRKIT_NO_FAST_SMATCH", None)
    try:
        if not fast:
            os.environ["MRKIT_NO_FAST_SMATCH"] = "1"
        r = smatch_files(str(gold), str(system), **kw)
    finally:
        os.environ.pop("MRKIT_NO_FAST_SMATCH", None)
        if old is not None:
            os.environ["MRKIT_NO_FAST_SMATCH"] = old
    return r


def assert_same(gold, system, **kw):
    try:
        slow = _rows(gold, system, False, **kw)
    except InputError as exc:
        with pytest.raises(InputError) as info:
            _rows(gold, system, True, **kw)
        assert str(info.value) == str(exc)
        return None
    fast = _rows(gold, system, True, **kw)
    assert fast.ids == slow.ids
    np.testing.assert_array_equal(fast.table, slow.table)
    np.testing.assert_array_equal(fast.certified, slow.certified)
    assert fast.detail == slow.detail
    return fast


# ------------------------------------------------------------------ shared data

AMR = "amr"
SELF = [
    "bio/amr-release-test-bio.txt", "bio/amr-release-dev-bio.txt",
    "bio/amr-release-bio-v3.0.PARTIAL-first-graphs.txt", "qald9/qald-9-amr-train.txt",
    "qald9/qald-9-amr-test.txt", "little-prince/amr-bank-struct-v1.6-test.txt",
]


@pytest.mark.parametrize("gold,system", PAIRS, ids=[p[0].split("/")[-1] + "~" + p[1].split("/")[-1] for p in PAIRS])
def test_shared_pairs_score_the_same_both_ways(gold, system):
    base = shared_path(AMR)
    assert_same(base / gold, base / system)


@pytest.mark.parametrize("name", SELF)
def test_shared_files_against_themselves_and_a_perturbed_copy(name, tmp_path):
    path = shared_path(AMR) / name
    assert_same(path, path)
    assert_same(path, _perturbed(path, tmp_path / "p.amr", seed=len(name)))


def _perturbed(path: Path, out: Path, seed: int) -> Path:
    """The file with some concepts, roles and constants changed (text-level, seeded)."""
    rng = random.Random(seed)
    text = path.read_text(encoding="utf-8")
    words = text.split(" ")
    for k, w in enumerate(words):
        if w.startswith(":ARG") and rng.random() < 0.2:
            words[k] = ":ARG" + str(rng.randrange(4)) + w[5:]
        elif w.endswith("-01") and rng.random() < 0.2:
            words[k] = w[:-3] + "-02"
        elif w in ("-", "+") and rng.random() < 0.3:
            words[k] = "+" if w == "-" else "-"
    out.write_text(" ".join(words), encoding="utf-8")
    return out


def test_robustness_files_read_the_same_both_ways():
    for gold, system in robustness_pairs():
        assert_same(gold, system)


def test_options_other_than_the_defaults_score_the_same(tmp_path):
    base = shared_path(AMR)
    gold, system = base / PAIRS[1][0], base / PAIRS[1][1]
    for config in (AlignConfig(restarts=0), AlignConfig(seed=7), AlignConfig(time_limit=None),
                   AlignConfig(exact="never"), AlignConfig(time_limit=1e-6)):
        assert_same(gold, system, config=config)
    assert_same(gold, system, keep=frozenset())


# ------------------------------------------------------------------ generated graphs

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(st.lists(st.tuples(graphs(), graphs()), min_size=1, max_size=4))
def test_generated_graphs_score_the_same_both_ways(tmp_path, pairs):
    gold, system = write_pair_files(tmp_path, pairs)
    assert_same(gold, system)
    assert_same(gold, gold)


def test_the_fast_path_takes_the_common_case(tmp_path, monkeypatch):
    """Not a vacuous comparison: on plain graphs the compiled path is used."""
    from mrkit.features import _triples

    gold = "# ::id a\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    system = "(w2 / want-01 :ARG0 (g2 / girl) :arg1 (x / go-02 :ARG0-of w2 :polarity -))"
    got = _triples.code_pair(gold, system, ("consist-of",))
    assert got is not None
    gid, n_gold, n_system, _codes = got
    assert (gid, n_gold, n_system) == ("a", 7, 8)
    assert _triples.code_pair("(a / b) (c / d)", system, ()) is None  # two graphs: general path
    assert _triples.code_pair("(a / b :x)", system, ()) is None  # an error: general path
    assert _triples.code_pair("(a / b :x \"c\u2028d\")", system, ()) is None  # a line break in a string
    assert _triples.code_pair("(a / bΓ)", "(a / bγ)", ())[1:3] == (2, 2)  # Unicode: lower-cased as str.lower


def test_workers_and_small_chunks_give_the_same_rows():
    """The compiled path in worker processes, over chunks that cut the files anywhere."""
    from mrkit.runtime.executor import ProcessExecutor

    base = shared_path(AMR)
    gold, system = base / PAIRS[2][0], base / PAIRS[2][1]
    slow = _rows(gold, system, False)
    with ProcessExecutor(2) as ex:
        fast = smatch_files(str(gold), str(system), executor=ex, chunk=7)
    assert fast.ids == slow.ids
    np.testing.assert_array_equal(fast.table, slow.table)
    np.testing.assert_array_equal(fast.certified, slow.certified)


# Pairs (0-based) the compiled stage left to the general engine before its branch-and-bound
# existed; the general engine certifies each of them by branching (method "branch").
# Found by running smatch_stage and smatch_pair over the three files (session 25).
BRANCHED = {
    PAIRS[0]: (179, 3240, 3365, 3374, 3880, 4365),
    PAIRS[1]: (633, 640, 665, 800, 811, 824, 855, 958, 1019, 1047, 1115, 1288, 1344, 1377),
    PAIRS[2]: (75,),
}


@pytest.mark.parametrize("gold,system", list(BRANCHED), ids=["sick", "sts", "lp-t5"])
def test_pairs_certified_by_branching_take_the_compiled_path(gold, system):
    """The compiled branch-and-bound settles them with the general engine's numbers."""
    from mrkit.codecs.penman import parse_block
    from mrkit.metrics.amr.smatch import smatch_pair
    from mrkit.model.amr import NON_INVERTED_OF
    from mrkit.pipeline.amr import _block_chunks

    base = shared_path(AMR)
    fast = _fast_path(AlignConfig(), NON_INVERTED_OF, False)
    (_, golds, systems), = _block_chunks(str(base / gold), str(base / system), 10**6)
    for k in BRANCHED[(gold, system)]:
        (gs, gt), (ss, st_) = golds[k], systems[k]
        coded = fast[0](gt, st_, fast[2])
        assert coded is not None
        score = fast[1](coded[3], *fast[3])
        p = smatch_pair(parse_block(gs, gt, "g", k)[0], parse_block(ss, st_, "s", k)[0], AlignConfig(), k,
                        NON_INVERTED_OF)
        assert p.method == "branch" and p.certified
        assert (score, coded[1], coded[2]) == (p.matched, p.gold, p.system)


def test_long_non_ascii_inverted_roles_score_the_same_both_ways(tmp_path):
    """An inverted role beyond ASCII is interned as UTF-8, longer in bytes than in
    characters: the compiled path turning it around must make room for its bytes (it
    once copied them into a buffer sized by the characters)."""
    role = "\U0001d538" * 300 + "\u0130" * 300  # 4 bytes each; İ lower-cases to two characters
    gold = tmp_path / "g.amr"
    system = tmp_path / "s.amr"
    gold.write_text(f"(a / x :{role}-of (b / y))\n\n(c / z :{role}-of (d / w :{role} c))\n", encoding="utf-8")
    system.write_text(f"(a / x :{role}-of (b / y))\n\n(c / z :{role.lower()} (d / w))\n", encoding="utf-8")
    fast = assert_same(gold, system)
    # pair 1: the same four triples (two instances, TOP, the turned role); pair 2: the
    # system's role points the other way, so instances and TOP match, the role does not
    assert fast.table[:, 0].tolist() == [4, 3]


# ------------------------------------------------------------------ a chunk in two calls, threads

def _same_result(a, b):
    assert a.ids == b.ids
    np.testing.assert_array_equal(a.table, b.table)
    np.testing.assert_array_equal(a.certified, b.certified)
    assert a.detail == b.detail
    assert a.summary() == b.summary()


def _pair_by_pair(monkeypatch, gold, system, **kw):
    """smatch_files with the chunk-at-once compiled calls off: code_pair and smatch_stage pair
    by pair, as before them."""
    import mrkit.pipeline.amr as amr

    with monkeypatch.context() as m:
        m.setattr(amr, "_score_units_coded", lambda *a: None)
        return smatch_files(str(gold), str(system), **kw)


@pytest.mark.parametrize("config", [AlignConfig(), AlignConfig(time_limit=1e-6), AlignConfig(restarts=0, seed=3)],
                         ids=["default", "tiny-budget", "no-restarts"])
def test_chunks_at_once_score_as_pair_by_pair(monkeypatch, config):
    """code_pairs_units + smatch_stages over a chunk give the bytes the pair-by-pair calls
    give: ids, counts, certificates, bounds (f1_upper_bound), summary; with a budget too
    small to certify, the pairs the stage leaves open go the general way in their place."""
    import mrkit.pipeline.amr as amr

    base = shared_path(AMR)
    gold, system = base / PAIRS[1][0], base / PAIRS[1][1]
    opened = []
    real = amr._scored

    def scored(*a):
        opened.append(a[0])
        return real(*a)

    monkeypatch.setattr(amr, "_scored", scored)
    chunked = smatch_files(str(gold), str(system), config=config)
    n_open = len(opened)
    _same_result(chunked, _pair_by_pair(monkeypatch, gold, system, config=config))
    if config.time_limit == 1e-6:
        assert 0 < n_open < len(chunked.ids)  # the open pairs' branch was taken, not the whole chunk's
    else:
        assert n_open == 0


def test_chunks_with_refused_pairs_go_the_pair_by_pair_way(monkeypatch, tmp_path):
    """A chunk with a block the coder refuses (unusual PENMAN, an error) is scored the
    pair-by-pair way, so that errors and their order stay those of the serial reading."""
    import mrkit.pipeline.amr as amr

    calls = []
    real = amr._score_texts
    monkeypatch.setattr(amr, "_score_texts", lambda *a: calls.append(1) or real(*a))
    g = tmp_path / "g.amr"
    s = tmp_path / "s.amr"
    g.write_text("(a / dog)\n\n(b / cat :mod (c / big))\n\n(d / ant)\n", encoding="utf-8")
    s.write_text("(a / dog)\n\n(b / cat :mod (c / big) :x)\n\n(d / ant)\n", encoding="utf-8")  # :x: an error
    with pytest.raises(InputError) as info:
        smatch_files(str(g), str(s))
    assert calls and "s.amr" in str(info.value)
    s.write_text("(a / dog)\n\n(b / cat :mod (c / big) :wiki -)\n\n(d / ant)\n", encoding="utf-8")
    calls.clear()
    assert smatch_files(str(g), str(s)).ids == ["1", "2", "3"]


@pytest.mark.parametrize("make", ["threads", "auto"])
@pytest.mark.parametrize("chunk", [None, 7])
def test_threads_give_the_rows_of_one_thread(make, chunk):
    from mrkit.runtime.executor import make_executor

    base = shared_path(AMR)
    for gold, system in PAIRS[:3]:
        one = smatch_files(str(base / gold), str(base / system), chunk=chunk)
        with make_executor(make, 2) as ex:
            two = smatch_files(str(base / gold), str(base / system), executor=ex, chunk=chunk)
        _same_result(one, two)


def test_threads_raise_the_error_of_the_serial_run(tmp_path):
    from mrkit.runtime.executor import ThreadExecutor

    gold, system = shared_path(AMR) / PAIRS[2][0], shared_path(AMR) / PAIRS[2][1]
    text = system.read_text(encoding="utf-8").split("\n\n")
    text[len(text) // 2] = text[len(text) // 2].replace(")", "", 1) + " :broken"  # a malformed graph mid-file
    bad = tmp_path / "bad.amr"
    bad.write_text("\n\n".join(text), encoding="utf-8")
    with pytest.raises(InputError) as serial:
        smatch_files(str(gold), str(bad), chunk=64)
    with pytest.raises(InputError) as threads:
        smatch_files(str(gold), str(bad), executor=ThreadExecutor(2), chunk=64)
    assert str(threads.value) == str(serial.value)


def test_threads_started_early_are_taken_by_the_run_with_their_settings(monkeypatch):
    import mrkit.pipeline.amr as amr
    from mrkit.runtime.executor import make_executor
    from mrkit.runtime.threads import SharedMap

    base = shared_path(AMR)
    gold, system = str(base / PAIRS[2][0]), str(base / PAIRS[2][1])
    serial = smatch_files(gold, system)
    taken, closed = [], []
    real_results, real_close = SharedMap.results, SharedMap.close
    monkeypatch.setattr(SharedMap, "results", lambda self: taken.append(self) or real_results(self))
    monkeypatch.setattr(SharedMap, "close", lambda self: closed.append(self) or real_close(self))
    ex = make_executor("auto", 2)
    amr.smatch_ahead(gold, system, AlignConfig(), ex)
    assert len(amr._EARLY) == 1
    early = amr._EARLY[0][1]
    with ex:
        _same_result(smatch_files(gold, system, executor=ex), serial)
    assert taken == [early] and not amr._EARLY
    # other settings: the early threads are stopped and the run goes its own way
    taken.clear()
    amr.smatch_ahead(gold, system, AlignConfig(), ex)
    early = amr._EARLY[0][1]
    other = smatch_files(gold, system, executor=ex, config=AlignConfig(restarts=1))
    assert early in closed and early not in taken and not amr._EARLY
    assert other.ids == serial.ids
    # nothing is started where the run would take no threads
    for executor in (make_executor("auto", 1), make_executor("processes", 2)):
        amr.smatch_ahead(gold, system, AlignConfig(), executor)
        assert not amr._EARLY
    amr.smatch_ahead("-", system, AlignConfig(), ex)
    assert not amr._EARLY


def test_threads_solving_ilps_at_once_give_the_serial_rows(tmp_path):
    """Pairs the compiled stage leaves open reach HiGHS on either thread at once: each
    thread has its own solver instance (one instance holds one model), and silencing the
    solver's banner on one thread does not lose the other's standard output."""
    import sys

    from mrkit.runtime.executor import ThreadExecutor

    gold_one = shared_path("robustness", "ilp_gold.amr").read_text(encoding="utf-8").strip()
    sys_one = shared_path("robustness", "ilp_sys.amr").read_text(encoding="utf-8").strip()
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join([gold_one] * 24) + "\n", encoding="utf-8")
    system.write_text("\n\n".join([sys_one] * 24) + "\n", encoding="utf-8")
    serial = smatch_files(str(gold), str(system), keep_records=True)
    assert {r["method"] for r in serial.records} == {"ilp"}
    threads = smatch_files(str(gold), str(system), keep_records=True, executor=ThreadExecutor(2), chunk=1)
    _same_result(serial, threads)
    assert [r["method"] for r in threads.records] == [r["method"] for r in serial.records]
    print("still here")  # standard output still works after the solvers were made
    sys.stdout.flush()


def test_a_chunk_that_regroups_stops_the_other_thread(tmp_path, monkeypatch):
    """A chunk whose blocks are not one graph each (None from the chunk): the run regroups
    graph by graph, and the other thread stops at once instead of scoring the rest of the
    files for nothing."""
    import mrkit.pipeline.amr as amr
    from mrkit.runtime.executor import ThreadExecutor
    from mrkit.runtime.threads import SharedMap

    one = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join([one] * 6000) + "\n", encoding="utf-8")
    system.write_text("\n\n".join([one.replace("boy", "girl")] * 6000) + "\n", encoding="utf-8")
    serial = smatch_files(str(gold), str(system))
    real = amr._score_units_of
    monkeypatch.setattr(amr, "_score_units_of", lambda *a: None if a[5][0] == 100 else real(*a))  # a[5]: the chunk
    closed = []
    real_close = SharedMap.close
    monkeypatch.setattr(SharedMap, "close", lambda self: closed.append(self.drawn) or real_close(self))
    threads = smatch_files(str(gold), str(system), executor=ThreadExecutor(2), chunk=50)
    _same_result(serial, threads)
    assert closed and closed[0] < 6000 // 50  # stopped before drawing every chunk
