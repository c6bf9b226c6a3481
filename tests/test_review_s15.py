"""Review s15: what `mk_msgs` gave, sent back (`Msg`s, fastcore `AttrDict`s, mixed with dicts): `text_dicts` for every
API, `own_history`'s `{**o}` / `_plain_calls` / `_own_content`, `as_plain`'s rewrite and `plain_args`' shorter count.
Ground truth: `out(h, api) == general(h, api)`, nothing sent mutated, no output dict/list that `is` one sent.
One defect found (NEW): `own_history` compared a sent-back `Msg`'s role with 'tool' before it asked its type, so a
role whose `==` raises failed there, with another error than the general path's; fixed in session 15."""
import copy, json, os, random, sys, threading, warnings
from unittest import mock
import pytest
import msgkit
from msgkit import plain
from msgkit.plain import as_plain, plain_args, ARGS_DEEP, DICT_VIEWS
from msgkit.errors import too_deep
from msgkit.msgs import Msg, Block, Blocks, History
from msgkit.registry import apis, get_api
from fastcore.basics import AttrDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
from shortways import out, general
from peers import text_history, tool_chat, big_png, data_uri
import oracle

put = dict.__setitem__

class R(str):
    "A str subclass: never compared on a short way"

from test_review_s13 import objs as ids  # id -> every dict and list in `x`, at any depth

def same_fresh_untouched(h, api, f=None):
    "`h` gives what the general path gives, is left as it was (types too), and shares no dict or list with the result"
    assert out(h, api, f) == general(h, api, f), (api, h)
    before, types = copy.deepcopy(h), [type(m) for m in h]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try: r = (f or (lambda x: msgkit.mk_msgs(x, api)))(h)
        except Exception: r = None
    assert h == before and [type(m) for m in h] == types, (api, h)
    if r is not None: assert not set(ids(r)) & set(ids(h)), (api, 'output aliases input')
    return r

def raw(o, i, f):
    "`o` with message `i` a copy changed by `f` past `Msg`'s wrapping (what a caller may put there)"
    m = Msg(o[i]); f(m)
    return History([m if j==i else x for j, x in enumerate(o)])

# ------------------------------------------------------------------------------------------- the defect (NEW)

class Picky:
    "A role whose `==` raises when asked about 'tool' (a lazy/array-like value, say): no short way may compare it"
    def __eq__(self, o):
        if o == 'tool': raise TypeError('not with tool')
        return NotImplemented
    __hash__ = object.__hash__
    def __repr__(self): return 'Picky()'

class PickyStr(str):
    "The same, a str subclass (type not `str`: a short way must not compare it)"
    def __eq__(self, o):
        if o == 'tool': raise TypeError('not with tool')
        return str.__eq__(self, o)
    __hash__ = str.__hash__

def picky_histories(role):
    # (a Msg of text with a third key: `own_history` asks `g(o, 'role')=='tool'` before `type(role) is str`)
    return [History([Msg(role=role, content='x', name='bob')]),
            History([Msg(role='user', content='Hi'), Msg(role='assistant', content='Yo'),
                     Msg(role=role, content='x', name='bob')])]

# found by review s15, fixed in session 15 (was a strict xfail, NEW): own_history compared a sent-back Msg's role with
# 'tool' before checking its type: a role whose == raises errored '(in own_history)', not the general path's error
def test_role_compared_before_its_type():
    for h in picky_histories(Picky()): assert out(h, 'openai_chat') == general(h, 'openai_chat')

# found by review s15, fixed in session 15 (was a strict xfail, NEW): the same with a str-subclass role: InputTypeError
# from own_history where the general path gives InputError
def test_str_subclass_role_compared_before_its_type():
    for h in picky_histories(PickyStr('user')): assert out(h, 'openai_chat') == general(h, 'openai_chat')

def test_picky_role_fine_as_plain_dicts():
    "The same roles in plain dicts (no `{**o}` branch): the general path's, as before"
    for role in (Picky(), PickyStr('user')):
        for h in picky_histories(role):
            d = [dict(m) for m in h]
            assert out(d, 'openai_chat') == general(d, 'openai_chat')

# ------------------------------------------------------------------------------- text histories, every API

def bases(api):
    "Text histories of `Msg`s as a chat loop keeps them: the API's own (if Chat-form text) and Chat's"
    bs = [msgkit.mk_msgs(text_history(6), 'openai_chat'), msgkit.mk_msgs(['Hi', 'Hello', 'hey', 'yo'], 'openai')]
    own = msgkit.mk_msgs(text_history(6), api)
    if all(set(m)=={'role', 'content'} and type(m['content']) is str for m in own): bs.append(own)
    return bs

