"""#22, session 13: a tool loop sent back in Gemini's or Converse's own form is copied at once (`plain.copy_own`, asked
by `GeminiAdapter.own_history` and `BedrockAdapter.own_history`), not read into plain turns and then copied.

Every test compares what `mk_msgs` gives (short ways on) with what the general path gives (every short way off): the
messages as JSON with their key order, the type of every dict and list, the warnings, or the error (its type and
text). The histories are what `mk_msgs` made for the API of the loops in tests/test_perf22_loop.py and of the corpus
of real-world histories (tests/corpus), sent back as `mk_msgs` gave them and as JSON loaded again (signatures as
base64 text); then each mutated where the short way decides (every near miss below), and at random (seeded).

Mutations of `copy_own` these tests catch: each check dropped but two, which give the general path's outcome on every
case here (equivalent, kept as `plain_turns` has them): an id already taken (the general path keeps a repeated id for
Gemini and Bedrock too) and calls still open at the end (kept as they are either way)."""
import base64, copy, json, random, warnings
from collections import OrderedDict
from pathlib import Path
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit import core
from msgkit.msgs import Msg, Block, Blocks, History, msg_of
from msgkit.registry import get_api
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter
import oracle
from shortways import types, out, general
from test_perf22_loop import loops
from peers import tool_chat

APIS = ('gemini', 'bedrock')
KEY = dict(gemini='parts', bedrock='content')
MODEL = dict(gemini='model', bedrock='assistant')

def taken(h, api): return get_api(api).own_history(copy.deepcopy(h)) is not None

def as_json(h):
    "`h` stored as JSON and loaded again (bytes as base64 text, as people store a history)"
    return json.loads(json.dumps(h, default=lambda b: base64.b64encode(b).decode() if isinstance(b, bytes) else repr(b)))

def as_msgs(h):
    "`h` as `mk_msgs` gives a history: a `History` of `Msg`s (their dicts `Block`s), what isn't a dict as it is"
    return History(msg_of(m) if type(m) is dict else m for m in h)

def quiet(f, *a):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try: return f(*a)
        except Exception: return None

def corpus_hists():
    for p in sorted((Path(__file__).parent/'corpus').glob('*.json')):
        for c in json.loads(p.read_text()):
            if isinstance(c.get('msgs'), list): yield c['msgs']

def own_forms(api, n=None):
    "What `mk_msgs` made for `api` of the loops and the corpus (the ones it takes)"
    res = []
    for h in list(loops()) + list(corpus_hists()):
        if (r := quiet(msgkit.mk_msgs, copy.deepcopy(h), api)) is not None: res.append(r)
    return res[:n]

@pytest.fixture(scope='module')
def forms(): return {api: own_forms(api) for api in APIS}

@pytest.mark.parametrize('api', APIS)
def test_sent_back_as_general(api, forms):
    "Every history `mk_msgs` made, sent back as it gave it and as JSON loaded again: the general path's outcome"
    hs = forms[api]
    assert len(hs) > 100
    n = 0
    for h in hs:
        for x in (h, as_json(h)):
            assert out(x, api) == general(x, api), (api, x)
            n += taken(x, api)
    assert n > 150, n  # (most are plain loops: copied at once)

@pytest.mark.parametrize('api', APIS)
def test_taken_and_accepted(api):
    "A tool loop sent back is copied at once; what it gives goes through the provider's own request types"
    h = msgkit.mk_msgs(tool_chat(40), api)
    for x in (h, as_json(h)):
        r = get_api(api).own_history(x)
        assert r is not None and type(r) is History and all(type(m) is Msg for m in r)
        oracle.check(api, r)
        assert r == h  # (the same messages: signatures bytes again)
        # (a copy: nothing shared with what came in)
        ids = {id(o) for m in x for o in [m, m[KEY[api]], *m[KEY[api]]]}
        assert not ids & {id(o) for m in r for o in [m, m[KEY[api]], *m[KEY[api]]]}

class Any:
    "A role equal to every string (as `mock.ANY` is)"
    def __eq__(self, o): return True
    def __ne__(self, o): return False
    def __repr__(self): return 'Any()'
    __hash__ = object.__hash__

class S(str): pass

