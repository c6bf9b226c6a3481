"""Session 8 review: the three #22 fast paths (`_texts`/`msg_maker`, Chat's `own_history`, `plain_item` of a user's
Chat blocks) against the general path, on inputs tests/test_perf22_{own,text,loop}.py do not hold: key orders, dict
subclasses and msgkit's own messages fed back, ids and names at their limits, arguments nested near `MAX_DEPTH`, odd
roles and orders, the same data URI string twice, aliasing both ways, threads, `mk_request`/`mk_msg`, the dialects, a
patched adapter, and the provider oracle. Counts and compares, never times.

The `xfail(strict=True)` tests are what the review found differs and is not fixed (lone surrogates, on both paths): they
pass, and must lose the mark, once fixed. What it found and was fixed (a patched `img_px` or `text_msg`, one object met
twice; key order on the text path, fixed in #22's session 10) lost its mark."""
import copy, importlib, json, os, random, sys, threading, warnings
from collections import OrderedDict
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit.msgs import Msg, History
from msgkit.registry import apis, get_api
from msgkit.errors import MAX_DEPTH
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import oracle
from peers import big_png, data_uri, tool_chat
from test_perf22_text import types

core = importlib.import_module('msgkit.core')
H = importlib.import_module('msgkit.history')
CH = get_api('openai_chat')

def call(i='c1', n='get_weather', a='{"city": "Paris"}'): return dict(id=i, type='function', function=dict(name=n, arguments=a))
def asst(cs, c=None): return dict(role='assistant', content=c, tool_calls=cs)
def tool(i='c1', c='sunny'): return dict(role='tool', tool_call_id=i, content=c)
Q, A = dict(role='user', content='Weather?'), dict(role='assistant', content='Sunny.')
im = lambda url: dict(type='image_url', image_url=dict(url=url))
tx = lambda t='What is this?': dict(type='text', text=t)
BIG = data_uri(big_png(100_000))  # over MEMO_MIN: its verdict is remembered
SMALL = data_uri(big_png(50))

def out(h, api='openai_chat', f=None):
    "What `f` (default `mk_msgs`) gives for a copy of `h`: messages as JSON (key order kept), types, warnings; or the error"
    f = f or (lambda h: msgkit.mk_msgs(h, api))
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = f(copy.deepcopy(h))
        except Exception as e: return ('error', type(e).__name__, str(e))
    return ([json.dumps(m, default=repr) for m in r], types(list(r)), type(r).__name__,
            [(w.category.__name__, str(w.message)) for w in ws])

def disabled(m, which='tos'):
    "Monkeypatch context `m`: `t` the text maker path off, `o` own_history off, `s` plain_item's fast read off"
    if 't' in which: m.setattr(core, '_texts', lambda *a: None)
    if 'o' in which:
        for c in (OpenAIChatAdapter, GeminiAdapter, BedrockAdapter): m.setattr(c, 'own_history', lambda self, h: None)
    if 's' in which: m.setattr(H, '_plain_src', lambda o, ad: None)

def same(monkeypatch, hs, api='openai_chat', which='os', f=None):
    "Every history in `hs`: the same outcome fast as with the paths in `which` off; returns the fast outcomes"
    fast = [out(h, api, f) for h in hs]
    with monkeypatch.context() as m:
        disabled(m, which)
        slow = [out(h, api, f) for h in hs]
    bad = [(h, a, b) for h, a, b in zip(hs, fast, slow) if a != b]
    assert not bad, bad[:2]
    return fast

def nest(d):
    s = '1'
    for _ in range(d - 1): s = '{"a": ' + s + '}'
    return s

