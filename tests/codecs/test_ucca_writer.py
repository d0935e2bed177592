"""MRP -> UCCA XML -> MRP round trips (the MRP metric scores 1.0 against the original)."""

from __future__ import annotations

import warnings

import pytest

from conftest import run_mrkit, shared_path

from mrkit.codecs.mrp import loads_mrp, read_mrp
from mrkit.codecs.ucca import read_ucca_xml, ucca_files, ucca_xml
from mrkit.errors import InputError
from mrkit.pipeline.mrp import score_graphs


def _read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_mrp(path)


def _round_trip(graphs, tmp_path):
    files = ucca_files(graphs)
    assert list(files)[-1] == "files.txt" and len(files) == len(graphs) + 1
    texts = {g.id: g.text for g in graphs}
    back = []
    for name, text in files.items():
        if name == "files.txt":
            continue
        (tmp_path / name).write_text(text, encoding="utf-8")
        back.append(read_ucca_xml(tmp_path / name, texts))
    return back


def _assert_perfect(golds, systems):
    scored = score_graphs(golds, systems, framework_metrics=True)
    summary = scored.mrp.summary()
    assert summary["n"] == len(golds) and summary["missing"] == 0
    assert summary["all"]["f"] == 1.0 and summary["perfect"] == len(golds)
    ucca = scored.framework_metrics["ucca"]
    assert all(c["f"] == 1.0 for c in ucca.values() if isinstance(c, dict))


def test_wsj_ucca_round_trip_scores_one(tmp_path):
    golds = _read(shared_path("mrp", "wsj-sample", "ucca", "wsj.mrp"))
    _assert_perfect(golds, _round_trip(golds, tmp_path))


def test_lpps_ucca_round_trip_scores_one(tmp_path):
    golds = [g for g in _read(shared_path("mrp", "score-fixtures", "lpps.mrp")) if g.framework == "ucca"]
    _assert_perfect(golds, _round_trip(golds, tmp_path))


def test_small_hand_graph():
    g = loads_mrp('{"id": "7", "framework": "ucca", "input": "Hi, you.", "tops": [0], "nodes": ['
                  '{"id": 0}, {"id": 1, "anchors": [{"from": 0, "to": 2}]}, '
                  '{"id": 2, "anchors": [{"from": 2, "to": 3}, {"from": 7, "to": 8}]}, '
                  '{"id": 3, "anchors": [{"from": 4, "to": 7}]}], "edges": ['
                  '{"source": 0, "target": 1, "label": "P"}, {"source": 0, "target": 2, "label": "U"}, '
                  '{"source": 0, "target": 3, "label": "A"}, {"source": 0, "target": 3, "label": "D"}, '
                  '{"source": 1, "target": 3, "label": "A", "attributes": ["remote"], "values": [true]}]}\n')[0]
    xml = ucca_xml(g)
    assert 'passageID="7"' in xml
    assert xml.count('type="Punctuation"') == 2 and xml.count('type="Word"') == 2
    assert xml.count('type="Terminal"') == 4
    assert 'remote="True"' in xml
    # the two labels of 0 -> 3 are one XML edge with two categories
    assert xml.count('tag="A"') == 2 and xml.count('tag="D"') == 1 and xml.count("<edge ") == 4 + 4


def test_wrong_framework_and_missing_input_are_input_errors():
    dm = loads_mrp('{"id": "1", "framework": "dm", "input": "a", "nodes": [{"id": 0}]}\n')[0]
    with pytest.raises(InputError, match="not UCCA"):
        ucca_xml(dm)
    bare = loads_mrp('{"id": "1", "framework": "ucca", "nodes": [{"id": 0, "anchors": [{"from": 0, "to": 1}]}]}\n')[0]
    with pytest.raises(InputError, match="without input"):
        ucca_xml(bare)


def test_cli_convert_to_ucca_directory_and_back(tmp_path):
    wsj = shared_path("mrp", "wsj-sample")
    out = run_mrkit("convert", str(wsj / "ucca" / "wsj.mrp"), str(tmp_path / "xml"), "--to", "ucca")
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "xml").glob("*.xml"))) == 87
    back = tmp_path / "back.mrp"
    out = run_mrkit("convert", str(tmp_path / "xml" / "files.txt"), str(back), "--from", "ucca",
                    "--text", str(wsj / "wsj.txt"))
    assert out.returncode == 0, out.stderr
    out = run_mrkit("mrp", str(wsj / "ucca" / "wsj.mrp"), str(back), "--json")
    assert out.returncode == 0, out.stderr
    import json

    assert json.loads(out.stdout)["summary"]["f1"] == 1.0


def test_cli_convert_to_ucca_refuses_several_graphs_in_one_file(tmp_path):
    lpps = shared_path("mrp", "score-fixtures", "lpps.mrp")
    target = tmp_path / "one.xml"
    out = run_mrkit("convert", str(lpps), str(target), "--to", "ucca")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert not target.exists()


def test_cli_scores_the_written_directory_directly(tmp_path):
    # as a user would: convert, then score the XML directory (with the files.txt mrkit writes
    # beside the passages) against the original, the sentences from a pipe
    wsj = shared_path("mrp", "wsj-sample")
    assert run_mrkit("convert", str(wsj / "ucca" / "wsj.mrp"), str(tmp_path / "xml"), "--to", "ucca").returncode == 0
    assert (tmp_path / "xml" / "files.txt").exists()
    out = run_mrkit("mrp", str(wsj / "ucca" / "wsj.mrp"), str(tmp_path / "xml"), "--json", "--text",
                    "/dev/stdin", input=(wsj / "wsj.txt").read_text(encoding="utf-8"))
    assert out.returncode == 0, out.stderr
    import json

    doc = json.loads(out.stdout)
    assert doc["summary"]["f1"] == 1.0 and doc["overall"]["all"]["g"] == 4862


def test_an_mrp_file_read_as_ucca_is_one_short_line(tmp_path):
    mrp = shared_path("mrp", "wsj-sample", "ucca", "wsj.mrp")
    out = run_mrkit("mrp", str(mrp), str(mrp), "--format", "ucca")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and len(out.stderr) < 200
    assert f"{mrp}:1: JSON, not UCCA XML" in out.stderr
