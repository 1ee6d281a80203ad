"""chemref's spaCy components, registered in one place (:mod:`chemref.nlp.components.factories`).

``factories`` (the registry and the tokenizer's registration), ``pipeline`` (``chemref.load``), ``bridge``
(``make_doc``: JATS paragraph to Doc), ``extensions`` (the custom attributes), ``base`` (what the components
share), ``serialize`` (JSON rule tables), and one module per component: ``citations``, ``sentencizer``,
``author_mentions``, ``claim_classifier``, ``tokenizer``, ``chemicals`` (the chemical-mention model and its
rules, with its token features in ``chemical_features``).
"""

from chemref.nlp.components import factories as _factories  # noqa: F401  (registers the factories with spaCy)