def edge_cases():
    "Chat histories at the fast path's edges (what own_history must copy or refuse exactly as the general path reads)"
    out = {
        'keyorder_tool': [Q, asst([call()]), dict(content='x', tool_call_id='c1', role='tool'), A],
        'keyorder_asst': [Q, dict(tool_calls=[call()], content=None, role='assistant'), tool(), A],
        'keyorder_call': [Q, asst([dict(function=dict(name='f', arguments='{"a": 1}'), type='function', id='c1')]), tool(), A],
        'keyorder_fn': [Q, asst([dict(id='c1', type='function', function=dict(arguments='{"a": 1}', name='f'))]), tool(), A],
        'keyorder_block': [dict(content=[dict(text='hi', type='text'), dict(image_url=dict(url=BIG), type='image_url')], role='user'), A],
        'id40': [Q, asst([call('a' * 40)]), tool('a' * 40), A], 'id41': [Q, asst([call('a' * 41)]), tool('a' * 41), A],
        'name64': [Q, asst([call(n='f' * 64)]), tool(), A], 'name65': [Q, asst([call(n='f' * 65)]), tool(), A],
        'id_unicode': [Q, asst([call('ü1')]), tool('ü1'), A], 'id_surrogate': [Q, asst([call('\ud800')]), tool('\ud800'), A],
        'name_unicode': [Q, asst([call(n='wéather')]), tool(), A], 'name_dash': [Q, asst([call(n='-')]), tool(), A],
        'args_dup_keys': [Q, asst([call(a='{"a":1,"a":2}')]), tool(), A],
        'args_nan': [Q, asst([call(a='{"a": NaN}')]), tool(), A], 'args_inf': [Q, asst([call(a='{"a": Infinity}')]), tool(), A],
        'args_1e400': [Q, asst([call(a='{"a": 1e400}')]), tool(), A],
        'args_escape': [Q, asst([call(a='{"a": "\\u00e9"}')]), tool(), A],
        'args_surrogate': [Q, asst([call(a='{"a": "\\ud800"}')]), tool(), A],
        'args_inner_ws': [Q, asst([call(a='{ "a" : 1 }')]), tool(), A], 'args_trailing_ws': [Q, asst([call(a='{"a":1}  ')]), tool(), A],
        'args_nul': [Q, asst([call(a='{"a": "\\u0000"}')]), tool(), A], 'args_raw_nul': [Q, asst([call(a='{"a": "x\x00"}')]), tool(), A],
        'tool_ws': [Q, asst([call()]), tool(c=' '), A], 'tool_nl': [Q, asst([call()]), tool(c='\n'), A],
        'tool_empty': [Q, asst([call()]), tool(c=''), A],
        'id_reused_later': [Q, asst([call('c1')]), tool('c1'), Q, asst([call('c1')]), tool('c1'), A],
        'content_none_calls': [Q, asst([call()], None), tool(), A], 'content_ws_calls': [Q, asst([call()], ' x '), tool(), A],
        'system_not_first': [Q, dict(role='system', content='s'), asst([call()]), tool(), A],
        'developer': [dict(role='developer', content='s'), Q, asst([call()]), tool(), A],
        'system_then_calls': [dict(role='system', content='s'), asst([call()]), tool(), A],
        'tool_first': [tool(), Q, asst([call()]), tool(), A], 'ends_in_tool': [Q, asst([call()]), tool()],
        'calls_after_calls': [Q, asst([call('a')]), tool('a'), asst([call('b')]), tool('b'), A],
        'nul_text': [dict(role='user', content='a\x00b'), asst([call()]), tool(), A],
        'same_uri_twice': [dict(role='user', content=[im(BIG), tx()]), A, dict(role='user', content=[im(BIG), tx('again')]), A],
        'uri_in_tool_loop': [Q, asst([call()]), tool(), dict(role='user', content=[im(BIG), tx()]), A],
        'uri_text_ws_inside': [dict(role='user', content=[tx(' x '), im(BIG)]), A],
        'uri_bad_middle': [dict(role='user', content=[im(BIG[:60_000] + '@' + BIG[60_001:]), tx()]), A],
        'uri_upper_base64': [dict(role='user', content=[im(BIG.replace(';base64', ';BASE64')), tx()]), A],
        'uri_extra_eq': [dict(role='user', content=[im(BIG + '='), tx()]), A],
        'uri_cut': [dict(role='user', content=[im(BIG[:-3]), tx()]), A],
        'uri_as_text': [dict(role='user', content=SMALL), asst([call()]), tool(c=SMALL), A],
        'long_text': [dict(role='user', content='x' * 2_000_000), asst([call()]), tool(), A],
    }
    for d in (85, 88, 89, 90, 91, 92, 95, 99, 100, 101, 102):
        out[f'depth{d}'] = [Q, asst([call(a=nest(d))]), tool(), A]
        out[f'depth_list{d}'] = [Q, asst([call(a='{"a": ' + '[' * (d - 2) + ']' * (d - 2) + '}')]), tool(), A]
    return out

def test_edges_as_general(monkeypatch):
    "Every edge: own_history and plain_item's fast read give what the general path gives (the text maker on both sides)"
    cs = edge_cases()
    taken = [k for k, h in cs.items() if CH.own_history(copy.deepcopy(h)) is not None]
    same(monkeypatch, list(cs.values()))
    assert len(taken) > 20 and len(cs) - len(taken) > 15, taken  # both ways

