"""pipeline/amr.py: sentence-AMR pairs streamed from two files, paired in order, scored by Smatch."""

from __future__ import annotations

import pytest

from mrkit.errors import InputError
from mrkit.pipeline.amr import iter_amr_pairs, smatch_files
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

GOLD = ["# ::id g1\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
        "# ::id g2\n(d / dog :mod (b / big))",
        "# ::id g3\n(r / run-01 :polarity - :ARG0 (c / cat))",
        "# ::id g4\n(s / say-01 :ARG0 (p / person :name (n / name :op1 \"Ann\")))"]
SYSTEM = ["(w / want-01 :ARG0 (b / girl) :ARG1 (g / go-02 :ARG0 b))",
          "(d / dog)",
          "(r / run-01 :ARG0 (c / cat))",
          "(s / say-01 :ARG0 (p / person :name (n / name :op1 \"Bob\")))"]


def _write(path, blocks, sep="\n\n"):
    path.write_text(sep.join(blocks) + "\n")
    return str(path)


def _reference(gold, system):
    """Every pair scored one by one from fully read files (the library's serial way)."""
    from mrkit.codecs.penman import read_penman
    from mrkit.metrics.amr.smatch import smatch_pair

    golds, systems = read_penman(gold), read_penman(system)
    return [smatch_pair(g, s, index=k).to_dict() for k, (g, s) in enumerate(zip(golds, systems))]


def test_blocks_scored_through_any_executor_equal_pairs_scored_one_by_one(tmp_path):
    gold, system = _write(tmp_path / "g.amr", GOLD), _write(tmp_path / "s.amr", SYSTEM)
    expected = _reference(gold, system)
    serial = smatch_files(gold, system, keep_records=True)
    assert serial.records == expected and serial.ids == ["g1", "g2", "g3", "g4"]
    with ProcessExecutor(2) as ex:
        for chunk in (1, 3):
            assert smatch_files(gold, system, executor=ex, keep_records=True, chunk=chunk).records == expected
    assert serial.detail["matched"] == sum(r["matched"] for r in expected)
    assert serial.detail["gold_triples"] == sum(r["gold"] for r in expected)
    assert serial.certified.all() and serial.detail["f1_upper_bound"] == pytest.approx(serial.f1)
    assert smatch_files(gold, system).records is None  # records only when asked for


def test_irregular_blocks_are_paired_graph_by_graph(tmp_path):
    # a release header (comment-only block) in the gold file only, two gold graphs in one
    # block, system graphs one per block: pairs are still the graphs in order
    header = "# AMR release; corpus of four graphs\n# ::snt-type header"
    gold = _write(tmp_path / "g.amr", [header, GOLD[0] + "\n" + GOLD[1], GOLD[2], GOLD[3]])
    system = _write(tmp_path / "s.amr", SYSTEM)
    plain = _write(tmp_path / "plain.amr", GOLD)
    expected = _reference(plain, system)
    for ex in (SerialExecutor(), ProcessExecutor(2)):
        with ex:
            got = smatch_files(gold, system, executor=ex, keep_records=True, chunk=2)
        assert got.records == expected


def test_ids_of_graphs_without_one_count_graphs_not_blocks(tmp_path):
    gold = _write(tmp_path / "g.amr", ["# header only", "(a / x)\n(b / y)", "(c / z)"])
    system = _write(tmp_path / "s.amr", ["(a / x)", "(b / y)", "(c / q)"])
    assert smatch_files(gold, system).ids == ["1", "2", "3"]


def test_iter_amr_pairs_streams_pairs_and_names_a_count_mismatch(tmp_path):
    gold, system = _write(tmp_path / "g.amr", GOLD), _write(tmp_path / "s.amr", SYSTEM[:3])
    pairs = iter_amr_pairs(gold, system)
    first = next(pairs)  # nothing read beyond what is needed
    assert first[0].id == "g1" and len(first[1].nodes) == 3
    with pytest.raises(InputError) as exc:
        list(pairs)
    assert str(exc.value) == f"{system}: holds 3 graphs but the gold file {gold} holds 4"
    with pytest.raises(InputError, match="holds 3 graphs but the gold file"):
        smatch_files(gold, system)


