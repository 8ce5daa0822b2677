"""A warm process (the page, the API, the MCP server) loads at start what its first question would
otherwise wait for (issue 34: the first question with a typing error after start took 4-7 s, reading
the language detector's dictionaries, while a later one took a fraction of a second).

The dictionaries are counted as the detector reads them from disk: a fresh cache stands for a fresh
process (the real one is put back after each test).
"""

from __future__ import annotations

import functools

import pytest

pytestmark = pytest.mark.slow  # the real embedder and Chroma store

TYPO = "What does APM propse?"
"""Under 60 % of its words are English words: the language check weighs the other six languages."""


@pytest.fixture()
def loaded(monkeypatch) -> list[str]:
    """The languages whose dictionary is read from disk from now on (a fresh, empty cache)."""
    from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY as factory

    read: list[str] = []
    uncached = factory._get_dictionary_uncached

    def reading(lang: str):
        read.append(lang)
        return uncached(lang)

    monkeypatch.setattr(factory, "_get_dictionary", functools.lru_cache(maxsize=8)(reading))
    return read


def test_without_warming_the_first_typing_error_reads_the_dictionaries(extractive, loaded):
    extractive.pipeline.read(TYPO)
    assert len(set(loaded)) >= 6, loaded  # the control: what a cold process waits for


def test_after_warming_the_first_question_with_a_typing_error_reads_nothing_from_disk(extractive, loaded):
    from ui.warm import load_warmed

    assert load_warmed(lambda: extractive) is extractive
    assert len(set(loaded)) >= 6  # read while starting
    before = len(loaded)
    plan = extractive.pipeline.read(TYPO)
    assert len(loaded) == before, loaded[before:]
    assert plan.english  # read as the English question it is
    turn = extractive.conversation().ask(TYPO)
    assert len(loaded) == before and turn.answer.cited_ids == ["000_6b930c46f6674b66#2"]  # APM


def test_the_page_renders_one_answer_before_serving_and_keeps_none_of_its_files(extractive):
    from ui.exports import bibtex_key
    from ui.handlers import Handlers

    handlers = Handlers(extractive)
    before = set(handlers.export_root.glob("*")) if handlers.export_root.exists() else set()
    bibtex_key.cache_clear()  # as in a fresh process
    assert handlers.warm_up(TYPO) > 0
    # the first export's keys of the whole collection are computed (told apart across all papers)
    assert bibtex_key.cache_info().currsize == len(extractive.retriever.papers)
    assert set(handlers.export_root.glob("*")) == before  # the throwaway session's files are gone
