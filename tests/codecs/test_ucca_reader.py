"""The UCCA XML reader on malformed passages: one input error naming the file and the
line of the offending element, never an internal error or a silently changed graph."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit
from mrkit.codecs.ucca import read_ucca_xml
from mrkit.errors import InputError

TERMINALS = """  <layer layerID="0">
    <node ID="0.1" type="Word"><attributes paragraph="1" paragraph_position="1" text="dogs" /></node>
    <node ID="0.2" type="Word"><attributes paragraph="1" paragraph_position="2" text="bark" /></node>
  </layer>
"""


def _passage(units: str, terminals: str = TERMINALS, root: str = "root") -> str:
    # line 1 <root>, lines 2-5 layer 0, line 6 <layer layerID="1">, the units from line 7
    return (f'<{root} annotationID="0" passageID="p1">\n{terminals}  <layer layerID="1">\n{units}'
            f'  </layer>\n</{root}>\n')


GOOD_UNITS = """    <node ID="1.1" type="FN"><edge toID="1.2" type="H" /></node>
    <node ID="1.2" type="FN"><edge toID="1.3" type="A" /><edge toID="1.4" type="P" /></node>
    <node ID="1.3" type="FN"><edge toID="0.1" type="Terminal" /></node>
    <node ID="1.4" type="FN"><edge toID="0.2" type="Terminal" /></node>
"""


def test_a_well_formed_passage_by_hand(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(_passage(GOOD_UNITS))
    g = read_ucca_xml(path)
    # units holding terminals first, in token order (1.3 -> 0, 1.4 -> 1), then the others
    # by the tokens they span (1.1 and 1.2 both span 1..2: file order, 2 and 3)
    assert (g.id, g.text, g.tops) == ("p1", "dogs bark", ["2"])
    assert [(k, [(a.start, a.end) for a in n.anchors]) for k, n in g.nodes.items()] == [
        ("0", [(0, 4)]), ("1", [(5, 9)]), ("2", []), ("3", [])]
    assert sorted((e.source, e.target, e.label) for e in g.edges) == [
        ("2", "3", "H"), ("3", "0", "A"), ("3", "1", "P")]


UNIT_2 = '    <node ID="1.2" type="FN"><edge toID="1.3" type="A" /><edge toID="1.4" type="P" /></node>\n'
BAD = [
    # F6: a unit ID written twice (was "internal error: ValueError: duplicate node id")
    ("dup-unit", _passage(GOOD_UNITS.replace(UNIT_2, UNIT_2 + UNIT_2)), 9, "unit ID 1.2 is written twice"),
    # an edge to a unit that does not exist (was dropped: a graph with two tops)
    ("dangling", _passage(GOOD_UNITS.replace('toID="1.3" type="A"', 'toID="1.9" type="A"')), 8,
     "edge of unit 1.2 names unknown unit 1.9"),
    ("dangling-terminal", _passage(GOOD_UNITS.replace('toID="0.2"', 'toID="0.7"')), 10,
     "edge of unit 1.4 names unknown terminal 0.7"),
    ("no-toID", _passage(GOOD_UNITS.replace('<edge toID="1.2" type="H" />', '<edge type="H" />')), 7,
     "an edge of unit 1.1 without toID"),
    ("dup-terminal", _passage(GOOD_UNITS, TERMINALS.replace('ID="0.2"', 'ID="0.1"')), 4,
     "terminal ID 0.1 is written twice"),
    ("same-position", _passage(GOOD_UNITS, TERMINALS.replace('ID="0.2"', 'ID="0.01"')), 4,
     "terminals 0.1 and 0.01 are both at position 1"),
    ("unit-id-of-terminal", _passage(GOOD_UNITS.replace('ID="1.4"', 'ID="0.2"')), 10,
     "ID 0.2 names a terminal and a unit"),
    ("terminal-edge-to-unit", _passage(GOOD_UNITS.replace('toID="0.2" type="Terminal"', 'toID="1.3" type="Terminal"')),
     10, "Terminal edge of unit 1.4 goes to unit 1.3, not to a terminal"),
    ("edge-to-terminal", _passage(GOOD_UNITS.replace('toID="1.3" type="A"', 'toID="0.1" type="A"')), 8,
     "edge A of unit 1.2 goes to terminal 0.1 (only Terminal edges go to terminals)"),
    # not a UCCA passage at all (was read as an empty passage, exit 0)
    ("html", '<?xml version="1.0"?>\n<html><body>not UCCA</body></html>\n', 2,
     "not a UCCA passage: the root element is <html>, not <root>"),
    ("no-layer-0", _passage(GOOD_UNITS, ""), 1, "not a UCCA passage: no layer 0 (the terminals)"),
    ("layer-2", _passage(GOOD_UNITS, TERMINALS + '  <layer layerID="2" />\n'), 6,
     "layer '2' (UCCA passages have layers '0' and '1')"),
    ("layer-twice", _passage(GOOD_UNITS, TERMINALS + TERMINALS), 6, "layer 0 is written twice"),
]


@pytest.mark.parametrize("name,xml,line,message", BAD, ids=[b[0] for b in BAD])
def test_malformed_passage_is_an_input_error(tmp_path, name, xml, line, message):
    path = tmp_path / f"{name}.xml"
    path.write_text(xml)
    with pytest.raises(InputError) as info:
        read_ucca_xml(path)
    assert info.value.file == str(path) and info.value.line == line
    assert info.value.detail.endswith(message)


def test_cli_one_line_and_nothing_written(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(_passage(GOOD_UNITS.replace(UNIT_2, UNIT_2 + UNIT_2)))
    out = tmp_path / "out.mrp"
    for args in (["convert", str(path), str(out), "--from", "ucca"],
                 ["mrp", str(path), str(path), "--format", "ucca"]):
        r = run_mrkit(*args)
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr.splitlines() == [f"mrkit: {path}:9, graph p1: malformed UCCA XML: unit ID 1.2 is written twice"]
    assert not out.exists()
    path.write_text(_passage(GOOD_UNITS))
    r = run_mrkit("convert", str(path), "-", "--from", "ucca")
    assert r.returncode == 0 and json.loads(r.stdout)["tops"] == [2]
