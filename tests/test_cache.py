"""Prompt caching by strategy: a 30-turn tool loop rebuilt every turn passes the oracle at every turn for every API, its
marks stay within each API's limits, and the prefix the turn before cached is byte for byte what the next turn sends."""
import copy, json, warnings
import pytest
from msgkit import *
from msgkit import mk_cache
from oracle import check_gemini, check_cache_create, rules_cache, RULES
from test_history import accept

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
SYSTEM = 'You are a weather bot. ' * 40
MODEL = dict(bedrock='anthropic.claude-sonnet-4-5-20250929-v1:0', gemini='gemini-2.5-flash')

def get_weather(city:str)->str:
    "The weather in `city`"

def call_item(api, i, city):
    "The model's tool call number `i`, as that API's response puts it in the history"
    cid, args = f'call_{i:03d}', {'city': city}
    return dict(
        openai=dict(type='function_call', call_id=cid, name='get_weather', arguments=json.dumps(args)),
        openai_chat=dict(role='assistant', content=None, tool_calls=[dict(id=cid, type='function', function=dict(name='get_weather', arguments=json.dumps(args)))]),
        anthropic=dict(role='assistant', content=[dict(type='text', text='Let me look.'), dict(type='tool_use', id=f'toolu_{i:03d}', name='get_weather', input=args)]),
        gemini=dict(role='model', parts=[dict(function_call=dict(id=cid, name='get_weather', args=args), thought_signature=b'sig')]),
        bedrock=dict(role='assistant', content=[dict(toolUse=dict(toolUseId=f'tooluse_{i:03d}', name='get_weather', input=args))]))[api]

def tool_loop(api, turns=30):
    "Each step of a chat with two tool calls a turn: the history so far, ending where a request is sent"
    h, n = [], 0
    for t in range(turns):
        h.append(f'Turn {t}: is it warmer in Paris or in Rome?')
        for city in ('Paris', 'Rome'):
            c = call_item(api, n, city); n += 1
            h += [c, *mk_toolres(tool_calls(c)[0], f'{city}: sunny, {15+t%10} C', api=api)]
            yield list(h)
        h.append(f'Rome is warmer (turn {t}).')

MARK = dict(openai='prompt_cache_breakpoint', openai_chat='prompt_cache_breakpoint', anthropic='cache_control')

def unmark(api, msgs):
    "`msgs` as JSON text without cache marks: what a provider matches the cached prefix on"
    def f(o):
        if isinstance(o, list): return [f(x) for x in o if not (isinstance(x, dict) and 'cachePoint' in x)]
        if isinstance(o, dict): return {k: f(v) for k, v in o.items() if k != MARK.get(api)}
        return o
    return json.dumps(f(jsonable(msgs)), sort_keys=True)

def marked(api, msgs):
    "Indices of the messages that carry a cache mark"
    s = lambda m: json.dumps(jsonable(m))
    return [i for i, m in enumerate(msgs) if (MARK.get(api) or 'cachePoint') in s(m)]

def msgs_of(api, req): return req['input'] if api == 'openai' else req['contents'] if api == 'gemini' else req['messages']

@pytest.mark.parametrize('strategy', ['last', 'rolling', [0, 2]])
@pytest.mark.parametrize('api', APIS)
def test_tool_loop_cache(api, strategy): tool_loop_cache(api, strategy, 5)

@pytest.mark.slow
@pytest.mark.parametrize('strategy', ['last', 'rolling', [0, 2]])
@pytest.mark.parametrize('api', APIS)
def test_tool_loop_cache_30_turns(api, strategy): tool_loop_cache(api, strategy, 30)

