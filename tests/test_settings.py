"""The settings tree: every field described, the tuned numbers saying how they were set, and the
fusion, evidence and row settings reaching the code that uses them (env vars included).

Fast: no model, no Chroma (the hashing embedder and the fakes of :mod:`tests.fakes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from rag.evidence.rows import select_rows
from rag.evidence.selector import EvidenceSelector
from rag.index.catalogue import ONE_EDIT
from rag.index.embed import HashingEmbedder
from rag.protocols import evidence_settings
from rag.question.asks import read_ask
from rag.settings import EvidenceSettings, FusionSettings, RowSettings, Settings, load_settings
from store.papers import make_paper
from tests.fakes import FakeEvidence

SERVE = make_paper(
    "serve",
    "Large language models are costly to serve. We propose TinyServe, a scheduler that batches requests for "
    "language model inference. TinyServe reduces latency by 40% on 7B and 13B models. A limitation of TinyServe "
    "is that it cannot handle streaming requests. Code is available at https://github.com/x/tinyserve.",
)
HOW_SET = re.compile(r"set by hand|not fitted|not varied|chosen on|calibrated on|measured", re.I)
"""What a tuned number's description says about how it was set."""


def _fields(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, type[BaseModel], str]]:
    """``(dotted name, section, field name)`` of every leaf field of a settings model."""
    for name, field in model.model_fields.items():
        sub = field.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel):
            yield from _fields(sub, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", model, name


def test_every_leaf_field_has_a_description():
    missing = [dotted for dotted, model, name in _fields(Settings) if not model.model_fields[name].description]
    assert missing == []


@pytest.mark.parametrize("section", [FusionSettings, EvidenceSettings, RowSettings])
def test_every_tuned_number_says_how_it_was_set(section: type[BaseModel]):
    silent = [
        dotted
        for dotted, model, name in _fields(section)
        if model is section and not HOW_SET.search(model.model_fields[name].description or "")
    ]
    assert silent == []


def test_nested_sections_read_their_environment_variables(monkeypatch):
    monkeypatch.setenv("PAPERCHAT_RETRIEVAL__FUSION__DENSE_WEIGHT", "0.45")
    monkeypatch.setenv("PAPERCHAT_EVIDENCE__COSINE_WEIGHT", "0.7")
    monkeypatch.setenv("PAPERCHAT_EVIDENCE__ROWS__MIN_SCORE", "0.4")
    s = load_settings()
    assert (s.retrieval.fusion.dense_weight, s.evidence.cosine_weight, s.evidence.rows.min_score) == (0.45, 0.7, 0.4)
    assert s.retrieval.fusion.lexical_weight == FusionSettings().lexical_weight  # the others keep their defaults


def test_a_label_match_is_a_label_one_edit_away_or_closer():
    # Retrieval.names (no coverage rerank) and NameReader.named (ONE_EDIT) must agree on what names a paper.
    assert FusionSettings().label_match == ONE_EDIT


def test_an_evidence_source_without_settings_scores_with_the_defaults():
    assert evidence_settings(FakeEvidence()) == EvidenceSettings()
    tuned = EvidenceSettings(aspect_floor=0.5)
    assert evidence_settings(EvidenceSelector(HashingEmbedder(), [], tuned)) is tuned


def test_rows_read_the_evidence_sources_row_settings():
    class Tuned(FakeEvidence):
        settings = EvidenceSettings(rows=RowSettings(semantic_weight=0.0, cue_weight=0.0, uncued_weight=0.0))

    # Defaults: "We propose TinyServe, ..." holds the approach row's strong cue and fills its cell.
    assert select_rows(FakeEvidence([SERVE]), SERVE)["approach"]
    # With every weight 0 every row score is 0, below min_score: each cell is "not stated in the abstract".
    assert all(cell == () for cell in select_rows(Tuned([SERVE]), SERVE).values())
    # An explicit min_score still wins over the settings' (0 <= 0: the first sentence is taken).
    assert select_rows(Tuned([SERVE]), SERVE, min_score=0.0)["approach"]


def test_the_selector_applies_its_availability_factor():
    # "How does TinyServe batch requests?" asks for no link, so the five-word availability sentence
    # keeps availability_factor of the score it has when the factor is 1.
    ask = read_ask("How does TinyServe batch requests?")
    assert not ask.link

    def code_score(settings: EvidenceSettings) -> float:
        scored = EvidenceSelector(HashingEmbedder(), [SERVE], settings).score(ask, SERVE)
        return next(e.score for e in scored if e.sentence.startswith("Code is available"))

    plain = code_score(EvidenceSettings(availability_factor=1.0))
    assert plain > 0
    assert code_score(EvidenceSettings()) == pytest.approx(EvidenceSettings().availability_factor * plain)
