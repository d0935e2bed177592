"""Generated PENMAN graphs and the shared AMR file pairs of the differential tests that
hold a compiled reading path against the general one (Smatch's, the alternative metrics')."""

from __future__ import annotations

from hypothesis import strategies as st

from conftest import shared_path

CONCEPTS = ["want-01", "boy", "girl", "Go-02", "name", '"Quoted Concept"', "dog", "see-01", "γ-Protein",
            "İstanbul", "STRAẞE"]
ROLES = [":ARG0", ":ARG1", ":ARG0-of", ":mod", ":consist-of", ":domain", ":Op1", ":ARG1-of", ":location",
         ":Ωmega-of"]
CONSTS = ['"Ann"', '"a \\"b\\" c"', "-", "+", "1", "Dog", '"x y"', '"-"', "2.5", '"Ωmega"', "ΚΑΠΑ", '"\\é"']

# (gold, system) files under the shared data's amr/ folder
AMR_PAIRS = [
    ("bamboo/sick/main_src.test.amr", "bamboo/sick/main_tgt.test.amr"),
    ("bamboo/sts/main_src.test.amr", "bamboo/sts/main_tgt.test.amr"),
    ("parseeval-little-prince/gold.amr", "parseeval-little-prince/t5.amr"),
    ("parseeval-little-prince/gold.amr", "parseeval-little-prince/bart.amr"),
    ("parseeval-little-prince/original/qualitylp_abparser_src.test.amr",
     "parseeval-little-prince/original/qualitylp_abparser_tgt.test.amr"),
    ("alt-metrics-handmade/a.amr", "alt-metrics-handmade/b.amr"),
    ("little-prince/amr-bank-struct-v1.6.txt", "little-prince/amr-bank-struct-v3.0.txt"),
]


def robustness_pairs() -> list[tuple]:
    """(gold, system) pairs of every PENMAN robustness file: against itself and either way
    against a good file."""
    base = shared_path("robustness")
    files = sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".amr", ".txt", ".penman"))
    good = shared_path("amr") / "alt-metrics-handmade" / "a.amr"
    assert files
    return [pair for path in files for pair in ((path, path), (path, good), (good, path))]


def write_pair_files(tmp_path, pairs) -> tuple:
    """The gold and system files (g.amr, s.amr in ``tmp_path``) of generated (gold, system)
    PENMAN pairs, one graph per block, paired in order."""
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join(a for a, _ in pairs) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(b for _, b in pairs) + "\n", encoding="utf-8")
    return gold, system


@st.composite
def graphs(draw, extra: int = 3):
    """A PENMAN graph: a random tree of up to 7 nodes, with up to ``extra`` more branches
    per node (constants, also repeated; reentrancies, also to the node itself and
    duplicates), inverted roles (also beyond ASCII), alignment markers and metadata lines,
    written in a random branch order with varied white space."""
    n = draw(st.integers(1, 7))
    names = draw(st.permutations([f"v{k}" for k in range(n)]))
    parent = [None] + [draw(st.integers(0, k - 1)) for k in range(1, n)]

    def text(k: int) -> str:
        head = f"({names[k]} / {draw(st.sampled_from(CONCEPTS))}"
        if draw(st.booleans()):
            head += f"~e.{draw(st.integers(0, 20))}"
        branches = [f"{draw(st.sampled_from(ROLES))} {text(c)}" for c in range(n) if parent[c] == k]
        for _ in range(draw(st.integers(0, extra))):
            role = draw(st.sampled_from(ROLES))
            if draw(st.booleans()):
                value = draw(st.sampled_from(CONSTS)) + draw(st.sampled_from(["", "~e.3", "~1,2"]))
            else:
                value = names[draw(st.integers(0, n - 1))]
            branches.append(f"{role} {value}")
        order = draw(st.permutations(range(len(branches))))
        sep = draw(st.sampled_from([" ", "\n      ", "\u00a0", " \r\n "]))
        return sep.join([head] + [branches[i] for i in order]) + ")"

    meta = draw(st.sampled_from(["", "# ::id g1\n", "# ::snt x ::id a b \n", "# ::id\n", "# c :: id x\n"]))
    return meta + text(0)
