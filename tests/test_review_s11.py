"""Review of 1971a60 (#22, session 11): a large data URI met again is read by its ends (`mediapart.uri_media`, its memo
`_ends`; openai_chat's own-block verdict noted in the same entry: `uri_note`/`uri_noted`).

Each test compares with what a fresh reading gives (the memo emptied: `mediapart._ends.clear()`), with what the library
did before the commit, or with what the oracle takes. The first group are defects (they fail at 1971a60); the second
are the areas probed that held (regression tests, passing)."""
import base64, hashlib, json, threading, warnings
import pytest
import msgkit
from msgkit import codec, mediapart, sniff
from msgkit.mediapart import media, to_part, LazyMedia
from msgkit.registry import get_api
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from oracle import check

W = sniff.DATA_WIN
N = 52_000  # bytes: base64 just over LAZY_MIN (read lazily, so memoised)
PNG_S = msgkit.sample('gradient.png').read_bytes()
PDF_S = msgkit.sample('report.pdf').read_bytes()

def pad(b, n=N): return b + bytes(n - len(b))
BLOBS = {'image/png': pad(PNG_S), 'application/pdf': pad(PDF_S[:-7] + b'\n%' + b'x'*100) + b'\n%%EOF\n',
         'audio/wav': pad(b'RIFF\x00\x00\x01\x00WAVEfmt '),
         'video/mp4': pad(b'\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom')}

def uri(b, mt): return f'data:{mt};base64,' + base64.b64encode(b).decode()
def put(s, i, c): i %= len(s); return s[:i] + c + s[i+1:]
def chat_hist(v): return [dict(role='user', content=[dict(type='image_url', image_url=dict(url=v)), dict(type='text', text='What is it?')])]
def jd(ms): return json.dumps(ms, default=lambda b: base64.b64encode(b).decode() if isinstance(b, bytes) else repr(b))

def call(f, *a):
    "`('ok', result)` or `('raise', error type, message)`, and the warnings said"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try: r = ('ok', f(*a))
        except Exception as e: r = ('raise', type(e).__name__, str(e))
    return r + (tuple(sorted(str(x.message) for x in w)),)

def fresh(f, *a):
    mediapart._ends.clear()
    return call(f, *a)

@pytest.fixture(autouse=True)
def empty_memo():
    mediapart._ends.clear()
    yield
    mediapart._ends.clear()

# ====================================================================================================== defects found, fixed

def test_mistral_document_url_reads():
    "Fixed: dialects/base.py's `parse_block` calls `uri_media`, which that module never imports: every `document_url`"
    # (a data URI or an https URL alike) fails with a NameError (before the commit: the same, with `uri_at`)
    for u in (uri(BLOBS['application/pdf'], 'application/pdf'), 'data:application/pdf;base64,' + base64.b64encode(PDF_S).decode(),
              'https://example.com/a.pdf'):
        h = [dict(role='user', content=[dict(type='document_url', document_url=u), dict(type='text', text='Sum it up')])]
        ms = msgkit.mk_msgs(h, 'mistral')
        assert ms[0]['content'][0]==dict(type='document_url', document_url=u)

def test_verdicts_per_entry_bounded():
    "Fixed: each adapter instance's own-block verdict is added to the URI's entry for good: an entry's verdict set"
    # grows without bound (one `('own', adapter)` a call here), each holding its adapter; an entry should stay a few KB
    # (adapters are also held by plain.py's `_ok` cache: older, not this commit's, so not asserted here)
    v = uri(BLOBS['image/png'], 'image/png')
    for _ in range(40):
        assert msgkit.mk_msgs(chat_hist(v), OpenAIChatAdapter())[0]['content'][0]['image_url']['url'] is v
    e = mediapart._ends_of(v)
    assert e is None or len(e[6]) <= 4, len(e[6])

class _Ascii(str):
    "A str that says it is ASCII (a hostile subclass)"
    def isascii(self): return True

def test_subclass_reading_not_kept_for_a_str():
    "Fixed: `_ends_of` asks only of an exact str, but `uri_media` keeps the reading of a str subclass too: a plain str"
    # met later at its address with the same length and ends is taken as that subclass read it, not as read afresh
    u = uri(BLOBS['image/png'], 'image/png'); at = u.index(',') + 1
    w = put(u, at + 1000, '\u2003')  # an em space in the head window: no data URI (`uri_at`)
    assert not sniff.is_data_uri(w)
    want = fresh(lambda: jd(msgkit.mk_msgs(chat_hist(w), 'openai')))
    assert want[0]=='raise'
    sv = _Ascii(w)
    mediapart._ends.clear(); mediapart.uri_media(sv)
    e = mediapart._ends.get(id(sv))
    mediapart._ends.clear()
    if e is not None: mediapart._ends[id(w)] = e  # (the subclass freed, a str at its address)
    assert call(lambda: jd(msgkit.mk_msgs(chat_hist(w), 'openai')))==want

