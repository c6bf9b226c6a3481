"""#22, session 15: what `mk_msgs` gave, sent back as it is (a `History` of `Msg`s, as a chat loop keeps it), is read at
once as the plain dicts it holds: a text history by `text_dicts` for every API, a Chat tool loop by `own_history`.
That must give exactly what the general path gives (messages, key order, types, warnings, errors), leave the `Msg`s
sent back as they were, and hand back fresh ones. Counts and compares, never times (speed claims live in bench/)."""
import copy, json, os, sys
from unittest import mock
import pytest
import msgkit
from msgkit import core, plain
from msgkit.msgs import Msg, Block, Blocks, History
from msgkit.registry import apis, get_api
from fastcore.basics import AttrDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
from shortways import out, general
from peers import text_history, tool_chat
import oracle

class Role(str):
    "A role that is a `str` subclass: never compared on a short way"

def texts(): return [text_history(2), text_history(9), text_history(40), ['Hi', 'Hello!', 'How are you?']]

def own(h, api):
    "What `mk_msgs` gave for `h`, as the caller keeps it"
    r = msgkit.mk_msgs(h, api)
    assert type(r) is History and all(type(m) is Msg for m in r)
    return r

def near_misses(api):
    "Text histories of `Msg`s (and fastcore's `AttrDict`s) that a short way must read as the general path does"
    h = own(text_history(6), api)
    if not all(set(m)=={'role', 'content'} and type(m['content']) is str for m in h): return []
    def with_(i, **kw): return History([Msg({**m, **kw}) if j==i else m for j,m in enumerate(h)])
    return [History([AttrDict(m) for m in h]),                              # fastcore's own, as msglm gives
            History([dict(m) if i%2 else m for i,m in enumerate(h)]),       # dicts and Msgs mixed
            History([Block(m) for m in h]),                                # a block is no message
            with_(0, role=Role('user')), with_(1, role=mock.ANY), with_(2, content=mock.ANY),
            with_(2, content=''), with_(3, content='  \n'), with_(1, content=None), with_(0, name='bob'),
            with_(0, content='https://example.com/cat.png'), with_(0, content='data:image/png;base64,iVBORw0KGgo='),
            History([Msg(role='system', content='Be brief.')] + h), History(h[1:]), History(h + h[-1:]),
            History([h[0], h[0]] + h[1:])]

@pytest.mark.parametrize('api', apis())
def test_text_msgs_sent_back_as_general(api):
    for h in texts():
        o = own(h, api)
        before = copy.deepcopy(o)
        assert out(o, api) == general(o, api)
        r = msgkit.mk_msgs(o, api)
        assert o == before and all(type(m) is Msg for m in o)  # nothing sent back changed
        assert not any(a is b for a,b in zip(r, o))  # fresh messages
    for h in near_misses(api): assert out(h, api) == general(h, api), h

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'openrouter', 'vllm'])
def test_text_msgs_take_the_short_way(api):
    "Where a text history's messages are Chat-form text (`{'role', 'content'}`), its `Msg`s are read at once too"
    o = own(text_history(40), api)
    assert plain.text_dicts(o) is not None
    assert plain.text_dicts(json.loads(json.dumps(o))) == plain.text_dicts(o)
    assert plain.text_dicts([Block(m) for m in o]) is None and plain.text_dicts(History()) is None

@pytest.mark.parametrize('api', ['openai_chat', 'openai', 'anthropic'])
def test_sent_back_accepted(api):
    for h in texts() + [tool_chat(40)]:
        oracle.check(api, msgkit.mk_msgs(own(h, api), api))

