"""Deterministic perturbations of MRP files for oracle tests (shared by tests and the
commands that produced the reference values)."""

from __future__ import annotations

import json
import random

PUNCT = set(".?!;,:\"'()[]{}")


def pad_anchors(src, dst, seed: int = 0, rate: float = 0.3, label_rate: float = 0.05) -> None:
    """Copy an MRP file, widening anchors over a neighbouring space or punctuation mark
    (``rate``) and changing edge labels (``label_rate``), so that raw and trimmed anchors differ."""
    rnd = random.Random(seed)
    lines = [line for line in open(src, encoding="utf-8").read().splitlines() if line.strip()]
    labels = sorted({e["label"] for line in lines for e in json.loads(line).get("edges") or []
                     if isinstance(e.get("label"), str)})
    out = []
    for line in lines:
        g = json.loads(line)
        text = g.get("input") or ""
        for n in g.get("nodes") or []:
            for a in n.get("anchors") or []:
                if rnd.random() < rate:
                    if a["to"] < len(text) and (text[a["to"]] in PUNCT or text[a["to"]] == " "):
                        a["to"] += 1
                    elif a["from"] > 0 and (text[a["from"] - 1] in PUNCT or text[a["from"] - 1] == " "):
                        a["from"] -= 1
        for e in g.get("edges") or []:
            if labels and rnd.random() < label_rate:
                e["label"] = rnd.choice(labels)
        out.append(json.dumps(g, ensure_ascii=False))
    with open(dst, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")
