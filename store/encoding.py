"""Decoding corpus files whatever their encoding, saying which one was used.

:func:`read_text` decodes a file in this order:

1. a byte-order mark: UTF-8, UTF-32 LE/BE, UTF-16 LE/BE (the mark itself is dropped);
2. UTF-8 when the bytes are valid UTF-8 (ASCII is reported as ``utf-8``);
3. UTF-16 without a mark, when NUL bytes fill every other position (English text in UTF-16);
4. a legacy 8-bit or multi-byte encoding found by ``charset-normalizer``; Windows-1252 is
   preferred when it reads the bytes as well as the detector's first choice (the detector
   often ranks the Central-European cp1250 first on Western text, turning "naïve" into "naďve");
5. a file that is mostly UTF-8 but has lines in another encoding (records pasted from another
   file) keeps its UTF-8 lines and decodes the others with the encoding found for them, each
   such line reported;
6. whatever is left undecodable becomes U+FFFD, the lines reported.

NUL characters are removed from the decoded text (no format uses them; CSV parsing fails on
them), also reported. Nothing here raises for content, only ``OSError`` for the file.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Decoded", "decode_bytes", "read_text"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8 (BOM)"),
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le (BOM)"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32-be (BOM)"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le (BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be (BOM)"),
)
PREFERRED_LEGACY = "cp1252"
"""The legacy encoding chosen when the detector finds it as good as its first choice."""
_CHAOS_MARGIN = 0.01  # charset-normalizer "chaos" (mess ratio, 0-1) cp1252 may exceed the best by
_COHERENCE_MARGIN = 0.1  # charset-normalizer language coherence (0-1) cp1252 may fall short of the best by


@dataclass
class Decoded:
    """A decoded file.

    Attributes:
        text: The text (no byte-order mark, no NUL characters).
        encoding: What was used, for the ingest report: ``utf-8``, ``utf-8 (BOM)``,
            ``utf-16-le (BOM)``, ``utf-16-le``, ``cp1252``, ``utf-8 + cp1252 (2 lines)``,
            ``utf-8 (3 lines with invalid bytes)``.
        notes: ``(line, message)`` for each line that needed a repair (1-based lines).
    """

    text: str
    encoding: str
    notes: list[tuple[int | None, str]] = field(default_factory=list)


def _legacy(data: bytes) -> str | None:
    """Python codec name of the legacy encoding of ``data`` (see the module doc), or ``None``."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - it ships with requests; cp1252 is the usual answer
        return PREFERRED_LEGACY if _decodes(data, PREFERRED_LEGACY) else None
    results = [r for r in from_bytes(data) if not r.encoding.startswith(("utf_8", "utf_16", "utf_32"))]
    if not results:
        return None
    best = results[0]
    for r in results:
        if (
            r.encoding == PREFERRED_LEGACY
            and r.chaos <= best.chaos + _CHAOS_MARGIN
            and r.coherence >= best.coherence - _COHERENCE_MARGIN
        ):
            return PREFERRED_LEGACY
    return best.encoding


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``utf-16-be`` when NULs fill most odd/even byte positions, else ``None``."""
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    half = len(data) // 2
    if odd.count(0) > 0.4 * half and even.count(0) < 0.05 * half and _decodes(data, "utf-16-le"):
        return "utf-16-le"
    if even.count(0) > 0.4 * half and odd.count(0) < 0.05 * half and _decodes(data, "utf-16-be"):
        return "utf-16-be"
    return None


def _mixed(data: bytes) -> Decoded:
    """Decode line by line: UTF-8 lines as UTF-8, the others in the encoding found for them."""
    lines = data.split(b"\n")
    bad: list[int] = []
    utf8_multibyte = False
    for i, line in enumerate(lines):
        try:
            line.decode("utf-8")
            utf8_multibyte = utf8_multibyte or any(b >= 0x80 for b in line)
        except UnicodeDecodeError:
            bad.append(i)
    legacy = _legacy(b"\n".join(lines[i] for i in bad))
    if not utf8_multibyte and legacy and _decodes(data, legacy):
        return Decoded(data.decode(legacy), legacy)  # a legacy file throughout
    notes: list[tuple[int | None, str]] = []
    bad_set = set(bad)
    out = [line.decode("utf-8") if i not in bad_set else "" for i, line in enumerate(lines)]
    replaced = 0
    for i in bad:
        if legacy and _decodes(lines[i], legacy):
            out[i] = lines[i].decode(legacy)
            notes.append((i + 1, f"not UTF-8: decoded as {legacy}"))
        else:
            out[i] = lines[i].decode("utf-8", errors="replace")
            replaced += 1
            notes.append((i + 1, "invalid bytes replaced with U+FFFD"))
    converted = len(bad) - replaced
    parts = [f"{converted} line{'s' if converted != 1 else ''} {legacy}"] if converted else []
    if replaced:
        parts.append(f"{replaced} line{'s' if replaced != 1 else ''} with invalid bytes")
    return Decoded("\n".join(out), f"utf-8 + {', '.join(parts)}" if converted else f"utf-8 ({parts[0]})", notes)


def decode_bytes(data: bytes) -> Decoded:
    """Decode the bytes of a corpus file (see the module doc for the order of the rules).

    Args:
        data: The file's bytes.

    Returns:
        The text, the encoding used and a note per repaired line.
    """
    decoded: Decoded | None = None
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            try:
                decoded = Decoded(body.decode(codec.replace("-sig", "")), name)
            except UnicodeDecodeError:
                text = body.decode(codec.replace("-sig", ""), errors="replace")
                note = (None, "invalid bytes replaced with U+FFFD")
                decoded = Decoded(text, f"{name}, invalid bytes replaced", [note])
            break
    if decoded is None:
        try:
            decoded = Decoded(data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:
            wide = _utf16_without_bom(data)
            decoded = Decoded(data.decode(wide), wide) if wide else _mixed(data)
    if "\x00" in decoded.text:
        lines = sorted({decoded.text.count("\n", 0, i) + 1 for i, ch in enumerate(decoded.text) if ch == "\x00"})
        decoded.notes += [(n, "NUL characters removed") for n in lines[:20]]
        decoded.text = decoded.text.replace("\x00", "")
    return decoded


def read_text(path: Path) -> Decoded:
    """Read and decode a corpus file (see :func:`decode_bytes`).

    Raises:
        OSError: the file cannot be read.
    """
    return decode_bytes(Path(path).read_bytes())