def tool_msgs():
    "Chat tool loops as `mk_msgs` gave them, and near misses of them as a caller may have changed them"
    o = own(tool_chat(40), 'openai_chat')
    def with_(i, **kw): return History([Msg({**m, **kw}) if j==i else m for j,m in enumerate(o)])
    def without(i, k): return History([Msg({a:v for a,v in m.items() if a!=k}) if j==i else m for j,m in enumerate(o)])
    def raw(i, f):
        "`o` with message `i` a copy changed by `f` past `Msg`'s wrapping (what a caller may have put there)"
        m = Msg(o[i]); f(m)
        return History([m if j==i else x for j,x in enumerate(o)])
    put, c0 = dict.__setitem__, o[1]['tool_calls'][0]
    fn = c0['function']
    calls = [raw(1, lambda m: put(m, 'tool_calls', Blocks([dict(c0)]))),                    # a plain dict among them
             raw(1, lambda m: put(m, 'tool_calls', Blocks([Block({**c0, 'function': dict(fn)})]))),
             raw(1, lambda m: put(m, 'tool_calls', [c0])),                                 # a list, not `Blocks`
             raw(1, lambda m: put(m, 'tool_calls',
                                  Blocks([Block({**c0, 'function': Block({**fn, 'arguments': Block(city='x')})})]))),
             raw(1, lambda m: put(m, 'tool_calls', Blocks([Block({**c0, 'extra': 1})]))),
             raw(1, lambda m: put(m, 'tool_calls', Blocks([Block({**c0, 'id': Block(x=1)})]))),
             raw(1, lambda m: put(m, 'tool_calls', Blocks([c0, c0]))),                         # the same call twice
             raw(1, lambda m: put(m, 'tool_calls', Blocks())),
             raw(1, lambda m: put(m, 'content', Blocks([Block(type='text', text='x')])))]
    return calls + [o, own(tool_chat(7), 'openai_chat'), own(tool_chat(8)[:3], 'openai_chat'),
            with_(2, tool_call_id=Role('call_0000')), with_(2, content=''), with_(2, content=mock.ANY),
            with_(2, name='get_weather'), with_(2, tool_call_id='other'), with_(2, content=Block(text='x')),
            with_(2, role=mock.ANY), with_(3, content=None), with_(1, content=None), with_(1, content='  '),
            without(2, 'tool_call_id'), without(1, 'tool_calls'), History([AttrDict(m) for m in o]),
            History([dict(m) if i%3 else m for i,m in enumerate(o)])]

def test_chat_tool_loop_sent_back_as_general():
    for o in tool_msgs():
        before = copy.deepcopy(o)
        assert out(o, 'openai_chat') == general(o, 'openai_chat'), o[:4]
        assert o == before
    o = own(tool_chat(40), 'openai_chat')
    r = get_api('openai_chat').own_history(o)
    assert r is not None and not any(a is b for a,b in zip(r, o))  # read at once, and fresh

def test_chat_images_copied_as_general():
    "Users' text and data-URI image blocks, in either key order, as dicts or as `mk_msgs` gave them: as general"
    from peers import big_png, data_uri
    u, ub = data_uri(big_png(2_000)), data_uri(big_png(100_000))
    hs = []
    for url in (u, ub):
        for im in (dict(type='image_url', image_url=dict(url=url)), dict(image_url=dict(url=url), type='image_url')):
            for tx in (dict(type='text', text='What is this?'), dict(text='What is this?', type='text')):
                for c in ([im, tx], [tx, im], [im]):
                    hs.append([dict(role='user', content=c), dict(role='assistant', content='A dot.'),
                               dict(role='user', content='And?')])
    ad = get_api('openai_chat')
    for h in hs:
        assert out(h, 'openai_chat') == general(h, 'openai_chat'), h[0]
        o = own(h, 'openai_chat')
        assert out(o, 'openai_chat') == general(o, 'openai_chat'), o[0]
        assert ad.own_history(h) is not None  # (the short way taken: so the comparison tests it)
        r = msgkit.mk_msgs(h, 'openai_chat')
        rc, hc = r[0]['content'], h[0]['content']
        assert rc is not hc and not any(a is b for a,b in zip(rc, hc))
        assert not any(a.get('image_url') is b['image_url'] for a,b in zip(rc, hc) if 'image_url' in b)