ODD = [('role', R('user')), ('content', R('x')), ('content', b'x'), ('content', Block(type='text', text='x')),
       ('content', Blocks([Block(type='text', text='x')])), ('content', 'http://x.com/a.png'), ('content', ' hi'),
       ('content', '\u3000'), ('content', 'Hi\x00'), ('role', 'system'), ('role', 'developer'), ('role', 'tool'),
       ('role', mock.ANY), ('content', mock.ANY), ('content', None), ('content', '')]

@pytest.mark.parametrize('api', apis())
def test_text_msgs_mixed_and_odd(api):
    rnd = random.Random(api)
    for base in bases(api):
        assert plain.text_dicts(base) is not None  # (the short way's door opens: so the comparisons test it)
        for _ in range(6): same_fresh_untouched(History([rnd.choice([dict, Msg, AttrDict])(m) for m in base]), api)
        for i in range(3):
            sw = lambda m, t: t({'content': m['content'], 'role': m['role']})
            for t in (Msg, AttrDict, dict):
                same_fresh_untouched(History([sw(m, t) if j==i else m for j, m in enumerate(base)]), api)
            for k, v in ODD:
                same_fresh_untouched(raw(base, i, lambda m: put(m, k, v)), api)
        for first in (Msg, AttrDict, dict):
            same_fresh_untouched(History([first(role='system', content='Be brief.')] + list(base)), api)
        same_fresh_untouched(list(base), api)
        same_fresh_untouched(History([Block(m) if i==3 else m for i, m in enumerate(base)]), api)

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock', 'groq'])
def test_text_msgs_through_mk_request(api):
    f = lambda x: msgkit.mk_request(x, api, model='m', max_tokens=64)
    for base in bases(api):
        same_fresh_untouched(History([AttrDict(m) if i%3 else m for i, m in enumerate(base)]), api, f)

def test_text_dicts_types_and_none():
    h = msgkit.mk_msgs(text_history(4), 'openai_chat')
    assert plain.text_dicts(h) == plain.text_dicts([dict(m) for m in h]) == plain.text_dicts([AttrDict(m) for m in h])
    assert plain.text_dicts([]) is None and plain.text_dicts([Block(m) for m in h]) is None
    assert plain.text_dicts([Msg(role=Picky(), content='x')]) is None  # (roles never compared unless `str`)

# ------------------------------------------------------------------------------------- Chat tool loops of Msgs

def loop_variants():
    o = msgkit.mk_msgs(tool_chat(10), 'openai_chat')
    yield o
    c0 = o[1]['tool_calls'][0]; fn = c0['function']
    def fnv(**kw): return Blocks([Block({**c0, 'function': Block({**fn, **kw})})])
    def cv(**kw): return Blocks([Block({**c0, **kw})])
    A = [('tool_calls', fnv(arguments=Block(a=1))), ('tool_calls', fnv(arguments={'a': 1})),
         ('tool_calls', fnv(arguments='')), ('tool_calls', fnv(arguments=' {"a":1} ')),
         ('tool_calls', fnv(arguments='[1]')),
         ('tool_calls', fnv(arguments='{"a":')), ('tool_calls', fnv(arguments='{"a":NaN}')),
         ('tool_calls', fnv(arguments='{"a":1,"a":2}')), ('tool_calls', fnv(name=R('get_weather'))),
         ('tool_calls', fnv(name='bad name!')), ('tool_calls', fnv(extra=Block(a=1))), ('tool_calls', fnv(extra='a')),
         ('tool_calls', Blocks([Block({**c0, 'function': AttrDict(fn)})])), ('tool_calls', Blocks([Msg(c0)])),
         ('tool_calls', Blocks([AttrDict(c0)])), ('tool_calls', cv(id=R(c0['id']))), ('tool_calls', cv(id='')),
         ('tool_calls', cv(id='call a/b')), ('tool_calls', cv(type=mock.ANY)), ('tool_calls', cv(type=Block(a=1))),
         ('tool_calls', cv(extra=Blocks([1]))), ('tool_calls', [Block(c0)]), ('tool_calls', (c0,)),
         ('content', R('hi')), ('content', 'Let me check.'), ('content', ''), ('role', mock.ANY),
         ('role', R('assistant')),
         ('name', 'bob'), ('refusal', None), ('audio', Block(id='a1'))]
    for k, v in A: yield raw(o, 1, lambda m, k=k, v=v: put(m, k, v))
    yield raw(o, 1, lambda m: (lambda d: (m.clear(), dict.update(m, d)))({k: m[k] for k in reversed(list(m))}))
    T = [('tool_call_id', R('x')), ('tool_call_id', Block(x=1)), ('content', Blocks([Block(type='text', text='x')])),
         ('content', [{'type': 'text', 'text': 'x'}]), ('content', R('22C')), ('content', ' '), ('content', None),
         ('name', 'get_weather'), ('name', Block(a=1)), ('role', mock.ANY), ('role', R('tool')),
         ('content', 'https://example.com/a.png'), ('extra', Blocks([Block(a=1)]))]
    for k, v in T: yield raw(o, 2, lambda m, k=k, v=v: put(m, k, v))
    yield raw(o, 2, lambda m: dict.pop(m, 'tool_call_id'))
    yield raw(o, 2, lambda m: (lambda d: (m.clear(), dict.update(m, d)))({k: m[k] for k in reversed(list(m))}))
    yield History([Block(m) if i%3==1 else m for i, m in enumerate(o)])
    yield History([AttrDict(m) if i%2 else m for i, m in enumerate(o)])
    yield History([Msg(role='system', content='Be brief.')] + list(o))
    p = msgkit.mk_msgs([{'role': 'user', 'content': 'q'}, {'role': 'assistant', 'content': None, 'tool_calls': [
        {'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': '{"a":1}'}},
        {'id': 'c2', 'type': 'function', 'function': {'name': 'g', 'arguments': '{}'}}]},
        {'role': 'tool', 'tool_call_id': 'c1', 'content': 'r1'},
        {'role': 'tool', 'tool_call_id': 'c2', 'content': 'r2'},
        {'role': 'assistant', 'content': 'done'}], 'openai_chat')
    yield p
    yield History([p[0], p[1], p[3], p[2], p[4]])
    yield raw(p, 1, lambda m: put(m, 'tool_calls', Blocks([m['tool_calls'][0], m['tool_calls'][0]])))
    yield raw(p, 1, lambda m: put(m, 'tool_calls',
                                  Blocks([m['tool_calls'][0], Block({**m['tool_calls'][0], 'id': 'c2'})])))
    for k in (20, 21, 22, 23, 24, 25):  # (arguments nested about ARGS_DEEP, in short text and in long)
        for a in ('{"":' + '['*k + ']'*k + '}', '{"a":' + '{"b":'*k + '1' + '}'*k + '}'):
            yield raw(o, 1, lambda m, a=a: put(m, 'tool_calls', fnv(arguments=a)))

