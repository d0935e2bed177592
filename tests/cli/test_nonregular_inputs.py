"""Inputs that can be read only once (a pipe as ``/dev/fd/N``, a named FIFO, ``/dev/stdin``)
give every command the result and output of the same bytes in a regular file
(``mrkit.codecs._spool``).  Before, readers opened them twice: ``mrp`` scored every graph
missing with exit 0, ``validate`` called a malformed file clean, smatch on a FIFO hung.

Each run has a timeout, so that a hang fails the test instead of blocking it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import mrkit

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/fd and FIFOs as on Linux")

GOLD_AMR = "(a / small :mod (b / example))\n\n(d / dog :ARG0-of (b / bark-01))\n"
SYS_AMR = "(a / small :mod (b / sample))\n\n(c / cat :ARG0-of (b / bark-01))\n"
BAD_AMR = "(a / dog :ARG0 (b / \n"


def _dm(gid: str, words: list[str]) -> str:
    text = " ".join(words)
    nodes, start = [], 0
    for i, w in enumerate(words):
        nodes.append({"id": i, "label": w, "anchors": [{"from": start, "to": start + len(w)}]})
        start += len(w) + 1
    edges = [{"source": 0, "target": i, "label": "ARG1"} for i in range(1, len(words))]
    return json.dumps({"id": gid, "flavor": 0, "framework": "dm", "version": 1.0, "input": text,
                       "tops": [0], "nodes": nodes, "edges": edges}) + "\n"


DM = _dm("1", ["dogs", "bark", "loudly"]) + _dm("2", ["cats", "sleep"]) + _dm("3", ["birds", "sing", "songs"])
COREF = ('{"doc_key": "d1", "sentences": [["a","b","c","d","e","f","g","h"]], "clusters": [[[0, 0], [3, 4]], [[5, 5], [7, 7]]]}\n'
         '{"doc_key": "d2", "sentences": [["a","b","c","d","e"]], "clusters": [[[0, 1], [2, 2], [4, 4]]]}\n')
SCICO = ('{"id": 1, "tokens": [["a0", "a1", "a2", "a3"]], "mentions": [[0, 0, 0, 10], [0, 2, 3, 10], [0, 1, 1, 20]], '
         '"relations": [[10, 20]]}\n')

TIMEOUT = 60


def _mrkit(args: list[str], cwd: Path, pass_fds=()) -> tuple:
    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    try:
        p = subprocess.run([sys.executable, "-m", "mrkit", *args], capture_output=True, env=env, cwd=cwd,
                           timeout=TIMEOUT, pass_fds=pass_fds, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mrkit {' '.join(args)} did not end within {TIMEOUT} s")
    return p.returncode, p.stdout, p.stderr


def _writer(target, data: bytes) -> threading.Thread:
    def write() -> None:
        try:
            if isinstance(target, int):
                with os.fdopen(target, "wb") as fh:
                    fh.write(data)
            else:
                with open(target, "wb") as fh:
                    fh.write(data)
        except OSError:
            pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


def _outputs(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _three_ways(tmp_path: Path, args: list[str], data: bytes, name: str = "input") -> dict:
    """``args`` with ``{X}`` as a regular file, a pipe (``/dev/fd/N``) and a named FIFO, each
    named ``name`` (the pipe has its own name): ``{way: (status, stdout, stderr, outputs)}``,
    the input's name replaced by ``{X}``.  ``{O}`` is an output file."""
    results = {}
    for way in ("file", "pipe", "fifo"):
        folder = tmp_path / way
        (folder / "in").mkdir(parents=True)
        (folder / "out").mkdir()
        fds: tuple = ()
        if way == "file":
            x = str(folder / "in" / name)
            Path(x).write_bytes(data)
        elif way == "pipe":
            r, w = os.pipe()
            _writer(w, data)
            x, fds = f"/dev/fd/{r}", (r,)
        else:
            x = str(folder / "in" / name)
            os.mkfifo(x)
            _writer(x, data)
        argv = [a.replace("{X}", x).replace("{O}", str(folder / "out" / "o")) for a in args]
        try:
            status, out, err = _mrkit(argv, folder, fds)
        finally:
            for fd in fds:
                os.close(fd)
        if way == "fifo" and x:  # a writer still waiting (the run failed before reading): let it go
            try:
                os.close(os.open(x, os.O_RDONLY | os.O_NONBLOCK))
            except OSError:
                pass
        def norm(v: bytes) -> bytes:
            return v.replace(x.encode(), b"{X}").replace(str(folder).encode(), b"{F}")

        results[way] = (norm(out), norm(err)), status, {k: norm(v) for k, v in _outputs(folder / "out").items()}
    return results


def _same(results: dict) -> tuple:
    assert results["pipe"] == results["file"], (results["file"], results["pipe"])
    assert results["fifo"] == results["file"], (results["file"], results["fifo"])
    return results["file"]


