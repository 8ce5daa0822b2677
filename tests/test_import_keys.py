"""The citation key a user's own library gave a paper (a .bib entry key, a Zotero / Better BibTeX
citation key, CSL's ``citation-key``) is read by every importer that has one, and kept in the
store (real Chroma on disk) through merges with other records and re-ingests: BibTeX exports use
it as the entry key (``tests/test_bibtex_export.py``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

from zotero_fixture import build_zotero_db

from rag.index.embed import HashingEmbedder
from rag.index.ingest import ingest_paths
from store.chroma import ChromaStore
from store.papers import make_paper, read_path


def test_readers_keep_the_key_the_users_library_gave(tmp_path: Path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{smith2023dance,\n  title = {Dance},\n  abstract = {We dance.},\n  doi = {10.1/d}\n}\n")
    csl = tmp_path / "lib.json"
    csl.write_text(json.dumps([
        {"id": "x1", "type": "article-journal", "citation-key": "garcia2024cal", "title": "A", "abstract": "One.",
         "DOI": "10.1234/a"},
        {"id": "http://zotero.org/users/1/items/ABCD2345", "type": "article", "title": "B", "abstract": "Two.",
         "note": "arXiv: 2301.00001\nCitation Key: lee2023two"},
        {"id": "ITEM-3", "type": "article", "title": "C", "abstract": "Three."},
    ]))  # fmt: skip
    zcsv = tmp_path / "zotero.csv"
    zcsv.write_text(
        '"Key","Item Type","Publication Year","Title","Abstract Note","Extra"\n'
        '"K1","journalArticle","2021","T","Abstract.","Citation Key: kim2021t"\n'
    )
    db = build_zotero_db(tmp_path)  # one item's Extra pins "Citation Key: okafor2024sparse" (Better BibTeX)

    def keys(path: Path) -> dict[str, str]:
        return {p.id: p.cite_key for p in read_path(path).papers}

    assert keys(bib) == {"smith2023dance": "smith2023dance"}
    assert keys(csl) == {"10.1234/a": "garcia2024cal", "2301.00001": "lee2023two", "lib#3": ""}
    assert keys(zcsv) == {"zotero:K1": "kim2021t"}
    assert keys(db)["2311.02222"] == "okafor2024sparse" and set(keys(db).values()) == {"", "okafor2024sparse"}


def test_the_imported_key_survives_merges_and_re_ingests_in_chroma_on_disk(tmp_path: Path):
    emb = HashingEmbedder()
    record = {"id": "icml-77", "title": "Deep Widgets for Everyone", "abstract": "We propose deep widgets. They help.",
              "authors": ["Ada Lovelace"], "year": 2023, "venue": "ICML", "url": "https://widgets.io"}  # fmt: skip
    corpus = tmp_path / "icml.jsonl"
    corpus.write_text(json.dumps(record) + "\n")
    bib = tmp_path / "mine.bib"
    bib.write_text(
        "@inproceedings{lovelace23widgets,\n  title = {Deep Widgets for Everyone},\n"
        "  author = {Lovelace, Ada},\n  abstract = {We propose deep widgets. They help.}\n}\n"
    )

    def stored(name: str) -> tuple[str, str, str]:
        (p,) = ChromaStore(name, path=tmp_path / "chroma").all_papers()  # a fresh reader of the folder
        return p.id, p.source, p.cite_key

    # The .bib after the corpus: the same paper by its title keeps the stored id and gains the key.
    later = ChromaStore("pc_keys_later", path=tmp_path / "chroma")
    ingest_paths([corpus], later, emb)
    ingest_paths([bib], later, emb)
    assert stored("pc_keys_later") == ("icml-77", "mine.bib", "lovelace23widgets")
    again = ingest_paths([corpus], later, emb)  # merged with the stored paper: its key filled from it
    assert [f.unchanged for f in again.files] == [1] and stored("pc_keys_later")[2] == "lovelace23widgets"

    # Both at once: the corpus record has more fields and holds the paper; its file re-read alone
    # states no key, and the stored one is kept (unchanged, not rewritten without it).
    together = ChromaStore("pc_keys_together", path=tmp_path / "chroma")
    ingest_paths([corpus, bib], together, emb)
    assert stored("pc_keys_together") == ("icml-77", "icml.jsonl", "lovelace23widgets")
    alone = ingest_paths([corpus], together, emb)
    assert [(f.unchanged, f.updated) for f in alone.files] == [(1, 0)]
    assert stored("pc_keys_together") == ("icml-77", "icml.jsonl", "lovelace23widgets")


def test_a_key_joins_the_content_hash_only_when_there_is_one():
    plain = make_paper("x#1", "We propose a method. It works.", doi="10.1234/x")
    keyed = replace(plain, cite_key="smith2020")
    fields = [plain.id, plain.title, plain.abstract, [], None, "", "", "10.1234/x"]  # as hashed before keys existed
    before = hashlib.sha256(json.dumps(fields).encode("utf-8")).hexdigest()[:16]
    assert plain.content_hash == before != keyed.content_hash  # no re-embedding unless a key arrives
