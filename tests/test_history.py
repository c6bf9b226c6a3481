"""Any history in, any API out: histories in each API's form, each seed format and LangChain, rendered for all five APIs
and checked by the oracle; the pre-send repairs and loss reports, each pinned against the provider rule it follows."""
import base64, copy, json, warnings
import pytest
from msgkit import *
from msgkit import LossWarning, read_history, render_history
from oracle import (check, RULES, rules_gemini3, openai_response, anthropic_message, chat_completion, gemini_response, bedrock_response,
                    check_anthropic, check_openai, check_gemini, check_bedrock, check_openai_chat)

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
png = sample('gradient.png').read_bytes()
SIG = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'
SYSTEM, Q, ANSWER, THANKS = 'You are a weather bot.', "What's the weather in Paris?", 'Sunny, 18°C', 'Thanks!'

def losses(f, *a, **kw):
    "`(result, [loss dicts])` of `f(*a, **kw)`: every LossWarning it warned"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f(*a, **kw)
    return r, [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses]

def accept(api, req):
    "Check a whole `mk_request` result with the oracle: the messages and the system prompt in their slot"
    req = dict(req)
    for k in ('model', 'modelId', 'max_tokens'): req.pop(k, None)
    if api=='openai':  # every other field too: the SDK's types for each keyword, and the spec for the body
        check_openai(req['input'], **{k:v for k,v in req.items() if k!='input'}); RULES[api](req['input']); return req['input']
    if api=='openai_chat':
        check_openai_chat(req['messages'], **{k:v for k,v in req.items() if k!='messages'}); RULES[api](req['messages']); return req['messages']
    if api=='gemini':
        check_gemini(req['contents'], **req.get('config', {})); RULES[api](req['contents']); return req['contents']
    if api=='anthropic': check_anthropic(req['messages'], **{k:v for k,v in req.items() if k!='messages'}); RULES[api](req['messages']); return req['messages']
    check_bedrock(req['messages'], **{k:v for k,v in req.items() if k!='messages'}); RULES[api](req['messages']); return req['messages']

def system_of(api, req):
    if api=='openai': return req.get('instructions') or next((m['content'] for m in req['input'] if m.get('role')=='system'), None)
    if api=='openai_chat': return next(m['content'] for m in req['messages'] if m['role']=='system')
    if api=='gemini': return req['config']['system_instruction']
    if api=='bedrock': return req['system'][0]['text']
    return req['system']

# ---------------------------------------------------------------- histories in every form
CALL = dict(name='get_weather', args={'city': 'Paris'})

def api_form(src):
    "A tool loop in `src`'s own form: the history mk_msgs made for `src` from its SDK's responses (reasoning signed where it has any)"
    r1 = dict(openai=lambda: openai_response(text='Let me look.', tool_call=True),
              openai_chat=lambda: chat_completion(tool_call=True),
              anthropic=lambda: anthropic_message(text='Let me look.', tool_use=True),
              gemini=lambda: gemini_response(text='Let me look.', function_call=True),
              bedrock=lambda: bedrock_response(text='Let me look.', tool_use=True))[src]()
    c = tool_calls(r1)[0]
    h = [[Q, png], r1, mk_toolres(c, ANSWER, api=src), 'It is sunny.', THANKS]
    msgs = mk_msgs(h, api=src)
    return ([dict(role='system', content=SYSTEM)] if src in ('openai', 'openai_chat') else []) + jsonable(msgs) if src!='bedrock' else msgs, c

def verifiers():
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": [{"type": "text", "text": Q}, {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{base64.b64encode(png).decode()}"}}]},
            {"role": "assistant", "content": "Let me look.", "thinking_blocks": [{"type": "thinking", "thinking": "Call the tool.", "signature": SIG}],
             "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}]},
            {"role": "tool", "tool_call_id": "call_1", "content": ANSWER},
            {"role": "assistant", "content": "It is sunny.", "reasoning_content": "The tool said so."},
            {"role": "user", "content": THANKS}], 'anthropic'

def ant_ai():
    return [dict(kind='message', role='system', content=SYSTEM, metadata={}),
            dict(kind='message', role='user', content=Q, metadata={'channel': 'web'}),
            dict(kind='tool_call', role='assistant', content='Let me look.', metadata={},
                 tool_calls=[dict(id='call_1', type='function', function=dict(name='get_weather', arguments='{"city": "Paris"}'))]),
            dict(kind='tool_call_result', role='tool', content=ANSWER, tool_call_id='call_1', name='get_weather', is_error=False, metadata={}),
            dict(kind='message', role='assistant', content='It is sunny.', metadata={}),
            dict(kind='message', role='user', content=THANKS, metadata={})], None

def mmsp():
    return [{"role": "user", "content_items": [{"type": "text.done", "text": Q}, {"type": "inline_data.done", "data": png, "mime_type": "image/png"}]},
            {"role": "assistant", "content_items": [
                {"type": "thinking.done", "thinking": "Call the tool.", "fidelity": {"signature": SIG}},
                {"type": "text.done", "text": "Let me look."},
                {"type": "tool_call.done", "name": "get_weather", "arguments": {"city": "Paris"}, "tool_call_id": "call_1"}],
             "usage_metadata": {"cached_tokens": 0, "prompt_tokens": 412, "thoughts_tokens": 31, "response_tokens": 27},
             "finish_reason": "tool_call", "created_at": 1694502400000},
            {"role": "user", "content_items": [{"type": "tool_result.done", "text": ANSWER, "tool_call_id": "call_1", "images": [png]}]},
            {"role": "assistant", "content_items": [{"type": "text", "text": "It is sunny."}]},  # saved before 0.5.0
            {"role": "user", "content_items": [{"type": "text.done", "text": THANKS}]}], 'claude'

def tenxgraph():
    ref = dict(kind='data', data_base64=base64.b64encode(png).decode(), mime_type='image/png')
    return [dict(message_id='m0', role='system', content=[dict(type='text', text=SYSTEM)]),
            dict(message_id='m1', role='user', content=[dict(type='text', text=Q), dict(type='image', media=ref, alt_text='a map')]),
            dict(message_id='m2', role='assistant', content=[dict(type='reasoning', summary='Call the tool.'), dict(type='text', text='Let me look.'),
                                                             dict(type='tool_call', id='call_1', name='get_weather', args={'city': 'Paris'})],
                 usages=dict(completion_tokens=20, prompt_tokens=100, total_tokens=120)),
            dict(message_id='m3', role='tool', content=[dict(type='tool_result', call_id='call_1', output=[dict(type='text', text=ANSWER), dict(type='image', media=ref)])]),
            dict(message_id='m4', role='assistant', content=[dict(type='text', text='It is sunny.')]),
            dict(message_id='m5', role='user', content=[dict(type='text', text=THANKS)])], None

