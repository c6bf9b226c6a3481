"""Review of 77d087e (#22): `core._chat_strs` (Chat-form text dicts `{'role', 'content'}` read in C, made by `_strs`),
`AnthropicAdapter.texts_send` (a prefill's trailing whitespace stripped, no cache-mark scan), `plain.as_history` in C.

Each test compares what `mk_msgs` gives (short ways on) with what the general path gives (every short way off, as in
tests/test_texts_s12.py): the messages as JSON with their key order, the type of every dict and list, the warnings, or
the error.

The first group are defects (strict xfails when found; all fixed in session 12, `max_marks` among the
snapshots' names, the marks gone), each saying whether it is new in 77d087e (the same test passes at
77d087e^) or predates it. The second group are the areas probed that held (regression tests); they pass at 77d087e^
too, but `test_chat_strs_is_taken` (no `_chat_strs` there) and `test_texts_send_is_before_send_for_text`
(no `AnthropicAdapter.texts_send` there), which skip."""
import copy, itertools, json, random, warnings
from collections import OrderedDict
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit import core, plain
from msgkit.msgs import Msg, History, msg_of
from msgkit.registry import get_api, register, unregister
from msgkit.adapters.base import Adapter
from msgkit.adapters.openai import OpenAIAdapter
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.anthropic import AnthropicAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter
from test_texts_s12 import out, general
from shortways import short_ways_off

TARGETS = ('openai', 'anthropic', 'gemini', 'bedrock')
APIS = TARGETS + ('openai_chat', 'mistral')

class S(str): pass

def u(c, first='role'): return dict(role='user', content=c) if first=='role' else dict(content=c, role='user')
def a(c, first='role'): return dict(role='assistant', content=c) if first=='role' else dict(content=c, role='assistant')

def same(h, api):
    r = out(h, api)
    assert r == general(h, api), (api, h)
    return r

# ---------------------------------------------------------------------------------------------------- defects

# `max_marks` is an adapter attribute the base documents as `None` by default ("the most cache marks a request may
# hold"; msgkit.cache reads None as no limit: `ad.max_marks or 99`), and it is not among the names the rules
# snapshot (`shipped`) compares. A user's registered subclass of Claude's adapter for a proxy without that limit,
# `max_marks=None`: the general path's `before_send` compares `len(cc)>None` (TypeError, reported as InputTypeError
# '... (in before_send)'); `texts_send` now skips that check for text messages, so the short ways (`_strs` for strings,
# `_chat_strs`/the `_texts` loop for dicts) give messages. The same with a negative `max_marks` (InputError 'takes at
# most -1 cache breakpoints' vs messages), on an instance passed as `api=` too.
class ProxyClaudeS12c(AnthropicAdapter):
    "A Claude proxy that takes any number of cache marks"
    name,max_marks = 'proxy_claude_s12c',None

class ProxyBedrockS12c(BedrockAdapter):
    "A Bedrock proxy that takes any number of cache points"
    name,max_marks = 'proxy_bedrock_s12c',None

@pytest.fixture
def proxies():
    register(ProxyClaudeS12c); register(ProxyBedrockS12c)
    yield
    unregister('proxy_claude_s12c'); unregister('proxy_bedrock_s12c')

HS = [['Hi', 'Yo'], [u('Hi'), a('Yo ')], ['Hi', 'Yo ', 'Q']]

# found by review s12c, fixed in session 12 (was a strict xfail; `max_marks` among the snapshots' names): NEW in
# 77d087e: AnthropicAdapter.texts_send skips before_send's cache-mark count (`len(cc)>self.max_marks`), which a
# subclass with max_marks=None fails (TypeError -> InputTypeError) on the general path; the short way gives
# messages. Passes at 77d087e^
@pytest.mark.parametrize('h', HS, ids=['strs', 'dicts-prefill', 'strs-3'])
def test_anthropic_subclass_max_marks_none(proxies, h):
    assert general(h, 'proxy_claude_s12c')[0] == 'error'
    same(h, 'proxy_claude_s12c')

# found by review s12c, fixed in session 12 (was a strict xfail; `max_marks` among the snapshots' names): NEW in
# 77d087e: an AnthropicAdapter instance (api=) or the class with max_marks None or negative: general path raises in
# before_send, texts_send does not. Passes at 77d087e^
@pytest.mark.parametrize('mm', [None, -1])
@pytest.mark.parametrize('where', ['instance', 'class'])
def test_anthropic_max_marks_unusual(mm, where):
    h = [u('Hi'), a('Yo'), u('Q')]
    if where=='instance':
        ad = AnthropicAdapter(); ad.max_marks = mm
        same(h, ad)
    else:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(AnthropicAdapter, 'max_marks', mm)
            same(h, 'anthropic')