def test_tool_loop_msgs_as_general():
    vs = list(loop_variants())
    assert get_api('openai_chat').own_history(vs[0]) is not None  # (the short way taken for the plain loop)
    for h in vs: same_fresh_untouched(h, 'openai_chat')

@pytest.mark.parametrize('api', [a for a in apis() if a != 'openai_chat'])
def test_tool_loop_msgs_to_other_apis(api):
    for h in list(loop_variants())[::4]: same_fresh_untouched(h, api)

def test_tool_loop_msgs_accepted():
    for h in list(loop_variants())[:1] + [msgkit.mk_msgs(tool_chat(7), 'openai_chat')]:
        oracle.check('openai_chat', msgkit.mk_msgs(h, 'openai_chat'))

# ------------------------------------------------------------------------------------------ users' images

U = data_uri(big_png(600))

def image_contents():
    im, tx = dict(type='image_url', image_url=dict(url=U)), dict(type='text', text='What is this?')
    ims = [im, dict(image_url=dict(url=U), type='image_url')]
    for i in ims:
        for c in ([i, tx], [tx, i], [i, i], [i], [tx, i, dict(text='And?', type='text')]): yield c
    yield [dict(type='image_url', image_url=dict(url=U, detail='low'))]                # detail: the general path's
    yield [dict(type='image_url', image_url=dict(url=U), extra=1)]
    yield [dict(type='image_url', image_url=dict(url=' ' + U))]
    yield [dict(type='image_url', image_url=dict(url=U)), dict(type='text', text='  ')]
    yield [Block(type='image_url', image_url=Block(url=U))]
    yield [dict(type='image_url', image_url=Block(url=U))]

def test_images_fresh_as_general():
    ad, took = get_api('openai_chat'), 0
    for c in image_contents():
        for t in (dict, Msg):
            for first in ('role', 'content'):
                u = {'role': 'user', 'content': c} if first=='role' else {'content': c, 'role': 'user'}
                h = [t(u), t(role='assistant', content='A dot.'), t(role='user', content='And?')]
                h = History(h) if t is Msg else h
                took += ad.own_history(h) is not None
                r = same_fresh_untouched(h, 'openai_chat')
                if r is not None and type(r[0]['content']) is Blocks:
                    assert all(type(b) is Block for b in r[0]['content'])
    assert took >= 40  # (most of them by the short way: so the comparisons test `_own_content`)