def test_b64_memo_zero_turns_ends_off(monkeypatch):
    "Fixed (a contract): README: the memo 'holds at most `codec.B64_MEMO` (0 turns it off)... A payload met once leaves"
    # nothing behind'. Before the commit, openai_chat's own verdict obeyed it (`not too_big(len(u))`); `_ends` doesn't
    monkeypatch.setattr(codec, 'B64_MEMO', 0)
    v = uri(BLOBS['image/png'], 'image/png')
    for api in ('openai', 'openai_chat'): msgkit.mk_msgs(chat_hist(v), api); msgkit.mk_msgs(chat_hist(v), api)
    media(v); to_part(v)
    assert not mediapart._ends

def test_media_field_named_s():
    "Fixed (was a regression of 1971a60): `media`'s **kw are extra part fields; one named `s` now collides with `uri_media(s, ...)`"
    v = uri(BLOBS['image/png'], 'image/png')
    assert media(PNG_S, s=1)['s']==1  # (bytes: fine)
    assert media(v, s=1)['s']==1      # (before 1971a60: fine; now InputTypeError 'multiple values for argument s')

# ====================================================================================================== clean areas

def _variants():
    "Same-length hostile variants of each blob's URI (so planted entries can match): edits at and around both windows"
    vs = {}
    for mt,b in BLOBS.items():
        u = uri(b, mt); at = u.index(',') + 1; n = len(u)
        vs[mt] = u
        vs[mt + ' upper'] = u[:at].upper() + u[at:]
        for c in (' ', '%', '\u2003', '\ud800', '\U0001F600', '!'):
            for where,i in (('mid', n//2), ('past head', at+W), ('head edge', at+W-1), ('tail edge', n-W),
                            ('before tail', n-W-1)):
                vs[f'{mt} {c!r} {where}'] = put(u, i, c)
    return vs

def _part(p):
    d = dict(dict.items(p)); d.pop('data', None)
    try: dat = hashlib.md5(p.data).hexdigest() if 'data' in p else None
    except Exception as e: dat = ('raise', type(e).__name__, str(e))
    return type(p).__name__, sorted((k, repr(x)) for k,x in d.items()), dat

ENTRIES = {
    'media': lambda v: _part(media(v)),
    'media filename': lambda v: _part(media(v, filename='x.pdf')),
    'media mt': lambda v: _part(media(v, mt='image/png')),
    'to_part': lambda v: _part(to_part(v)),
    'mk_msg openai': lambda v: jd(msgkit.mk_msg(v, api='openai')),
    'responses input_file': lambda v: jd(msgkit.mk_msgs([dict(role='user', content=[
        dict(type='input_file', file_data=v, filename='a.pdf')])], 'openai')),
    'responses input_image -> chat': lambda v: jd(msgkit.mk_msgs([dict(role='user', content=[
        dict(type='input_image', image_url=v)])], 'openai_chat')),
    'chat file -> responses': lambda v: jd(msgkit.mk_msgs([dict(role='user', content=[
        dict(type='file', file=dict(file_data=v, filename='b.pdf'))])], 'openai')),
    'chat own': lambda v: jd(msgkit.mk_msgs(chat_hist(v), 'openai_chat')),
    'chat -> gemini': lambda v: jd(msgkit.mk_msgs(chat_hist(v), 'gemini')),
}

@pytest.fixture(scope='module')
def corpus():
    vs = _variants()
    ents = {}
    for k,v in vs.items():
        mediapart._ends.clear()
        for f in ENTRIES.values(): call(f, v)
        if (e := mediapart._ends.get(id(v))) is not None: ents[k] = e
    mediapart._ends.clear()
    return vs, ents

@pytest.mark.parametrize('name', list(ENTRIES))
def test_planted_entries_every_caller(corpus, name):
    "Every caller of `uri_media` (media with and without mt/filename, to_part, mk_msg, Responses' input_file/"
    # input_image, Chat's file): with each same-length variant's entry planted at its address, as read afresh
    vs, ents = corpus
    f = ENTRIES[name]
    assert len(ents) >= 20
    hits = 0
    for k,v in vs.items():
        want = fresh(f, v)
        for w,e in ents.items():
            if e[0]!=len(v) or w.split(' ')[0]!=k.split(' ')[0]: continue  # (others' ends never match)
            mediapart._ends.clear(); mediapart._ends[id(v)] = e
            hits += mediapart._ends_of(v) is not None  # (another string's entry taken as this one's)
            assert call(f, v)==want, (name, k, 'planted:', w)
    assert hits >= 100, hits

def test_real_address_reuse_and_threads(monkeypatch):
    "URIs of one length differing only in the middle, made anew each round (addresses reused for real), the memo"
    # cleared often (ENDS_MEMO 8), from two threads: each outcome as read afresh
    monkeypatch.setattr(mediapart, 'ENDS_MEMO', 8)
    u = uri(BLOBS['image/png'], 'image/png'); n = len(u)
    marks = [' ', '%', '!', 'é', '=', 'A', '\x00', '-']
    def make(i): return put(u, n//2 + i % 5, marks[i % len(marks)])  # (a new object each time)
    apis = ('openai', 'openai_chat', 'gemini')
    want = {(i, api): fresh(lambda: jd(msgkit.mk_msgs(chat_hist(make(i)), api))) for i in range(16) for api in apis}
    bad = []
    def work(seed):
        for r in range(6):
            for i in range(16):
                i = (i*7 + seed + r) % 16
                for api in apis:
                    got = call(lambda: jd(msgkit.mk_msgs(chat_hist(make(i)), api)))
                    if got!=want[i, api]: bad.append((i, api, got[:2]))
    ts = [threading.Thread(target=work, args=(s,)) for s in (0, 5)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert not bad, bad[:3]
    assert len(mediapart._ends) <= 8 + 2

@pytest.mark.parametrize('patch', ['limits', 'media_types', 'part'])
def test_own_verdict_after_a_patch(patch):
    "openai_chat's own verdict noted, then the adapter patched: what `mk_msgs` gives is still what it gives afresh"
    v = uri(BLOBS['image/png'], 'image/png'); ad = get_api('openai_chat')
    msgkit.mk_msgs(chat_hist(v), 'openai_chat')
    assert mediapart.uri_noted(v, 'openai_chat own')
    old = OpenAIChatAdapter.__dict__[patch]
    if patch=='limits': new = dict(old, image=(10_000, 'raw'))
    elif patch=='media_types': new = dict(old, image=set())
    else: new = lambda self, p, role='user', detail=None, reasoning_field=None: old(self, p, role, detail or 'low', reasoning_field)
    setattr(OpenAIChatAdapter, patch, new)
    try:
        warm = call(lambda: jd(msgkit.mk_msgs(chat_hist(v), 'openai_chat')))
        assert warm==fresh(lambda: jd(msgkit.mk_msgs(chat_hist(v), 'openai_chat')))
    finally: setattr(OpenAIChatAdapter, patch, old)

def test_warm_outputs_pass_the_oracle():
    "PDF, audio and images by data URI with params, met again: what the APIs take"
    pdf = 'data:application/pdf;name=r.pdf;base64,' + base64.b64encode(BLOBS['application/pdf']).decode()
    wav = uri(BLOBS['audio/wav'], 'audio/wav')
    png = 'DATA:IMAGE/PNG;BASE64,' + base64.b64encode(BLOBS['image/png']).decode()
    h = [dict(role='user', content=[dict(type='input_file', file_data=pdf, filename='r.pdf'), dict(type='input_image', image_url=png),
                                    dict(type='input_text', text='What are these?')])]
    for api in ('openai', 'openai_chat', 'anthropic', 'bedrock', 'gemini'):
        mediapart._ends.clear(); first = msgkit.mk_msgs(h, api)
        again = msgkit.mk_msgs(h, api)
        assert jd(again)==jd(first)
        check(api, again)
    assert mediapart._ends_of(pdf) is not None
    a = media(wav); b = media(wav)
    assert (a['type'], a['mt']) == (b['type'], b['mt']) == ('audio', 'audio/wav') and mediapart._ends_of(wav) is not None

def test_memo_holds_no_uri_and_entries_small():
    "After many URIs (whitespace round them, params, upper case, subclasses): no entry holds a URI, each a few KB"
    import sys
    keep = []
    for i in range(40):
        u = uri(BLOBS['image/png'][:-i-1], 'image/png')
        for v in (u, ' ' + u + '\n', u[:5].upper() + u[5:], 'data:image/png;name=a.png;base64,' + u.split(',', 1)[1], _Ascii(u)):
            keep.append(v); media(v); to_part(v); msgkit.mk_msgs(chat_hist(v), 'openai_chat')
    assert 0 < len(mediapart._ends) <= mediapart.ENDS_MEMO
    ids = {id(v) for v in keep}
    for e in mediapart._ends.values():
        assert not any(id(o) in ids for o in e[:6]) and not any(id(o) in ids for o in e[6])
        assert sys.getsizeof(e[1]) + sys.getsizeof(e[2]) < 3*W + 200