# found by review s12c, fixed in session 12 (was a strict xfail; `max_marks` among the snapshots' names): PREDATING
# (BedrockAdapter.texts_send, before 77d087e): the same with Bedrock: a subclass with max_marks=None: general path
# InputTypeError in before_send, short way messages
@pytest.mark.parametrize('h', HS, ids=['strs', 'dicts-prefill', 'strs-3'])
def test_bedrock_subclass_max_marks_none(proxies, h):
    assert general(h, 'proxy_bedrock_s12c')[0] == 'error'
    same(h, 'proxy_bedrock_s12c')

# ---------------------------------------------------------------------------------------------------- held

def test_chat_strs_is_taken():
    "The plain case goes `_chat_strs`'s way for every target (so the cases below exercise it)"
    if not hasattr(core, '_chat_strs'): pytest.skip('no _chat_strs before 77d087e')
    for api in TARGETS:
        h = [u('Hi'), a('Yo'), u('Q')]
        assert core._chat_strs(h, get_api(api)) is not None, api
        same(h, api)

# later items (not the first of their role) that differ from the first only where `text_of` would catch it
LATER = {
    'str-subclass-content': [u('Hi'), a('Yo'), u(S('Q'))],
    'str-subclass-content-asst': [u('Hi'), a('Yo'), u('Q'), a(S('P'))],
    'str-subclass-role': [u('Hi'), a('Yo'), dict(role=S('user'), content='Q')],
    'key-order-user': [u('Hi'), a('Yo'), u('Q', 'content')],
    'key-order-asst': [u('Hi'), a('Yo'), u('Q'), a('P', 'content')],
    'key-order-first': [u('Hi', 'content'), a('Yo'), u('Q')],
    'extra-key': [u('Hi'), a('Yo'), dict(role='user', content='Q', name='n')],
    'none-content': [u('Hi'), a('Yo'), dict(role='user', content=None)],
    'list-content': [u('Hi'), a('Yo'), u([{'type': 'text', 'text': 'Q'}])],
    'system-later': [u('Hi'), a('Yo'), dict(role='system', content='S')],
    'developer-later': [u('Hi'), dict(role='developer', content='D')],
    'model-role': [u('Hi'), dict(role='model', content='M')],
    'user-user': [u('Hi'), u('Yo')],
    'assistant-first': [a('Hi'), u('Yo')],
    'ordered-dict': [u('Hi'), a('Yo'), OrderedDict(role='user', content='Q')],
    'attrdict': [u('Hi'), a('Yo'), AttrDict(role='user', content='Q')],
    'msg': [u('Hi'), a('Yo'), Msg(role='user', content='Q')],
    'msg-first': [Msg(role='user', content='Hi'), a('Yo')],
    'url-later': [u('Hi'), a('Yo'), u('https://example.com/a.png')],
    'data-uri-later': [u('Hi'), a('Yo'), u('data:,x')],
    'empty-later': [u('Hi'), a(''), u('Q')],
    'blank-later': [u('Hi'), a(' '), u('Q')],
    'int-key': [u('Hi'), {'role': 'assistant', 1: 'x'}],
}

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('name', list(LATER))
def test_later_items_differ(api, name):
    h = LATER[name]
    same(h, api)
    same(History(copy.deepcopy(h)), api)

WS = [chr(i) for i in range(0x3001) if chr(i).isspace()] + ['\u3000', '\u200b', '\ufeff']

@pytest.mark.parametrize('api', TARGETS)
def test_prefill_trailing_whitespace_of_every_kind(api):
    for c in WS:
        for t in ('Yo' + c, c, c * 3, 'Yo' + c + 'x', 'Yo ' + c):
            for h in ([u('Hi'), a(t)], ['Hi', t], [u('Hi'), a('Yo'), u('Q'), a(t)]):
                same(h, api)

@pytest.mark.parametrize('api', APIS)
def test_long_histories(api):
    for n in (2000, 2001):
        h = [u(f'Hi {i}') if i % 2 == 0 else a(f'Yo {i} ') for i in range(n)]
        r = same(h, api)
        assert r[0] != 'error'
        same(History(h), api)