def near_misses(api):
    "One change at a time to a loop in `api`'s own form: every check the short way makes, and some it needn't"
    k, mdl = KEY[api], MODEL[api]
    base = as_json(msgkit.mk_msgs(tool_chat(8), api))
    two = as_json(msgkit.mk_msgs([dict(role='user', content='Q'), dict(role='assistant', content='Looking.', tool_calls=[
        dict(id='c1', type='function', function=dict(name='f', arguments='{"a": 1}')),
        dict(id='c2', type='function', function=dict(name='g', arguments='{"b": [1, {"c": "d"}]}'))]),
        dict(role='tool', tool_call_id='c1', content='one'), dict(role='tool', tool_call_id='c2', content='two'),
        dict(role='assistant', content='Done.')], api))
    call = (lambda m: m[k][1]['function_call']) if api == 'gemini' else (lambda m: m[k][1]['toolUse'])
    res = (lambda m: m[k][0]['function_response']) if api == 'gemini' else (lambda m: m[k][0]['toolResult'])
    args = 'args' if api == 'gemini' else 'input'
    cid = 'id' if api == 'gemini' else 'toolUseId'
    def ch(f, h=base):
        h = copy.deepcopy(h); f(h); return h
    def setk(d, key, v): d[key] = v
    def later(h, res=False):
        "A third call (with no text before it), or its result"
        c = copy.deepcopy(h[1][k][2] if not res else h[2][k][1])
        x = (c['function_call'] if 'function_call' in c else c['function_response'] if 'function_response' in c
             else c['toolUse'] if 'toolUse' in c else c['toolResult'])
        x[cid] = 'c3'
        return c if res else dict(role=mdl, **{k: [c]})
    yield from [
        ch(lambda h: h.__setitem__(0, {k: h[0][k], 'role': 'user'})),              # key order
        ch(lambda h: h.__setitem__(1, {k: h[1][k], 'role': mdl})),
        ch(lambda h: setk(h[0], 'role', Any())), ch(lambda h: setk(h[1], 'role', Any())),
        ch(lambda h: setk(h[0], 'role', S('user'))), ch(lambda h: setk(h[0], 'role', 'system')),
        ch(lambda h: setk(h[0], 'role', mdl)), ch(lambda h: setk(h[3], 'role', 'user')),
        ch(lambda h: setk(h[0], 'extra', 1)), ch(lambda h: setk(h[1], 'name', 'bot')),
        ch(lambda h: setk(h[0], k, tuple(h[0][k]))), ch(lambda h: setk(h[0], k, [])),
        ch(lambda h: setk(h[0][k][0], 'text', ' \n')), ch(lambda h: setk(h[0][k][0], 'text', '')),
        ch(lambda h: setk(h[0][k][0], 'text', 5)), ch(lambda h: setk(h[0][k][0], 'extra', 1)),
        ch(lambda h: setk(h[3][k][0], 'text', 'Trailing space  ')), ch(lambda h: h[-1][k].append(dict(text='more'))),
        ch(lambda h: h[0][k].append(dict(text='more'))), ch(lambda h: h[0][k].append(dict(text=' '))),
        ch(lambda h: setk(h[1][k][0], 'text', ' ')), ch(lambda h: h[1][k].pop(0)),
        ch(lambda h: h[1][k].reverse()),                                             # the text after the call
        ch(lambda h: call(h[1]).pop(cid)), ch(lambda h: setk(call(h[1]), cid, '')),
        ch(lambda h: setk(call(h[1]), cid, 'call.1') or setk(res(h[2]), cid, 'call.1')),
        ch(lambda h: setk(call(h[1]), cid, 'call 1') or setk(res(h[2]), cid, 'call 1')),
        ch(lambda h: setk(call(h[1]), cid, 'x'*80) or setk(res(h[2]), cid, 'x'*80)),
        ch(lambda h: setk(call(h[1]), cid, 5) or setk(res(h[2]), cid, 5)),
        ch(lambda h: setk(call(h[1]), 'name', 'a.b')), ch(lambda h: setk(call(h[1]), 'name', 'é')),
        ch(lambda h: setk(call(h[1]), 'name', '')), ch(lambda h: setk(call(h[1]), 'name', None)),
        ch(lambda h: setk(call(h[1]), args, {'a': None})), ch(lambda h: setk(call(h[1]), args, {'a': {'b': [1, None]}})),
        ch(lambda h: setk(call(h[1]), args, [1])), ch(lambda h: setk(call(h[1]), args, {})),
        ch(lambda h: setk(call(h[1]), args, {1: 2})), ch(lambda h: setk(call(h[1]), args, {'a': (1, 2)})),
        ch(lambda h: setk(call(h[1]), args, {'a': 1.5, 'b': True, 'c': 'x', 'd': [{'e': [[]]}]})),
        ch(lambda h: setk(call(h[1]), args, json.loads('[' * 30 + ']' * 30))),
        ch(lambda h: setk(call(h[1]), args, {'a': json.loads('{"b":' * 30 + '1' + '}' * 30)})),
        ch(lambda h: setk(call(h[1]), 'extra', 1)),
        ch(lambda h: setk(res(h[2]), cid, 'other')), ch(lambda h: setk(res(h[2]), 'name', 'other')),
        ch(lambda h: setk(res(h[2]), 'extra', 1)), ch(lambda h: setk(h[2][k][0], 'extra', 1)),
        ch(lambda h: h.pop(2)), ch(lambda h: h.insert(2, copy.deepcopy(h[2]))), ch(lambda h: h.pop(0)),
        ch(lambda h: h.insert(3, dict(role='user', **{k: [dict(text='And?')]}))),
        ch(lambda h: h.insert(1, 'Hello')), ch(lambda h: h.insert(1, dict(role='assistant', content='Hi'))),
        ch(lambda h: h.insert(1, ['a list'])), ch(lambda h: h.append(dict(role='user', content='Chat text'))),
        ch(lambda h: h.__setitem__(1, Block(h[1]))), ch(lambda h: h.__setitem__(1, AttrDict(h[1]))),
        ch(lambda h: h.__setitem__(1, OrderedDict(h[1]))), ch(lambda h: setk(h[1], k, Blocks(h[1][k]))),
        ch(lambda h: h[1][k].__setitem__(1, AttrDict(h[1][k][1]))),
        ch(lambda h: h.__setitem__(2, dict(role='user', **{k: h[2][k] + [dict(text='and words')]}))),
        ch(lambda h: h[2][k].insert(0, dict(text='words first'))),
        ch(lambda h: h.__setitem__(slice(None), h[:2])),                              # calls open at the end
        ch(lambda h: None, two), ch(lambda h: h[2][k].reverse(), two), ch(lambda h: h[2][k].pop(), two),
        ch(lambda h: h[2][k].append(copy.deepcopy(h[2][k][0])), two),
        ch(lambda h: h.insert(3, dict(role='user', **{k: [h[2][k].pop()]})), two),   # results in two messages
        ch(lambda h: h[1][k].append(copy.deepcopy(h[1][k][1])), two),                # an id twice
        ch(lambda h: h[1][k].append(copy.deepcopy(h[1][k][1])) or h[2][k].append(copy.deepcopy(h[2][k][1])), two),
        ch(lambda h: h[0][k].append(dict(text='more', extra=1))),                     # a later text not plain
        ch(lambda h: setk(call(h[5]), cid, call(h[1])[cid]) or setk(res(h[6]), cid, call(h[1])[cid])),  # an id reused
        ch(lambda h: h.__setitem__(slice(2, 4), [dict(role='user', **{k: [h[2][k][0]]}), later(h),  # a result late
                                                 dict(role='user', **{k: [h[2][k][1], later(h, True)]})]), two),
    ]
    if api == 'gemini':
        yield from [ch(lambda h: setk(h[1][k][1], 'thought_signature', 'c2tpcA==')),           # base64 text
                    ch(lambda h: setk(h[1][k][1], 'thought_signature', 'c2tpcA')),              # padding left out
                    ch(lambda h: setk(h[1][k][1], 'thought_signature', 'c2-_cA')),              # URL-safe
                    ch(lambda h: setk(h[1][k][1], 'thought_signature', 'not base64!')),
                    ch(lambda h: setk(h[1][k][1], 'thought_signature', 5)),
                    ch(lambda h: setk(h[1][k][1], 'thought_signature', b'raw')),
                    ch(lambda h: h[1][k][1].pop('thought_signature')),
                    ch(lambda h: setk(h[1][k][0], 'thought_signature', 'c2tpcA==')),
                    ch(lambda h: setk(h[1][k][0], 'thought', True)),
                    ch(lambda h: setk(h[2][k][0]['function_response']['response'], 'output', ' ')),
                    ch(lambda h: setk(h[2][k][0]['function_response'], 'response', {'result': 'x'})),
                    ch(lambda h: setk(h[2][k][0]['function_response'], 'response', {'output': 'x', 'more': 1})),
                    ch(lambda h: setk(h[1], 'role', 'assistant'))]
    else:
        yield from [ch(lambda h: setk(res(h[2]), 'status', 'error')),
                    ch(lambda h: res(h[2])['content'].append(dict(text='more'))),
                    ch(lambda h: setk(res(h[2]), 'content', [dict(json={'t': 20})])),
                    ch(lambda h: setk(res(h[2])['content'][0], 'text', ' ')),
                    ch(lambda h: setk(res(h[2]), 'content', [])),
                    ch(lambda h: h[-1][k].append(dict(cachePoint=dict(type='default')))),
                    ch(lambda h: setk(h[-1][k][0], 'text', 'Prefill ')),
                    ch(lambda h: h.append(dict(role='assistant', content=[dict(text='Prefill \n')])) or h.insert(-1, h[0])),
                    ch(lambda h: setk(h[1], 'role', 'model'))]

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('form', ['json', 'msgs'])
def test_near_misses_as_general(api, form):
    "Each near miss, as JSON and as `Msg`s: the general path's outcome, whether the short way takes it or not"
    n = 0
    for h in near_misses(api):
        x = h if form == 'json' else as_msgs(h)
        assert out(x, api) == general(x, api), (api, x)
        n += 1
    assert n > 60

