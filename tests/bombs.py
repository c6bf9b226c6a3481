"""Hostile inputs for issue #23, made small and fast: valid images whose headers claim hundreds of millions of pixels,
JPEG headers that make a byte-at-a-time scan crawl, PDFs whose object streams inflate without end, schemas that double
with each `$ref`. Each maker takes well under a second and a few MB."""
import io, struct, zlib

def zrepeat(*parts):
    "The zlib stream of each `(blk, k)` of `parts` in turn, `blk` repeated `k` times: each compressed once (a full flush keeps its blocks apart)"
    out, a = [b'\x78\xda'], 1
    for blk, k in parts:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        out.append((c.compress(blk) + c.flush(zlib.Z_FULL_FLUSH)) * k)
        for _ in range(k): a = zlib.adler32(blk, a)
    return b''.join(out) + b'\x03\x00' + struct.pack('>I', a)

def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))

def png_bomb(w, h, ctype=0, depth=8):
    "A valid PNG of `w`×`h` black pixels (grey or RGB: `ctype` 0 or 2; 8 or 16 bits) in a few hundred KB"
    row = bytes(1 + w * {0: 1, 2: 3}[ctype] * depth // 8)
    n = max(1, (1 << 22) // len(row))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0))
            + chunk(b'IDAT', zrepeat((row * n, h // n), (row, h % n))) + chunk(b'IEND', b''))

def jpeg_sized(w, h):
    "A real (tiny, white) JPEG whose frame header claims `w`×`h`"
    from PIL import Image
    b = io.BytesIO(); Image.new('RGB', (16, 16), 'white').save(b, 'JPEG'); j = bytearray(b.getvalue())
    i = j.find(b'\xff\xc0'); j[i + 5:i + 9] = struct.pack('>HH', h, w)
    return bytes(j)

def objstm_pdf(payload, k):
    "A PDF of `k` object streams, each `payload` deflated"
    one = b'1 0 obj <</Type /ObjStm /N 1 /First 0 /Filter /FlateDecode>> stream\n' + zlib.compress(payload, 9) + b'\nendstream endobj\n'
    return b'%PDF-1.5\n' + one * k + b'trailer <<>>\n%%EOF\n'

def ref_chain(n):
    "A JSON Schema of `n` definitions, each using the next twice: inlined, 2**n copies of the last"
    defs = {f'D{i}': {'type': 'object', 'description': f'level {i}', 'properties': {'a': {'$ref': f'#/$defs/D{i+1}'}, 'b': {'$ref': f'#/$defs/D{i+1}'}}}
            for i in range(n)}
    return {'type': 'object', 'properties': {'x': {'$ref': '#/$defs/D0'}}, '$defs': {**defs, f'D{n}': {'type': 'string'}}}