@pytest.mark.parametrize('seed', range(3))
def test_fuzz_chat_dicts(seed):
    "Random Chat-form histories (mostly plain, some odd items): every API the same both ways"
    rnd = random.Random(seed)
    texts = ['hi', 'Hello ', 'yo\n', 'a\u3000', 'x\u00a0', 'done\t', 'q' * 50, 'end\x1c', 'b\u200b', 'ok', 'k ']
    odd = ['  ', '\u3000', 'https://a.com/x.png', '', ' lead', '\u2028']
    def item(role):
        c = rnd.choice(odd if rnd.random() < 0.02 else texts)
        if rnd.random() < 0.03: c = S(c)
        r = rnd.choice(['system', 'developer', 'model', S(role)]) if rnd.random() < 0.02 else role
        d = dict(content=c, role=r) if rnd.random() < 0.1 else dict(role=r, content=c)
        x = rnd.random()
        if x < 0.02: d = OrderedDict(d)
        elif x < 0.04: d = AttrDict(d)
        elif x < 0.06: d = Msg(d)
        elif x < 0.07: d['name'] = 'n'
        return d
    for _ in range(150):
        h = [item('user' if j % 2 == 0 else 'assistant') for j in range(rnd.choice([1, 2, 3, 4, 5, 8]))]
        if rnd.random() < 0.3: h = History(h)
        for api in APIS: same(h, api)

def _ids(x, acc):
    if isinstance(x, (dict, list)):
        acc.append(id(x))
        for v in (x.values() if isinstance(x, dict) else x): _ids(v, acc)
    return acc

@pytest.mark.parametrize('api', APIS)
def test_shared_objects(api):
    "Repeated dict objects in the input; nothing shared between input, output and a second call's output"
    hu, ha, hb = u('Hi'), a('Yo '), a('Yo')
    for h in ([hu, ha, hu, ha], [hu, hb, hu, hb], [hu, hb, hu], History([hu, ha, hu, hb])):
        same(h, api)
    h = [u('Hi'), a('Yo'), u('Q'), a('P ')]
    r1, r2 = msgkit.mk_msgs(h, api), msgkit.mk_msgs(h, api)
    i1, i2, ih = _ids(r1, []), set(_ids(r2, [])), set(_ids(h, []))
    assert len(i1) == len(set(i1)) and not (set(i1) & i2) and not (set(i1) & ih)
    for m in r1: m['zz_mut'] = 1
    assert 'zz_mut' not in json.dumps(msgkit.mk_msgs(h, api)) and h == [u('Hi'), a('Yo'), u('Q'), a('P ')]

def test_texts_send_is_before_send_for_text():
    ad = get_api('anthropic')
    if 'texts_send' not in vars(AnthropicAdapter): pytest.skip('no AnthropicAdapter.texts_send before 77d087e')
    M = lambda r, c: Msg(role=r, content=c)
    cases = [[], [M('user', 'Hi')], [M('user', 'Hi'), M('assistant', 'Yo  ')], [M('user', 'Hi'), M('assistant', '  ')],
             [M('user', 'Hi'), M('assistant', 'Yo\u3000')], [M('user', 'Hi'), M('assistant', '')],
             [M('user', 'Hi '), M('assistant', 'Yo'), M('user', 'Q ')], [{'role': 'assistant', 'content': 'x '}],
             [M('user', 'Hi'), M('assistant', [{'type': 'text', 'text': 'a '}])]]
    for ms in cases:
        t, b = ad.texts_send(list(ms)), ad.before_send(list(ms))
        assert t == b and [type(x) for x in t] == [type(x) for x in b] and [list(x) for x in t] == [list(x) for x in b]

def _old_as_history(ms):
    for m in ms:
        if type(m) is not Msg: return History(m if type(m) is Msg else msg_of(m) for m in ms)
    return History(ms)

class M2(Msg): pass

def test_as_history_any_position():
    mk = {'M': lambda: Msg(role='user', content='a'), 'd': lambda: {'role': 'user', 'content': [{'type': 'text', 'text': 'x'}]},
          'A': lambda: AttrDict(role='assistant', content='b'), 'S': lambda: M2(role='user', content='c')}
    def sig(h, src):
        return (type(h), [type(x) for x in h], [x is y for x, y in zip(h, src)],
                [[type(b) for b in v] for x in h for v in x.values() if isinstance(v, list)], h)
    for n in range(5):
        for ks in itertools.product('MdAS', repeat=n):
            ms = [mk[k]() for k in ks]
            assert sig(plain.as_history(list(ms)), ms) == sig(_old_as_history(list(ms)), ms), ks