def langchain():
    from langchain_core.messages import HumanMessage, AIMessage, ToolMessage, SystemMessage
    ai = AIMessage(content=[dict(type='thinking', thinking='Call the tool.', signature=SIG), dict(type='text', text='Let me look.'),
                            dict(type='tool_use', id='toolu_01', name='get_weather', input={'city': 'Paris'})],
                   tool_calls=[dict(name='get_weather', args={'city': 'Paris'}, id='toolu_01')])
    return [SystemMessage(SYSTEM), HumanMessage(content=[dict(type='text', text=Q), dict(type='image', base64=base64.b64encode(png).decode(), mime_type='image/png')]),
            ai, ToolMessage(ANSWER, tool_call_id='toolu_01'), AIMessage('It is sunny.'), HumanMessage(THANKS)], 'anthropic'

def langchain_dicts():
    from langchain_core.messages import messages_to_dict
    h, own = langchain()
    return messages_to_dict(h), own

def openrouter():
    detail = dict(type='reasoning.text', text='Call the tool.', signature=SIG, format='anthropic-claude-v1', index=0)
    return [dict(role='system', content=SYSTEM), dict(role='user', content=Q),
            dict(role='assistant', content='Let me look.', reasoning_details=[detail], annotations=[],
                 tool_calls=[dict(id='call_1', type='function', function=dict(name='get_weather', arguments='{"city":"Paris"}'))]),
            dict(role='tool', tool_call_id='call_1', content=ANSWER), dict(role='assistant', content='It is sunny.'), dict(role='user', content=THANKS)], 'claude'

FORMATS = dict(verifiers=verifiers, ant_ai=ant_ai, mmsp=mmsp, tenxgraph=tenxgraph, langchain=langchain, langchain_dicts=langchain_dicts,
               openrouter=openrouter)

def own_apis(own):
    "The APIs that keep a format's signed reasoning: its own, or (for a Claude signature with no provider named) Anthropic and Bedrock"
    # Claude's signatures are compatible across platforms (the extended thinking docs): Anthropic's and Bedrock's alike
    return {'claude': {'anthropic', 'bedrock'}, None: set(), 'anthropic': {'anthropic', 'bedrock'},
            'bedrock': {'anthropic', 'bedrock'}}.get(own, {own})

@pytest.mark.parametrize('target', APIS)
@pytest.mark.parametrize('fmt', list(FORMATS))
def test_format_to_api(fmt, target):
    "A seed format's (or LangChain's) tool loop, with a system prompt, an image and signed reasoning, accepted by every API"
    h, own = FORMATS[fmt]()
    before = copy.deepcopy(h) if fmt not in ('langchain',) else None
    req, ls = losses(mk_request, h, target, model='m')
    if before is not None: assert h == before, 'input mutated'
    msgs = accept(target, req)
    if fmt!='mmsp': assert system_of(target, req) == SYSTEM
    text = msg_text(msgs)
    for t in (Q, 'Let me look.', 'It is sunny.', THANKS): assert t in text, t
    calls = tool_calls(msgs)
    assert [(c['name'], c['args']) for c in calls] == [(CALL['name'], CALL['args'])]
    res = [p for _, ps in read_parts(msgs) for p in ps if p.type=='tool_result']
    assert len(res)==1 and ANSWER in ''.join(p.text for p in res[0].content if p.type=='text')
    if target in ('anthropic', 'gemini', 'bedrock', 'openai'): assert res[0].id is None or res[0].id==calls[0]['id'] or target=='gemini'
    kept = [p for _, ps in read_parts(msgs) for p in ps if p.type=='thinking']
    if target in own_apis(own): assert [p.get('signature') for p in kept][:1] == [SIG], 'signed reasoning lost for its own API'
    else: assert not kept, kept
    if fmt!='ant_ai' and target not in own_apis(own): assert any(l['what'].startswith('reasoning') for l in ls), ls

@pytest.mark.parametrize('target', APIS)
@pytest.mark.parametrize('src', APIS)
def test_api_form_to_api(src, target):
    "A history in each API's own form (as its JSON, for Bedrock its dicts) goes to every API; a replay to its own API loses nothing"
    h, c = api_form(src)
    req, ls = losses(mk_request, h, target, model='m')
    msgs = accept(target, req)
    if target=='gemini' and src!='gemini': rules_gemini3(msgs)
    assert [(o['name'], o['args']) for o in tool_calls(msgs)] == [(c['name'], c['args'])]
    assert THANKS in msg_text(msgs) and 'It is sunny.' in msg_text(msgs)
    if src==target: assert not ls, ls
    elif src!='openai_chat' and target not in own_apis(src): assert any(l['what'].startswith('reasoning') for l in ls), ls

@pytest.mark.parametrize('api', APIS)
def test_same_api_replay_is_identical(api):
    "A history in an API's form goes back to that API exactly as it was (after JSON, bytes restored), reporting nothing"
    h, _ = api_form(api)
    h = [o for o in h if o.get('role')!='system']
    if api in ('gemini', 'bedrock'): h = mk_msgs(h, api=api)
    back, ls = losses(mk_msgs, json.loads(json.dumps(jsonable(h))), api=api)
    assert not ls
    assert back == (h if api not in ('gemini',) else mk_msgs(h, api=api))
    check(api, back)

@pytest.mark.parametrize('api', APIS)
def test_json_round_trip(api):
    "jsonable -> json -> mk_msgs gives the same messages (bytes back as bytes for Gemini and Bedrock: boto3 would base64 them again)"
    h = mk_msgs([[Q, png], gemini_response(function_call=True) if api=='gemini' else anthropic_message(tool_use=True)], api=api)
    back = mk_msgs(json.loads(json.dumps(jsonable(h))), api=api)
    assert back == h
    if api in ('gemini', 'bedrock'): check(api, back)