def test_edges_full_path(monkeypatch):
    "The same edges against the full path (all three off): the text maker isn't taken by any of them (calls in each)"
    hs = [h for h in edge_cases().values() if any(isinstance(o, dict) and o.get('role') == 'tool' for o in h)]
    same(monkeypatch, hs, which='tos')

def test_edges_pass_the_oracle():
    "What msgkit gives for each edge the SDK takes (lone surrogates aside: see test_surrogates_reach_the_sdk)"
    for k, h in edge_cases().items():
        if 'surrogate' in k: continue
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: r = msgkit.mk_msgs(copy.deepcopy(h), 'openai_chat')
            except Exception: continue
        oracle.check('openai_chat', r)

@pytest.mark.xfail(strict=True, reason="review s8: msgkit passes a lone surrogate (an id, text) through; the SDK can't "
                   "encode it (fast and general path alike)")
def test_surrogates_reach_the_sdk():
    for h in ([Q, asst([call('\ud800')]), tool('\ud800'), A], [dict(role='user', content='a\ud800b'), A]):
        oracle.check('openai_chat', msgkit.mk_msgs(h, 'openai_chat'))

@pytest.mark.parametrize('cls', [OrderedDict, AttrDict, Msg])
def test_dict_subclasses(cls, monkeypatch):
    """Messages of a dict subclass: the general path; msgkit's own `Msg` and fastcore's `AttrDict` (what `mk_msgs` and
    msglm return, sent back) read as the dicts they are (#22, session 10); the same outcome either way"""
    h = [cls(o) for o in [Q, asst([call('a'), call('b')]), tool('a'), tool('b'), A]]
    assert (CH.own_history(h) is None) == (cls is OrderedDict)
    same(monkeypatch, [h, [cls(Q)] + [asst([call()]), tool(), A]])

def test_fed_back(monkeypatch):
    "What mk_msgs gave, sent back (as its History, as a list, a new question after it)"
    r = msgkit.mk_msgs(tool_chat(8) + [dict(role='user', content=[im(BIG), tx()]), A], 'openai_chat')
    same(monkeypatch, [r, list(r), list(r) + [Q], [dict(o) for o in r]])
    same(monkeypatch, [r, list(r), [dict(o) for o in r]], which='tos')

def containers(x, acc):
    if isinstance(x, (dict, list)):
        acc[id(x)] = x
        for v in (x.values() if isinstance(x, dict) else x): containers(v, acc)
    return acc

@pytest.mark.parametrize('api', ['openai_chat', 'openai', 'anthropic', 'gemini', 'bedrock', 'groq'])
def test_no_aliasing(api):
    "The output shares no dict or list with the input (strings may be shared); changing one leaves the other"
    for h in ([Q, asst([call()], 'x'), tool(), A], [dict(role='user', content=[im(BIG), tx()]), A], [Q, A], ['a', 'b'],
              [Q, asst([call()]), tool(), A], tool_chat(8)):
        h0 = copy.deepcopy(h)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            r = msgkit.mk_msgs(h, api)
        assert not set(containers(h, {})) & set(containers(list(r), {})), (api, h)
        snap = json.dumps(r, default=repr)
        for o in h:  # the input changed: the output stays
            if isinstance(o, dict):
                for v in o.values():
                    if isinstance(v, list): v.append('junk')
                    if isinstance(v, dict): v['junk'] = 1
        assert json.dumps(r, default=repr) == snap, (api, h0)
        h = copy.deepcopy(h0)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            r = msgkit.mk_msgs(h, api)
        for m in r:  # the output changed: the input stays
            for v in list(m.values()):
                if isinstance(v, list): v.append('junk')
                if isinstance(v, dict): v['junk'] = 1
        assert h == h0, (api, h0)

def test_mutated_input_reread(monkeypatch):
    "A history changed after a first call (its URI replaced, a block added) reads afresh, as the general path does"
    h = [dict(role='user', content=[im(BIG), tx()]), A]
    msgkit.mk_msgs(h, 'openai_chat')
    h[0]['content'][0]['image_url']['url'] = 'https://example.com/a.png'
    h[0]['content'].append(tx('more'))
    same(monkeypatch, [h])

