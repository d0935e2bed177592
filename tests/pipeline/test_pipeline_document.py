"""mrkit.pipeline.document: document graphs read, paired in order and scored through the
caller's executor into one CorpusResult."""

from __future__ import annotations

import pytest

from mrkit.errors import InputError
from mrkit.pipeline.document import pair_in_order, score_documents

DOCS = [
    "(d / document :snt1 (a / alpha :ARG0 (b / beta)) :snt2 (c / gamma :ARG1 b))",
    "(d / document :snt1 (a / alpha :ARG0 (b / beta :name (n / name :op1 \"X\"))) :snt2 (c / gamma :ARG1 b))",
    "(m / multi-sentence :snt1 (a / alpha) :snt2 (c / gamma :ARG0 (e / eps)))",
]
SYSTEMS = [
    "(d / document :snt1 (a / alpha :ARG0 (b / beta)) :snt2 (c / gamma :ARG1 (x / beta)))",
    "(d / document :snt1 (a / alpha :ARG0 (b / beta)) :snt2 (c / gamma :ARG1 b))",
    "(m / multi-sentence :snt1 (a / alpha) :snt2 (c / delta :ARG0 (e / eps)))",
]


@pytest.fixture
def files(tmp_path):
    g, s = tmp_path / "g.amr", tmp_path / "s.amr"
    g.write_text("\n\n".join(f"# ::id doc{k}\n{t}" for k, t in enumerate(DOCS)) + "\n")
    s.write_text("\n\n".join(SYSTEMS) + "\n")
    return str(g), str(s)


def test_pairs_in_order_and_counts():
    assert list(pair_in_order("ab", "xy", "G", "S")) == [(0, "a", "x"), (1, "b", "y")]
    with pytest.raises(InputError, match="holds 1 graphs but the gold file G holds 3"):
        list(pair_in_order("abc", "x", "G", "S"))
    with pytest.raises(InputError, match="holds 3 graphs but the gold file G holds 1"):
        list(pair_in_order("a", "xyz", "G", "S"))
    with pytest.raises(InputError, match="nothing to score"):
        list(pair_in_order("", "", "G", "S"))


def test_pairing_streams():
    """The pairs come out before the inputs are exhausted (nothing reads ahead)."""
    seen = []

    def gen(items):
        for x in items:
            seen.append(x)
            yield x

    it = pair_in_order(gen("abc"), gen("xyz"), "G", "S")
    assert next(it) == (0, "a", "x") and seen == ["a", "x"]


def test_result_equals_the_metric_pair_by_pair(files):
    from mrkit.codecs.docgraphs import read_document_graphs
    from mrkit.metrics.document.docsmatch import docsmatch_graphs

    r = score_documents(*files, keep_records=True)
    ref = docsmatch_graphs(read_document_graphs(files[0]), read_document_graphs(files[1]))
    assert r.metric == "docsmatch" and r.pairs == 3 and r.ids == ["doc0", "doc1", "doc2"]
    assert [list(row) for row in r.table] == [[p.matched, p.gold, p.system] for p in ref.pairs]
    assert r.f1 == ref.f1 and r.summary()["certified"] == ref.certified
    d = ref.to_dict()
    for key in ("overall", "coref", "coref_parts", "reentrancy", "f1_upper_bound"):
        assert r.detail[key] == d[key], key
    assert [rec["f1"] for rec in r.records] == [p.f1 for p in ref.pairs]


def test_executors_agree(files):
    from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

    a = score_documents(*files, executor=SerialExecutor(), keep_records=True)
    b = score_documents(*files, executor=ProcessExecutor(2), keep_records=True)
    assert a.to_dict(per_pair=True) == b.to_dict(per_pair=True)


def test_records_only_when_asked(files):
    assert score_documents(*files).records is None


def test_stdin_is_read_as_files_are(files, monkeypatch):
    """'-' reads standard input as UTF-8 bytes: a byte order mark is dropped, a bad byte is
    an error naming <stdin> and the line."""
    import io
    import sys

    from mrkit.pipeline.document import read_documents

    data = open(files[1], "rb").read()

    def stdin(raw: bytes):
        return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")

    monkeypatch.setattr(sys, "stdin", stdin(b"\xef\xbb\xbf" + data))
    assert len(list(read_documents("-"))) == 3
    monkeypatch.setattr(sys, "stdin", stdin(b"(a / b)\n\n(c / d\xff)\n"))
    with pytest.raises(InputError, match="not UTF-8") as exc:
        list(read_documents("-"))
    assert exc.value.file == "<stdin>" and exc.value.line == 3
