"""Session 10 review: the short ways (`plain_history`: `_texts`, Chat's `own_history`, the plain lane with Claude's
`plain_turn`, `as_plain`, `copy_msg`; `mk_request` taking them) against the general path, on inputs tests/test_plain.py
does not hold: Claude-form histories of odd shapes, what `mk_msgs` gave for each API sent to each other API (as `Msg`s,
`AttrDict`s, a `History`, JSON), Chat and Claude forms mixed in one history, text dicts of every API's form and key
order, `mk_request` with its options and models, threads, patched rules, aliasing and the provider oracle.

Each comparison is fast (as shipped) against slow (every short way patched out: `plain_turns`, `own_history`, `_texts`,
`request.plain_history`). The review found four differences, written as strict xfails and fixed in the same session
(their marks gone, their reasons kept as comments above each test). Counts and compares, never times."""
import copy, json, os, random, sys, threading, warnings
from concurrent.futures import ThreadPoolExecutor
from collections import OrderedDict
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit import core
from msgkit.msgs import Msg, Block, Blocks, History
from msgkit.registry import get_api
from msgkit.adapters.anthropic import AnthropicAdapter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import oracle
from peers import tool_chat, image_history, image_chat, big_png
from test_perf22_text import types
from shortways import short_ways_off

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')

# ---------------------------------------------------------------- harness
def _general(m):
    "Every short way off: what is left is the general path (`shortways`: by their one door, one added later off too)"
    short_ways_off(m)

def _containers(x):
    if isinstance(x, (dict, list)):
        yield x
        for v in (x.values() if isinstance(x, dict) else x): yield from _containers(v)

def _run(h, api, req=False, **kw):
    "(outcome, result): messages as JSON (key order kept), their types, warnings; or the error's type and message"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_request(h, api, model=kw.pop('model', 'm'), **kw) if req else msgkit.mk_msgs(h, api, **kw)
        except Exception as e: return ('error', type(e), str(e)), None
    return (json.dumps(r, default=repr), types(r if req else list(r)), type(r).__name__,
            [(w.category, str(w.message)) for w in ws]), r

def _fast(h, api, req=False, **kw):
    "The outcome as shipped, and what went wrong besides: the input changed, or a container of it in the output"
    h1 = copy.deepcopy(h)
    out, r = _run(h1, api, req, **dict(kw))
    probs = []
    if h1 != h or types(h1) != types(h): probs.append('input changed')
    if r is not None:
        ins = {id(o) for o in _containers(h1)}
        if any(id(o) in ins for o in _containers(r if req else list(r))): probs.append('output shares a container')
    return out, probs

def _diffs(monkeypatch, cases, apis=APIS, reqs=(False, True), **kw):
    "The (name, api, req, problem) of every case whose fast outcome differs from the general path's"
    fast = {(n, a, q): _fast(h, a, q, **kw) for n, h in cases for a in apis for q in reqs}
    with monkeypatch.context() as m:
        _general(m)
        slow = {(n, a, q): _run(copy.deepcopy(h), a, q, **dict(kw))[0] for n, h in cases for a in apis for q in reqs}
    bad = []
    for k, (f, probs) in fast.items():
        if probs: bad.append((*k, probs))
        if f != slow[k]: bad.append((*k, f, slow[k]))
    return bad

def _short(h, api):
    "Did a short way take `h` for `api` (or refuse it with an error of its own)?"
    try: return core.plain_history(copy.deepcopy(h), get_api(api)) is not None
    except Exception: return True

# ---------------------------------------------------------------- histories
def U(c): return dict(role='user', content=c)
def As(c): return dict(role='assistant', content=c)
def T(s): return dict(type='text', text=s)
def tu(i='toolu_1', name='get_weather', inp=None):
    return dict(type='tool_use', id=i, name=name, input={'city': 'Paris'} if inp is None else inp)
def tr(i='toolu_1', c='sunny', **kw): return dict(type='tool_result', tool_use_id=i, content=c, **kw)
def ccall(i, args='{"city": "Paris"}', content=None, name='get_weather'):
    return dict(role='assistant', content=content,
                tool_calls=[dict(id=i, type='function', function=dict(name=name, arguments=args))])