def _patched(name, orig):
    if name=='text_of':
        def f(self, d, role):
            r = orig(self, d, role)
            return r.upper() if isinstance(r, str) else r
    elif name=='text_msg':
        def f(self, role, s): return {**orig(self, role, s), 'x': 1}
    elif name=='before_send':
        def f(self, msgs): return [dict(m, sent=1) for m in orig(self, msgs)]
    elif name=='fix_item':
        def f(self, d):
            d = orig(self, d)
            return dict(reversed(list(d.items()))) if isinstance(d, dict) else d
    elif name=='fits_item':
        def f(self, d): return False
    else:
        def f(self, msgs, *a, **k): return [dict(m, tidied=1) for m in orig(self, msgs, *a, **k)]
    return f

@pytest.mark.parametrize('api', TARGETS + ('openai_chat',))
@pytest.mark.parametrize('where', ['class', 'base', 'instance'])
@pytest.mark.parametrize('name', ['text_of', 'text_msg', 'before_send', 'fix_item', 'fits_item', 'tidy'])
def test_rules_patched_after_warmup(api, where, name):
    ad = get_api(api); cls = type(ad)
    hs = [[u('Hi'), a('Yo '), u('Q'), a('P\u3000')], [u('Hi'), a('Yo', 'content'), u('Q')]]
    for h in hs:
        for _ in range(3): out(h, api)
        with pytest.MonkeyPatch.context() as m:
            if where=='instance': m.setattr(ad, name, _patched(name, getattr(cls, name)).__get__(ad), raising=False)
            else:
                tgt = cls if where=='class' else Adapter
                m.setattr(tgt, name, _patched(name, getattr(tgt, name)))
            same(h, api)
        same(h, api)

@pytest.mark.parametrize('base', [OpenAIAdapter, AnthropicAdapter, GeminiAdapter, BedrockAdapter, OpenAIChatAdapter],
                         ids=lambda c: c.__name__)
def test_user_subclasses(base):
    "Registered subclasses with a text_of, text_msg or before_send of their own (or none): the same both ways"
    of, tm, bs = base.text_of, base.text_msg, base.before_send
    def t_of(self, d, role):
        r = of(self, d, role)
        return r.upper() if isinstance(r, str) else r
    def t_msg(self, role, s): return {**tm(self, role, s), 'x': 1}
    def b_send(self, msgs): return [dict(m, sent=1) for m in bs(self, msgs)]
    names = []
    try:
        for kind, body in (('of', dict(text_of=t_of)), ('msg', dict(text_msg=t_msg)), ('bs', dict(before_send=b_send)),
                           ('none', {}), ('mm', dict(max_marks=1))):
            n = f'u_{base.__name__.lower()}_{kind}_s12c'
            register(type(f'U{base.__name__}{kind}', (base,), dict(name=n, **body))); names.append(n)
            for h in ([u('Hi'), a('Yo '), u('Q'), a('P ')], ['Hi', 'Yo ', 'Q', 'P '], [u('Hi'), a('Yo'), u('Q')]):
                for _ in range(2): out(h, n)
                same(h, n)
    finally:
        for n in names: unregister(n)

@pytest.mark.parametrize('api', TARGETS + ('openai_chat',))
def test_requests_the_same(api):
    "mk_request (which takes plain_history too) with a system prompt, 5 marked system blocks, ttl"
    def req(h, **kw):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter('always')
            try: r = msgkit.mk_request(copy.deepcopy(h), api, model='m', max_tokens=10, **kw)
            except Exception as e: return ('error', type(e).__name__, str(e))
        return json.dumps(r, default=repr), [str(w.message) for w in ws]
    sysb = [{'type': 'text', 'text': f's{i}', 'cache_control': {'type': 'ephemeral'}} for i in range(5)]
    for h in ([u('Hi'), a('Yo ')], [u('Hi'), a('Yo'), u('Q')], [u('Hi'), a('  ')]):
        for kw in ({}, dict(system='Be'), dict(system=sysb), dict(ttl='1h')):
            f = req(h, **kw)
            with pytest.MonkeyPatch.context() as m:
                short_ways_off(m)
                assert f == req(h, **kw), (h, kw)
