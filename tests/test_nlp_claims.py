"""Golden table for the claim vs passing-mention classifier (chemref.nlp.claims), written for chemref.

Each case is a citing sentence with its one citation written as ``[CIT]`` and the expected label.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from nlp_helpers import blank_with, doc_with_citations
from hypothesis import given
from hypothesis import strategies as st

from chemref.nlp.claims import ClaimDecision, classify_citation

C, P = "CLAIM", "PASSING"


def _xfail(sentence: str, label: str, reason: str):
    return pytest.param(sentence, label, marks=pytest.mark.xfail(reason=reason, strict=False))


CASES = [
    # --- suppliers -------------------------------------------------------------------------------------
    ("Anhydrous toluene and triethylamine were purchased from Sigma-Aldrich and used without further purification [CIT].", P),
    ("All chemicals were obtained from commercial suppliers (Merck, Darmstadt, Germany) [CIT].", P),
    ("The protease inhibitor cocktail (Roche, Basel, Switzerland) [CIT] was added to the lysis buffer.", P),
    ("Palladium acetate was bought from Strem and stored in a desiccator [CIT].", P),
    ("Deuterated solvents were supplied by Cambridge Isotope Laboratories [CIT].", P),
    ("The ligand is commercially available and was used as received [CIT].", P),
    ("Recombinant human TNF-alpha was ordered from PeproTech through the university store [CIT].", P),
    ("Goat anti-rabbit secondary antibodies were from Jackson ImmunoResearch [CIT].", P),
    ("Zeolite powders were provided by Tosoh Corporation [CIT].", P),
    ("Graphite flakes (Alfa Aesar, 99.8%) [CIT] served as the starting material.", P),
    # --- reagents, gifts, strains -----------------------------------------------------------------------
    ("The pGL3 reporter plasmid was kindly provided by Dr. Tanaka [CIT].", P),
    ("Anti-FLAG antibody was a generous gift from the Ito laboratory [CIT].", P),
    ("The knockout mice were generated as previously described [CIT].", P),
    ("Strain BY4741 [CIT] was used as the wild-type background for all deletions.", P),
    ("Compound 7 was synthesised from the corresponding aldehyde following a literature procedure [CIT].", P),
    ("The HEK293T cell line was obtained from ATCC [CIT].", P),
    ("Primers for GAPDH were taken from PrimerBank [CIT].", P),
    ("The catalyst precursor [Rh(cod)Cl]2 was prepared according to the published method [CIT].", P),
    ("Cells were transfected with Lipofectamine 3000 [CIT] at 70% confluence.", P),
    ("Total RNA was isolated with TRIzol reagent [CIT].", P),
    # --- kits and "according to the manufacturer" -----------------------------------------------------
    ("Protein concentration was determined with a BCA assay kit [CIT].", P),
    ("Apoptosis was measured with an Annexin V detection kit according to the manufacturer's instructions [CIT].", P),
    ("Genomic DNA was extracted using the DNeasy Blood and Tissue Kit [CIT].", P),
    ("Libraries were prepared following the manufacturer's protocol [CIT].", P),
    ("Staining was carried out according to the supplier's recommendations [CIT].", P),
    ("Lactate levels in the supernatant were quantified with a colorimetric kit [CIT].", P),
    ("cDNA synthesis followed the instructions of the manufacturer [CIT].", P),
    ("The ELISA was run as recommended by the manufacturer [CIT].", P),
    # --- instruments -----------------------------------------------------------------------------------
    ("1H NMR spectra were recorded on a Bruker Avance 400 MHz spectrometer [CIT].", P),
    ("Powder X-ray diffraction patterns were collected on a Rigaku diffractometer with Cu K-alpha radiation [CIT].", P),
    ("Images were acquired with a Zeiss LSM 880 confocal microscope [CIT].", P),
    ("Particle size distributions were measured on a Zetasizer Nano ZS [CIT].", P),
    ("Absorbance at 450 nm was read on a microplate reader [CIT].", P),
    ("Flow cytometry data were acquired on a BD FACSCanto II cytometer [CIT].", P),
    ("Thermogravimetric analysis was performed on a TA Instruments Q500 under nitrogen [CIT].", P),
    ("Cyclic voltammograms were recorded using a CHI 660E electrochemical workstation [CIT].", P),
    # --- software ----------------------------------------------------------------------------------------
    ("All statistical analyses were performed in GraphPad Prism 9 [CIT].", P),
    ("Geometries were optimised with Gaussian 16 [CIT] at the B3LYP/def2-TZVP level.", P),
    ("Reads were aligned to the reference genome using STAR [CIT].", P),
    ("Differential expression was assessed with the DESeq2 package [CIT].", P),
    ("Images were processed in ImageJ [CIT].", P),
    ("Molecular graphics were rendered with PyMOL [CIT].", P),
    ("The structure was solved with SHELXT [CIT] and refined with SHELXL.", P),
    ("Phylogenetic trees were inferred using RAxML version 8.2.12 [CIT].", P),
    ("Mixed models were fitted with the lme4 package in R [CIT].", P),
    ("Docking was carried out with AutoDock Vina [CIT] using default settings.", P),
    ("Molecular dynamics simulations were run with GROMACS 2020 [CIT].", P),
    ("We used the scikit-learn library [CIT] to train the random forest.", P),
    ("Peak fitting was done in CasaXPS [CIT].", P),
    ("Sequence alignments were generated with MAFFT [CIT].", P),
    ("Protein was measured with the Bradford assay [CIT].", P),
    ("Band intensities were quantified using densitometry software [CIT].", P),
    ("Crystallite sizes were estimated with the Scherrer equation [CIT].", P),
    # --- as described / protocols / as in -----------------------------------------------------------
    ("Mitochondria were isolated as described previously [CIT].", P),
    ("Western blotting was performed as described [CIT].", P),
    ("The assay was carried out as in [CIT].", P),
    ("Immunohistochemistry was done as previously reported [CIT] with minor modifications.", P),
    ("Nanoparticles were synthesised by a modified Turkevich method [CIT].", P),
    ("Graphene oxide was prepared by a modified Hummers method [CIT].", P),
    ("The cells were cultured following an established protocol [CIT].", P),
    ("Samples were digested according to a standard procedure [CIT].", P),
    ("Surface area was calculated according to the BET method [CIT].", P),
    ("The procedure was adapted from earlier work [CIT].", P),
    ("Details of the cohort have been described elsewhere [CIT].", P),
    ("The sampling design is described in detail elsewhere [CIT].", P),
    ("Quantum yields were determined as described by Smith et al. [CIT].", P),
    ("Animals were housed and treated as described before [CIT].", P),
    ("The patch-clamp recordings followed the protocol of our previous study [CIT].", P),
    # --- data sources and pointers ------------------------------------------------------------------
    ("Crystal structures were downloaded from the Protein Data Bank [CIT].", P),
    ("Expression data were obtained from the GTEx portal [CIT].", P),
    ("Climate variables were extracted from WorldClim [CIT].", P),
    ("The raw sequencing data are available under accession number GSE12345 [CIT].", P),
    ("Mortality data were retrieved from the national registry [CIT].", P),
    ("For a review, see [CIT].", P),
    ("For details of the synthesis, see [CIT].", P),
    ("This topic has been reviewed in [CIT].", P),
    ("See [CIT] for a comprehensive overview of perovskite degradation.", P),
    # --- real claims: findings, numbers, mechanisms ---------------------------------------------------
    ("Lithium iron phosphate retains 95% of its capacity after 1000 cycles at 1 C [CIT].", C),
    ("Silencing of ATG5 markedly reduces autophagic flux in cardiomyocytes [CIT].", C),
    ("The rate-determining step of the reaction is the oxidative addition of the aryl chloride to Pd(0) [CIT].", C),
    ("Mutations in BRCA1 increase the lifetime risk of breast cancer to about 70% [CIT].", C),
    ("Previous studies have shown that the enzyme is inhibited by micromolar concentrations of zinc [CIT].", C),
    ("Copper single-atom catalysts convert CO2 to methanol with 80% selectivity [CIT].", C),
    ("Metformin activates AMPK in hepatocytes [CIT].", C),
    ("The band gap of anatase TiO2 is about 3.2 eV [CIT].", C),
    ("It has been proposed that the toxicity arises from mitochondrial uncoupling [CIT].", C),
    ("Our findings are consistent with earlier reports of reduced synaptic density in these mice [CIT].", C),
    ("In contrast to MOF-5, the zirconium framework is stable in boiling water [CIT].", C),
    ("Perovskite solar cells have exceeded 25% power conversion efficiency [CIT].", C),
    ("Gut microbiota composition is associated with insulin resistance in obese adults [CIT].", C),
    ("Ferroptosis is driven by iron-dependent lipid peroxidation [CIT].", C),
    ("Smith et al. found that the transition state is stabilised by a hydrogen bond [CIT].", C),
    ("The half-life of the complex in plasma is 12 h [CIT].", C),
    ("Amyloid-beta oligomers impair long-term potentiation in hippocampal slices [CIT].", C),
    ("Nickel-rich cathodes suffer from surface reconstruction that leads to capacity fade [CIT].", C),
    ("Tau phosphorylation precedes neurofibrillary tangle formation [CIT].", C),
    ("These results agree with the reported crystal structure of the apo enzyme [CIT].", C),
    ("Cisplatin binds preferentially to the N7 position of guanine [CIT].", C),
    ("Loss of PTEN leads to constitutive activation of the PI3K pathway [CIT].", C),
    ("The incidence of type 2 diabetes has doubled over the past three decades [CIT].", C),
    ("Water oxidation on hematite is limited by slow hole transfer kinetics [CIT].", C),
    ("The antibody neutralises all known variants of the virus in vitro [CIT].", C),
    ("Heavy metal exposure has been linked to impaired cognitive development in children [CIT].", C),
    ("Ceria nanoparticles scavenge reactive oxygen species through a Ce3+/Ce4+ redox cycle [CIT].", C),
    ("A single dose of ketamine produces rapid antidepressant effects [CIT].", C),
    ("The deletion mutant grows normally but is hypersensitive to oxidative stress [CIT].", C),
    ("Hydrogen bonding between the urea groups drives self-assembly into fibres [CIT].", C),
    ("Covalent organic frameworks can be crystallised as single crystals of up to 100 um [CIT].", C),
    ("Microplastics have been detected in human placenta [CIT].", C),
    ("The compound shows nanomolar affinity for the serotonin transporter [CIT].", C),
    ("Electron-withdrawing substituents accelerate the cycloaddition [CIT].", C),
    ("Adult zebrafish regenerate their heart after partial resection [CIT].", C),
    ("Singlet fission can generate two triplet excitons from one absorbed photon [CIT].", C),
    ("The protein forms liquid droplets at physiological salt concentrations [CIT].", C),
    ("Biochar amendment increases soil organic carbon by 20-40% [CIT].", C),
    # --- claim sentences with passing-looking words (traps) --------------------------------------------
    ("Kits for point-of-care detection perform poorly at low viral loads [CIT].", C),
    ("The Bradford assay underestimates proline-rich proteins [CIT].", C),
    ("MTT reduction does not always reflect the number of viable cells [CIT].", C),
    ("Sigma-1 receptor agonists protect neurons against excitotoxicity [CIT].", C),
    ("The method overestimates binding energies by about 5 kcal/mol for charged complexes [CIT].", C),
    ("AlphaFold predicts protein structures with near-experimental accuracy [CIT].", C),
    ("Using a mouse model, Chen et al. demonstrated that IL-6 drives muscle wasting [CIT].", C),
    ("As previously reported, the mutation abolishes kinase activity [CIT].", C),
    ("According to recent estimates, 10% of adults are affected by chronic kidney disease [CIT].", C),
    ("Merck's compound MK-801 blocks NMDA receptor channels in a use-dependent manner [CIT].", C),
    ("Density functional calculations predict that the anti conformer is more stable by 2 kcal/mol [CIT].", C),
    ("Protocols based on cold exposure increase brown fat activity in humans [CIT].", C),
    # --- regressions from the hand audit of the dev-corpus questions (named after the error class) ---------
    # comparison with reported values: the participle describes the compared sample, not our usage
    ("The lattice constant of 4.21 Å is close to those reported for films grown by sputtering [CIT].", C),
    ("Turnover frequencies were four times higher than on bare ceria measured in the same reactor [CIT].", C),
    ("The band gap of 2.9 eV is comparable to the values reported for nanocrystals prepared by hot injection [CIT].", C),
    # reported finding of others: usage words describe the cited work
    ("A previous report suggested that the promoter is silenced when the reporter construct was used in neurons [CIT].", C),
    ("In another study, a porous carbon electrode was prepared by freeze-drying with cellulose additives [CIT].", C),
    ("Previous successful examples include a thermophile whose proteome was annotated using proteogenomic analysis [CIT].", C),
    ("For instance, operando Raman measurements were used to monitor the oxidation state of nickel during water splitting [CIT].", C),
    ("Recently, neutron diffraction was employed to probe the hydrogen positions in the hydride phase [CIT].", C),
    ("According to a previous study, zinc stimulated epithelial cell growth at low doses in serum-free medium [CIT].", C),
    # "as previously reported/published" as a frame for a finding is a claim; attached to a procedure it is not
    ("As previously published [CIT], in situ hybridisation showed the transcript in the somites at the 10-somite stage.", C),
    ("The peak at m/z 301 may be a glucuronide, as previously reported [CIT].", C),
    ("The recombinant enzyme was produced in Pichia pastoris as previously reported [CIT].", P),
    ("Substrate concentrations were taken as previously published [CIT].", P),
    ("The chromatographic conditions were as previously reported [CIT].", P),
    ("According to the literature, the optimal n-6:n-3 ratio ranges from 1:1 to 4:1 [CIT].", C),
    ("Candidate reference genes according to the literature [CIT] were tested for stability.", P),
    # generic heads are no method names ("such techniques", "decision tools", "mouse model", "potential")
    ("Somaclonal variation is a major drawback of such techniques [CIT].", C),
    ("The nanoparticles reduced memory deficits only when co-delivered in an AD mouse model [CIT].", C),
    ("Stilbenoids show a wide range of bioactive potentials [CIT].", C),
    ("Apoptosis involves loss of the mitochondrial membrane potential [CIT].", C),
    ("Enrichment was analysed with the DAVID annotation tool [CIT].", P),
    ("Kinetics were fitted with the logistic equation [CIT].", P),
    # finding verbs with an instrument are findings unless a verb form says we did it
    ("The size of the foci observed by fluorescence microscopy [CIT] matches the model.", C),
    ("Foci were observed with a confocal microscope [CIT].", P),
    # "obtained" alone means achieved; a protein family named like a program is no software
    ("Yields of up to 90% were obtained after 18 h with improved catalyst recycling [CIT].", C),
    ("Receptor activation releases HOMER proteins from the scaffold [CIT].", C),
    ("Natural products resemble drugs more than synthetic libraries do [CIT].", C),
    # data sources, URLs, reagents next to the citation
    ("Our analysis of the organoid dataset ([CIT]; GSE123133) revealed enrichment of glycolysis genes.", P),
    ("Raw results are given in the underlying data [CIT].", P),
    ("Structures were taken from the SCOP domain sequence database [CIT].", P),
    ("By analysing the Top500 databank of high-resolution protein structures [CIT], we set the bin thresholds.", P),
    ("Data and code are deposited at https://zenodo.org/record/123 [CIT].", P),
    ("Cells were co-transfected with a source of transposase, pCMV-SB [CIT].", P),
    ("Bacteria were grown in standard LB (lysogeny broth [CIT]) at 37 °C.", P),
    ("Seawater was enriched with Walne's medium [CIT] before inoculation.", P),
    ("The salt is unstable in an acidic medium [CIT].", C),
    ("Compounds were identified by comparison of their retention indices with published data [CIT].", P),
    ("Modified scripts based on the Willoughby protocol [CIT] were used to confirm the energy minima.", P),
    ("Knockdown was achieved by electroporation with siRNA siRR, while a mismatch siRNA served as a control [CIT].", P),
    ("The band is consistent with cross-reactions seen in liver extracts [CIT], and serves as a loading control.", C),
    # --- hard cases kept as xfail ------------------------------------------------------------------------
    ("Magnesium sulfate was used to treat eclampsia in the trial [CIT].", C),
    _xfail("Patients who purchased supplements from pharmacies had higher vitamin D levels [CIT].", C,
           "'purchased ... from' is the supplier cue even when buying is the finding itself"),
    ("The Debye-Scherrer equation [CIT] relates crystallite size to peak broadening.", P),
    _xfail("All procedures complied with the ARRIVE guidelines [CIT].", P,
           "reporting-guideline citation: no supplier, software, protocol or usage cue"),
    _xfail("We previously showed that this strain lacks the operon [CIT], so it was used as a negative control.", C,
           "a self-citation claim followed by a usage clause in the same sentence"),
    _xfail("Ethical approval was granted by the institutional review board [CIT].", P,
           "administrative citation with no supplier, software or protocol cue"),
    _xfail("The DFT functional B3LYP [CIT] was chosen.", P,
           "bare method-name citation; needs a lexicon of functionals and basis sets"),
    # --- the citation's own clause decides (usage words in another clause do not reject a claim) --------
    ("The pellets were washed twice with PBS, whereas deletion of sodA abolished growth on succinate at 42 °C [CIT].", C),
    ("Cells were grown according to the standard protocol; loss of the pilus fully abolished adhesion to glass [CIT].", C),
    ("In our previous work, ligand 7 was synthesised and shown to bind Cu2+ with femtomolar affinity [CIT].", C),
    ("In our earlier study [CIT], the MOF was prepared by a solvothermal route and adsorbed 12 mmol g-1 CO2.", C),
    ("Using the same kit, we found that lactate rose threefold after exercise, as first reported by an earlier trial [CIT].", C),
    # --- present-tense and adverb forms of use; tool names followed by a noun; (see ...; [CIT]) -----------
    ("We use OpenMM [CIT] to run the replica-exchange simulations.", P),
    ("We therefore also used the TIP4P-Ew [CIT] water model in all simulations.", P),
    ("Ligands were parametrised with the GAFF2 [CIT] force field.", P),
    ("Local environments were described by the SOAP [CIT] representation with a 5 Å cutoff.", P),
    ("Sequences were aligned against the UniRef90 [CIT] database.", P),
    ("The diffraction data were indexed (see Materials and methods; [CIT]).", P),
    ("All structures were refined in the usual way (see, e.g., [CIT]).", P),
]


def _offsets(sentence: str) -> tuple[int, int] | None:
    pos = sentence.find("[CIT]")
    return (pos, pos + len("[CIT]")) if pos >= 0 else None


@pytest.mark.parametrize(("sentence", "expected"), CASES)
def test_golden(sentence: str, expected: str) -> None:
    decision = classify_citation(sentence, _offsets(sentence))
    assert decision.label == expected, decision


RULE_CASES = [
    ("Chemicals were purchased from Acros Organics [CIT].", "supplier"),
    ("Protein was measured with a BCA kit [CIT].", "kit"),
    ("Cells were lysed as described previously [CIT].", "as_described"),
    ("Statistics were computed with SPSS software [CIT].", "software"),
    ("Spectra were recorded on a JEOL 500 MHz spectrometer [CIT].", "instrument"),
    ("For a review see [CIT].", "pointer"),
    ("Silica is amorphous [CIT].", "default_claim"),
]


@pytest.mark.parametrize(("sentence", "rule"), RULE_CASES)
def test_rule_names(sentence: str, rule: str) -> None:
    assert classify_citation(sentence, _offsets(sentence)).rule == rule


def test_decision_shape() -> None:
    decision = classify_citation("Aspirin irreversibly inhibits COX-1 [1].", (35, 38))
    assert isinstance(decision, ClaimDecision)
    assert decision.label == "CLAIM" and 0.5 <= decision.score <= 1.0
    passing = classify_citation("Solvents were purchased from Merck [1].")
    assert passing.label == "PASSING" and 0.0 <= passing.score < 0.5


def test_bad_offsets_raise() -> None:
    with pytest.raises(ValueError):
        classify_citation("Short [1].", (5, 50))


def test_table_size() -> None:
    assert len(CASES) >= 100


def test_pure_module_does_not_import_spacy() -> None:
    code = "import sys, chemref.nlp.claims, chemref.nlp.authors; assert 'spacy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- the spaCy component ------------------------------------------------------------------------------
def test_component_cats() -> None:
    nlp = blank_with("chemref_claim_classifier")
    doc = nlp(doc_with_citations(nlp, "Solvents were purchased from Merck [4].", ["[4]"]))
    assert doc.cats["PASSING"] > 0.5 and abs(doc.cats["CLAIM"] + doc.cats["PASSING"] - 1.0) < 1e-9
    doc = nlp(doc_with_citations(nlp, "Aspirin irreversibly inhibits COX-1 [4].", ["[4]"]))
    assert doc.cats["CLAIM"] > 0.5
    doc = nlp("A sentence without any citation spans at all.")
    assert set(doc.cats) == {"CLAIM", "PASSING"}


def test_component_per_sentence() -> None:
    nlp = blank_with("chemref_claim_classifier", with_sentences=True)
    text = "Aspirin irreversibly inhibits COX-1 [4]. RNA was isolated with TRIzol [5]. No citation here."
    doc = nlp(doc_with_citations(nlp, text, ["[4]", "[5]"]))
    sents = list(doc.sents)
    assert sents[0]._.chemref_claim.label == "CLAIM"
    assert sents[1]._.chemref_claim.label == "PASSING"
    assert sents[2]._.chemref_claim is None


def test_component_serialisation_roundtrip(tmp_path) -> None:
    spacy = pytest.importorskip("spacy")
    nlp = blank_with("chemref_claim_classifier")
    nlp.to_disk(tmp_path / "model")
    assert (tmp_path / "model" / "chemref_claim_classifier" / "claims_rules.json").exists()
    loaded = spacy.load(tmp_path / "model")
    doc = loaded("For a review, see [3].")
    assert doc.cats["PASSING"] > 0.5
    assert loaded.get_pipe("chemref_claim_classifier").rules.tables == nlp.get_pipe("chemref_claim_classifier").rules.tables


def test_factory_entry_point_path() -> None:
    from chemref.nlp.claim_component import make_claim_classifier as direct
    from chemref.nlp.claims import make_claim_classifier

    assert make_claim_classifier is direct


# --- the fast engine decides exactly as a plain search of every rule ------------------------------------------
def _reference_decision(sentence: str, citation: tuple[int, int] | None) -> tuple[str, float, str | None]:
    """Every rule searched case-insensitively in its window, as the rule table's _doc says (no shortcuts)."""
    import math
    import re

    from chemref.nlp.claims import citation_clause, load_claim_tables

    tables = load_claim_tables()
    rules, lexicon = tables["rules"], tables["lexicon"]
    if citation is not None:
        start, end = citation
        c0, c1 = citation_clause(sentence, start, end)
        windows = {"before": sentence[max(0, start - 100):start], "after": sentence[end:end + 40],
                   "near": sentence[max(0, start - 45):start] + " " + sentence[end:end + 25],
                   "clause": sentence[c0:c1]}
    else:
        windows = {"before": sentence, "after": "", "near": sentence, "clause": sentence}
    stop = {w.lower() for w in lexicon.get("_not_followed_by", ())}

    def lexicon_hit(names: list[str], text: str) -> bool:
        tokens = [t.rstrip(".'’") or t for t in re.findall(r"[^\s()\[\]{},;:\"“”]+", text)]
        grams = {" ".join(n.split()) for n in names}
        for i in range(len(tokens)):
            for n in range(1, len(tokens) - i + 1):
                if " ".join(tokens[i:i + n]) in grams and (i + n == len(tokens) or tokens[i + n].lower() not in stop):
                    return True
        return False

    def fires(item: dict, passing: bool = False) -> bool:
        if item.get("gate") and not any(g in sentence.lower() for g in item["gate"]):
            return False
        scope = item.get("scope", "sentence")
        text = windows["clause"] if passing and scope == "sentence" else windows.get(scope, sentence)
        if "lexicon" in item:
            return lexicon_hit(lexicon[item["lexicon"]], text)
        return re.search(item["pattern"], text, re.IGNORECASE) is not None

    fired: dict[str, float] = {}
    local: dict[str, float] = {}
    for item in rules["passing"]:
        if fires(item, passing=True):
            fired[item["name"]] = max(fired.get(item["name"], 0.0), item["weight"])
            if item.get("scope", "sentence") != "sentence":
                local[item["name"]] = max(local.get(item["name"], 0.0), item["weight"])
    claim_total, best, cancel_all, cancel_away = 0.0, None, set(), set()
    for item in rules["claim"]:
        if fires(item):
            claim_total += item["weight"]
            if best is None or item["weight"] > best[0]:
                best = (item["weight"], item["name"])
            (cancel_all if item.get("cancels_near_citation", True) else cancel_away).update(item.get("cancels", ()))
    for name in cancel_all | (cancel_away if not local else set()):
        fired.pop(name, None)
    logit = rules["bias"] + min(claim_total, rules["claim_cap"]) - sum(fired.values())
    score = 1.0 / (1.0 + math.exp(-logit))
    if score >= rules["threshold"]:
        return "CLAIM", score, best[1] if best else "default_claim"
    return "PASSING", score, max(((w, n) for n, w in fired.items()), default=(0, None))[1]