def tool_loop_cache(api, strategy, turns):
    "Each step of a `turns`-turn tool loop: accepted, marked as the strategy says, the cached prefix unchanged"
    prev = None
    for step, h in enumerate(tool_loop(api, turns)):
        req = mk_request(h, api, model=MODEL.get(api, 'm'), system=SYSTEM, tools=[get_weather], cache=strategy)
        accept(api, req); rules_cache(api, req)
        ms = msgs_of(api, req)
        at = marked(api, ms)
        if api == 'gemini': assert not at  # Gemini caches implicitly; its explicit caches are test_gemini_explicit_cache's
        else:
            want = {'last': 1, 'rolling': 2}.get(strategy if isinstance(strategy, str) else None, len(strategy))
            assert len(at) == want, (step, at)
            if strategy == 'rolling': assert all(api == 'openai' or ms[i]['role'] in ('user', 'tool') for i in at)
        if prev is not None and api == 'gemini':  # implicit caching: what the last request sent comes back first, byte for byte
            assert json.dumps(jsonable(ms[:len(prev[0])-1])) == json.dumps(jsonable(prev[0][:-1])), f'step {step}: the sent prefix changed'
        if prev is not None:
            pms, pat = prev
            if pat:  # the prefix the turn before marked, as this turn sends it: the same bytes, marks aside
                p = pat[-1]
                assert unmark(api, ms[:p+1]) == unmark(api, pms[:p+1]), f'step {step}: the cached prefix changed'
                if strategy == 'rolling' and p in at:  # the mark it was written with is still there: that message byte-identical, mark and all
                    assert json.dumps(jsonable(ms[p])) == json.dumps(jsonable(pms[p]))
            for k in ('system', 'tools', 'toolConfig', 'instructions'):  # the system prompt and tools, marks and all
                assert json.dumps(jsonable(req.get(k))) == json.dumps(jsonable(prev_req.get(k))), k
        prev, prev_req = (ms, at), req
    assert step == 2*turns - 1

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_system_and_tools_marked_within_four(api):
    "Anthropic and Bedrock: the system prompt, then the tools, take the marks the strategy leaves; never more than 4"
    h = list(tool_loop(api, 3))[-1]
    for strategy, want in (('last', 3), ('rolling', 4), ([0, 2, 4], 4), ([0, 2, 4, 6], 4)):
        req = mk_request(h, api, model=MODEL.get(api, 'm'), system=SYSTEM, tools=[get_weather], cache=strategy)
        accept(api, req); rules_cache(api, req)
        sys_marked = 'cache' in json.dumps(jsonable(req['system']))
        tools = req.get('tools') or req['toolConfig']['tools']
        tools_marked = 'cache' in json.dumps(jsonable(tools))
        n = len(marked(api, msgs_of(api, req))) + sys_marked + tools_marked
        assert n == want, (strategy, n)
        assert sys_marked == (len(strategy) < 4 if isinstance(strategy, list) else True)
    with pytest.raises(ValueError, match='at most 4'):
        mk_request(h, api, model='m', cache=[0, 2, 4, 6, 8])

def test_bedrock_nova_tools_not_marked():
    "Amazon Nova caches system and messages, not tools: no cache point among its tools"
    h = list(tool_loop('bedrock', 2))[-1]
    req = mk_request(h, 'bedrock', model='amazon.nova-pro-v1:0', system=SYSTEM, tools=[get_weather], cache='rolling')
    accept('bedrock', req); rules_cache('bedrock', req)
    assert not any('cachePoint' in t for t in req['toolConfig']['tools']) and req['system'][-1] == {'cachePoint': {'type': 'default'}}

@pytest.mark.parametrize('api', ['anthropic', 'bedrock', 'openai', 'openai_chat'])
def test_stored_marks_never_gather(api):
    "A loop that keeps the messages it sent (marks and all) and adds to them: a strategy removes the old marks every turn"
    h = []
    for t in range(12):
        h = list(mk_msgs(h + [f'question {t}'], api, cache='rolling')) + [f'answer {t}']
        req = mk_request(h + ['next?'], api, model=MODEL.get(api, 'm'), cache='rolling')
        accept(api, req); rules_cache(api, req)
        assert len(marked(api, msgs_of(api, req))) == 2
    # msglm's cache=True keeps the marks a history holds, as msglm does: five of them are Anthropic's 400, caught first
    if api == 'anthropic':
        with pytest.raises(ValueError, match='cache_last_ckpt_only'):
            h = []
            for t in range(6): h = list(mk_msgs(h + [f'q {t}'], api, cache=True)) + ['a']

