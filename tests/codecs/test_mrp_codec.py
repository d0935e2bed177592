"""MRP JSON-lines codec: mapping into the graph model, lossless round trip, errors."""

from __future__ import annotations

import io
import json
import warnings

import pytest
from hypothesis import given, settings, strategies as st

from conftest import SHARED, shared_path
from mrkit.codecs.mrp import (MrpWarning, dumps_mrp, graph_from_json, graph_to_json, iter_mrp,
                              loads_mrp, read_mrp, write_mrp)
from mrkit.errors import InputError
from mrkit.model.graph import Anchor, Property

LINE = ('{"id": "20001001", "flavor": 1, "framework": "eds", "version": 1.1, "time": "2019-04-09",'
        ' "input": "Pierre Vinken", "tops": [1], "nodes": [{"id": 0, "label": "named",'
        ' "properties": ["carg"], "values": ["Pierre"], "anchors": [{"from": 0, "to": 6}]},'
        ' {"id": 1, "label": "compound", "properties": ["n", "flag"], "values": [42, true],'
        ' "anchorings": [[{"from": 0, "to": 13}], []]}],'
        ' "edges": [{"id": 0, "source": 1, "target": 0, "label": "ARG1", "normal": "ARG1",'
        ' "attributes": ["remote"], "values": [false], "anchors": [{"from": 0, "to": 1}]}],'
        ' "extra-key": {"a": 1}}')


def test_mapping_into_graph_model():
    (g,) = loads_mrp(LINE)
    assert g.id == "20001001" and g.framework == "eds" and g.text == "Pierre Vinken"
    assert g.tops == ["1"] and list(g.nodes) == ["0", "1"]
    assert [k for k in g.extra if k != "_mrp"] == ["flavor", "version", "time", "extra-key"]
    assert g.extra["flavor"] == 1 and g.extra["version"] == 1.1
    n0, n1 = g.nodes["0"], g.nodes["1"]
    assert n0.label == "named" and n0.properties == [Property("carg", "Pierre")]
    assert n0.anchors == [Anchor(0, 6)]
    assert n1.properties == [Property("n", "42"), Property("flag", "true")]
    assert n1.extra["anchorings"] == [[{"from": 0, "to": 13}], []]
    (e,) = g.edges
    assert (e.source, e.target, e.label, e.normal) == ("1", "0", "ARG1", "ARG1")
    assert e.attributes == [Property("remote", "false")]
    assert e.extra["id"] == 0 and e.extra["anchors"] == [{"from": 0, "to": 1}]


def test_round_trip_of_the_example_is_byte_identical():
    (g,) = loads_mrp(LINE)
    assert dumps_mrp([g]) == LINE + "\n"


def test_edited_graph_is_written_from_the_model():
    (g,) = loads_mrp(LINE)
    g.nodes["1"].properties[0] = Property("n", "43")
    g.id = "x"
    obj = graph_to_json(g)
    assert obj["id"] == "x"
    assert obj["nodes"][1]["values"] == ["43", "true"]


def test_int_graph_id_and_nulls_kept():
    text = '{"id": 72, "framework": "ucca", "tops": null, "nodes": null, "edges": []}\n'
    (g,) = loads_mrp(text)
    assert g.id == "72" and not g.nodes and not g.tops
    assert dumps_mrp([g]) == text


def test_deprecated_edge_properties_warn_and_round_trip():
    text = ('{"id": "1", "framework": "ucca", "nodes": [{"id": 0}, {"id": 1}], "edges": '
            '[{"source": 0, "target": 1, "label": "A", "properties": ["remote"], "values": [true]}]}\n')
    with pytest.warns(MrpWarning, match="deprecated"):
        (g,) = loads_mrp(text)
    assert g.edges[0].attributes == [Property("remote", "true")]
    assert dumps_mrp([g]) == text


def test_duplicate_node_id_kept_under_fresh_key():
    text = '{"id": "1", "nodes": [{"id": 0}, {"id": 4, "label": "a"}, {"id": 4}], "edges": [{"source": 0, "target": 4, "label": "U"}]}\n'
    with pytest.warns(MrpWarning, match="duplicate node id 4"):
        (g,) = loads_mrp(text)
    assert list(g.nodes) == ["0", "4", "5"]
    assert g.edges[0].target == "4" and g.nodes["4"].label == "a"
    assert dumps_mrp([g]) == text


