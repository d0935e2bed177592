"""Mutations of real MRP graphs (issue 12): wrong JSON types at every key, truncated lines,
byte edits.  ``validate`` never crashes (findings, or one clean error for unreadable
lines); the reader, the MRP metric, the framework metrics and the converters give a result
or an :class:`InputError`, never another exception; every score is in [0, 1]."""

from __future__ import annotations

import json
import random
import warnings

import pytest

from conftest import shared_path
from mrkit.codecs.mrp import loads_mrp
from mrkit.codecs.registry import dumps_graphs
from mrkit.errors import InputError, MrkitError
from mrkit.metrics.mrp.mrp import mrp_score, pair_graphs
from mrkit.metrics.mrp.frameworks import framework_scores
from mrkit.codecs.validate import validate_mrp

FRAMEWORKS = ("dm", "psd", "eds", "ucca", "amr")
WRONG = [None, True, 0, -1, 10**12, 1.5, "", "x", [], [1], {}, {"a": 1}, [[[[]]]]]


def first_graph(fw: str) -> dict:
    path = shared_path("mrp", "wsj-sample", fw, "wsj.mrp")
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            g = json.loads(line)
            if len(g.get("nodes") or []) >= 3 and g.get("edges"):
                return g
    raise AssertionError(fw)


def paths(obj, prefix=()):
    """Every key path into a JSON value (dict keys and list indices, the first 3 of a list)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            yield prefix + (i,)
            yield from paths(v, prefix + (i,))


def replaced(obj, path, value):
    obj = json.loads(json.dumps(obj))
    target = obj
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return obj


def exercise(text: str) -> None:
    """Everything a user can run on one MRP line must give a result or a clean error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import io

        findings = list(validate_mrp(io.StringIO(text), "m.mrp")) if _readable(text) else []
        assert all(f.rule != "json" or "unexpected shape" not in f.message for f in findings), findings
        try:
            graphs = loads_mrp(text, "m.mrp")
        except InputError:
            return
        res = mrp_score(graphs, graphs)
        for c in res.totals().values():
            assert 0.0 <= c.p <= 1.0 and 0.0 <= c.r <= 1.0 and 0.0 <= c.f <= 1.0
            assert c.f == 1.0  # a graph the reader accepts scores exactly 1 against itself
        empty = [type(g)(id=g.id, framework=g.framework, text=g.text) for g in graphs]
        for rep in framework_scores(pair_graphs(graphs, empty)[0]).values():
            for v in rep.values():
                if isinstance(v, dict) and "f" in v:
                    assert 0.0 <= v["f"] <= 1.0
        for fmt in ("mrp", "sdp", "eds", "amr"):
            try:
                dumps_graphs(graphs, fmt)
            except MrkitError:
                pass


def _readable(text: str) -> bool:
    """A line the JSON decoder takes (otherwise validate raises InputError, checked below)."""
    try:
        json.loads(text)
        return True
    except (ValueError, RecursionError):
        return False


@pytest.mark.parametrize("fw", FRAMEWORKS)
def test_wrong_types_at_every_key(fw):
    g = first_graph(fw)
    runs = 0
    for path in list(paths(g)):
        for value in WRONG:
            exercise(json.dumps(replaced(g, path, value)) + "\n")
            runs += 1
    assert runs > 100


@pytest.mark.parametrize("fw", FRAMEWORKS)
def test_truncations_and_byte_edits(fw):
    import io

    line = json.dumps(first_graph(fw), ensure_ascii=False)
    rnd = random.Random(12)
    cases = [line[:k] for k in range(0, len(line), max(1, len(line) // 60))]
    for _ in range(150):
        chars = list(line)
        for _ in range(rnd.randint(1, 3)):
            k = rnd.randrange(len(chars))
            chars[k] = rnd.choice('{}[]",:0123456789-etrufnal \\x')
        cases.append("".join(chars))
    for text in cases:
        try:
            list(validate_mrp(io.StringIO(text + "\n"), "m.mrp"))
        except InputError:
            pass
        exercise(text + "\n")


def test_anchor_and_id_edge_values():
    g = first_graph("dm")
    base = json.dumps(g)
    for a in ({"from": -5, "to": 3}, {"from": 7, "to": 2}, {"from": 0, "to": 10**15},
              {"from": 10**15, "to": 10**15 + 2}, {"from": 3, "to": 3}):
        h = json.loads(base)
        h["nodes"][0]["anchors"] = [a]
        exercise(json.dumps(h) + "\n")
        h.pop("input")
        exercise(json.dumps(h) + "\n")


@pytest.mark.parametrize("fmt,parts", [("sdp", ("dm", "wsj.sdp")), ("sdp", ("psd", "wsj.sdp")),
                                       ("eds", ("eds", "wsj.eds")), ("ucca", ("ucca", "xml", "wsj_0001.1.xml"))])
def test_native_readers_under_truncation_and_byte_edits(fmt, parts, tmp_path):
    from mrkit.codecs.registry import read_graphs

    data = shared_path("mrp", "wsj-sample", *parts).read_bytes()
    if fmt != "ucca":
        data = b"\n\n".join(data.split(b"\n\n")[:3]) + b"\n"
    rnd = random.Random(3)
    path = tmp_path / ("m.xml" if fmt == "ucca" else f"m.{fmt}")
    read = 0
    for k in range(80):
        b = bytearray(data)
        if k % 3 == 0:
            b = b[: rnd.randrange(len(b))]
        else:
            for _ in range(rnd.randint(1, 4)):
                b[rnd.randrange(len(b))] = rnd.choice(b'\t\n #:<>/"=0123456789._-{}[]()x\xff')
        path.write_bytes(bytes(b))
        try:
            graphs = read_graphs(str(path), fmt)
        except InputError:
            continue
        read += 1
        res = mrp_score(graphs, graphs)
        assert res.totals()["all"].f == 1.0
        for out in ("mrp", "sdp", "eds", "amr"):
            try:
                dumps_graphs(graphs, out)
            except MrkitError:
                pass
    assert read > 0  # some mutations stay readable: the scoring path is exercised too
