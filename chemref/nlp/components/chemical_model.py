"""The trained NER of the ``chemref_chemicals`` component: where it ships, how a saved one is read, and the checks
its config and settings pass before spaCy builds anything from them (a damaged or hostile file is an
:class:`~chemref.errors.InputError`, never a crash)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spacy.language import Language
from thinc.api import Config

from chemref._io.limits import read_limited
from chemref.errors import InputError
from chemref.jsonl import check_schema, read_json
from chemref.nlp.components.chemical_features import (
    register_architectures,
)

LABEL = "CHEMICAL"
MODEL_DIR = Path(__file__).resolve().parents[1] / "data" / "chemicals_model"
_CONFIG = "config.cfg"


def model_meta(path: str | Path = MODEL_DIR) -> dict[str, Any]:
    """The model's meta: its scores on devel, its training data and their CC BY attribution.

    Args:
        path: The model folder (default: the shipped model).

    Returns:
        The parsed ``meta.json`` of ``path``.
    """
    return json.loads((Path(path) / "meta.json").read_text(encoding="utf-8"))


def _build_ner(nlp: Language, path: Path, name: str) -> Any:
    """The trained spaCy ``ner`` pipe stored in ``path`` (its config block, weights and moves), its config and
    ``cfg`` checked first (:func:`_checked_config`, :data:`_SAVED_CFG`)."""
    if not (path / _CONFIG).is_file():
        raise InputError("no chemicals model here (config.cfg missing)", path=str(path),
                         hint="reinstall chemref, or save the pipeline again with nlp.to_disk()")
    text = read_limited(path / _CONFIG, limit=_MAX_CONFIG_BYTES).decode("utf-8", "replace")
    config = _checked_config(text, str(path / _CONFIG))
    if (path / "cfg").exists():
        read_json(path / "cfg", what="invalid chemicals model settings", schema=_SAVED_CFG, limit=_MAX_CONFIG_BYTES,
                  hint=_TAMPERED)
    ner = _ner_from_config(nlp, config, name)
    try:
        ner.from_disk(path, exclude=("vocab",))
    except (ValueError, KeyError, TypeError, IndexError, OSError) as exc:
        raise InputError(f"the chemicals model cannot be loaded ({type(exc).__name__}: {str(exc)[:200]})",
                         path=str(path), hint=_TAMPERED) from None
    return ner, config


#: largest config.cfg or cfg of a saved chemicals model (the shipped ones are about 3 kB)
_MAX_CONFIG_BYTES = 1 << 20
_TAMPERED = "save the pipeline again with nlp.to_disk(), or reinstall chemref"


def _int(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


_SCALAR = {"anyOf": [{"type": ["null", "boolean"]}, {"type": "string", "maxLength": 200},
                     {"type": "number", "minimum": -1e6, "maximum": 1e6}]}
#: The ``cfg`` spaCy saves beside a parser's weights: sizes within what a model of this kind uses (a beam
#: width of 999999999 crashes the interpreter).
_SAVED_CFG: dict[str, Any] = {
    "type": "object", "maxProperties": 32,
    "properties": {
        "beam_width": _int(1, 64), "beam_density": {"type": "number", "minimum": 0, "maximum": 1},
        "beam_update_prob": {"type": "number", "minimum": 0, "maximum": 1},
        "update_with_oracle_cut_size": _int(1, 100_000), "min_action_freq": _int(0, 1_000_000),
        "learn_tokens": {"type": "boolean"}, "multitasks": {"type": "array", "maxItems": 8},
        "moves": {"type": ["null", "string"], "maxLength": 100_000},
        "incorrect_spans_key": {"type": ["null", "string"], "maxLength": 200},
    },
    "additionalProperties": _SCALAR,
}
_ROWS = {"type": "array", "minItems": 1, "maxItems": 16, "items": _int(1, 2_000_000)}
#: The ``[components.ner]`` block of the model's config.cfg: the ``ner`` factory, and layer sizes within what a
#: model of this kind uses (a width or depth of millions would take the machine).
_NER_BLOCK: dict[str, Any] = {
    "type": "object", "required": ["factory", "model"],
    "properties": {
        "factory": {"const": "ner"}, "moves": {"type": ["null", "string"], "maxLength": 100_000},
        "update_with_oracle_cut_size": _int(1, 100_000),
        "incorrect_spans_key": {"type": ["null", "string"], "maxLength": 200},
        "model": {"$ref": "#/definitions/layer"}, "scorer": {"$ref": "#/definitions/layer"},
    },
    "additionalProperties": _SCALAR,
    "definitions": {"layer": {
        "type": "object", "maxProperties": 32,
        "properties": {
            "width": _int(1, 1024), "hidden_width": _int(1, 1024), "depth": _int(1, 16), "window_size": _int(0, 8),
            "maxout_pieces": _int(1, 8), "nO": {"anyOf": [{"type": "null"}, _int(1, 10_000)]},
            "rows": _ROWS, "class_rows": _ROWS,
            **{key: {"$ref": "#/definitions/layer"} for key in ("model", "tok2vec", "embed", "encode", "upper", "lower")},
        },
        "additionalProperties": {"anyOf": [
            _SCALAR, {"type": "array", "maxItems": 16, "items": _SCALAR}, {"$ref": "#/definitions/layer"}]},
    }},
}


def _checked_config(text: str, where: str) -> Any:
    """The interpolated config of a chemicals model from the text of its config.cfg, its ``[components.ner]``
    block checked (:data:`_NER_BLOCK`) before spaCy builds anything from it."""


    try:
        config = Config().from_str(text, interpolate=True)
        block = config["components"]["ner"]
    except Exception as exc:  # noqa: BLE001 - confection raises many kinds for a damaged file
        raise InputError(f"the chemicals model's config cannot be read ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:200] if str(exc) else ''})", path=where, hint=_TAMPERED) from None
    check_schema(_plain(block), _NER_BLOCK, what="invalid chemicals model config [components.ner]", path=where,
                 hint=_TAMPERED)
    return config


def _plain(value: Any) -> Any:
    """A config block as plain dicts and lists (what a JSON Schema checks)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _ner_from_config(nlp: Language, config: Any, name: str) -> Any:
    """An untrained ``ner`` pipe built from the ``[components.ner]`` block of a training config."""
    register_architectures()
    block = dict(config["components"]["ner"])
    factory = block.pop("factory")
    nlp.vocab.strings.add(LABEL)
    return nlp.create_pipe(factory, name=name + ".ner", config=block)