def test_long_history(monkeypatch):
    h = tool_chat(4000) + [dict(role='user', content=[im(BIG), tx()]), A]
    assert CH.own_history(h) is not None
    same(monkeypatch, [h])

def test_threads(monkeypatch):
    "Eight threads on the same history (images whose verdicts they remember at once): all the same, as the general path"
    bigs = [data_uri(big_png(100_000 + i)) for i in range(4)]
    h = tool_chat(40) + [dict(role='user', content=[im(b), tx()]) if i % 2 == 0 else A for i, b in enumerate(bigs * 2)]
    hw = [Q, asst([call(n='bad name')]), tool(), A]  # a loss in each: warnings per call
    res, errs = [], []
    def work():
        try:
            for _ in range(15): res.append((out(h, f=lambda x: msgkit.mk_msgs(h, 'openai_chat')), out(hw)))
        except Exception as e: errs.append(repr(e))
    ts = [threading.Thread(target=work) for _ in range(8)]
    [t.start() for t in ts]; [t.join() for t in ts]
    assert not errs and len(res) == 120
    with monkeypatch.context() as m:
        disabled(m)
        ref = (out(h), out(hw))
    assert all(r[0][0] == ref[0][0] for r in res)  # (warnings caught per thread are not reliable: messages only)
    assert all(r[1][0] == ref[1][0] for r in res)

def test_request_and_msg(monkeypatch):
    "mk_request (api='openai_chat', wire, system, tools) and mk_msg on such histories: the same fast as general"
    tools = [dict(name='get_weather', description='d', parameters=dict(type='object', properties={}))]
    hs = [[Q, asst([call()], 'x'), tool(), A], [dict(role='user', content=[im(BIG), tx()]), A], [Q, A], ['a', 'b'],
          [dict(role='system', content='s'), Q, asst([call()]), tool(), A]]
    for kw in (dict(), dict(wire=True), dict(system='be brief'), dict(tools=tools), dict(model='gpt-4o')):
        same(monkeypatch, hs, which='tos', f=lambda h: [dict(msgkit.mk_request(h, api='openai_chat', **kw))])
    ms = [m for h in hs for m in h if isinstance(m, dict) and m.get('role') in ('user', 'assistant')]
    same(monkeypatch, ms, which='tos', f=lambda m: [msgkit.mk_msg(m, api='openai_chat')])
    same(monkeypatch, ms, which='tos', f=lambda m: [msgkit.mk_msg(m.get('content'), m['role'], api='openai_chat')])

@pytest.mark.parametrize('api', [a for a in apis() if a != 'openai_chat'])
def test_dialects_dont_copy(api, monkeypatch):
    h = [Q, asst([call()]), tool(), dict(role='user', content=[im(BIG), tx()]), A]
    assert get_api(api).own_history(h) is None
    same(monkeypatch, [h, [dict(role='user', content=[im(BIG), tx()]), A]], api=api)

USER_BLOCKS = [[tx(' ')], [tx('\n')], [tx(' a ')], [tx(SMALL)], [tx('https://example.com/a.png')], [im('gs://b/a.png')],
               [im('s3://b/a.png')], [im('HTTPS://EXAMPLE.COM/A.PNG')], [im('DATA:image/png;base64,' + SMALL.split(',')[1])],
               [im(SMALL.split(',')[1])], [im('')], [im(' ')], [im('https://example.com/a.pdf')],
               [im('data:application/pdf;base64,JVBERi0=')], [im('data:audio/wav;base64,UklGRg==')],
               [tx('a'), im(SMALL), tx('b'), im(SMALL)], [im(SMALL), im(SMALL)], [tx('\x00')], [tx('x' * 100_000)],
               [im(BIG), tx('')], [tx(''), im(BIG)], [im('data:image/png;base64,')], [tx('{"type": "text"}')]]

@pytest.mark.parametrize('api', apis())
def test_user_blocks_every_api(api, monkeypatch):
    "A user's Chat blocks (plain_item's new yes) and near misses, in three places: the same read for every API"
    hs = [h for c in USER_BLOCKS for h in ([dict(role='user', content=c), A],
                                            [Q, asst([call()]), tool(), dict(role='user', content=c), A],
                                            [dict(role='system', content='s'), dict(role='user', content=c)])]
    same(monkeypatch, hs, api=api, which='s')

def shuffled(o, r):
    "`o` with the keys of its dicts (at every level) in a random order"
    if isinstance(o, dict):
        ks = list(o); r.shuffle(ks)
        return {k: shuffled(o[k], r) for k in ks}
    if isinstance(o, list): return [shuffled(v, r) for v in o]
    return o