def ctool(i, c='sunny'): return dict(role='tool', tool_call_id=i, content=c)
def loop(inp=None, i='toolu_1'): return [U('Weather?'), As([T('Looking.'), tu(i, inp=inp)]), U([tr(i)]), As('Sunny.')]

def claude_odd():
    "Claude-form histories of odd shapes (SDK dicts), each a near miss of the lane or one it takes"
    yield 'nested unicode bigint', loop({'a': [[1, [2, {'b': 'ü😀'}]]], 'n': 10**30})
    yield 'big ints', loop({'n': 2**64 + 1, 'm': -2**70})
    yield 'floats', loop({'x': 1e308, 'y': -0.0, 'z': 0.1, 'w': 1e-320, 'v': 1.0})
    yield 'inf', loop({'x': float('inf')})
    yield 'empty input', loop({})
    yield 'empty containers', loop({'a': [], 'b': {}})
    yield 'unicode keys', loop({'é': 'ü', '': 1, ' ': [True, False]})
    yield 'None in input', loop({'a': None})
    yield 'tuple in input', loop({'a': (1, 2)})
    for i in ('toolu_a-b_C9', 'toolu.1', 'tölu', 't' * 80, 't' * 300, ''): yield f'id {i[:12]!r}', loop(i=i)
    yield 'dup ids', loop() + [U('again'), As([tu()]), U([tr()]), As('ok')]
    yield 'out of order', [U('q'), As([tu('a'), tu('b')]), U([tr('b'), tr('a')]), As('x')]
    yield 'partial', [U('q'), As([tu('a'), tu('b')]), U([tr('a')]), As('x')]
    yield 'partial split', [U('q'), As([tu('a'), tu('b')]), U([tr('a')]), U([tr('b')]), As('x')]
    yield 'results then text', [U('q'), As([tu()]), U([tr(), T('thanks')]), As('x')]
    yield 'text then results', [U('q'), As([tu()]), U([T('thanks'), tr()]), As('x')]
    for n, c in (('two texts', [T('a'), T('b')]), ('one text', [T('a')]), ('rev text', [dict(text='a', type='text')]),
                 ('no blocks', []), ('empty str', ''), ('spaces', ' sunny '), ('json', '{"t": 1}'),
                 ('url', 'https://x.io/a.png'), ('data uri', 'data:image/png;base64,iVBORw0KGgo='),
                 ('url block', [T('https://x.io/a.png')])):
        yield f'result {n}', [U('q'), As([tu()]), U([tr(c=c)]), As('x')]
    yield 'is_error False', [U('q'), As([tu()]), U([tr(is_error=False)]), As('x')]
    yield 'is_error True', [U('q'), As([tu()]), U([tr(is_error=True)]), As('x')]
    yield 'cache_control result', [U('q'), As([tu()]), U([tr(cache_control={'type': 'ephemeral'})]), As('x')]
    yield 'cache_control text', [U([dict(type='text', text='q', cache_control={'type': 'ephemeral'})]), As('x')]
    yield 'user text blocks reversed', [U([dict(text='q', type='text')]), As('x')]
    yield 'message keys reversed', [dict(content='q', role='user'), As('x')]
    yield 'blocks message reversed', [dict(content=[T('q')], role='user'), As('x')]
    yield 'tool_use keys reversed', [U('q'), As([dict(name='get_weather', input={}, id='toolu_1', type='tool_use')]),
                                     U([tr()]), As('x')]
    yield 'tool_result keys reversed', [U('q'), As([tu()]), U([dict(content='s', tool_use_id='toolu_1',
                                                                   type='tool_result')]), As('x')]
    yield 'results message reversed', [U('q'), As([tu()]), dict(content=[tr()], role='user'), As('x')]
    yield 'only tool_use', [U('q'), As([tu()]), U([tr()]), As('x')]
    yield 'opens with assistant', [As([tu()]), U([tr()]), As('x')]
    yield 'opens with assistant text', [As('hi'), U('q')]
    yield 'consecutive users', [U('a'), U('b'), As('x')]
    yield 'consecutive user blocks', [U([T('a')]), U([T('b')]), As('x')]
    yield 'consecutive assistants', [U('a'), As('b'), As('x')]
    yield 'system', [dict(role='system', content='be'), U('q'), As('x')]
    yield 'system blocks', [dict(role='system', content=[T('be')]), U('q'), As('x')]
    yield 'prefill spaces', [U('q'), As('Sure ')]
    yield 'prefill blocks', [U('q'), As([T('Sure ')])]
    yield 'prefill after tools', [U('q'), As([tu()]), U([tr()]), As([T('Sure\n')])]
    yield 'ends open call', [U('q'), As([T('Looking. '), tu()])]
    yield 'ends with results', [U('q'), As([tu()]), U([tr()])]
    yield 'assistant text blocks', [U('q'), As([T('a'), T('b')])]
    yield 'text tool text', [U('q'), As([T('a'), tu(), T('b')]), U([tr()]), As('x')]
    yield 'text url then tool', [U('q'), As([T('https://x.io/a.png'), tu()]), U([tr()]), As('x')]
    yield 'thinking first', [U('q'), As([dict(type='thinking', thinking='h', signature='s'), tu()]), U([tr()]), As('x')]
    for nm in ('a.b', 'n' * 70, ''): yield f'name {nm[:8]!r}', [U('q'), As([tu(name=nm)]), U([tr()]), As('x')]
    for inp in ('x', [1], {1: 2}): yield f'input {inp!r}', [U('q'), As([tu(inp=inp)]), U([tr()]), As('x')]
    yield 'chat then claude', [U('q'), ccall('c1', '{}'), ctool('c1', 'r'), As([tu()]), U([tr()]), As('x')]
    yield 'claude then chat', loop() + [U('y'), ccall('c1', '{}'), ctool('c1', 'r'), As('z')]
    yield 'claude call chat result', [U('q'), As([tu()]), ctool('toolu_1', 'r'), As('x')]
    yield 'chat call claude result', [U('q'), ccall('c1', '{}'), U([tr('c1')]), As('x')]
    yield 'chat tool then claude results', [U('q'), As([tu('a'), tu('b')]), ctool('a'), U([tr('b')]), As('x')]
    yield 'gemini form', [dict(role='user', parts=[dict(text='q')]), dict(role='model', parts=[dict(text='x')])]
    yield 'bedrock form', [U([dict(text='q')]), As([dict(text='x')])]
    yield 'responses form', [U([dict(type='input_text', text='q')]), As([dict(type='output_text', text='x')])]
    yield 'extra key', [dict(role='user', content='q', name='bob'), As('x')]
    yield 'role not str', [dict(role=b'user', content='q'), As('x')]

