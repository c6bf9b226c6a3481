"""Issue #17's numbered items that live in the messages (9-19): each a history as users hold it (the form a peer library
or provider documents, named beside it), rendered and judged by the providers' own validators (`oracle`)."""
import json, warnings
import pytest
import oracle
import msgkit
from msgkit import mk_msgs, mk_request, stream_msg, tool_calls, LossWarning
from msgkit.errors import InputError

PNG = ('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==')

def losses(f):
    "`(result, [warning texts])` of calling `f`"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    return r, [str(w.message) for w in ws if issubclass(w.category, LossWarning)]

def req(h, api, **kw): return mk_request(h, api, model='m', **kw)

# 9. pydantic-ai's google model: "function call turns come immediately after a user turn or after a function response
#    turn", so a history opening with the model's call opens with an empty user turn
def test_gemini_history_opening_with_a_call():
    h = [{'role': 'model', 'parts': [{'functionCall': {'name': 'f', 'args': {'a': 1}}}]},
         {'role': 'user', 'parts': [{'functionResponse': {'name': 'f', 'response': {'r': 2}}}]}]
    r = req(h, 'gemini')
    assert r['contents'][0] == {'role': 'user', 'parts': [{'text': ''}]}
    oracle.check('gemini', r['contents'])
    with pytest.raises(AssertionError, match='function call turn'): oracle.check('gemini', h)
    # one message is not a history: no turn is added to it
    assert msgkit.mk_msg(h[0], api='gemini') == h[0]

# 10. a same-API replay of tool-result turns is the history as it came, silently
REPLAYS = dict(
    openai=[{'role': 'user', 'content': 'q'}, {'type': 'function_call', 'call_id': 'c1', 'name': 's', 'arguments': '{}'},
            {'type': 'function_call_output', 'call_id': 'c1',
             'output': [{'type': 'input_image', 'image_url': 'data:image/png;base64,' + PNG, 'detail': 'low'}]}],
    openai_chat=[{'role': 'user', 'content': 'q'},
                 {'role': 'assistant', 'content': None,
                  'tool_calls': [{'id': 'c1', 'type': 'function', 'function': {'name': 's', 'arguments': '{}'}}]},
                 {'role': 'tool', 'tool_call_id': 'c1', 'content': [{'type': 'text', 'text': 'r'}]}],
    anthropic=[{'role': 'user', 'content': 'q'},
               {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 's', 'input': {'q': 'x'}}]},
               {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'cache_control': {'type': 'ephemeral'},
                 'content': [{'type': 'search_result', 'source': 'https://a.com', 'title': 'A',
                              'content': [{'type': 'text', 'text': 'body'}], 'citations': {'enabled': True}},
                             {'type': 'text', 'text': 't', 'cache_control': {'type': 'ephemeral'}}]}]}],
    bedrock=[{'role': 'user', 'content': [{'text': 'q'}]},
             {'role': 'assistant', 'content': [{'toolUse': {'toolUseId': 't1', 'name': 's', 'input': {}}}]},
             {'role': 'user', 'content': [{'toolResult': {'toolUseId': 't1', 'content': [{'json': {'a': 1}}], 'status': 'success'}}]}],
    gemini=[{'role': 'user', 'parts': [{'text': 'q'}]}, {'role': 'model', 'parts': [{'functionCall': {'id': 'a', 'name': 's', 'args': {}}}]},
            {'role': 'user', 'parts': [{'functionResponse': {'id': 'a', 'name': 's', 'response': {'output': {'x': 1}}}}]}])

@pytest.mark.parametrize('api', sorted(REPLAYS))
def test_same_api_replay_of_tool_results(api):
    h = REPLAYS[api]
    oracle.check(api, h)
    r, ls = losses(lambda: mk_msgs(h, api=api))
    assert json.loads(json.dumps(r)) == h and not ls