@pytest.mark.parametrize('api', APIS)
def test_neutral_history_round_trip(api):
    "The neutral history is public: read_history, its JSON, and render_history (as mk_msgs does) for any API"
    h, _ = mmsp()
    turns = read_history(h)
    assert [t.role for t in turns] == ['user', 'assistant', 'user', 'assistant', 'user']
    again = json.loads(json.dumps(jsonable(turns)))
    msgs = mk_msgs(again, api=api)
    assert msgs == mk_msgs(turns, api=api) == mk_msgs(h, api=api)
    check(api, msgs)
    assert render_history(turns, api)

# ---------------------------------------------------------------- the cases of the issue, one by one
CHAT_CALL = dict(role='assistant', content='Let me check.', tool_calls=[dict(id='call_1', type='function', function=dict(name='get_weather', arguments='{"city":"Paris"}'))])
CHAT_RES = dict(role='tool', tool_call_id='call_1', content='Sunny')

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('content', ['Let me check.', '', None])
def test_chat_tool_calls_to_any_api(api, content):
    "A Chat assistant message with tool calls (content text, '' as LangChain/Ollama/vLLM send, or None) is read, never copied"
    h = [Q, {**CHAT_CALL, 'content':content}, CHAT_RES]
    msgs = check(api, mk_msgs(h, api=api)) and mk_msgs(h, api=api)
    assert tool_calls(msgs)[0]['name']=='get_weather'

@pytest.mark.parametrize('api', APIS)
def test_completion_message_to_any_api(api):
    "`completion.choices[0].message` (with its `annotations: []`) and its dump go to any API"
    m = chat_completion(tool_call=True).choices[0].message
    c = tool_calls(m)[0]
    for x in (m, m.model_dump(), json.loads(m.model_dump_json())):
        msgs = mk_msgs([Q, x, mk_toolres(c, 'Sunny', api=api)], api=api)
        check(api, msgs)
        assert 'annotations' not in json.dumps(jsonable(msgs))

@pytest.mark.parametrize('mid', APIS)
@pytest.mark.parametrize('api', APIS)
def test_msgkit_output_to_another_api(mid, api):
    "msgkit's own output for one API goes to another: mk_msgs(mk_msgs(ant_hist, api=mid), api=api)"
    r = anthropic_message(tool_use=True, thinking=False)
    ant = mk_msgs([Q, r, mk_toolres(tool_calls(r)[0], 'Sunny', api='anthropic'), THANKS], api='anthropic')
    msgs = mk_msgs(mk_msgs(ant, api=mid), api=api)
    check(api, msgs)
    assert tool_calls(msgs)[0]['name']=='get_weather' and msg_text(msgs[-1])==THANKS

def test_keys_do_not_leak():
    "cache_control and citations stay out of Chat, a Responses `type` out of Anthropic, `name` and `reasoning_content` out of Responses"
    blk = dict(type='text', text='Cited.', cache_control=dict(type='ephemeral'),
               citations=[dict(type='char_location', cited_text='x', document_index=0, document_title=None, start_char_index=0, end_char_index=1)])
    msgs, ls = losses(mk_msgs, [dict(role='user', content=[dict(type='text', text='q', cache_control=dict(type='ephemeral'))]),
                                dict(role='assistant', content=[blk])], api='openai_chat')
    check('openai_chat', msgs)
    assert {l['what'] for l in ls} >= {'citations of a text block', 'cache_control of a text block'}
    msgs = mk_msgs([dict(type='message', role='user', content='hi'), dict(type='message', role='assistant', content=[dict(type='output_text', text='yo', annotations=[])])], api='anthropic')
    check('anthropic', msgs)
    msgs, ls = losses(mk_msgs, [dict(role='user', content='hi', name='bob'), dict(role='assistant', content='yo', reasoning_content='think')], api='openai')
    check('openai', msgs)
    assert 'name' not in json.dumps(msgs) and 'reasoning_content' not in json.dumps(msgs)
    assert [l['what'] for l in ls] == ["the name 'bob' of a user message", 'reasoning from an unnamed API']
    assert mk_msgs([dict(role='user', content='hi', name='bob')], api='openai_chat') == [dict(role='user', content='hi', name='bob')]

@pytest.mark.parametrize('api', ['anthropic', 'gemini', 'bedrock'])
def test_system_messages(api):
    "A history with system messages: mk_msgs names mk_request; mk_request lifts them after system= into the system slot"
    h = [dict(role='system', content='Be brief.'), dict(role='developer', content='Use metric units.'), 'hi']
    with pytest.raises(ValueError, match='mk_request'): mk_msgs(h, api=api)
    req = mk_request(h, api, model='m', system='You are a bot.')
    accept(api, req)
    assert system_of(api, req) == 'You are a bot.\n\nBe brief.\n\nUse metric units.'

def test_mk_request_takes_mk_msgs_options():
    "fetch=, cache_last_ckpt_only= and block options (detail=) go through mk_request"
    h = [dict(role='user', content=[dict(type='text', text='a', cache_control=dict(type='ephemeral'))]), 'b', 'c']
    req = mk_request(h, 'anthropic', model='m', cache=True, cache_last_ckpt_only=True)
    assert sum('cache_control' in b for m in req['messages'] if isinstance(m['content'], list) for b in m['content']) == 1
    assert mk_request([png], 'openai', model='m', detail='low')['input'][0]['content'][0]['detail'] == 'low'
    with pytest.raises(ValueError, match='fetch'): mk_request(['https://example.com/cat.png'], 'bedrock')

# ---------------------------------------------------------------- Anthropic's rules
def test_anthropic_results_first():
    "'In the user message containing tool results, the tool_result blocks must come FIRST in the content array'"
    c = dict(id='toolu_1', name='f', args={})
    turn = [dict(role='user', content=[dict(type='text', text='Here you go:'), dict(type='tool_result', tool_use_id='toolu_1', content='ok')])]
    msgs = mk_msgs([Q, mk_msg([tool_call_part_dict(c)], role='assistant', api='anthropic'), *turn], api='anthropic')
    check('anthropic', msgs)
    assert [b['type'] for b in msgs[2]['content']] == ['tool_result', 'text']
    with pytest.raises(AssertionError, match='tool_result blocks must come first'): check('anthropic', [msgs[0], msgs[1], turn[0]])

