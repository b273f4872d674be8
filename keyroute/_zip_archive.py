"""PyTorch's checkpoint container: an uncompressed zip archive, as its PyTorchStreamWriter
writes it and its PyTorchStreamReader reads it.

Every record lives under one top-level folder (`archive/` for a buffer, the file's stem for a
path) and its data starts on a 64-byte boundary (the local header's extra field is padded
with an `FB` block), so storages can be memory-mapped in place. Each record is followed by a
data descriptor; the archive always ends with a zip64 end-of-central-directory record.

Reading uses the standard library's zipfile (which checks every record's CRC-32); errors are
PyTorch's wording ("PytorchStreamReader failed ...").
"""

from __future__ import annotations

import os
import secrets
import struct
import zipfile
import zlib
from typing import IO, Any

__all__ = ["ArchiveWriter", "ArchiveReader", "archive_name_for"]

_ALIGNMENT = 64
_U32 = 0xFFFFFFFF
_FLAGS = 0x0808  # bit 3: sizes in a data descriptor; bit 11: UTF-8 names
_MINIZ_HINT = (
    " This is an internal miniz error. If you are seeing this error, there is a high "
    "likelihood that your checkpoint file is corrupted. This can happen if the checkpoint was "
    "not saved properly, was transferred incorrectly, or the file was modified after saving."
)


def archive_name_for(path: str) -> str:
    """The top-level folder PyTorch uses for a file: its base name without the extension."""
    base = os.path.basename(path)
    dot = base.rfind(".")
    if dot != -1:
        base = base[:dot]
    if not base:
        raise RuntimeError(f"invalid file name: {path}")
    return base


class ArchiveWriter:
    """Writes records to `out` in PyTorch's layout; `finish()` writes the directory."""

    def __init__(self, out: IO[bytes], archive_name: str = "archive") -> None:
        self.out = out
        self.prefix = archive_name + "/"
        self.pos = 0
        self.entries: list[tuple[bytes, int, int, int]] = []  # name, crc, size, offset

    def _write(self, data: Any) -> None:
        self.out.write(data)
        self.pos += memoryview(data).nbytes

    def write_record(self, name: str, data: Any) -> None:
        full = (self.prefix + name).encode("utf-8")
        view = memoryview(data).cast("B")
        size = view.nbytes
        offset = self.pos
        # The data starts on an alignment boundary: pad the extra field ("FB", length, 'Z's).
        start = offset + 30 + len(full) + 4
        pad = (-start) % _ALIGNMENT
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        header = struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 0, _FLAGS, 0, 0, 0, 0, 0, 0, len(full), len(extra)
        )
        self._write(header + full + extra)
        crc = zlib.crc32(view) & _U32
        if size:
            self._write(view)
        if size >= _U32 or offset >= _U32:
            self._write(struct.pack("<IIQQ", 0x08074B50, crc, size, size))
        else:
            self._write(struct.pack("<IIII", 0x08074B50, crc, size, size))
        self.entries.append((full, crc, size, offset))

    def finish(self) -> None:
        self.write_record("version", b"3\n")
        serial_id = "".join(str(secrets.randbelow(10)) for _ in range(40))
        self.write_record(".data/serialization_id", serial_id.encode())
        cd_start = self.pos
        for full, crc, size, offset in self.entries:
            extra = b""
            csize = usize = size
            off = offset
            if size >= _U32 or offset >= _U32:
                fields = b""
                if size >= _U32:
                    fields += struct.pack("<QQ", size, size)
                    csize = usize = _U32
                if offset >= _U32:
                    fields += struct.pack("<Q", offset)
                    off = _U32
                extra = struct.pack("<HH", 1, len(fields)) + fields
            entry = struct.pack(
                "<IHHHHHHIIIHHHHHII",
                0x02014B50, 0, 0, _FLAGS, 0, 0, 0, crc, csize, usize,
                len(full), len(extra), 0, 0, 0, 0, off,
            )  # fmt: skip
            self._write(entry + full + extra)
        cd_size = self.pos - cd_start
        n = len(self.entries)
        eocd64 = self.pos
        self._write(
            struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, cd_size, cd_start)
        )
        self._write(struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1))
        self._write(
            struct.pack(
                "<IHHHHIIH",
                0x06054B50,
                0,
                0,
                min(n, 0xFFFF),
                min(n, 0xFFFF),
                min(cd_size, _U32),
                min(cd_start, _U32),
                0,
            )  # fmt: skip
        )


class ArchiveReader:
    """The records of a PyTorch archive, by name relative to its top-level folder."""

    def __init__(self, f: IO[bytes]) -> None:
        self.file = f
        try:
            self.zip = zipfile.ZipFile(f)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, struct.error):
            raise RuntimeError(
                "PytorchStreamReader failed reading zip archive: failed finding central "
                "directory." + _MINIZ_HINT
            ) from None
        names = self.zip.namelist()
        if not names:
            raise RuntimeError(
                "PytorchStreamReader failed reading zip archive: archive does not contain any "
                "records."
            )
        first = names[0]
        slash = first.find("/")
        if slash == -1:
            raise RuntimeError(f"file in archive is not in a subdirectory: {first}")
        self.prefix = first[: slash + 1]
        self.records = {
            n[len(self.prefix) :]: self.zip.getinfo(n) for n in names if n.startswith(self.prefix)
        }

    def has_record(self, name: str) -> bool:
        return name in self.records

    def _info(self, name: str) -> zipfile.ZipInfo:
        info = self.records.get(name)
        if info is None:
            raise RuntimeError(
                f"PytorchStreamReader failed locating file {name}: file not found." + _MINIZ_HINT
            )
        return info

    def record_size(self, name: str) -> int:
        return self._info(name).file_size

    def get_record(self, name: str) -> bytes:
        info = self._info(name)
        try:
            return self.zip.read(info)
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error, struct.error) as e:
            raise RuntimeError(f"PytorchStreamReader failed reading file {name}: {e}") from None

    def read_into(self, name: str, buffer: Any) -> None:
        """Copy record `name` into `buffer` (exactly its size), checking its CRC-32."""
        info = self._info(name)
        view = memoryview(buffer).cast("B")
        try:
            with self.zip.open(info) as stream:
                got = 0
                while got < view.nbytes:
                    n = stream.readinto(view[got:])
                    if not n:
                        break
                    got += n
                if got != view.nbytes or stream.read(1):
                    raise zipfile.BadZipFile("record is truncated")
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error, struct.error) as e:
            raise RuntimeError(f"PytorchStreamReader failed reading file {name}: {e}") from None

    def data_offset(self, name: str) -> int:
        """Where record `name`'s bytes start in the file (for mapping it in place)."""
        info = self._info(name)
        if info.compress_type != zipfile.ZIP_STORED:
            raise RuntimeError(f"keyroute.load(mmap=True): record {name} is compressed")
        self.file.seek(info.header_offset)
        header = self.file.read(30)
        if len(header) != 30 or header[:4] != b"PK\x03\x04":
            raise RuntimeError(
                f"PytorchStreamReader failed reading file {name}: invalid header or archive is "
                "corrupted"
            )
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        return info.header_offset + 30 + name_len + extra_len

    def close(self) -> None:
        self.zip.close()
