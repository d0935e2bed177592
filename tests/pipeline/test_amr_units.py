"""pipeline/amr.py with the compiled scanner: workers read their own byte ranges of the two
files (no text pickled) and give back compact chunks; results are those of the serial run
and of the graph-by-graph path, bit for bit, whatever the executor, the chunk size, blank
lines between graphs or not, Windows line ends, a missing final newline."""

from __future__ import annotations

import json

import pytest

from mrkit.codecs import penman_units
from mrkit.errors import InputError
from mrkit.pipeline import amr
from mrkit.pipeline.amr import smatch_files
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

pytestmark = pytest.mark.skipif(not penman_units.available(), reason="compiled scanner not built")

CONCEPTS = ("want-01", "go-02", "boy", "girl", "dog", "see-01", "big", "run-01", "cat")


def _graph(k: int, shift: int) -> str:
    a, b, c = (CONCEPTS[(k * 7 + shift + i) % len(CONCEPTS)] for i in range(3))
    if k % 5 == 0:  # one the first stage of the engine leaves to the search, now and then
        return f"(x / {a} :ARG0 (y / {b}) :ARG1 (z / {a} :ARG0 (w / {b}) :mod y))"
    return f"(x / {a} :ARG0 (y / {b}) :ARG1 (z / {c} :ARG0 y) :op1 \"q (#{k})\")"


def _corpus(path, n: int, shift: int, *, sep: str = "\n\n", ids: bool = True, newline: str = "\n",
            final: bool = True) -> str:
    parts = [(f"# ::id s{k}\n" if ids else "") + _graph(k, shift) for k in range(n)]
    text = sep.join(parts) + ("\n" if final else "")
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return str(path)


def _key(result):
    return (result.ids, [tuple(r) for r in result.table.tolist()], result.certified.tolist(),
            json.dumps(result.summary(), sort_keys=True), result.detail, result.records)


def _general(gold, system, **kw):
    """The graph-by-graph path (what the pipeline falls back to)."""
    saved = amr._units_available, amr._block_chunks

    def regroup(*a, **k):
        raise amr._Regroup
        yield

    amr._units_available, amr._block_chunks = (lambda: False), regroup
    try:
        return smatch_files(gold, system, **kw)
    finally:
        amr._units_available, amr._block_chunks = saved


@pytest.mark.parametrize("layout", [
    dict(), dict(sep="\n"), dict(sep=""), dict(sep="\n", newline="\r\n", final=False),
    dict(sep="\n", ids=False), dict(sep=" ", ids=False, final=False)])
def test_serial_processes_and_graph_by_graph_agree(tmp_path, layout):
    gold = _corpus(tmp_path / "g.amr", 60, 0, **layout)
    system = _corpus(tmp_path / "s.amr", 60, 1, **layout)
    want = _key(_general(gold, system, keep_records=True))
    assert _key(smatch_files(gold, system, keep_records=True)) == want
    for chunk in (1, 7, None):
        assert _key(smatch_files(gold, system, keep_records=True, chunk=chunk)) == want
        with ProcessExecutor(2) as ex:
            assert _key(smatch_files(gold, system, executor=ex, keep_records=True, chunk=chunk)) == want
    with ProcessExecutor(2) as ex:  # the compiled path: no records asked for
        fast = _key(smatch_files(gold, system, executor=ex, chunk=7))
    assert fast == _key(_general(gold, system))


def test_files_without_blank_lines_take_the_compiled_path(tmp_path, monkeypatch):
    gold = _corpus(tmp_path / "g.amr", 30, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", 30, 1, sep="", final=False)

    def no_fallback(*a, **k):
        raise AssertionError("paired graph by graph")

    monkeypatch.setattr(amr, "_pairs", no_fallback)
    assert smatch_files(gold, system).pairs == 30


def test_several_graphs_in_a_block_the_scanner_leaves_whole_are_paired_graph_by_graph(tmp_path):
    # the first graph has no id of its own and the second has: the scanner does not cut
    gold = tmp_path / "g.amr"
    gold.write_text("(a / x)\n# ::id two\n(b / y)\n\n(c / z)\n")
    system = _corpus(tmp_path / "s.amr", 3, 1)
    with ProcessExecutor(2) as ex:
        got = smatch_files(str(gold), system, executor=ex, chunk=1)
    assert got.ids == _general(str(gold), system).ids


def test_errors_are_those_of_the_graph_by_graph_path(tmp_path):
    gold = _corpus(tmp_path / "g.amr", 20, 0, sep="\n")
    lines = open(gold).read().split("\n")
    lines[31] = lines[31] + " :ARG2"  # a role without a value in graph 16
    bad = tmp_path / "bad.amr"
    bad.write_text("\n".join(lines))
    system = _corpus(tmp_path / "s.amr", 20, 1)
    with pytest.raises(InputError) as ref:
        _general(str(bad), system)
    for ex in (SerialExecutor(), ProcessExecutor(2)):
        with pytest.raises(InputError) as got:
            with ex:
                smatch_files(str(bad), system, executor=ex, chunk=3)
        assert str(got.value) == str(ref.value)


def test_counts_that_differ_and_bytes_that_are_not_utf8(tmp_path):
    gold = _corpus(tmp_path / "g.amr", 10, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", 9, 1, sep="")
    with pytest.raises(InputError, match="holds 9 graphs but the gold file .* holds 10"):
        smatch_files(gold, system)
    bad = tmp_path / "bad.amr"
    bad.write_bytes(open(gold, "rb").read().replace(b"# ::id s4", b"# ::id s\xff4"))
    with ProcessExecutor(2) as ex:
        with pytest.raises(InputError, match=r"bad\.amr:9: not UTF-8 text: byte 0xff"):
            smatch_files(str(bad), gold, executor=ex, chunk=2)


class _Remote(SerialExecutor):
    """An executor whose workers do not see this machine's files (as a dask cluster)."""

    local = False


def test_an_executor_elsewhere_gets_the_texts(tmp_path, monkeypatch):
    gold = _corpus(tmp_path / "g.amr", 25, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", 25, 1)
    monkeypatch.setattr(amr, "_score_units", None)  # never called
    assert _key(smatch_files(gold, system, executor=_Remote(), chunk=4)) == _key(_general(gold, system))