CLAUDE = list(claude_odd())

# ---------------------------------------------------------------- clean areas (regression tests)
def test_claude_odd_shapes_as_general(monkeypatch):
    "Claude-form histories of odd shapes: the same outcome as the general path, for mk_msgs and mk_request"
    assert not _diffs(monkeypatch, CLAUDE)
    assert sum(_short(h, a) for _, h in CLAUDE for a in APIS) > 100  # the short ways were taken, many times

def test_claude_short_way_accepted_by_provider():
    "What the short ways give for Claude-form histories, each provider's own types take (NaN/inf aside: JSON has none)"
    n = 0
    for name, h in CLAUDE:
        if name == 'inf': continue
        for api in APIS:
            if _short(h, api) is not True: continue
            oracle.check(api, msgkit.mk_msgs(copy.deepcopy(h), api)); n += 1
    assert n > 100

def _sent_back():
    "What mk_msgs gave for each API, sent to each other API: as it came, as AttrDicts, a History with a turn, JSON"
    srcs = [('tool_chat', tool_chat(6)), ('two calls', [U('q'), dict(ccall('c1'), tool_calls=ccall('c1')['tool_calls']
                                                                     + ccall('c2', '{"tz": "UTC"}', name='get_time')['tool_calls']),
                                                         ctool('c1'), ctool('c2'), As('x')]),
            ('no content', [U('q'), ccall('c1'), ctool('c1'), As('x')]),
            ('images', image_history([big_png(2000)], 3)), ('image chat', image_chat([big_png(2000)], 2)),
            ('text', ['a', 'b', 'c ']), ('prefill', ['a', 'b '])]
    srcs += [c for c in CLAUDE if c[0] in ('nested unicode bigint', 'floats', 'empty input', 'result one text',
                                           'user text blocks reversed', 'ends with results', 'result spaces',
                                           'chat then claude')]
    yield from sent_back_of(srcs)