def test_ttl_on_every_mark():
    h = list(tool_loop('anthropic', 2))[-1]
    req = mk_request(h, 'anthropic', model='m', system=SYSTEM, tools=[get_weather], cache='rolling', ttl='1h')
    accept('anthropic', req); rules_cache('anthropic', req)
    assert req['tools'][-1]['cache_control'] == {'type': 'ephemeral', 'ttl': '1h'} == req['system'][-1]['cache_control']
    with pytest.raises(ValueError, match="takes cache ttl 5m or 1h, not '2h'"): mk_request(h, 'anthropic', model='m', cache='rolling', ttl='2h')
    with pytest.raises(ValueError, match="takes cache ttl 30m or 12h, not '1h'"): mk_request(h, 'openai', model='m', cache='rolling', ttl='1h')

def test_bad_strategies():
    h = ['a', 'b', 'c']
    with pytest.raises(TypeError, match="cache= takes True, 'last', 'rolling' or a list of message indices, not 'all'"): mk_msgs(h, 'anthropic', cache='all')
    with pytest.raises(ValueError, match='index 5 is outside this history of 3 messages'): mk_msgs(h, 'anthropic', cache=[5])
    with pytest.raises(ValueError, match="api='openai' can't put a cache mark on message 1 \\(role 'assistant'\\)"): mk_msgs(h, 'openai', cache=[1])
    assert mk_msgs(h, 'anthropic', cache=[-1]) == mk_msgs(h, 'anthropic', cache='last')
    assert h == ['a', 'b', 'c']

def test_msglm_cache_true_unchanged():
    "cache=True is msglm's: string content stays a string except where the mark is"
    assert mk_msgs(['a', 'b', 'c'], 'anthropic', cache=True) == [
        {'role': 'user', 'content': 'a'}, {'role': 'assistant', 'content': 'b'},
        {'role': 'user', 'content': [{'type': 'text', 'text': 'c', 'cache_control': {'type': 'ephemeral'}}]}]
    assert mk_msgs(['a', 'b', 'c'], 'anthropic', cache='last')[0] == {'role': 'user', 'content': [{'type': 'text', 'text': 'a'}]}

# ---------------------------------------------------------------- Gemini's explicit caches
def test_gemini_explicit_cache():
    "The first turns cached with the system prompt and tools; every later request sends only what follows and passes"
    steps = list(tool_loop('gemini', 30))
    c = mk_cache(steps[1], 'gemini', model='gemini-2.5-flash', system=SYSTEM, tools=[get_weather], ttl='1h')
    body = check_cache_create(c)
    assert body['ttl'] == '3600s' and body['systemInstruction'] and body['tools'] and len(body['contents']) == len(c['config']['contents'])
    n = len(c['config']['contents'])
    for h in steps[2:]:
        req = mk_request(h, 'gemini', model='gemini-2.5-flash', system=SYSTEM, tools=[get_weather], cached=c, cached_content='cachedContents/abc123')
        rules_cache('gemini', req)
        check_gemini(req['contents'], **req['config'])
        full = c['config']['contents'] + req['contents']
        RULES['gemini'](full)
        assert full == mk_request(h, 'gemini', model='gemini-2.5-flash')['contents']  # the cache and the rest: the whole history
        assert mk_cache(h[:len(steps[1])], 'gemini', model='gemini-2.5-flash', system=SYSTEM, tools=[get_weather], ttl='1h') == c  # byte-stable
    assert req['config'] == {'cached_content': 'cachedContents/abc123'} and len(req['contents']) == len(full) - n