# 11. the last round's leftovers
def test_responses_message_then_strings():
    r = req([{'type': 'message', 'role': 'user', 'content': 'hi'}, 'there', 'more'], 'anthropic')
    assert [m['role'] for m in r['messages']] == ['user', 'assistant', 'user']
    oracle.check('anthropic', r['messages'])

def test_gemini_call_without_args_answered():
    from google.genai import types as gt
    h = [gt.Content(role='model', parts=[gt.Part(function_call=gt.FunctionCall(name='f', args=None))]),
         {'role': 'user', 'parts': [{'functionResponse': {'name': 'f', 'response': {}}}]}]
    r = req(['q', *h], 'anthropic')
    assert r['messages'][1]['content'][0]['input'] == {}
    oracle.check('anthropic', r['messages'])

def test_legacy_function_call_from_a_stream():
    "OpenAI's legacy function calling (`function_call` deltas, finish_reason 'function_call') streamed, then answered"
    from openai.types.chat import ChatCompletionChunk as C
    ds = [({'role': 'assistant', 'function_call': {'name': 'f', 'arguments': ''}}, None),
          ({'function_call': {'arguments': '{"a":'}}, None), ({'function_call': {'arguments': '1}'}}, None), ({}, 'function_call')]
    evs = [C.model_validate(dict(id='c', object='chat.completion.chunk', created=1, model='m',
                                 choices=[dict(index=0, delta=d, finish_reason=f)])) for d, f in ds]
    m = stream_msg(evs)
    assert [(c['name'], c['args']) for c in tool_calls(m)] == [('f', {'a': 1})]
    r = req(['hi', m, {'role': 'function', 'name': 'f', 'content': '3'}], 'anthropic')
    oracle.check('anthropic', r['messages'])
    assert r['messages'][2]['content'][0]['content'] == [{'type': 'text', 'text': '3'}]

# 12. langchain-google-genai stores Gemini's thoughts as Anthropic-shaped thinking without a signature: only signed
#     thinking goes back to Claude as thinking
def test_unsigned_thinking_not_sent_as_thinking():
    h = [{'role': 'user', 'content': 'q'},
         {'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': 'hmm'}, {'type': 'text', 'text': 'a'}]}, 'q2']
    r, ls = losses(lambda: req(h, 'anthropic'))
    assert r['messages'][1]['content'] == [{'type': 'text', 'text': 'a'}] and any('reasoning' in l for l in ls)
    oracle.check('anthropic', r['messages'])
    with pytest.raises(Exception, match='signature'): oracle.check('anthropic', h[:2])
    # a signed block with a stream's `index` (LangChain's chunks) goes back without it
    th = {'type': 'thinking', 'thinking': 'hmm', 'signature': 'EqQB', 'index': 0}
    r = req(['q', {'role': 'assistant', 'content': [th, {'type': 'text', 'text': 'a'}]}, 'q2'], 'anthropic')
    assert r['messages'][1]['content'][0] == {'type': 'thinking', 'thinking': 'hmm', 'signature': 'EqQB'}

# 13. "Item 'rs_...' of type 'reasoning' was provided without its required following item" (continuedev/continue#8933):
#     a reasoning item before an assistant message with no id (langchain-openai, OpenRouter) is not its pair
def test_reasoning_item_before_an_idless_message():
    h = [{'role': 'user', 'content': 'q'}, {'type': 'reasoning', 'id': 'rs_1', 'summary': []},
         {'type': 'message', 'role': 'assistant', 'content': [{'type': 'output_text', 'text': 'a', 'annotations': []}]}, 'q2']
    r, ls = losses(lambda: req(h, 'openai'))
    assert [o.get('type') for o in r['input']].count('reasoning') == 0 and any('rs_1' in l for l in ls)
    # with its message's id, the pair stays
    h[2] = {**h[2], 'id': 'msg_1', 'status': 'completed'}
    assert [o.get('type') for o in req(h, 'openai')['input']].count('reasoning') == 1

