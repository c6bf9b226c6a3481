"""The fast paths give what the full path gives: the same messages, of the same types, for every API."""
import importlib, random, warnings
import pytest
from msgkit import mk_msgs, apis

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
    assert fast_used > 50