def mutate(h, rnd):
    "One random change somewhere in `h` (a history of JSON): a key dropped, a value replaced, an item moved or doubled"
    vals = ['', ' ', 'x', 'user', 'model', 'assistant', None, 0, 1.5, True, [], {}, [{}], {'text': 'x'}, 'c2tpcA==',
            'call_0000', 'get_weather', {'output': 'x'}, [{'text': 'x'}]]
    spots = []
    def walk(v):
        if isinstance(v, dict): spots.append(v); [walk(o) for o in v.values()]
        elif isinstance(v, list): spots.append(v); [walk(o) for o in v]
    walk(h)
    s = rnd.choice(spots)
    if isinstance(s, dict) and s:
        key = rnd.choice(list(s)); op = rnd.randrange(4)
        if op == 0: s.pop(key)
        elif op == 1: s[key] = copy.deepcopy(rnd.choice(vals))
        elif op == 2: v = s.pop(key); s[key] = v  # (its key last)
        else: s['extra'] = 1
    elif isinstance(s, list) and s:
        i = rnd.randrange(len(s)); op = rnd.randrange(4)
        if op == 0: s.pop(i)
        elif op == 1: s.insert(i, copy.deepcopy(s[i]))
        elif op == 2: s.reverse()
        else: s[i] = copy.deepcopy(rnd.choice(vals))
    return h

