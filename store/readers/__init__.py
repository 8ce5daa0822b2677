"""Readers for JSON arrays, CSV/TSV tables and BibTeX files; importing this package registers them.

Every reader has the signature ``(path, field_map=None) -> ReadResult`` and never
raises for bad content: each bad record becomes an :class:`~store.papers.IngestProblem`
naming the file, the line (or BibTeX entry key) and the reason, and the remaining
records are read.

One module per format (:mod:`store.readers.json_array`, :mod:`store.readers.csv_table`,
:mod:`store.readers.bibtex`); the field names they share, ``--map`` and the normalisation of
values are :mod:`store.readers.fields`.

Records of a known export format inside a JSON or CSV file (CSL-JSON, OpenReview notes,
Semantic Scholar papers, Zotero's CSV export) are recognised by content through the shapes of
:mod:`store.shapes`, which :mod:`store.formats` registers.
"""

from store.papers import READERS
from store.readers.bibtex import read_bibtex
from store.readers.csv_table import read_csv
from store.readers.json_array import read_json_array

READERS.update({".json": read_json_array, ".csv": read_csv, ".tsv": read_csv, ".bib": read_bibtex})
