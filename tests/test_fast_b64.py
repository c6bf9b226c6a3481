"The `fast` extra (pybase64): the same text and bytes as the standard library, the same errors, and used where it says"
import base64, binascii, os, random
import pytest
import pybase64  # (a dev requirement: these tests need it installed, and CI installs it)
import msgkit
from msgkit import codec
from msgkit.codec import MEMO_MIN

@pytest.fixture
def fast(request):
    "Run a test with the fast extra on, then off (`codec.FAST_B64`)"
    old = codec.FAST_B64
    codec.FAST_B64 = request.param
    yield request.param
    codec.FAST_B64 = old

def both(f):
    "`f()` with the fast extra on and off: each its result, or its exception's type and words"
    out = []
    for on in (True, False):
        old,codec.FAST_B64 = codec.FAST_B64,on
        try: out.append(('ok', f()))
        except Exception as e: out.append((type(e), str(e)))
        finally: codec.FAST_B64 = old
    return out

SIZES = [0, 1, 2, 3, MEMO_MIN-1, MEMO_MIN, MEMO_MIN+1, 3<<14, (3<<14)+1, 3<<16, (3<<16)+1, (3<<16)+2,
         2*(3<<16)+5, 1<<20]

@pytest.mark.parametrize('fast', [True, False], indirect=True)
@pytest.mark.parametrize('n', SIZES)
def test_encode_is_the_standard_librarys(fast, n):
    b = os.urandom(n)
    want = base64.b64encode(b).decode()
    assert (codec._fast() is not None) == fast
    for x in (b, bytearray(b), memoryview(b)):
        assert codec._b64_str(x) == want
        assert codec._b64_str(x, 'data:image/png;base64,') == 'data:image/png;base64,' + want
    assert codec.b64(bytes(b)) == want  # (through the memo: a fresh object)

@pytest.mark.parametrize('n', [MEMO_MIN, (3<<16)+1, 1<<20])
def test_decode_is_the_standard_librarys(n):
    b = os.urandom(n); s = base64.b64encode(b).decode(); u = 'data:image/png;base64,' + s
    assert both(lambda: codec._unb64(s, True)) == [('ok', b)]*2
    assert both(lambda: codec._unb64(u, True, 22)) == [('ok', b)]*2
    assert both(lambda: codec.unb64(u[:], True, 22)) == [('ok', b)]*2

def _mutants(s, rng, k=60):
    "Texts near valid base64 `s`: a character put in, changed or taken out, padding moved, the text cut"
    odd = ['=', '==', '-', '_', ' ', '\n', '\r\n', '\t', '@', '!', 'é', '\x00', '\ud800', 'A', '/', '+', '.']
    out = [s + '=', s + '==', s[:-1], s[:-2], s[:-3], '=' + s[1:], s[:4] + '=' + s[5:], s[:-4] + 'QQ==',
           s[:-4] + 'QR==', s[:-4] + 'QUI=', s[:-4] + 'QUJ=', s[:-4] + 'Q===', s[:-4] + '====', s + 'QQ==',
           s[:-2] + '=A', s.replace('+', '-'),
           s.replace('/', '_'), s[:100] + '\n' + s[100:], s + '\n', ' ' + s, s + ' ']
    for _ in range(k):
        i = rng.randrange(len(s)); c = rng.choice(odd)
        out.append(rng.choice([s[:i] + c + s[i:], s[:i] + c + s[i+1:], s[:i] + s[i+1:]]))
    return out

def test_refusals_are_the_standard_librarys():
    "Every near miss decodes to the same bytes both ways, or fails the same way, in the standard library's words"
    rng = random.Random(22)
    b = os.urandom(MEMO_MIN + 7); s = base64.b64encode(b).decode()
    for m in _mutants(s, rng) + _mutants(base64.b64encode(os.urandom(3*MEMO_MIN)).decode(), rng):
        for at,pre in ((0, ''), (22, 'data:image/png;base64,')):
            r = both(lambda: codec._unb64(pre + m, True, at))
            assert r[0] == r[1], (m[:20], m[-20:], r[0][0], r[1][0])

def test_fast_decoder_used_where_it_says(monkeypatch):
    "Large text checked strictly and canonically shaped: the fast decoder; small, lenient or oddly shaped: the stdlib's"
    calls = []
    real = pybase64.b64decode
    monkeypatch.setattr(pybase64, 'b64decode', lambda *a, **kw: calls.append(1) or real(*a, **kw))
    big = base64.b64encode(os.urandom(MEMO_MIN)).decode()
    codec._unb64(big, True); assert len(calls) == 1
    codec._unb64(big, False); codec._unb64(big[:MEMO_MIN//2], True); assert len(calls) == 1
    with pytest.raises(binascii.Error, match='number of data characters'): codec._unb64(big[:-4] + 'Q===', True)
    assert len(calls) == 2  # (refused by it: the standard library's words)
    codec.FAST_B64 = False
    try: codec._unb64(big, True)
    finally: codec.FAST_B64 = True
    assert len(calls) == 2

def test_takes_none_the_stdlib_refuses(monkeypatch):
    "Short random texts of a few base64 characters and `=`, decoded as large ones are: the standard library's answer"
    monkeypatch.setattr(codec, 'MEMO_MIN', 0)  # (every text the fast decoder's)
    rng,al = random.Random(7),'AQgw+/='
    for n in range(1, 13):
        for _ in range(2000):
            s = ''.join(rng.choice(al) for _ in range(n))
            try: want = ('ok', binascii.a2b_base64(s, strict_mode=True))
            except Exception as e: want = (type(e), str(e))
            r = both(lambda: codec._unb64(s, True))
            assert r == [want, want], s

def test_fast_encoder_used(monkeypatch):
    calls = []
    real = pybase64.b64encode
    monkeypatch.setattr(pybase64, 'b64encode', lambda *a, **kw: calls.append(1) or real(*a, **kw))
    codec._b64_str(os.urandom(MEMO_MIN)); assert calls
    n = len(calls); codec._b64_str(os.urandom(MEMO_MIN - 1)); assert len(calls) == n  # (small: the stdlib's)

def test_without_pybase64(monkeypatch):
    "The extra not installed: the standard library does it all"
    monkeypatch.setattr(codec, '_pyb', [None])
    b = os.urandom(MEMO_MIN*3)
    assert codec._fast() is None
    assert codec._b64_str(b) == base64.b64encode(b).decode()
    assert codec._unb64(base64.b64encode(b).decode(), True) == b

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_messages_the_same_either_way(api):
    "Image bytes and data URIs to each API: the same messages with the extra and without"
    img = msgkit.sample('gradient.png').read_bytes()
    png = img + b'\0' * (MEMO_MIN * 2)  # (a PNG's header, large enough for the fast paths)
    uri = 'data:image/png;base64,' + base64.b64encode(png).decode()
    def go():  # (fresh bytes and a fresh URI each time: the memo keys by object)
        img = {'type': 'image_url', 'image_url': {'url': ''.join([uri[:5], uri[5:]])}}
        h = [[bytes(bytearray(png)), 'what is this?'], 'a gradient', {'role': 'user', 'content': [img]}]
        return msgkit.jsonable(msgkit.mk_msgs(h, api))
    r = both(go)
    assert r[0][0] == 'ok' and r[0] == r[1]