def tool_call_part_dict(c): return dict(type='tool_use', id=c['id'], name=c['name'], input=c['args'])

def test_anthropic_prefill_without_trailing_whitespace():
    "'final assistant content cannot end with trailing whitespace'"
    msgs = mk_msgs(['Write a haiku', 'Here it is:\n '], api='anthropic')
    check('anthropic', msgs)
    assert msgs[-1]['content'] == 'Here it is:'
    blocks = mk_msgs(['q', dict(role='assistant', content=[dict(type='text', text='a'), dict(type='text', text='b  ')])], api='anthropic')
    assert blocks[-1]['content'][-1]['text'] == 'b'
    with pytest.raises(AssertionError, match='trailing whitespace'): check('anthropic', [dict(role='user', content='q'), dict(role='assistant', content='x ')])

def test_anthropic_four_breakpoints():
    "'A maximum of 4 blocks with cache_control may be provided': a clear error naming cache_last_ckpt_only"
    h = [dict(role=('user', 'assistant')[i%2], content=[dict(type='text', text=f't{i}', cache_control=dict(type='ephemeral'))]) for i in range(5)]
    with pytest.raises(ValueError, match='cache_last_ckpt_only'): mk_msgs(h, api='anthropic')
    check('anthropic', mk_msgs(h, api='anthropic', cache=True, cache_last_ckpt_only=True))
    with pytest.raises(AssertionError, match='A maximum of 4'): check('anthropic', h)

def test_start_with_a_user_turn():
    "Bedrock: 'A conversation must start with a user message' (a ValidationException): a clear error"
    with pytest.raises(ValueError, match='starts with a user turn'): mk_msgs([dict(role='assistant', content='Hi!'), 'hello'], api='bedrock')
    with pytest.raises(AssertionError, match='start with a user'): RULES['bedrock']([dict(role='assistant', content=[dict(text='x')])])
    assert mk_msgs([dict(role='assistant', content='Hi!'), 'hello'], api='openai')[0]['role']=='assistant'

def test_anthropic_takes_an_assistant_turn_first():
    "issue 17: api.anthropic.com answered 200 to a history opening with the assistant's turn (pydantic-ai's cassette "
    "test_anthropic_model_empty_message_on_history): no longer refused"
    h = [dict(role='assistant', content=[dict(type='text', text='Hello, how can I help you?')]), 'I need a potato!']
    out = mk_msgs(h, api='anthropic')
    assert [m['role'] for m in out] == ['assistant', 'user']
    check('anthropic', out)

# ---------------------------------------------------------------- Responses' rules
def test_responses_user_text_after_tool_outputs():
    "A user turn holding tool results and text: the text comes after the function_call_output items"
    r = openai_response(tool_call=True, reasoning=False)
    c = tool_calls(r)[0]
    turn = mk_toolres(c, 'Sunny', api='anthropic')[0]
    turn = {**turn, 'content':turn['content'] + [dict(type='text', text='And tomorrow?')]}
    msgs = mk_msgs([Q, r, turn], api='openai')
    check('openai', msgs)
    assert [m.get('type') or m['role'] for m in msgs[-2:]] == ['function_call_output', 'user']
    with pytest.raises(AssertionError, match='before the outputs'): check('openai', msgs[:-2] + msgs[-1:] + msgs[-2:-1])

def test_responses_reasoning_without_its_item():
    "A reasoning item whose following item is gone (an incomplete response) is dropped and reported"
    r = openai_response(reasoning=True)
    its = mk_msg(r)
    assert its[0]['type']=='reasoning'
    msgs, ls = losses(mk_msgs, [Q, its[0], 'Go on'], api='openai')
    check('openai', msgs)
    assert not any(m.get('type')=='reasoning' for m in msgs) and 'reasoning item' in ls[0]['what']
    with pytest.raises(AssertionError, match='needs the item that followed it'): check('openai', [dict(role='user', content='q'), its[0], dict(role='user', content='x')])

# ---------------------------------------------------------------- merging, Bedrock documents
@pytest.mark.parametrize('api', ['anthropic', 'gemini', 'bedrock'])
def test_same_role_runs_merged(api):
    "20,000 consecutive user turns become one (merged in one pass, not pair by pair)"
    # (in another API's form: Anthropic takes its own consecutive turns as they came, and combines them itself)
    u = (lambda i: dict(role='user', content=[dict(type='input_text', text=f'm{i}')])) if api == 'anthropic' else \
        (lambda i: dict(role='user', content=f'm{i}'))
    msgs = mk_msgs([u(i) for i in range(20_000)] + [dict(role='assistant', content='ok')], api=api)
    assert len(msgs) == 2 and len(msgs[0].get('content') or msgs[0].get('parts')) == 20_000

def test_native_anthropic_runs_kept_as_given():
    "20,000 consecutive user turns in Anthropic's own form go back as they came, in one pass"
    h = [dict(role='user', content=f'm{i}') for i in range(20_000)] + [dict(role='assistant', content='ok')]
    msgs = mk_msgs(h, api='anthropic')
    assert [dict(m) for m in msgs] == h

def test_bedrock_document_text_after_merging():
    "'A text block must be included when using documents', checked after merging: a PDF then its question, as two user turns"
    pdf = sample('report.pdf').read_bytes()
    msgs = mk_msgs([dict(role='user', content=[pdf]), dict(role='user', content='Summarise it.')], api='bedrock')
    check('bedrock', msgs)
    with pytest.raises(ValueError, match='needs a text block'): mk_msgs([[pdf]], api='bedrock')

# ---------------------------------------------------------------- tool ids and tool groups
ODD = 'tooluse.bkqL:xyz/' + 'a'*80

