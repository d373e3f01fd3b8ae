"""One unary gRPC call over cleartext HTTP/2 with the standard library only (no grpcio here), and a protobuf
wire-format decoder: enough for a test to read a response message's fields as the server sends them.

Request headers go out as HPACK literals without Huffman coding, which every HTTP/2 peer accepts; response headers
are not decoded (their HPACK may use the dynamic table): a call that fails answers no DATA and raises with the
trailers' raw bytes.
"""
import socket
import struct

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
MAX_WINDOW = 2 ** 31 - 1


class GrpcError(Exception):
    pass


def _frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _literal(name, value):
    """HPACK "literal header field without indexing, new name", no Huffman coding (RFC 7541, 6.2.2)."""
    def string(text):
        data = text.encode()
        if len(data) >= 127:  # a one-byte length prefix keeps the encoder short; this test's headers are short
            raise GrpcError("header too long for this encoder: " + text[:40])
        return bytes([len(data)]) + data
    return b"\x00" + string(name) + string(value)


def _read_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise GrpcError("connection closed by the server")
        data += chunk
    return data


def unary_call(address, method, request, metadata=(), timeout=60):
    """The response message's bytes of `method` ("/pkg.Service/Method") called with `request` (bytes)."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        settings = struct.pack(">HI", 0x4, MAX_WINDOW)  # SETTINGS_INITIAL_WINDOW_SIZE: no flow-control stalls
        sock.sendall(PREFACE + _frame(SETTINGS, 0, 0, settings) +
                     _frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", MAX_WINDOW - 65535)))
        block = b"".join(_literal(n, v) for n, v in (
            (":method", "POST"), (":scheme", "http"), (":path", method), (":authority", address),
            ("content-type", "application/grpc"), ("te", "trailers"), *metadata))
        message = b"\x00" + struct.pack(">I", len(request)) + request
        sock.sendall(_frame(HEADERS, END_HEADERS, 1, block) + _frame(DATA, END_STREAM, 1, message))
        body, trailers = b"", b""
        while True:
            head = _read_exact(sock, 9)
            length = int.from_bytes(head[:3], "big")
            kind, flags, stream = head[3], head[4], int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
            payload = _read_exact(sock, length)
            if kind == SETTINGS and not flags & ACK:
                sock.sendall(_frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                sock.sendall(_frame(PING, ACK, 0, payload))
            elif kind in (RST_STREAM, GOAWAY) and (stream in (0, 1)):
                raise GrpcError(f"server ended the call (frame type {kind}): {payload!r}")
            elif kind == DATA and stream == 1:
                body += payload
                if flags & END_STREAM:
                    break
            elif kind == HEADERS and stream == 1:
                trailers = payload
                if flags & END_STREAM:
                    break
        if len(body) < 5:
            raise GrpcError(f"{method}: no response message (trailers, HPACK-coded: {trailers!r})")
        size = int.from_bytes(body[1:5], "big")
        return body[5:5 + size]


def decode(message):
    """Protobuf wire format -> {field number: [values]}: varints as int, fixed64 as double, fixed32 as float,
    length-delimited as bytes (decode nested messages with decode() again)."""
    fields, at = {}, 0

    def varint():
        nonlocal at
        value, shift = 0, 0
        while True:
            byte = message[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while at < len(message):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            value = varint()
        elif wire == 1:
            value = struct.unpack("<d", message[at:at + 8])[0]
            at += 8
        elif wire == 2:
            size = varint()
            value = message[at:at + size]
            at += size
        elif wire == 5:
            value = struct.unpack("<f", message[at:at + 4])[0]
            at += 4
        else:
            raise GrpcError(f"unsupported wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def encode_string(number, text):
    data = text.encode()
    out = bytes([number << 3 | 2])
    size = len(data)
    while size >= 0x80:
        out += bytes([size & 0x7F | 0x80])
        size >>= 7
    return out + bytes([size]) + data
