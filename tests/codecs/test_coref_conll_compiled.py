"""The compiled CoNLL scanner against the Python reader (the reference): identical
documents (ids, clusters, mention types, lines, repeats) or the identical error, on every
column file of the shared coreference data and robustness folder and on generated files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import shared_path
from mrkit.codecs.conll import iter_conll, iter_conll_python
from mrkit.errors import InputError

_conll = pytest.importorskip("mrkit.codecs._conll")


def _outcome(reader, path):
    try:
        return [(d.id, d.clusters, [type(m).__name__ for c in d.clusters for m in c], d.source_file,
                 d.source_line, d.mention_lines, d.repeats) for d in reader(path)]
    except InputError as exc:
        return ("error", str(exc))


def _column_files():
    files = []
    for sub in ("reference-scorer-tests", "coval-tests"):
        folder = shared_path("coref", sub)
        files += [p for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix not in (".json", ".txt")
                  and p.name not in ("LICENSE.upstream", "TestCases.README")]
    robust = shared_path("robustness")
    files += sorted(robust.glob("*.conll"))
    return files


def test_every_shared_column_file_reads_the_same():
    files = _column_files()
    assert len(files) > 100
    for path in files:
        assert _outcome(iter_conll, path) == _outcome(iter_conll_python, path), path


def test_the_compiled_scanner_reads_the_reference_tests():
    # the plain files must not fall back to Python (or the speed is gone)
    path = shared_path("coref", "reference-scorer-tests", "TC-A.key")
    assert _conll.scan(path.read_bytes(), int) is not None


_FIELDS = st.sampled_from(["-", "_", "(1)", "(1", "1)", "(2)|(1", "1)|2)", "(12)", "(01)", "(1+2)", "(1)(2)",
                           "(1|1)", "((1)", "1", "(x)", "(1)-", "(", ")", "(3", "3)", "(123456789012345678)",
                           "(1+)", "|", "é", "(1)\u00a0"])
_LINES = st.one_of(
    _FIELDS.map(lambda f: f"w\t{f}"),
    _FIELDS.map(lambda f: f"doc 0 1 word {f}   "),
    _FIELDS.map(lambda f: f"{f}"),
    st.sampled_from(["", "   ", "# comment", "#begin document x", "#end document", "# begin document (y); part 0",
                     "#  end document", "w\u00a0\t-", "\u00a0", "#\u00a0begin document z", "#begin document \u00e9 ",
                     "w\t(4)\r", "#begin document"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=25), st.booleans())
def test_generated_files_read_the_same(tmp_path_factory, lines, wrap):
    body = ["#begin document gen", *lines, "#end document"] if wrap else lines
    path = tmp_path_factory.mktemp("conll") / "gen.conll"
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    assert _outcome(iter_conll, path) == _outcome(iter_conll_python, path)


def test_not_utf8_and_missing_file_fall_back(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_bytes(b"#begin document a\nw\t(1)\n\xff\xfe\n#end document\n")
    assert _outcome(iter_conll, bad) == _outcome(iter_conll_python, bad)
    assert _outcome(iter_conll, bad)[0] == "error"
    missing = tmp_path / "missing.conll"
    assert _outcome(iter_conll, missing) == _outcome(iter_conll_python, missing)
