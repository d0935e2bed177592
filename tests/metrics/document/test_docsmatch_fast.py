"""Document Smatch's compiled path (``_kernel.mapped_stage`` on integer codes and a byte
mask, no numpy) against the general one (the engine on numpy arrays, forced by
``MRKIT_NO_FAST_DOCSMATCH``): the same alignment (mapping, score, bound, method) whenever
the compiled stage certifies a pair, and the same pair results (every subscore, the chains,
the record) on every shared document pair, on documents assembled from the Little Prince
bank, and on generated ones."""

from __future__ import annotations

import os
import random
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

from conftest import shared_path
from penman_graphs import graphs as penman_graphs
from provenance_graphs import provenance_graph, provs
from mrkit.align import AlignConfig
from mrkit.align.coded import NO_FAST_ENV, align_coded
from mrkit.codecs.docgraphs import read_document_graphs
from mrkit.codecs.penman import loads
from mrkit.docamr.build import REPRESENTATIONS, build, no_coref
from mrkit.features.smatch_codes import smatch_codes
from mrkit.features.triples import triples
from mrkit.metrics.document.candidates import candidate_mask
from mrkit.metrics.document.docsmatch import candidate_matrix, docsmatch_pair
from mrkit.model.document import Chain, Document, Mention

CONFIGS = [AlignConfig(), AlignConfig(restarts=0), AlignConfig(seed=7), AlignConfig(exact="never"),
           AlignConfig(exact="always"), AlignConfig(time_limit=0.05), AlignConfig(time_limit=0.001)]


@contextmanager
def general_path():
    old = os.environ.get(NO_FAST_ENV)
    os.environ[NO_FAST_ENV] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ[NO_FAST_ENV]
        else:
            os.environ[NO_FAST_ENV] = old


def engine_alignment(g, s, config):
    from mrkit.align.engine import align
    from mrkit.align.problem import build_problem
    from mrkit.metrics.amr.smatch import smatch_features

    ta, tb = triples(g), triples(s)
    return align(build_problem(smatch_features(ta), smatch_features(tb), candidate_matrix(g, s, ta, tb)), config)


def check_alignment(g, s, config=AlignConfig()):
    """The compiled stage's alignment is the engine's whenever it certifies; returns
    whether it did."""
    ta, tb = triples(g), triples(s)
    fast = align_coded(smatch_codes(ta, tb), candidate_mask(g, s, ta, tb), config)
    if fast is None:
        return False
    ref = engine_alignment(g, s, config)
    assert fast.mapping == [int(j) for j in ref.mapping]
    assert (fast.score, fast.bound, fast.certified, fast.method) == (ref.score, ref.bound, ref.certified,
                                                                     ref.method)
    return True


def check_pair(g, s, config=AlignConfig()):
    """docsmatch_pair is the same through both paths (record, mapping, every count)."""
    fast = docsmatch_pair(g, s, config)
    with general_path():
        ref = docsmatch_pair(g, s, config)
    assert fast.to_dict() == ref.to_dict()
    assert fast.mapping == ref.mapping
    assert {k: v.to_dict() for k, v in fast.chains.items()} == {k: v.to_dict() for k, v in ref.chains.items()}
    return fast


# ------------------------------------------------------------------ the candidate mask

@settings(max_examples=60, deadline=None)
@given(provs, provs)
def test_mask_is_the_candidate_matrix(pa, pb):
    ga, gb = provenance_graph(pa), provenance_graph(pb)
    ta, tb = triples(ga), triples(gb)
    ref = candidate_matrix(ga, gb, ta, tb)
    assert candidate_mask(ga, gb, ta, tb) == bytes(ref.astype("uint8").ravel())


def test_mask_of_sentence_graphs_is_none():
    g = loads("(m / multi-sentence :snt1 (a / alpha) :snt2 (b / beta))")[0]
    t = triples(g)
    assert candidate_mask(g, g, t, t) is None and candidate_matrix(g, g, t, t) is None


# ------------------------------------------------------------------ shared documents

@pytest.fixture(scope="module")
def msamr_documents():
    from mrkit.codecs.msamr import read_msamr

    base = shared_path("docamr", "msamr-samples")
    docs = []
    for name, xml in (("pp", "pp_001"), ("shakespeare", "wikipedia.shakespeare"), ("welsh", "wikipedia.welsh")):
        docs += read_msamr(base / f"{xml}.xml", base / f"{name}.amr.txt")
    return docs


def representations(doc):
    return [no_coref(doc)] + [build(doc, rep) for rep in REPRESENTATIONS] + [build(doc, "docamr", flipped=True)]


def test_msamr_samples_take_the_compiled_path(msamr_documents):
    """Every pair of representations of the MS-AMR samples: the same results both ways,
    and the compiled stage certifies the Little Prince document's pairs (numpy-free)."""
    certified = 0
    for doc in msamr_documents:
        graphs = representations(doc)
        for g in graphs[1:3]:
            for s in graphs:
                check_pair(g, s)
                certified += check_alignment(g, s)
    lpp = representations(msamr_documents[0])
    for s in lpp:
        assert check_alignment(lpp[3], s), s.id
    assert certified >= 20


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"r{c.restarts}-s{c.seed}-{c.exact}-{c.time_limit}")
def test_engine_settings(msamr_documents, config):
    lpp = representations(msamr_documents[0])
    for s in (lpp[0], lpp[1], lpp[4]):
        check_alignment(lpp[3], s, config)
        check_pair(lpp[3], s, config)


