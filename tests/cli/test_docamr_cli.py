"""``mrkit docamr``: build --flipped, normalize (No-Merge / pairwise-edge graphs), stats,
the pipeline's cluster formats (jsonlines, CoNLL-2012, CoreNLP JSON) and diagnostics."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.codecs.docgraphs import read_document_graphs
from mrkit.docamr.pipeline import read_pipeline
from mrkit.metrics.amr.smatch import smatch_pair
from mrkit.model.document import Mention

# the IBM example's sentences: 7, 10, 9 and 9 tokens
CLUSTERS = [[[0, 0], [7, 7]], [[4, 4], [15, 15]]]
CHAINS = [[Mention(0, "p"), Mention(1, "s")], [Mention(0, "c"), Mention(1, "c")]]


def sentences():
    amr = shared_path("docamr", "ibm-docamr-example", "doc_sen.amr")
    toks = [ln.split(None, 2)[2].split() for ln in amr.read_text().splitlines() if ln.startswith("# ::tok")]
    return amr, toks


def conll(toks, clusters) -> str:
    marks: dict[int, list[str]] = {}
    for e, c in enumerate(clusters):
        for a, b in c:
            if a == b:
                marks.setdefault(a, []).append(f"({e})")
            else:
                marks.setdefault(a, []).append(f"({e}")
                marks.setdefault(b, []).append(f"{e})")
    lines, k = ["#begin document (ex); part 000"], 0
    for s in toks:
        for i, t in enumerate(s):
            lines.append(f"ex\t0\t{i}\t{t}\t{'|'.join(marks.get(k, [])) or '-'}")
            k += 1
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def corenlp(toks, clusters) -> str:
    offsets = [0]
    for s in toks:
        offsets.append(offsets[-1] + len(s))
    corefs = {}
    for e, c in enumerate(clusters):
        ms = []
        for a, b in c:
            k = max(i for i in range(len(toks)) if offsets[i] <= a)
            ms.append({"sentNum": k + 1, "startIndex": a - offsets[k] + 1, "endIndex": b - offsets[k] + 2})
        corefs[str(e + 1)] = ms
    return json.dumps({"docId": "ex", "sentences": [{"tokens": [{"word": t} for t in s]} for s in toks],
                       "corefs": corefs})


@pytest.mark.parametrize("fmt", ["conll", "corenlp"])
def test_cluster_formats_project_as_jsonlines(fmt, tmp_path):
    amr, toks = sentences()
    f = tmp_path / f"c.{fmt}"
    f.write_text(conll(toks, CLUSTERS) if fmt == "conll" else corenlp(toks, CLUSTERS))
    doc, = read_pipeline(amr, f)
    assert [c.mentions for c in doc.chains] == CHAINS


def test_projection_diagnostics(tmp_path):
    amr, toks = sentences()
    # 'going' (go-02) and 'planning' (plan-01): predicates; '.' (token 6): no node covers
    # it; tokens 5-8 cross from sentence 1 into sentence 2
    clusters = [[[2, 2], [9, 9], [5, 8]], *CLUSTERS, [[6, 6], [16, 16]]]
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps({"doc_key": "ex", "clusters": clusters}) + "\n")
    doc, = read_pipeline(amr, f)
    d = doc.diagnostics
    assert [x[:3] for x in d["on_predicate"]] == [(0, 2, 2), (0, 9, 9)]
    assert (3, 6, 6) in d["unplaced"] and d["crosses_sentences"] == [(0, 5, 8)]
    out = tmp_path / "d.amr"
    r = run_mrkit("docamr", "build", str(amr), "--clusters", str(f), "--diagnostics", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"ex: {len(d['unplaced'])} unplaced, 2 on predicate, 1 crosses sentences, 0 same sentence" in r.stderr
    assert "on predicate: cluster 0 tokens 2-2 -> sentence 1 variable g" in r.stderr


def test_span_outside_document_exit_2(tmp_path):
    amr, _ = sentences()
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps({"clusters": [[[0, 0], [90, 91]]]}) + "\n")
    out = tmp_path / "d.amr"
    r = run_mrkit("docamr", "build", str(amr), "--clusters", str(f), "-o", str(out))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "outside" in r.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def lpp_no_merge(tmp_path_factory):
    s = shared_path("docamr", "msamr-samples")
    out = tmp_path_factory.mktemp("nm") / "nm.amr"
    r = run_mrkit("docamr", "build", str(s / "pp.amr.txt"), "--xml", str(s / "pp_001.xml"), "-r", "no-merge",
                  "-o", str(out))
    assert r.returncode == 0, r.stderr
    return s, out


# not merge-all: its head is a chain's first member, and a written graph lists the members in
# its layout's order, not the XML's (README: docamr build, differences)
@pytest.mark.parametrize("rep", ["merge-ne", "docamr"])
def test_normalize_equals_build(lpp_no_merge, rep, tmp_path):
    s, nm = lpp_no_merge
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    assert run_mrkit("docamr", "normalize", str(nm), "-r", rep, "-o", str(a)).returncode == 0
    assert run_mrkit("docamr", "build", str(s / "pp.amr.txt"), "--xml", str(s / "pp_001.xml"), "-r", rep,
                     "-o", str(b)).returncode == 0
    r = smatch_pair(read_document_graphs(b)[0], read_document_graphs(a)[0])
    assert r.certified and r.f1 == 1.0


def test_build_flipped_and_pairwise_normalize(tmp_path):
    src = tmp_path / "p.amr"
    src.write_text("(d / document :snt1 (s / see-01 :ARG0 (b / boy)) "
                   ":snt2 (e / eat-01 :ARG0 (c / child :same-as b)) :snt3 (r / run-02 :ARG0 (h / he :same-as c)))\n")
    out = tmp_path / "o.amr"
    r = run_mrkit("docamr", "normalize", str(src), "--pairwise-rel", "same-as", "--flipped", "-o", str(out))
    assert r.returncode == 0, r.stderr
    want = ("(d / document :snt1 (s / see-01 :ARG0 (x / coref-entity :coref (b / boy) :coref (c / child))) "
            ":snt2 (e / eat-01 :ARG0 x) :snt3 (r / run-02 :ARG0 x))")
    from mrkit.codecs.penman import loads

    res = smatch_pair(loads(want)[0], read_document_graphs(out)[0])
    assert res.certified and res.f1 == 1.0 and res.gold == res.system


def test_stats_table_and_json(tmp_path):
    s = shared_path("docamr", "msamr-samples")
    r = run_mrkit("docamr", "stats", str(s / "pp.amr.txt"), "--xml", str(s / "pp_001.xml"), "--json")
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)["total"]
    # pp_001.xml: 9 identity chains with 39 <mention>s, one of them repeated (38), 1 implicit
    # role, 1 singleton, 2 set-member relations with one member each
    assert (t["documents"], t["sentences"], t["chains"], t["mentions"]) == (1, 19, 9, 38)
    assert (t["implicit_roles"], t["singletons"], t["bridging"], t["bridging_members"]) == (1, 1, 2, 2)
    text = run_mrkit("docamr", "stats", str(s / "pp.amr.txt"), "--xml", str(s / "pp_001.xml")).stdout
    assert text.splitlines()[0].split() == ["lpp_1943", "total"] and "pronouns dropped" in text


def test_stats_needs_amr_with_xml(tmp_path):
    s = shared_path("docamr", "msamr-samples")
    r = run_mrkit("docamr", "stats", "--xml", str(s / "pp_001.xml"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text,what", [("(d / document :snt1 (s / see-01\n", "malformed PENMAN"),
                                       ("", "no graphs")])
@pytest.mark.parametrize("cmd", [["normalize", "-r", "docamr"], ["normalize", "--pairwise-rel", "same-as"],
                                 ["stats", "--graphs"]])
def test_bad_graph_files_exit_2(tmp_path, text, what, cmd):
    f = tmp_path / "bad.amr"
    f.write_text(text)
    out = tmp_path / "o.amr"
    args = ["docamr", *cmd, str(f)] + (["-o", str(out)] if cmd[0] == "normalize" else [])
    r = run_mrkit(*args)
    assert r.returncode == 2, r.stderr
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and what in err[0] and str(f) in err[0] and not out.exists()


@pytest.mark.parametrize("name,text,what", [
    ("c.json", '{"sentences": [{"tokens": []}], "corefs": {"1": [{"sentNum": 9, "startIndex": 1, "endIndex": 2}]}}',
     "outside sentence 9"),
    ("d.json", '{"sentences": 5, "corefs": {}}', "malformed CoreNLP JSON"),
    ("c.conll", "#begin document (x)\nx 0 0 a (1\n", "never ends"),
])
def test_bad_cluster_files_exit_2(tmp_path, name, text, what):
    amr, _ = sentences()
    f = tmp_path / name
    f.write_text(text)
    out = tmp_path / "o.amr"
    r = run_mrkit("docamr", "build", str(amr), "--clusters", str(f), "-o", str(out))
    err = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(err) == 1 and what in err[0] and not out.exists()
