"""Review of 351ca34 (Chat's `own_history` reads a sent-back `Msg`'s calls as they are, `_plain_call(k, OBJS)`) and
a6d6ca5 (`plain._memo`: a dict subclass whose `__missing__` asks the check, handed out as its `__getitem__`).

Each test compares `mk_msgs` (short ways on) with the general path (every short way off: `test_review_s12.same`),
checks the input is not mutated and shares no dict or list with the output. Defects would be strict xfails marked
NEW (the commit brought them) or PREDATING; none were found (see the report), so all tests here pass."""
import copy, json, threading
from collections import OrderedDict
from unittest import mock
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit import plain
from msgkit.msgs import Msg, Block, Blocks, History
from msgkit.registry import get_api, register, unregister
from msgkit.adapters.openai_chat import OpenAIChatAdapter, _plain_call
from test_review_s12 import out, general, same, APIS
import oracle

Q, A = dict(role='user', content='Weather?'), dict(role='assistant', content='Sunny.')
def call(i='call_1', name='get_weather', args='{"city": "Paris"}', **kw):
    return dict(id=i, type='function', function=dict(name=name, arguments=args), **kw)
def asst(cs, c='Let me look.', **kw): return dict(role='assistant', content=c, tool_calls=cs, **kw)
def tool(i='call_1', c='{"temp": 20}', **kw): return dict(role='tool', tool_call_id=i, content=c, **kw)
def loop(i='call_1', name='get_weather'): return [Q, asst([call(i, name)]), tool(i), A]
TWO = [Q, asst([call(), call('call_2')]), tool(), tool('call_2'), A]

def nodes(x, acc=None):
    "ids of every dict and list in `x`"
    acc = set() if acc is None else acc
    if isinstance(x, (dict, list, tuple)):
        if isinstance(x, (dict, list)): acc.add(id(x))
        for v in (x.values() if isinstance(x, dict) else x): nodes(v, acc)
    return acc

def safe(h, api='openai_chat'):
    "`same` on `h` itself (no deep copy), and `h` neither mutated nor shared with what `mk_msgs` gives"
    before = repr(h)
    same(h, api, deep=False)
    try: r = msgkit.mk_msgs(h, api)
    except Exception: r = None
    assert repr(h) == before, 'input mutated'
    if r is not None: assert not (nodes(r) & nodes(h)), 'output shares a dict or list with the input'
    return r

def sent(h=TWO, api='openai_chat'): return list(msgkit.mk_msgs(copy.deepcopy(h), api))

# --- 351ca34: a model's Msg with calls sent back, edited in every way ---------------------------------------------
def _set(m, k, v): dict.__setitem__(m, k, v)
def _c(m, j=0): return m['tool_calls'][j]
class S(str): pass
class HashStr(str):
    def __hash__(self): return 1
    def __eq__(self, o): return True

