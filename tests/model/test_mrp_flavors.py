"""One flavor table (:mod:`mrkit.model.mrp`) for the validator and the MRP metric, with the
flavors of the MRP 2019 paper (Oepen et al. 2019, section 2-3: DM and PSD flavor 0, EDS and
UCCA flavor 1, AMR flavor 2) and of mtool's validator for the others."""

from __future__ import annotations

from mrkit.codecs import validate
from mrkit.features import mrp_tuples
from mrkit.model.graph import Graph
from mrkit.model.mrp import FLAVORS

PAPER = {"dm": 0, "psd": 0, "eds": 1, "ucca": 1, "amr": 2}
# mtool validate/core.py: flavor 0 {ccd, dm, pas, psd, ud}, 1 {eds, ptg, ucca}, 2 {amr, drg}
MTOOL = {"ccd": 0, "dm": 0, "pas": 0, "psd": 0, "eds": 1, "ptg": 1, "ucca": 1, "amr": 2, "drg": 2}


def test_flavors_of_the_paper_and_mtool():
    for fw, f in {**PAPER, **MTOOL}.items():
        assert FLAVORS[fw] == f, fw
    assert set(FLAVORS) == set(MTOOL)  # mtool's "ud" (companion trees) is not scored


def test_validator_and_metric_share_the_one_table():
    assert validate.FLAVORS is FLAVORS and mrp_tuples.FLAVORS is FLAVORS


def test_metric_flavor_of_a_graph_without_one():
    for fw, f in FLAVORS.items():
        assert mrp_tuples.flavor(Graph(id="1", framework=fw.upper())) == f
    assert mrp_tuples.flavor(Graph(id="1", framework="xyz")) is None
