"""The coreference readers on malformed and adversarial input: the robustness files,
a linear coreference-field scanner, and strict jsonlines types."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given, settings, strategies as st

from conftest import run_mrkit, shared_path
from mrkit.metrics.coref import read_conll, read_jsonlines
from mrkit.codecs.conll import _parts
from mrkit.errors import InputError

# The grammar the reader accepted before (a regular expression with nested ambiguous
# repetitions: "(11)" is both "(11)" and "(1" + "1)", so a long field that fails at its
# end backtracks exponentially).  Used here only on short fields, as an oracle.
_OLD_FIELD = re.compile(r"(?:\(\d+\+\d+\)|\(\d+\)?|\d+\)|[|\-_\s])*")
_OLD_PART = re.compile(r"\(\d+\+\d+\)|\((\d+)\)|\((\d+)|(\d+)\)")


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.text(alphabet="()|-_+0129x", max_size=14))
def test_field_scanner_reads_what_the_old_grammar_read(field):
    # the old reader dropped the empty triple a double antecedent "(N+M)" matched; the
    # scanner never returns it
    old = ([p for p in _OLD_PART.findall(field) if p != ("", "", "")]
           if _OLD_FIELD.fullmatch(field) else None)
    assert _parts(field) == old


@pytest.mark.parametrize("field,expected", [
    ("(0+0)", []), ("(1)|(2+3)|4)", [("1", "", ""), ("", "", "4")]), ("(12", [("", "12", "")]),
    ("-", []), ("(1+)", None), ("(+1)", None), ("1", None),
])
def test_field_scanner_by_hand(field, expected):
    assert _parts(field) == expected


@pytest.mark.parametrize("field", [
    "(11)" * 40 + "x",           # the robustness file's field
    "(1" * 5000 + "x",
    "1" * 100_000 + "x",
    "(" + "1" * 100_000 + "+" + "2" * 100_000,
    "|" * 100_000 + "(",
])
def test_adversarial_fields_fail_at_once(field):
    start = time.process_time()
    assert _parts(field) is None
    assert time.process_time() - start < 1


def test_redos_field_file_is_an_instant_clean_error():
    path = shared_path("robustness", "coref-redos-field.conll")
    start = time.monotonic()
    run = run_mrkit("coref", str(path), str(path), timeout=60)
    assert time.monotonic() - start < 30  # hung for minutes before (process start included)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert run.stderr.startswith(f"mrkit: {path}:2, document (redos);: cannot read coreference field")


def test_begin_document_line_with_long_whitespace_runs(tmp_path):
    """The document-name pattern was lazy-then-greedy over whitespace (quadratic)."""
    path = tmp_path / "d.conll"
    name = "a" + " " * 200_000 + "b"
    path.write_text(f"#begin document {name}   \nt 0 0 w (1)\n#end document\n")
    start = time.process_time()
    (doc,) = read_conll(path)
    assert time.process_time() - start < 1
    assert doc.id == name and [[tuple(m) for m in c] for c in doc.clusters] == [[(0, 0)]]


@pytest.mark.parametrize("name,message", [
    ("coref-jsonl-float-span.jsonl", "document d: a span must be [start, end] with integer token offsets: [0.5, 1]"),
    ("coref-jsonl-string-span.jsonl", 'document d: a span must be [start, end] with integer token offsets: ["0", "1"]'),
    ("coref-jsonl-no-doc-key.jsonl", "no 'doc_key'"),
    ("coref-jsonl-deep-nesting.jsonl", "JSON nested too deeply"),
])
def test_bad_jsonlines_files_are_one_line_errors(name, message):
    path = shared_path("robustness", name)
    with pytest.raises(InputError) as err:
        read_jsonlines(path)
    assert str(err.value).startswith(f"{path}:1") and message in str(err.value)
    run = run_mrkit("coref", str(path), str(path))
    assert run.returncode == 2 and run.stdout == "" and run.stderr.count("\n") == 1
    assert run.stderr.startswith(f"mrkit: {path}:1")


@pytest.mark.parametrize("obj,message", [
    ({"doc_key": "d", "clusters": [[[0, 10 ** 18]]]}, "is not a token span"),   # never allocated
    ({"doc_key": "d", "clusters": [[[-1, 0]]]}, "is not a token span"),
    ({"doc_key": "d", "clusters": [[[True, 1]]]}, "integer token offsets"),
    ({"doc_key": "d", "clusters": [[[0, 1, 2]]]}, "integer token offsets"),
    ({"doc_key": "d", "clusters": [[0, 1]]}, "integer token offsets"),
    ({"doc_key": "d", "clusters": [{"a": 1}]}, "a cluster must be a list"),
    ({"doc_key": "d", "clusters": {}}, "no 'clusters' list"),
    ({"doc_key": ["d"], "clusters": []}, "'doc_key' must be a string or an integer"),
    ({"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 2]]]}, "outside the document's 2 tokens"),
    ({"doc_key": "d", "clusters": [[[3, 2]]]}, "ends before it starts"),
])
def test_jsonlines_reader_refuses(tmp_path, obj, message):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    with pytest.raises(InputError, match=re.escape(message)):
        read_jsonlines(path)


def test_jsonlines_number_too_long_to_convert(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"doc_key": "d", "clusters": [[[0, ' + "9" * 5000 + "]]]}\n")
    with pytest.raises(InputError, match="not JSON"):
        read_jsonlines(path)


def test_nesting_near_the_decoders_limit(tmp_path):
    """Values nested just below what the JSON decoder accepts reach the error message:
    shown without recursing past the interpreter's limit."""
    from mrkit.codecs._coref_json import show
    from mrkit.codecs.scico import read_scico

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert show(deep).startswith("[[")
    for depth in range(900, 1010, 3):
        jl = tmp_path / "d.jsonl"
        jl.write_text('{"doc_key": "d", "clusters": [' + "[" * depth + "]" * depth + "]}\n")
        with pytest.raises(InputError):
            read_jsonlines(jl)
        sc = tmp_path / "s.jsonl"
        sc.write_text('{"id": 1, "tokens": [], "mentions": [' + "[" * depth + "]" * depth + "]}\n")
        with pytest.raises(InputError):
            read_scico(sc)


@pytest.mark.parametrize("command", [["scico", "stats", "T"], ["hierarchy", "T", "T"],
                                     ["scico", "baseline", "levenshtein", "T", "-o", "OUT"]])
def test_scico_topic_without_relations_key_is_one_line(tmp_path, command):
    """A misspelled key is not read as an empty list (SciCo's own code needs both keys)."""
    topics = tmp_path / "t.jsonl"
    topics.write_text(json.dumps({"id": 1, "tokens": [["a"]], "mentions": [], "relations": []}) + "\n"
                      + json.dumps({"id": "b", "tokens": [["a"]], "mentions": [[0, 0, 0, 1]], "relatons": []}) + "\n")
    out = tmp_path / "out.jsonl"
    args = [str(topics) if a == "T" else str(out) if a == "OUT" else a for a in command]
    r = run_mrkit(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [f"mrkit: {topics}:2, topic b: no 'relations' key: a SciCo topic needs "
                                     "'tokens', 'mentions' and 'relations' (its other keys: [\"relatons\"])"]
    assert not out.exists()
