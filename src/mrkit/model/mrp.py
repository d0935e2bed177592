"""The MRP frameworks and their flavors: the one table the reader, the validator and
the MRP metric share.

The flavor says how a framework's nodes relate to the input string (MRP 2019, Oepen et
al., section 2): 0, bi-lexical dependencies whose nodes are tokens (DM, PSD; also PAS and
CCD, as in mtool); 1, anchored graphs whose nodes may cover any sub-string (EDS, UCCA;
also PTG of MRP 2020); 2, unanchored graphs (AMR; also DRG of MRP 2020).
"""

from __future__ import annotations

FLAVORS: dict[str, int] = {"dm": 0, "psd": 0, "pas": 0, "ccd": 0,
                           "eds": 1, "ucca": 1, "ptg": 1,
                           "amr": 2, "drg": 2}
"""Framework name (lower case) -> its MRP flavor."""
