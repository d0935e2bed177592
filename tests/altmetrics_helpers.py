"""Shared pieces of the alternative-metric tests: oracle files and graph strategies."""

from __future__ import annotations

from hypothesis import strategies as st

from conftest import shared_path
from mrkit.codecs.penman import loads, read_penman

ORACLE = ("amr", "alt-metrics-handmade")


def handmade():
    """(gold graphs, system graphs) of the handmade oracle pairs: b.amr is gold, a.amr system."""
    d = shared_path(*ORACLE)
    return read_penman(d / "b.amr"), read_penman(d / "a.amr")


def oracle_numbers(name: str) -> list[float]:
    """The numbers of an oracle output file, one per line (lines without one skipped)."""
    out = []
    for line in (shared_path(*ORACLE) / name).read_text().splitlines():
        last = line.split()[-1] if line.split() else ""
        try:
            out.append(float(last))
        except ValueError:
            continue
    return out


CONCEPTS = ["want-01", "boy", "girl", "believe-01", "go-02", "city", "name", "cat", "sleep-01"]
ROLES = ["ARG0", "ARG1", "mod", "ARG0-of", "consist-of", "op1"]


@st.composite
def amr_graphs(draw, max_nodes: int = 6):
    """Small random AMR graphs as PENMAN text (a tree plus some reentrancies)."""
    n = draw(st.integers(1, max_nodes))
    concepts = [draw(st.sampled_from(CONCEPTS)) for _ in range(n)]
    parents = [None] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    roles = [None] + [draw(st.sampled_from(ROLES)) for _ in range(1, n)]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(ROLES),
                                    st.integers(0, n - 1)), max_size=2))
    attrs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(["polarity", "quant"]),
                                    st.sampled_from(["-", "1", "\"Paris\""])), max_size=2))
    children = {i: [] for i in range(n)}
    for i in range(1, n):
        children[parents[i]].append(i)

    def render(i: int, prefix: str) -> str:
        parts = [f"({prefix}{i} / {concepts[i]}"]
        for c in children[i]:
            parts.append(f":{roles[c]} " + render(c, prefix))
        for s, r, t in extra:
            if s == i:
                parts.append(f":{r} {prefix}{t}")
        for s, r, v in attrs:
            if s == i:
                parts.append(f":{r} {v}")
        return " ".join(parts) + ")"

    return render(0, "v"), render(0, "zz")


def graph(text: str):
    return loads(text)[0]
