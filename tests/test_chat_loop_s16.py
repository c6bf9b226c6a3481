"""Chat's `own_history` (session 16): `plain_item`'s checks inline and each call read, checked and copied in one loop.
Near misses of a tool loop, each compared with the general path (`test_review_s12.same`: every short way off) and the
short way's output checked by the provider's oracle (the OpenAI spec)."""
import copy, json
import pytest
from unittest import mock
import msgkit
from msgkit.registry import get_api
from test_review_s12 import same
import oracle

Q, A = dict(role='user', content='Weather?'), dict(role='assistant', content='Sunny.')
def call(i='call_1', name='get_weather', args='{"city": "Paris"}', **kw):
    return dict(id=i, type='function', function=dict(name=name, arguments=args), **kw)
def asst(cs, c='Let me look.', **kw): return dict(role='assistant', content=c, tool_calls=cs, **kw)
def tool(i='call_1', c='{"temp": 20}', **kw): return dict(role='tool', tool_call_id=i, content=c, **kw)

LOOP = [Q, asst([call()]), tool(), A]

def test_plain_loop_taken():
    "The plainest loop is the short way's, and what it gives the spec takes"
    ad = get_api('openai_chat')
    assert ad.own_history(copy.deepcopy(LOOP)) is not None
    r = msgkit.mk_msgs(copy.deepcopy(LOOP), 'openai_chat')
    oracle.check('openai_chat', r)
    # (the model's messages with `content` first, as the general path puts it)
    assert json.dumps(r) == json.dumps([Q, {'content': 'Let me look.', **LOOP[1]}, tool(), dict(content='Sunny.',
                                                                                              role='assistant')])

NEAR = {
    'second call bad args': [Q, asst([call(), call('call_2', args='{bad')]), tool(), tool('call_2'), A],
    'second call repeats id': [Q, asst([call(), call()]), tool(), tool(), A],
    'second call empty args': [Q, asst([call(), call('call_2', args='{}')]), tool(), tool('call_2'), A],
    'second call not a dict': [Q, asst([call(), 'x']), tool(), A],
    'call extra key': [Q, asst([call(index=0)]), tool(), A],
    'call type not function': [Q, asst([{**call(), 'type': 'custom'}]), tool(), A],
    'call type ANY': [Q, asst([{**call(), 'type': mock.ANY}]), tool(), A],
    'call id empty': [Q, asst([call('')]), tool(''), A],
    'name with space': [Q, asst([call(name='get weather')]), tool(), A],
    'no content key': [Q, dict(role='assistant', tool_calls=[call()], name='x'), tool(), A],
    'content blank': [Q, asst([call()], c='  '), tool(), A],
    'content empty': [Q, asst([call()], c=''), tool(), A],
    'content None': [Q, asst([call()], c=None), tool(), A],
    'content list': [Q, asst([call()], c=[dict(type='text', text='x')]), tool(), A],
    'tool_calls empty': [Q, asst([]), A],
    'tool_calls a tuple': [Q, asst((call(),)), tool(), A],
    'user of three keys': [dict(role='user', content='Hi', name='bob'), A],
    'system of three keys': [dict(role='system', content='Be brief.', name='x'), Q, A],
    'tool content empty': [Q, asst([call()]), tool(c=''), A],
    'tool content blank': [Q, asst([call()]), tool(c=' '), A],
    'tool content list': [Q, asst([call()]), tool(c=[dict(type='text', text='20')]), A],
    'tool id not str': [Q, asst([call()]), tool(i=1), A],
    'tool id other': [Q, asst([call()]), tool('call_9'), A],
    'tool before call': [Q, tool(), A],
    'results out of order': [Q, asst([call(), call('call_2')]), tool('call_2'), tool(), A],
    'result missing': [Q, asst([call(), call('call_2')]), tool(), A],
    'result missing at end': [Q, asst([call()])],
    'tool extra key': [Q, asst([call()]), tool(name='get_weather'), A],
    'tool role ANY': [Q, asst([call()]), {**tool(), 'role': mock.ANY}, A],
    'calls while open': [Q, asst([call()]), asst([call('call_2')]), tool(), tool('call_2'), A],
    'two loops': [Q, asst([call()]), tool(), A, Q, asst([call('call_2')]), tool('call_2'), A],
    'id reused later': [Q, asst([call()]), tool(), A, Q, asst([call()]), tool(), A],
    'assistant role of three after user text': [Q, dict(role='user', content='x', tool_calls=[call()]), tool(), A],
    'parallel calls': [Q, asst([call(), call('call_2', 'get_time', '{"tz": "UTC"}')]), tool(), tool('call_2'), A],
    'args nested': [Q, asst([call(args='{"a": {"b": [1, {"c": null}]}}')]), tool(), A],
    'args with space around': [Q, asst([call(args=' {"a": 1} ')]), tool(), A],
}