@pytest.mark.parametrize('api', APIS)
def test_random_mutations_as_general(api):
    "Loops in the API's form, one to three random changes each (seeded): the general path's outcome every time"
    rnd = random.Random(13)
    bases = [as_json(msgkit.mk_msgs(tool_chat(n), api)) for n in (4, 8, 12)]
    bases += [as_json(h) for h in own_forms(api, 40)]
    n = 0
    for i in range(500):
        h = copy.deepcopy(rnd.choice(bases))
        for _ in range(rnd.randint(1, 3)): mutate(h, rnd)
        x = h if i % 2 else as_msgs(h)
        assert out(x, api) == general(x, api), (api, i, x)
        n += taken(x, api)
    assert 20 < n < 450, n  # (some still plain, most not)

@pytest.mark.parametrize('api', APIS)
def test_patched_rules_step_aside(api):
    "A rule patched (the lane's reader, its renderer, an id rule): `own_history` steps aside, the outcome the general path's"
    h = msgkit.mk_msgs(tool_chat(8), api)
    ad, cls = get_api(api), type(get_api(api))
    assert ad.own_history(h) is not None
    real = cls.plain_turn
    for name, f in [('plain_turn', lambda self, d: real(self, d)), ('plain_msgs', lambda self, ts: None),
                    ('id_max', 3), ('name_max', 3)]:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(cls, name, f)
            assert ad.own_history(h) is None, name
            assert out(h, api) == general(h, api), name
    class Mine(cls): pass
    assert Mine().own_history(h) is None  # (a subclass: its own rules)