# 15. Gemini's empty text part that carries the signature is no words of the model's
def test_gemini_signature_text_part_is_not_text():
    h = [{'role': 'user', 'parts': [{'text': 'q'}]},
         {'role': 'model', 'parts': [{'text': 'a'}, {'text': '', 'thoughtSignature': 'c2ln'}]}, {'role': 'user', 'parts': [{'text': 'q2'}]}]
    for api in ('anthropic', 'openai', 'openai_chat', 'bedrock'):
        r = req(h, api)
        body = json.dumps(r)
        assert '"."' not in body and '"a"' in body
        oracle.check(api, r[{'openai': 'input'}.get(api, 'messages')])

# 16. a gpt-4o-audio Chat reply: `content` None, the words in `audio.transcript`
def test_audio_reply_transcript_is_its_text():
    au = {'role': 'assistant', 'content': None,
          'audio': {'id': 'audio_1', 'transcript': 'Hello there', 'data': 'UklGRg==', 'expires_at': 1}}
    for api in ('anthropic', 'gemini', 'bedrock', 'openai'):
        r = req(['q', au, 'q2'], api)
        assert 'Hello there' in json.dumps(r), api
    # back to Chat: the audio by its id, as the Chat docs replay it
    assert mk_msgs(['q', au, 'q2'], api='openai_chat')[1] == {'role': 'assistant', 'content': None, 'audio': {'id': 'audio_1'}}

# 17. a model-made image (Gemini image generation) can't be Claude's own turn: refused clearly, as for OpenAI and Bedrock
@pytest.mark.parametrize('api', ['anthropic', 'openai', 'bedrock'])
def test_model_turn_image_refused(api):
    h = [{'role': 'user', 'parts': [{'text': 'draw'}]},
         {'role': 'model', 'parts': [{'inlineData': {'mimeType': 'image/png', 'data': PNG}}]}, {'role': 'user', 'parts': [{'text': 'more'}]}]
    with pytest.raises(InputError, match=f"api='{api}'.*(only in user|only text in an assistant)"): req(h, api)

def test_oracle_refuses_assistant_images_for_anthropic():
    m = [{'role': 'user', 'content': 'q'},
         {'role': 'assistant', 'content': [{'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': PNG}}]}]
    with pytest.raises(AssertionError, match='assistant'): oracle.check('anthropic', m)

# 18. a text/* document to Anthropic is a text source (only PDFs are base64)
def test_text_document_to_anthropic():
    h = [{'role': 'user', 'content': [{'type': 'file', 'file': {'file_data': 'data:text/plain;base64,aGVsbG8=', 'filename': 'a.txt'}},
                                      {'type': 'text', 'text': 'sum'}]}]
    r = req(h, 'anthropic')
    assert r['messages'][0]['content'][0]['source'] == {'type': 'text', 'media_type': 'text/plain', 'data': 'hello'}
    oracle.check('anthropic', r['messages'])

# 19. litellm's and Azure's `image_url` as a string; empty user content (`content: []`, minItems 1 for Chat)
def test_chat_image_url_string_and_empty_content():
    h = [{'role': 'user', 'content': [{'type': 'image_url', 'image_url': 'data:image/png;base64,' + PNG}, {'type': 'text', 'text': 'what?'}]}]
    for api in ('anthropic', 'gemini', 'bedrock', 'openai'):
        r = req(h, api)
        body = json.dumps(r, default=lambda o: 'BYTES' if o == __import__('base64').b64decode(PNG) else repr(o))
        assert PNG in body or 'BYTES' in body, api
    with pytest.raises(InputError, match='URL'):
        req([{'role': 'user', 'content': [{'type': 'image_url', 'image_url': 3}]}], 'anthropic')
    r = req([{'role': 'user', 'content': []}, {'role': 'user', 'content': 'hi'}], 'openai_chat')
    assert r['messages'] == [{'role': 'user', 'content': 'hi'}]
    with pytest.raises(Exception): oracle.check('openai_chat', [{'role': 'user', 'content': []}])

