"""Build ``chemref/nlp/data/chemicals_gazetteer.json``: one-word drug and chemical names for chemref_chemicals.

    pip install drug-named-entity-recognition==2.0.9    # MIT; its dictionary is read here, never at run time
    PYTHONPATH=. python training/chemicals/build_gazetteer.py

Names come from the dictionary shipped in the ``drug-named-entity-recognition`` package (MIT, Fast Data
Science Ltd; compiled from the DrugBank open vocabulary, MeSH, MedlinePlus, the NHS and Wikipedia). Kept:
one-word names of at least four characters, minus enzyme, antibody and protein names (-ase, -mab, -cept,
-ins, -ogen). The rule's stoplist: words that occur in the BC5CDR train split but are tagged there in
less than half of their occurrences ("analgesic", "cdna": class words and proteins the corpus does not call
chemicals). ``--stoplist-only`` recomputes the stoplist from the names already shipped (no package needed;
the names, which are model features, stay as they are).
"""

from __future__ import annotations

import argparse
import bz2
import json
import pickle
import re
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402

from chemref._io.atomic import atomic_write  # noqa: E402
from training.chemicals.corpus import rarely_tagged, read_tagged  # noqa: E402

TRAIN = reference_path("corpora", "chemicals", "bc5cdr_chem", "train.tsv", project_root=ROOT)
TARGET = ROOT / "chemref" / "nlp" / "data" / "chemicals_gazetteer.json"
_NOT_CHEMICAL = re.compile(r"(?:ase|ases|mab|cept|ins|ogen)\Z")
PACKAGE_VERSION = "2.0.9"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stoplist-only", action="store_true",
                        help="keep the shipped names; recompute only the rule's stoplist")
    args = parser.parse_args(argv)
    if not TRAIN.is_file():
        print(f"build_gazetteer: {TRAIN} is absent (the BC5CDR train split gives the stoplist)", file=sys.stderr)
        return 2
    if args.stoplist_only:
        data = json.loads(TARGET.read_text(encoding="utf-8"))
        data["rule_stoplist"] = rarely_tagged(data["names"], read_tagged(TRAIN))
        with atomic_write(TARGET) as handle:
            json.dump(data, handle, ensure_ascii=False, indent=0)
            handle.write("\n")
        print(f"{len(data['rule_stoplist'])} stoplist words -> {TARGET}")
        return 0
    from importlib.metadata import version

    if version("drug-named-entity-recognition") != PACKAGE_VERSION:
        print(f"warning: drug-named-entity-recognition {version('drug-named-entity-recognition')} installed; "
              f"the shipped list was built from {PACKAGE_VERSION}", file=sys.stderr)
    source = resources.files("drug_named_entity_recognition") / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(str(source)) as handle:
        variants = pickle.load(handle)["drug_variant_to_canonical"]  # a registry package's own data file
    names = sorted(name for name in variants
                   if " " not in name and len(name) >= 4 and not _NOT_CHEMICAL.search(name))
    stoplist = rarely_tagged(names, read_tagged(TRAIN))
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
