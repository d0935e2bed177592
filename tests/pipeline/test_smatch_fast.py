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
