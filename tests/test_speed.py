"""The fast paths give what the full path gives: the same messages, of the same types, for every API."""
import base64, importlib, random, warnings
import pytest
from msgkit import mk_msgs, apis, get_api
from oracle import check

core = importlib.import_module('msgkit.core')
WORDS = ['Hello', 'How are you?', 'Fine.  ', 'trailing space ', ' lead', 'multi\nline', 'https://example.com/a.png', 'http://x', 'data:text/plain,hi',
         '', '   ', 'Data: 1, 2', ' data:text/plain;base64,aGVsbG8=', '\tdata:text/plain,hi', 'ünïcødé', '{"json": 1}', 'x' * 300]

OWN = dict(gemini=lambda role, s: dict(role='model' if role == 'assistant' else role, parts=[dict(text=s)]),
           bedrock=lambda role, s: dict(role=role, content=[dict(text=s)]))

def hist(r, api=None):
    "A random history of strings, role-and-content dicts, odd roles, blocks, the API's own text messages and what mk_msgs returned"
    h, role = [], 'user'
    for _ in range(r.randrange(0, 8)):
        s = r.choice(WORDS)
        k = r.random()
        if k < 0.45: h.append(s)
        elif k < 0.55 and api in OWN: h.append(OWN[api](r.choice([role, role, 'user', 'assistant']), s))
        elif k < 0.6 and s.strip():
            try: h.append(mk_msgs([s] if role == 'user' else ['q', s], api or 'openai')[-1])  # a Msg, as a chat loop sends it back
            except ValueError: h.append(s)
        elif k < 0.8: h.append(dict(role=role, content=s))
        elif k < 0.9: h.append(dict(role=r.choice(['user', 'assistant', 'system']), content=s))
        else: h.append(dict(role=role, content=[dict(type='text', text=s or 'x')]))
        role = 'assistant' if role == 'user' else 'user'
    return h

def types(x):
    if isinstance(x, dict): return (type(x).__name__, {k: types(v) for k, v in x.items()})
    if isinstance(x, list): return (type(x).__name__, [types(v) for v in x])
    return type(x).__name__

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_fast_path_same_as_full(api, monkeypatch):
    r, fast_used = random.Random(api), 0
    for _ in range(400):
        h = hist(r, api)
        def run():
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try: return mk_msgs(h, api)
                except (TypeError, ValueError) as e: return type(e), str(e)
        fast_used += core._texts(h, get_api(api)) is not None
        a = run()
        with monkeypatch.context() as m:
            m.setattr(core, '_texts', lambda *a: None)
            b = run()
        assert a == b and types(a) == types(b), (h, a, b)
        if isinstance(a, list) and a and core._texts(h, get_api(api)) is not None: check(api, a)  # and what the fast path makes, the API accepts
    assert fast_used > 50

sniff = importlib.import_module('msgkit.codec')  # the base64 memo

def test_b64_memo_and_in_place_encoding(monkeypatch):
    import base64, os
    b = os.urandom(200_000)
    # remembered by the object on second sight (was: kept at once): met once, nothing of its text is kept (01_codec)
    s0, s = sniff.b64(b), sniff.b64(b)
    assert s0 == s == base64.b64encode(b).decode() and s0 is not s and sniff.b64(b) is s  # encoded twice, then remembered
    assert sniff.b64(bytes(bytearray(b))) == s  # equal bytes, another object: encoded again, the same text
    u0, u = sniff.b64(b, 'data:image/png;base64,'), sniff.b64(b, 'data:image/png;base64,')
    assert u0 == u == 'data:image/png;base64,' + s and sniff.b64(b, 'data:image/png;base64,') is u
    ba = bytearray(b)
    assert sniff.b64(ba) == sniff.b64(ba) == s and id(ba) not in sniff._memo  # mutable: never remembered
    d0, d = sniff.unb64(s), sniff.unb64(s)
    assert d0 == d == b and sniff.unb64(s) is d and sniff.b64(d) is s  # decoded text comes back as the same text, not re-encoded
    big = os.urandom((1 << 20) + 7)  # built in place: the same text as the plain way
    assert sniff._b64_str(big, 'data:x/y;base64,') == 'data:x/y;base64,' + base64.b64encode(big).decode()
    monkeypatch.setattr(sniff, 'B64_MEMO', 1_000_000)  # a bounded memo: the oldest go first
    for _ in range(10): sniff.b64(os.urandom(100_000))
    assert sniff._memo_n[0] <= 1_000_000