EDITS = {
    'as given': lambda m: None,
    'call an AttrDict': lambda m: m['tool_calls'].__setitem__(0, AttrDict(_c(m))),
    'call an OrderedDict': lambda m: m['tool_calls'].__setitem__(0, OrderedDict(_c(m))),
    'call a Msg': lambda m: m['tool_calls'].__setitem__(0, Msg(_c(m))),
    'call a plain dict, its function a Block': lambda m: m['tool_calls'].__setitem__(0, {**_c(m)}),
    'function an AttrDict': lambda m: _set(_c(m), 'function', AttrDict(_c(m)['function'])),
    'function a Msg': lambda m: _set(_c(m), 'function', Msg(_c(m)['function'])),
    'function an OrderedDict': lambda m: _set(_c(m), 'function', OrderedDict(_c(m)['function'])),
    'function Blocks': lambda m: _set(_c(m), 'function', Blocks([_c(m)['function']])),
    'calls nested Blocks': lambda m: _set(m, 'tool_calls', Blocks([m['tool_calls']])),
    'calls a History': lambda m: _set(m, 'tool_calls', History(m['tool_calls'])),
    'calls a Blocks subclass': lambda m: _set(m, 'tool_calls', type('B2', (Blocks,), {})(m['tool_calls'])),
    'call a Block subclass': lambda m: m['tool_calls'].__setitem__(0, type('K2', (Block,), {})(_c(m))),
    'call keys reordered': lambda m: m['tool_calls'].__setitem__(0, Block(function=_c(m)['function'],
                                                                          id=_c(m)['id'], type='function')),
    'function keys reordered': lambda m: _set(_c(m), 'function', Block(arguments=_c(m)['function']['arguments'],
                                                                      name=_c(m)['function']['name'])),
    'id a str subclass': lambda m: _set(_c(m), 'id', S('call_1')),
    'id odd hash str': lambda m: _set(_c(m), 'id', HashStr('call_1')),
    'id ANY': lambda m: _set(_c(m), 'id', mock.ANY),
    'id an int': lambda m: _set(_c(m), 'id', 1),
    'id unhashable': lambda m: _set(_c(m), 'id', ['call_1']),
    'id too long': lambda m: _set(_c(m), 'id', 'c'*41),
    'name a str subclass': lambda m: _set(_c(m)['function'], 'name', S('get_weather')),
    'name ANY': lambda m: _set(_c(m)['function'], 'name', mock.ANY),
    'name bad chars': lambda m: _set(_c(m)['function'], 'name', 'get weather'),
    'name 300 chars': lambda m: _set(_c(m)['function'], 'name', 'n'*300),
    'arguments a str subclass': lambda m: _set(_c(m)['function'], 'arguments', S('{"city": "Paris"}')),
    'arguments ANY': lambda m: _set(_c(m)['function'], 'arguments', mock.ANY),
    'arguments a Block': lambda m: _set(_c(m)['function'], 'arguments', Block(city='Paris')),
    'type a str subclass': lambda m: _set(_c(m), 'type', S('function')),
    'call extra key': lambda m: _set(_c(m), 'index', 0),
    'function extra key': lambda m: _set(_c(m)['function'], 'strict', True),
    'Msg extra key': lambda m: _set(m, 'name', 'bot'),
    'Msg no content, a refusal': lambda m: (dict.pop(m, 'content'), _set(m, 'refusal', 'no')),
    'content a Block': lambda m: _set(m, 'content', Block(type='text', text='x')),
    'content Blocks': lambda m: _set(m, 'content', Blocks([Block(type='text', text='x')])),
    'content None': lambda m: _set(m, 'content', None),
    'content a str subclass': lambda m: _set(m, 'content', S('Let me look.')),
    'role a str subclass': lambda m: _set(m, 'role', S('assistant')),
    'role ANY': lambda m: _set(m, 'role', mock.ANY),
    'same Block twice': lambda m: m['tool_calls'].__setitem__(1, _c(m)),
    'one function Block for both': lambda m: _set(_c(m, 1), 'function', _c(m)['function']),
    'calls a tuple': lambda m: _set(m, 'tool_calls', tuple(m['tool_calls'])),
    'calls a list of Blocks': lambda m: _set(m, 'tool_calls', list(m['tool_calls'])),
    'a call a str': lambda m: m['tool_calls'].__setitem__(1, 'x'),
}

@pytest.mark.parametrize('k', list(EDITS))
def test_sent_back_msg_edited(k):
    h = sent(); EDITS[k](h[1]); safe(h)

def test_sent_back_msg_as_given_is_short_and_valid():
    h = sent()
    assert get_api('openai_chat').own_history(h) is not None
    oracle.check('openai_chat', safe(h))

def test_sent_back_history_object_and_whole_output():
    "the `History` `mk_msgs` returned, sent back whole (not a list), and again with a turn added"
    r = msgkit.mk_msgs(copy.deepcopy(TWO), 'openai_chat')
    safe(r)
    r2 = msgkit.mk_msgs(r + [dict(role='user', content='More?')], 'openai_chat')
    safe(r2 + [asst([call('call_3')]), tool('call_3'), A])

def test_same_call_block_in_two_turns():
    "one `Block` call in two model messages (its id met twice), and one `function` Block in two turns' calls"
    h = sent(); h2 = sent()
    safe(h + [dict(role='user', content='Again?'), h[1], h[2], h[3], h[4]])
    m = h2[1]; _set(_c(m), 'id', 'call_7'); _set(_c(m, 1), 'id', 'call_8')
    _set(_c(m), 'function', _c(h[1])['function'])
    safe(h + [dict(role='user', content='Again?'), m, tool('call_7'), tool('call_8'), A])