@pytest.mark.parametrize('api', APIS)
def test_ids_mapped_to_each_api(api):
    "Ids with characters or lengths an API refuses are mapped deterministically, the same on call and result"
    c = dict(id=ODD, name='f', args={'x': 1})
    h = [Q, dict(role='assistant', content=None, tool_calls=[dict(id=ODD, type='function', function=dict(name='f', arguments='{"x": 1}'))]),
         dict(role='tool', tool_call_id=ODD, content='ok'), THANKS]
    a, b = mk_msgs(h, api=api), mk_msgs(h, api=api)
    assert a == b
    check(api, a)
    ids = [c['id'] for c in tool_calls(a)]
    if api in ('anthropic', 'bedrock', 'openai'): assert ids[0] != ODD
    if api in ('bedrock', 'openai'): assert len(ids[0]) <= 64
    if api=='openai_chat': assert ids == [ODD] if len(ODD) <= 40 else len(ids[0]) <= 40  # "maximum length 40"

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_oracle_refuses_bad_ids(api):
    m = mk_msgs([Q, dict(role='assistant', content=[dict(type='tool_use', id='toolu_1', name='f', input={})])], api='anthropic')
    bad = json.loads(json.dumps(m).replace('toolu_1', 'tool.1'))
    if api=='bedrock': bad = [dict(role='user', content=[dict(text=Q)]), dict(role='assistant', content=[dict(toolUse=dict(toolUseId='tool.1', name='f', input={}))])]
    with pytest.raises(AssertionError, match='pattern|ToolUseId'): check(api, bad)

def test_oracle_refuses_long_call_ids():
    with pytest.raises(AssertionError, match='string too long'):
        check('openai', [dict(role='user', content='q'), dict(type='function_call', call_id='c'*65, name='f', arguments='{}')])

@pytest.mark.parametrize('api', APIS)
def test_incomplete_tool_groups(api):
    "A call without its result (an interrupted loop) and a result without its call (a window cut) are dropped and reported"
    c1 = dict(id='call_1', type='function', function=dict(name='f', arguments='{}'))
    h = [dict(role='tool', tool_call_id='call_0', content='orphan'), dict(role='user', content=Q), dict(role='assistant', content='Checking.', tool_calls=[c1]), 'Never mind. Hi!']
    msgs, ls = losses(mk_msgs, h, api=api)
    check(api, msgs)
    assert not tool_calls(msgs)
    assert sorted(l['what'] for l in ls) == ['tool call f (call_1)', 'tool result for call_0']
    assert msg_text(msgs).startswith(Q) if api!='openai' else True

@pytest.mark.parametrize('api', APIS)
def test_awaiting_calls_kept(api):
    "The last turn's calls await their results: they stay"
    msgs, ls = losses(mk_msgs, [Q, CHAT_CALL], api=api)
    assert tool_calls(msgs)[0]['name']=='get_weather' and not ls

@pytest.mark.parametrize('args', ['[1, 2]', '"text"', '3'])
def test_arguments_must_be_an_object(args):
    h = [Q, dict(role='assistant', content=None, tool_calls=[dict(id='call_7', type='function', function=dict(name='f', arguments=args))]),
         dict(role='tool', tool_call_id='call_7', content='ok')]
    with pytest.raises(ValueError, match="Tool call 'f' \\(id 'call_7'\\)"): mk_msgs(h, api='anthropic')

