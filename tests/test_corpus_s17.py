"""Session 17: the classes the corpus of four new sources found (tests/corpus/openai_agents.json, vercel_ai.json,
py_frameworks.json, compat_servers.json: the OpenAI Agents SDK, the Vercel AI SDK's provider tests, Python frameworks'
tests and cassettes, OpenAI-compatible servers' tests and recorded bodies), each fixed and pinned here against the
oracle (the SDKs' request types, the OpenAPI spec, the rules only the providers' errors state), and the oracle's new
rules given inputs that make them fail."""
import base64, copy, json
import pytest
import corpus_check as cc, oracle
import msgkit

from test_corpus17_d import case, losses, judged  # (a case by id, the losses of a call, the corpus judge's failures)

Q = dict(role='user', content="What's the weather?")
CALL = dict(type='function_call', call_id='call_1', name='get_weather', arguments='{"city": "Paris"}')
FCO = dict(type='function_call_output', call_id='call_1', output='20C')

# ---------------------------------------------------------------- the oracle's new rules, each made to fail
@pytest.mark.parametrize('item,prefix', [
    (dict(type='reasoning', id='__fake_id__', summary=[], encrypted_content='gAAA'), 'rs'),
    (dict(CALL, id='call_1'), 'fc'),
    (dict(type='message', id='42', role='assistant', status='completed',
          content=[dict(type='output_text', text='Hi', annotations=[], logprobs=[])]), 'msg')])
def test_oracle_item_id_prefix(item, prefix):
    "OpenAI refuses an input item's id another server made: \"Expected an ID that begins with 'rs'\" (and 'fc', 'msg')"
    h = [Q, item] + ([dict(CALL, id='fc_1')] if item['type'] == 'reasoning' else []) + \
        ([dict(type='function_call_output', call_id='call_1', output='20C')] if item['type'] != 'message' else [])
    with pytest.raises(AssertionError, match=f"begins with '{prefix}'"): oracle.check('openai', h)
    good = dict(item, id=prefix + '_1')
    oracle.check('openai', [good if o is item else o for o in h])

def test_oracle_item_id_chars():
    "\"Expected an ID that contains letters, numbers, underscores, or dashes\" (RooCodeInc/Roo-Code#9839)"
    r = dict(type='reasoning', id='rs_0a:4', summary=[], encrypted_content='gAAA')
    with pytest.raises(AssertionError, match='letters, numbers'): oracle.check('openai', [Q, r, dict(CALL, id='fc_1'),
        dict(type='function_call_output', call_id='call_1', output='20C')])

def test_oracle_chat_id_max():
    "Chat's tool_calls[].id: \"Expected a string with maximum length 40\" (agno-agi/agno#5382); msgkit's are within"
    i = 'chatcmpl-tool-' + 'a' * 32  # vLLM's 46 characters
    fn = dict(name='f', arguments='{}')
    h = [Q, dict(role='assistant', content=None, tool_calls=[dict(id=i, type='function', function=fn)]),
         dict(role='tool', tool_call_id=i, content='ok')]
    with pytest.raises(AssertionError, match='too long'): oracle.check('openai_chat', h)
    r, ls = losses(lambda: msgkit.mk_msgs(h, 'openai_chat'))
    oracle.check('openai_chat', r)
    assert len(r[1]['tool_calls'][0]['id']) == 40 and r[2]['tool_call_id'] == r[1]['tool_calls'][0]['id']

def test_oracle_mcp_approval_response():
    "The spec's MCPApprovalResponse requires a `request_id` it never defines: no body could pass; the SDK's keys do"
    h = [Q, dict(type='mcp_approval_request', id='mcpr_1', name='f', arguments='{}', server_label='s'),
         dict(type='mcp_approval_response', approval_request_id='mcpr_1', approve=True)]
    oracle.check('openai', h)
    with pytest.raises(Exception): oracle.check('openai', h[:2] + [dict(type='mcp_approval_response', approve=True)])

# ---------------------------------------------------------------- OpenAI: items as the API takes them back
def test_output_items_are_items_not_responses():
    "An SDK output item with an `output` (a call's output, a shell call's) is an item: it read as a `Response` before"
    from openai.types.responses import ResponseFunctionToolCall, ResponseFunctionToolCallOutputItem
    fc = ResponseFunctionToolCall(type='function_call', call_id='call_1', name='get_weather', arguments='{}', id='fc_1',
                                  status='completed')
    fo = ResponseFunctionToolCallOutputItem(id='fco_1', call_id='call_1', output='20C', status='completed',
                                            type='function_call_output', created_by='program_1')
    for api in ('openai', 'anthropic', 'gemini', 'bedrock', 'openai_chat'):
        r = msgkit.mk_msgs([Q, fc, fo], api)
        oracle.check(api, r)
    r = msgkit.mk_msgs([Q, fc, fo], 'openai')
    assert r[2]['output'] == '20C' and 'created_by' not in r[2]

