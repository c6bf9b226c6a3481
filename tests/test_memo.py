"""The payload memo's policy (01_codec): a payload met once leaves nothing of msgkit's output behind; one met again is
kept the second time and handed back from the third; an id reused by a new object is never a hit; what only the memo
holds is dropped. Counts (references, bytes, page faults), never times."""
import base64, binascii, gc, os, random, sys
import pytest
import msgkit
from msgkit import codec, mediapart, sniff

@pytest.fixture
def memo(monkeypatch):
    "An empty memo of its own for the test (other tests' payloads out of the way), at its usual size"
    monkeypatch.setattr(codec, '_memo', {}); monkeypatch.setattr(codec, '_memo_n', [0])
    monkeypatch.setattr(codec, '_dec', {}); monkeypatch.setattr(codec, '_new', [0])
    monkeypatch.setattr(codec, 'B64_MEMO', 256*1024*1024)
    return codec

def kept(m=codec):
    "The large counterparts the memo keeps (not notes, not verdicts)"
    return [v for e in m._memo.values() for v in e[1].values() if type(v) in (str, bytes) and len(v) >= m.MEMO_MIN]

def fresh(n=300_000, seed=0): return bytes(bytearray(random.Random(seed).randbytes(n)))
def uri(b): return 'data:image/png;base64,' + base64.b64encode(b).decode()
PNG = msgkit.sample('gradient.png').read_bytes()
def png(n=300_000): return PNG[:-12] + os.urandom(n) + PNG[-12:]  # a real PNG's head (told by its signature), noise

# ---------------------------------------------------------------------------------------------------------------------
# (1) met once: nothing of the output kept

def test_first_sight_keeps_no_output(memo):
    b = fresh()
    s = memo.b64(b)
    assert s == base64.b64encode(b).decode()
    assert sys.getrefcount(s) == 2  # `s` and the call's argument: the memo holds none of it
    assert memo._memo_n[0] == len(b) and not kept()  # its note: the payload (the caller's), nothing of its text
    u = uri(fresh(seed=1))
    d = memo.unb64(u, True, 22)
    assert d == fresh(seed=1) and sys.getrefcount(d) == 2 and not kept()
    p = mediapart.uri_payload(u, 22)
    assert p == u[22:] and sys.getrefcount(p) == 2 and not kept()

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_mk_msg_of_fresh_payloads_keeps_no_output(memo, api):
    "Bytes, a data URI, a history of data URIs loaded from JSON: each met once, so nothing msgkit made of them is kept"
    import json
    from msgkit import mk_msg, mk_msgs
    for x in (png(), uri(png())):
        m = mk_msg([x, 'What?'], api=api)
        assert not kept(), (api, type(x))
        del m
    h = json.dumps([dict(role='user', content=[dict(type='image_url', image_url=dict(url=uri(png()))),
                                               dict(type='text', text='What?')]), 'Noise.'] * 3)
    for _ in range(3):
        out = mk_msgs(json.loads(h), api)  # new strings each time: first sights, every one
        assert not kept(), api
    del out

def test_fresh_payloads_are_let_go(memo):
    "A loop over fresh payloads: the memo holds at most the last few (the note of what is still the caller's)"
    for i in range(30): memo.b64(fresh(100_000, i))
    assert len(memo._memo) <= 2 and memo._memo_n[0] <= 200_000 and not kept()

# ---------------------------------------------------------------------------------------------------------------------
# (2) met again: kept the second time, handed back from the third

