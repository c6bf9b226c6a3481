"Regressions from review: histories the types accept but the providers reject, and silent data changes."
import copy, json
import pytest
from msgkit import *
from msgkit.parts import tool_call_part
from msgkit.table import examples
from oracle import check, anthropic_message, chat_completion, gemini_response

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
png, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()
c1, c2 = dict(id='call_1', name='w', args={}), dict(id='call_2', name='w', args={})

def asst(api, *calls): return mk_msg([tool_call_part(**c) for c in calls], role='assistant', api=api)

@pytest.mark.parametrize('api', APIS)
def test_parallel_results_media_first(api):
    "Results passed one by one, the one with an image first: tool messages stay right after the calls (Chat)"
    h = ["q", asst(api, c1, c2), mk_toolres(c1, ['x', png], api=api), mk_toolres(c2, 'Sunny', api=api), "It's sunny.", "thanks"]
    msgs = mk_msgs(h, api=api)
    check(api, msgs)
    if api=='openai_chat': assert [m['role'] for m in msgs] == ['user','assistant','tool','tool','user','assistant','user']
    assert msgs[-1]['role']=='user' and msg_text(msgs[-1])=='thanks'

@pytest.mark.parametrize('api', APIS)
def test_role_after_separate_results(api):
    "A plain item after two separately passed results and a response is the user's, not appended to the model's turn"
    h = ["Weather?", asst(api, c1, c2), mk_toolres(c1, 'Sunny', api=api), mk_toolres(c2, 'Rainy', api=api),
         anthropic_message(thinking=False), "Thanks! And tomorrow?"]
    msgs = mk_msgs(h, api=api)
    check(api, msgs)
    assert msgs[-1]['role']=='user' and msg_text(msgs[-1])=='Thanks! And tomorrow?'

def test_text_starting_with_data_is_text():
    for api in APIS:
        m = mk_msg("Data: 3, 4, 5. What's the mean?", api=api)
        assert msg_text(m)=="Data: 3, 4, 5. What's the mean?"

@pytest.mark.parametrize('api', APIS)
def test_empty_model_turns_and_blank_text_left_out(api):
    from google.genai import types
    r = types.GenerateContentResponse.model_validate(dict(candidates=[dict(content=dict(role='model'), finish_reason='MAX_TOKENS')]))
    check(api, mk_msgs(["q", r, "again"], api=api))
    a = anthropic_message(text='', thinking=False, tool_use=True)
    c = tool_calls(a)[0]
    check(api, mk_msgs(["q", a, mk_toolres(c, "", api=api), "again"], api=api))
    b = dict(output=dict(message=dict(role='assistant', content=[dict(text='  '), dict(text='Hi')])), stopReason='end_turn')
    assert mk_msg(b, api='bedrock')['content'] == [dict(text='Hi')]

@pytest.mark.parametrize('api', APIS)
def test_tool_results_with_documents(api):
    h = ["q", asst(api, c1), mk_toolres(c1, [mk_doc("Field notes", api=None, title='Notes'), png], api=api)]
    check(api, mk_msgs(h, api=api))

def test_bedrock_tool_result_audio_refused():
    with pytest.raises(ValueError, match="takes no audio in a tool result"): mk_toolres(c1, [examples['wav'], 'x'], api='bedrock')

def test_bedrock_unique_document_names():
    msgs = mk_msgs([[pdf, "sum"], "ok", [pdf, "again?"], "ok", [mk_doc("a", api=None, title="Q3: report"), mk_doc("b", api=None, title="Q3 report"), "?"]], api='bedrock')
    names = [b['document']['name'] for m in msgs for b in m['content'] if 'document' in b]
    assert len(set(names))==4, names
    check('bedrock', msgs)