def test_gemini_cache_errors():
    h = list(tool_loop('gemini', 2))
    c = mk_cache(h[1], 'gemini', model='gemini-2.5-flash', system=SYSTEM)
    kw = dict(cached=c, cached_content='cachedContents/abc')
    with pytest.raises(ValueError, match="doesn't start with the"): mk_request(['other'] + h[-1], 'gemini', **kw)
    with pytest.raises(ValueError, match="the cache is for model 'gemini-2.5-flash', not 'gemini-3-pro'"): mk_request(h[-1], 'gemini', model='gemini-3-pro', **kw)
    with pytest.raises(ValueError, match="can't set system_instruction in a request that uses a cache"): mk_request(h[-1], 'gemini', system='Other.', **kw)
    ct = mk_cache(h[1], 'gemini', model='gemini-2.5-flash', tools=[get_weather])
    with pytest.raises(ValueError, match="can't set tool_config"): mk_request(h[-1], 'gemini', tools=[get_weather], tool_choice='auto', cached=ct, cached_content='c')
    with pytest.raises(ValueError, match="can't set tools"): mk_request(h[-1], 'gemini', tools=[get_weather], **kw)
    with pytest.raises(ValueError, match='pass cached_content='): mk_request(h[-1], 'gemini', cached=c)
    with pytest.raises(ValueError, match='nothing follows the'): mk_request(h[1], 'gemini', **kw)
    with pytest.raises(TypeError, match='cached= takes what mk_cache returned'): mk_request(h[-1], 'gemini', cached='x', cached_content='y')
    with pytest.raises(ValueError, match="can't set system_instruction"): mk_request(h[-1], 'gemini', system='S', cached_content='cachedContents/abc')
    with pytest.raises(ValueError, match="api='anthropic' has no explicit caches"): mk_cache(['hi'], 'anthropic', model='m')
    with pytest.raises(ValueError, match="api='openai' has no explicit caches"): mk_request(['hi'], 'openai', cached=c)
    with pytest.raises(ValueError, match='pass model='): mk_cache(['hi'], 'gemini')
    for bad in ('soon', 0, -5, float('nan'), float('inf'), True, '1e6s', 10**12):
        with pytest.raises(ValueError, match="cache ttl in seconds"): mk_cache(['hi'], 'gemini', model='m', ttl=bad)
    with pytest.warns(UserWarning, match="refuses caches under 1,024"): assert mk_cache(['hi'], 'gemini', model='m', ttl=90)['config']['ttl'] == '90s'

def test_gemini_ttl_is_a_duration():
    "Gemini's ttl is a protobuf Duration: decimal seconds with up to 9 places and an 's', never an exponent (protobuf's JSON mapping)"
    import re
    doc = 'A long contract. ' * 2000
    for ttl, want in [(1_000_000, '1000000s'), ('720h', '2592000s'), (1234567, '1234567s'), (3.5, '3.5s'), ('1.5m', '90s'),
                      ('300s', '300s'), (0.000000001, '0.000000001s'), (86400.25, '86400.25s')]:
        c = mk_cache([doc], 'gemini', model='gemini-2.5-flash', ttl=ttl)
        assert c['config']['ttl'] == want and re.fullmatch(r'\d+(\.\d{1,9})?s', want)
        assert check_cache_create(c)['ttl'] == want

def test_gemini_cache_too_small_warns():
    "The API refuses caches under its minimum ('Cached content is too small ... min_total_token_count=1024'): a warning, before the 400"
    with pytest.warns(UserWarning, match=r"about \d+ tokens, and gemini-2.5-flash refuses caches under 1,024"): mk_cache(['hi'], 'gemini', model='gemini-2.5-flash')
    with pytest.warns(UserWarning, match="refuses caches under 4,096"): mk_cache(['A long contract. ' * 500], 'gemini', model='gemini-3-pro-preview')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        mk_cache(['A long contract. ' * 2000], 'gemini', model='gemini-2.5-flash')

