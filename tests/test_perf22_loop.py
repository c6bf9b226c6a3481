"""#22, tool loops: `read_history` reads a Chat tool message `{'role', 'tool_call_id', 'content'}` and an assistant's
`{'role', 'content', 'tool_calls'}` (text, plain function calls) with their adapter's `parse_item` at once
(`plain_item`), without asking every reader and adapter. That must give exactly what the general path gives, for every
API and dialect: the same turns and natives, the same messages out of `mk_msgs`, the same losses, warnings and errors.
Counts and compares, never times (speed claims live in bench/)."""
import copy, json, os, sys, warnings
import pytest
import msgkit
from msgkit import history as H
from msgkit.registry import apis, get_api

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import corpus_check, oracle
from peers import tool_chat

def call(i='call_1', name='get_weather', args='{"city": "Paris"}', **kw):
    return dict(id=i, type='function', function=dict(name=name, arguments=args), **kw)

def asst(calls, content='Let me look.'): return dict(role='assistant', content=content, tool_calls=calls)
def tool(i='call_1', content='{"temp": 20}', **kw): return dict(role='tool', tool_call_id=i, content=content, **kw)
Q, A = dict(role='user', content='Weather in Paris?'), dict(role='assistant', content='It is 20 °C.')

ARGS = ['{"city": "Paris"}', '{}', '', ' ', 'null', '[1, 2]', '"x"', '7', '{"a": 1}{"b": 2}', '{"a": 1} {"b": 2}',
        '{bad json', '{"a": {"b": {"c": [1, 2, {"d": null}]}}}', '{"é": "ü\\n"}', '{"a": 1}\n']
IDS = ['call_1', 'toolu_01A09q90qw90lq917835lq9', 'call 1', 'x' * 80, 'é1', 'a.b:c', '1']
NAMES = ['get_weather', 'get weather', 'x' * 80, 'é', 'a.b', '1abc']
CONTENTS = ['Let me look.', '', None, ' ', '\n\n']
RESULTS = ['{"temp": 20}', '', ' ', 'plain words', '[1]', 'x' * 5000]

def loops():
    "Tool loops, well formed and not: every argument, id, name, content and result above, parallel and odd orders"
    out = [tool_chat(200), tool_chat(7), tool_chat(8)[:3], tool_chat(8)[:6]]
    for a in ARGS: out.append([Q, asst([call(args=a)]), tool(), A])
    for i in IDS: out.append([Q, asst([call(i)]), tool(i), A])
    for n in NAMES: out.append([Q, asst([call(name=n)]), tool(), A])
    for c in CONTENTS: out.append([Q, asst([call()], c), tool(), A])
    for r in RESULTS: out.append([Q, asst([call()]), tool(content=r), A])
    two = [call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]
    out += [[Q, asst(two), tool('c1'), tool('c2'), A],        # parallel calls, results in order
            [Q, asst(two), tool('c2'), tool('c1'), A],        # in the other order
            [Q, asst(two), tool('c1'), A],                    # one result missing
            [Q, asst(two), tool('c1'), tool('c1'), A],        # a result twice
            [Q, asst([call('c1'), call('c1')]), tool('c1'), tool('c1'), A],  # ids twice
            [Q, asst([call()]), tool(), Q, A],                # a user's words after the results
            [Q, asst([call()]), tool(), asst([call('c2')]), tool('c2'), A],  # calls after calls
            [Q, asst([call()])],                              # calls still open at the end
            [Q, tool(), A],                                   # a result without its call
            [asst([call()]), tool(), A],                      # starts with the model's turn
            [Q, asst([call()]), tool('other'), A],            # a result for another call
            [dict(role='system', content='Be brief.'), Q, asst([call()]), tool(), A],
            [Q, asst([call()]), tool(), tool(), A]]           # a result twice, same id
    # near misses: an extra key, a non-plain call, a non-text field: the general path reads them
    out += [[Q, asst([call(extra=1)]), tool(), A], [Q, asst([dict(id='c', type='custom', custom={})]), tool('c'), A],
            [Q, asst([call()]) | dict(name='bot'), tool(), A], [Q, asst([call()]), tool(name='get_weather'), A],
            [Q, asst([call()]), tool(tool_name='get_weather'), A], [Q, asst([]), A],
            [Q, asst([call(args={'city': 'Paris'})]), tool(), A], [Q, asst([call(i=None)]), tool(None), A],
            [Q, asst([call(i='')]), tool(''), A], [Q, asst([call(name=None)]), tool(), A],
            [Q, asst([call()], ['x']), tool(), A], [Q, asst([call()]), tool(content=['x']), A],
            [Q, asst([call()]), tool(content=[dict(type='text', text='20')]), A],
            [Q, asst([call()]), tool(content=None), A], [Q, dict(role='assistant', content=None, function_call=None,
                                                                tool_calls=[call()]), tool(), A],
            [Q, asst([call()]), dict(role='tool', tool_call_id=7, content='x'), A],
            [Q, asst([call()]), dict(role='function', name='get_weather', content='x'), A]]
    # a user's text and images (#22: read at once too), and near misses
    u = 'data:image/png;base64,' + 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    im = lambda url=u, **kw: dict(type='image_url', image_url=dict(url=url, **kw))
    tx = lambda t='What is this?': dict(type='text', text=t)
    for c in ([im(), tx()], [tx(), im()], [im()], [tx()], [tx(), tx('b')], [im(), im('https://example.com/a.png'), tx()],
              [im(' ' + u)], [im('data:,x')], [im('not a url')], [im(detail='low')], [im(u.replace('png', 'PNG'))],
              [tx('')], [dict(type='image_url', image_url=u)], [dict(type='text', text='x', extra=1)], [], [im(), 7],
              [dict(type='input_image', image_url=u)], [dict(type='image', source=dict(type='url', url='https://x.io/a.png'))]):
        out += [[dict(role='user', content=c), A], [Q, asst([call()]), tool(), dict(role='user', content=c), A],
                [dict(role='assistant', content=c)], [dict(role='system', content=c), Q]]
    return out