# 14. Claude's thinking rules, checked before sending (Anthropic and Claude on Bedrock): the open tool-use turn starts
#     with its thinking; no thinking with a forced tool choice; the forms each model takes (the adapter's table)
CALL = {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': {}}]}
RES = {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '1'}]}
TOOL = {'name': 'f', 'description': 'f', 'input_schema': {'type': 'object', 'properties': {}}}

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_thinking_needs_the_open_turns_thinking(api):
    with pytest.raises(InputError, match=r'start with its thinking block .*leave reasoning= out'):
        req(['q', CALL, RES], api, reasoning=2048, max_tokens=4096)
    # the same loop with the response's thinking kept goes
    th = {**CALL, 'content': [{'type': 'thinking', 'thinking': 'Hmm', 'signature': 'EqQB'}, *CALL['content']]}
    r = req(['q', th, RES], api, reasoning=2048, max_tokens=4096)
    if api == 'anthropic': oracle.check('anthropic', r['messages'])
    # and without thinking on, the loop is fine as it is
    req(['q', CALL, RES], api)

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_thinking_with_forced_tool_choice(api):
    with pytest.raises(InputError, match='forces tool use'):
        req(['q'], api, tools=[TOOL], tool_choice='f', reasoning=2048, max_tokens=4096)
    req(['q'], api, tools=[TOOL], tool_choice='auto', reasoning=2048, max_tokens=4096)

def test_thinking_forms_per_model():
    with pytest.raises(InputError, match="takes only adaptive thinking"):
        mk_request(['q'], 'anthropic', model='claude-opus-4-8', reasoning=2048, max_tokens=4096)
    r = mk_request(['q'], 'anthropic', model='claude-opus-4-8', reasoning='high')
    assert r['thinking'] == {'type': 'adaptive'} and r['output_config'] == {'effort': 'high'}
    oracle.APIS['anthropic'](r['messages'], **{k: v for k, v in r.items() if k not in ('messages', 'model', 'max_tokens')})
    # a budget for a model that takes budgets, and one msgkit doesn't know, goes as it is
    for m in ('claude-sonnet-4-5', 'claude-next'):
        assert mk_request(['q'], 'anthropic', model=m, reasoning=2048)['thinking'] == {'type': 'enabled', 'budget_tokens': 2048}

# 21. the forms langchain-core itself reads (`load`, `messages_from_dict`, `convert_to_messages`) and its v1 blocks
def _lc():
    from langchain_core.messages import HumanMessage, AIMessage, ToolMessage
    return HumanMessage, AIMessage, ToolMessage

def test_langchain_dumps_and_dicts():
    from langchain_core.load import dumpd
    H, A, T = _lc()
    h = [H('hi'), A('', tool_calls=[{'name': 'f', 'args': {'a': 1}, 'id': 'c1'}]), T('42', tool_call_id='c1')]
    want = req(h, 'anthropic')
    assert req([dumpd(m) for m in h], 'anthropic') == want  # serialised with `dumpd` ({"lc": 1, "type": "constructor"})
    oracle.check('anthropic', want['messages'])
    for h2 in ([{'type': 'human', 'content': 'hi'}, {'type': 'ai', 'content': 'hello'}, {'type': 'human', 'content': 'q'}],
               [{'role': 'human', 'content': 'hi'}, {'role': 'ai', 'content': 'hello'}, {'role': 'human', 'content': 'q'}]):
        assert [m['role'] for m in req(h2, 'anthropic')['messages']] == ['user', 'assistant', 'user']