def test_ids_for_calls_without_ids():
    "Gemini calls without ids get distinct stable ids where the target API needs them; results follow"
    from google.genai import types
    r = types.GenerateContentResponse.model_validate(dict(candidates=[dict(content=dict(role='model', parts=[
        dict(function_call=dict(name='w', args={'c':1})), dict(function_call=dict(name='w', args={'c':2}))]))]))
    cs = tool_calls(r)
    assert len({c['id'] for c in cs})==2 and all(c['id'].startswith('msgkit_') for c in cs) and tool_calls(r)==cs
    for api in APIS:
        msgs = mk_msgs(["q", r, mk_toolres(cs, ['a', 'b'], api=api)], api=api)
        check(api, msgs)
    g = mk_msgs(["q", r, mk_toolres(cs, ['a', 'b'], api='gemini')], api='gemini')
    for dst in ('anthropic', 'openai', 'bedrock', 'openai_chat'): check(dst, mk_msgs(g, api=dst))

def test_bedrock_json_history_bytes():
    "A history saved as JSON (jsonable) and loaded again sends the original bytes, not base64 text encoded again"
    h = mk_msgs([[png, '?'], 'ok', 'more'], api='bedrock')
    j = json.loads(json.dumps(jsonable(h)))
    again = mk_msgs(j, api='bedrock')
    assert again[0]['content'][0]['image']['source']['bytes']==png
    check('bedrock', again)

def test_gemini_json_history_bytes():
    r = gemini_response(thought=True, function_call=True)
    h = mk_msgs(["q", r, mk_toolres(tool_calls(r)[0], 'x', api='gemini')], api='gemini')
    again = mk_msgs(json.loads(json.dumps(jsonable(h))), api='gemini')
    assert again == h
    check('gemini', again)

def test_chat_stream_without_index():
    "OpenAI-compatible servers (Ollama, Gemini's endpoint) leave out `index`"
    ev = lambda d, f=None: {'id':'c', 'object':'chat.completion.chunk', 'created':1, 'model':'m', 'choices':[{'delta':d, 'finish_reason':f}]}
    evs = [ev({'role':'assistant', 'tool_calls':[{'id':'call_1', 'type':'function', 'function':{'name':'f', 'arguments':'{"a":1}'},
                                                   'extra_content':{'google':{'thought_signature':'sig'}}}]}),
           ev({'tool_calls':[{'id':'call_2', 'type':'function', 'function':{'name':'g', 'arguments':'{}'}}]}), ev({}, 'tool_calls')]
    m = stream_msg(evs)
    assert [c['id'] for c in m['tool_calls']]==['call_1','call_2'] and m['tool_calls'][0]['extra_content']['google']['thought_signature']=='sig'

def test_mk_toolres_takes_sdk_tool_calls():
    tc = chat_completion(tool_call=True).choices[0].message.tool_calls[0]
    assert mk_toolres(tc, 'ok', api='openai_chat')[0]['tool_call_id']==tc.id
    fc = gemini_response(function_call=True).function_calls[0]
    assert mk_toolres(fc, 'ok', api='gemini')[0]['parts'][0]['function_response']['name']==fc.name

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_cache_on_history_ending_in_tool_result(api):
    msgs = mk_msgs(["q", asst(api, c1), mk_toolres(c1, 'Sunny', api=api)], api=api, cache=True)
    check(api, msgs)
    mark = dict(openai='prompt_cache_breakpoint', openai_chat='prompt_cache_breakpoint', anthropic='cache_control', bedrock='cachePoint')[api]
    assert json.dumps(jsonable(msgs)).count(f'"{mark}"')==1

def test_refusals():
    r = chat_completion(text='x')
    d = r.model_dump()
    d['choices'][0]['message'].update(content=None, refusal="I can't help with that.")
    assert finish_reason(d)=='refusal' and msg_text(d)=="I can't help with that."
    check('anthropic', mk_msgs(["q", d, "why?"], api='anthropic'))

def test_office_documents_for_bedrock():
    import io, zipfile
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z: z.writestr('[Content_Types].xml', '<x/>'); z.writestr('word/document.xml', '<w/>')
    m = mk_msg([b.getvalue(), "Summarise"], api='bedrock')
    assert m['content'][0]['document']['format']=='docx'
    check('bedrock', [m])
    with pytest.raises(ValueError, match="can't take document"): mk_msg([b.getvalue(), "Summarise"], api='anthropic')

