"""#22, the plain lane (`msgkit.plain`): a plain history (text, calls each answered straight after, images) read into
plain turns in one pass and rendered by the target's `plain_msgs` at once. It must give exactly what the general path
gives (read, repair, render, tidy, wrap): the same messages as JSON (key order included), of the same types, the same
warnings and errors; be taken for the histories people keep; and what it gives, each provider's own request types
take. Counts and compares, never times (bench/ measures)."""
import copy, json, os, random, sys, warnings
import pytest
import msgkit
from msgkit import plain, core
from msgkit.registry import get_api, apis
from msgkit.msgs import Msg, History
from msgkit.errors import MsgkitError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import oracle
from peers import tool_chat, image_history, image_chat, text_history, chat_dicts, big_png
from test_perf22_own import cases, rand_hist
from test_perf22_loop import call, asst, tool, Q, A
from test_perf22_text import types
from shortways import short_ways_off

LANE = ('openai', 'anthropic', 'gemini', 'bedrock')  # the APIs whose adapter renders plain turns at once

def _out(h, api):
    "Everything `mk_msgs` gives for `h`: messages as JSON (key order kept), their types, the warnings; or the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msgs(copy.deepcopy(h), api)
        except Exception as e: return ('error', type(e), str(e))
    return [json.dumps(m, default=repr) for m in r], types(list(r)), type(r).__name__, [(w.category, str(w.message)) for w in ws]

def _general(m):
    "The general path: every short way off (`shortways`: by their one door, so one added later is off too)"
    short_ways_off(m)

def _taken(h, api):
    "Did the lane render `h` for `api` (or refuse it with an error of its own: the same as the general path's)?"
    ad = get_api(api)
    try:
        ts = plain.plain_turns(copy.deepcopy(h), ad)
        return ts is not None and ad.plain_msgs(ts) is not None
    except MsgkitError: return True

_imgs = [big_png(2_000), big_png(40_000)]
def byte_cases():
    "Histories of text and image bytes (as `image_history` keeps them), and their near misses"
    jpg = bytes.fromhex('ffd8ffe000104a46494600010101004800480000ffdb0043') + b'\0' * 64
    yield from (image_history(_imgs, n) for n in (1, 2, 4, 8, 20))
    yield image_history(_imgs * 12, 50)  # 25 images: more than Bedrock takes in a request
    for c in ([_imgs[0]], [_imgs[0], 'What?', _imgs[1]], ['What?', _imgs[0]], [_imgs[0], ' '], [_imgs[0], ''],
              [_imgs[0], 'https://x.io/a.png'], [b'not an image', 'x'], [jpg, 'x'], ['a', 'b'], ['only text'], [],
              [_imgs[0], 7], [bytearray(_imgs[0]), 'x'], [_imgs[0], 'x', b'%PDF-1.4 x']):
        yield [c, 'A picture.']
        yield ['Hi', 'Hello.', c]
        yield ['Hi', c]  # the list as the model's turn

def all_cases():
    yield from cases()
    yield from byte_cases()
    yield from (image_chat(_imgs, n) for n in (2, 4, 8, 12))
    yield chat_dicts(text_history(30))
    yield [dict(role='user', content='Hi'), ['What is this?', _imgs[0]], 'It is a gradient.']
    r = random.Random(2222)
    yield from (rand_hist(r) for _ in range(300))

