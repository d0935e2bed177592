"""The registry reads a metric's options from its code object as ``inspect.signature``
does (start-up of ``mrkit score``: no ``inspect``); every registered metric and a set of
odd signatures are compared with ``inspect``."""

from __future__ import annotations

import functools
import inspect

import pytest

from mrkit.metrics import registry
from mrkit.metrics.registry import _code_parameters


def as_inspect(fn):
    return [(p.name, int(p.kind), p.default) for p in inspect.signature(fn).parameters.values()]


def as_code(fn):
    params = _code_parameters(fn)
    return None if params is None else [(p.name, p.kind, p.default) for p in params]


def same(fn) -> bool:
    got, want = as_code(fn), as_inspect(fn)
    if got is None:
        return True  # the registry falls back to inspect
    return [(n, k, inspect.Parameter.empty if d is registry._Parameter.empty else d) for n, k, d in got] == want


def f1(a, b, c=1, *, d, e=2): ...
def f2(a, b, /, c, *args, d=3, **kw): ...
def f3(*args, **kw): ...
def f4(a=1, b=None, *, c=frozenset()): ...
def f5(): ...
def f6(a, b, *rest): ...
def f7(a, b, **options): ...


@pytest.mark.parametrize("fn", [f1, f2, f3, f4, f5, f6, f7, lambda x, y=2: 0])
def test_odd_signatures_read_as_inspect_reads_them(fn):
    assert as_code(fn) is not None
    assert same(fn)


def test_wrapped_partial_and_builtin_fall_back_to_inspect():
    @functools.wraps(f1)
    def wrapper(*a, **k):
        return f1(*a, **k)

    assert as_code(wrapper) is None and as_code(functools.partial(f1, 1)) is None and as_code(len) is None


@pytest.mark.parametrize("name", registry.available())
def test_every_registered_metric_reads_as_inspect_reads_it(name):
    fn = registry.get_metric(name)
    assert same(fn)
    declared = {p.name: p.default for p in list(inspect.signature(fn).parameters.values())[2:]
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != registry.EXECUTOR}
    assert registry.metric_options(name) == declared
    assert registry.takes_executor(name) == any(p.name == registry.EXECUTOR
                                                for p in list(inspect.signature(fn).parameters.values())[2:])


def test_a_required_option_reads_as_inspects_empty(monkeypatch):
    def metric(golds, systems, *, needed, k=3): ...

    monkeypatch.setitem(registry._METRICS, "needs-one", metric)
    assert registry.metric_options("needs-one") == {"needed": inspect.Parameter.empty, "k": 3}
