"""#22: a Chat history already in Chat's plainest form is copied to `openai_chat` at once (`own_history`), not read,
repaired and rendered. It must give exactly what the general path gives: the same messages (as JSON, keys in the same
order; of the same types), the same warnings and errors; and be taken for the loops people keep. Counts and compares,
never times (bench/ measures)."""
import copy, json, os, random, sys, warnings
import pytest
import msgkit
from msgkit.registry import get_api, apis
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import corpus_check, oracle
from peers import tool_chat, text_history, chat_dicts
from test_perf22_loop import loops, call, asst, tool, Q, A, ARGS, IDS, NAMES, CONTENTS, RESULTS
from test_perf22_text import types

CH = get_api('openai_chat')

def _out(h, api='openai_chat'):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msgs(copy.deepcopy(h), api)
        except Exception as e: return ('error', type(e), str(e))
    return [json.dumps(m, default=repr) for m in r], types(list(r)), type(r).__name__, [(w.category, str(w.message)) for w in ws]

def rand_hist(r):
    "A random Chat history: text, plain calls and results, with the odd ids, names, arguments and orders of the loops"
    h, n = [], 0
    if r.random() < 0.2: h.append(dict(role='system', content=r.choice(['Be brief.', ' ', ''])))
    odd = r.random() < 0.4  # odd values often, else mostly what a well-formed loop holds
    for _ in range(r.randrange(1, 9)):
        k, last = r.random(), h[-1]['role'] if h else None
        if k < 0.3 or last == 'tool' and r.random() < 0.7:
            role = r.choice(['user', 'user', 'assistant', 'system', 'developer']) if odd else \
                   ('assistant' if last in ('user', 'system') else 'user')
            h.append(dict(role=role, content=r.choice(['Hi', 'x', ' ', '', 'ünï\n', 'a' * 200] if odd else ['Hi', 'ünï\n'])))
        elif k < 0.9:
            w = 6 if odd else 60
            cs = [call(r.choice(IDS[:3] + [f'c{n + j}'] * w), r.choice(NAMES[:2] + ['get_weather'] * w),
                       r.choice(ARGS + ['{"city": "Paris"}'] * w)) for j in range(r.choice([1, 1, 1, 2, 3]))]
            n += len(cs)
            if h and h[-1]['role'] == 'assistant' and not odd: h.append(Q)
            h.append(asst(cs, r.choice(CONTENTS + ['Let me look.'] * w)))
            rs = [tool(c['id'], r.choice(RESULTS + ['{"t": 1}'] * w)) for c in cs]
            if odd and r.random() < 0.3: r.shuffle(rs)
            if odd and r.random() < 0.2: rs = rs[:-1]
            h += rs
        elif not h or h[-1]['role'] != 'assistant' or odd: h.append(A)
    return h

def img_cases():
    "Chat histories holding images by data URI, as stored, and the odd ones the general path must have"
    from peers import image_chat, big_png, data_uri
    import base64
    png, big = big_png(2_000), big_png(100_000)
    jpg = base64.b64decode('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=')
    u, ub, uj = data_uri(png), data_uri(big), data_uri(jpg, 'image/jpeg')
    im = lambda url, **kw: dict(type='image_url', image_url=dict(url=url, **kw))
    tx = lambda t='What is this?': dict(type='text', text=t)
    yield image_chat([png, big], 8)
    yield image_chat([big] * 3, 12)
    odd = [[im(u), tx()], [tx(), im(ub)], [im(u)], [im(u), im(uj), tx()], [tx(), tx('more'), im(u)], [tx()],
           [im(u), tx(' ')], [im(u, detail='low'), tx()], [im(' ' + u), tx()], [im(u + '\n'), tx()],
           [im(u.replace('data:image/png', 'data:image/PNG')), tx()], [im(u.replace('image/png', 'image/jpeg')), tx()],
           [im(ub.replace('image/png', 'image/jpeg')), tx()], [im(data_uri(jpg, 'image/png')), tx()],
           [im(u.replace(';base64,', ';name=a.png;base64,')), tx()], [im(u[:-8] + '%41%41%3D'), tx()],
           [im(u[:200] + '!!' + u[202:]), tx()], [im(ub[:50_000] + '*' + ub[50_001:]), tx()],
           [im('data:application/pdf;base64,' + u.split(',', 1)[1]), tx()], [im('data:image/bmp;base64,Qk0='), tx()],
           [im('https://example.com/cat.png'), tx()], [im('data:,hello'), tx()], [im(u), dict(type='text', text='x', extra=1)],
           [dict(type='image_url', image_url=u), tx()], [im(u), dict(type='input_audio', input_audio=dict(data='AAAA', format='wav'))],
           [im(data_uri(b'GIF89a' + png[6:], 'image/gif')), tx()], [im(data_uri(png, 'image/webp')), tx()], []]
    for c in odd:
        yield [dict(role='user', content=c), dict(role='assistant', content='A cat.')]
        yield [dict(role='system', content='Be brief.'), dict(role='user', content=c)]
    yield [dict(role='user', content='hi'), dict(role='assistant', content=[im(u), tx()])]  # media from the model
    yield [dict(role='user', content=[im(u), tx()]), dict(role='user', content=[im(ub), tx()])]  # two user turns
    yield [Q, asst([call()]), tool(), dict(role='user', content=[im(u), tx()]), A]