@pytest.fixture
def inputs(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    for name, text in (("gold.amr", GOLD_AMR), ("sys.amr", SYS_AMR), ("dm.mrp", DM), ("coref.jsonl", COREF),
                       ("scico.jsonl", SCICO)):
        (d / name).write_text(text)
    return d


@pytest.mark.parametrize("args, data", [
    (["smatch", "GOLD", "{X}"], SYS_AMR),
    (["smatch", "GOLD", "{X}", "--format", "amr"], SYS_AMR),  # units read again by position
    (["smatch", "{X}", "GOLD", "--per-pair", "--format", "tsv"], SYS_AMR),
    (["score", "-m", "sema", "GOLD", "{X}"], SYS_AMR),
    (["score", "-m", "wlk", "GOLD", "{X}", "--json", "-o", "{O}"], SYS_AMR),
    (["analyze", "{X}"], GOLD_AMR),
    (["convert", "{X}", "{O}", "--from", "mrp", "--to", "mrp"], DM),
    (["mrp", "DM", "{X}"], DM),
    (["coref", "COREF", "{X}"], COREF),
    (["coref", "SCICO", "{X}", "--format", "scico"], SCICO),
    (["hierarchy", "SCICO", "{X}"], SCICO),
    (["scico", "stats", "{X}"], SCICO),
])
def test_same_as_a_regular_file(tmp_path, inputs, args, data):
    names = {"GOLD": inputs / "gold.amr", "DM": inputs / "dm.mrp", "COREF": inputs / "coref.jsonl",
             "SCICO": inputs / "scico.jsonl"}
    args = [str(names.get(a, a)) for a in args]
    (out, err), status, files = _same(_three_ways(tmp_path, args, data.encode()))
    assert status == 0, err
    assert err == b""
    assert out or files


def test_report_from_a_fifo(tmp_path, inputs):
    """The HTML report names a system by its file name: the FIFO's (a pipe is named by its
    descriptor, so only the FIFO is compared here)."""
    results = _three_ways(tmp_path, ["report", str(inputs / "gold.amr"), "{X}", "-o", "{O}"], SYS_AMR.encode())
    assert results["fifo"] == results["file"]
    (out, err), status, files = results["fifo"]
    assert status == 0, err
    assert b"mrkit-input-" not in files["o"]
    assert results["pipe"][1] == 0


def test_the_same_pipe_twice_scores_one(tmp_path):
    """``smatch X X``: both sides are the one input, read once: every graph against itself."""
    (out, err), status, _ = _same(_three_ways(tmp_path, ["smatch", "{X}", "{X}"], GOLD_AMR.encode()))
    assert status == 0, err
    assert b"F-score: 1.0000" in out


def test_mrp_against_itself_through_a_pipe(tmp_path, inputs):
    """Three DM graphs against themselves: none missing, all three perfect (was: 3 missing, exit 0)."""
    (out, err), status, _ = _same(_three_ways(tmp_path, ["mrp", str(inputs / "dm.mrp"), "{X}"], DM.encode()))
    assert status == 0, err
    assert out.startswith(b"MRP dm: 3 graphs, 0 missing, 3 perfect"), out


def test_validate_a_malformed_pipe(tmp_path):
    """A PENMAN graph cut in the middle is an error through a pipe too (was: 0 errors, exit 0)."""
    (out, err), status, _ = _same(_three_ways(tmp_path, ["validate", "{X}"], BAD_AMR.encode(), "bad.amr"))
    assert status == 1
    assert b"{X}" in out and b" 0 errors" not in out


def test_a_fifo_keeps_its_name_and_suffix(tmp_path, inputs):
    """A named FIFO is read under its own name: its suffix tells the format (``.mrp``), and the
    lines printed name it, not the copy read."""
    results = _three_ways(tmp_path, ["validate", "{X}"], DM.encode(), "graphs.mrp")
    assert results["fifo"] == results["file"]
    (out, err), status, _ = results["fifo"]
    assert out.startswith(b"{X}: "), out
    assert b"mrkit-input-" not in out + err


def test_an_error_names_the_fifo(tmp_path, inputs):
    bad = DM.splitlines(keepends=True)[0] + "{not json\n"
    results = _three_ways(tmp_path, ["mrp", str(inputs / "dm.mrp"), "{X}"], bad.encode(), "sys.mrp")
    (out, err), status, _ = _same(results)
    assert status == 2
    assert err.splitlines() == [err.strip()] and err.startswith(b"mrkit: {X}:2"), err


def test_companion_inputs(tmp_path, inputs):
    """Inputs given with an option (here ``--ids-file``) are read once too."""
    (out, err), status, _ = _same(_three_ways(
        tmp_path, ["mrp", str(inputs / "dm.mrp"), str(inputs / "dm.mrp"), "--ids-file", "{X}"], b"2\n"))
    assert status == 0, err
    assert out.startswith(b"MRP dm: 1 graphs, 0 missing, 1 perfect") or b"1 graph" in out.splitlines()[0], out


def test_dev_stdin(tmp_path, inputs):
    """``/dev/stdin`` on a pipe (was: holds 0 graphs)."""
    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    gold = str(inputs / "gold.amr")
    piped = subprocess.run([sys.executable, "-m", "mrkit", "smatch", gold, "/dev/stdin"], input=SYS_AMR.encode(),
                           capture_output=True, env=env, timeout=TIMEOUT)
    plain = subprocess.run([sys.executable, "-m", "mrkit", "smatch", gold, str(inputs / "sys.amr")],
                           capture_output=True, env=env, timeout=TIMEOUT)
    assert (piped.returncode, piped.stdout, piped.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert plain.returncode == 0