def test_random_key_orders(monkeypatch):
    "Random Chat loops (images among them) with their keys in random orders: own_history and plain_item as general"
    r = random.Random(8)
    base = [tool_chat(8), tool_chat(12), [Q, asst([call('a'), call('b')]), tool('a'), tool('b'), A],
            [dict(role='user', content=[im(BIG), tx()]), A, Q, asst([call()], 'Look.'), tool(), A]]
    hs = [shuffled(copy.deepcopy(r.choice(base)), r) for _ in range(150)]
    same(monkeypatch, hs)

# review s8 found `_texts` (the text maker path) gave a dict text history's assistant messages role first where the full
# path gives them `content` first (fix_item), and lost a user dict's own key order (pre-existing at a2ee38a): strict
# xfails until #22's session 10, where `_texts` takes a dict of the target's text form only as the general path keeps it
@pytest.mark.parametrize('h', [[Q, A], [Q, A, Q], ['hi', A], [dict(content='hi', role='user'), A],
                               [AttrDict(Q), AttrDict(A)], [Msg(Q), Msg(A)]], ids=str)
def test_text_dicts_key_order(h, monkeypatch):
    same(monkeypatch, [h], which='t')

def test_text_fed_back_key_order(monkeypatch):
    r = msgkit.mk_msgs(['hi', 'there', 'again'], 'openai_chat')
    same(monkeypatch, [list(r)], which='t')

def test_patched_img_px(monkeypatch):
    h = [dict(role='user', content=[im(BIG), tx()]), A]
    monkeypatch.setattr(OpenAIChatAdapter, 'img_px', 16)
    same(monkeypatch, [h])

def test_maker_follows_a_patched_base(monkeypatch):
    msgkit.mk_msgs(['hi'], 'groq')  # the maker made
    monkeypatch.setattr(OpenAIChatAdapter, 'text_msg', lambda self, role, s: dict(role=role, content=s, x=1))
    same(monkeypatch, [['hi', 'there']], api='groq', which='t')

def test_maker_follows_an_instance_patch(monkeypatch):
    msgkit.mk_msgs(['hi'], 'openai_chat')
    monkeypatch.setattr(CH, 'text_msg', lambda role, s: dict(role=role, content=s, y=2), raising=False)
    same(monkeypatch, [['hi', 'there']], which='t')

def shared_within(r):
    "Paths of the dicts and lists that appear more than once in `r` (one object at two places)"
    acc = {}
    def walk(x, p):
        if isinstance(x, (dict, list)):
            acc.setdefault(id(x), []).append(p)
            for k, v in (x.items() if isinstance(x, dict) else enumerate(x)): walk(v, f'{p}/{k}')
    walk(list(r), '')
    return [ps for ps in acc.values() if len(ps) > 1]

@pytest.mark.parametrize('where', ['function', 'block'])
def test_no_sharing_within_output(where, monkeypatch):
    f, t = dict(name='get_weather', arguments='{"a": 1}'), tx('hi')
    h = ([Q, asst([dict(id='a', type='function', function=f), dict(id='b', type='function', function=f)]), tool('a'),
          tool('b'), A] if where == 'function' else [dict(role='user', content=[t, im(BIG), t]), A])
    # fixed after the review: own_history declined a history holding one dict or list twice; since session 9 it copies
    # each occurrence anew (copy_json, no memo), as the general path makes it: the same messages, nothing shared
    own = CH.own_history(h)
    assert own is None or shared_within(own) == []
    with monkeypatch.context() as m:
        disabled(m)
        gen = msgkit.mk_msgs(h, 'openai_chat')
        assert shared_within(gen) == []  # the general path
    assert shared_within(msgkit.mk_msgs(h, 'openai_chat')) == []
    assert own is None or json.dumps(list(own)) == json.dumps(list(gen))

def test_user_blocks_own_history(monkeypatch):
    "The same user blocks for openai_chat with own_history on and off as well (text, image, text; a text alone; ...)"
    hs = [h for c in USER_BLOCKS + [[tx('a'), im(BIG), tx('b')], [im(BIG), tx('a'), im(BIG)], [im(BIG)] * 3]
          for h in ([dict(role='user', content=c), A], [Q, asst([call()]), tool(), dict(role='user', content=c), A])]
    same(monkeypatch, hs, which='os')
    same(monkeypatch, hs, which='o')