def test_compacted_response_read():
    "`responses.compact`'s `CompactedResponse` (object 'response.compaction') goes back as its output items"
    from openai.types.responses import CompactedResponse
    usage = dict(input_tokens=1, output_tokens=1, total_tokens=2, output_tokens_details=dict(reasoning_tokens=0),
                 input_tokens_details=dict(cached_tokens=0, cache_write_tokens=0))
    out = [dict(type='message', id='msg_1', role='assistant', status='completed',
                content=[dict(type='output_text', text='Hi', annotations=[])]),
           dict(type='compaction', id='cmp_1', encrypted_content='gAAA')]
    cr = dict(id='resp_1', object='response.compaction', created_at=1, usage=usage, output=out)
    cr = CompactedResponse.model_validate(cr)
    r = msgkit.mk_msgs([cr, 'And now?'], 'openai')
    assert [o.get('type') for o in r[:2]] == ['message', 'compaction'] and r[-1]['content'] == 'And now?'
    oracle.check('openai', r)

def test_created_by_stripped():
    "An output item's `created_by` (and its shell output chunks') is output alone: no input item has it"
    c = case('oa-agents-ih-tool-search-created-by-sdk')
    r = msgkit.mk_msgs(cc.history(c), 'openai')
    assert 'created_by' not in json.dumps(r)
    for i in ('oa-agents-ih-tool-search-created-by-sdk', 'oa-agents-ih-shell-call-output-nested-created-by-sdk'):
        assert [f for how in cc.HOWS for f in judged(case(i), 'openai', how) if 'created_by' in str(f)] == []

def test_foreign_call_id_dropped():
    "A call's item id another server made goes (it pairs by `call_id`); the API's own `fc_` id stays"
    c = case('oa-agents-ho-tool-call-then-handoff')
    r, ls = losses(lambda: msgkit.mk_msgs(cc.history(c), 'openai'))
    assert [o.get('id') for o in r if o.get('type') == 'function_call'] == [None, None] and not ls
    oracle.check('openai', r)
    kept = msgkit.mk_msgs([Q, dict(CALL, id='fc_1'), FCO], 'openai')
    assert kept[1]['id'] == 'fc_1'

def test_reasoning_items_as_the_api_takes_them():
    "A reasoning item's foreign fields (`provider_data`) and `None`s go; one not OpenAI's (its id) is left out, told"
    sm = [dict(type='summary_text', text='Thinking')]
    rs = dict(type='reasoning', id='rs_1', summary=sm, encrypted_content='gAAA', content=None, status=None,
              provider_data=dict(model='gpt-5'))
    r = msgkit.mk_msgs([Q, rs, dict(CALL, id='fc_1'), FCO], 'openai')
    assert r[1] == dict(type='reasoning', id='rs_1', summary=sm, encrypted_content='gAAA')
    oracle.check('openai', r)
    fake = dict(rs, id='__fake_id__')
    r, ls = losses(lambda: msgkit.mk_msgs([Q, fake, dict(CALL, id='fc_1'), FCO], 'openai'))
    assert [o.get('type') for o in r] == [None, 'function_call', 'function_call_output']
    assert any('reasoning' in l['what'] for l in ls)
    oracle.check('openai', r)
    for i in ('oa-agents-ds-reasoning-none-fields-deepseek', 'oa-agents-rh-reasoning-text-with-signature',
              'pai-openai-test_deepseek_responses-test_deepseek_responses[function_tool]-req'):
        assert judged(case(i), 'openai', 'mk_msgs') == [], i

def test_message_with_foreign_id_as_text():
    "An assistant message whose id another server made goes back as the assistant's text (no id), not refused by OpenAI"
    m = dict(type='message', id='42', role='assistant', status='completed',
             content=[dict(type='output_text', text='Part 1', annotations=[], logprobs=[])])
    r = msgkit.mk_msgs([Q, m, 'more'], 'openai')
    assert r[1] == dict(role='assistant', content='Part 1')
    oracle.check('openai', r)