# ---------------------------------------------------------------- the oracle's rules fail where the docs say the API fails
def test_rules_cache_fail():
    cc = {'type': 'ephemeral'}
    msgs = [dict(role='user', content=[dict(type='text', text=f't{i}', cache_control=cc)]) for i in range(3)]
    req = dict(messages=msgs, system=[dict(type='text', text='s', cache_control=cc)], tools=[dict(name='t', input_schema={}, cache_control=cc)])
    with pytest.raises(AssertionError, match='A maximum of 4 blocks with cache_control'): rules_cache('anthropic', req)
    req = dict(messages=msgs[:1], tools=[dict(name='t', input_schema={}, cache_control={'type': 'ephemeral'})], system=[dict(type='text', text='s', cache_control={'type': 'ephemeral', 'ttl': '1h'})])
    with pytest.raises(AssertionError, match='a 1h cache mark after a 5m one'): rules_cache('anthropic', req)
    with pytest.raises(AssertionError, match='empty text block'): rules_cache('anthropic', dict(messages=[dict(role='user', content=[dict(type='text', text=' ', cache_control=cc)])]))
    cp = {'cachePoint': {'type': 'default'}}
    with pytest.raises(AssertionError, match='at most 4 cache checkpoints'):
        rules_cache('bedrock', dict(messages=[dict(role='user', content=[{'text': 'a'}, cp])] * 3, system=[{'text': 's'}, cp], toolConfig=dict(tools=[cp])))
    with pytest.raises(AssertionError, match='Nova caches no tools'):
        rules_cache('bedrock', dict(modelId='amazon.nova-lite-v1:0', messages=[dict(role='user', content=[{'text': 'a'}])], toolConfig=dict(tools=[cp])))
    with pytest.raises(AssertionError, match='cached_content with'):
        rules_cache('gemini', dict(contents=[], config=dict(cached_content='c', system_instruction='s')))
    with pytest.raises(AssertionError, match='prompt_cache_key'): rules_cache('openai', dict(input=[], prompt_cache_key='k' * 65))
    with pytest.raises(AssertionError, match='bogus: Extra inputs are not permitted'): check_cache_create(dict(model='m', config=dict(contents=[], ttl='1h', bogus=1)))

def test_openai_cache_options_accepted():
    "OpenAI's request-level options from the spec pass through and are checked: prompt_cache_key, prompt_cache_options"
    h = list(tool_loop('openai', 1))[-1]
    req = mk_request(h, 'openai', model='gpt-5.6', cache='rolling', prompt_cache_key='weather-bot', prompt_cache_options=dict(ttl='30m', mode='explicit'))
    accept('openai', req); rules_cache('openai', req)
    assert [m['output'][-1]['prompt_cache_breakpoint'] for m in req['input'] if m.get('type') == 'function_call_output'][-1] == {'mode': 'explicit'}
    with pytest.raises(AssertionError): accept('openai', {**req, 'prompt_cache_options': dict(ttl='5m')})

# ---------------------------------------------------------------- review findings, each pinned
def test_rolling_marks_the_last_of_parallel_results():
    "OpenAI's parallel tool outputs are one item each: 'rolling' marks the last of each group, so the previous request's mark is re-marked"
    call = lambda i: dict(type='function_call', call_id=f'call_{i}', name='get_weather', arguments='{"city": "Paris"}')
    h, got = ['q0'], []
    for s in range(3):
        h += [call(f'{s}a'), call(f'{s}b'), dict(type='function_call_output', call_id=f'call_{s}a', output='x'),
              dict(type='function_call_output', call_id=f'call_{s}b', output='y')]
        r = mk_request(h, 'openai', model='gpt-5.6', cache='rolling', prompt_cache_options=dict(mode='explicit'))
        accept('openai', r); rules_cache('openai', r)
        got.append(marked('openai', r['input']))
    assert got == [[0, 4], [4, 8], [8, 12]]

def test_bedrock_prefill_stripped_with_a_cache_point():
    r = mk_request(['Write a poem.', 'Here is the poem:  \n'], 'bedrock', model='anthropic.claude-sonnet-4-5', cache='last')
    assert r['messages'][-1]['content'] == [{'text': 'Here is the poem:'}, {'cachePoint': {'type': 'default'}}]
    accept('bedrock', r); rules_cache('bedrock', r)  # botocore's model, the prefill rule and the cache-point rules