def test_mutated_after_a_first_send():
    "sent, the Msg's call then changed in place (id, name, arguments), sent again: the new values, never stale"
    h = sent(); safe(h)
    for f in (lambda m: (_set(_c(m), 'id', 'zz'), ), lambda m: _set(_c(m)['function'], 'name', 'x y'),
              lambda m: _set(_c(m)['function'], 'arguments', '{bad'), lambda m: _set(_c(m), 'id', 'call_2')):
        f(h[1]); safe(h)
    h = sent(); safe(h); _set(_c(h[1]), 'id', 'new_1'); _set(h[2], 'tool_call_id', 'new_1')
    r = safe(h); assert r[1]['tool_calls'][0]['id'] == 'new_1'

def test_output_edited_and_resent():
    "`mk_msgs`' own output edited (a call's id, a key added to its Block) and sent back"
    r = msgkit.mk_msgs(copy.deepcopy(TWO), 'openai_chat')
    r[1]['tool_calls'][0]['function']['name'] = 'other_tool'  # (`Msg.__setitem__` wraps; the Block's is plain)
    safe(r)
    r[1]['tool_calls'].append(Block(call('call_3'))); safe(r)

@pytest.mark.parametrize('api', APIS + ('groq', 'mistral'))
def test_chat_msgs_sent_to_every_api(api):
    "Chat's Msgs (with calls) sent to each API, and each API's own Msgs sent back to it"
    safe(sent(), api)
    safe(sent(TWO, api), api)

@pytest.mark.parametrize('api', ('groq', 'mistral'))
def test_dialect_msgs_sent_to_chat(api):
    safe(sent(TWO, api), 'openai_chat')

def test_plain_call_objs():
    "`_plain_call` takes a dict (or with `OBJS` a Block) of exactly the plain shape, str values only"
    k = call()
    assert _plain_call(k) == ('call_1', 'get_weather', '{"city": "Paris"}')
    assert _plain_call(Block(k)) is None and _plain_call(Block(k), plain.OBJS) is not None
    assert _plain_call(AttrDict(k), plain.OBJS) is None and _plain_call(Msg(k), plain.OBJS) is None
    for bad in ({**k, 'id': S('x')}, {**k, 'id': ''}, {**k, 'type': mock.ANY}, {**k, 'x': 1}):
        assert _plain_call(bad, plain.OBJS) is None

# --- a6d6ca5: the checks' memo -------------------------------------------------------------------------------------
ODD_IDS = {'256': 'a'*256, '257': 'a'*257, '256 bad': 'a'*255+'!', '5000': 'b'*5000, '40': 'a'*40, '41': 'a'*41,
           '64': 'a'*64, '65': 'a'*65, 'dot': 'a.b', 'space': 'a b', 'nul': 'a\x00', 'newline': 'a\n', 'é': 'é'}

@pytest.mark.parametrize('api', APIS + ('groq', 'mistral'))
@pytest.mark.parametrize('k', list(ODD_IDS))
def test_odd_ids_and_names(api, k):
    "ids and names at and past `OK_MAX`, of odd characters: as Chat dicts, and the API's own Msgs sent back"
    s = ODD_IDS[k]
    for h in (loop(s), loop('call_1', s)):
        for _ in range(2): same(h, api)  # (the second time: the memo's answer)
        try: m = sent(h, api)
        except Exception: continue
        safe(m, api); safe(m, api)

def test_memo_is_the_check():
    "the memo answers as the check does, remembers texts up to `OK_MAX` alone, at most `OK_MEMO`, `False` on raising"
    calls = []
    def ok(s):
        calls.append(s)
        if s == 'boom': raise ValueError
        return s.startswith('a')
    f = plain._memo(ok); m = f.__self__
    assert f('ab') is True and f('ab') is True and calls == ['ab']
    assert f('boom') is False and f('b') is False
    s, l = 'a'*plain.OK_MAX, 'a'*(plain.OK_MAX+1)
    assert f(s) and f(l) and s in m and l not in m
    f(l); assert calls.count(l) == 2
    for j in range(plain.OK_MEMO + 10): f(f'a{j}')
    assert len(m) <= plain.OK_MEMO and f('a5') is True and f('zz') is False
    with pytest.raises(TypeError): f(['x'])  # (no caller asks with one: each checks its id and name are `str`s)

