"""#22, the reading path: an item already in the target's form is copied once (no `deepcopy` and then `drop_none`), and
`mk_msgs`/`mk_msg` copy what they return once (`Msg`s of `Block`s, with no `obj` copy before). Counts work, never times
it (speed claims live in bench/); the outputs themselves are pinned by test_golden.py."""
import copy, json
from fastcore.basics import AttrDict
import msgkit
from msgkit import mk_msgs, mk_msg
from msgkit.msgs import Msg, Block, Blocks

CALL = dict(id='call_1', type='function', function=dict(name='f', arguments='{"x": 1}'))
CHAT = [dict(role='user', content='Hi'), dict(role='assistant', content=None, tool_calls=[CALL]),
        dict(role='tool', tool_call_id='call_1', content='2'), dict(role='assistant', content='Done')]

def test_native_item_copied_once_not_shared(monkeypatch):
    "Chat dicts to openai_chat come back equal (without their `None`s), as new dicts: no deepcopy, input untouched"
    n = []
    orig = copy.deepcopy
    monkeypatch.setattr(copy, 'deepcopy', lambda x, *a, **kw: n.append(1) or orig(x, *a, **kw))
    before = json.dumps(CHAT)
    r = mk_msgs(CHAT, 'openai_chat')
    assert not n  # JSON values need no deep copy: the one walk that drops `None`s copies them
    assert json.loads(json.dumps(r)) == CHAT  # (Chat's assistant message keeps `content: null`)
    r[1]['tool_calls'][0]['function']['name'] = 'g'
    assert json.dumps(CHAT) == before and r[1]['tool_calls'] is not CHAT[1]['tool_calls']

def test_mutable_leaf_still_copied():
    "A leaf that isn't immutable JSON (a bytearray) is still deep-copied, as `deepcopy` did"
    from msgkit.render import _copied
    ba = bytearray(b'xy')
    d = {'a': [ba, 'text', 1, None], 'b': None, 'c': {'d': ba}}
    r = _copied(d)
    assert r == {'a': [ba, 'text', 1, None], 'c': {'d': ba}} and r['a'][0] is not ba and r['c'] is not d['c']
    assert _copied({'t': (1, {'u': None})}) == {'t': [1, {}]}  # tuples as lists, as drop_none makes them

def test_messages_wrapped_once(monkeypatch):
    "mk_msgs and mk_msg build each message's `Block`s once: `obj` (a copy `Msg` threw away) is not called for them"
    import msgkit.core as core
    n = []
    orig = core.obj
    monkeypatch.setattr(core, 'obj', lambda x: n.append(1) or orig(x))
    for api in ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'):
        r = mk_msgs(CHAT + ['and text'], api)
        assert all(type(m) is Msg for m in r)
        if api in ('anthropic', 'gemini', 'bedrock'):  # (their content is a list of blocks)
            assert all(isinstance(v, str) or isinstance(v, Blocks) and all(type(b) is Block for b in v)
                       for m in r for k, v in m.items() if k in ('content', 'parts'))
        m = mk_msg(['Hi', 'there'], api=api)
        assert type(m) is Msg
    assert not n

def test_deep_values_stay_attrdicts():
    "Past `wrap`'s 32 levels a message's dicts are `AttrDict`s (as `obj` made them before), never plain dicts"
    v = x = {}
    for _ in range(40): x['k'] = {}; x = x['k']
    m = Msg(role='user', content=[{'type': 'text', 'text': 'a', 'deep': v}])
    o, types = m.content[0]['deep'], []
    while o: types.append(type(o)); o = o['k']
    assert set(types) == {Block, AttrDict} and types.index(AttrDict) > 25 and Block not in types[types.index(AttrDict):]
