"""Length-prefixed frames on the child -> worker result pipe.

A frame is 4 bytes of big-endian length, one kind byte (b"J" JSON, b"B" raw bytes) and the payload. The
worker never unpickles anything that comes from a candidate: JSON and raw array bytes only.
"""
import json
import os
import struct

MAX_FRAME = 1 << 31


def write_frame(fd, kind, payload):
    header = struct.pack(">I", len(payload) + 1) + kind
    view = memoryview(header + payload) if len(payload) < (1 << 20) else None
    if view is not None:
        while view:
            n = os.write(fd, view)
            view = view[n:]
        return
    for chunk in (memoryview(header), memoryview(payload)):
        while chunk:
            n = os.write(fd, chunk)
            chunk = chunk[n:]


def send_json(fd, obj):
    write_frame(fd, b"J", json.dumps(obj).encode())


def send_bytes(fd, data):
    write_frame(fd, b"B", bytes(data) if not isinstance(data, (bytes, bytearray, memoryview)) else data)


class FrameReader:
    """Incremental parser: feed() bytes as they arrive, frames() yields complete (kind, payload)."""

    def __init__(self, limit):
        self.buf = bytearray()
        self.limit = limit
        self.total = 0
        self.overflow = False

    def feed(self, data):
        self.total += len(data)
        if self.total > self.limit:
            self.overflow = True
            return
        self.buf += data

    def frames(self):
        out = []
        while len(self.buf) >= 4:
            (n,) = struct.unpack(">I", self.buf[:4])
            if n < 1 or n > MAX_FRAME:
                self.overflow = True
                return out
            if len(self.buf) < 4 + n:
                break
            kind = bytes(self.buf[4:5])
            payload = bytes(self.buf[5:4 + n])
            del self.buf[:4 + n]
            out.append((kind, payload))
        return out
