"""runtime/dask_executor.py on a real ``distributed.LocalCluster`` (2 worker processes, one
thread each), started once for this module: smatch, MRP and coreference give exactly the
serial numbers whatever the chunk size; a worker killed mid-run does not change the result;
an input error in a worker reaches the caller as the same one-line error; the CLI runs on
the cluster through ``--scheduler``.  Skipped when dask.distributed is not installed."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from conftest import run_mrkit, shared_path

distributed = pytest.importorskip("distributed")

from mrkit.errors import InputError, MrkitError  # noqa: E402
from mrkit.runtime.dask_executor import DaskExecutor  # noqa: E402
from mrkit.runtime.executor import SerialExecutor, make_executor  # noqa: E402

pytestmark = pytest.mark.subprocess


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster, set_as_default=False)
    try:
        c.wait_for_workers(2, timeout=60)
        yield c
    finally:
        c.close()
        cluster.close()


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise InputError("bad thing", "f.amr", 12, "g3")
    return x


def test_map_is_ordered_and_errors_come_back_whole(client):
    ex = DaskExecutor(client=client)
    assert ex.workers == 2
    with ex:
        assert list(ex.map(square, range(40))) == [x * x for x in range(40)]
        with pytest.raises(InputError) as err:
            list(ex.map(fail_on_three, range(10)))
    assert str(err.value) == "f.amr:12, graph g3: bad thing"
    assert client.status == "running"  # the caller's client is left open


def test_make_executor_dask_choices(client):
    assert isinstance(make_executor("dask", 2), DaskExecutor)
    assert isinstance(make_executor("auto", 0, scheduler="tcp://x:1"), DaskExecutor)
    assert make_executor("auto", 0, client=client).client is client
    with pytest.raises(MrkitError, match="needs --executor dask"):
        make_executor("processes", 2, scheduler="tcp://x:1")


def _parseeval(name: str) -> str:
    return str(shared_path("amr", "parseeval-little-prince", name))


@pytest.mark.parametrize("chunk", [3, 256])
def test_smatch_on_the_cluster_equals_serial(client, chunk):
    from mrkit.pipeline.amr import smatch_files

    gold, system = _parseeval("gold.amr"), _parseeval("bart.amr")
    serial = smatch_files(gold, system, executor=SerialExecutor(), keep_records=True)
    with DaskExecutor(client=client) as ex:
        dask = smatch_files(gold, system, executor=ex, keep_records=True, chunk=chunk)
    assert dask.to_dict(per_pair=True) == serial.to_dict(per_pair=True)
    assert (dask.table == serial.table).all() and list(dask.certified) == list(serial.certified)


def test_mrp_on_the_cluster_equals_serial(client):
    from mrkit.align import AlignConfig
    from mrkit.pipeline.mrp import pairs_of, read_side, score_pairs

    gold = read_side(str(shared_path("mrp", "score-fixtures", "lpps.mrp")))
    system = read_side(str(shared_path("mrp", "score-fixtures", "eds", "lpps.peking.mrp")))
    pairs, unpaired = pairs_of(gold, system)
    serial = score_pairs(pairs, AlignConfig(), SerialExecutor(), unpaired_system=unpaired, keep_records=True)
    with DaskExecutor(client=client) as ex:
        dask = score_pairs(pairs, AlignConfig(), ex, unpaired_system=unpaired, keep_records=True)
    assert dask.result.to_dict(per_pair=True) == serial.result.to_dict(per_pair=True)
    assert dask.framework_metrics == serial.framework_metrics


def test_coref_on_the_cluster_equals_serial(client):
    from mrkit.pipeline.coref import score_coref

    folder = shared_path("coref", "reference-scorer-tests")
    with DaskExecutor(client=client) as ex:
        for case in ("TC-A", "TC-M", "TC-N"):
            key = str(folder / f"{case}.key")
            for response in sorted(folder.glob(f"{case}-*.response"))[:2]:
                _, serial = score_coref(key, str(response), SerialExecutor(), keep_records=True)
                _, dask = score_coref(key, str(response), ex, keep_records=True)
                assert dask.to_dict(per_pair=True) == serial.to_dict(per_pair=True)


def test_a_worker_killed_mid_run_does_not_change_the_result(client):
    from mrkit.pipeline.amr import smatch_files

    gold, system = _parseeval("gold.amr"), _parseeval("t5.amr")
    serial = smatch_files(gold, system, executor=SerialExecutor())
    before = client.run(os.getpid)
    killed: list[int] = []

    def kill_one(n: int) -> None:
        if not killed:  # after the first chunk is back, tasks are in flight on both workers
            victim = sorted(before.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    with DaskExecutor(client=client) as ex:
        result = smatch_files(gold, system, executor=ex, chunk=3, progress=kill_one)
    assert killed
    assert result.to_dict() == serial.to_dict()
    assert (result.table == serial.table).all()
    # the nanny restarts the lost worker: the cluster is whole again for the next tests
    client.wait_for_workers(2, timeout=60)
    deadline = time.monotonic() + 60
    while killed[0] in client.run(os.getpid).values() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert killed[0] not in client.run(os.getpid).values()


def test_an_input_error_in_a_worker_is_the_serial_error(client, tmp_path):
    from mrkit.pipeline.amr import smatch_files

    gold = tmp_path / "gold.amr"
    gold.write_text("(a / alpha)\n\n(b / beta :ARG0 (c / gamma))\n")
    system = tmp_path / "sys.amr"
    system.write_text("(a / alpha)\n\n(b / beta :ARG0 (c / gamma)\n")
    with pytest.raises(InputError) as serial:
        smatch_files(str(gold), str(system), executor=SerialExecutor())
    with DaskExecutor(client=client) as ex, pytest.raises(InputError) as dask:
        smatch_files(str(gold), str(system), executor=ex, chunk=1)
    assert str(dask.value) == str(serial.value)


def test_cli_smatch_with_scheduler_equals_serial(client):
    gold, system = _parseeval("gold.amr"), _parseeval("bart.amr")
    address = client.scheduler.address
    serial = run_mrkit("smatch", gold, system, "--json")
    dask = run_mrkit("smatch", gold, system, "--json", "--scheduler", address)
    assert dask.returncode == 0, dask.stderr
    assert dask.stderr == ""
    assert json.loads(dask.stdout) == json.loads(serial.stdout)


def test_unreachable_scheduler_is_one_mrkit_error():
    from mrkit.cli import describe_failure

    with pytest.raises(MrkitError) as err:
        with DaskExecutor(scheduler="tcp://127.0.0.1:9", timeout=1):
            pass
    line = describe_failure(err.value)
    assert line.startswith("cannot reach the dask scheduler at tcp://127.0.0.1:9: ")
    assert "\n" not in line


def test_matrix_on_the_cluster_equals_serial(client, tmp_path):
    from mrkit.pipeline.matrix import matrix_rows

    lines = open(_parseeval("gold.amr"), encoding="utf-8").read().split("\n\n")
    small = tmp_path / "g.amr"
    small.write_text("\n\n".join(lines[:25]) + "\n")  # the release header and 24 graphs
    serial, res = matrix_rows(str(small), top_k=3, block=64)
    full, _ = matrix_rows(str(small), block=64)
    with DaskExecutor(client=client) as ex:
        dask, dres = matrix_rows(str(small), top_k=3, block=5, executor=ex)
        dask_full, _ = matrix_rows(str(small), block=7, executor=ex)
    assert dask == serial and dask_full == full
    assert dres.to_dict() == res.to_dict()


def test_select_on_the_cluster_equals_serial(client):
    from mrkit.pipeline.select import select_files

    paths = [_parseeval(n) for n in ("bart.amr", "t5.amr", "gold.amr")]
    serial = select_files(paths)
    with DaskExecutor(client=client) as ex:
        dask = select_files(paths, executor=ex, chunk=9)
    assert dask.choice == serial.choice and dask.agreement == serial.agreement
    assert dask.rows() == serial.rows() and dask.blocks == serial.blocks


def test_shards_on_the_cluster_equal_serial(client, tmp_path):
    from mrkit.pipeline.shards import smatch_shards

    blocks = {n: [b for b in open(_parseeval(n), encoding="utf-8").read().split("\n\n") if "(" in b][:40]
              for n in ("gold.amr", "t5.amr")}
    for side, name in (("g", "gold.amr"), ("s", "t5.amr")):
        (tmp_path / side).mkdir()
        for k, (lo, hi) in enumerate(((0, 15), (15, 40))):
            (tmp_path / side / f"part{k}.amr").write_text("\n\n".join(blocks[name][lo:hi]) + "\n")
    serial = smatch_shards(str(tmp_path / "g"), str(tmp_path / "s"))
    with DaskExecutor(client=client) as ex:
        dask = smatch_shards(str(tmp_path / "g"), str(tmp_path / "s"), executor=ex, chunk=4)
    assert dask.to_dict() == serial.to_dict() and (dask.table == serial.table).all()