def _outcome(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = f()
        except Exception as e: return ('error', type(e), str(e))
    return r, [(w.category, str(w.message)) for w in ws]

def _turns(h, ad):
    return [(list(t), repr(dict(t)), repr(t.get('native'))) for t in H.read_history(copy.deepcopy(h), ad=ad)]

def _msgs(h, api):
    r = msgkit.mk_msgs(copy.deepcopy(h), api)
    return [(type(m).__name__, json.dumps(m, default=repr)) for m in r]

def _general(m): m.setattr(H, '_plain_src', lambda o, ad: None)

APIS = apis()  # the five and every dialect

@pytest.mark.parametrize('api', APIS + [None])
def test_plain_items_read_as_general(api, monkeypatch):
    "Every loop above reads to the same turns (and `mk_msgs` gives the same messages) with the fast path as without"
    ad = get_api(api) if api else None
    hs = loops() + [corpus_check.history(c) for c in corpus_check.load_cases()]
    fast = [_outcome(lambda: _turns(h, ad)) for h in hs]
    fmsg = [_outcome(lambda: _msgs(h, api)) for h in hs] if api else []
    with monkeypatch.context() as m:
        _general(m)
        slow = [_outcome(lambda: _turns(h, ad)) for h in hs]
        smsg = [_outcome(lambda: _msgs(h, api)) for h in hs] if api else []
    bad = [(i, f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    bad = [(i, f, s) for i, (f, s) in enumerate(zip(fmsg, smsg)) if f != s]
    assert not bad, bad[:2]
    assert sum(H._plain_src(d, ad) is not None for h in hs for d in h if type(d) is dict) > 300  # it was taken

def test_plain_item_is_narrow():
    "What `plain_item` takes: these keys and no other, text content, calls of the plain function form"
    chat = get_api('openai_chat')
    yes = [asst([call()]), asst([call()], None), asst([call()], ''), tool(), tool(content='')]
    no = [asst([]), asst([call(extra=1)]), asst([call()], ['x']), asst([call(args={})]), asst([call(i='')]),
          asst([dict(id='c', type='custom', custom={})]), asst([call()]) | dict(name='b'), tool(name='f'),
          tool(content=None), dict(role='tool', tool_call_id=None, content='x'), dict(role='user', content='x', a=1),
          dict(role='function', name='f', content='x')]
    assert all(chat.plain_item(d) for d in yes)
    assert not any(chat.plain_item(d) for d in no)
    assert [a.name for a in msgkit.registry.all_adapters(asks='plain_item')][:1] == ['openai_chat']

def test_fast_path_caught_when_wrong(monkeypatch):
    """A fast path that asked the wrong adapter (plain Chat's `parse_item` for a dialect that keeps each call's own
    dict) is what the comparison above finds"""
    h, ad = [Q, asst([call()]), tool(), A], get_api('deepseek')
    fast = _turns(h, ad)
    with monkeypatch.context() as m:
        m.setattr(H, '_plain_src', lambda o, ad: get_api('openai_chat') if get_api('openai_chat').plain_item(o) else None)
        broken = _turns(h, ad)
    with monkeypatch.context() as m:
        _general(m)
        slow = _turns(h, ad)
    assert fast == slow and broken != slow

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_loops_accepted_by_provider(api):
    "What the fast path gives for the well-formed loops goes through each provider's own request types and client"
    for h in loops()[:40]:
        try: msgs = msgkit.mk_msgs(copy.deepcopy(h), api)
        except (ValueError, TypeError): continue  # (what no API takes: refused, as the general path does)
        oracle.check(api, msgs)

def test_render_where_named_per_part():
    """A loss while a turn renders names its part (render_turn's one `_Part`, moved on part by part), as text; and a
    loss after it names no part"""
    h = [Q, dict(role='assistant', content=[dict(type='text', text='a'), dict(type='text', text='b'),
                                            dict(type='thinking', thinking='hm', signature='s')])]
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        msgkit.mk_msgs(h, 'openai_chat')
    ls = [o for w in ws for o in w.message.losses]
    # (Chat takes one text: the two texts are merged first, so the reasoning is the turn's part 1)
    assert ls == [dict(where='msgs[1] part 1', what='reasoning from anthropic', why='only anthropic can read it')]
    assert type(ls[0]['where']) is str
    from msgkit.losses import _at
    assert _at.get() == ''  # reset after the turn

def test_tool_args_depth_unchanged():
    "Arguments refused for depth are those `too_deep` refuses, at and around the limit, whatever their length"
    from msgkit.parts import tool_args
    from msgkit.errors import too_deep, MAX_DEPTH
    lim = MAX_DEPTH - 10
    for n in range(lim - 3, lim + 4):
        for a in ('[' * n + ']' * n, '{"a":' * n + '1' + '}' * n, '[' * n + '1' + ']' * n):
            want = too_deep(json.loads(a), lim)
            try: tool_args(a, 'f'); got = False
            except ValueError: got = True
            assert got == want, (n, a[:8])
    assert tool_args('[' * 45 + ']' * 45) and len('[' * 45 + ']' * 45) == lim  # at the length limit: no walk, read