@pytest.mark.parametrize('bad,msg', [
    (dict(type='function_call_output', call_id='call_1', output=dict(assistant='b')), 'text or a list of input blocks'),
    (dict(type='reasoning', id='rs_1', summary=dict(type='summary_text', text='x')), 'summary is a list'),
])
def test_openai_items_refused_clearly(bad, msg):
    "An item its own API refuses, named in a clear error (was an AttributeError or a TypeError leaking out)"
    h = [Q, dict(CALL, id='fc_1'), bad] if bad['type'] == 'function_call_output' else [Q, bad, dict(CALL, id='fc_1')]
    for api in ('openai', 'anthropic'):
        with pytest.raises(ValueError, match=msg): msgkit.mk_msgs(h, api)

def test_input_image_without_source_refused_clearly():
    with pytest.raises(ValueError, match='needs its image or file'):
        msgkit.mk_msgs([dict(role='user', content=[dict(type='input_image', detail='auto')])], 'anthropic')

def test_untyped_reply_block_named():
    "`reply`'s own error names a block without a type (it crashed joining `None`)"
    from msgkit.registry import get_api
    with pytest.raises(ValueError, match='a block without a type'): get_api('openai').reply([dict(stdout='hi')])

# ---------------------------------------------------------------- Chat: clear errors, an empty assistant message
@pytest.mark.parametrize('block,msg', [
    (dict(type='image_url', image_url={}, uuid='u1'), 'needs a URL string'),
    (dict(type='input_audio', input_audio=dict(data='UklGRg==', format='flac')), "'wav' or 'mp3'")])
def test_chat_blocks_refused_clearly(block, msg):
    with pytest.raises(ValueError, match=msg): msgkit.mk_msgs([dict(role='user', content=[block])], 'anthropic')

def test_chat_empty_assistant_kept():
    """Chat takes an assistant message of `''` (vercel/ai sends it on purpose; api.openai.com answered simonw/llm's
    200): sent back to Chat it stays, as Responses keeps it; an API that takes none leaves it out, as before"""
    h = [dict(role='user', content='hi'), dict(role='assistant', content=''), dict(role='user', content='again')]
    r = msgkit.mk_msgs(copy.deepcopy(h), 'openai_chat')
    assert r == h
    oracle.check('openai_chat', r)
    assert [m['role'] for m in msgkit.mk_msgs(copy.deepcopy(h), 'anthropic')] == ['user', 'user']
    for i in ('vercel-ai-openai_chat-assistant-empty-string-L886', 'llama-index-openai-empty-assistant-content-string'):
        assert judged(case(i), 'openai_chat', 'mk_msgs') == [], i

def test_file_id_beside_its_bytes_reported():
    "A Chat file part holding both its bytes and an OpenAI file id (dspy's): the bytes go, the id's leaving is reported"
    c = case('dspy-lm-chat-file-with-data-id-and-filename')
    for api in ('openai', 'anthropic', 'gemini'):
        assert [f for f in judged(c, api, 'mk_request') if 'media' in f[0]] == [], api

# ---------------------------------------------------------------- Gemini's call signatures, from Chat forms
SIG = base64.b64encode(b'\x12\x34signature-bytes').decode()

def _chat_call(i, name, extra=None):
    ex = {'extra_content': extra} if extra else {}
    return dict(id=i, type='function', function=dict(name=name, arguments='{"a": 2}'), **ex)

def test_chat_extra_content_signature_to_gemini():
    """Gemini's OpenAI endpoint's `extra_content.google.thought_signature` goes on Gemini's `function_call` part:
    "pass it back exactly as received" (https://ai.google.dev/gemini-api/docs/thought-signatures); no stand-in then"""
    h = [dict(role='user', content='Add'), dict(role='assistant', content=None, tool_calls=[
        _chat_call('c1', 'add', dict(google=dict(thought_signature=SIG))), _chat_call('c2', 'mul')]),
         dict(role='tool', tool_call_id='c1', content='4'), dict(role='tool', tool_call_id='c2', content='4')]
    r = msgkit.mk_msgs(copy.deepcopy(h), 'gemini')
    fcs = [p for p in r[1]['parts'] if 'function_call' in p]
    assert fcs[0]['thought_signature'] == base64.b64decode(SIG) and 'thought_signature' not in fcs[1]
    oracle.check('gemini', r)
    g = msgkit.mk_msgs(copy.deepcopy(h), 'gemini_openai')
    assert g[1]['tool_calls'][0]['extra_content'] == dict(google=dict(thought_signature=SIG))
    assert judged(case('oa-agents-gs-chat-two-calls-extra-content-signatures'), 'gemini', 'mk_request') == []

