"""Paper store: corpus readers (text, JSONL, JSON, CSV/TSV, BibTeX) and the records they yield."""

from store import readers as _readers  # noqa: F401  (registers the JSON/CSV/BibTeX readers in store.papers.READERS)
