"""MRP side of issue 12: framework names, zero pairs, deterministic reports, bounded
resources, and the robustness files (../shared/data/robustness/README.md) of the MRP,
SDP, EDS and UCCA readers: the right result or one clean line, exit 2, never a traceback."""

from __future__ import annotations

import json
import resource

import pytest

from conftest import run_mrkit, shared_path
from mrkit.cli import main

GOLD = [
    {"id": "1", "flavor": 1, "framework": "eds", "input": "Dogs bark.", "tops": [1],
     "nodes": [{"id": 0, "label": "_dog_n_1", "anchors": [{"from": 0, "to": 4}]},
               {"id": 1, "label": "_bark_v_1", "anchors": [{"from": 5, "to": 10}]}],
     "edges": [{"source": 1, "target": 0, "label": "ARG1"}]},
]
SYSTEM = [dict(GOLD[0], edges=[{"source": 1, "target": 0, "label": "ARG2"}])]


def write(path, graphs):
    path.write_text("".join(json.dumps(g) + "\n" for g in graphs), encoding="utf-8")
    return str(path)


def clean_error(proc, name: str) -> None:
    """One line on stderr naming the file, exit status 2, no traceback, nothing on stdout."""
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [x for x in proc.stderr.splitlines() if not x.startswith("mrkit: warning:")]
    assert len(lines) == 1 and lines[0].startswith("mrkit: ") and name in lines[0], proc.stderr
    assert proc.stdout == ""


# ------------------------------------------------------------------ item 8: frameworks, zero pairs

def test_framework_names_are_case_insensitive(tmp_path, capsys):
    g, s = write(tmp_path / "g.mrp", GOLD), write(tmp_path / "s.mrp", SYSTEM)
    assert main(["mrp", g, s, "--json", "--framework", "EDS"]) == 0
    d = json.loads(capsys.readouterr().out)
    # by hand: tops 1, labels 2, anchors 2 match (5 of 6); the edge label differs
    assert d["overall"]["n"] == 1 and d["overall"]["all"]["c"] == 5 and d["overall"]["all"]["g"] == 6
    assert d["framework_metrics"]["eds"]["metric"] == "edm"


def test_unknown_framework_is_an_error_listing_the_known_ones(tmp_path):
    g, s = write(tmp_path / "g.mrp", GOLD), write(tmp_path / "s.mrp", SYSTEM)
    proc = run_mrkit("mrp", g, s, "--framework", "foo")
    clean_error(proc, "g.mrp")
    assert "'foo'" in proc.stderr and "amr" in proc.stderr and "ucca" in proc.stderr


@pytest.mark.parametrize("framework", [None, "dm"])
def test_zero_pairs_is_an_error(tmp_path, framework):
    g, s = write(tmp_path / "g.mrp", GOLD), write(tmp_path / "s.mrp", SYSTEM)
    if framework is None:  # two empty files
        g, s = write(tmp_path / "e1.mrp", []), write(tmp_path / "e2.mrp", [])
        proc = run_mrkit("mrp", g, s, "--json")
    else:  # a known framework absent from the gold file
        proc = run_mrkit("mrp", g, s, "--json", "--framework", framework)
    clean_error(proc, "mrp")
    assert "nothing to compare" in proc.stderr


# ------------------------------------------------------------------ item 15: no wall-clock values

def test_per_graph_json_holds_no_timings_and_is_the_same_bytes(tmp_path):
    g, s = write(tmp_path / "g.mrp", GOLD), write(tmp_path / "s.mrp", SYSTEM)
    runs = [run_mrkit("mrp", g, s, "--json", "--per-graph") for _ in range(2)]
    assert runs[0].returncode == 0 and runs[0].stdout == runs[1].stdout
    d = json.loads(runs[0].stdout)
    assert all("seconds" not in graph for graph in d["per_pair"])


# ------------------------------------------------------------------ item 13: bounded resources

def test_huge_anchor_without_input_scores_without_allocating_its_range():
    x = str(shared_path("robustness", "mrp-anchor-huge-no-input.mrp"))
    # a child process with a 1 GB address-space cap: 10^12 positions would need terabytes
    proc = run_mrkit("mrp", x, x, "--json", preexec_fn=lambda: resource.setrlimit(
        resource.RLIMIT_AS, (1 << 30, 1 << 30)), timeout=60)
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["overall"]["all"]["f"] == 1.0 and d["overall"]["anchors"]["c"] == 1
    assert d["framework_metrics"]["dm"]["labeled"]["f"] == 1.0  # the virtual root edge