# ---------------------------------------------------------------- Gemini's placeholder signatures, joined text, reasoning for compatible servers
@pytest.mark.parametrize('src', ['openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_gemini_placeholder_signature(src):
    "Calls from another API carry Google's documented stand-in thought_signature (Gemini 3 refuses calls without one)"
    h, _ = api_form(src)
    msgs = mk_request(h, 'gemini', model='gemini-3-pro-preview')['contents']
    rules_gemini3(msgs)
    sigs = [p['thought_signature'] for m in msgs for p in m['parts'] if 'function_call' in p]
    assert sigs == [b'skip_thought_signature_validator']
    with pytest.raises(AssertionError, match='missing a thought_signature'):
        rules_gemini3([dict(role='model', parts=[dict(function_call=dict(name='f', args={}))])])

def test_gemini_own_calls_keep_their_signature():
    r = gemini_response(function_call=True)
    msgs = mk_msgs([Q, r], api='gemini')
    assert b'skip_thought_signature_validator' not in [p.get('thought_signature') for p in msgs[1]['parts']]

@pytest.mark.parametrize('api', ['openai', 'openai_chat'])
def test_text_joined_as_written(api):
    "issue 17 item 3: where one string is needed, text split by citations joins as written, other blocks by a blank line"
    cite = [dict(type='char_location', cited_text='18°C', document_index=0, document_title='Weather', start_char_index=0, end_char_index=4)]
    blocks = [dict(type='text', text='It is '), dict(type='text', text='18°C', citations=cite), dict(type='text', text=' in Paris.'),
              dict(type='text', text='Humidity is low.'), dict(type='tool_use', id='toolu_1', name='f', input={})]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', LossWarning)  # the citations themselves have no place there
        msgs = mk_msgs([Q, dict(role='assistant', content=blocks)], api=api)
    assert msgs[1]['content'] == 'It is 18°C in Paris.\n\nHumidity is low.'

def test_reasoning_field_for_compatible_servers():
    "reasoning_field= gives DeepSeek/Kimi their reasoning_content and OpenRouter its reasoning_details back; the rest is Chat"
    h, _ = openrouter()
    msgs = mk_msgs(h, api='openai_chat', reasoning_field='reasoning_details')
    assert msgs[2]['reasoning_details'] == h[2]['reasoning_details']
    check('openai_chat', [{k:v for k,v in m.items() if k!='reasoning_details'} for m in msgs])
    ds = mk_msgs([Q, dict(role='assistant', content='', reasoning_content='Think.', tool_calls=CHAT_CALL['tool_calls']), CHAT_RES], api='openai_chat', reasoning_field='reasoning_content')
    assert ds[1]['reasoning_content'] == 'Think.'
    plain, ls = losses(mk_msgs, h, api='openai_chat')
    check('openai_chat', plain)
    assert 'reasoning_details' not in json.dumps(plain) and ls
    with pytest.raises(ValueError, match='reasoning_field'): mk_msgs(h, api='openai_chat', reasoning_field='thoughts')

# ---------------------------------------------------------------- LossWarning
def test_loss_warning_is_one_per_call_and_can_be_strict():
    r = anthropic_message(thinking=True)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        mk_msgs([Q, r, THANKS], api='openai')
    lw = [w for w in ws if issubclass(w.category, LossWarning)]
    assert len(lw) == 1 and issubclass(LossWarning, UserWarning)
    assert lw[0].message.losses == [dict(where='msgs[1] part 0', what='reasoning from anthropic', why='only anthropic can read it')]
    with warnings.catch_warnings():
        warnings.simplefilter('error', LossWarning)
        with pytest.raises(LossWarning, match='reasoning from anthropic'): mk_msgs([Q, r], api='gemini')
        mk_msgs([Q, r], api='anthropic')  # a same-API replay loses nothing

def test_losses_of_documents_and_error_flags():
    "A PDF's title for Gemini, an error flag for Chat and Responses: reported"
    pdf = sample('report.pdf').read_bytes()
    _, ls = losses(mk_msg, [mk_doc(pdf, api=None, title='Q3', context='Board pack'), 'Summarise'], api='gemini')
    assert [l['what'] for l in ls] == ["a PDF's title and context"]
    c = dict(id='call_1', name='f', args={})
    for api in ('openai', 'openai_chat'):
        _, ls = losses(mk_toolres, c, 'boom', api=api, is_error=True)
        assert [l['what'] for l in ls] == ['the error flag of a tool result']

# ---------------------------------------------------------------- calls that await their results, tuples, provenance
AWAIT = dict(verifiers=3, ant_ai=3, mmsp=2, tenxgraph=3, langchain=3, langchain_dicts=3, openrouter=3)

@pytest.mark.parametrize('target', APIS)
@pytest.mark.parametrize('fmt', list(FORMATS))
def test_format_awaiting_results(fmt, target):
    "A format's history cut right after the model's tool call (its result is still being computed) keeps the call in a "
    "history (mk_msgs); a request can't send it (issue 17 item 7: every API answers a 400): left out, reported"
    h, _ = FORMATS[fmt]()
    if target in ('openai', 'openai_chat'):  # the others take a leading system message only in mk_request
        msgs, ls = losses(mk_msgs, h[:AWAIT[fmt]], target)
        assert [c['name'] for c in tool_calls(msgs)] == ['get_weather']
        assert not [l for l in ls if l['what'].startswith('tool')]
    req, ls = losses(mk_request, h[:AWAIT[fmt]], target, model='m')
    assert tool_calls(accept(target, req)) == []
    assert [l['what'] for l in ls if l['what'].startswith('tool call get_weather')]

@pytest.mark.parametrize('api', APIS)
def test_langchain_tuples(api):
    msgs = mk_msgs([('system', SYSTEM), ('human', Q), ('ai', 'Sunny.'), ('user', THANKS)][1:], api=api)
    check(api, msgs)
    assert msg_text(msgs) == f'{Q}\n\nSunny.\n\n{THANKS}'
    assert system_of(api, mk_request([('system', SYSTEM), ('human', Q)], api, model='m')) == SYSTEM

def test_provenance():
    "Turns from a response know the API and the model that made them"
    t = read_history([Q, anthropic_message(), gemini_response(), openai_response()])
    assert [(o.get('src'), o.get('model')) for o in t] == [(None, None), ('anthropic', 'claude-sonnet-4-5-20250929'), ('gemini', 'gemini-2.5-flash'),
                                                            ('openai', t[3].get('model')), ('openai', t[3].get('model'))][:len(t)]
    assert t[3]['model']

# ---------------------------------------------------------------- regressions from review
def test_langchain_stream_chunk_tool_calls_win():
    "A streamed AIMessageChunk's tool_use block holds input {}: LangChain's tool_calls are the source of truth"
    from langchain_core.messages import HumanMessage, AIMessageChunk, ToolMessage, AIMessage
    ai = AIMessageChunk(content=[{'type':'text','text':'Let me check','index':0},
                                 {'type':'tool_use','id':'toolu_1','name':'w','input':{},'index':1,'partial_json':'{"city": "Paris"}'}],
                        tool_call_chunks=[dict(name='w', args='{"city": "Paris"}', id='toolu_1', index=1)])
    h = [HumanMessage('weather?'), ai, ToolMessage('Sunny', tool_call_id='toolu_1'), AIMessage('sunny'), HumanMessage('thanks')]
    for api in APIS:
        msgs = mk_msgs(h, api=api)
        check(api, msgs)
        assert [c['args'] for c in tool_calls(msgs)] == [{'city': 'Paris'}], api

def test_langchain_legacy_function_call():
    from langchain_core.messages import HumanMessage, AIMessage, FunctionMessage
    h = [HumanMessage('x'), AIMessage('', additional_kwargs={'function_call':{'name':'f','arguments':'{"a": 1}'}}), FunctionMessage(name='f', content='res'),
         AIMessage('ok'), HumanMessage('y')]
    for api in APIS:
        msgs = mk_msgs(h, api=api)
        check(api, msgs)
        assert [(c['name'], c['args']) for c in tool_calls(msgs)] == [('f', {'a': 1})]

@pytest.mark.parametrize('api', ['bedrock'])
def test_window_cut_at_tool_results(api):
    "A window that starts with tool results: the orphans are dropped, then the start is checked (a clear error, not a 400)"
    h = [dict(role='tool', tool_call_id='call_1', content='Sunny'), dict(role='assistant', content='It is sunny'), dict(role='user', content='thanks')]
    with pytest.raises(ValueError, match='starts with a user turn'): mk_msgs(h, api=api)
    check(api, mk_msgs(h[:1] + [dict(role='user', content='and now?')] + h[1:], api=api))

def test_system_cache_marks_kept():
    "A cache mark on an Anthropic system block stays in `system` (and counts against the 4); Bedrock's cache points likewise"
    sysm = dict(role='system', content=[dict(type='text', text='Long system', cache_control={'type':'ephemeral'})])
    r = mk_request([sysm, 'hi'], 'anthropic', model='m')
    assert r['system'] == sysm['content']
    check_anthropic(r['messages'], system=r['system'])
    four = [dict(role=('user', 'assistant')[i%2], content=[dict(type='text', text=f't{i}', cache_control=dict(type='ephemeral'))]) for i in range(5)][:4] + ['q']
    with pytest.raises(ValueError, match='at most 4 cache breakpoints'): mk_request([sysm] + four[:4] + [four[0]], 'anthropic', model='m')
    r = mk_request([dict(role='system', content=[{'text':'Long'}, {'cachePoint':{'type':'default'}}]), 'hi'], 'bedrock', model='m')
    assert r['system'] == [{'text':'Long'}, {'cachePoint':{'type':'default'}}]
    check_bedrock(r['messages'], system=r['system'])
    r, ls = losses(mk_request, [sysm, 'hi'], 'gemini', model='m')
    assert r['config']['system_instruction'] == 'Long system' and ls[0]['what'] == 'cache_control of a system prompt'
    # issue 17 item 2: a system message mid-history moves to the system prompt (reported) where the API has no such role
    r, ls = losses(mk_request, ['hi', dict(role='system', content='x'), 'a'], 'gemini')
    assert r['config']['system_instruction'] == 'x' and 'moved to the system prompt' in ls[0]['why']

def test_same_api_replay_of_sdk_dumps():
    "A Chat message's to_dict() (annotations: [], refusal: None) and Responses items' model_dump() (async_) replay unchanged"
    from openai.types.chat import ChatCompletion
    d = chat_completion(tool_call=True).model_dump()
    d['choices'][0]['message']['tool_calls'][0]['function']['arguments'] = '{"city":"Paris", "n": 1.0}'
    m = ChatCompletion.model_validate(d).choices[0].message.to_dict()
    msgs, ls = losses(mk_msgs, ['hello', m, dict(role='tool', tool_call_id=m['tool_calls'][0]['id'], content='ok')], api='openai_chat')
    assert msgs[1]['tool_calls'] == m['tool_calls'] and not ls
    r = openai_response(text='Hi', tool_call=True)
    items = [o.model_dump() for o in r.output]
    msgs = mk_msgs(['q'] + items + [mk_toolres(tool_calls(r)[0], 'ok')], api='openai')
    check('openai', msgs)
    fc = next(o for o in msgs if o.get('type')=='function_call')
    assert fc['id'] == r.output[-1].id and fc['arguments'] == r.output[-1].arguments

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
@pytest.mark.parametrize('h', [['hi', dict(role='assistant', content=''), 'again'],
                               ['hi', dict(role='assistant', content=[dict(type='text', text='')]), 'again'],
                               [dict(role='user', content=[dict(type='text', text='hi'), dict(type='text', text='  ')]), 'ok', 'again'],
                               ['hi', dict(role='assistant', content='   ')],
                               ['hi', dict(role='assistant', content=[dict(type='text', text='a'), dict(type='text', text=' ')])],
                               ['hi', 'Hello  ']])
def test_blank_text_and_prefills(api, h):
    "'text content blocks must contain non-whitespace text', 'final assistant content cannot end with trailing whitespace'"
    msgs = mk_msgs(h, api=api)
    check(api, msgs)
    if api=='bedrock' and msgs[-1]['role']=='assistant': assert msgs[-1]['content'][-1]['text'] == msgs[-1]['content'][-1]['text'].rstrip()

def test_responses_output_message_without_ids():
    "An output message stripped of id and status (store=False) is not the Responses form: it is rendered"
    for m in (dict(role='assistant', content=[dict(type='output_text', text='a', annotations=[])]),
              dict(type='message', role='assistant', content=[dict(type='output_text', text='a')])):
        msgs = mk_msgs(['q', m, 'z'], api='openai')
        check('openai', msgs)
        assert msgs[1] == dict(role='assistant', content='a')

def test_unsigned_thinking_blocks():
    msgs, ls = losses(mk_msgs, ['q', dict(role='assistant', content='a', thinking_blocks=[dict(type='thinking', thinking='t')]), 'z'], api='anthropic')
    check('anthropic', msgs)
    assert ls[0]['what'] == 'reasoning from an unnamed API'

@pytest.mark.parametrize('api', APIS)
def test_empty_ids(api):
    "Empty call ids are no ids: calls and results get made ids, the same on both, distinct for parallel calls"
    call = lambda n: dict(id='', type='function', function=dict(name=n, arguments='{}'))
    h = ['q1', dict(role='assistant', content=None, tool_calls=[call('w'), call('v')]),
         dict(role='tool', tool_call_id='', name='w', content='a'), dict(role='tool', tool_call_id='', name='v', content='b'), 'next']
    msgs = mk_msgs(h, api=api)
    check(api, msgs)
    ids = [c['id'] for c in tool_calls(msgs)]
    if api!='gemini': assert len(set(ids)) == 2 and all(ids)

def test_gemini_signatures_reported_elsewhere():
    h = [{'role':'user','parts':[{'text':'q'}]}, {'role':'model','parts':[{'function_call':{'name':'w','args':{}}, 'thought_signature': b'abc'}]},
         {'role':'user','parts':[{'function_response':{'name':'w','response':{'output':'x'}}}]}]
    msgs, ls = losses(mk_msgs, h, api='anthropic')
    check('anthropic', msgs)
    assert [l['what'] for l in ls] == ['the thought signature of tool call w']
    back, ls = losses(mk_msgs, h, api='gemini')
    assert back == h and not ls

def test_gemini_dump_with_none_fields():
    "A Gemini Content.model_dump() that keeps its None fields replays to Gemini as it is, and goes to other APIs"
    c = gemini_response(function_call=True).candidates[0].content.model_dump()
    msgs = mk_msgs(['q', c], api='gemini')
    check('gemini', msgs)
    assert msgs[1] == gemini_response(function_call=True).candidates[0].content.model_dump(exclude_none=True)
    check('anthropic', mk_msgs(['q', c, 'next'], api='anthropic'))

def test_chat_tool_message_without_content():
    msgs = mk_msgs(['q', CHAT_CALL, dict(role='tool', tool_call_id='call_1', content=None)], api='anthropic')
    check('anthropic', msgs)

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_cache_ttl_order(api):
    "'cache entries with longer TTL must appear before shorter TTLs': a 1h mark after a 5m one is a clear error"
    mark = dict(type='text', text='doc', cache_control={'type':'ephemeral'}) if api=='anthropic' else None
    first = dict(role='user', content=[mark]) if api=='anthropic' else dict(role='user', content=[{'text':'doc'}, {'cachePoint':{'type':'default'}}])
    h = [first, dict(role='assistant', content='ok'), dict(role='user', content='q')]
    with pytest.raises(ValueError, match='1h cache marks before 5m'): mk_msgs(h, api=api, cache=True, ttl='1h')
    check(api, mk_msgs(h, api=api, cache=True, ttl='1h', cache_last_ckpt_only=True))
    if api=='anthropic':
        with pytest.raises(AssertionError, match='a 1h cache_control after a 5m'):
            check(api, [first, dict(role='assistant', content='ok'), dict(role='user', content=[dict(type='text', text='q', cache_control={'type':'ephemeral', 'ttl':'1h'})])])

def test_bedrock_document_without_name():
    msgs = mk_msgs([{'role':'user','content':[{'text':'x'},{'document':{'format':'pdf','source':{'bytes':sample('report.pdf').read_bytes()}}}]}], api='bedrock')
    check('bedrock', msgs)

def test_required_keys_missing_are_rendered():
    "A block that lacks a key its type requires (detail, media_type) is not the API's form: it is rendered, the key filled"
    m = mk_msgs([{'role':'user','content':[{'type':'input_image','image_url':'https://example.com/a.png'}]}], api='openai')
    check('openai', m)
    a = mk_msgs([{'role':'user','content':[{'type':'image','source':{'type':'base64','data':base64.b64encode(png).decode()}}]}], api='anthropic')
    check('anthropic', a)

def test_langchain_openai_reasoning_goes_back_to_openai():
    "langchain-openai's reasoning block (a Responses reasoning item) goes back whole to OpenAI, before the call it led to"
    from langchain_core.messages import AIMessage, ToolMessage
    rs = {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"sum"}], "encrypted_content":"gAAA"}
    fc = {'type':'function_call','id':'fc_1','call_id':'c1','name':'f','arguments':'{}'}
    msgs, ls = losses(mk_msgs, ['q', AIMessage(content=[rs, fc]), ToolMessage('1', tool_call_id='c1')], api='openai')
    check('openai', msgs)
    assert msgs[1] == dict(type='reasoning', id='rs_1', summary=[{"type":"summary_text","text":"sum"}], encrypted_content='gAAA') and not ls
    # before text with no message id it is not that item's pair ("provided without its required following item")
    m = AIMessage(content=[rs, {"type":"text","text":"ok"}])
    msgs, ls = losses(mk_msgs, ['q', m, 'next'], api='openai')
    assert msgs[1] == dict(role='assistant', content='ok') and ls[0]['what'] == 'reasoning item rs_1'
    _, ls = losses(mk_msgs, ['q', m, 'next'], api='anthropic')
    assert ls[0]['why'] == 'only openai can read it'

