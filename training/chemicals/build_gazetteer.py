"""Build ``chemref/nlp/data/chemicals_gazetteer.json``: one-word drug and chemical names for chemref_chemicals.

    pip install drug-named-entity-recognition==2.0.9    # MIT; its dictionary is read here, never at run time
    PYTHONPATH=. python training/chemicals/build_gazetteer.py

Names come from the dictionary shipped in the ``drug-named-entity-recognition`` package (MIT, Fast Data
Science Ltd; compiled from the DrugBank open vocabulary, MeSH, MedlinePlus, the NHS and Wikipedia). Kept:
one-word names of at least four characters, minus enzyme, antibody and protein names (-ase, -mab, -cept,
-ins, -ogen). The rule's stoplist: words that occur in the BC5CDR train split but never inside a chemical
mention there ("analgesic", "cdna": class words and proteins the corpus does not call chemicals).
"""

from __future__ import annotations

import bz2
import json
import pickle
import re
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from chemref.reference_data import reference_path  # noqa: E402

from chemref._io import atomic_write  # noqa: E402
from chemref.nlp.chemical_corpus import read_tagged  # noqa: E402

TRAIN = reference_path("corpora", "chemicals", "bc5cdr_chem", "train.tsv", project_root=ROOT)
TARGET = ROOT / "chemref" / "nlp" / "data" / "chemicals_gazetteer.json"
_NOT_CHEMICAL = re.compile(r"(?:ase|ases|mab|cept|ins|ogen)\Z")
PACKAGE_VERSION = "2.0.9"


def main() -> int:
    from importlib.metadata import version

    if version("drug-named-entity-recognition") != PACKAGE_VERSION:
        print(f"warning: drug-named-entity-recognition {version('drug-named-entity-recognition')} installed; "
              f"the shipped list was built from {PACKAGE_VERSION}", file=sys.stderr)
    source = resources.files("drug_named_entity_recognition") / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(str(source)) as handle:
        variants = pickle.load(handle)["drug_variant_to_canonical"]  # a registry package's own data file
    inside: set[str] = set()
    seen: set[str] = set()
    for sentence in read_tagged(TRAIN):
        for start, end in sentence.spans():
            inside.update(t.lower() for t in sentence.tokens[start:end])
        seen.update(t.lower() for t in sentence.tokens)
    names = sorted(name for name in variants
                   if " " not in name and len(name) >= 4 and not _NOT_CHEMICAL.search(name))
    stoplist = sorted(name for name in names if name in seen and name not in inside)
    with atomic_write(TARGET) as handle:
        json.dump({
            "_doc": "One-word drug and chemical names (lower case): 'names' feed the GAZ feature of the "
                    "chemref_chemicals model; the gazetteer rule uses 'names' minus 'rule_stoplist'. Built by "
                    "training/chemicals/build_gazetteer.py.",
            "version": 1,
            "source": f"drug-named-entity-recognition {PACKAGE_VERSION} (PyPI), dictionary compiled from the "
                      "DrugBank open vocabulary, MeSH, MedlinePlus, NHS and Wikipedia",
            "license": (resources.files("drug_named_entity_recognition").parent
                        / f"drug_named_entity_recognition-{PACKAGE_VERSION}.dist-info" / "licenses" / "LICENSE"
                        ).read_text(encoding="utf-8"),
            "names": names,
            "rule_stoplist": stoplist,
        }, handle, ensure_ascii=False, indent=0)
        handle.write("\n")
    print(f"{len(names)} names -> {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