def sent_back_of(srcs, default=None):
    "What mk_msgs gave for each of `srcs` for each API: as it came, as AttrDicts, a History with a turn, JSON (`default`)"
    for n, h in srcs:
        for s in APIS:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try: r = msgkit.mk_msgs(copy.deepcopy(h), s)
                except Exception: continue
            yield f'{n}->{s}', r
            yield f'{n}->{s} AttrDict', [AttrDict(m) for m in r]
            last = r[-1].get('role') if len(r) else 'assistant'
            yield f'{n}->{s} History+', History(list(r) + [dict(role='assistant' if last == 'user' else 'user', content='And?')])
            try: yield f'{n}->{s} json', json.loads(json.dumps(r, default=default))
            except TypeError: pass  # (bytes, with no `default`: Bedrock's)

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
def test_sent_back_cross_api_as_general(monkeypatch):
    "A history mk_msgs returned for one API, sent to each API (its Msgs, Blocks, AttrDicts): the general path's outcome"
    cs = list(_sent_back())
    assert not _diffs(monkeypatch, cs)
    assert sum(_short(h, a) for _, h in cs for a in APIS) > 400

_png = big_png(2000)
def _b64():
    import base64
    return base64.b64encode(_png).decode()
def _cimg(): return dict(type='image_url', image_url=dict(url='data:image/png;base64,' + _b64()))
def _aimg(): return dict(type='image', source=dict(type='base64', media_type='image/png', data=_b64()))
_USERS = [lambda: U('q'), lambda: U([T('a')]), lambda: U([T('a'), T('b')]), lambda: U([T(' a '), T('b')]),
          lambda: U([dict(text='a', type='text')]), lambda: U([_cimg(), T('what')]), lambda: U([_aimg(), T('what')]),
          lambda: U([T('what'), _cimg()]), lambda: 'plain str', lambda: dict(content='q', role='user'),
          lambda: U([T('x'), T('x')]), lambda: U([_cimg()]), lambda: U([_aimg()]), lambda: ['list', _png]]
_ASSTS = [lambda: As('x'), lambda: As('x '), lambda: dict(content='x', role='assistant'), lambda: 'asst str',
          lambda: As([T('x')])]

def _mixed_loop(r, k):
    i = f'id{k}'
    form = r.choice(['chat', 'claude', 'claude2', 'chatmix', 'claudemix'])
    if form == 'chat': return [ccall(i, content=r.choice([None, 'Looking.'])), ctool(i)]
    if form == 'claude': return [As(([T('Looking.')] if r.random() < .5 else []) + [tu(i)]),
                                 U([tr(i, c=r.choice(['sunny', [T('sunny')]]))])]
    if form == 'claude2': return [As([tu(i), tu(i + 'b', inp={})]), U([tr(i), tr(i + 'b')])]
    if form == 'chatmix': return [ccall(i), U([tr(i)])]
    return [As([tu(i)]), ctool(i)]

def _mixed(r):
    h, k = [], 0
    for _ in range(r.randrange(1, 5)):
        h.append(r.choice(_USERS)())
        while r.random() < 0.5: h += _mixed_loop(r, k); k += 1
        h.append(r.choice(_ASSTS)())
    if r.random() < 0.3: h.pop()
    return h

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
def test_mixed_chat_and_claude_forms_as_general(monkeypatch):
    "Chat-form and Claude-form items mixed in one history (whole tool loops each way, a call of one answered in the other)"
    r = random.Random(2026)
    cs = [(f'm{j}', _mixed(r)) for j in range(200)]
    assert not _diffs(monkeypatch, cs)
    assert sum(_short(h, 'anthropic') for _, h in cs) > 50

def _text_forms(role, s):
    ar = {'user': 'user', 'assistant': 'model'}[role]
    rt = 'input_text' if role == 'user' else 'output_text'
    return {'chat': dict(role=role, content=s), 'chat_rev': dict(content=s, role=role),
            'claude_blocks': dict(role=role, content=[T(s)]), 'gemini': dict(role=ar, parts=[dict(text=s)]),
            'gemini_rev': dict(parts=[dict(text=s)], role=ar), 'gemini_role': dict(role=role, parts=[dict(text=s)]),
            'bedrock': dict(role=role, content=[dict(text=s)]), 'bedrock_rev': dict(content=[dict(text=s)], role=role),
            'responses': dict(role=role, content=[dict(type=rt, text=s)]),
            'responses_msg': dict(type='message', role=role, content=[dict(type=rt, text=s)]),
            'extra_none': dict(role=role, content=s, name=None), 'str': s}