def test_validate_reports_the_huge_anchor_without_input():
    x = str(shared_path("robustness", "mrp-anchor-huge-no-input.mrp"))
    proc = run_mrkit("validate", x, timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stdout + proc.stderr
    assert "[input] missing input string (anchors cannot be checked)" in proc.stdout + proc.stderr


# ------------------------------------------------------------------ robustness files

WRONG_TYPES = ["mrp-input-not-string", "mrp-framework-not-string", "mrp-framework-list",
               "mrp-ucca-edge-list-endpoint", "mrp-amr-edge-list-endpoint"]


@pytest.mark.parametrize("name", WRONG_TYPES)
def test_wrong_json_types_are_findings_and_clean_errors(name):
    x = str(shared_path("robustness", f"{name}.mrp"))
    proc = run_mrkit("validate", x, "--json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    findings = json.loads(proc.stdout)
    findings = findings["findings"] if isinstance(findings, dict) else findings
    rules = {f["rule"] for f in findings}
    expected = {"mrp-input-not-string": "input", "mrp-framework-not-string": "framework",
                "mrp-framework-list": "framework"}.get(name, "edge-endpoint")
    assert expected in rules and "json" not in rules  # a rule of its own, not the safety net
    clean_error(run_mrkit("mrp", x, x), name)


def test_deep_json_is_a_clean_error():
    x = str(shared_path("robustness", "mrp-deep-json.mrp"))
    clean_error(run_mrkit("mrp", x, x), "mrp-deep-json.mrp:1")
    clean_error(run_mrkit("validate", x), "mrp-deep-json.mrp:1")


@pytest.mark.parametrize("name,to,outcome", [
    ("mrp-no-anchors-to-sdp", "sdp", "node 0 has no anchor"),
    ("mrp-no-anchors-to-sdp", "amr", "not AMR"),
    ("mrp-input-not-string-to-sdp", "sdp", "'input' is not a string"),
    ("mrp-input-not-string-to-sdp", "amr", "'input' is not a string"),
    ("mrp-amr-empty-graph", "amr", "empty graph"),
    ("mrp-amr-empty-graph", "sdp", None),  # an empty graph is an empty SDP block
])
def test_convert_mrp_robustness_files(name, to, outcome, tmp_path):
    x = str(shared_path("robustness", f"{name}.mrp"))
    out = tmp_path / f"out.{to}"
    proc = run_mrkit("convert", x, str(out), "--to", to)
    if outcome is None:
        assert proc.returncode == 0 and "Traceback" not in proc.stderr
        assert out.read_text().startswith("#SDP 2015")
    else:
        clean_error(proc, name)
        assert outcome in proc.stderr and not out.exists()


@pytest.mark.parametrize("name,fmt,line", [("eds-invalid-utf8.eds", "eds", 5), ("sdp-invalid-utf8.sdp", "sdp", 4)])
def test_invalid_utf8_names_the_line(name, fmt, line, tmp_path):
    x = str(shared_path("robustness", name))
    # the line holding byte 0xff, counted independently
    assert [k for k, raw in enumerate(open(x, "rb"), 1) if b"\xff" in raw] == [line]
    proc = run_mrkit("convert", x, str(tmp_path / "o.mrp"), "--from", fmt)
    clean_error(proc, f"{name}:{line}")
    assert "not UTF-8" in proc.stderr


@pytest.mark.parametrize("name,message", [
    ("ucca-terminal-id-without-dot.xml", "is not of the form 0.N"),
    ("ucca-terminal-id-not-numeric.xml", "is not of the form 0.N"),
    ("ucca-terminal-without-id.xml", "a terminal without ID"),
])
def test_malformed_ucca_ids(name, message, tmp_path):
    x = str(shared_path("robustness", name))
    proc = run_mrkit("convert", x, str(tmp_path / "o.mrp"), "--from", "ucca")
    clean_error(proc, name)
    assert message in proc.stderr


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE passage [
 <!ENTITY a "aaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
 <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
 <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
 <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
]>
<root passageID="1"><layer layerID="0"><node ID="0.1" type="Word"><attributes text="&i;"/></node></layer></root>
"""


@pytest.mark.parametrize("doc", [BILLION_LAUGHS,
                                 '<?xml version="1.0"?>\n<!DOCTYPE root SYSTEM "file:///etc/passwd">\n<root/>\n'])
def test_ucca_xml_declarations_are_refused(doc, tmp_path):
    from mrkit.codecs.ucca import read_ucca_xml
    from mrkit.errors import InputError

    x = tmp_path / "bomb.xml"
    x.write_text(doc)
    with pytest.raises(InputError, match="declaration is refused"):
        read_ucca_xml(x)
    proc = run_mrkit("convert", str(x), str(tmp_path / "o.mrp"), "--from", "ucca", timeout=30)
    clean_error(proc, "bomb.xml:2")


def test_ucca_xml_unknown_encoding_and_deep_units_are_handled(tmp_path):
    x = tmp_path / "enc.xml"
    x.write_text('<?xml version="1.0" encoding="bogus-8"?>\n<root/>\n')
    clean_error(run_mrkit("convert", str(x), str(tmp_path / "o.mrp"), "--from", "ucca"), "enc.xml")
    # a chain of 3,000 nested units over one terminal: spans without recursion
    n = 3000
    units = "".join(f'<node ID="1.{k}" type="FN"><edge toID="1.{k + 1}" type="A"/></node>' for k in range(1, n))
    units += f'<node ID="1.{n}" type="FN"><edge toID="0.1" type="Terminal"/></node>'
    deep = tmp_path / "deep.xml"
    deep.write_text(f'<root passageID="7"><layer layerID="0"><node ID="0.1" type="Word"><attributes text="x"/>'
                    f'</node></layer><layer layerID="1">{units}</layer></root>')
    from mrkit.codecs.ucca import read_ucca_xml

    g = read_ucca_xml(deep)
    assert len(g.nodes) == n and len(g.edges) == n - 1 and g.text == "x"

