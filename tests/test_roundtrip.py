"SDK responses straight back into history, for every API: reasoning, tool calls, tool results (text and image), final answer."
import copy, json, base64
import pytest
from msgkit import *
from oracle import check, openai_response, anthropic_message, chat_completion, gemini_response, bedrock_response

png = sample('gradient.png').read_bytes()
APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
RESP = dict(openai=lambda tc: openai_response(text='Let me look.', reasoning=True, tool_call=tc),
            openai_chat=lambda tc: chat_completion(text='Let me look.', tool_call=tc),
            anthropic=lambda tc: anthropic_message(text='Let me look.', thinking=True, tool_use=tc),
            gemini=lambda tc: gemini_response(text='Let me look.', thought=True, function_call=tc),
            bedrock=lambda tc: bedrock_response(text='Let me look.', reasoning=True, tool_use=tc))

def opaque(api, r):
    "The signatures and encrypted payloads in response `r`, as the provider sent them"
    if api=='openai': return [o.encrypted_content for o in r.output if o.type=='reasoning']
    if api=='anthropic': return [o.signature for o in r.content if o.type=='thinking']
    if api=='gemini': return [p.thought_signature for p in r.candidates[0].content.parts if p.thought_signature]
    if api=='bedrock': return [o['reasoningContent']['reasoningText']['signature'] for o in r['output']['message']['content'] if 'reasoningContent' in o]
    return []

def found(api, msgs):
    "The same payloads, found in the history msgkit built"
    s = []
    for m in msgs:
        if api=='openai' and m.get('type')=='reasoning': s.append(m['encrypted_content'])
        for b in m.get('content') or m.get('parts') or []:
            if not isinstance(b, dict): continue
            if api=='anthropic' and b.get('type')=='thinking': s.append(b['signature'])
            if api=='gemini' and b.get('thought_signature') not in (None, b'skip_thought_signature_validator'): s.append(b['thought_signature'])
            if api=='bedrock' and 'reasoningContent' in b: s.append(b['reasoningContent']['reasoningText']['signature'])
    return s

@pytest.mark.parametrize('result', ['text', 'image'])
@pytest.mark.parametrize('form', ['sdk', 'dump', 'json'])
@pytest.mark.parametrize('api', APIS)
def test_tool_loop(api, form, result):
    r1,r2 = RESP[api](True),RESP[api](False)
    sig = opaque(api, r1) + opaque(api, r2)
    assert api=='openai_chat' or sig
    if api=='bedrock': conv = {'sdk':lambda r: r, 'dump':copy.deepcopy, 'json':lambda r: json.loads(json.dumps(jsonable(r)))}[form]
    else: conv = {'sdk':lambda r: r, 'dump':lambda r: r.model_dump(), 'json':lambda r: json.loads(r.model_dump_json())}[form]
    calls = tool_calls(r1)
    assert len(calls)==1 and isinstance(calls[0]['args'], dict) and calls[0]['name']
    assert finish_reason(r1)=='tool_call' and finish_reason(r2)=='stop'
    res = 'Sunny, 18°C' if result=='text' else ['Here is the radar map', png]
    h = ["What's the weather in Paris?", conv(r1), mk_toolres(calls[0], res, api=api), conv(r2), "Thanks!"]
    before = copy.deepcopy(h)
    msgs = mk_msgs(h, api=api)
    assert h == before, "input mutated"
    check(api, msgs)
    assert found(api, msgs) == sig, "signatures or encrypted payloads changed"
    assert msg_text(msgs[-1]) == "Thanks!"
    assert tool_calls(msgs) == calls

@pytest.mark.parametrize('dst', APIS)
@pytest.mark.parametrize('src', APIS)
def test_cross_api(src, dst):
    """A history with another API's responses renders for `dst`: text and tool calls carried over, reasoning left out
    (Claude's signed thinking crosses between Anthropic and Bedrock: signatures are compatible across platforms)"""
    r1,r2 = RESP[src](True),RESP[src](False)
    c = tool_calls(r1)[0]
    msgs = mk_msgs(["What's the weather?", r1, mk_toolres(c, 'Sunny', api=dst), r2, "Thanks!"], api=dst)
    check(dst, msgs)
    assert [o['name'] for o in tool_calls(msgs)] == [c['name']]
    if src!=dst and {src, dst}!={'anthropic', 'bedrock'}: assert not found(dst, msgs)
    if {src, dst}=={'anthropic', 'bedrock'}:
        blocks = [b for m in msgs for b in m['content'] if isinstance(m['content'], list)]
        assert any(b.get('type')=='thinking' or 'reasoningContent' in b for b in blocks)

@pytest.mark.parametrize('api', APIS)
def test_parallel_calls_one_turn(api):
    "Two tool results answer two calls in one turn"
    calls = [dict(id='call_1', name='get_weather', args={'city':'Paris'}), dict(id='call_2', name='get_weather', args={'city':'Rome'})]
    from msgkit.parts import tool_call_part
    asst = mk_msg([tool_call_part(**{k:v for k,v in o.items()}) for o in calls], role='assistant', api=api)
    h = ["Weather in Paris and Rome?", asst, mk_toolres(calls[0], 'Sunny', api=api), mk_toolres(calls[1], ['Rainy', png], api=api)]
    msgs = mk_msgs(h, api=api)
    check(api, msgs)
    if api in ('anthropic', 'gemini', 'bedrock'): assert len(msgs)==3, msgs
    if api=='openai_chat': assert [o['role'] for o in msgs] == ['user','assistant','tool','tool','user']
    together = mk_msgs(h[:2] + [mk_toolres(calls, ['Sunny', ['Rainy', png]], api=api)], api=api)
    assert together == msgs

def test_usage_same_keys():
    keys = {'input','output','cache_read','cache_write','reasoning'}
    for api in APIS:
        u = usage(RESP[api](True))
        assert set(u)==keys and u['input']>0 and u['output']>0, (api, u)
    assert usage(RESP['openai'](True))['reasoning'] > 0

@pytest.mark.parametrize('api', APIS)
def test_histories_are_idempotent(api):
    "A history msgkit built goes through mk_msgs again unchanged, for every API (notebook users re-feed their history)"
    from oracle import chat_completion
    r1,r2 = RESP[api](True),RESP[api](False)
    h = mk_msgs(["Weather?", r1, mk_toolres(tool_calls(r1)[0], ['Radar', png], api=api), r2, "Thanks!"], api=api)
    assert mk_msgs(h, api=api) == h
    refusal = chat_completion(text='x').model_dump()
    refusal['choices'][0]['message'].update(content=None, refusal="I can't help with that.")
    h = mk_msgs(["q", refusal, "why?"], api=api)
    assert mk_msgs(h, api=api) == h
    check(api, h)