def test_openrouter_gemini_signature_to_gemini():
    """OpenRouter's Gemini signature (`reasoning_details` entry of format google-gemini-v1, `id` the call's) goes on
    that call for Gemini, not reported lost; kept whole for OpenRouter"""
    d = dict(type='reasoning.encrypted', format='google-gemini-v1', id='c1', data=SIG, index=0)
    h = [dict(role='user', content='Add'), dict(role='assistant', content=None, tool_calls=[_chat_call('c1', 'add'),
         _chat_call('c2', 'mul')], reasoning_details=[d]), dict(role='tool', tool_call_id='c1', content='4'),
         dict(role='tool', tool_call_id='c2', content='4')]
    r, ls = losses(lambda: msgkit.mk_msgs(copy.deepcopy(h), 'gemini'))
    fcs = [p for p in r[1]['parts'] if 'function_call' in p]
    assert fcs[0]['thought_signature'] == base64.b64decode(SIG) and not ls
    oracle.check('gemini', r)
    o = msgkit.mk_msgs(copy.deepcopy(h), 'openrouter')
    assert o[1]['reasoning_details'] == [d]
    r, ls = losses(lambda: msgkit.mk_msgs(copy.deepcopy(h), 'anthropic'))  # no place for it there: reported
    assert any('reasoning' in l['what'] for l in ls)

def test_gemini_function_role_read_as_user():
    """A Gemini `Content` of role 'function' holding function responses (older REST examples; the agents SDK rewrites it
    to 'user', as google-genai's `Content.role` is 'user' or 'model') is the user's: it was refused for every API"""
    c = case('oa-agents-anyllm-gemini-function-role-snake-case')
    for api in cc.APIS:
        for how in cc.HOWS: assert [f for f in judged(c, api, how) if not f[0].startswith('expected')] == [], (api, how)
    with pytest.raises(ValueError, match="not 'function'"):  # one holding anything else stays refused
        msgkit.mk_msgs([dict(role='function', parts=[dict(text='hi')])], 'gemini')

# ---------------------------------------------------------------- Bedrock, repairs: messages that name what is wrong
def test_bedrock_redacted_content_not_base64():
    c = case('vercel-ai-bedrock-redacted-content-L936')
    with pytest.raises(ValueError, match="takes 'redactedContent' as bytes, or base64 text"):
        msgkit.mk_msgs(cc.history(c), 'bedrock')

def test_unknown_block_in_a_result_named():
    "A block no API's form reads, in a tool result, is reported as such (the report said 'from None', 'only None')"
    c = case('vllm-deepseek-v4-tool-reference-part')
    r, ls = losses(lambda: msgkit.mk_request(cc.history(c), 'anthropic', model='m'))
    assert ls and not any('None' in f"{l['what']} {l['why']}" for l in ls)

# ---------------------------------------------------------------- the harness: no false alarms, invalid inputs marked
def test_dropped_call_is_not_a_rename():
    "A call left out and reported, whose arguments another call shares, is lost (reported), not renamed"
    c = case('oa-agents-eto-complex-mixed-order')
    assert [f for how in cc.HOWS for api in cc.APIS for f in judged(c, api, how) if 'name changed' in f[0]] == []

def test_reasoning_details_data_not_media():
    c = case('fantasy-vercel-gpt-5-tool')
    assert [f for how in cc.HOWS for f in judged(c, 'openai', how) if 'media' in f[0]] == []

def test_invalid_cases_say_why():
    "Each case marked `invalid` says which rule of its own API it breaks; refused clearly, it counts as expected"
    inv = [c for c in cc.load_cases() if c.get('invalid')]
    assert len(inv) >= 15 and all(len(c['invalid']) > 30 for c in inv)
    f = dict(kind='raised', detail='InputError: whatever it says')
    assert cc.classify(f, 'openai', 'mk_msgs', inv[0]).startswith('expected:')
    f = dict(kind='oracle', detail='StrictError: x')
    assert not cc.classify(f, 'openai', 'mk_msgs', inv[0]).startswith('expected:')

