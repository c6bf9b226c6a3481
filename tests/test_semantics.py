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
    assert [c['id'] for c in cs]==[None, None]
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
    assert 'prompt_cache_breakpoint' in json.dumps(jsonable(msgs)) or 'cache_control' in json.dumps(msgs) or 'cachePoint' in json.dumps(jsonable(msgs))

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
    assert mk_msgs(["q", blocked, "again"], api='anthropic')[-1]['content']=='again'
    assert finish_reason(blocked)=='content_filter'

def test_stream_msg_bad_input():
    for x in ("hello", None, 3):
        with pytest.raises(TypeError, match="stream's events"): stream_msg(x)
