"""Human label files: the study's LABEL.txt, the TSV and JSON formats, and their errors."""

from __future__ import annotations

import pytest

from conftest import shared_path
from mrkit.errors import InputError
from mrkit.metaeval import check_labels, parse_labels, read_labels

STUDY = "1.0\t1\t0\tlpp_1943.1\nsee above\n0.5\t1\t1\tlpp_1943.2\nsee above\n0.0\t0\t1\tlpp_1943.3\nsee above"


def test_study_format():
    lab = parse_labels(STUDY, "LABEL.txt")
    assert lab.preference == [1.0, 0.5, 0.0]
    assert lab.acceptable == [[1, 0], [1, 1], [0, 1]]
    assert lab.ids == ["lpp_1943.1", "lpp_1943.2", "lpp_1943.3"]
    assert lab.lines == [1, 3, 5]
    assert lab.counts() == {"items": 3, "prefer_first": 1, "prefer_second": 1, "equal": 1,
                            "acceptable": [2, 2], "judged": [3, 3]}


def test_tsv_format_with_missing_cells_and_three_systems():
    text = "# my study\nid\tpreference\taccept_a\taccept_b\taccept_c\ns1\t1\t1\t0\t1\ns2\t\t0\tNA\t1\n"
    lab = parse_labels(text, "h.tsv")
    assert lab.preference == [1.0, None]
    assert lab.acceptable == [[1, 0, 1], [0, None, 1]]
    assert lab.ids == ["s1", "s2"] and lab.lines == [3, 4]
    assert lab.counts()["acceptable"] == [1, 0, 2] and lab.counts()["judged"] == [2, 1, 2]


def test_json_format():
    lab = parse_labels('{"items": [{"id": "x", "preference": 0.5, "acceptable": [1, 0]},'
                       ' {"preference": 0}]}', "h.json")
    assert lab.preference == [0.5, 0.0] and lab.acceptable == [[1, 0], []] and lab.ids == ["x", None]


@pytest.mark.parametrize("text, message", [
    ("2\t1\t0\tx\n", "LABEL.txt:1, graph x: preference '2' must be one of 0, 0.5, 1"),
    ("1\t1\tyes\tx\n", "LABEL.txt:1, graph x: acceptability 'yes' is not a number"),
    ("1\t1\n", "LABEL.txt:1: expected PREFERENCE"),
    ("id\tpreference\tscore\n", "LABEL.txt:1: unknown column 'score'"),
    ("id\tpreference\ns1\t1\t0\n", "LABEL.txt:2: 3 columns but the header has 2"),
    ("[{\"preference\": 3}]", "LABEL.txt, graph item 1: preference '3' must be one of"),
    ("[1, 2", "LABEL.txt:1: invalid JSON"),
])
def test_label_errors_name_file_and_line(text, message):
    with pytest.raises(InputError) as err:
        parse_labels(text, "LABEL.txt")
    assert str(err.value).startswith(message)


def test_check_labels_count_ids_and_systems():
    lab = parse_labels(STUDY, "LABEL.txt")
    check_labels(lab, 3, 2, ["lpp_1943.1", None, "lpp_1943.3"])
    with pytest.raises(InputError, match="holds labels for 3 items but the gold file g.amr holds 4 graphs"):
        check_labels(lab, 4, 2, gold_file="g.amr")
    with pytest.raises(InputError, match=r"LABEL.txt:3, graph lpp_1943.2: label id 'lpp_1943.2' does not match"):
        check_labels(lab, 3, 2, ["lpp_1943.1", "lpp_1943.9", "lpp_1943.3"])
    with pytest.raises(InputError, match="2 acceptability labels but 3 systems"):
        check_labels(lab, 3, 3)


def test_real_study_labels_match_the_readme():
    path = shared_path("amr", "parseeval-little-prince", "original", "qualitylp_LABEL.txt")
    lab = read_labels(path)
    # README: 399 lines = 200 labelled pairs; the counts below were taken with grep/awk
    assert len(lab) == 200
    assert lab.counts() == {"items": 200, "prefer_first": 54, "prefer_second": 80, "equal": 66,
                            "acceptable": [116, 129], "judged": [200, 200]}
    assert lab.ids[0] == "lpp_1943.646" and lab.ids[-1] == "lpp_1943.1486"