# ---------------------------------------------------------------- the second round (Google ADK, strands, agno)
def test_gemini_tool_role_and_thought_calls():
    """Google ADK's: a Content of role 'tool' holding function responses is the user's (like 'function'), and a call
    or a response marked `thought: true` (Gemini 3 Flash's) is still a call and a response: paired, none dropped"""
    for i in ('adk-litellm-tool-role-two-function-responses-with-ids', 'adk-contents-function-response-marked-thought',
              'adk-contents-function-call-marked-thought-between-thoughts'):
        c = case(i)
        for api in cc.APIS:
            got = [f for f in judged(c, api, 'mk_request')
                   if not cc.classify(dict(kind=f[0], detail=f[1]), api, 'mk_request', c).startswith('expected')]
            assert got == [], (i, api, got)

def test_gemini_part_dumped_with_nones():
    "A `Part` dumped with its `None`s (`model_dump()`) reads as the fields it has; one holding nothing stays refused"
    h = [dict(role='user', parts=[dict(text='Hi', inline_data=None, file_data=None, function_call=None, thought=None)])]
    r = msgkit.mk_msgs(h, 'anthropic')
    assert r == [dict(role='user', content='Hi')] or r[0]['content'][0]['text'] == 'Hi'
    with pytest.raises(ValueError, match='An empty Gemini part'):
        msgkit.mk_msgs([dict(role='user', parts=[dict(text=None, inline_data=None)])], 'gemini')

def test_gemini_file_without_mime_type():
    "A Gemini file by URI without its `mime_type` (optional in `FileData`): kept whole for Gemini, reported elsewhere"
    fd = dict(file_data=dict(file_uri='gs://bucket/report'))
    h = [dict(role='user', parts=[dict(text='Summarise'), fd])]
    r = msgkit.mk_msgs(copy.deepcopy(h), 'gemini')
    assert r[0]['parts'][1] == fd
    oracle.check('gemini', r)
    r, ls = losses(lambda: msgkit.mk_msgs(copy.deepcopy(h), 'anthropic'))
    assert ls and oracle.check('anthropic', r) is not None

def test_botocore_unknown_member_left_out():
    "botocore's stand-in for a block it doesn't know (`SDK_UNKNOWN_MEMBER`) is left out and reported, not a refusal"
    c = case('strands-bedrock-sdk-unknown-member-between-texts')
    for api in cc.APIS:
        h = [dict(role='user', content=[dict(text='Hi')])] + cc.history(c)  # (Converse's first turn a user's)
        r, ls = losses(lambda: msgkit.mk_msgs(h, api))
        assert any('SDK_UNKNOWN_MEMBER' in l['what'] for l in ls)
        assert 'SDK_UNKNOWN_MEMBER' not in json.dumps(r, default=repr)

def test_bedrock_message_of_a_dropped_point_goes():
    "A user turn holding a cache point alone, left out (none first in a message): no empty message sent to Converse"
    c = case('strands-bedrock-cachepoint-ttl-only-block')
    with pytest.raises(ValueError, match='nothing of this history is left to send'):
        msgkit.mk_msgs(cc.history(c), 'bedrock')
    h = [dict(role='user', content=[dict(text='Hi')]), dict(role='assistant', content=[dict(text='Yo')]),
         dict(role='user', content=[dict(cachePoint=dict(type='default'))]),
         dict(role='user', content=[dict(text='Q')])]
    r, ls = losses(lambda: msgkit.mk_msgs(h, 'bedrock'))
    oracle.check('bedrock', r)
    assert all(m['content'] for m in r) and ls

def test_openrouter_empty_encrypted_entry_left_out():
    """An OpenRouter encrypted reasoning entry without its `data` (a gateway's recorded body): OpenRouter's schema
    refuses it and it holds nothing; left out, reported, the rest of `reasoning_details` kept as it came"""
    import sys, os
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'dialects'))
    import checks
    c = case('fantasy-vercel-thinking-gemini-3-pro-preview-thinking')
    r, ls = losses(lambda: msgkit.mk_request(cc.history(c), 'openrouter', model='m'))
    rd = r['messages'][2]['reasoning_details']
    assert rd == [c['msgs'][2]['reasoning_details'][0]] and ls
    checks.artefact('openrouter', r)
    # (the 40 characters of a Chat call's id are OpenAI's own service's: a compatible server's body is judged without)
    fn = dict(name='f', arguments='{}')
    h = [Q, dict(role='assistant', content=None, tool_calls=[dict(id='x' * 46, type='function', function=fn)]),
         dict(role='tool', tool_call_id='x' * 46, content='ok')]
    oracle.RULES['openai_chat'](h, id_max=None)