def test_langchain_v1_blocks():
    H, A, T = _lc()
    r = req([H(content=[{'type': 'file', 'file_data': 'JVBERi0xLjQK', 'mime_type': 'application/pdf'}, {'type': 'text', 'text': 'sum'}])], 'anthropic')
    assert r['messages'][0]['content'][0]['source']['media_type'] == 'application/pdf'
    r = req([H(content=[{'type': 'file', 'source_type': 'text', 'text': 'hello doc', 'mime_type': 'text/plain'}, 'sum'])], 'anthropic')
    assert r['messages'][0]['content'][0]['source'] == {'type': 'text', 'media_type': 'text/plain', 'data': 'hello doc'}
    r = req([H('q'), A(content=[{'type': 'json', 'json': {'a': 1}}]), H('q2')], 'anthropic')
    assert r['messages'][1]['content'] == '{"a": 1}'
    # a server tool's call and result ran at the provider: reported, the answer kept
    srv = [{'type': 'server_tool_call', 'name': 'web_search', 'args': {'q': 'x'}, 'id': 's1'},
           {'type': 'server_tool_result', 'tool_call_id': 's1', 'status': 'success', 'output': 'r'}, {'type': 'text', 'text': 'a'}]
    r, ls = losses(lambda: req([H('q'), A(content=srv), H('q2')], 'anthropic'))
    assert r['messages'][1]['content'] == [{'type': 'text', 'text': 'a'}] and any('server_tool_call' in l for l in ls)
    # a Responses function call in the content (langchain-openai), answered
    fc = {'type': 'function_call', 'name': 'f', 'arguments': '{"a": 1}', 'call_id': 'c1'}
    r = req([H('q'), A(content=[fc]), T('3', tool_call_id='c1')], 'gemini')
    assert r['contents'][1]['parts'][0]['function_call']['args'] == {'a': 1}
    oracle.check('gemini', r['contents'])

def test_langchain_invalid_calls_and_nested_results():
    H, A, T = _lc()
    bad = A('', invalid_tool_calls=[{'name': 'f', 'args': '{bad', 'id': 'toolu_1', 'error': 'bad json', 'type': 'invalid_tool_call'}])
    r, ls = losses(lambda: req([H('q'), bad, T('Error: bad arguments', tool_call_id='toolu_1', status='error')], 'anthropic'))
    assert r['messages'][1]['content'] == [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': {}}]
    assert r['messages'][2]['content'][0]['is_error'] and any('sent as {}' in l for l in ls)
    oracle.check('anthropic', r['messages'])
    # an Anthropic tool_result already in a ToolMessage's content: one result, not one inside another
    nested = T(content=[{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '42'}], tool_call_id='toolu_1')
    r = req([H('q'), A('', tool_calls=[{'name': 'f', 'args': {}, 'id': 'toolu_1'}]), nested], 'anthropic')
    assert r['messages'][2]['content'] == [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': [{'type': 'text', 'text': '42'}]}]
    # thinking without its text (a stream's block): the signature goes back with empty thinking
    r = req([H('q'), A(content=[{'type': 'thinking', 'signature': 'EqQB', 'index': 0}, {'type': 'text', 'text': 'a'}]), H('q2')], 'anthropic')
    assert r['messages'][1]['content'][0] == {'type': 'thinking', 'thinking': '', 'signature': 'EqQB'}
    oracle.check('anthropic', r['messages'])

# From the review: a tool_choice that names no tool in tools= (the API answers 400), and Chat calls without ids
# (Ollama's history: `tool_calls` without ids, results with `tool_name` or nothing), paired by position
@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_tool_choice_names_a_tool(api):
    tools = [{'type': 'function', 'name': 'get_weather', 'parameters': {'type': 'object', 'properties': {}}}]
    with pytest.raises(InputError, match=r"tool_choice='nope' names no tool in tools=.*get_weather"):
        req(['Hi'], api, tools=tools, tool_choice='nope')
    req(['Hi'], api, tools=tools, tool_choice='get_weather')

def test_chat_calls_without_ids():
    for res in ({'role': 'tool', 'content': '18C'}, {'role': 'tool', 'tool_name': 'get_weather', 'content': '18C'}):
        h = [{'role': 'user', 'content': 'Weather?'},
             {'role': 'assistant', 'content': None, 'tool_calls': [{'type': 'function', 'function': {'name': 'get_weather', 'arguments': '{}'}}]}, res]
        for api in ('anthropic', 'bedrock', 'openai'):
            r = req(h, api)
            oracle.check(api, r[{'openai': 'input'}.get(api, 'messages')])
            assert '18C' in json.dumps(r)