def test_image_history_rebuilt_from_the_memo():
    "A chat app rebuilds the same history every turn: from the third build on, the base64 of every image is reused"
    import os
    from msgkit import mk_msgs
    img = b'\x89PNG\r\n\x1a\n' + os.urandom(300_000)
    h = [[img, 'What is this?'], 'Noise.', 'Again?']
    a, b, c = mk_msgs(h, 'anthropic'), mk_msgs(h, 'anthropic'), mk_msgs(h, 'anthropic')
    # (was from the second: the memo keeps a text only for bytes met before, so bytes met once leave nothing behind)
    assert a == b == c and b[0]['content'][0]['source']['data'] is c[0]['content'][0]['source']['data']

def test_b64_of_wide_buffers():
    "A buffer of wider items (an array of ints, numpy's) is encoded by its bytes, in place or not: the same text as base64's"
    import array, base64, os
    for n in (1000, 300_000, (1 << 20) + 3):
        a = array.array('I', os.urandom(4 * n))
        mv = memoryview(a)
        assert sniff.b64(mv) == base64.b64encode(mv).decode() == sniff.b64(a)
        assert sniff.b64(mv, 'data:x/y;base64,') == 'data:x/y;base64,' + base64.b64encode(mv).decode()
    mv2 = memoryview(bytes(range(256)) * 5000).cast('B', (1000, 1280))  # two-dimensional
    assert sniff.b64(mv2) == base64.b64encode(mv2.tobytes()).decode()

def test_b64_memo_shared_by_threads(monkeypatch):
    "Threads encoding and decoding at once: no error, and the memo's count of what it holds stays true"
    import base64, os, threading
    monkeypatch.setattr(sniff, 'B64_MEMO', 2_000_000)
    bs = [os.urandom(40_000 + i) for i in range(40)]
    ss = [base64.b64encode(b).decode() for b in bs]
    errs = []
    def work(k):
        try:
            for i in range(300):
                j = (i * 7 + k) % 40
                assert sniff.b64(bs[j]) == ss[j] and sniff.unb64(ss[j]) == bs[j]
        except Exception as e: errs.append(e)
    ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert not errs, errs[:3]
    held = lambda e: len(e[0]) + sum(len(v) for v in e[1].values() if type(v) in (str, bytes))  # an object, what is kept of it
    assert sniff._memo_n[0] == sum(held(e) for e in sniff._memo.values()) <= 2_000_000

def test_b64_memo_keeps_no_large_payload():
    "A payload over a quarter of the memo is not kept: a large PDF costs its floor every time, not a copy held for the next"
    import os
    b = os.urandom(30 * 1024 * 1024)
    s = sniff.b64(b)
    assert not any(e[0] is b or any(v is s for v in e[1].values()) for e in sniff._memo.values())

def test_unb64_validates_what_it_remembers():
    "Text first decoded leniently is still checked when validation is asked for"
    import binascii
    s = 'A' * 40_000 + '!!!!'
    sniff.unb64(s)
    with pytest.raises(binascii.Error): sniff.unb64(s, validate=True)