def test_gemini_config_object_and_blocked_prompt():
    from google.genai import types
    req = mk_request(["hi"], 'gemini', system='Be brief.', config=types.GenerateContentConfig(temperature=0.2))
    assert req['config']=={'temperature':0.2, 'system_instruction':'Be brief.'}
    blocked = dict(prompt_feedback=dict(block_reason='SAFETY'), usage_metadata=dict(prompt_token_count=5))
    h = mk_msgs(["q", blocked, "again"], api='anthropic')   # the blocked reply takes the model's turn, and leaves nothing
    assert [m['role'] for m in h]==['user'] and msg_text(h)=='qagain'
    assert finish_reason(blocked)=='content_filter'

def test_stream_msg_bad_input():
    for x in ("hello", None, 3):
        with pytest.raises(TypeError, match="stream's events"): stream_msg(x)

def test_identical_idless_calls_get_distinct_ids():
    from google.genai import types
    r = types.GenerateContentResponse.model_validate(dict(candidates=[dict(content=dict(role='model', parts=[
        dict(function_call=dict(name='get_time', args={})), dict(function_call=dict(name='get_time', args={}))]))]))
    cs = tool_calls(r)
    assert cs[0]['id']!=cs[1]['id']
    for api in APIS:
        check(api, mk_msgs(["q", r, mk_toolres(cs, ['9:00', '9:00'], api=api)], api=api))
        check(api, mk_msgs(["q", r, [mk_toolres(c, '9:00', api=api) for c in cs]], api=api))
    g = mk_msgs(["q", r, mk_toolres(cs, ['9:00', '9:00'], api='gemini')], api='gemini')
    assert 'id' not in g[1]['parts'][0]['function_call'] and 'id' not in g[2]['parts'][0]['function_response']

def test_empty_reply_keeps_the_turn():
    "An empty response still takes the model's turn: the next prompt stays the user's"
    from anthropic.types import Message
    empty = Message.model_validate(dict(id='m', type='message', role='assistant', model='c', content=[], stop_reason='end_turn',
                                        usage=dict(input_tokens=1, output_tokens=0)))
    for api in APIS:
        h = mk_msgs(["Weather?", empty, "Please continue"], api=api)
        assert h[-1]['role']=='user' and msg_text(h[-1]).endswith('Please continue'), h
        check(api, h)

def test_results_with_text_in_one_turn():
    for api in APIS:
        h = ['Q', asst(api, c1), [*mk_toolres(c1, 'Sunny', api=api), 'Also Rome?']]
        m = mk_msgs(h, api=api)
        check(api, m)
        assert msg_text(m[-1]).endswith('Also Rome?')

def test_gemini_code_execution_parts():
    from google.genai import types
    r = types.GenerateContentResponse.model_validate(dict(candidates=[dict(content=dict(role='model', parts=[
        dict(executable_code=dict(language='PYTHON', code='print(1+1)')), dict(code_execution_result=dict(outcome='OUTCOME_OK', output='2')),
        dict(text='It is 2.')]))]))
    assert msg_text(r)=='It is 2.' and tool_calls(r)==[]
    for api in APIS: check(api, mk_msgs(["1+1?", r, "thanks"], api=api))

def test_responses_several_calls_to_chat():
    from oracle import openai_response
    r = openai_response(text='Checking.', reasoning=True, tool_call=True)
    d = r.model_dump()
    d['output'].append({**[o for o in d['output'] if o['type']=='function_call'][0], 'id':'fc_2', 'call_id':'call_2'})
    cs = tool_calls(d)
    h = mk_msgs(["Q", d, mk_toolres(cs, ['a', 'b'], api='openai_chat')], api='openai_chat')
    assert [m['role'] for m in h]==['user','assistant','tool','tool']
    check('openai_chat', h)

def test_chat_stream_helper_events():
    import openai
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    chunks = [openai.types.chat.ChatCompletionChunk.model_validate(dict(id='c', object='chat.completion.chunk', created=1, model='m',
              choices=[dict(index=0, delta=d, finish_reason=f)])) for d,f in [({'role':'assistant', 'content':'Hel'}, None), ({'content':'lo'}, 'stop')]]
    st = ChatCompletionStreamState()
    evs = [e for c in chunks for e in st.handle_chunk(c)]
    assert stream_msg(evs)==stream_msg(chunks)=={'role':'assistant', 'content':'Hello'}