def test_second_sight_keeps_third_hits(memo):
    b = fresh()
    s1, s2, s3 = memo.b64(b), memo.b64(b), memo.b64(b)
    assert s1 == s2 == s3 and s1 is not s2 and s3 is s2 and kept() == [s2]
    p = 'data:image/png;base64,'
    t1, t2, t3 = (memo.b64(b, p) for _ in range(3))
    assert t1 == p + s1 and t1 is not t2 and t3 is t2
    u = uri(fresh(seed=1))
    d1, d2, d3 = (memo.unb64(u, True, 22) for _ in range(3))
    assert d1 == d2 == fresh(seed=1) and d1 is not d2 and d3 is d2
    assert memo.b64(d2, p) is u and memo.b64(d2, 'data:image/jpeg;base64,') == 'data:image/jpeg;base64,' + u[22:]  # its text: the URI
    x1, x2, x3 = (mediapart.uri_payload(u, 22) for _ in range(3))
    assert x1 == u[22:] and x1 is not x2 and x3 is x2
    s = base64.b64encode(fresh(seed=2)).decode()
    e1, e2, e3 = (memo.unb64(s) for _ in range(3))
    assert e1 is not e2 and e3 is e2 and memo.b64(e2) is s

def test_verdicts_kept_at_once(memo):
    "A small counterpart (a media type) holds nothing its note does not: kept the first time; a data URI's header is not kept"
    u = uri(png())
    h1, h2 = sniff.uri_at(u), sniff.uri_at(u)
    assert h1[1] is h2[1] is u and h1[2] == h2[2] and h1[0].groupdict() == h2[0].groupdict()
    # (session 9: read anew each time, ~5 µs; remembered, each URI was held alive, and freeing it later cost more)
    assert id(u) not in memo._memo
    b = b'%PDF-1.4\n' + fresh()
    assert sniff.media_type(b) == 'application/pdf' and memo.recall(('mt', id(b)), b) == 'application/pdf'
    i = png()
    assert sniff.media_type(i) == 'image/png' and id(i) not in memo._memo  # told by its signature: nothing remembered

def test_rebuilt_history_hits_from_the_third_build(memo):
    from msgkit import mk_msgs
    imgs = [png() for _ in range(3)]
    h = [[imgs[0], 'What is this?'], 'Noise.', [imgs[1], imgs[2], 'And these?']]
    a, b, c, d = (mk_msgs(h, 'anthropic') for _ in range(4))
    data = lambda m: [blk['source']['data'] for x in m if isinstance(x['content'], list) for blk in x['content'] if blk['type'] == 'image']
    assert a == b == c == d and all(x is not y for x, y in zip(data(a), data(b)))
    assert all(x is y for x, y in zip(data(b), data(c))) and all(x is y for x, y in zip(data(c), data(d)))

# ---------------------------------------------------------------------------------------------------------------------
# (3) an id reused by a new object is never a hit

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
def test_id_reused_is_never_a_hit(memo):
    "An object the caller dropped is let go; a new one at its address is met for the first time (when it gets one)"
    reused = 0
    for i in range(40):
        b = fresh(200_000, i)
        for _ in range(3): memo.b64(b)  # kept, then a hit
        old = id(b)
        del b; gc.collect()
        memo._purge([])  # (what new payloads would start: the memo drops what only it holds)
        b2 = fresh(200_000, 1000 + i)
        reused += id(b2) == old
        assert memo.recall(('enc', id(b2), ''), b2) is None
        assert memo.b64(b2) == base64.b64encode(b2).decode() and not kept()  # met once: nothing kept, not the old text
        s = base64.b64encode(fresh(60_000, i)).decode()
        for _ in range(3): memo.unb64(s)
        old = id(s); del s; memo._purge([])
        s2 = base64.b64encode(fresh(60_000, 2000 + i)).decode()
        assert memo.unb64(s2) == base64.b64decode(s2)
    if not reused: pytest.skip("the allocator never gave a new payload a dropped one's address here")

def test_memo_holds_what_it_notes(memo):
    "While an entry lives it holds its object, so no other object can take its id: `recall` asks for the object itself"
    b = fresh()
    memo.b64(b); memo.b64(b)
    assert memo.recall(('enc', id(b), ''), bytes(bytearray(b))) is None  # equal, not the same
    assert memo._memo[id(b)][0] is b