def test_openrouter_openai_reasoning_goes_back_to_openai():
    e = dict(type='reasoning.encrypted', id='rs_2', data='gAAAB', format='openai-responses-v1', index=0)
    tc = dict(id='c1', type='function', function=dict(name='f', arguments='{}'))
    h = ['q', dict(role='assistant', content=None, tool_calls=[tc], reasoning_details=[e]), dict(role='tool', tool_call_id='c1', content='1')]
    msgs = mk_msgs(h, api='openai')
    check('openai', msgs)
    assert msgs[1] == dict(type='reasoning', id='rs_2', summary=[], encrypted_content='gAAAB')

def test_langchain_rest():
    "ChatMessage in messages_to_dict form, finish_reason from response_metadata, invalid tool calls reported"
    from langchain_core.messages import AIMessage, ChatMessage, HumanMessage, messages_to_dict
    assert mk_msgs([HumanMessage('hi')] + messages_to_dict([ChatMessage(role='assistant', content='hello')]), api='openai')[1] == dict(role='assistant', content='hello')
    assert finish_reason(AIMessage(content='done', response_metadata={'finish_reason':'stop'})) == 'stop'
    assert finish_reason(AIMessage(content='', response_metadata={'stop_reason':'tool_use'})) == 'tool_call'
    m = AIMessage(content="x", invalid_tool_calls=[{"id":"c9","name":"f","args":"{bad","error":"bad json","type":"invalid_tool_call"}])
    _, ls = losses(mk_msg, m, api='anthropic')
    assert ls[0]['what'] == 'the arguments of the invalid tool call f (c9)'

