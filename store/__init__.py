"""Paper store: corpus readers (text, JSONL, JSON, CSV/TSV, BibTeX, and the imports of
:mod:`store.formats`) and the records they yield."""

from store import formats as _formats  # noqa: F401  (registers the import formats: CSL-JSON, Zotero, arXiv, ...)
from store import readers as _readers  # noqa: F401  (registers the JSON/CSV/BibTeX readers in store.papers.READERS)
