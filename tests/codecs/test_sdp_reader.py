"""The SDP 2015 reader checks the token-ID column: ids run 1, 2, ... in order, so a row
written twice or dropped cannot shift the later nodes silently."""

from __future__ import annotations

import pytest

from conftest import run_mrkit
from mrkit.codecs.sdp import iter_sdp
from mrkit.errors import InputError

ROWS = ["1\tThe\tthe\tDT\t-\t-\t_\t_",
        "2\tdog\tdog\tNN\t-\t-\t_\tARG1",
        "3\tbarks\tbark\tVBZ\t+\t+\tv:e-i\t_"]


def _sdp(rows) -> str:
    return "#SDP 2015\n#1\n" + "\n".join(rows) + "\n"


def test_token_ids_in_order_by_hand(tmp_path):
    path = tmp_path / "dm.sdp"
    path.write_text(_sdp(ROWS))
    (g,) = iter_sdp(path)
    # "barks" (token 3, node 2) is the top and the predicate; "dog" (node 1) its ARG1;
    # "The" has no edge and is dropped
    assert (g.text, g.tops, sorted(g.nodes)) == ("The dog barks", ["2"], ["1", "2"])
    assert [(e.source, e.target, e.label) for e in g.edges] == [("2", "1", "ARG1")]


@pytest.mark.parametrize("rows,line,found,expected", [
    (ROWS[:2] + [ROWS[1]] + ROWS[2:], 5, "2", 3),  # a row written twice
    ([ROWS[0], ROWS[2]], 4, "3", 2),  # a row dropped
    ([ROWS[0], "1000000000" + ROWS[1][1:], ROWS[2]], 4, "1000000000", 2),
    (["0" + ROWS[0][1:]] + ROWS[1:], 3, "0", 1),
    ([" 1" + ROWS[0][1:]] + ROWS[1:], 3, " 1", 1),
])
def test_token_id_out_of_sequence_is_an_input_error(tmp_path, rows, line, found, expected):
    path = tmp_path / "dm.sdp"
    path.write_text(_sdp(rows))
    with pytest.raises(InputError) as info:
        list(iter_sdp(path))
    assert (info.value.file, info.value.line, info.value.graph) == (str(path), line, "1")
    assert info.value.detail.startswith(f"token ID {found!r} where {expected} was expected")


def test_cli_one_line_and_nothing_written(tmp_path):
    path = tmp_path / "dm.sdp"
    path.write_text(_sdp(ROWS[:2] + [ROWS[1]] + ROWS[2:]))
    out = tmp_path / "out.mrp"
    r = run_mrkit("convert", str(path), str(out), "--from", "sdp")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.splitlines() == [f"mrkit: {path}:5, graph 1: token ID '2' where 3 was expected "
                                     "(token IDs run 1, 2, ... in order)"]
    assert not out.exists()