def test_anthropic_citations_without_title():
    from anthropic.types import Message
    m = Message.model_validate(dict(id='m', type='message', role='assistant', model='c', stop_reason='end_turn', usage=dict(input_tokens=1, output_tokens=1),
        content=[dict(type='text', text='the grass is green', citations=[dict(type='char_location', cited_text='The grass is green.',
                 document_index=0, document_title=None, start_char_index=0, end_char_index=19, file_id=None)])]))
    check('anthropic', mk_msgs([[mk_doc("The grass is green.", api=None), "Colour?"], m, "thanks"], api='anthropic'))

def test_cut_stream_drops_unanswered_server_tool_use():
    evs = [dict(type='message_start', message=dict(id='m', type='message', role='assistant', content=[], model='c', usage=dict(input_tokens=1, output_tokens=1))),
           dict(type='content_block_start', index=0, content_block=dict(type='text', text='Searching.')), dict(type='content_block_stop', index=0),
           dict(type='content_block_start', index=1, content_block=dict(type='server_tool_use', id='srvtoolu_1', name='web_search', input={})),
           dict(type='content_block_delta', index=1, delta=dict(type='input_json_delta', partial_json='{"query": "weather"}')),
           dict(type='content_block_stop', index=1)]
    m = stream_msg(evs)
    assert [b['type'] for b in m['content']]==['text']
    check('anthropic', mk_msgs(["q", m, "go on"], api='anthropic'))

def test_request_limits():
    with pytest.raises(ValueError, match="at most 20 images in a request; this history has 21"):
        mk_msgs([[png]*11 + ['?'], 'ok', [png]*10 + ['?']], api='bedrock')
    with pytest.raises(ValueError, match="at most 5 documents in a request; this history has 6"):
        mk_msgs([[mk_doc(f"doc {i}", api=None) for i in range(6)] + ['?']], api='bedrock')
    big = png + b'\0'*(3*1024*1024)
    with pytest.raises(ValueError, match="requests of at most 33,554,432 bytes"): mk_msgs([[big]*9 + ['?']], api='anthropic')
    check('anthropic', mk_msgs([[big]*2 + ['?']], api='anthropic'))

def test_single_sdk_items_back_into_history():
    "The providers' documented pattern: put a response's items (not the response) back into the history"
    from oracle import openai_response, chat_completion, gemini_response
    r = openai_response(text='x', reasoning=True, tool_call=True)
    c = tool_calls(r)[0]
    for form in (r.output, [o.model_dump() for o in r.output]):
        h = mk_msgs(['q', form, mk_toolres(c, 'ok')])
        check('openai', h)
    cc = chat_completion(tool_call=True)
    h = mk_msgs(['q', cc.choices[0].message, mk_toolres(tool_calls(cc)[0], 'ok', api='openai_chat')], api='openai_chat')
    check('openai_chat', h)
    check('openai_chat', mk_msgs(['q', cc.choices[0].message.model_dump(), mk_toolres(tool_calls(cc)[0], 'ok', api='openai_chat')], api='openai_chat'))
    g = gemini_response(thought=True, function_call=True)
    check('gemini', mk_msgs(['q', g.candidates[0].content, mk_toolres(tool_calls(g)[0], 'ok', api='gemini')], api='gemini'))

def test_gemini_bare_function_call_and_tool_calls_dict():
    for api in APIS:
        c = dict(id='call_1', name='w', args={'c': 1})
        check(api, mk_msgs(['go', mk_msg([c], role='assistant', api=api), mk_toolres(c, 'ok', api=api)], api=api))

def test_tool_result_with_blocks():
    c = dict(id='call_1', name='w', args={})
    m = mk_toolres(c, mk_doc(pdf, title='Report'), api='anthropic')
    assert m[0]['content'][0]['content'][0]['type']=='document'
    for api in APIS: check(api, mk_msgs(['q', asst(api, c), mk_toolres(c, [mk_doc(pdf, title='Report'), 'see'], api=api)], api=api))
    assert mk_toolres(c, {'temp': 18}, api='anthropic')[0]['content'][0]['content'][0]['text']=='{"temp": 18}'