def test_parse_errors_name_file_line_and_graph_from_a_worker(tmp_path):
    gold = _write(tmp_path / "g.amr", GOLD)
    system = _write(tmp_path / "s.amr", SYSTEM[:2] + ["(r / run-01 :ARG0 (c / cat)", SYSTEM[3]])
    for ex in (SerialExecutor(), ProcessExecutor(2)):
        with pytest.raises(InputError, match=r"s\.amr:5, graph 3: malformed PENMAN"):
            with ex:
                smatch_files(gold, system, executor=ex, chunk=1)


def test_mrp_of_amr_is_read_as_amr(tmp_path):
    from mrkit.codecs.amr_mrp import penman_to_mrp
    from mrkit.codecs.mrp import dumps_mrp
    from mrkit.codecs.penman import loads

    gold = _write(tmp_path / "g.amr", GOLD)
    system = _write(tmp_path / "s.amr", SYSTEM)
    mrp = tmp_path / "g.jsonl"
    mrp.write_text(dumps_mrp([penman_to_mrp(g) for g in loads("\n\n".join(GOLD))]))
    by_penman = smatch_files(gold, system, keep_records=True)
    by_mrp = smatch_files(str(mrp), system, keep_records=True)
    key = [(r["matched"], r["gold"], r["system"]) for r in by_penman.records]
    assert [(r["matched"], r["gold"], r["system"]) for r in by_mrp.records] == key
    assert [g.id for g, _ in iter_amr_pairs(str(mrp), system)] == ["g1", "g2", "g3", "g4"]


def test_default_executor_choice_follows_the_gold_size(tmp_path, monkeypatch):
    from mrkit.pipeline import amr
    from mrkit.pipeline.amr import PARALLEL_MIN_BYTES, parallel_worth_it

    monkeypatch.setattr(amr, "cores_free", lambda: True)

    small = tmp_path / "small.amr"
    small.write_text("(a / b)\n")
    assert not parallel_worth_it(str(small)) and not parallel_worth_it("-")
    assert not parallel_worth_it(str(tmp_path / "missing.amr"))
    big = tmp_path / "big.amr"
    with open(big, "wb") as fh:
        fh.truncate(PARALLEL_MIN_BYTES)
    assert parallel_worth_it(str(big))


def test_classic_smatch_shares_from_a_smaller_gold_file(tmp_path, monkeypatch):
    """Classic Smatch (this process scores a share beside one forked worker) takes workers
    from SHARED_MIN_BYTES, other runs from PARALLEL_MIN_BYTES."""
    from mrkit.pipeline import amr

    monkeypatch.setattr(amr, "cores_free", lambda: True)
    assert amr.SHARED_MIN_BYTES < amr.PARALLEL_MIN_BYTES
    mid = tmp_path / "mid.amr"
    with open(mid, "wb") as fh:
        fh.truncate(amr.SHARED_MIN_BYTES)
    assert amr.parallel_worth_it(str(mid), shared=True)
    assert not amr.parallel_worth_it(str(mid))
    assert not amr.parallel_worth_it("-", shared=True)


def test_default_executor_stays_serial_when_the_cores_are_busy(tmp_path, monkeypatch):
    import os

    from mrkit.pipeline.amr import PARALLEL_MIN_BYTES, parallel_worth_it

    big = tmp_path / "big.amr"
    with open(big, "wb") as fh:
        fh.truncate(PARALLEL_MIN_BYTES)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (3.5, 3.0, 3.0))
    assert not parallel_worth_it(str(big))
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.3, 0.3))
    assert parallel_worth_it(str(big))
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert not parallel_worth_it(str(big))