def test_text_dicts_of_every_form_and_order_as_general(monkeypatch):
    "Text histories whose dicts are of every API's text form, keys in either order, as dicts/AttrDicts/Msgs, list or History"
    wraps = {'dict': lambda d: d, 'attr': lambda d: AttrDict(d) if isinstance(d, dict) else d,
             'msg': lambda d: Msg(d) if isinstance(d, dict) else d}
    r, cs = random.Random(3), []
    names = list(_text_forms('user', 'x'))
    for a in names:
        for b in names:
            w = r.choice(list(wraps))
            s1, s2 = r.choice(['hi', ' hi ', 'hi\n', 'ünï 😀']), r.choice(['hi', ' hi ', 'hi\n', 'ünï 😀'])
            h = [wraps[w](_text_forms('user', s1)[a]), wraps[w](_text_forms('assistant', s2)[b])]
            cs.append((f'{a}/{b}/{w}', h))
            cs.append((f'{a}/{b}/{w}/more', History(h + [wraps[w](_text_forms('user', 'more')[a])])))
    assert not _diffs(monkeypatch, cs)
    assert sum(_short(h, a) for _, h in cs for a in APIS) > 100

_TOOLS = [dict(name='get_weather', description='W', parameters=dict(type='object', properties=dict(city=dict(type='string'))))]

@pytest.mark.parametrize('kw', [dict(system='Be brief.'), dict(system=[T('Be brief.')]), dict(tools=_TOOLS),
                                dict(tools=_TOOLS, tool_choice='get_weather'), dict(max_tokens=10, temperature=0.5),
                                dict(cache=True), dict(system='S', tools=_TOOLS, tool_choice='required', cache=True),
                                dict(wire=True, system='S'), dict(extra={'foo': 1}),
                                dict(model='o3', temperature=0.3, reasoning='high', unsupported='drop'),
                                dict(model='claude-opus-4-1', stop=['x'], top_p=0.2, unsupported='drop'),
                                dict(model='gemini-2.5-pro', schema=dict(type='object', properties={}), unsupported='drop')],
                         ids=lambda kw: ','.join(kw))
def test_request_options_as_general(kw, monkeypatch):
    "mk_request with system=, tools=, tool_choice=, cache=, wire=, dropped options, models: the general path's request"
    cs = CLAUDE[::2] + [('chat system', [dict(role='system', content='S'), U('q'), As('x')]),
                        ('chat open call', [U('q'), ccall('c1')]), ('chat ends results', [U('q'), ccall('c1'), ctool('c1')]),
                        ('system only', [dict(role='system', content='S')]), ('one', ['a']), ('empty', []),
                        ('text', ['a', 'b ']), ('tool_chat', tool_chat(4)), ('tool_chat open', tool_chat(4)[:-2])]
    assert not _diffs(monkeypatch, cs, reqs=(True,), **kw)

def test_threads_same_as_one_at_a_time():
    "mk_msgs and mk_request from 16 threads at once: what each gives alone (warnings caught per thread)"
    tl = threading.local()
    def show(message, category, *a, **k): tl.ws.append((category.__name__, str(message)))
    def one(h, api, req):
        tl.ws = []
        try: r = msgkit.mk_request(copy.deepcopy(h), api, model='m') if req else msgkit.mk_msgs(copy.deepcopy(h), api)
        except Exception as e: return ('error', type(e).__name__, str(e))
        return json.dumps(r, default=repr), types(r if req else list(r)), list(tl.ws)
    r = random.Random(5)
    jobs = [(h, a, q) for h in [h for _, h in CLAUDE[::2]] + [_mixed(r) for _ in range(40)] for a in APIS for q in (False, True)]
    with warnings.catch_warnings():
        warnings.simplefilter('always'); warnings.showwarning = show
        alone = [one(*j) for j in jobs]
        old = sys.getswitchinterval(); sys.setswitchinterval(1e-6)
        try:
            with ThreadPoolExecutor(16) as ex: together = list(ex.map(lambda j: one(*j), jobs))
        finally: sys.setswitchinterval(old)
    assert [i for i, (a, b) in enumerate(zip(alone, together)) if a != b] == []