@pytest.mark.parametrize("text, line, graph, message", [
    ('{"id": "a", "nodes": []}\n{"id": "b", "nodes": [\n', 2, "b", "not a JSON line"),
    ('{"id": "a", "nodes": [{"id": 0}], "edges": [{"source": 0, "target": 3, "label": "x"}]}', 1, "a",
     "target 3 is not a node"),
    ('{"id": "a", "framework": "dm"}\n\n{"id": "a", "framework": "dm"}', 3, "a", "duplicate dm graph id a"),
    ('{"id": "a", "nodes": [{"id": 0, "properties": ["x"], "values": []}]}', 1, "a", "1 properties but 0 values"),
    ('{"id": "a", "tops": [2], "nodes": [{"id": 0}]}', 1, "a", "top 2 is not a node"),
    ('[1, 2]', 1, None, "not a JSON object"),
    ('{"id": "a", "nodes": [{"id": 0, "anchors": [{"form": 1, "to": 2}]}]}', 1, "a", "malformed anchor"),
])
def test_errors_name_file_line_and_graph(text, line, graph, message):
    with pytest.raises(InputError) as info:
        loads_mrp(text, "f.mrp")
    err = info.value
    assert (err.file, err.line, err.graph) == ("f.mrp", line, graph)
    assert message in str(err)


def test_same_id_in_different_frameworks_is_fine():
    gs = loads_mrp('{"id": "a", "framework": "dm"}\n{"id": "a", "framework": "psd"}\n')
    assert [(g.framework, g.id) for g in gs] == [("dm", "a"), ("psd", "a")]


def _mrp_files():
    root = SHARED / "mrp"
    if not root.exists():
        return []
    return sorted(p for p in root.rglob("*.mrp") if "validate" not in p.parts)


@pytest.mark.parametrize("path", _mrp_files(), ids=lambda p: str(p.relative_to(SHARED / "mrp")))
def test_shared_files_round_trip_losslessly(path, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MrpWarning)
        graphs = read_mrp(path)
        out = tmp_path / "out.mrp"
        write_mrp(graphs, out)
        again = read_mrp(out)
    original = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written == original
    assert [graph_to_json(g) for g in again] == [graph_to_json(g) for g in graphs]
    assert [(g.id, list(g.nodes), len(g.edges), g.tops) for g in again] == \
        [(g.id, list(g.nodes), len(g.edges), g.tops) for g in graphs]


def test_shared_sample_counts():
    path = shared_path("mrp", "wsj-sample", "eds", "wsj.mrp")
    graphs = read_mrp(path)
    # README.txt of the sample: 89 graphs, 2598 nodes, 2529 edges
    assert len(graphs) == 89
    assert sum(len(g.nodes) for g in graphs) == 2598
    assert sum(len(g.edges) for g in graphs) == 2529


def test_ucca_sample_warns_about_deprecated_properties():
    path = shared_path("mrp", "wsj-sample", "ucca", "wsj.mrp")
    with pytest.warns(MrpWarning):
        graphs = list(iter_mrp(path))
    assert len(graphs) == 87


_scalar = st.one_of(st.text(max_size=5), st.integers(-5, 100), st.booleans())


@st.composite
def _graphs(draw):
    n = draw(st.integers(0, 6))
    ids = draw(st.lists(st.integers(0, 50), min_size=n, max_size=n, unique=True))
    nodes = []
    for i in ids:
        node = {"id": i}
        if draw(st.booleans()):
            node["label"] = draw(st.text(max_size=6))
        k = draw(st.integers(0, 2))
        if k:
            node["properties"] = draw(st.lists(st.text(min_size=1, max_size=4), min_size=k, max_size=k))
            node["values"] = draw(st.lists(_scalar, min_size=k, max_size=k))
        if draw(st.booleans()):
            a = draw(st.integers(0, 20))
            node["anchors"] = [{"from": a, "to": a + draw(st.integers(0, 5))}]
        nodes.append(node)
    edges = []
    if ids:
        for _ in range(draw(st.integers(0, 6))):
            e = {"source": draw(st.sampled_from(ids)), "target": draw(st.sampled_from(ids)),
                 "label": draw(st.text(max_size=4))}
            if draw(st.booleans()):
                e["attributes"] = ["remote"]
                e["values"] = [draw(_scalar)]
            edges.append(e)
    obj = {"id": draw(st.one_of(st.text(max_size=5), st.integers(0, 9))), "flavor": draw(st.integers(0, 2)),
           "framework": draw(st.sampled_from(["dm", "psd", "eds", "ucca", "amr"])),
           "version": draw(st.sampled_from([0.9, 1.0, 1.1])), "input": draw(st.text(max_size=10))}
    if ids and draw(st.booleans()):
        obj["tops"] = [draw(st.sampled_from(ids))]
    obj["nodes"] = nodes
    obj["edges"] = edges
    return obj


@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_property_round_trip_is_json_identical(obj):
    text = json.dumps(obj, ensure_ascii=False)
    (g,) = loads_mrp(text)
    assert json.loads(dumps_mrp([g])) == obj
    assert dumps_mrp([g]) == text + "\n"
    assert graph_from_json(obj).tops == [str(t) for t in obj.get("tops", [])]


def test_iter_mrp_accepts_open_files():
    gs = list(iter_mrp(io.StringIO(LINE + "\n\n" + LINE.replace("20001001", "2"))))
    assert [g.id for g in gs] == ["20001001", "2"]
    assert gs[1].source_line == 3
