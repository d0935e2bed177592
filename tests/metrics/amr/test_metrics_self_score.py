"""Issue 12 acceptance: every graph of every shared AMR file scores exactly 1.0 against
itself under every registered graph metric (and the metric's corpus score is 1.0)."""

from __future__ import annotations

import pytest

from conftest import SHARED
from mrkit.codecs.penman import read_penman
from mrkit.metrics.registry import available, score

NOT_GRAPHS = {"README.txt", "orig.test.txt", "qualitylp_LABEL.txt"}


def amr_files() -> list[str]:
    """Sentence AMR files of the shared data (the document graphs of docamr/ are scored
    against themselves by the document tests)."""
    files = sorted(str(p.relative_to(SHARED)) for p in (SHARED / "amr").rglob("*")
                   if p.suffix in (".amr", ".txt") and p.name not in NOT_GRAPHS
                   and not p.name.startswith("out_"))
    files += sorted(str(p.relative_to(SHARED)) for p in (SHARED / "docamr").rglob("*")
                    if p.name.endswith((".amr.txt", "doc_sen.amr")) or p.name.startswith("comptest_"))
    return files or ["(shared data absent)"]


# every registered metric, with its variants; no word vectors (the packaged ones are an
# optional extra, and a graph against itself must score 1.0 with or without them)
METRICS = [(m, {}) for m in available()] + [("wlk", {"edge_to_node": True}), ("sembleu", {"k": 2}),
                                            ("simple", {"bags": True})]


@pytest.fixture(scope="module", params=amr_files())
def graphs(request):
    path = SHARED / request.param
    if not path.exists():
        pytest.skip("shared data not available")
    gs = read_penman(path)
    assert gs, request.param
    return gs


@pytest.mark.parametrize("metric,options", METRICS, ids=[f"{m}{'-' + '-'.join(o) if o else ''}" for m, o in METRICS])
def test_every_graph_scores_one_against_itself(graphs, metric, options):
    res = score(metric, graphs, graphs, **options)
    bad = [(g.id, s) for g, s in zip(graphs, res.pair_scores) if s != 1.0]
    assert not bad, bad[:5]
    assert res.corpus == 1.0
