"""#22 media (00420c8): the data URI's header read once (`sniff.uri_at`), its whitespace windows searched by written-out
`str.find`, JPEG/PNG/GIF/WebP told by signature before `filetype`, base64 built in place from 32 KB in 48 KB pieces, and
`read_part` asking `max_read` only for a `Path` or a data URI.

A differential test: the package as it was at a2ee38a (the code before 00420c8, kept as the reference, read from git and
imported beside msgkit as `msgkit_a2ee38a`, with its own memo) against today's, on many inputs; old result == new
result, or both raise the same error. Then a check that a large data URI's payload is not scanned on its way to an API
that takes it as it is. Counts work, never times it."""
import array, base64, binascii, importlib, io, os, random, re, subprocess, sys, tarfile, types
from pathlib import Path
import pytest
import msgkit
from msgkit import codec, sniff, mediapart, history

OLD = 'a2ee38a'
ROOT = Path(__file__).resolve().parent.parent

@pytest.fixture(scope='module')
def old(tmp_path_factory):
    "The modules as they were at a2ee38a (the code before 00420c8, kept as the reference), their imports their own"
    try:
        tar = subprocess.run(['git', '-C', str(ROOT), 'archive', '--format=tar', OLD, 'msgkit'],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e: pytest.skip(f"no git history to read {OLD} from: {e}")
    d = tmp_path_factory.mktemp('old')
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(d, **({'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}))
    (d/'msgkit').rename(d/'msgkit_a2ee38a')
    sys.path.insert(0, str(d))
    try: ns = types.SimpleNamespace(**{n: importlib.import_module(f'msgkit_a2ee38a.{n}')
                                       for n in ('codec', 'sniff', 'mediapart', 'history')})
    finally: sys.path.remove(str(d))
    assert ns.sniff.__file__.startswith(str(d)) and not hasattr(ns.sniff, 'uri_at')  # the old code, not today's
    return ns

# ---------------------------------------------------------------------------------------------------------------------
# comparing outcomes

def norm(v):
    "`v` in a form that compares across the two packages (their classes differ): a match by its groups, a part by fields"
    if isinstance(v, re.Match): return ('match', v.groupdict(), v.span())
    if isinstance(v, (tuple, list)): return type(v).__name__, [norm(x) for x in v]
    if isinstance(v, dict):  # a Part; a LazyMedia says whether it is still lazy, then gives its bytes
        lazy = v.lazy() if hasattr(v, 'lazy') else None
        d = {k: norm(dict.get(v, k)) for k in dict.keys(v)}
        if 'data' in v: d['data'] = outcome(v.get, 'data')
        return type(v).__name__, lazy, d
    return v

def outcome(f, *a, **kw):
    "What `f(*a, **kw)` gives, or the error it raises (by class name and message: the classes are each package's own)"
    try: return 'ok', norm(f(*a, **kw))
    except Exception as e: return 'raise', type(e).__name__, str(e)

def same(fo, fn, *a, **kw):
    o, n = outcome(fo, *a, **kw), outcome(fn, *a, **kw)
    assert o == n, (fn.__name__, repr(a)[:200], kw, o[:2], n[:2])
    return n

# ---------------------------------------------------------------------------------------------------------------------
# data URIs

W = sniff.DATA_WIN
WS = [' ', '\n', '\r', '\t', '\f', '\v', '\x1c', '\x1f', '\x85', '\xa0', '\u2028', '\u3000']  # ASCII, then not
HEADS = ['data:image/png;base64,', 'DATA:IMAGE/PNG;BASE64,', 'Data:Image/Png;Base64,', 'data:text/plain,',
         'data:text/plain;charset=utf-8;base64,', 'data:text/plain;charset=utf-8,', 'data:image/png;name=a%20b.png;base64,',
         'data:,', 'data:;base64,', 'data:image/png;base64', 'data:image/svg+xml;utf8,', 'data: image/png;base64,',
         'Data: the following,', 'data:image/png;charset=;base64,', 'data:image/jpeg;x-y=1;base64,', 'data:image/png;;base64,',
         'data:image/png;base64;base64,', 'dat:image/png;base64,', 'data:image/png;bäse64,', 'data:imäge/png;base64,']

def png_bytes(n, seed=0):
    "A PNG's signature and IHDR, an IDAT's head, then `n` random bytes"
    return (b'\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\x0dIDAT'
            + random.Random(seed).randbytes(n))

def payloads():
    "Payload texts: empty, tiny, and base64 of a PNG of sizes around DATA_WIN, MEMO_MIN (32 KB) and LAZY_MIN (64 KB)"
    yield from ['', 'QQ==', 'QQ', 'iVBORw0KGgo=', '!!!!', 'hello%20world', '%3D%3D', 'é', 'aé' * 10, 'QQ%3D%3D']
    for n in (3, 300, W//4*3 - 60, W//4*3 + 30, 2*W, codec.MEMO_MIN//4*3 - 60, codec.MEMO_MIN//4*3 + 90,
              mediapart.LAZY_MIN//4*3 - 60, mediapart.LAZY_MIN//4*3 + 90, 120_000):
        yield base64.b64encode(png_bytes(n, n)).decode()

def check_uri(old, s):
    "Every data URI function, old against new, on `s` (the new ones twice: a memoised verdict is the same verdict)"
    for f in ('is_data_uri', 'data_head', 'data_uri_at', 'data_uri_parts', 'parse_data_uri'):
        same(getattr(old.sniff, f), getattr(sniff, f), s)
    v = same(old.sniff.is_data_uri, sniff.is_data_uri, s)
    h = sniff.uri_at(s)  # `(m, s stripped, payload start)` exactly when it is one, as data_uri_at has them
    assert (h is not None) == v[1], repr(s)[:100]
    if h is not None: assert norm(h) == outcome(old.sniff.data_uri_at, s)[1]
    same(old.mediapart.to_part, mediapart.to_part, s)
    same(old.mediapart.media, mediapart.media, s)
    same(old.mediapart.media, mediapart.media, s, max_bytes=1000)
    same(old.mediapart.media, mediapart.media, s, mt='image/png')

def test_data_uris(old):
    "Each header with each payload, bare, with whitespace at either end, and with a str subclass"
    for h in HEADS:
        for p in payloads():
            s = h + p
            check_uri(old, s)
            for w in (' ', '\n\t', '\v', '\xa0'): check_uri(old, w + s); check_uri(old, s + w)
    class S(str): pass
    check_uri(old, S(HEADS[0] + base64.b64encode(png_bytes(70_000)).decode()))
    for o in (None, 12, b'data:image/png;base64,QQ==', bytearray(b'data:,x'), Path('data:,x'), ['data:,x']):
        same(old.sniff.is_data_uri, sniff.is_data_uri, o)
        same(old.mediapart.media, mediapart.media, o)

def test_data_uri_whitespace_at_every_window_edge(old):
    "One whitespace character at the payload's start, either side of each window `_has_ws` searches, mid and end"
    for n in (100, W - 1, W, W + 1, 2*W - 1, 2*W, 2*W + 1, 3*W, codec.MEMO_MIN + 8, mediapart.LAZY_MIN + 400):
        p = base64.b64encode(png_bytes(n*3//4 + 3, n)).decode()[:n]
        h = HEADS[0]
        i = len(h)
        m = len(p)
        at = sorted({0, 1, W - 1, W, W + 1, m//2, m - W - 1, m - W, m - W + 1, m - 1} & set(range(m)))
        for w in WS:
            for j in at:
                check_uri(old, h + p[:j] + w + p[j + 1:])  # in place of a character
                check_uri(old, h + p[:j] + w + p[j:])  # put in
            check_uri(old, h + w + p); check_uri(old, h + p + w); check_uri(old, w + h + p + w)
            check_uri(old, h[:5] + w + h[5:] + p); check_uri(old, h[:-1] + w + ',' + p)
        assert i  # (the header itself is not where the windows start)

def test_data_uri_percent_and_comma_edges(old):
    "A percent-escape either side of the windows `_lazy_uri` looks in (now by `find`), and a comma around 4096"
    p = base64.b64encode(png_bytes(90_000)).decode()
    m = len(p)
    for j in (0, 1, W - 4, W - 3, W - 2, W, W + 1, m//2, m - W - 3, m - W - 1, m - W, m - W + 1, m - 3):
        for h in (HEADS[0], 'data:image/png;name=a%20b;base64,'):
            check_uri(old, h + p[:j] + '%2B' + p[j + 3:])
    for k in range(4085, 4100):  # the comma's index, either side of the 4096 `data_head` searches
        h = 'data:text/plain;a=' + 'x'*(k - 18) + ','
        assert h.index(',') == k
        check_uri(old, h + 'QQ==')
        check_uri(old, h.replace('text/plain', 'image/png').replace(',', ';base64,') + p[:200])

def test_data_uri_random(old):
    "Seeded random strings built from the pieces a data URI has (and the ones it mustn't)"
    r = random.Random(22)
    bits = HEADS + WS + ['QQ==', 'iVBOR', '%', '%3D', ',', ';', 'é', '=', '/', '+', 'A'*W, 'B'*(W - 1)]
    for _ in range(1500):
        check_uri(old, ''.join(r.choice(bits) for _ in range(r.randrange(1, 8))))

def test_data_uri_memo_is_per_object(old):
    "A large URI's verdict is kept for the object: the same text as another object, or stripped, gets its own"
    p = base64.b64encode(png_bytes(60_000, 7)).decode()
    a = HEADS[0] + p
    b = ''.join([HEADS[0], p])
    assert a == b and a is not b
    assert sniff.is_data_uri(a) and sniff.is_data_uri(b) and sniff.uri_at(a)[1] is a and sniff.uri_at(b)[1] is b
    c = a[:len(HEADS[0]) + 100] + ' ' + a[len(HEADS[0]) + 101:]  # not a URI; its verdict kept as such
    for _ in range(2): assert not sniff.is_data_uri(c) and sniff.uri_at(c) is None
    d = ' ' + a + '\n'
    for _ in range(2): assert sniff.uri_at(d)[1] == a and sniff.uri_at(d)[1] is not d
    for s in (a, b, c, d): same(old.mediapart.media, mediapart.media, s)

# ---------------------------------------------------------------------------------------------------------------------
# media types

def _chunk(t, body=b''): return len(body).to_bytes(4, 'big') + t + body + b'\0\0\0\0'

PNG_SIG, IHDR = b'\x89PNG\r\n\x1a\n', _chunk(b'IHDR', b'\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0')

def _zip(names):
    import zipfile
    f = io.BytesIO()
    with zipfile.ZipFile(f, 'w') as z:
        for n in names: z.writestr(n, 'x')
    return f.getvalue()

SAMPLES = {
    'jpeg': b'\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0' + b'\0'*40,
    'jpeg_exif': b'\xff\xd8\xff\xe1\0\x16Exif\0\0MM\0*' + b'\0'*40,
    'jpeg_bare': b'\xff\xd8\xff',
    'png': PNG_SIG + IHDR + _chunk(b'IDAT', b'x'*20) + _chunk(b'IEND'),
    'png_iend': PNG_SIG + IHDR + _chunk(b'IEND'),
    'png_text': PNG_SIG + IHDR + _chunk(b'tEXt', b'a\0b') + _chunk(b'IDAT', b'x'*9),
    'apng': PNG_SIG + IHDR + _chunk(b'acTL', b'\0\0\0\x02\0\0\0\0') + _chunk(b'IDAT', b'x'*9),
    'apng_late': PNG_SIG + IHDR + _chunk(b'tEXt', b'a\0b') + _chunk(b'acTL', b'\0'*8) + _chunk(b'IDAT', b'x'),
    'png_actl_after_idat': PNG_SIG + IHDR + _chunk(b'IDAT', b'x') + _chunk(b'acTL', b'\0'*8),
    'png_bad_ihdr_len': PNG_SIG + b'\0\0\0\x0eIHDR' + b'\0'*14 + b'\0'*4 + _chunk(b'IDAT', b'x'),
    'png_no_ihdr': PNG_SIG + _chunk(b'IDAT', b'x'*9) + _chunk(b'IEND'),
    'png_idat_lower': PNG_SIG + IHDR + _chunk(b'idat', b'x'*9),
    'png_sig_only': PNG_SIG, 'png_4': b'\x89PNG', 'png_bad_sig': b'\x89PNG\r\n\x1a\x0b' + IHDR + _chunk(b'IDAT'),
    'gif87': b'GIF87a\x01\0\x01\0\0\0\0;', 'gif89': b'GIF89a\x01\0\x01\0\x80\0\0' + b'\0'*20 + b';',
    'gif_bare': b'GIF', 'gif_odd': b'GIFxx',
    'webp_vp8': b'RIFF\x24\0\0\0WEBPVP8 \x18\0\0\0' + b'\0'*24, 'webp_vp8l': b'RIFF\x24\0\0\0WEBPVP8L' + b'\0'*28,
    'webp_vp8x': b'RIFF\x24\0\0\0WEBPVP8X' + b'\0'*28, 'webp_odd': b'RIFF\x24\0\0\0WEBPXXXX' + b'\0'*28,
    'webp_short': b'RIFF\x24\0\0\0WEBPV', 'webp_riff_lower': b'riff\x24\0\0\0WEBPVP8 ' + b'\0'*8,
    'not_riff_webp': b'RIFX\x24\0\0\0WEBPVP8 ' + b'\0'*8,
    'wav': b'RIFF\x24\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x44\xac\0\0\x88X\x01\0\x02\0\x10\0data\0\0\0\0',
    'avi': b'RIFF\x24\0\0\0AVI LIST' + b'\0'*28,
    'pdf': b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n',
    'mp3_id3': b'ID3\x04\0\0\0\0\0\0' + b'\xff\xfb\x90\x64' + b'\0'*40, 'mp3_frame': b'\xff\xfb\x90\x64' + b'\0'*60,
    'mp4': b'\0\0\0\x18ftypmp42\0\0\0\0mp42isom' + b'\0'*16, 'm4a': b'\0\0\0\x18ftypM4A \0\0\0\0M4A mp42' + b'\0'*8,
    'heic': b'\0\0\0\x18ftypheic\0\0\0\0mif1heic' + b'\0'*8, 'avif': b'\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf',
    'ogg': b'OggS\0\x02' + b'\0'*30, 'flac': b'fLaC\0\0\0\x22' + b'\0'*34, 'bmp': b'BM' + b'\0'*52,
    'tiff': b'II*\0\x08\0\0\0' + b'\0'*20, 'dwg': b'AC1018' + b'\0'*20, 'webm': b'\x1aE\xdf\xa3' + b'\0'*40,
    'docx': _zip(['[Content_Types].xml', 'word/document.xml']), 'zip': _zip(['a.txt']), 'text': b'hello world\n',
    'empty': b'',
}

def check_mt(old, b):
    same(old.sniff.media_type, sniff.media_type, b)
    same(old.sniff.media_type, sniff.media_type, bytearray(b))
    same(old.sniff.media_type, sniff.media_type, memoryview(b))

def test_media_type_signatures(old):
    "Every sample, and every prefix of it up to 64 bytes (truncated files: 0..16 bytes and on), old against new"
    assert sniff.media_type(SAMPLES['apng']) == sniff.media_type(SAMPLES['apng_late']) == 'image/apng'
    assert sniff._sig_type(SAMPLES['apng']) is None and sniff._sig_type(SAMPLES['png']) == 'image/png'
    for k, b in SAMPLES.items():
        for n in sorted({*range(min(len(b), 65) + 1), len(b)}): check_mt(old, b[:n])
        check_mt(old, b + random.Random(k).randbytes(200))

def test_media_type_mutated_and_random(old):
    "Seeded random bytes, and each signature sample with a byte of its first 64 changed"
    r = random.Random(2222)
    for _ in range(800): check_mt(old, r.randbytes(r.randrange(0, 100)))
    for k, b in SAMPLES.items():
        for _ in range(40):
            if not b: break
            c = bytearray(b); j = r.randrange(min(len(b), 64)); c[j] = r.randrange(256)
            check_mt(old, bytes(c))

def test_media_type_large_and_wide(old):
    "Bytes of `MEMO_MIN` and more (their type memoised, each package its own), twice; a buffer of wider items"
    for k in ('jpeg', 'png', 'apng', 'gif89', 'webp_vp8', 'wav', 'pdf', 'docx'):
        b = SAMPLES[k] + bytes(codec.MEMO_MIN)
        for _ in range(2): same(old.sniff.media_type, sniff.media_type, b)
        same(old.sniff.media_type, sniff.media_type, array.array('H', SAMPLES[k] + b'\0'*(len(SAMPLES[k]) % 2)))
        same(old.mediapart.media, mediapart.media, b)

# ---------------------------------------------------------------------------------------------------------------------
# base64

SIZES = [0, 1, 2, 3, 4, 5, 47, 48, 49, 32767, 32768, 32769, 49151, 49152, 49153, 49154, 65535, 65536, 98303, 98304,
         98305, 147456, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (1 << 20) + 5, 3*2**20 + 1]

def test_b64_sizes(old):
    "`b64` against `base64.b64encode` and the old `b64`, either side of 32 KB and of each 48 KB piece, and prefixed"
    if sys.implementation.name == 'cpython': assert codec._in_place()  # (or the in-place path goes untested here)
    for n in SIZES:
        b = random.Random(n).randbytes(n)
        want = base64.b64encode(b).decode('ascii')
        for prefix in ('', 'data:image/png;base64,', 'é,'):
            for x in (b, bytearray(b), memoryview(b)):
                s = codec.b64(x, prefix)
                assert type(s) is str and s == prefix + want and len(s) == len(prefix) + len(want), (n, prefix)
                assert s == old.codec.b64(x, prefix) and hash(s) == hash((prefix + want)[:])
            assert codec.b64(b, prefix) is codec.b64(b, prefix) or n < codec.MEMO_MIN  # remembered
        assert codec.unb64(codec.b64(b)) == b
        if n % 2 == 0 and n:  # a buffer of wider items, and one that is not contiguous
            a = array.array('H', b)
            assert codec.b64(a) == want == old.codec.b64(a)
            mv = memoryview(b)[::2]
            assert codec.b64(mv) == base64.b64encode(mv.tobytes()).decode() == old.codec.b64(mv)

def test_b64_random_sizes(old):
    r = random.Random(48)
    for _ in range(60):
        n = r.choice([r.randrange(0, 1 << 18), r.randrange(32760, 32780), 49152*r.randrange(1, 9) + r.randrange(-3, 4)])
        b = r.randbytes(n)
        assert codec.b64(b, 'p:') == 'p:' + base64.b64encode(b).decode() == old.codec.b64(b, 'p:')

# ---------------------------------------------------------------------------------------------------------------------
# read_part: the API's most bytes asked for only for a Path or a data URI

class FakeAd:
    "An adapter as `read_part` uses it for a bare item: a name and `max_read`, its calls counted"
    name = 'fake'
    def __init__(self, n): self.n, self.calls = n, 0
    def max_read(self): self.calls += 1; return self.n

def test_read_part(old, tmp_path):
    small, big = png_bytes(100), png_bytes(5000)
    (tmp_path/'small.png').write_bytes(small); (tmp_path/'big.png').write_bytes(big)
    u = lambda b: 'data:image/png;base64,' + base64.b64encode(b).decode()
    cases = [(small, 0), (big, 0), (bytearray(big), 0), (memoryview(big), 0), ('hello', 0), ('https://x.io/a.png', 0),
             ('Data: the following', 1), ('data:', 1), ('  data:image/png;base64,QQ==', 1), (' plain text ', 1),
             (u(small), 1), (u(big), 1), (' ' + u(big), 1), ('\n' + u(big) + '\n', 1), (u(big).upper()[:5] + u(big)[5:], 1),
             (tmp_path/'small.png', 1), (tmp_path/'big.png', 1), (tmp_path/'missing.png', 1), (12, 0), (None, 0)]
    for o, asks in cases:
        ao, an = FakeAd(1000), FakeAd(1000)
        o1 = outcome(old.history.read_part, o, ao)
        n1 = outcome(history.read_part, o, an)
        assert o1 == n1, (repr(o)[:80], o1[:2], n1[:2])
        assert ao.calls == 1 and an.calls == asks, (repr(o)[:80], an.calls)  # (old: every time; new: only these)
        assert outcome(old.history.read_part, o) == outcome(history.read_part, o)

# ---------------------------------------------------------------------------------------------------------------------
# a large data URI's payload is not scanned on its way to an API that takes base64 as it is

BOUND = 2*W + 512  # the most of the text any one method may look at: the header and the windows at either end

class Rec(str):
    """A str that records how much of itself each of its methods looks at. What runs in C on the text itself (a regex,
    binascii) doesn't call these: `a2b_base64` is watched apart, below. (`isascii` is not recorded: CPython answers it
    from a flag, without reading the text.)"""
    log = []
    def _span(self, a, b):
        a, b, _ = slice(a, b).indices(len(self))
        return max(0, b - a)

def _ranged(nm):
    def f(self, sub, *a):
        span = self._span(*(list(a) + [None, None])[:2])
        if nm in ('startswith', 'endswith'): span = min(span, max(map(len, sub if isinstance(sub, tuple) else (sub,))))
        Rec.log.append((nm, span))
        return getattr(str, nm)(self, sub, *a)
    return f

def _whole(nm):
    def f(self, *a, **kw):
        Rec.log.append((nm, len(self)))
        return getattr(str, nm)(self, *a, **kw)
    return f

for _nm in ('find', 'rfind', 'index', 'rindex', 'count', 'startswith', 'endswith'): setattr(Rec, _nm, _ranged(_nm))
for _nm in ('strip', 'lstrip', 'rstrip', 'split', 'rsplit', 'splitlines', 'partition', 'rpartition', 'replace',
            'encode', 'lower', 'upper', 'casefold', 'translate', 'isspace', 'isalnum', 'isprintable', 'join', '__iter__',
            '__contains__', '__hash__', '__eq__', '__ne__', '__add__', '__mod__', '__format__', '__str__', '__reduce__',
            '__reduce_ex__', '__getnewargs__'):
    setattr(Rec, _nm, _whole(_nm))

def _getitem(self, k):
    Rec.log.append(('getitem', self._span(k.start, k.stop) if isinstance(k, slice) else 1))
    return str.__getitem__(self, k)
Rec.__getitem__ = _getitem

@pytest.fixture
def decodes(monkeypatch):
    "The lengths of the texts `binascii.a2b_base64` decodes (`unb64`, `checked_b64` and `base64` all go through it)"
    n, a2b = [], binascii.a2b_base64
    monkeypatch.setattr(binascii, 'a2b_base64', lambda s, *a, **kw: n.append(len(s)) or a2b(s, *a, **kw))
    import pybase64  # (and the `fast` extra's decoder, which `unb64` gives large text to where it is installed)
    fast = pybase64.b64decode
    monkeypatch.setattr(pybase64, 'b64decode', lambda s, *a, **kw: n.append(len(s)) or fast(s, *a, **kw))
    return n

PNG = png_bytes(750_000, 1)
URI = 'data:image/png;base64,' + base64.b64encode(PNG).decode()  # 1 MB of text
AT = URI.index(',') + 1

def _leaves(o):
    if isinstance(o, dict): o = list(o.values())
    if isinstance(o, list):
        for v in o: yield from _leaves(v)
    else: yield o

def test_is_data_uri_reads_its_ends_only():
    "A str subclass is not memoised (`uri_at` keeps only exact `str`s), so each call reads it again: its ends only"
    r = Rec(URI)
    for f in (sniff.is_data_uri, sniff.uri_at, sniff.data_uri_at):
        Rec.log = []
        assert f(r)
        assert Rec.log and max(n for _, n in Rec.log) <= W, Rec.log  # the header, and windows of DATA_WIN at each end
        # (one find a whitespace character in each window, and the comma's in the header)
        assert sum(n for _, n in Rec.log) <= W + 2*len(sniff._ws_ascii)*W + 64, f
        assert {k for k, _ in Rec.log} <= {'getitem', 'find'}, Rec.log
    assert sniff.uri_at(r)[1] is r

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_payload_not_scanned(api, decodes):
    """mk_msg([uri, 'hi']): the payload is never scanned by a str method. OpenAI (both) pass the URI object itself on;
    Anthropic takes bare base64, so its payload is sliced off (one copy: `s[at:]`), never decoded; Gemini and Bedrock
    send bytes (msgkit's form for their `data`/`bytes`), so the payload is decoded, and from a third call on recalled.
    Every API decodes the ends (352 and 64 characters) to check them and tell the image's type."""
    Rec.log = []
    r = Rec(URI)
    m = msgkit.mk_msg([r, 'hi'], api=api)
    c = m['content'] if 'content' in m else m['parts']
    big = [(k, n) for k, n in Rec.log if n > BOUND]
    held = [v for v in _leaves(dict(c[0])) if isinstance(v, (str, bytes)) and len(v) > 1000]
    if api in ('openai', 'openai_chat'):
        assert not big, big
        assert len(held) == 1 and held[0] is r  # the very URI, not a copy
        assert max(decodes) <= 352, decodes  # (its ends, decoded to be checked and typed: never the payload)
    elif api == 'anthropic':
        assert big == [('getitem', len(URI) - AT)], big  # the one slice that takes the payload out of the URI
        assert held == [URI[AT:]] and type(held[0]) is str
        assert max(decodes) <= 352, decodes
    else:
        assert big == [('getitem', len(URI) - AT)], big  # sliced once to be decoded (a str subclass: not by `binascii`)
        assert sorted(decodes)[-1] == len(URI) - AT and sorted(decodes)[-2] <= 352, decodes  # decoded once
        assert held == [PNG]
    u = ''.join([URI[:10], URI[10:]])  # a plain str (the memo path): decoded at most twice in three calls
    decodes.clear()
    m1 = msgkit.mk_msg([u, 'hi'], api=api)
    m2 = msgkit.mk_msg([u, 'hi'], api=api)
    m3 = msgkit.mk_msg([u, 'hi'], api=api)
    full = [n for n in decodes if n > 352]
    # (was once in two calls: the memo keeps the bytes only for a URI met before, so one met once leaves nothing behind)
    assert full == ([] if api in ('openai', 'openai_chat', 'anthropic') else [len(URI) - AT]*2), decodes
    assert m1 == m2 == m3

def test_prose_not_kept_by_the_memo():
    t = 'Please summarise: ' + 'lorem ipsum ' * 10_000
    before = sys.getrefcount(t)
    assert not sniff.is_data_uri(t)
    assert not any(e[0] is t for e in list(codec._memo.values())) and sys.getrefcount(t) == before