# ---------------------------------------------------------------- Chat loops rendered at once (`chat_lane`)
# A Chat tool loop sent to Gemini or Bedrock is read and rendered in one pass (`openai_chat.chat_lane`, asked by
# `plain.lane_history` with the target's `plain_makers`), with no plain turns between. The same comparisons.
from msgkit.plain import lane_history, READERS, LANES
from msgkit.adapters.anthropic import AnthropicAdapter
from msgkit.adapters.openai import OpenAIAdapter

def lane_taken(h, api): return quiet(lane_history, copy.deepcopy(h), get_api(api)) is not None

def chat_hists():
    "The loops of tests/test_perf22_loop.py and the corpus's histories that are lists of Chat-like dicts"
    return [h for h in list(loops()) + list(corpus_hists()) if h and all(type(o) is dict for o in h)]

@pytest.mark.parametrize('api', APIS)
def test_chat_loops_as_general(api):
    "Every Chat loop and corpus history of dicts: the general path's outcome, and most loops taken at once"
    n = 0
    for h in chat_hists():
        assert out(h, api) == general(h, api), (api, h)
        n += lane_taken(h, api)
    assert n > 40, n

@pytest.mark.parametrize('api', APIS)
def test_chat_lane_accepted(api):
    "What the lane gives for a long loop goes through the provider's own request types; a copy, the input unchanged"
    h = tool_chat(40); before = copy.deepcopy(h)
    r = lane_history(h, get_api(api))
    assert r is not None and type(r) is History and all(type(m) is Msg for m in r)
    oracle.check(api, r)
    assert h == before
    with pytest.MonkeyPatch.context() as m:
        m.setattr(core, 'lane_history', lambda h, ad: None)
        assert msgkit.mk_msgs(h, api) == r  # (the plain lane's messages)

def chat_near_misses():
    "One change at a time to a Chat loop: every check the lane makes"
    Q, A = dict(role='user', content='Weather?'), dict(role='assistant', content='Sunny.')
    def call(i='c1', name='get_weather', args='{"city": "Paris"}', **kw):
        return dict(id=i, type='function', function=dict(name=name, arguments=args), **kw)
    def asst(cs, c='Looking.'): return dict(role='assistant', content=c, tool_calls=cs)
    def tool(i='c1', content='20C', **kw): return dict(role='tool', tool_call_id=i, content=content, **kw)
    two = [call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]
    base = [Q, asst([call()]), tool(), A]
    yield from [base, [Q, asst([call()], None), tool(), A], [Q, asst(two), tool('c1'), tool('c2'), A],
                [Q, asst(two), tool('c2'), tool('c1'), A], [Q, asst(two), tool('c1'), A], [Q, asst(two), tool('c1')],
                [Q, asst([call()])], [Q, tool(), A], [asst([call()]), tool(), A], [Q, asst([call()]), tool('c2'), A],
                [Q, asst([call()]), tool(), tool(), A], [Q, asst([call()]), tool(), Q, A],
                [Q, asst([call()]), tool(), asst([call('c2')]), tool('c2'), A],
                [Q, asst([call()]), tool(), A, Q, asst([call()]), tool(), A],            # an id again
                [Q, asst([call()]), dict(role='user', content='Wait.'), tool(), A],       # words while a call is open
                [Q, asst(two), tool('c1'), asst([call('c3')]), tool('c2'), tool('c3'), A],  # calls while one is open
                [dict(role='system', content='Be brief.'), *base], ['Weather?', *base[1:]],
                [Q, asst([call()], ' '), tool(), A], [Q, asst([call()], ''), tool(), A], [Q, asst([call()], 5), tool(), A],
                [Q, asst([]), tool(), A], [Q, asst([call(extra=1)]), tool(), A], [Q, asst([call(i='')]), tool(''), A],
                [Q, asst([call(i=5)]), tool(5), A], [Q, asst([call(i='c.1')]), tool('c.1'), A],
                [Q, asst([call(i='x' * 80)]), tool('x' * 80), A], [Q, asst([call(name='a.b')]), tool(), A],
                [Q, asst([call(name='é')]), tool(), A], [Q, asst([call(name='')]), tool(), A],
                [Q, asst([call(args='{"a": null}')]), tool(), A], [Q, asst([call(args='[1]')]), tool(), A],
                [Q, asst([call(args='{}')]), tool(), A], [Q, asst([call(args='not json')]), tool(), A],
                [Q, asst([call(args=' {"a": 1}')]), tool(), A], [Q, asst([call(args='{"a": 1} ')]), tool(), A],
                [Q, asst([call(args={'a': 1})]), tool(), A], [Q, asst([call(args='{"a":' * 30 + '1' + '}' * 30)]), tool(), A],
                [Q, asst([call()]), tool(content=' '), A], [Q, asst([call()]), tool(content=''), A],
                [Q, asst([call()]), tool(content=['x']), A], [Q, asst([call()]), tool(content=None), A],
                [Q, asst([call()]), tool(name='get_weather'), A], [Q, asst([call()]), tool(i=5), A],
                [Q, asst([call()]) | dict(name='bot'), tool(), A], [Q, dict(role='assistant', tool_calls=[call()]), tool(), A],
                [Q, asst((call(),)), tool(), A], [Q, asst([call() | dict(type='custom')]), tool(), A],
                [Q, asst([dict(call(), type=Any())]), tool(), A], [dict(Q, role=Any()), asst([call()]), tool(), A],
                [dict(Q, role=S('user')), asst([call()]), tool(), A], [Q, dict(asst([call()]), role='model'), tool(), A],
                [Q, asst([call()]), dict(tool(), role='function'), A], [Q, A, Q, A], [Q, Q, A], [Q, A, A],
                [dict(Q, content=' '), A], [dict(Q, content=''), A], [Q, dict(A, content='Trailing space  ')],
                [Q, asst([call()]), tool(), dict(A, content='Prefill \n')],
                [Q, dict(role='user', content=[dict(type='text', text='x')]), A], [dict(Q, content=None), A],
                [OrderedDict(Q), A], [Block(Q), A], [Q, asst([Block(call())]), tool(), A],
                [{'content': 'Weather?', 'role': 'user'}, asst([call()]), tool(), A],
                [Q, {'tool_calls': [call()], 'content': 'x', 'role': 'assistant'}, tool(), A],
                [Q, asst([call()]), {'content': '20C', 'tool_call_id': 'c1', 'role': 'tool'}, A]]

