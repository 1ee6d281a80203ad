"""Golden table: ``<permissions>`` -> (cc_by, url): the licence rule of the chemref JATS corpora."""

from __future__ import annotations

import pytest
from tests.jats_helpers import article

from chemref import read_jats

BY4 = "http://creativecommons.org/licenses/by/4.0/"

CASES = [
    pytest.param(f'<license xlink:href="{BY4}"><license-p>Open access under CC BY.</license-p></license>',
                 (True, BY4), id="cc-by-url"),
    pytest.param(f'<license><ali:license_ref>{BY4}</ali:license_ref><license-p>Distributed under the '
                 'Creative Commons Attribution License.</license-p></license>', (True, BY4), id="ali-license-ref"),
    pytest.param('<license><license-p>Distributed under <ext-link ext-link-type="uri" '
                 'xlink:href="https://creativecommons.org/licenses/by/3.0/">CC BY 3.0</ext-link>.</license-p>'
                 '</license>', (True, "https://creativecommons.org/licenses/by/3.0/"), id="ext-link-in-license-p"),
    pytest.param('<license xlink:href="https://creativecommons.org/licenses/by-nc/4.0/"><license-p>'
                 'Attribution-NonCommercial</license-p></license>',
                 (False, "https://creativecommons.org/licenses/by-nc/4.0/"), id="cc-by-nc"),
    pytest.param('<license xlink:href="https://creativecommons.org/licenses/CC-BY/4.0/"><license-p>'
                 'Creative Commons Attribution-NonCommercial-NoDerivatives License</license-p></license>',
                 (False, "https://creativecommons.org/licenses/CC-BY/4.0/"), id="by-url-nc-text"),
    pytest.param('<license xlink:href="https://creativecommons.org/licenses/by-sa/4.0/"><license-p>x</license-p>'
                 '</license>', (False, "https://creativecommons.org/licenses/by-sa/4.0/"), id="cc-by-sa"),
    pytest.param('<license xlink:href="http://creativecommons.org/publicdomain/zero/1.0/"><license-p>CC0'
                 '</license-p></license>', (False, "http://creativecommons.org/publicdomain/zero/1.0/"),
                 id="cc0-only"),
    pytest.param(f'<license xlink:href="{BY4}"><license-p>Creative Commons Attribution License. The Creative '
                 'Commons Public Domain Dedication waiver (http://creativecommons.org/publicdomain/zero/1.0/) '
                 'applies to the data made available in this article.</license-p></license>',
                 (True, BY4), id="cc-by-with-cc0-data-waiver"),
    pytest.param('<license xlink:href="http://creativecommons.org/publicdomain/zero/1.0/"><license-p>x</license-p>'
                 f'</license><license xlink:href="{BY4}"><license-p>y</license-p></license>',
                 (False, "http://creativecommons.org/publicdomain/zero/1.0/"), id="cc0-and-by-without-waiver"),
    pytest.param('<copyright-statement>This is an open-access article distributed under the terms of the '
                 'Creative Commons Attribution License, which permits unrestricted use.</copyright-statement>',
                 (True, None), id="text-only-plos"),
    pytest.param('<copyright-statement>This is an open-access article distributed under the terms of the '
                 'Public Library of Science Open-Access License.</copyright-statement>', (False, None),
                 id="plos-old-open-access-license"),
    pytest.param('<copyright-statement>© 2020 Elsevier. All rights reserved.</copyright-statement>', (False, None),
                 id="all-rights-reserved"),
    pytest.param('<license xlink:href="https://pubs.acs.org/page/policy/authorchoice_ccby_termsofuse.html">'
                 '<license-p>This is an open access article published under a Creative Commons Attribution '
                 '(CC-BY) License.</license-p></license>',
                 (True, "https://pubs.acs.org/page/policy/authorchoice_ccby_termsofuse.html"), id="acs-ccby"),
    pytest.param('<license xlink:href="https://pubs.acs.org/page/policy/authorchoice_termsofuse.html">'
                 '<license-p>This is an open access article published under an ACS AuthorChoice License, which '
                 'permits copying and redistribution of the article or any adaptations for non-commercial '
                 'purposes.</license-p></license>',
                 (False, "https://pubs.acs.org/page/policy/authorchoice_termsofuse.html"), id="acs-authorchoice"),
    pytest.param('', (False, None), id="no-permissions"),
]


@pytest.mark.parametrize("permissions, expected", CASES)
def test_license(permissions: str, expected: tuple[bool, str | None]) -> None:
    meta = f"<permissions>{permissions}</permissions>" if permissions else ""
    lic = read_jats(article("<p>x</p>", meta=meta)).license
    assert (lic.cc_by, lic.url) == expected


def test_license_text_is_kept() -> None:
    meta = f'<permissions><license xlink:href="{BY4}"><license-p>Open   access\n under CC BY.</license-p></license></permissions>'
    assert read_jats(article("<p>x</p>", meta=meta)).license.text == "Open access under CC BY."


@pytest.mark.slow
def test_every_dev_article_is_cc_by() -> None:
    from tests.helpers import shared_path

    folder = shared_path("corpora", "jats", "dev")
    not_cc_by = [p.name for p in sorted(folder.glob("*.nxml")) if not read_jats(p).license.cc_by]
    assert not_cc_by == []
