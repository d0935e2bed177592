"""Corpus statistics of SciCo topics: the rows of the paper's Table 2 and §3.4.

* topics, documents (distinct ``doc_ids`` of a topic when the file has them, else its
  paragraphs), mentions, clusters (with mentions), relations (distinct pairs);
* the average number of connected components per topic: components of the undirected
  graph whose nodes are the topic's clusters and whose edges are its relations;
* the average depth of the maximal component: per topic, the component with the most
  clusters (ties: the deeper one), its depth being the number of clusters on its
  longest parent -> child path (1 for a cluster without relations).
"""

from __future__ import annotations

from typing import Sequence

from .pairs import mention_list


def _components(topic) -> list[set]:
    nodes = list(dict.fromkeys([c for _, c in mention_list(topic)] +
                               [x for r in topic.relations for x in r]))
    adj: dict = {n: set() for n in nodes}
    for p, c in topic.relations:
        adj[p].add(c)
        adj[c].add(p)
    seen: set = set()
    out = []
    for n in nodes:
        if n in seen:
            continue
        comp, stack = set(), [n]
        while stack:
            x = stack.pop()
            if x in comp:
                continue
            comp.add(x)
            stack.extend(adj[x] - comp)
        seen |= comp
        out.append(comp)
    return out


def _depth(topic, comp: set) -> int:
    children: dict = {}
    for p, c in set(topic.relations):
        if p in comp:
            children.setdefault(p, []).append(c)
    memo: dict = {}

    def depth(n) -> int:  # iterative: no recursion limit on deep chains
        stack = [(n, False)]
        while stack:
            x, done = stack.pop()
            if x in memo:
                continue
            kids = children.get(x, ())
            if done:
                memo[x] = 1 + max((memo[k] for k in kids), default=0)
            else:
                stack.append((x, True))
                stack.extend((k, False) for k in kids if k not in memo)
        return memo[n]

    return max((depth(n) for n in comp), default=0)


def topic_stats(topic) -> dict:
    ms = mention_list(topic)
    doc_ids = topic.fields.get("doc_ids")
    documents = len(set(map(str, doc_ids))) if isinstance(doc_ids, list) else len(topic.tokens)
    comps = _components(topic)
    largest = max(comps, key=lambda c: (len(c), _depth(topic, c)), default=set())
    return {"id": topic.id, "documents": documents, "mentions": len(ms),
            "clusters": len({c for _, c in ms}), "relations": len(set(topic.relations)),
            "components": len(comps), "max_component_depth": _depth(topic, largest) if largest else 0}


def corpus_stats(topics: Sequence) -> dict:
    """Totals and per-topic averages (``per_topic``: every topic's row)."""
    rows = [topic_stats(t) for t in topics]
    n = len(rows)
    out: dict = {"topics": n}
    for k in ("documents", "mentions", "clusters", "relations"):
        out[k] = sum(r[k] for r in rows)
    out["avg_components"] = sum(r["components"] for r in rows) / n if n else 0.0
    out["avg_max_component_depth"] = sum(r["max_component_depth"] for r in rows) / n if n else 0.0
    out["per_topic"] = rows
    return out