def test_memo_poisoned_by_nothing():
    "a call whose id is a str subclass equal to every text (hash 1), then plain ids: each as the general path"
    h = sent(); _set(_c(h[1]), 'id', HashStr('call_1')); safe(h)
    for api in APIS: same(loop('call_1'), api); same(loop('bad id!'), api); same(loop('x', 'bad name'), api)

def test_more_than_ok_memo_ids():
    "more distinct ids than the memo holds, over many turns, then the first ones again"
    ad = get_api('openai_chat')
    for j in range(plain.OK_MEMO + 50):
        r = ad.own_history(loop(f'c{j}'))
        assert r is not None and r[1]['tool_calls'][0]['id'] == f'c{j}'
    for api in APIS: same(loop('c1'), api); same(loop('c1!'), api)

def warm(h, api):
    "each path once: `re`'s FutureWarning of an odd pattern is said once a pattern, by whichever compiles it first"
    out(h, api); general(h, api)

class OddRules(OpenAIChatAdapter):
    name = 'odd_rules_s16b'
RULES = {'id_chars bad regex': ('id_chars', '['), 'id_max a str': ('id_max', 'x'),
         'id_max nan': ('id_max', float('nan')), 'id_max a list': ('id_max', [3]),
         'name_chars bad regex': ('name_chars', '(('), 'name_max a str': ('name_max', 'x'),
         'name_first bad': ('name_first', '(('), 'id_max 0': ('id_max', 0), 'name_max 1': ('name_max', 1),
         'id_chars x': ('id_chars', 'x'), 'id_max True': ('id_max', True)}

@pytest.mark.parametrize('api', APIS + ('groq',))
@pytest.mark.parametrize('k', list(RULES))
def test_odd_rules(api, k):
    "a rule patched on the shipped class or instance, odd or raising: as the general path (no memo of the old rule)"
    a, v = RULES[k]
    for h in (loop(), sent(loop())):
        same(h, api)  # (the memo of the shipped rules warmed)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(type(get_api(api)), a, v); warm(h, api); same(h, api)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(get_api(api), a, v, raising=False); warm(h, api); same(h, api)
        same(h, api)

def test_user_subclass_odd_rule():
    "(registered for the test alone: a user's adapter registered turns msgkit's short ways off)"
    register(OddRules)
    try:
        for a, v in RULES.values():
            with pytest.MonkeyPatch.context() as m:
                m.setattr(OddRules, a, v, raising=False)
                for h in (loop(), sent(loop())): warm(h, 'odd_rules_s16b'); same(h, 'odd_rules_s16b')
    finally: unregister('odd_rules_s16b')
    assert get_api('openai_chat').own_history(loop()) is not None

@pytest.mark.parametrize('api', APIS)
def test_threads_many_ids(api):
    "threads sending histories of distinct ids (past `OK_MEMO` in all), each as it gives alone"
    hs = [loop(f'id{t}_{j}', f'fn{t}_{j % 7}') + [dict(role='user', content='x')] for t in range(6) for j in range(800)]
    hs[::50] = [loop(f'bad id {j}') for j in range(len(hs[::50]))]
    want = [json.dumps(msgkit.mk_msgs(copy.deepcopy(h), api), default=repr) for h in hs[::97]]
    got, errs = {}, []
    def run(t):
        try:
            for j in range(t, len(hs), 6): got[j] = json.dumps(msgkit.mk_msgs(hs[j], api), default=repr)
        except Exception as e: errs.append(e)
    ts = [threading.Thread(target=run, args=(t,)) for t in range(6)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert not errs and [got[j] for j in range(0, len(hs), 97)] == want

@pytest.mark.parametrize('kind', (AttrDict, Block, OrderedDict))
def test_sent_back_message_of_another_dict_type(kind):
    "the model's message with calls an `AttrDict`, a `Block` (read as `Msg`s are) or an `OrderedDict` (not)"
    h = sent(); h[1] = kind(h[1]); safe(h)
    h = sent(); h[1] = kind(h[1]); h[3] = kind(h[3]); safe(h)