def test_ibm_outputs_and_oracle_fixtures():
    from pathlib import Path

    base = shared_path("docamr", "ibm-docamr-outputs-lpp")
    files = sorted(base.glob("*.amr")) + sorted((Path(__file__).parents[2] / "docamr" / "ibm_oracle").glob("*.amr"))
    graphs = [read_document_graphs(f)[0] for f in files]
    for g in graphs[:2]:
        for s in graphs:
            check_pair(g, s)
            check_alignment(g, s)


def test_robustness_pairs():
    """Every PENMAN robustness file that reads as document graphs, against itself and
    against the MS-AMR document (errors are the same both ways)."""
    from mrkit.errors import MrkitError

    base = shared_path("robustness")
    other = read_document_graphs(shared_path("docamr", "ibm-docamr-outputs-lpp", "lpp_1-19.no-merge.amr"))[0]
    for path in sorted(base.glob("*.amr")):
        try:
            graphs = read_document_graphs(path)
        except (MrkitError, RecursionError):
            continue
        for g in graphs[:3]:
            for a, b in ((g, g), (g, other), (other, g)):
                try:
                    check_pair(a, b, AlignConfig(time_limit=0.5))
                except MrkitError as exc:
                    with general_path(), pytest.raises(type(exc)):
                        docsmatch_pair(a, b, AlignConfig(time_limit=0.5))


# ------------------------------------------------------------------ generated documents

def concept_chains(sentences, rng: random.Random, share: float) -> list[Chain]:
    """Chains of nodes with the same concept in several sentences (one mention per
    sentence), a random share of them."""
    by_concept: dict[str, list[Mention]] = {}
    for k, g in enumerate(sentences):
        for v, n in g.nodes.items():
            ms = by_concept.setdefault(n.label or "", [])
            if n.label and all(m.sentence != k for m in ms):
                ms.append(Mention(k, v))
    keys = sorted(c for c, ms in by_concept.items() if len(ms) >= 2)
    chosen = [c for c in keys if rng.random() < share]
    return [Chain(f"rel-{i}", by_concept[c]) for i, c in enumerate(chosen)]


@pytest.fixture(scope="module")
def banks():
    from mrkit.codecs.penman import read_penman

    base = shared_path("amr", "little-prince")
    return read_penman(base / "amr-bank-struct-v3.0.txt"), read_penman(base / "amr-bank-struct-v1.6.txt")


@settings(max_examples=12, deadline=None)
@given(start=st.integers(0, 1500), size=st.integers(2, 24), seed=st.integers(0, 2**16),
       reps=st.tuples(st.sampled_from(REPRESENTATIONS), st.sampled_from(REPRESENTATIONS + ("no-coref",))))
def test_bank_documents(banks, start, size, seed, reps):
    """Documents of consecutive Little Prince sentences: the gold from release 3.0, the
    system from release 1.6 (other annotations of the same sentences), each with chains of
    a random share of its repeated concepts, in random representations."""
    rng = random.Random(seed)
    gold_doc = Document("g", banks[0][start:start + size], concept_chains(banks[0][start:start + size], rng, 0.5))
    sys_doc = Document("s", banks[1][start:start + size], concept_chains(banks[1][start:start + size], rng, 0.5))
    g = build(gold_doc, reps[0])
    s = no_coref(sys_doc) if reps[1] == "no-coref" else build(sys_doc, reps[1])
    check_pair(g, s)
    check_alignment(g, s)


@settings(max_examples=40, deadline=None)
@given(st.lists(penman_graphs(), min_size=1, max_size=4), st.lists(penman_graphs(), min_size=1, max_size=4),
       st.integers(0, 2**16), st.sampled_from(REPRESENTATIONS), st.sampled_from(REPRESENTATIONS))
def test_generated_documents(gold_texts, system_texts, seed, rep_a, rep_b):
    """Documents of generated PENMAN graphs (odd concepts, constants, reentrancies,
    inverted roles), chains of random nodes."""
    rng = random.Random(seed)

    def document(texts, name):
        sentences = [loads(t)[0] for t in texts]
        mentions = [Mention(k, v) for k, g in enumerate(sentences) for v in g.nodes]
        rng.shuffle(mentions)
        chains, used = [], set()
        for m in mentions[:rng.randint(0, 4)]:
            if m.sentence not in used:
                used.add(m.sentence)
                chains.append(m)
        return Document(name, sentences, [Chain("rel-0", chains)] if len(chains) >= 2 else [])

    g, s = build(document(gold_texts, "g"), rep_a), build(document(system_texts, "s"), rep_b)
    for a, b in ((g, s), (s, g), (g, g)):
        check_pair(a, b)
        check_alignment(a, b)
