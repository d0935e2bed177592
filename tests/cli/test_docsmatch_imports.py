"""`mrkit docsmatch` on the MS-AMR sample (the Little Prince document, 19 sentences) loads
no numpy (the compiled stage certifies its pairs), and its report is the general path's
(`MRKIT_NO_FAST_DOCSMATCH`, the engine on numpy arrays), text and JSON."""

from __future__ import annotations

import pytest

from conftest import shared_path
from import_probe import run_probed, split_probe


@pytest.fixture(scope="module")
def lpp_files(tmp_path_factory):
    from mrkit.codecs.docgraphs import write_document_graphs
    from mrkit.codecs.msamr import read_msamr
    from mrkit.docamr.build import build, no_coref

    base = shared_path("docamr", "msamr-samples")
    doc = read_msamr(base / "pp_001.xml", base / "pp.amr.txt")[0]
    tmp = tmp_path_factory.mktemp("lpp")
    files = {}
    for name, g in (("gold", build(doc, "docamr")), ("no-coref", no_coref(doc)),
                    ("no-merge", build(doc, "no-merge")), ("merge-all", build(doc, "merge-all"))):
        files[name] = str(tmp / f"{name}.amr")
        write_document_graphs([g], files[name])
    return files


@pytest.mark.parametrize("system", ["no-coref", "no-merge", "merge-all"])
@pytest.mark.parametrize("fmt", [[], ["--json"]])
def test_msamr_sample_loads_no_numpy(lpp_files, system, fmt):
    args = ["docsmatch", lpp_files["gold"], lpp_files[system], "--per-pair", *fmt]
    out = run_probed(args)
    assert out.returncode == 0, out.stderr
    report, numpy, heavy = split_probe(out.stdout)
    assert (numpy, heavy) == ("NO-NUMPY", "LIGHT")
    ref = run_probed(args, MRKIT_NO_FAST_DOCSMATCH="1")
    assert ref.returncode == 0, ref.stderr
    ref_report, ref_numpy, _ = split_probe(ref.stdout)
    assert ref_numpy == "NUMPY"  # the switch does force the general path
    assert report == ref_report
    if fmt:
        import json

        summary = json.loads(report)["summary"]
        assert summary["certified"] == 1 and summary["pairs"] == 1
    else:
        assert "Certified optimal: 1/1 pairs (100.0%)" in report
