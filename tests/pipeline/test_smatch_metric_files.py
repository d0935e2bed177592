"""`mrkit score -m smatch` runs the pipeline of `mrkit smatch` (`smatch_metric_files`): the
same result as the registered metric on the graphs read whole (`registry.score`), field by
field, and it never builds the graph lists."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.align import AlignConfig
from mrkit.metrics.amr.smatch import example_paths
from mrkit.metrics.registry import score
from mrkit.pipeline.amr import iter_amr_pairs, smatch_metric_files


def _general(gold: str, system: str, config: AlignConfig):
    pairs = list(iter_amr_pairs(gold, system))
    return score("smatch", [g for g, _ in pairs], [s for _, s in pairs], config=config)


def _same(a, b) -> None:
    assert a.name == b.name == "smatch"
    assert a.columns == b.columns
    assert a.ids == b.ids
    assert a.table.tolist() == b.table.tolist()
    assert a.certified.tolist() == b.certified.tolist()
    assert a.detail == b.detail
    assert (a.corpus, a.macro, a.pair_scores) == (b.corpus, b.macro, b.pair_scores)
    assert a.summary() == b.summary()


def _cases():
    gold, system = example_paths()
    yield str(gold), str(system)
    try:
        base = shared_path("amr")
    except pytest.skip.Exception:
        return
    lpp = base / "parseeval-little-prince"
    yield str(lpp / "gold.amr"), str(lpp / "t5.amr")
    yield str(lpp / "gold.amr"), str(lpp / "bart.amr")
    yield str(base / "alt-metrics-handmade" / "a.amr"), str(base / "alt-metrics-handmade" / "b.amr")
    yield str(base / "qald9" / "qald-9-amr-test.txt"), str(base / "qald9" / "qald-9-amr-test.txt")


@pytest.mark.parametrize("gold,system", list(_cases()))
def test_streamed_smatch_is_the_registered_metric(gold, system):
    config = AlignConfig()
    _same(smatch_metric_files(gold, system, config=config), _general(gold, system, config))


def test_streamed_smatch_under_a_work_limit_certifies_as_the_registered_metric():
    base = shared_path("amr") / "parseeval-little-prince"
    config = AlignConfig(seed=3, restarts=1, time_limit=0.01)
    gold, system = str(base / "gold.amr"), str(base / "bart.amr")
    _same(smatch_metric_files(gold, system, config=config), _general(gold, system, config))


def test_score_smatch_reports_the_registered_metric_without_reading_graphs(tmp_path):
    gold, system = (str(p) for p in example_paths())
    probe = tmp_path / "probe.py"
    # what the command loaded: neither the graph model nor the graph path's Smatch
    probe.write_text("import sys\nfrom mrkit.cli import main\nstatus = main(sys.argv[1:])\n"
                     "graphs = {'mrkit.model.graph', 'mrkit.metrics.amr.smatch'} & set(sys.modules)\n"
                     "print('GRAPHS' if graphs else 'STREAMED')\nsys.exit(status)\n")
    out = run_mrkit("score", "-m", "smatch", gold, system, "--json", "--per-pair")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    expected = _general(gold, system, AlignConfig())
    assert report["corpus"] == expected.corpus and report["macro"] == expected.macro
    assert [p["f1"] for p in report["per_pair"]] == expected.pair_scores
    assert report["details"] == expected.detail
    import subprocess
    import sys
    from pathlib import Path

    import mrkit

    env_path = str(Path(mrkit.__file__).resolve().parents[1])
    probed = subprocess.run([sys.executable, str(probe), "score", "-m", "smatch", gold, system],
                            capture_output=True, text=True, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    assert probed.returncode == 0, probed.stderr
    assert probed.stdout.splitlines()[-1] == "STREAMED"


@pytest.mark.parametrize("size", [512, 1024, 4096])
def test_s2match_in_batches_is_s2match_of_the_whole_corpus(size):
    """S2match streamed in batches of pairs (what `score -m s2match` runs) gives the result
    of the whole corpus's triples at once, whatever the batch."""
    from mrkit.metrics.amr.s2match import s2match_from_triples, s2match_triple_batches
    from mrkit.pipeline.amr_metrics import read_triple_pairs, triple_pair_batches

    base = shared_path("amr") / "parseeval-little-prince"
    gold, system = str(base / "gold.amr"), str(base / "bart.amr")
    ids, golds, systems = read_triple_pairs(gold, system)
    whole = s2match_from_triples(golds, systems, ids, vectors="none")
    streamed = s2match_triple_batches(triple_pair_batches(gold, system, size=size), vectors="none")
    assert streamed.ids == whole.ids
    assert streamed.table.tolist() == whole.table.tolist()
    assert streamed.certified.tolist() == whole.certified.tolist()
    assert streamed.detail == whole.detail
    assert (streamed.corpus, streamed.macro, streamed.pair_scores) == (whole.corpus, whole.macro, whole.pair_scores)


def test_a_smatch_registered_by_user_code_is_not_taken_for_mrkits_own(monkeypatch):
    """`score -m smatch` takes the pipeline only for mrkit's own metric: one registered
    under the name by user code is scored by the registry, as any metric."""
    from mrkit.metrics import registry

    assert registry.builtin("smatch") and registry.builtin("sema") and not registry.builtin("nope")

    def my_smatch(golds, systems):
        raise AssertionError("not called here")

    monkeypatch.setitem(registry._METRICS, "smatch", my_smatch)
    assert not registry.builtin("smatch")