def test_user_input_kept_across_apis():
    sr = {'type':'search_result', 'source':'https://example.com', 'title':'Weather', 'content':[{'type':'text', 'text':'Sunny in Paris.'}]}
    gc = {'guardContent':{'text':{'text':'Check this'}}}
    for api in APIS:
        assert 'Sunny in Paris.' in msg_text(mk_msg([sr, 'and?'], api=api)), api
        assert 'Check this' in msg_text(mk_msg([gc, 'and more'], api=api)), api

def test_anthropic_file_documents_keep_fields():
    d = mk_doc(provider_file('file_011', 'application/pdf'), api='anthropic', title='T', context='C', citations=True)
    assert d == {'type':'document', 'source':{'type':'file', 'file_id':'file_011'}, 'title':'T', 'context':'C', 'citations':{'enabled':True}}
    check('anthropic', [mk_msg([d, '?'], api='anthropic')])

def test_openai_awaiting_tools_finish_with_tool_call():
    from openai.types.responses import Response
    r = Response.model_validate(dict(id='r', object='response', created_at=1, model='m', status='completed', parallel_tool_calls=True,
        tool_choice='auto', tools=[], output=[dict(type='custom_tool_call', id='ctc_1', call_id='call_1', name='sql', input='SELECT 1')]))
    assert finish_reason(r)=='tool_call'

def test_media_type_contradicting_bytes():
    with pytest.raises(ValueError, match='The bytes are image/png, not application/pdf'): media(png, 'application/pdf')
    with pytest.raises(ValueError, match='The bytes are application/pdf, not image/png'): media(pdf, 'image/png')

def test_gemini_file_uris_stay_gemini_files():
    p = {'file_data':{'file_uri':'https://generativelanguage.googleapis.com/v1beta/files/abc', 'mime_type':'application/pdf'}}
    with pytest.raises(ValueError, match="belongs to api='gemini'"): mk_msg([p, '?'], api='anthropic')
    g = {'file_data':{'file_uri':'gs://bucket/a.pdf', 'mime_type':'application/pdf'}}
    with pytest.raises(ValueError, match="belongs to api='gemini'"): mk_msg([g, '?'], api='openai')
    check('gemini', [mk_msg([g, '?'], api='gemini')])

def test_openai_file_ids_in_chat():
    h = mk_msg([{'type':'input_file', 'file_id':'file-abc'}, '?'], api='openai_chat')
    assert h['content'][0]=={'type':'file', 'file':{'file_id':'file-abc'}}
    check('openai_chat', [h])
    assert provider_file('file-abc', 'application/pdf', api='openai_chat')['api']=='openai'
    with pytest.raises(ValueError, match="api='openai_chat' takes no image by file id"): mk_msg([provider_file('file-abc', 'image/png'), '?'], api='openai_chat')

def test_tool_call_in_user_turn_refused():
    c = dict(id='call_1', name='w', args={})
    for api in APIS:
        with pytest.raises(ValueError, match="belongs in an assistant message"): mk_msg([c], api=api)

def test_blank_doc_chunks():
    assert mk_doc(['', 'One.', '  '], api='anthropic')['source']['content']==[{'type':'text', 'text':'One.'}]
    with pytest.raises(ValueError, match='all blank'): mk_doc(['', ' '])

def test_detail_values_and_role_hints():
    for api in ('openai', 'openai_chat'):
        with pytest.raises(ValueError, match="takes detail auto, low, high or original, not 'ultra'"): mk_msg([png, '?'], api=api, detail='ultra')
        check(api, [mk_msg([png, '?'], api=api, detail='low')])
    with pytest.raises(ValueError) as e: mk_msg('hi', role='bot', api='anthropic')
    assert 'system=' not in str(e.value) and "not 'bot'" in str(e.value)

def test_chat_tool_role_needs_a_call():
    with pytest.raises(ValueError, match='mk_toolres'): mk_msg('18C', role='tool', api='openai_chat')