def test_invalid_json_arguments_name_the_call():
    h = ['q', {'role':'assistant','content':None,'tool_calls':[{'id':'c1','type':'function','function':{'name':'f','arguments':'{bad'}}]},
         {'role':'tool','tool_call_id':'c1','content':'x'}]
    with pytest.raises(ValueError, match="Tool call 'f': its arguments are not valid JSON"): mk_msgs(h, api='anthropic')

def test_bare_bedrock_tool_use_answered():
    r = bedrock_response(tool_use=True)
    tu = next(b['toolUse'] for b in r['output']['message']['content'] if 'toolUse' in b)
    assert mk_toolres(tu, 'ok', api='bedrock')[0]['content'][0]['toolResult']['toolUseId'] == tu['toolUseId']

def test_bad_base64_is_a_clear_error():
    with pytest.raises(ValueError, match='Malformed openai_chat (block|item)'):
        mk_msgs([{'role':'user','content':[{'type':'input_audio','input_audio':{'data':'xx', 'format':'wav'}}]}], api='openai')

@pytest.mark.parametrize('api', APIS)
def test_tenxgraph_tool_output_forms(api):
    "10xGraph tool results whose output is a str, a dict, a MediaRef or blocks"
    ref = dict(kind='data', data_base64=base64.b64encode(png).decode(), mime_type='image/png')
    outs = ['plain', {'a': 1}, ref, [dict(type='text', text='see'), dict(type='image', media=ref)]]
    for out in outs:
        h = [dict(message_id='1', role='user', content=[dict(type='text', text=Q)]),
             dict(message_id='2', role='assistant', content=[dict(type='tool_call', id='call_1', name='f', args={})]),
             dict(message_id='3', role='tool', content=[dict(type='tool_result', call_id='call_1', output=out)]),
             dict(message_id='4', role='user', content=[dict(type='text', text=THANKS)])]
        msgs = mk_msgs(h, api=api)
        check(api, msgs)
        res = [p for _, ps in read_parts(msgs) for p in ps if p.type=='tool_result'][0]
        if isinstance(out, dict) and 'kind' not in out: assert json.loads(res.content[0].text) == out

def test_responses_items_replay_whole():
    "A Responses item msgkit has no shape for the keys of (a newer SDK's field) still goes back to OpenAI whole"
    item = dict(type='web_search_call', id='ws_1', status='completed', action=dict(type='search', query='x'), new_field=1)
    msgs, ls = losses(mk_msgs, ['q', item, dict(type='message', id='msg_1', role='assistant', status='completed',
                                                 content=[dict(type='output_text', text='a', annotations=[], logprobs=[])]), 'z'], api='openai')
    assert msgs[1] == item and not ls