def test_only_held_by_the_memo_goes(memo):
    live, dead = fresh(100_000, 1), fresh(100_000, 2)
    for _ in range(2): memo.b64(live); memo.b64(dead)
    n = len(memo._memo)
    del dead; gc.collect()
    memo._purge([])
    assert len(memo._memo) == n - 1 and id(live) in memo._memo and memo._memo_n[0] == len(live) + len(kept()[0])

# ---------------------------------------------------------------------------------------------------------------------
# decoding: the same bytes and errors as `base64.b64decode`; `b64` of decoded bytes always the canonical text

def _outcome(f, *a, **kw):
    try: return f(*a, **kw)
    except (binascii.Error, ValueError) as e: return type(e), str(e)

def test_unb64_as_b64decode():
    r = random.Random(5)
    good = base64.b64encode(r.randbytes(50_000)).decode()
    cases = [good, good[:-1], good[:-2] + '==', '=' + good[1:], good[:100] + '==' + good[102:], good[:40_000] + '\n' + good[40_001:],
             good[:60] + 'é' + good[61:], good + '====', 'QQ==QUJD' * 10_000, good[:-4] + 'QR==']
    for s in cases:
        for v in (False, True):
            assert _outcome(codec.unb64, s, v) == _outcome(base64.b64decode, s, validate=v), (s[:20], v)
            u = 'data:x/y;base64,' + s
            assert _outcome(codec.unb64, u, v, 16) == _outcome(base64.b64decode, s, validate=v), (s[:20], v)

def test_b64_of_decoded_bytes_is_canonical(memo):
    "Base64 whose last character carries stray bits decodes to the same bytes: `b64` of them is still the canonical text"
    b = fresh(40_000)
    s = base64.b64encode(b).decode()
    abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
    odd = s[:-3] + abc[abc.index(s[-3]) ^ 1] + '=='  # (40,000 bytes: one in the last quantum, the low bits of its 2nd character free)
    assert base64.b64decode(odd) == b
    for _ in range(3): d = codec.unb64(odd)
    assert d == b and codec.b64(d) == s

# ---------------------------------------------------------------------------------------------------------------------
# (5) page faults: a payload met once is made in the memory the last one was made in

def _faults(f, n=20, warm=3):
    "Minor page faults while each of `n` calls `f()()` runs (after `warm` uncounted; what `f()` makes is not counted)"
    import resource
    flt = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    out = []
    for i in range(warm + n):
        x = f()
        t = flt(); y = x(); out.append(flt() - t)
        del x, y
    return out[warm:]

@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='counts minor page faults (Linux getrusage)')
def test_fresh_payloads_fault_no_fresh_pages(memo):
    """Encoding a fresh 1 MB payload 20 times in a row (and 20 fresh images to Anthropic, 20 fresh data URIs decoded for
    Gemini): no call faults in a page for each 4 KB of its text, as each did when the memo kept every text and so each
    new one needed new memory (~325 faults a call). (glibc hands the top of its heap back to the OS when much lies free
    there; a 4 MB block freed first moves that line above one call's worth, as in any process that has freed large
    blocks.)"""
    x = bytearray(4 << 20); del x
    img = PNG[:-12] + os.urandom(1_000_000) + PNG[-12:]
    page = (4*len(img)//3) // 4096  # a page for each 4 KB of one text: ~325
    u = uri(img)
    for f in (lambda: (lambda b=bytes(bytearray(img)): codec.b64(b)),
              lambda: (lambda b=bytes(bytearray(img)): msgkit.mk_msg([b, 'What?'], api='anthropic')),
              lambda: (lambda s=''.join([u[:10], u[10:]]): msgkit.mk_msg([s, 'What?'], api='gemini'))):
        n = _faults(f)
        assert sum(o > page/2 for o in n) <= 1 and sum(n) < 20*page/10, (n, page)