def test_images_accepted():
    h = [dict(role='user', content=[dict(image_url=dict(url=U), type='image_url'), dict(text='Hm?', type='text')]),
         dict(role='assistant', content='A dot.'), dict(role='user', content='And?')]
    oracle.check('openai_chat', msgkit.mk_msgs(msgkit.mk_msgs(h, 'openai_chat'), 'openai_chat'))

# ----------------------------------------------------------------------------------- as_plain and plain_args

def old_as_plain(v, d=0):
    "`as_plain` at 11a32f6, as it was"
    t = type(v)
    if d>ARGS_DEEP: return v
    if t is dict or t in DICT_VIEWS: return {k: o if type(o) is str else old_as_plain(o, d+1) for k, o in v.items()}
    return [o if type(o) is str else old_as_plain(o, d+1) for o in v] if t is list or t is Blocks else v

def rnd_value(rnd, d):
    if d > 30 or rnd.random() < 0.25: return rnd.choice(['s', R('r'), 1, None, b'x', (1, [2]), mock.ANY, 1.5])
    t = rnd.choice([dict, Msg, Block, AttrDict, list, Blocks])
    n = rnd.randint(0, 3) if d < 20 else 1
    if t in (list, Blocks): return t([rnd_value(rnd, d+1) for _ in range(n)])
    x = t(); [put(x, rnd.choice(['a', 'b', 'c', 'role']) + str(i), rnd_value(rnd, d+1)) for i in range(n)]
    return x

def chain(n, t=Block):
    x = 'end'
    for _ in range(n): x = t(a=x) if t is not Blocks else Blocks([x])
    return x

def test_as_plain_as_before():
    rnd = random.Random(15)
    vals = [rnd_value(rnd, 0) for _ in range(400)]
    vals += [chain(n, t) for n in (23, 24, 25, 26, 27) for t in (Block, Blocks)]
    for v in vals:
        a, b = as_plain(v), old_as_plain(v)
        assert a == b and json.dumps(a, default=repr) == json.dumps(b, default=repr)
        assert repr(as_plain_types(a)) == repr(as_plain_types(b))
        assert set(ids(a)) & set(ids(v)) == set(ids(b)) & set(ids(v))  # (shared only past ARGS_DEEP, as before)

def as_plain_types(x, d=0):
    if isinstance(x, dict): return (type(x).__name__, [(k, as_plain_types(o, d+1)) for k, o in x.items()])
    if isinstance(x, list): return (type(x).__name__, [as_plain_types(o, d+1) for o in x])
    return type(x).__name__

def test_as_plain_copies_a_msg():
    m = next(m for m in msgkit.mk_msgs(tool_chat(8), 'openai_chat') if 'tool_calls' in m)
    p = as_plain(m)
    assert type(p) is dict and type(p['tool_calls']) is list and type(p['tool_calls'][0]['function']) is dict
    assert not set(ids(p)) & set(ids(m)) and p == m

def test_plain_args_short_text_cannot_nest_too_deep():
    "The shortest arguments nested past ARGS_DEEP are longer than 2*ARGS_DEEP: the count skipped loses none"
    deep = lambda k: '{"":' + '['*k + ']'*k + '}'
    assert too_deep(json.loads(deep(ARGS_DEEP)), ARGS_DEEP) and not too_deep(json.loads(deep(ARGS_DEEP-1)), ARGS_DEEP)
    assert len(deep(ARGS_DEEP)) > 2*ARGS_DEEP
    assert plain_args(deep(ARGS_DEEP)) is None and plain_args(deep(ARGS_DEEP-1)) == json.loads(deep(ARGS_DEEP-1))
    assert plain_args('{"a":' + '{"b":'*ARGS_DEEP + '1' + '}'*ARGS_DEEP + '}') is None
    for k in range(1, 22):  # (all within 48 characters: read, none too deep)
        a = deep(k)
        if len(a) <= 2*ARGS_DEEP: assert plain_args(a) == json.loads(a) and not too_deep(json.loads(a), ARGS_DEEP)

# ------------------------------------------------------------------------------------------------- threads

def test_threads_same_msgs():
    h = msgkit.mk_msgs(tool_chat(30), 'openai_chat')
    t = msgkit.mk_msgs(text_history(30), 'anthropic')
    want = {a: json.dumps(msgkit.mk_msgs(x, a)) for a, x in (('openai_chat', h), ('anthropic', t), ('gemini', t))}
    before, bad = copy.deepcopy([h, t]), []
    def run():
        for _ in range(40):
            for a, x in (('openai_chat', h), ('anthropic', t), ('gemini', t)):
                if json.dumps(msgkit.mk_msgs(x, a)) != want[a]: bad.append(a)
    ts = [threading.Thread(target=run) for _ in range(4)]
    for x in ts: x.start()
    for x in ts: x.join()
    assert not bad and [h, t] == before