def cases():
    yield from img_cases()
    yield from loops()
    yield from (corpus_check.history(c) for c in corpus_check.load_cases())
    yield from (tool_chat(n) for n in (1, 2, 3, 4, 5, 8, 40))
    yield chat_dicts(text_history(12))
    r = random.Random(22)
    yield from (rand_hist(r) for _ in range(800))

def test_own_history_as_general(monkeypatch):
    "Every case: the same outcome with `own_history` as without it; and it was taken for many"
    hs = list(cases())
    taken = sum(CH.own_history(copy.deepcopy(h)) is not None for h in hs)
    fast = [_out(h) for h in hs]
    with monkeypatch.context() as m:
        for c in (OpenAIChatAdapter, GeminiAdapter, BedrockAdapter): m.setattr(c, 'own_history', lambda self, h: None)
        slow = [_out(h) for h in hs]
    bad = [(i, hs[i], f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    assert taken > 250 and len(hs) - taken > 250, taken  # both ways, many times (315 and 1,360 when written)
    imgs = [h for h in img_cases()]
    assert sum(CH.own_history(h) is not None for h in imgs) >= 8  # images too (and not the odd ones)

@pytest.mark.parametrize('api', [a for a in apis() if a != 'openai_chat'])
def test_only_chat_copies(api):
    "Every other API and every dialect reads and renders (their own rules): none of them copies"
    assert get_api(api).own_history(tool_chat(8)) is None

def test_taken_for_the_common_loop_and_copies():
    h = tool_chat(40)
    r = CH.own_history(h)
    assert r == h and type(r).__name__ == 'History' and all(type(m).__name__ == 'Msg' for m in r)
    assert r[1]['tool_calls'] is not h[1]['tool_calls'] and r[1]['tool_calls'][0]['function'] is not h[1]['tool_calls'][0]['function']
    r[1]['tool_calls'][0]['function']['name'] = 'changed'
    assert h[1]['tool_calls'][0]['function']['name'] == 'get_weather'  # the caller's history untouched
    oracle.check('openai_chat', msgkit.mk_msgs(h, 'openai_chat'))  # what it gives, the API takes

def test_options_take_the_general_path(monkeypatch):
    "cache=, fetch=, fit= and block options go the general path (`own_history` is not asked)"
    seen = []
    monkeypatch.setattr(OpenAIChatAdapter, 'own_history', lambda self, h: seen.append(1))
    for kw in (dict(cache=True), dict(fetch=True), dict(cache_last_ckpt_only=True)):
        msgkit.mk_msgs(tool_chat(4), 'openai_chat', **kw)
    assert not seen
    msgkit.mk_msgs(tool_chat(4), 'openai_chat'); assert seen

def test_a_looser_copy_is_caught(monkeypatch):
    "A copy that let results come in any order (or blank text through) differs from the general path on these"
    def loose(self, h):
        return msgkit.msgs.History(map(msgkit.msgs.msg_of, h)) if all(type(o) is dict for o in h) else None
    two = [call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]
    hs = [[Q, asst(two), tool('c2'), tool('c1'), A], [Q, asst([call()]), tool(), dict(role='user', content=' '), A],
          [Q, asst([call()])], [Q, asst([call(args='{"a": 1}{"b": 2}')]), tool(), A]]
    good = [_out(h) for h in hs]
    monkeypatch.setattr(OpenAIChatAdapter, 'own_history', loose)
    assert all(_out(h) != g for h, g in zip(hs, good))
