"""Build ``chemref/nlp/data/chemicals_common_names.json``: common names of chemicals (solvents, reagents,
salts, natural products) for the ``gazetteer`` rule of chemref_chemicals.

    pip install --no-deps chemicals==1.5.2     # MIT; its identifier tables are read here, never at run time
    PYTHONPATH=. python training/chemicals/build_common_names.py

Names come from the identifier tables shipped in the ``chemicals`` package (Caleb Bell, Chemical
Engineering Design Library, MIT licence; the tables list PubChem compounds with their common names). Kept:
each compound's common name when it is one to three words of letters (hyphens and apostrophes inside
a word allowed), at least four characters long, with no digit (systematic names with locants are the
model's job). The stoplist, which the rule also applies to the ``common_names`` of
``chemref/nlp/data/chemicals_rules.json``: names that occur in the BC5CDR train split but are tagged
there in less than half of their occurrences ("saline", "water", "selective").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.errors import InputError  # noqa: E402
from training.chemicals.corpus import rarely_tagged, read_tagged  # noqa: E402
from chemref.nlp.components.chemicals import RULES_FILE  # noqa: E402

TRAIN = ROOT.parent / "shared" / "corpora" / "chemicals" / "bc5cdr_chem" / "train.tsv"
TARGET = ROOT / "chemref" / "nlp" / "data" / "chemicals_common_names.json"
PACKAGE_VERSION = "1.5.2"
TABLES = ("chemical identifiers pubchem small.tsv", "chemical identifiers pubchem large.tsv", "Inorganic db.tsv")
_NAME = re.compile(r"[a-z][a-z'\-]*[a-z](?: [a-z][a-z'\-]*[a-z]){0,2}\Z")
_COMMON_NAME_COLUMN = 8  # pubchem id, CAS, formula, MW, SMILES, InChI, InChIKey, IUPAC name, common name, synonyms...


def common_names(folder: Path) -> set[str]:
    """The kept common names of the package's identifier tables."""
    names: set[str] = set()
    for table in TABLES:
        with (folder / table).open(encoding="utf-8") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) > _COMMON_NAME_COLUMN:
                    name = parts[_COMMON_NAME_COLUMN].strip().lower()
                    if len(name) >= 4 and _NAME.match(name):
                        names.add(name)
    return names


def main() -> int:
    from importlib.metadata import PackageNotFoundError, distribution, version

    try:
        installed = version("chemicals")
    except PackageNotFoundError:
        print(f"build_common_names: the 'chemicals' package is not installed "
              f"(pip install --no-deps chemicals=={PACKAGE_VERSION})", file=sys.stderr)
        return 2
    if installed != PACKAGE_VERSION:
        print(f"warning: chemicals {installed} installed; the shipped list was built from {PACKAGE_VERSION}",
              file=sys.stderr)
    if not TRAIN.is_file():
        print(f"build_common_names: {TRAIN} is absent (the BC5CDR train split gives the stoplist)",
              file=sys.stderr)
        return 2
    dist = distribution("chemicals")  # located, not imported (importing it needs its own dependencies)
    folder = Path(dist.locate_file("chemicals/Identifiers"))
    names = common_names(folder)
    hand = set(json.loads(RULES_FILE.read_text(encoding="utf-8"))["common_names"])
    if not names:
        raise InputError("no common names found", path=str(folder), hint="check the chemicals package version")
    licence = next(Path(dist.locate_file(f)) for f in dist.files or () if Path(str(f)).name.startswith("LICENSE"))
    with atomic_write(TARGET) as handle:
        json.dump({
            "_doc": "Common names of chemicals (lower case, one to three words) for the gazetteer rule of "
                    "chemref_chemicals: 'names' minus 'rule_stoplist' (which also applies to the 'common_names' of "
                    "chemicals_rules.json). Built by "
                    "training/chemicals/build_common_names.py; not a model feature.",
            "version": 1,
            "source": f"chemicals {PACKAGE_VERSION} (PyPI; Caleb Bell, Chemical Engineering Design Library): "
                      "the common-name column of its identifier tables (PubChem compounds)",
            "license": licence.read_text(encoding="utf-8"),
            "names": sorted(names),
            "rule_stoplist": rarely_tagged(names | hand, read_tagged(TRAIN)),
        }, handle, ensure_ascii=False, indent=0)
        handle.write("\n")
    print(f"{len(names)} names -> {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