def _case_sentences():
    for case in CASES:
        sentence = case.values[0] if hasattr(case, "values") else case[0]
        yield sentence, _offsets(sentence)


def test_fast_engine_matches_plain_search_on_the_golden_table() -> None:
    for sentence, citation in _case_sentences():
        got = classify_citation(sentence, citation)
        label, score, rule = _reference_decision(sentence, citation)
        assert (got.label, got.rule) == (label, rule) and abs(got.score - score) < 1e-12, sentence


_WORDS = st.sampled_from(
    "we were was used using previously described reported as the a of in on with by for from to and "
    "Sigma-Aldrich Merck kit assay method software R package version 2.1 database dataset GSE12345 "
    "https://x.org broth medium Walne's plasmid pGL3 source mice antibodies observed microscopy spectra "
    "recorded Bruker spectrometer higher than those close recently For example, previous study showed "
    "according literature İstanbul ſ K Ω Straße".split())


@given(words=st.lists(_WORDS, min_size=1, max_size=30), at=st.integers(min_value=0, max_value=30),
       cited=st.booleans())
def test_fast_engine_matches_plain_search_on_random_text(words: list[str], at: int, cited: bool) -> None:
    pos = min(at, len(words))
    sentence = " ".join(words[:pos] + ["[12]"] + words[pos:]) + "."
    start = sentence.index("[12]")
    citation = (start, start + 4) if cited else None
    got = classify_citation(sentence, citation)
    label, score, rule = _reference_decision(sentence, citation)
    assert (got.label, got.rule) == (label, rule) and abs(got.score - score) < 1e-12