@pytest.mark.parametrize('api', LANE)
def test_lane_as_general(api, monkeypatch):
    "Every case: the same outcome with the lane as without it; and the lane was taken for many, not for all"
    hs = list(all_cases())
    taken = sum(_taken(h, api) for h in hs)
    fast = [_out(h, api) for h in hs]
    with monkeypatch.context() as m:
        _general(m)
        slow = [_out(h, api) for h in hs]
    bad = [(i, hs[i], f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    assert taken > 100 and len(hs) - taken > 1000, taken  # both ways, many times

@pytest.mark.parametrize('api', [a for a in apis() if a not in LANE])
def test_others_render_the_general_way(api):
    "Chat copies its own (`own_history`); every dialect keeps its server's rules: none renders plain turns"
    ad = get_api(api)
    ts = plain.plain_turns(tool_chat(8), get_api('openai'))
    assert ad.plain_msgs(ts) is None

@pytest.mark.parametrize('api', LANE)
def test_taken_for_the_bench_rows(api):
    "The histories the benchmark times, as users keep them, take the lane (images: where the API takes them so)"
    assert _taken(tool_chat(200), api)
    assert _taken(chat_dicts(text_history(10)) + [dict(role='user', content='And?')], api)
    assert _taken(image_history([big_png(100_000)] * 5), api)
    assert _taken(image_chat([big_png(100_000)] * 5), api)

@pytest.mark.parametrize('api', LANE)
def test_lane_accepted_by_provider(api):
    "What the lane gives, each provider's own request types (and client, through a mock transport) take"
    for h in (tool_chat(40), image_history(_imgs, 8), image_chat(_imgs, 8),
              [Q, asst([call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]), tool('c1'), tool('c2'), A]):
        if not _taken(h, api): continue
        oracle.check(api, msgkit.mk_msgs(h, api))

def test_a_looser_lane_is_caught(monkeypatch):
    "A lane that let ids the target can't take through, or results in any order, differs from the general path"
    hs = [[Q, asst([call('call 1')]), tool('call 1'), A],
          [Q, asst([call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]), tool('c2'), tool('c1'), A],
          [Q, asst([call(name='get weather')]), tool(), A]]
    good = [_out(h, 'anthropic') for h in hs]
    monkeypatch.setattr(plain, 'id_ok', lambda ad: lambda i: True)
    monkeypatch.setattr(plain, 'name_ok', lambda ad: lambda n: True)
    real = plain.plain_turns
    def loose(h, ad):  # results matched to any open call
        h = [dict(o, tool_call_id=h[1]['tool_calls'][k]['id']) if o.get('role') == 'tool' else o
             for k, o in zip([0, 0] + list(range(len(h))), h)] if len(h) > 3 and h[1].get('tool_calls') else h
        return real(h, ad)
    monkeypatch.setattr(core, 'plain_turns', loose)
    assert all(_out(h, 'anthropic') != g for h, g in zip(hs, good))

@pytest.mark.parametrize('api', LANE)
def test_patched_rule_takes_the_general_path(api, monkeypatch):
    "A rule the lane stands for, patched since (a notebook trying a change), sends the history the general path"
    ad, ts = get_api(api), plain.plain_turns(tool_chat(8), get_api(api))
    assert ad.plain_msgs(ts) is not None
    part = type(ad).part
    monkeypatch.setattr(type(ad), 'part', lambda self, p, role='user', **kw: part(self, p, role, **kw))
    assert ad.plain_msgs(ts) is None

def test_arguments_remembered_never_handed_out():
    "The arguments' dict `plain_args` remembers is copied into each output: changing one changes nothing else"
    h = tool_chat(4)
    a = msgkit.mk_msgs(h, 'anthropic')
    a[1]['content'][1]['input']['city'] = 'changed'
    b = msgkit.mk_msgs(h, 'anthropic')
    assert b[1]['content'][1]['input']['city'] == 'city 0'
    assert plain.plain_args(h[1]['tool_calls'][0]['function']['arguments'])['city'] == 'city 0'

@pytest.mark.parametrize('api', LANE)
def test_no_alias_of_the_input(api):
    "The lane's messages share no dict or list with the caller's history, which stays as it was"
    h = tool_chat(8) + [dict(role='user', content=[dict(type='image_url', image_url=dict(url='data:image/png;base64,'
                                                                                          + __import__('base64').b64encode(_imgs[0]).decode())),
                                                   dict(type='text', text='And this?')])]
    h0 = copy.deepcopy(h)
    assert _taken(h, api)
    r = msgkit.mk_msgs(h, api)
    ins = {id(o) for m in h for o in _containers(m)}
    assert not [o for m in r for o in _containers(m) if id(o) in ins]
    assert h == h0

def _containers(x):
    if isinstance(x, (dict, list)):
        yield x
        for v in (x.values() if isinstance(x, dict) else x): yield from _containers(v)

def test_memo_bounded():
    "The arguments memo holds at most `ARGS_MEMO` texts, none longer than `ARGS_MAX`"
    for i in range(plain.ARGS_MEMO + 10): plain.plain_args(json.dumps(dict(i=i)))
    assert len(plain._args) <= plain.ARGS_MEMO
    long = json.dumps(dict(x='y' * plain.ARGS_MAX))
    assert plain.plain_args(long) == dict(x='y' * plain.ARGS_MAX) and long not in plain._args

def _rand_json(r, d=0):
    k = r.random()
    if d > 4 or k < 0.3: return r.choice([0, -1.5, 1e308, True, None, 'x', 'ünï', '\\"', '', 'a\nb', '\ud83d\ude00'])
    if k < 0.6: return [_rand_json(r, d+1) for _ in range(r.randrange(3))]
    return {r.choice(['a', 'b', 'é', '', ' ']) + str(i): _rand_json(r, d+1) for i in range(r.randrange(4))}

def test_plain_args_is_tool_args():
    "`plain_args` reads what `tool_args` reads (as `json.loads` would), or says `None` and leaves it to the general path"
    from msgkit.parts import tool_args
    r, n = random.Random(7), 0
    texts = [json.dumps(_rand_json(r), ensure_ascii=r.random() < 0.5, indent=r.choice([None, None, 1])) for _ in range(3000)]
    texts += [t[:r.randrange(len(t) + 1)] + r.choice(['', '}', ',', ' ', '\x01', 'x']) for t in texts[:1000]]
    texts += ['{"a": ' * k + '1' + '}' * k for k in (80, 89, 90, 91, 95, 3000)] + ['{"a": NaN}', '{"a": Infinity}', '{"a": 1, "a": 2}']
    for t in texts:
        try: want = tool_args(t)
        except MsgkitError: want = None
        got = plain.plain_args(t)
        if got is not None:
            n += 1
            assert got == want and type(want) is dict, t
        else:  # (or nested deeper than the lane takes: the general path's)
            from msgkit.errors import too_deep
            assert not (type(want) is dict and t[:1] == '{' and t[-1:] == '}' and t == t.strip()
                        and not too_deep(want, plain.ARGS_DEEP)), t
    assert n > 1000, n

def _msg_out(c, api, **kw):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msg(copy.deepcopy(c), api=api, **kw)
        except Exception as e: return ('error', type(e), str(e))
    return json.dumps(r, default=repr), types(r), type(r).__name__, [(w.category, str(w.message)) for w in ws]

@pytest.mark.parametrize('api', apis())
def test_mk_msg_lane_as_general(api, monkeypatch):
    "`mk_msg` of a user's list of text and one image takes the lane: the same message as the general path, every API"
    jpg = bytes.fromhex('ffd8ffe000104a46494600010101004800480000ffdb0043') + b'\0' * 64
    cs = [[_imgs[0], 'What is this?'], ['What is this?', _imgs[1]], [_imgs[0]], ['a', 'b'], ['only'], [' lead', 'trail '],
          [_imgs[0], _imgs[1], 'two'], [jpg, 'x'], [b'not an image', 'x'], [_imgs[0], ''], [_imgs[0], 'https://x.io/a.png'],
          [], [_imgs[0], 7], [big_png(4_000_000), 'big'], [bytearray(_imgs[0]), 'x']]
    fast = [_msg_out(c, api) for c in cs] + [_msg_out(cs[0], api, role='assistant')]
    with monkeypatch.context() as m:
        _general(m)
        slow = [_msg_out(c, api) for c in cs] + [_msg_out(cs[0], api, role='assistant')]
    bad = [(i, f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]

@pytest.mark.parametrize('api', LANE + ('openai_chat',))
def test_rules_as_shipped_after_import(api):
    "Every module imported, each adapter's rules are still those its notebook set (`shipped` made at its end): the lane runs"
    import importlib, pkgutil
    for m in pkgutil.walk_packages(msgkit.__path__, 'msgkit.'):
        if not m.name.endswith(('cli', '__main__')): importlib.import_module(m.name)
    ad = get_api(api)
    assert importlib.import_module(type(ad).__module__)._as_shipped(ad)

# ---------------------------------------------------------------- what `mk_msgs` gave, sent back
def _sent_back(h, api='openai_chat'):
    "What `mk_msgs` gave for `h` (a `History` of `Msg`s of `Block`s), as a chat loop sends it back; `None` if it failed"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return msgkit.mk_msgs(copy.deepcopy(h), api)
    except Exception: return None

SOURCES = ('openai_chat', 'anthropic', 'bedrock', 'openai', 'gemini')  # the forms whose own reader the lane has (`plain_turn`)

def _claude(*, text='Looking.', inp=None, res=None, extra=None, calls=1, rextra=None, tail=('Sunny.',)):
    "A tool loop in Claude's own form, and its near misses"
    u = dict(role='user', content='Weather?')
    tu = [dict(type='tool_use', id=f'toolu_{k}', name='get_weather', input=inp if inp is not None else dict(city='Paris'),
               **(extra or {})) for k in range(calls)]
    a = dict(role='assistant', content=([dict(type='text', text=text)] if text is not None else []) + tu)
    rs = [dict(type='tool_result', tool_use_id=f'toolu_{k}', content=res if res is not None else 'sunny', **(rextra or {}))
          for k in range(calls)]
    return [u, a, dict(role='user', content=rs)] + [dict(role='assistant' if k % 2 == 0 else 'user', content=t)
                                                    for k, t in enumerate(tail)]

def claude_cases():
    "Claude-form tool loops as people keep them (an SDK's dicts), and what must go the general path"
    yield _claude()
    yield _claude(text=None)
    yield _claude(calls=3)
    yield _claude(res=[dict(type='text', text='sunny')])
    yield _claude(res=[dict(type='text', text='sunny'), dict(type='text', text='and warm')])
    yield _claude(res='  ')
    yield _claude(res=[dict(text='sunny', type='text')])
    yield _claude(rextra=dict(is_error=True))
    yield _claude(rextra=dict(cache_control=dict(type='ephemeral')))
    yield _claude(extra=dict(cache_control=dict(type='ephemeral')))
    yield _claude(extra=dict(caller=None))
    yield _claude(text='  ')
    yield _claude(text='Looking. ')
    yield _claude(tail=('Sunny. ',))
    yield _claude(tail=())
    yield _claude(tail=('Sunny.', 'And tomorrow?'))
    yield _claude(tail=('Sunny.', [dict(type='text', text='And'), dict(type='text', text='tomorrow?')]))
    yield _claude(tail=('Sunny.', [dict(text='And tomorrow?', type='text')]))
    yield _claude(tail=([dict(type='text', text='Sunny.')],))
    yield _claude(inp={})
    yield _claude(inp=dict(city=None))
    yield _claude(inp=dict(city=('Paris',)))
    yield _claude(inp=dict(when=dict(days=[1, 2.5, True]), q='ünï'))
    yield _claude(inp=eval('{"a": ' * 30 + '1' + '}' * 30))
    h = _claude(calls=2); h[2]['content'].reverse(); yield h
    h = _claude(calls=2); h[2:3] = [dict(role='user', content=h[2]['content'][:1]), dict(role='user', content=h[2]['content'][1:])]; yield h
    h = _claude(); h[2]['content'].append(dict(type='text', text='Thanks.')); yield h
    h = _claude(); h[1]['content'].insert(0, dict(type='thinking', thinking='Hm.', signature='sig')); yield h
    h = _claude(); h[1]['content'][1]['id'] = 'call 1'; h[2]['content'][0]['tool_use_id'] = 'call 1'; yield h
    h = _claude(); h[1]['content'][1]['name'] = 'get weather'; yield h
    h = _claude(); h[1]['content'][1]['id'] = 7; yield h
    h = _claude(); h[1] = dict(content=h[1]['content'], role='assistant'); yield h
    h = _claude(); h[0] = dict(role='user', content=[dict(type='image', source=dict(type='base64', media_type='image/png',
        data=__import__('base64').b64encode(_imgs[0]).decode())), dict(type='text', text='Weather?')]); yield h
    yield _claude()[1:]
    yield [dict(role='user', content=[dict(type='text', text='Hi')]), dict(role='assistant', content='Hello.')]

def converse_cases():
    "Claude's cases as Converse's own form (as `mk_msgs` writes them), and Converse's own near misses"
    for h in claude_cases():
        if (r := _sent_back(h, 'bedrock')) is not None and len(r): yield json.loads(json.dumps(r, default=repr))
    r = json.loads(json.dumps(msgkit.mk_msgs(tool_chat(8), 'bedrock')))
    def v(f):
        h = copy.deepcopy(r); f(h); return h
    yield r
    yield v(lambda h: h[2]['content'][0]['toolResult'].update(status='error'))
    yield v(lambda h: h[2]['content'][0]['toolResult'].update(status='success'))
    yield v(lambda h: h[2]['content'][0]['toolResult']['content'].append(dict(text='more')))
    yield v(lambda h: h[2]['content'][0]['toolResult'].update(content=[dict(json=dict(temp=20))]))
    yield v(lambda h: h[1]['content'][1]['toolUse'].update(input=dict(a=None)))
    yield v(lambda h: h[1]['content'].pop(0))
    yield v(lambda h: h[1]['content'][0].update(text='  '))
    yield v(lambda h: h[0].update(content=[dict(text='a'), dict(text='b')]))
    yield v(lambda h: h.__setitem__(0, dict(content=h[0]['content'], role='user')))
    yield v(lambda h: h.__setitem__(3, dict(content=h[3]['content'], role='assistant')))
    yield v(lambda h: h[3]['content'][0].update(text='Sunny. '))
    yield v(lambda h: h[-1]['content'][0].update(text=h[-1]['content'][0]['text'] + ' '))
    yield v(lambda h: h[1]['content'].append(dict(cachePoint=dict(type='default'))))
    yield v(lambda h: h[2]['content'].append(dict(text='Thanks.')))
    yield v(lambda h: h[1]['content'][1]['toolUse'].update(toolUseId='call 1'))

def responses_cases():
    "Claude's cases as the Responses API's own form (as `mk_msgs` writes them), and its own near misses"
    for h in claude_cases():
        if (r := _sent_back(h, 'openai')) is not None and len(r): yield json.loads(json.dumps(r, default=repr))
    r = json.loads(json.dumps(msgkit.mk_msgs(tool_chat(8) + [Q, asst([call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]),
                                                              tool('c1'), tool('c2'), A], 'openai')))
    def v(f):
        h = copy.deepcopy(r); f(h); return h
    fc = [k for k, o in enumerate(r) if o.get('type') == 'function_call']
    out = [k for k, o in enumerate(r) if o.get('type') == 'function_call_output']
    yield r
    yield v(lambda h: h[fc[0]].update(id='fc_1', status='completed'))
    yield v(lambda h: h.__setitem__(fc[0], {k: h[fc[0]][k] for k in reversed(list(h[fc[0]]))}))
    yield v(lambda h: h.__setitem__(out[0], {k: h[out[0]][k] for k in reversed(list(h[out[0]]))}))
    yield v(lambda h: h.__setitem__(fc[0] - 1, dict(content=h[fc[0] - 1]['content'], role='assistant')))
    yield v(lambda h: h.pop(fc[0] - 1))
    yield v(lambda h: h[out[0]].update(output='  '))
    yield v(lambda h: h[out[0]].update(output=[dict(type='input_text', text='x')]))
    yield v(lambda h: h[fc[0]].update(arguments='{"a": 1} '))
    yield v(lambda h: h[fc[0]].update(arguments='not json'))
    yield v(lambda h: h.insert(fc[0] + 1, dict(role='assistant', content='More.')))
    yield v(lambda h: h.insert(fc[0], dict(type='reasoning', id='rs_1', summary=[])))
    yield v(lambda h: h.__setitem__(out[-1], h[out[-2]]))  # (an output answering the other call twice)
    yield v(lambda h: h.__setitem__(slice(out[-2], out[-1] + 1), [h[out[-1]], h[out[-2]]]))  # (outputs swapped)
    yield v(lambda h: h.__setitem__(fc[0], {**h[fc[0]], 'call_id': 'call 1'}))

def gemini_cases():
    "Claude's cases as Gemini's own form (as `mk_msgs` gives them: signatures as bytes), and its own near misses"
    for h in claude_cases():
        if (r := _sent_back(h, 'gemini')) is not None and len(r): yield r
    r = msgkit.mk_msgs(tool_chat(8) + [Q, asst([call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]), tool('c1'), tool('c2'), A],
                      'gemini')
    def v(f):
        h = copy.deepcopy(r); f(h); return h
    yield r
    yield json.loads(json.dumps(r, default=lambda b: __import__('base64').b64encode(b).decode()))  # (signatures as text)
    yield v(lambda h: h[1]['parts'][1]['function_call'].pop('id'))
    yield v(lambda h: h[2]['parts'][0]['function_response'].pop('id'))
    yield v(lambda h: h[2]['parts'][0]['function_response'].update(name='other'))
    yield v(lambda h: h[1]['parts'][1].update(thought_signature=b'real signature'))
    yield v(lambda h: h[1]['parts'][1].pop('thought_signature'))
    yield v(lambda h: h[1]['parts'][1]['function_call'].update(args=dict(a=None)))
    yield v(lambda h: h[2]['parts'][0]['function_response'].update(response=dict(result='x')))
    yield v(lambda h: h[2]['parts'][0]['function_response']['response'].update(output=dict(temp=20)))
    yield v(lambda h: h[0]['parts'].append(dict(text='More.')))
    yield v(lambda h: h.__setitem__(0, dict(parts=h[0]['parts'], role='user')))
    yield v(lambda h: h[-1]['parts'][0].update(text='Sunny. '))
    yield v(lambda h: h[1]['parts'].insert(0, dict(text='Hm.', thought=True)))

def sent_back_cases(src='openai_chat'):
    "Every third case as `mk_msgs` gave it in `src`'s form, with a turn appended, as JSON; (Chat's) as a `History`"
    from fastcore.basics import AttrDict
    if src == 'anthropic': yield from claude_cases()
    if src == 'bedrock': yield from converse_cases()
    if src == 'openai': yield from responses_cases()
    if src == 'gemini': yield from gemini_cases()
    for k, h in enumerate(list(all_cases())[::3]):
        if src == 'openai_chat': yield History(h)
        if (r := _sent_back(h, src)) is not None and len(r):
            yield r
            yield History(list(r) + [dict(role='user' if r[-1].get('role') != 'user' else 'assistant', content='And?')])
            if k % 2 == 0: yield json.loads(json.dumps(r, default=repr))  # (as stored, loaded)
            if k % 5 == 0: yield [AttrDict(m) for m in r]  # (fastcore's, as msglm's messages are)

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
@pytest.mark.parametrize('src', SOURCES)
@pytest.mark.parametrize('api', LANE + ('openai_chat',))
def test_sent_back_as_general(api, src, monkeypatch):
    "A history `mk_msgs` returned, sent back (its `Msg`s, `Block`s, `Blocks`): the same outcome as the general path's"
    from msgkit.adapters.openai_chat import OpenAIChatAdapter
    from msgkit.adapters.gemini import GeminiAdapter
    from msgkit.adapters.bedrock import BedrockAdapter
    if api == 'openai_chat' and src != 'openai_chat': return  # (Chat copies only its own: `own_history`)
    hs = list(sent_back_cases(src))
    ad = get_api(api)
    taken = sum((ad.own_history(copy.deepcopy(h)) is not None) if api == 'openai_chat' else _taken(h, api) for h in hs)
    fast = [_out(h, api) for h in hs]
    with monkeypatch.context() as m:
        _general(m)
        for c in (OpenAIChatAdapter, GeminiAdapter, BedrockAdapter): m.setattr(c, 'own_history', lambda self, h: None)
        slow = [_out(h, api) for h in hs]
    bad = [(i, hs[i], f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    assert taken > 100, taken
    # the bench's tool loop, as `mk_msgs` gave it, takes the lane (or Chat's copy)
    # (but Converse's and Gemini's: the model's text, a block, is kept for its own API alone, `'own'`, as are Gemini's
    # signed calls; another API's general path makes the text a block of its own and reports the signature)
    back = msgkit.mk_msgs(tool_chat(40), src)
    if src not in ('bedrock', 'gemini') or api == src:
        assert (ad.own_history(back) is not None) if api == 'openai_chat' else _taken(back, api)

@pytest.mark.parametrize('src', SOURCES)
@pytest.mark.parametrize('api', LANE + ('openai_chat',))
def test_sent_back_no_alias(api, src):
    "What the lane gives for a history `mk_msgs` returned shares no dict or list with it, which stays as it was"
    back = msgkit.mk_msgs(tool_chat(8) + [['And this?', _imgs[0]], 'Yes.', 'More?'], src)
    b0 = copy.deepcopy(back)
    r = msgkit.mk_msgs(back, api)
    ins = {id(o) for m in back for o in _containers(m)}
    assert not [o for m in r for o in _containers(m) if id(o) in ins]
    assert back == b0 and types(list(back)) == types(list(b0))

# ---------------------------------------------------------------- mk_request takes the short way too
def _req_out(h, api, **kw):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_request(copy.deepcopy(h), api, model='m', **kw)
        except Exception as e: return ('error', type(e), str(e))
    return json.dumps(r, default=repr), types(r), type(r).__name__, [(w.category, str(w.message)) for w in ws]

@pytest.mark.parametrize('api', LANE + ('openai_chat',))
def test_request_as_general(api, monkeypatch):
    "`mk_request` of a plain history (its messages the short way, `plain_history`): the request the general path makes"
    from msgkit import request
    hs = list(all_cases())[::4] + list(sent_back_cases('anthropic'))[::4] + [tool_chat(40), tool_chat(40)[:-2]]
    kws = [{}, dict(system='Be brief.'), dict(system=[dict(type='text', text='Be brief.')], max_tokens=50),
           dict(tools=[dict(name='get_weather', description='Weather', parameters=dict(type='object', properties={}))])]
    fast = [_req_out(h, api, **kws[i % len(kws)]) for i, h in enumerate(hs)]
    def short(h):
        try: return request.plain_history(copy.deepcopy(h), get_api(api)) is not None
        except MsgkitError: return True  # (refused the short way: the general path's error, compared above)
    taken = [i for i, h in enumerate(hs) if short(h)]
    with monkeypatch.context() as m:
        m.setattr(request, 'plain_history', lambda h, ad: None)
        slow = [_req_out(h, api, **kws[i % len(kws)]) for i, h in enumerate(hs)]
    bad = [(i, hs[i], f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    assert len(taken) > 50 and len(hs) - len(taken) > 100, len(taken)
    assert request.plain_history(tool_chat(40), get_api(api)) is not None

def test_sniff_first_holds_what_is_sniffed():
    "`SNIFF_FIRST` (the first characters the short ways ask `plain_str` about) holds each a sniffed text can open with"
    from msgkit.plain import SNIFF_FIRST, plain_str
    from msgkit.sniff import is_url, is_data_uri
    from msgkit.mediapart import to_part
    rests = ['ttp://example.com/a.png', 'ttps://example.com/a.pdf', 'TTPS://EXAMPLE.COM/A.PNG',
             'ata:image/png;base64,iVBORw0KGgo=', 'ATA:text/plain,hi', 'ata:,hi', 'tp://example.com/a.png',
             '3://bucket/a.png', 's://bucket/a.png', 'ile:///tmp/a.png']
    seen = set()
    for c in map(chr, range(0x20, 0x250)):
        for r in rests:
            for s in (c + r, '  ' + c + r):
                if is_url(s) or is_data_uri(s) or to_part(s)['type']!='text':
                    seen.add(c)
                    assert c in SNIFF_FIRST and not plain_str(s), s
    assert seen == set(SNIFF_FIRST)  # (each of them is one: none there for nothing)