@pytest.mark.parametrize('k', list(NEAR))
def test_near_misses(k):
    same(NEAR[k], 'openai_chat')

@pytest.mark.parametrize('k', list(NEAR))
def test_near_misses_as_msgs_sent_back(k):
    "The same, as the `Msg`s `mk_msgs` gave (where it gave any), sent back"
    try: r = msgkit.mk_msgs(copy.deepcopy(NEAR[k]), 'openai_chat')
    except Exception: return
    same(list(r), 'openai_chat', deep=False)

@pytest.mark.parametrize('k', ['parallel calls', 'two loops', 'content None', 'args nested'])
def test_short_way_output_passes_the_oracle(k):
    ad = get_api('openai_chat')
    assert ad.own_history(copy.deepcopy(NEAR[k])) is not None, k
    oracle.check('openai_chat', msgkit.mk_msgs(copy.deepcopy(NEAR[k]), 'openai_chat'))

def test_no_partial_state_after_a_refusal():
    "A history the short way gives up on midway leaves nothing behind: the next plain one is taken whole"
    ad = get_api('openai_chat')
    assert ad.own_history(copy.deepcopy(NEAR['second call bad args'])) is None
    r = ad.own_history(copy.deepcopy(LOOP))
    assert r is not None and len(r) == 4

# the model's `Msg` with calls sent back is read as it is (its `Blocks` of `Block`s, `_plain_call(k, OBJS)`), not copied
# to plain dicts first: what a user may have done to it since, each against the general path
def _edits():
    from msgkit.msgs import Block, Blocks
    def e(f):
        r = msgkit.mk_msgs(copy.deepcopy(NEAR['parallel calls']), 'openai_chat')
        f(r[1]); return list(r)
    yield 'as given', e(lambda m: None)
    yield 'a plain dict call added', e(lambda m: m['tool_calls'].append(call('call_3')))
    yield 'a call as a plain dict', e(lambda m: m['tool_calls'].__setitem__(0, dict(m['tool_calls'][0])))
    yield 'its function a plain dict', e(lambda m: dict.__setitem__(m['tool_calls'][0], 'function',
                                                                     dict(m['tool_calls'][0]['function'])))
    yield 'calls a plain list', e(lambda m: dict.__setitem__(m, 'tool_calls', list(m['tool_calls'])))
    yield 'calls a tuple', e(lambda m: dict.__setitem__(m, 'tool_calls', tuple(m['tool_calls'])))
    yield 'calls empty Blocks', e(lambda m: dict.__setitem__(m, 'tool_calls', Blocks()))
    yield 'a Block key added', e(lambda m: dict.__setitem__(m['tool_calls'][0], 'index', 0))
    yield 'arguments a Block', e(lambda m: dict.__setitem__(m['tool_calls'][0]['function'], 'arguments', Block(a=1)))
    yield 'id None', e(lambda m: dict.__setitem__(m['tool_calls'][0], 'id', None))
    yield 'a call a Msg', e(lambda m: m['tool_calls'].__setitem__(0, msgkit.msgs.Msg(m['tool_calls'][0])))
    yield 'type ANY', e(lambda m: dict.__setitem__(m['tool_calls'][1], 'type', mock.ANY))

EDITS = dict(_edits())

@pytest.mark.parametrize('k', list(EDITS))
def test_msg_calls_edited_then_sent_back(k):
    same(EDITS[k], 'openai_chat', deep=False)

def test_msg_calls_read_as_they_are_take_the_short_way():
    "The `Msg`s as given take the short way, and what it gives shares nothing with them and passes the oracle"
    h = EDITS['as given']
    r = get_api('openai_chat').own_history(h)
    assert r is not None
    assert r[1]['tool_calls'] is not h[1]['tool_calls'] and r[1]['tool_calls'][0] is not h[1]['tool_calls'][0]
    assert r[1]['tool_calls'][0]['function'] is not h[1]['tool_calls'][0]['function']
    oracle.check('openai_chat', msgkit.mk_msgs(h, 'openai_chat'))
