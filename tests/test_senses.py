"""Words of a sentence that state a question's term in other words (rag/evidence/senses.py).

The embedder is a hand-computable fake: each word's vector is a row of a table, so every cosine
can be checked on paper; the real embedder's calibration is ``benchmarks/senses.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from rag.evidence.senses import SENSE_SIMILARITY, WordSenses, calibration, evidence_senses

# unit vectors: "alter" and "change" share a direction (cosine 1), "shift" is at 0.8 from them (above
# SENSE_SIMILARITY), "keep" at 0.6 (below); every other word has an axis of its own (cosine 0)
_TABLE = {
    "change": (1.0, 0.0, 0.0),
    "alter": (1.0, 0.0, 0.0),
    "shift": (0.8, 0.6, 0.0),
    "keep": (0.6, 0.8, 0.0),
}


_AXES: dict[str, int] = {}
_DIM = 64


def _embed(texts: list[str]) -> np.ndarray:
    out = np.zeros((len(texts), _DIM), dtype=np.float32)
    for i, t in enumerate(texts):
        if t in _TABLE:
            out[i, :3] = _TABLE[t]
        else:
            out[i, 3 + _AXES.setdefault(t, len(_AXES) % (_DIM - 3))] = 1.0
    return out


def _words(sentence: str, spans: list[tuple[int, int]]) -> list[str]:
    return [sentence[a:b] for a, b in spans]


def test_a_word_near_in_sense_states_the_term_and_one_farther_does_not():
    senses = WordSenses(_embed)
    sentence = "Our planner alters the schedule and keeps the budget, with no shift in cost."
    assert _words(sentence, senses("change", sentence)) == ["alters", "shift"]
    assert 0.6 < SENSE_SIMILARITY < 0.8  # the table's two sides of the threshold


def test_a_derived_word_states_the_term_whatever_the_embedder_says():
    senses = WordSenses(_embed)
    # Snowball stems "reduction" and "reducing" apart; the one is derived from the other's base
    sentence = "The scheduler is reducing tail latency on every trace."
    assert _words(sentence, senses("reduction", sentence)) == ["reducing"]
    # a sibling of another sense is no form of it: an optimizer is no optimization
    assert senses("optimizer", "We study the optimization of sparse objectives.") == []


@pytest.mark.parametrize("term", ["learning rate", "of", "rl", "GPT-4"])
def test_a_phrase_a_stop_word_or_a_short_or_coined_term_is_not_looked_for(term):
    assert WordSenses(_embed)(term, "We alter the learning schedule of the RL agent built on GPT-4.") == []


def test_the_words_asked_themselves_are_not_reported_again():
    # the term as written is the key check's, not the senses'
    assert WordSenses(_embed)("change", "Changes to the prompt are small.") == []


def test_a_source_without_senses_gives_none():
    class Fake:
        pass

    assert evidence_senses(Fake()) is None
    carrier = Fake()
    carrier.senses = WordSenses(_embed)  # type: ignore[attr-defined]
    assert evidence_senses(carrier) is carrier.senses  # type: ignore[attr-defined]


def test_the_calibration_bounds_false_senses_and_judges_each_pair_left_out():
    sims = {("a", "b"): 0.9, ("c", "d"): 0.8, ("e", "f"): 0.7, ("g", "h"): 0.5, ("i", "j"): 0.4, ("k", "l"): 0.2}
    pairs = [
        ("a", "b", True), ("c", "d", True), ("e", "f", False), ("g", "h", True), ("i", "j", False), ("k", "l", False),
    ]
    threshold, right, loo = calibration(pairs, lambda a, b: sims[(a, b)])
    # no other-sense pair may pass (5% of 3 is 0): the cut sits above 0.7, refusing "g"/"h"
    assert threshold == pytest.approx(0.75)
    assert right == 5
    # leaving "e"/"f" out lowers the cut to 0.45, which lets it pass when judged: one more wrong
    assert loo == 4