@pytest.mark.parametrize('rule', ['fix_item', 'tidy', 'msg', 'part', 'before_send', 'fits_item'])
def test_patched_rule_lane_steps_aside(rule, monkeypatch):
    "A rule of the target patched on its class: a Claude-form or Chat-form tool loop gets what the general path gives"
    cs = [('claude', loop({'a': [1, {'b': 2}]})), ('chat', [U('q'), ccall('c1'), ctool('c1'), As('x')]),
          ('claude blocks', [U([T('a')]), As([tu()]), U([tr(c=[T('s')])]), As('x')])]
    for api in APIS:
        cls = type(get_api(api))
        orig = getattr(cls, rule)
        def marked(self, *a, _o=orig, **k):
            r = _o(self, *a, **k)
            if rule == 'fits_item': return False
            if isinstance(r, dict): return {**r, 'marked': 1}
            return [*r, dict(role='user', content='marked')] if rule in ('tidy', 'before_send') else r
        with monkeypatch.context() as m:
            m.setattr(cls, rule, marked)
            assert not _diffs(m, cs, apis=(api,))

@pytest.mark.parametrize('args', ['plain', 'OrderedDict', 'AttrDict', 'Block', 'tuple', 'deep'])
def test_object_arguments_unshared_both_ways(args, monkeypatch):
    "Tool arguments given as an object (Claude's input, msgkit's Blocks): no output shares a container with them"
    inp = {'plain': {'a': {'b': [1, {'c': 2}]}}, 'OrderedDict': OrderedDict(a=OrderedDict(b=[1])),
           'AttrDict': AttrDict(a=AttrDict(b=[1])), 'Block': Block(a=Block(b=Blocks([1, Block(c=2)]))),
           'tuple': {'a': (1, [2])}, 'deep': eval('{"a": ' * 20 + '[1]' + '}' * 20)}[args]
    h = loop(inp)
    for general in (False, True):
        with monkeypatch.context() as m:
            if general: _general(m)
            for api in APIS:
                h1 = copy.deepcopy(h)
                r = msgkit.mk_msgs(h1, api)
                ins = {id(o) for o in _containers(h1)}
                assert not [o for o in _containers(list(r)) if id(o) in ins], (api, general)
                assert h1 == h

def test_one_object_twice_not_shared_in_output():
    "The same dict at two places of the input (a message twice, one argument object twice): two copies in the output"
    x, u = {'k': [1, 2]}, U([T('a')])
    for h in ([U('q'), As([tu(inp={'p': x, 'q': x})]), U([tr()]), As('x')], [u, As('ok'), u, As('ok')]):
        for api in APIS:
            seen = set()
            for o in _containers(list(msgkit.mk_msgs(h, api))):
                assert id(o) not in seen, api
                seen.add(id(o))

# ---------------------------------------------------------------- differences found (strict xfails)
_SPLIT = [U('q'), As([tu('a'), tu('b')]), U([tr('a')]), ctool('b'), As('x')]

# found by the s10 review, fixed in session 10 (was a strict xfail): lane: Claude's results message (kept as it came,
# copy_msg) is joined by a Chat tool message's result in plain_turns, but Claude's plain_msgs copies the dict and
# drops the joined result: tool_result 'b' silently lost, a request Anthropic refuses
@pytest.mark.parametrize('req', [False, True], ids=['mk_msgs', 'mk_request'])
def test_claude_results_then_chat_tool_message(req, monkeypatch):
    assert not _diffs(monkeypatch, [('split', _SPLIT), ('split end', _SPLIT[:-1]),
                                     ('chat calls split', [U('q'), dict(ccall('a', '{}'), tool_calls=ccall('a', '{}')['tool_calls']
                                                                        + ccall('b', '{}')['tool_calls']),
                                                           U([tr('a')]), ctool('b'), As('x')])],
                      apis=('anthropic',), reqs=(req,))

