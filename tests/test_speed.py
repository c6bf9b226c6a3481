"""The fast paths give what the full path gives: the same messages, of the same types, for every API."""
import importlib, random, warnings
import pytest
from msgkit import mk_msgs, apis
from oracle import check

core = importlib.import_module('msgkit.core')
WORDS = ['Hello', 'How are you?', 'Fine.  ', 'trailing space ', ' lead', 'multi\nline', 'https://example.com/a.png', 'http://x', 'data:text/plain,hi',
         '', '   ', 'Data: 1, 2', 'ünïcødé', '{"json": 1}', 'x' * 300]

def hist(r):
    h, role = [], 'user'
    for _ in range(r.randrange(0, 8)):
        s = r.choice(WORDS)
        k = r.random()
        if k < 0.6: h.append(s)
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
        h = hist(r)
        def run():
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try: return mk_msgs(h, api)
                except (TypeError, ValueError) as e: return type(e), str(e)
        fast_used += core._texts(h) is not None
        a = run()
        with monkeypatch.context() as m:
            m.setattr(core, '_texts', lambda msgs: None)
            b = run()
        assert a == b and types(a) == types(b), (h, a, b)
        if isinstance(a, list) and a and core._texts(h) is not None: check(api, a)  # and what the fast path makes, the API accepts
    assert fast_used > 50

sniff = importlib.import_module('msgkit.sniff')

def test_b64_memo_and_in_place_encoding(monkeypatch):
    import base64, os
    b = os.urandom(200_000)
    s = sniff.b64(b)
    assert s == base64.b64encode(b).decode() and sniff.b64(b) is s  # encoded once, remembered by the object
    assert sniff.b64(bytes(b)) == s  # equal bytes, another object: encoded again, the same text
    u = sniff.b64(b, 'data:image/png;base64,')
    assert u == 'data:image/png;base64,' + s and sniff.b64(b, 'data:image/png;base64,') is u
    ba = bytearray(b)
    assert sniff.b64(ba) == s and not any(k[1] == id(ba) for k in sniff._memo if k[0] == 'enc')  # mutable: never remembered
    d = sniff.unb64(s)
    assert d == b and sniff.unb64(s) is d and sniff.b64(d) is s  # decoded text comes back as the same text, not re-encoded
    big = os.urandom((1 << 20) + 7)  # built in place: the same text as the plain way
    assert sniff._b64_str(big, 'data:x/y;base64,') == 'data:x/y;base64,' + base64.b64encode(big).decode()
    monkeypatch.setattr(sniff, 'B64_MEMO', 1_000_000)  # a bounded memo: the oldest go first
    for _ in range(10): sniff.b64(os.urandom(100_000))
    assert sniff._memo_n[0] <= 1_000_000

def test_image_history_rebuilt_from_the_memo():
    "A chat app rebuilds the same history every turn: the second build reuses the base64 of every image"
    import os
    from msgkit import mk_msgs
    img = b'\x89PNG\r\n\x1a\n' + os.urandom(300_000)
    h = [[img, 'What is this?'], 'Noise.', 'Again?']
    a, b = mk_msgs(h, 'anthropic'), mk_msgs(h, 'anthropic')
    assert a == b and a[0]['content'][0]['source']['data'] is b[0]['content'][0]['source']['data']
