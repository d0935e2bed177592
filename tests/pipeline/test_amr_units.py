"""pipeline/amr.py with the compiled scanner: workers read their own byte ranges of the two
files (no text pickled) and give back compact chunks; results are those of the serial run
and of the graph-by-graph path, bit for bit, whatever the executor, the chunk size, blank
lines between graphs or not, Windows line ends, a missing final newline."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


# ------------------------------------------------------------------ -j 2: this process and a worker

SHARE_WAYS = [pytest.param(False, id="forked"), pytest.param(True, id="pool")]


@pytest.mark.subprocess
@pytest.mark.parametrize("share_pool", SHARE_WAYS)
@pytest.mark.parametrize("workers", [2, 3])
def test_shared_runs_with_guided_chunks_equal_the_serial_run(tmp_path, monkeypatch, share_pool, workers):
    """-j N is this process and N - 1 forked workers drawing guided chunks (large first,
    UNIT_CHUNK_MIN at the end): every id, row, certificate, bound and summary is the serial
    run's, to the bit."""
    if share_pool:
        monkeypatch.setenv("MRKIT_SHARE_POOL", "1")
    n = 3 * amr.UNIT_CHUNK_MIN * workers + 17  # several guided chunks, a short last one
    gold = _corpus(tmp_path / "g.amr", n, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", n, 1)
    want = _key(smatch_files(gold, system))
    with ProcessExecutor(workers) as ex:
        assert _key(smatch_files(gold, system, executor=ex)) == want
    assert want == _key(_general(gold, system))


@pytest.mark.subprocess
@pytest.mark.parametrize("share_pool", SHARE_WAYS)
@pytest.mark.parametrize("where", [5, 700, 1499])
def test_shared_runs_report_the_serial_error(tmp_path, monkeypatch, share_pool, where):
    """An error in graph ``where`` (early, in the middle, in the last chunk) is the one the
    serial run reports: same file, line and text; and an error in the system file that
    comes later in the files does not win over it."""
    if share_pool:
        monkeypatch.setenv("MRKIT_SHARE_POOL", "1")
    n = 1500
    gold = _corpus(tmp_path / "g.amr", n, 0)
    system = _corpus(tmp_path / "s.amr", n, 1)
    text = open(gold).read().split("\n\n")
    text[where] = text[where].replace(" :ARG0 (y", " :ARG0 ((y", 1)  # an unbalanced parenthesis
    bad = tmp_path / "bad.amr"
    bad.write_text("\n\n".join(text))
    stext = open(system).read().split("\n\n")
    stext[min(where + 300, n - 1)] += " )"  # a later error on the other side
    sbad = tmp_path / "sbad.amr"
    sbad.write_text("\n\n".join(stext))
    with pytest.raises(InputError) as ref:
        smatch_files(str(bad), str(sbad))
    assert "bad.amr" in str(ref.value)
    with pytest.raises(InputError) as got:
        with ProcessExecutor(2) as ex:
            smatch_files(str(bad), str(sbad), executor=ex)
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("pairs", [1, 255, 256, 257, 1000, 24_645, 246_450])
@pytest.mark.parametrize("parts", [2, 3])
def test_guided_chunks_cover_the_pairs_in_order(pairs, parts):
    """The guided sizes, fed the units of a file of ``pairs`` graphs of one size, hand out
    every pair once, in order: each chunk between UNIT_CHUNK_MIN and UNIT_CHUNK_MAX (the
    last may be shorter), never growing."""
    from array import array

    per = 230  # bytes per graph
    size = pairs * per
    units = array("q", [x for i in range(pairs) for x in (i * per, (i + 1) * per - 2, 1 + i * 5)]).tobytes()
    k, sizes, window = 0, [], 1 << 20
    while k < pairs:
        cut_to = min(pairs, ((k * per + window) // per) + 1)  # the cut so far: whole windows ahead
        buf = bytearray(units[k * 24:cut_to * 24])
        step = amr._guided(k, buf, size, parts, cut_to == pairs)
        step = min(step, pairs - k)
        sizes.append(step)
        k += step
    assert sum(sizes) == pairs
    assert all(amr.UNIT_CHUNK_MIN <= s <= amr.UNIT_CHUNK_MAX for s in sizes[:-1])
    assert all(a >= b for a, b in zip(sizes, sizes[1:-1]))


@pytest.mark.subprocess
@pytest.mark.parametrize("corpus", ["sick", "sts"])
def test_shared_runs_equal_serial_on_bamboo(corpus):
    """BAMBOO SICK (4,929 pairs) and STS: -j 2 (this process and a forked worker, guided
    chunks) gives the serial run's ids, rows, certificates, bound and summary, to the bit."""
    base = shared_path("amr", "bamboo", corpus)
    gold, system = str(base / "main_src.test.amr"), str(base / "main_tgt.test.amr")
    want = _key(smatch_files(gold, system))
    with ProcessExecutor(2) as ex:
        assert _key(smatch_files(gold, system, executor=ex)) == want


def test_shared_chunks_ramp_up_from_the_smallest(tmp_path):
    """With processes sharing the stream, the first chunks are UNIT_CHUNK_MIN, 2 ** RAMP
    times that, 4 ** RAMP times...: a worker starts on the first small chunk while the next one is cut;
    then the guided sizes (never growing); every pair once, in order."""
    n = 64 * amr.UNIT_CHUNK_MIN
    gold = _corpus(tmp_path / "g.amr", n, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", n, 1)
    chunks = list(amr._unit_chunks(gold, system, None, 2))
    sizes = [len(g) // 24 for _, g, _ in chunks]
    assert [k for k, _, _ in chunks] == [sum(sizes[:i]) for i in range(len(sizes))] and sum(sizes) == n
    m, r = amr.UNIT_CHUNK_MIN, amr.RAMP
    assert sizes[:2] == [m, m << r] and sizes[2] <= m << 2 * r
    ramp = next(i for i, s in enumerate(sizes) if s != m << r * i)
    assert all(a >= b for a, b in zip(sizes[ramp:], sizes[ramp + 1:-1]))


@pytest.mark.subprocess
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 90), shift=st.integers(0, 8), workers=st.sampled_from([2, 3]),
       sep=st.sampled_from(["\n\n", "\n", ""]), bad=st.none() | st.integers(0, 120),
       smallest=st.sampled_from([1, 3, 8]), here=st.sampled_from([1, 2, 5, 512]),
       first_before_fork=st.booleans())
def test_shared_runs_equal_serial_on_generated_corpora(tmp_path, n, shift, workers, sep, bad, smallest, here,
                                                       first_before_fork):
    """Generated corpora, tiny guided chunks (many tasks, the ramp, the end), this process's
    own chunks of any size, the worker's first chunk
    drawn before the fork or not, blank lines or none, an error anywhere or none: -j 2 and
    -j 3 give the serial run's ids, rows, certificates, bound and summary to the bit, or
    its error line."""
    from mrkit.runtime import forked

    knobs = (amr, "UNIT_CHUNK_HERE", here), (forked, "FIRST_BEFORE_FORK", first_before_fork)
    saved_knobs = [(m, k, getattr(m, k)) for m, k, _ in knobs]
    for m, k, v in knobs:
        setattr(m, k, v)
    try:
        _shared_equals_serial(tmp_path, n, shift, workers, sep, bad, smallest)
    finally:
        for m, k, v in saved_knobs:
            setattr(m, k, v)


def _shared_equals_serial(tmp_path, n, shift, workers, sep, bad, smallest):
    gold = _corpus(tmp_path / f"g{n}-{shift}.amr", n, 0, sep=sep)
    system = _corpus(tmp_path / f"s{n}-{shift}.amr", n, shift, sep=sep)
    if bad is not None and bad < n:
        text = open(gold).read()
        text = text.replace(f"# ::id s{bad}\n(x", f"# ::id s{bad}\n((x", 1)  # unbalanced
        open(gold, "w").write(text)
    saved = amr.UNIT_CHUNK_MIN
    amr.UNIT_CHUNK_MIN = smallest
    try:
        try:
            want = _key(smatch_files(gold, system))
        except InputError as exc:
            want = str(exc)
        try:
            with ProcessExecutor(workers) as ex:
                got = _key(smatch_files(gold, system, executor=ex))
        except InputError as exc:
            got = str(exc)
    finally:
        amr.UNIT_CHUNK_MIN = saved
    assert got == want


# ------------------------------------------------------------------ session 30: small chunks here, large for the worker

@pytest.mark.parametrize("pattern", ["WWWHHHWH", "HHHHWWWW", "HWHWHWHW", "W", "H"])
def test_unit_stream_hands_out_every_pair_once_in_order_whoever_draws(tmp_path, pattern):
    """_UnitStream: chunks drawn for this process (here(), at most UNIT_CHUNK_HERE pairs)
    and for workers (iteration: the ramp from UNIT_CHUNK_MIN, then guided) in any order
    cover every pair once, in file order, and end with StopIteration for both."""
    n = 40 * amr.UNIT_CHUNK_MIN
    gold = _corpus(tmp_path / "g.amr", n, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", n, 1)
    stream = amr._unit_chunks(gold, system, None, 2)
    assert isinstance(stream, amr._UnitStream) and iter(stream) is stream
    chunks, worker_sizes, k = [], [], 0
    while True:
        mine = pattern[len(chunks) % len(pattern)] == "H"
        try:
            chunk = stream.here() if mine else next(stream)
        except StopIteration:
            break
        size = len(chunk[1]) // 24
        assert chunk[0] == k and len(chunk[2]) == len(chunk[1]) and size >= 1
        if mine:
            assert size <= amr.UNIT_CHUNK_HERE
        else:
            worker_sizes.append(size)
        chunks.append(chunk)
        k += size
    assert k == n
    with pytest.raises(StopIteration):
        stream.here()
    with pytest.raises(StopIteration):
        next(stream)
    m = amr.UNIT_CHUNK_MIN
    assert worker_sizes[:1] == [m][:len(worker_sizes)]  # the ramp counts the worker's chunks only
    assert all(size <= m << amr.RAMP * i for i, size in enumerate(worker_sizes))
    serial = list(amr._unit_chunks(gold, system, 10 ** 9))
    assert b"".join(c[1] for c in chunks) == serial[0][1] and b"".join(c[2] for c in chunks) == serial[0][2]


def test_unit_stream_with_different_counts_or_none_regroups(tmp_path):
    """Files of different numbers of graphs (or none) raise _Regroup from either draw, as
    the serial chunks do (the pipeline then pairs graph by graph and reports it)."""
    gold = _corpus(tmp_path / "g.amr", 5, 0)
    system = _corpus(tmp_path / "s.amr", 4, 1)
    empty = tmp_path / "e.amr"
    empty.write_text("# nothing\n")
    for g, s in ((gold, system), (str(empty), str(empty))):
        for draw in ("here", "next"):
            stream = amr._unit_chunks(g, s, None, 2)
            with pytest.raises(amr._Regroup):
                for _ in range(10):
                    stream.here() if draw == "here" else next(stream)


# ------------------------------------------------------------------ session 28: chunks reduced where scored

def test_chunks_travel_as_typed_columns_with_exact_sums():
    """A chunk's columns are int64 where every count is an int, else float64 (the engine
    gives the matched count as a float); a column's sum travels with it where it is the
    same in any grouping (ints; whole non-negative floats), else None."""
    assert amr._column([1, 2]).typecode == "q" and amr._column([3.0, 1.0]).typecode == "d"
    assert amr._column([2 ** 70]).typecode == "d"
    assert amr._exact_sum(amr._column([3.0, 0.0, 12.0])) == 15.0
    assert amr._exact_sum(amr._column([1.5, 2.0])) is None
    assert amr._exact_sum(amr._column([-1.0, 2.0])) is None
    assert amr._exact_sum(amr._column([2.0 ** 53, 2.0])) is None
    assert amr._exact_sum(amr._column([4, 5])) == 9 and amr._exact_sum(amr._column([])) == 0
    packed = amr._packed(["a", "b"], ([1.5, 1.0], [2, 1], [3, 1]), bytearray(b"\x01\x00"), [1.5, 1.0], None)
    ids, columns, sums, certs, bounds, values, records = amr._unpacked(packed)
    assert [c.typecode for c in columns] == ["d", "q", "q"] and sums == (None, 3, 4)
    assert [list(c) for c in columns] == [[1.5, 1.0], [2, 1], [3, 1]]
    assert ids == ["a", "b"] and certs == b"\x01\x00" and list(bounds) == [1.5, 1.0]
    assert list(values["f1"]) == [2 * 1.5 / 5, 1.0] and records is None


def test_a_corpus_result_keeps_typed_columns_and_chunk_sums(tmp_path):
    """smatch_files on the compiled path: the table is typed columns whose sums came with
    the chunks, each pair's F1 computed in the chunk: the summary equals the general path's."""
    gold = _corpus(tmp_path / "g.amr", 300, 0)
    system = _corpus(tmp_path / "s.amr", 300, 2)
    got = smatch_files(gold, system, chunk=7)
    table = got._raw("table")
    assert [c.typecode for c in table.columns] == ["d", "q", "q"] and table._sums is not None
    assert table.known is not None and len(table.known[1]["f1"]) == 300
    assert _key(got) == _key(_general(gold, system))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5000), st.integers(1, 5000), st.integers(0, 3), st.integers(0, 3)),
                min_size=1, max_size=50),
       st.integers(0, 10**6), st.integers(0, 10**6), st.integers(1, 60_000))