def test_stored_base64_history_is_not_decoded(monkeypatch):
    "A history in Anthropic's or OpenAI's form loaded from JSON each turn goes back to its own API without decoding a payload; to another API, decoded once, the same bytes"
    import base64, json, os
    from msgkit import mk_msgs, read_history, jsonable
    png = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')
    imgs = [png[:33] + os.urandom(300_000) + png[33:] for _ in range(3)]  # big "PNGs": a real header, noise
    h = [[imgs[0], 'What is this?'], 'Noise.', [imgs[1], imgs[2], 'And these?']]
    real, big = sniff.unb64, []
    def counting(s, validate=False, at=0):
        if len(s) - at > 100_000: big.append(len(s) - at)
        return real(s, validate, at)
    for api in ('anthropic', 'openai', 'openai_chat'):
        js = json.dumps(jsonable(mk_msgs(h, api)))
        monkeypatch.setattr(sniff, 'unb64', counting)
        for mod in ('msgkit.sniff', 'msgkit.mediapart', 'msgkit.history'): monkeypatch.setattr(importlib.import_module(mod), 'unb64', counting, raising=False)
        big.clear()
        out = mk_msgs(json.loads(js), api)
        assert json.dumps(jsonable(out), sort_keys=True) == json.dumps(json.loads(js), sort_keys=True) and not big, (api, big)  # the same request, nothing decoded
        g = mk_msgs(json.loads(js), 'gemini')  # another API needs the bytes: each decoded once
        assert [p['inline_data']['data'] for m in g for p in m['parts'] if 'inline_data' in p] == imgs and len(big) == 3
        ps = [p for t in read_history(json.loads(js), ad=get_api(api)) for p in t.parts if p.type == 'image']
        assert [p.data for p in ps] == imgs and json.loads(json.dumps(jsonable(ps)))  # a lazy part is a part: its data there when read
        monkeypatch.undo()

def test_lazy_part_checks_its_base64():
    "A large block whose base64 is broken at either end is refused at once; one broken in the middle when its bytes are read"
    from msgkit import mk_msgs
    good = base64.b64encode(b'\x89PNG\r\n\x1a\n' + bytes(200_000)).decode()
    block = lambda d: [dict(role='user', content=[dict(type='image', source=dict(type='base64', media_type='image/png', data=d)), dict(type='text', text='?')])]
    for bad in ('!' + good[1:], good[:-4] + '!!!!', good[:-1]):
        with pytest.raises(ValueError): mk_msgs(block(bad), 'anthropic')
    mid = good[:100_000] + '!!!!' + good[100_004:]
    with pytest.raises(ValueError): mk_msgs(block(mid), 'gemini')

def test_lazy_part_is_a_dict_like_any_part():
    "Every dict operation on an undecoded LazyMedia gives what it gives on the eager Part (the bytes decoded first where it must see them)"
    import copy, pickle
    from msgkit.mediapart import b64_media, media
    raw = b'\x89PNG\r\n\x1a\n' + bytes(100_000)
    s = base64.b64encode(raw).decode()
    ops = [lambda p: p.setdefault('data', b'x'), lambda p: len(p.pop('data')), lambda p: (p.pop('data', None), 'data' in p)[1],
           lambda p: (p.__delitem__('data'), 'data' in p)[1], lambda p: (p.clear(), len(p), p.get('data'))[1:], lambda p: list(reversed(p)),
           lambda p: [p.popitem()[0] for _ in range(3)], lambda p: (p.update(title='t'), sorted(p))[1], lambda p: list(p), lambda p: dict(p) == dict(media(raw)),
           lambda p: {**p} == {**media(raw)}, lambda p: p == media(raw), lambda p: p != media(raw), lambda p: 'data' in p, lambda p: p.get('data') == raw,
           lambda p: p.data == raw, lambda p: pickle.loads(pickle.dumps(p)) == media(raw), lambda p: copy.deepcopy(p) == media(raw), lambda p: list(p.keys()),
           lambda p: p | {}, lambda p: sorted(p.items(), key=str) == sorted(media(raw).items(), key=str)]
    for f in ops:
        lazy = b64_media(s, 'image/png')
        assert type(lazy).__name__ == 'LazyMedia'
        assert f(lazy) == f(media(raw))

def test_large_office_files_in_base64():
    "A docx whose zip directory is at its end (a thumbnail first) is a docx, in base64 of any size: its type needs the whole file"
    import io, zipfile
    from msgkit import mk_msgs
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z:
        z.writestr('docProps/thumbnail.jpeg', bytes(range(256)) * 400)
        z.writestr('[Content_Types].xml', '<Types/>'); z.writestr('word/document.xml', '<w:document/>')
    docx = b.getvalue()
    uri = 'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,' + base64.b64encode(docx).decode()
    out = mk_msgs([dict(role='user', content=[dict(type='input_file', file_data=uri, filename='a.docx'), dict(type='input_text', text='?')])], 'openai')
    assert out[0]['content'][0]['file_data'] == uri
    from oracle import check
    check('openai', out)