def test_top_level_cache_control_takes_a_slot():
    "Anthropic's automatic caching (a top-level cache_control) counts against the 4: the strategy leaves the tools unmarked"
    r = mk_request(['q1', 'a1', 'q2', 'a2', 'q3'], 'anthropic', model='m', system=SYSTEM, tools=[get_weather], cache='rolling', cache_control={'type': 'ephemeral'})
    accept('anthropic', r); rules_cache('anthropic', r)
    assert 'cache_control' not in r['tools'][-1] and r['system'][-1]['cache_control']
    with pytest.raises(AssertionError, match='Found 5'): rules_cache('anthropic', {**r, 'tools': [{**r['tools'][0], 'cache_control': {'type': 'ephemeral'}}]})

def test_msglm_truthy_cache():
    "msglm takes any truthy cache=: 1 is on and 0 off, with msglm's output, and the API accepts it"
    import msglm
    on = mk_msgs(['a', 'b', 'c'], 'anthropic', cache=1)
    assert on == msglm.mk_msgs_anthropic(['a', 'b', 'c'], cache=True) == msglm.mk_msgs_anthropic(['a', 'b', 'c'], cache=1)
    accept('anthropic', dict(messages=on)); rules_cache('anthropic', dict(messages=on))
    assert mk_msgs(['a'], 'anthropic', cache=0) == msglm.mk_msgs_anthropic(['a'], cache=0) == [{'role': 'user', 'content': 'a'}]

def test_bedrock_cache_point_among_tools_kept():
    r = mk_request(['hi'], 'bedrock', model=MODEL['bedrock'], tools=[get_weather, {'cachePoint': {'type': 'default'}}])
    accept('bedrock', r); rules_cache('bedrock', r)
    assert r['toolConfig']['tools'][-1] == {'cachePoint': {'type': 'default'}}

def test_gemini_cache_then_a_user_question():
    "The documented pattern: the cache holds a document (a user turn), the request asks about it (another user turn)"
    U = lambda s: dict(role='user', content=s)
    doc = 'A long contract. ' * 200
    c = mk_cache([U(doc)], 'gemini', model='gemini-2.5-flash', ttl='1h')
    check_cache_create(c)
    r = mk_request([U(doc), U('Who are the parties?')], 'gemini', model='models/gemini-2.5-flash', cached=c, cached_content='cachedContents/x')
    assert r['contents'] == [{'role': 'user', 'parts': [{'text': 'Who are the parties?'}]}]
    check_gemini(r['contents'], **r['config'])

@pytest.mark.parametrize('api', ['openai', 'openai_chat'])
def test_openai_request_cache_options(api):
    "prompt_cache_key, prompt_cache_retention and prompt_cache_options as the spec (and SDK) take them; anything else a clear error"
    r = mk_request(['q1', 'a1', 'q2'], api, model='gpt-5.6', cache='rolling', prompt_cache_key='user-42',
                   prompt_cache_options=dict(ttl='30m', mode='explicit'))
    accept(api, r)
    accept(api, mk_request(['q'], api, model='gpt-5.1', prompt_cache_retention='24h'))
    for kw, msg in [(dict(prompt_cache_key='k' * 65), '1 to 64 characters'), (dict(prompt_cache_key=123), '1 to 64 characters'),
                    (dict(prompt_cache_retention='forever'), "prompt_cache_retention 'in_memory' or '24h'"),
                    (dict(prompt_cache_options=dict(ttl='1h')), "prompt_cache_options ttl '30m' or '12h', not '1h'"),
                    (dict(prompt_cache_options=dict(mode='auto')), "mode 'implicit' or 'explicit'"),
                    (dict(prompt_cache_options='30m'), 'dict\\(ttl=..., mode=...\\)')]:
        with pytest.raises(ValueError, match=f"api='{api}' takes .*{msg}"): mk_request(['q'], api, model='gpt-5.6', **kw)
    from oracle import spec_errors  # the spec refuses what msgkit refuses
    name = 'CreateResponse' if api == 'openai' else 'CreateChatCompletionRequest'
    body = mk_request(['q'], api, model='gpt-5.6', wire=True)
    assert spec_errors({**body, 'prompt_cache_retention': 'forever'}, name) and not spec_errors({**body, 'prompt_cache_retention': '24h'}, name)