def test_chunks_hold_at_most_the_text_cap_but_one_pair_at_least(blocks, gold_at, system_at, cap):
    """_within: the longest run of the first pairs whose blocks (both files, from the first
    block's start to the last one's end) hold at most ``cap`` bytes, one pair at least --
    checked against adding the pairs one by one."""
    from array import array

    bufs = []
    for side, at in ((0, gold_at), (1, system_at)):
        units, pos = array("q"), at
        for b in blocks:
            units.extend((pos, pos + b[side], 1))
            pos += b[side] + b[side + 2]
        bufs.append(bytearray(units.tobytes()))
    g, s = (memoryview(b).cast("q") for b in bufs)
    n = len(blocks)
    want = 1
    for j in range(1, n + 1):
        if g[3 * j - 2] - g[0] + s[3 * j - 2] - s[0] <= cap:
            want = j
        else:
            break
    g.release(), s.release()
    assert amr._within(bufs[0], bufs[1], n, cap) == want
    del bufs[0][:24]  # no view of the buffers is left behind (the stream deletes what it hands out)


def test_automatic_chunks_hold_at_most_the_text_cap(tmp_path, monkeypatch):
    """With the automatic size, serial and shared chunks hold at most CHUNK_TEXT_MAX bytes
    of text (a chunk of one pair may hold more); an explicit chunk size is kept as given."""
    n = 6 * amr.UNIT_CHUNK_MIN
    gold = _corpus(tmp_path / "g.amr", n, 0, sep="\n")
    system = _corpus(tmp_path / "s.amr", n, 1)
    monkeypatch.setattr(amr, "CHUNK_TEXT_MAX", 2000)

    def text(chunk):
        g, s = memoryview(chunk[1]).cast("q"), memoryview(chunk[2]).cast("q")
        return g[-2] - g[0] + s[-2] - s[0]

    for chunks in (list(amr._unit_chunks(gold, system, None)), list(amr._unit_chunks(gold, system, None, 2))):
        assert sum(len(c[1]) // 24 for c in chunks) == n
        assert all(text(c) <= 2000 or len(c[1]) == 24 for c in chunks)
        assert max(len(c[1]) // 24 for c in chunks) > 1
    whole = list(amr._unit_chunks(gold, system, 10 ** 9))
    assert len(whole) == 1 and len(whole[0][1]) // 24 == n