# found by the s10 review, fixed in session 10 (was a strict xfail): the same: what the lane gives is refused by
# Anthropic (tool_use 'b' has no result)
def test_claude_results_then_chat_tool_message_oracle():
    oracle.check('anthropic', msgkit.mk_msgs(copy.deepcopy(_SPLIT), 'anthropic'))

# found by the s10 review, fixed in session 10 (was a strict xfail): mk_request: plain_history renders (and checks
# images) before lift_system checks system=; the general path checks system= first. An invalid system= and an image
# over the API's limit: the image's error instead of the system's
@pytest.mark.parametrize('system', [123, [dict(type='image')], b'abc'], ids=['int', 'image block', 'bytes'])
def test_request_error_order_system_vs_image(system, monkeypatch):
    h = [[big_png(6_000_000), 'what'], 'x']
    assert not _diffs(monkeypatch, [('big image', h)], apis=('anthropic', 'bedrock'), reqs=(True,), system=system)

def _patch_rule(m, rule):
    "Patch one of Claude's rules as a notebook trying a change would (on the class; `fix_item` on the instance)"
    ad, cls = get_api('anthropic'), AnthropicAdapter
    if rule == 'tidy':
        o = cls.tidy
        m.setattr(cls, 'tidy', lambda self, ms, *a, **k: [*o(self, ms, *a, **k), dict(role='user', content='marked')])
    elif rule == 'chk_role':
        def chk_role(self, *a, **k): raise ValueError('no role is taken')
        m.setattr(cls, 'chk_role', chk_role)
    elif rule == 'mergeable': m.setattr(cls, 'mergeable', lambda self, *a, **k: True)
    elif rule == 'text_msg':
        o = cls.text_msg
        m.setattr(cls, 'text_msg', lambda self, role, s, *a, **k: {**o(self, role, s, *a, **k), 'marked': 1})
    elif rule == 'fix_item(instance)':
        o = cls.fix_item
        m.setattr(ad, 'fix_item', lambda d, *a, **k: dict(reversed(list(o(ad, d, *a, **k).items()))), raising=False)

_RULE_CASES = {'tidy': ['hi', 'hello', 'more'], 'chk_role': ['hi', 'hello'], 'mergeable': ['hi', 'hello'],
               'text_msg': [U('hi'), As('hello')], 'fix_item(instance)': [U('hi'), As('hello')]}

# found by the s10 review, fixed in session 10 (was a strict xfail): text path (_texts) checks no rule but text_msg: a
# patched tidy, chk_role, mergeable, an instance's fix_item are not applied, and a patched text_msg remakes a dict the
# general path keeps as it came. mk_request: new this session (it took the general path before)
@pytest.mark.parametrize('rule', list(_RULE_CASES))
def test_text_path_patched_rule_request(rule, monkeypatch):
    msgkit.mk_request(['warm', 'up'], 'anthropic', model='m')  # (the makers and key orders remembered first)
    with monkeypatch.context() as m:
        _patch_rule(m, rule)
        assert not _diffs(m, [(rule, _RULE_CASES[rule])], apis=('anthropic',), reqs=(True,))

# found by the s10 review, fixed in session 10 (was a strict xfail): the same text path in mk_msgs (there before this
# session)
@pytest.mark.parametrize('rule', list(_RULE_CASES))
def test_text_path_patched_rule_msgs(rule, monkeypatch):
    msgkit.mk_msgs(['warm', 'up'], 'anthropic')
    with monkeypatch.context() as m:
        _patch_rule(m, rule)
        assert not _diffs(m, [(rule, _RULE_CASES[rule])], apis=('anthropic',), reqs=(False,))

class _EqRaises(list):
    "A list subclass whose == is its own (an array-like's is elementwise; this one refuses)"
    def __eq__(self, o): raise RuntimeError('== of a history')
    __hash__ = None

# found by the s10 review, fixed in session 10 (was a strict xfail): mk_request's `msgs==[]` runs the history's own
# __eq__: a list subclass the general path (and mk_msgs) takes fails with an InputError
def test_request_list_subclass_own_eq(monkeypatch):
    h = _EqRaises(['hi', 'hello'])
    with monkeypatch.context() as m:
        _general(m)
        want = _run(list(h), 'anthropic')[0][0]  # the general path's messages, of the same items
    got = msgkit.mk_request(h, 'anthropic', model='m')
    assert json.dumps(got['messages']) == want