@pytest.mark.parametrize('api', APIS)
def test_chat_near_misses_as_general(api):
    "Each near miss: the general path's outcome, taken at once or not"
    hs = list(chat_near_misses())
    for h in hs: assert out(h, api) == general(h, api), (api, h)
    assert 5 < sum(lane_taken(h, api) for h in hs) < len(hs) - 30

@pytest.mark.parametrize('api', APIS)
def test_chat_random_mutations_as_general(api):
    "Chat loops, one to three random changes each (seeded): the general path's outcome every time"
    rnd = random.Random(131)
    bases = [tool_chat(n) for n in (4, 8, 12)] + list(chat_near_misses())[:3]
    n = 0
    for i in range(400):
        h = copy.deepcopy(rnd.choice(bases))
        for _ in range(rnd.randint(1, 3)): mutate(h, rnd)
        assert out(h, api) == general(h, api), (api, i, h)
        n += lane_taken(h, api)
    assert 20 < n < 350, n

@pytest.mark.parametrize('api', APIS)
def test_chat_lane_steps_aside(api):
    "A reader patched (any API's `plain_turn`, on its class or an adapter), a rule patched, a subclass: not at once"
    h, ad = tool_chat(8), get_api(api)
    assert lane_history(h, ad) is not None
    for cls in (OpenAIChatAdapter, AnthropicAdapter, OpenAIAdapter, GeminiAdapter, BedrockAdapter):
        real = cls.plain_turn
        with pytest.MonkeyPatch.context() as m:
            m.setattr(cls, 'plain_turn', lambda self, d, real=real: real(self, d))
            assert lane_history(h, ad) is None, cls
            assert out(h, api) == general(h, api)
        other = get_api(cls.name)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(other, 'plain_turn', lambda d, real=real, o=other: real(o, d), raising=False)
            assert lane_history(h, ad) is None, cls
    for cls, name, v in [(OpenAIChatAdapter, 'id_max', 3), (AnthropicAdapter, 'name_max', 3),
                         (type(ad), 'name_max', 3), (type(ad), 'plain_msgs', lambda self, ts: None)]:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(cls, name, v)
            assert lane_history(h, ad) is None, (cls, name)
            assert out(h, api) == general(h, api), (cls, name)
    class Mine(type(ad)): pass
    assert Mine().plain_makers() is None
