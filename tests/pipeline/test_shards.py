"""pipeline/shards.py: shards in directories or globs, paired by file name, give exactly
the numbers of the concatenated files; a bad or missing shard stops the run with its file
and line, or with keep_going is skipped whole and named; ids out of order are an error."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.errors import InputError, MrkitError
from mrkit.pipeline.amr import smatch_files
from mrkit.pipeline.shards import expand, is_sharded, pair_shards, smatch_shards

pytestmark = pytest.mark.shared_data


def _graphs(name: str) -> list[str]:
    text = shared_path("amr", "parseeval-little-prince", name).read_text(encoding="utf-8")
    return [b.strip("\n") for b in text.split("\n\n") if "(" in b]


def _write(path, blocks) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(blocks) + "\n")


@pytest.fixture()
def shards(tmp_path):
    """60 gold/bart pairs in shards of 25, 20 and 15 graphs (names sort in that order),
    and the two concatenations."""
    gold, bart = _graphs("gold.amr")[:60], _graphs("bart.amr")[:60]
    cuts = [(0, 25, "a.amr"), (25, 45, "b.amr"), (45, 60, "c.amr")]
    for lo, hi, name in cuts:
        _write(tmp_path / "gold" / name, gold[lo:hi])
        _write(tmp_path / "sys" / name, bart[lo:hi])
    _write(tmp_path / "gold.amr", gold)
    _write(tmp_path / "sys.amr", bart)
    return tmp_path


def test_shards_equal_the_concatenation(shards):
    whole = smatch_files(str(shards / "gold.amr"), str(shards / "sys.amr"))
    for g, s in ((shards / "gold", shards / "sys"), (f"{shards}/gold/*.amr", f"{shards}/sys/*.amr")):
        assert is_sharded(str(g)) and is_sharded(str(s))
        res = smatch_shards(str(g), str(s))
        assert res.summary() == whole.summary()
        assert (res.table == whole.table).all() and res.ids == whole.ids
        assert res.detail["shards"] == 3 and res.detail["complete"] and res.detail["skipped"] == []
        assert res.detail["matched"] == whole.detail["matched"]
    assert list(expand(str(shards / "gold"))) == ["a.amr", "b.amr", "c.amr"]


def test_shards_without_blank_lines_equal_the_concatenation(shards, monkeypatch):
    """Shards whose graphs follow each other without blank lines are cut graph by graph by
    the compiled scanner (never paired graph by graph in the parent) to the same numbers."""
    from mrkit.pipeline import amr

    whole = smatch_files(str(shards / "gold.amr"), str(shards / "sys.amr"))
    for p in (shards / "sys").iterdir():
        p.write_text(p.read_text().replace("\n\n", "\n"))

    def no_fallback(*a, **k):
        raise AssertionError("paired graph by graph")

    monkeypatch.setattr(amr, "_pairs", no_fallback)
    res = smatch_shards(str(shards / "gold"), str(shards / "sys"))
    assert res.summary() == whole.summary() and res.ids == whole.ids


def test_bad_shard_stops_or_is_skipped_whole(shards):
    bad = shards / "sys" / "b.amr"
    text = bad.read_text().split("\n\n")
    text[3] = text[3].rstrip(")")  # graph 4 of shard b loses its closing parentheses
    bad.write_text("\n\n".join(text))
    with pytest.raises(InputError) as err:
        smatch_shards(str(shards / "gold"), str(shards / "sys"))
    assert str(err.value).startswith(f"{bad}:")
    seen = []
    res = smatch_shards(str(shards / "gold"), str(shards / "sys"), keep_going=True, on_skip=seen.append)
    assert [s.shard for s in seen] == ["b.amr"] and res.detail["complete"] is False
    assert res.detail["skipped"][0]["reason"].startswith(f"{bad}:")
    gold, bart = _graphs("gold.amr"), _graphs("bart.amr")
    _write(shards / "rest" / "g.amr", gold[:25] + gold[45:60])
    _write(shards / "rest" / "s.amr", bart[:25] + bart[45:60])
    rest = smatch_files(str(shards / "rest" / "g.amr"), str(shards / "rest" / "s.amr"))
    assert res.summary() == rest.summary()  # exactly the other shards, nothing of b


def test_missing_shard_and_ids_out_of_order(shards):
    (shards / "sys" / "c.amr").rename(shards / "sys" / "d.amr")
    with pytest.raises(InputError, match="no system shard of this name"):
        smatch_shards(str(shards / "gold"), str(shards / "sys"))
    res = smatch_shards(str(shards / "gold"), str(shards / "sys"), keep_going=True)
    assert [s["shard"] for s in res.detail["skipped"]] == ["c.amr", "d.amr"]
    assert [s.name for s in pair_shards(str(shards / "gold"), str(shards / "sys"))] == ["a.amr", "b.amr", "c.amr",
                                                                                        "d.amr"]
    blocks = _graphs("gold.amr")[:3]
    _write(shards / "g2" / "x.amr", blocks)
    _write(shards / "s2" / "x.amr", [blocks[1], blocks[0], blocks[2]])
    with pytest.raises(InputError, match="the graphs of a shard pair must be in the same order"):
        smatch_shards(str(shards / "g2"), str(shards / "s2"))
    with pytest.raises(InputError, match="no file"):
        smatch_shards(f"{shards}/nothing/*.amr", str(shards / "s2"))


@pytest.mark.subprocess
def test_cli_shards_report_and_keep_going(shards):
    whole = run_mrkit("smatch", str(shards / "gold.amr"), str(shards / "sys.amr"), "--json")
    sharded = run_mrkit("smatch", str(shards / "gold"), str(shards / "sys"), "--json")
    assert sharded.returncode == 0, sharded.stderr
    assert json.loads(sharded.stdout)["summary"] == json.loads(whole.stdout)["summary"]
    bad = shards / "gold" / "a.amr"
    bad.write_text(bad.read_text() + "\n(x / broken\n")
    out = shards / "report.json"
    stop = run_mrkit("smatch", str(shards / "gold"), str(shards / "sys"), "-o", str(out))
    assert stop.returncode == 2 and stop.stderr.count("\n") == 1 and stop.stderr.startswith(f"mrkit: {bad}:")
    assert not out.exists()
    going = run_mrkit("smatch", str(shards / "gold"), str(shards / "sys"), "--keep-going", "--json", "-o", str(out))
    assert going.returncode == 1
    assert going.stderr.startswith("mrkit: warning: skipped shard a.amr: ")
    report = json.loads(out.read_text())
    assert report["complete"] is False and report["skipped"][0]["shard"] == "a.amr" and report["shards"] == 2
    with pytest.raises(AssertionError):  # --keep-going without shards is refused
        assert run_mrkit("smatch", str(shards / "gold.amr"), str(shards / "sys.amr"), "--keep-going").returncode == 0
