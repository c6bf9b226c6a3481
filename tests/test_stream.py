"Offline tests for stream.py: realistic event sequences, checked against the SDKs' own accumulators."
import base64, copy, json, subprocess, sys
from pathlib import Path
import pytest
from pydantic import TypeAdapter
from msgkit import get_api, stream_msg, stream_response, mk_msgs, tool_calls, mk_toolres
from oracle import check
assemble_anthropic, assemble_chat, assemble_responses, assemble_gemini, assemble_bedrock = [
    get_api(o).assemble for o in ('anthropic', 'openai_chat', 'openai', 'gemini', 'bedrock')]

HERE = Path(__file__).parent

def dump(o): return o.model_dump(mode='python', exclude_none=True, warnings=False)

def variants(objs):
    "Same events as SDK objects, `model_dump()` dicts, and JSON dicts."
    return {'obj':objs, 'dump':[o.model_dump() for o in objs],
            'json':[json.loads(o.model_dump_json()) for o in objs]}

# ---------------------------------------------------------------- Anthropic
# Shaped like the streaming docs' extended-thinking + tool-use examples (with the usage the API really sends)
ASIG = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds/+=='
A_EVENTS = [
    {'type':'message_start', 'message':{'id':'msg_01ABC', 'type':'message', 'role':'assistant', 'content':[],
        'model':'claude-sonnet-4-5-20250929', 'stop_reason':None, 'stop_sequence':None,
        'usage':{'input_tokens':472, 'output_tokens':2, 'cache_creation_input_tokens':0, 'cache_read_input_tokens':0,
                 'service_tier':'standard'}}},
    {'type':'content_block_start', 'index':0, 'content_block':{'type':'thinking', 'thinking':'', 'signature':''}},
    {'type':'content_block_delta', 'index':0, 'delta':{'type':'thinking_delta', 'thinking':'Let me solve this step by step:\n\n1. First break down 27 * 453'}},
    {'type':'content_block_delta', 'index':0, 'delta':{'type':'thinking_delta', 'thinking':'\n2. 453 = 400 + 50 + 3'}},
    {'type':'content_block_delta', 'index':0, 'delta':{'type':'signature_delta', 'signature':ASIG}},
    {'type':'content_block_stop', 'index':0},
    {'type':'content_block_start', 'index':1, 'content_block':{'type':'text', 'text':''}},
    {'type':'content_block_delta', 'index':1, 'delta':{'type':'text_delta', 'text':'27 * 453 = 12,231. '}},
    {'type':'content_block_delta', 'index':1, 'delta':{'type':'text_delta', 'text':'Now the weather in SF — '}},
    {'type':'content_block_stop', 'index':1},
    {'type':'content_block_start', 'index':2, 'content_block':{'type':'tool_use', 'id':'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        'name':'get_weather', 'input':{}}},
    {'type':'content_block_delta', 'index':2, 'delta':{'type':'input_json_delta', 'partial_json':''}},
    {'type':'content_block_delta', 'index':2, 'delta':{'type':'input_json_delta', 'partial_json':'{"location":'}},
    {'type':'content_block_delta', 'index':2, 'delta':{'type':'input_json_delta', 'partial_json':' "San Francisc'}},
    {'type':'content_block_delta', 'index':2, 'delta':{'type':'input_json_delta', 'partial_json':'o, CA", "unit": null, "days": [1, 2.5]}'}},
    {'type':'content_block_stop', 'index':2},
    {'type':'message_delta', 'delta':{'stop_reason':'tool_use', 'stop_sequence':None}, 'usage':{'output_tokens':89}},
    {'type':'message_stop'},
]
A_TEXT = 'Now the weather in SF — '
# Redacted thinking + a cited text answer
A_CITE_EVENTS = [
    {'type':'message_start', 'message':{'id':'msg_02', 'type':'message', 'role':'assistant', 'content':[],
        'model':'claude-sonnet-4-5', 'stop_reason':None, 'stop_sequence':None, 'usage':{'input_tokens':10, 'output_tokens':1}}},
    {'type':'content_block_start', 'index':0, 'content_block':{'type':'redacted_thinking', 'data':'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlx'}},
    {'type':'content_block_stop', 'index':0},
    {'type':'content_block_start', 'index':1, 'content_block':{'type':'text', 'text':'', 'citations':[]}},
    {'type':'content_block_delta', 'index':1, 'delta':{'type':'citations_delta', 'citation':{'type':'char_location',
        'cited_text':'The grass is green.', 'document_index':0, 'document_title':'Facts', 'start_char_index':0, 'end_char_index':19}}},
    {'type':'content_block_delta', 'index':1, 'delta':{'type':'text_delta', 'text':'the grass is green'}},
    {'type':'content_block_stop', 'index':1},
    {'type':'message_delta', 'delta':{'stop_reason':'end_turn', 'stop_sequence':None},
     'usage':{'output_tokens':30, 'input_tokens':12, 'cache_read_input_tokens':5}},
    {'type':'message_stop'},
]

def a_objs(ds):
    from anthropic.types import RawMessageStreamEvent
    ta = TypeAdapter(RawMessageStreamEvent)
    return [ta.validate_python(d) for d in ds]

def a_sdk(objs):
    "The anthropic SDK's own accumulation of `objs`."
    from anthropic.lib.streaming._messages import accumulate_event
    snap,bufs = None,{}
    for e in objs: snap = accumulate_event(event=e, current_snapshot=snap, json_bufs=bufs)
    return dump(snap)

@pytest.mark.parametrize('evs', [A_EVENTS, A_CITE_EVENTS], ids=['thinking_tool', 'redacted_cite'])
def test_anthropic_matches_sdk(evs):
    from anthropic.types import Message
    objs = a_objs(evs)
    res = assemble_anthropic(objs)
    assert res==a_sdk(objs)
    assert dump(Message.model_validate(res))==res
    for v in variants(objs).values(): assert assemble_anthropic(v)==res
    assert assemble_anthropic(evs)==res

def test_anthropic_content():
    res = assemble_anthropic(a_objs(A_EVENTS))
    th,tx,tu = res['content']
    assert th=={'type':'thinking', 'thinking':'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3', 'signature':ASIG}
    assert tx=={'type':'text', 'text':'27 * 453 = 12,231. ' + A_TEXT}
    assert tu['input']=={'location':'San Francisco, CA', 'unit':None, 'days':[1, 2.5]}
    assert res['stop_reason']=='tool_use' and res['usage']['output_tokens']==89 and res['usage']['input_tokens']==472
    res = assemble_anthropic(a_objs(A_CITE_EVENTS))
    assert res['content'][0]['data']=='EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlx'
    assert res['content'][1]['citations'][0]['cited_text']=='The grass is green.'
    assert res['usage']=={'input_tokens':12, 'output_tokens':30, 'cache_read_input_tokens':5}

def a_cut(n): return assemble_anthropic(a_objs(A_EVENTS[:n]))

def test_anthropic_interrupted():
    from anthropic.types import Message
    full = assemble_anthropic(a_objs(A_EVENTS))['content']
    assert a_cut(4)['content']==[]                   # thinking, no signature yet: dropped
    assert a_cut(5)['content']==full[:1]             # signature arrived: kept although no stop
    assert a_cut(5)['content'][0]['signature']==ASIG
    assert a_cut(7)['content']==full[:1]             # text block started, empty: dropped
    r = a_cut(8)
    assert r['content'][1]=={'type':'text', 'text':'27 * 453 = 12,231. '} and 'stop_reason' not in r
    assert a_cut(11)['content']==full[:2]            # tool_use, no arguments yet
    assert a_cut(14)['content']==full[:2]            # half JSON: dropped
    assert a_cut(15)['content']==full                # JSON complete, no stop: kept
    assert a_cut(16)['content']==full and 'stop_reason' not in a_cut(16)
    assert a_cut(17)['stop_reason']=='tool_use'      # message_delta without message_stop
    r = a_cut(8); objs = a_objs(A_EVENTS[:8])        # SDK snapshot agrees on what was kept
    assert a_sdk(objs)['content']==r['content']
    assert a_sdk(a_objs(A_EVENTS[:14]))['content'][:2]==a_cut(14)['content']
    for v in variants(a_objs(A_EVENTS[:14])).values(): assert assemble_anthropic(v)==a_cut(14)

@pytest.mark.parametrize('n', range(1, len(A_EVENTS)+1))
def test_anthropic_every_prefix_is_valid(n):
    from anthropic.types import Message
    r = a_cut(n)
    Message.model_validate(r)
    for b in r['content']:
        if b['type']=='thinking': assert b['signature']==ASIG
        if b['type']=='text': assert b['text']
        if b['type']=='tool_use': assert isinstance(b['input'], dict) and b['input']
    if n<len(A_EVENTS)-1: assert 'stop_reason' not in r

def test_anthropic_thinking_start_without_signature():
    "The docs' example omits `signature` on the thinking start; the dict path must cope."
    evs = copy.deepcopy(A_EVENTS); del evs[1]['content_block']['signature']
    assert assemble_anthropic(evs)==assemble_anthropic(a_objs(A_EVENTS))
    assert assemble_anthropic(evs[:4])['content']==[]

def test_anthropic_ignores_helper_events():
    "`messages.stream()` yields helper events (text, thinking, ...) besides raw ones: they're skipped."
    evs = A_EVENTS[:8] + [{'type':'text', 'text':'27', 'snapshot':'27'}] + A_EVENTS[8:]
    assert assemble_anthropic(evs)==assemble_anthropic(A_EVENTS)

# ---------------------------------------------------------------- OpenAI chat
def chunk(delta=None, fr=None, idx=0, **kw):
    c = {'id':'chatcmpl-9xyz', 'object':'chat.completion.chunk', 'created':1717000000, 'model':'gpt-4o-2024-08-06',
         'system_fingerprint':'fp_44709d6fcb', 'service_tier':'default', 'obfuscation':'abc',
         'choices':[] if delta is None else [{'index':idx, 'delta':delta, 'logprobs':None, 'finish_reason':fr}], 'usage':None}
    return {**c, **kw}

def tcd(i, args, id=None, name=None):
    d = {'index':i, 'function':{'arguments':args}}
    if id: d.update(id=id, type='function'); d['function']['name'] = name
    return d

USAGE = {'prompt_tokens':82, 'completion_tokens':48, 'total_tokens':130,
         'prompt_tokens_details':{'cached_tokens':0, 'audio_tokens':0},
         'completion_tokens_details':{'reasoning_tokens':0, 'audio_tokens':0, 'accepted_prediction_tokens':0, 'rejected_prediction_tokens':0}}
# parallel tool calls, streamed with stream_options={'include_usage': True}
C_TOOLS = [
    chunk({'role':'assistant', 'content':None, 'refusal':None}),
    chunk({'tool_calls':[tcd(0, '', 'call_abc123', 'get_weather')]}),
    chunk({'tool_calls':[tcd(0, '{"lo')]}),
    chunk({'tool_calls':[tcd(0, 'cation": "Paris", "unit"')]}),
    chunk({'tool_calls':[tcd(0, ': null}')]}),
    chunk({'tool_calls':[tcd(1, '', 'call_def456', 'get_time')]}),
    chunk({'tool_calls':[tcd(1, '{"tz": ')]}),
    chunk({'tool_calls':[tcd(1, '"Europe/Paris"}')]}),
    chunk({}, 'tool_calls'),
    chunk(None, usage=USAGE),
]
C_TEXT = [chunk({'role':'assistant', 'content':'', 'refusal':None})] + [chunk({'content':t}) for t in ['Hel', 'lo', ' wor', 'ld!']] + \
         [chunk({}, 'stop'), chunk(None, usage=USAGE)]
C_REFUSAL = [chunk({'role':'assistant', 'refusal':''}), chunk({'refusal':"I'm sorry, "}), chunk({'refusal':"I can't help."}),
             chunk({}, 'stop')]
LP = lambda t: {'content':[{'token':t, 'logprob':-0.1, 'bytes':list(t.encode()), 'top_logprobs':[]}], 'refusal':None}
C_N2 = [chunk({'role':'assistant', 'content':''}, idx=0), chunk({'role':'assistant', 'content':''}, idx=1),
        {**chunk({'content':'Yes'}, idx=0), 'choices':[{'index':0, 'delta':{'content':'Yes'}, 'logprobs':LP('Yes'), 'finish_reason':None}]},
        {**chunk({'content':'No'}, idx=1), 'choices':[{'index':1, 'delta':{'content':'No'}, 'logprobs':LP('No'), 'finish_reason':None}]},
        chunk({}, 'stop', idx=0), chunk({}, 'length', idx=1)]

def c_objs(ds):
    from openai.types.chat import ChatCompletionChunk
    return [ChatCompletionChunk.model_validate(d) for d in ds]

def c_sdk(objs):
    "The openai SDK's own accumulation of `objs`."
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    st = ChatCompletionStreamState()
    for c in objs: st.handle_chunk(c)
    from openai import LengthFinishReasonError
    try: return dump(st.get_final_completion())
    # quirk: get_final_completion raises on finish_reason='length' even with no response_format
    except LengthFinishReasonError: return dump(st.current_completion_snapshot)

def c_sdk_cmp(d):
    "SDK result minus what only the accumulator adds: tool_call `index`, `parsed*` fields."
    d = copy.deepcopy(d)
    for ch in d['choices']:
        m = ch['message']; m.pop('parsed', None)
        for t in m.get('tool_calls', []): t.pop('index', None); t['function'].pop('parsed_arguments', None)
    return d

@pytest.mark.parametrize('evs', [C_TOOLS, C_TEXT, C_REFUSAL, C_N2], ids=['tools', 'text', 'refusal', 'n2'])
def test_chat_matches_sdk(evs):
    from openai.types.chat import ChatCompletion
    objs = c_objs(evs)
    res = assemble_chat(objs)
    assert res==c_sdk_cmp(c_sdk(objs))
    assert dump(ChatCompletion.model_validate(res))==res
    for v in variants(objs).values(): assert assemble_chat(v)==res
    assert assemble_chat(evs)==res

def test_chat_content():
    r = assemble_chat(c_objs(C_TOOLS)); ch, = r['choices']
    assert ch['finish_reason']=='tool_calls' and r['usage']==USAGE and r['id']=='chatcmpl-9xyz' and 'obfuscation' not in r
    assert ch['message']=={'role':'assistant', 'tool_calls':[
        {'id':'call_abc123', 'type':'function', 'function':{'name':'get_weather', 'arguments':'{"location": "Paris", "unit": null}'}},
        {'id':'call_def456', 'type':'function', 'function':{'name':'get_time', 'arguments':'{"tz": "Europe/Paris"}'}}]}
    assert assemble_chat(C_TEXT)['choices'][0]['message']=={'role':'assistant', 'content':'Hello world!'}
    assert assemble_chat(C_REFUSAL)['choices'][0]['message']=={'role':'assistant', 'refusal':"I'm sorry, I can't help."}
    r = assemble_chat(C_N2)
    assert [(c['message']['content'], c['finish_reason'], c['logprobs']['content'][0]['token']) for c in r['choices']]==[
        ('Yes', 'stop', 'Yes'), ('No', 'length', 'No')]

def test_chat_repeated_ids_not_concatenated():
    "Some servers repeat id/name on every delta; they are taken once, not concatenated."
    evs = [chunk({'role':'assistant'}), chunk({'tool_calls':[tcd(0, '{"a"', 'call_1', 'f')]}),
           chunk({'tool_calls':[tcd(0, ': 1}', 'call_1', 'f')]}), chunk({}, 'tool_calls')]
    t, = assemble_chat(evs)['choices'][0]['message']['tool_calls']
    assert t=={'id':'call_1', 'type':'function', 'function':{'name':'f', 'arguments':'{"a": 1}'}}

def test_chat_interrupted():
    from openai.types.chat import ChatCompletion
    cut = lambda n: assemble_chat(c_objs(C_TOOLS[:n]))['choices'][0]
    full = assemble_chat(C_TOOLS)['choices'][0]['message']['tool_calls']
    assert cut(1)['message']=={'role':'assistant'} and 'finish_reason' not in cut(1)
    assert 'tool_calls' not in cut(2)['message']                     # no arguments yet
    assert 'tool_calls' not in cut(4)['message']                     # half JSON
    assert cut(5)['message']['tool_calls']==full[:1]
    assert cut(7)['message']['tool_calls']==full[:1]                 # second call half JSON
    assert cut(8)['message']['tool_calls']==full and 'finish_reason' not in cut(8)
    t = assemble_chat(C_TEXT[:3])['choices'][0]
    assert t['message']=={'role':'assistant', 'content':'Hello'}
    assert c_sdk(c_objs(C_TEXT[:3]))['choices'][0]['message']['content']=='Hello'
    for n in range(1, len(C_TOOLS)):
        r = assemble_chat(C_TOOLS[:n])
        assert r==assemble_chat(c_objs(C_TOOLS[:n]))
        if n<9: # ChatCompletion requires a finish_reason: everything else validates
            ChatCompletion.model_validate({**r, 'choices':[{**c, 'finish_reason':'stop'} for c in r['choices']]})

# ---------------------------------------------------------------- OpenAI responses
ENC = 'gAAAAABoX1vT' + 'x'*40 + '=='
TOOLS = [{'type':'function', 'name':'get_weather', 'description':'Weather', 'strict':True,
          'parameters':{'type':'object', 'properties':{'city':{'type':'string'}, 'unit':{'type':['string', 'null'], 'default':None}},
                        'required':['city', 'unit'], 'additionalProperties':False}}]
RBASE = {'id':'resp_68ab', 'object':'response', 'created_at':1756000000, 'status':'in_progress', 'model':'o4-mini-2025-04-16',
         'output':[], 'parallel_tool_calls':True, 'tool_choice':'auto', 'tools':TOOLS, 'error':None, 'incomplete_details':None,
         'instructions':None, 'metadata':{}, 'reasoning':{'effort':'medium', 'summary':'auto'}, 'store':False,
         'temperature':1.0, 'text':{'format':{'type':'text'}, 'verbosity':'medium'}, 'top_p':1.0, 'truncation':'disabled',
         'usage':None, 'background':False, 'max_output_tokens':None, 'previous_response_id':None, 'service_tier':'auto', 'user':None}
RS_DONE = {'id':'rs_1', 'type':'reasoning', 'encrypted_content':ENC, 'summary':[{'type':'summary_text', 'text':'**Checking weather**\n\nNeed the tool.'}]}
MSG_DONE = {'id':'msg_1', 'type':'message', 'status':'completed', 'role':'assistant',
            'content':[{'type':'output_text', 'text':'Let me check Paris.', 'annotations':[], 'logprobs':[]}]}
FC_DONE = {'id':'fc_1', 'type':'function_call', 'status':'completed', 'arguments':'{"city":"Paris","unit":null}',
           'call_id':'call_xyz', 'name':'get_weather'}

def r_events(final_output=True):
    evs = [
        {'type':'response.created', 'response':RBASE},
        {'type':'response.in_progress', 'response':RBASE},
        {'type':'response.output_item.added', 'output_index':0, 'item':{'id':'rs_1', 'type':'reasoning', 'summary':[]}},
        {'type':'response.reasoning_summary_part.added', 'item_id':'rs_1', 'output_index':0, 'summary_index':0, 'part':{'type':'summary_text', 'text':''}},
        {'type':'response.reasoning_summary_text.delta', 'item_id':'rs_1', 'output_index':0, 'summary_index':0, 'delta':'**Checking weather**\n\n', 'obfuscation':'q'},
        {'type':'response.reasoning_summary_text.delta', 'item_id':'rs_1', 'output_index':0, 'summary_index':0, 'delta':'Need the tool.', 'obfuscation':'q'},
        {'type':'response.reasoning_summary_text.done', 'item_id':'rs_1', 'output_index':0, 'summary_index':0, 'text':RS_DONE['summary'][0]['text']},
        {'type':'response.reasoning_summary_part.done', 'item_id':'rs_1', 'output_index':0, 'summary_index':0, 'part':RS_DONE['summary'][0]},
        {'type':'response.output_item.done', 'output_index':0, 'item':RS_DONE},
        {'type':'response.output_item.added', 'output_index':1, 'item':{'id':'msg_1', 'type':'message', 'status':'in_progress', 'role':'assistant', 'content':[]}},
        {'type':'response.content_part.added', 'item_id':'msg_1', 'output_index':1, 'content_index':0, 'part':{'type':'output_text', 'text':'', 'annotations':[], 'logprobs':[]}},
        {'type':'response.output_text.delta', 'item_id':'msg_1', 'output_index':1, 'content_index':0, 'delta':'Let me ', 'logprobs':[]},
        {'type':'response.output_text.delta', 'item_id':'msg_1', 'output_index':1, 'content_index':0, 'delta':'check Paris.', 'logprobs':[]},
        {'type':'response.output_text.done', 'item_id':'msg_1', 'output_index':1, 'content_index':0, 'text':'Let me check Paris.', 'logprobs':[]},
        {'type':'response.content_part.done', 'item_id':'msg_1', 'output_index':1, 'content_index':0, 'part':MSG_DONE['content'][0]},
        {'type':'response.output_item.done', 'output_index':1, 'item':MSG_DONE},
        {'type':'response.output_item.added', 'output_index':2, 'item':{**FC_DONE, 'status':'in_progress', 'arguments':''}},
        {'type':'response.function_call_arguments.delta', 'item_id':'fc_1', 'output_index':2, 'delta':'{"city":'},
        {'type':'response.function_call_arguments.delta', 'item_id':'fc_1', 'output_index':2, 'delta':'"Paris","unit"'},
        {'type':'response.function_call_arguments.delta', 'item_id':'fc_1', 'output_index':2, 'delta':':null}'},
        {'type':'response.function_call_arguments.done', 'item_id':'fc_1', 'output_index':2, 'arguments':FC_DONE['arguments']},
        {'type':'response.output_item.done', 'output_index':2, 'item':FC_DONE},
        {'type':'response.completed', 'response':{**RBASE, 'status':'completed', 'completed_at':1756000009,
            'output':[RS_DONE, MSG_DONE, FC_DONE], 'usage':{'input_tokens':75, 'input_tokens_details':{'cached_tokens':0, 'cache_write_tokens':0},
            'output_tokens':180, 'output_tokens_details':{'reasoning_tokens':128}, 'total_tokens':255}}},
    ]
    if not final_output: del evs[-1]['response']['output']
    return [{**e, 'sequence_number':i} for i,e in enumerate(evs)]

R_EVENTS = r_events()

def r_objs(ds):
    from openai.types.responses import ResponseStreamEvent
    ta = TypeAdapter(ResponseStreamEvent)
    return [ta.validate_python(d) for d in ds]

def r_sdk(objs):
    "The openai SDK's own accumulation: (final response or None, current snapshot)."
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai import omit
    st,final = ResponseStreamState(input_tools=omit, text_format=omit),None
    for e in objs:
        for ev in st.handle_event(e):
            if ev.type=='response.completed': final = dump(ev.response)
    return final, dump(st._ResponseStreamState__current_snapshot)

def strip_parsed(x):
    "SDK parse helpers add `parsed`/`parsed_arguments` to items: drop them."
    if isinstance(x, dict): return {k:strip_parsed(v) for k,v in x.items() if k not in ('parsed', 'parsed_arguments')}
    if isinstance(x, list): return [strip_parsed(o) for o in x]
    return x

def test_responses_matches_sdk():
    from openai.types.responses import Response
    objs = r_objs(R_EVENTS)
    res = assemble_responses(objs)
    final,_ = r_sdk(objs)
    assert strip_parsed(final)==res
    assert res['output']==[RS_DONE, MSG_DONE, FC_DONE] and res['status']=='completed'
    assert dump(Response.model_validate(res))==res
    assert res['tools'][0]['parameters']['properties']['unit']['default'] is None  # user payload untouched
    for v in variants(objs).values(): assert assemble_responses(v)==res
    assert assemble_responses(R_EVENTS)==res

def test_responses_completed_without_output():
    "A `response.completed` whose response lacks `output`: rebuilt from the done items, like the SDK does."
    from openai._models import construct_type
    from openai.types.responses import ResponseStreamEvent
    evs = r_events(final_output=False)
    objs = r_objs(evs[:-1]) + [construct_type(type_=ResponseStreamEvent, value=evs[-1])]
    res = assemble_responses(evs)
    assert res['output']==[RS_DONE, MSG_DONE, FC_DONE] and res['status']=='completed'
    final,_ = r_sdk(objs)
    assert strip_parsed(final)['output']==res['output']
    assert assemble_responses(objs)==res

def r_cut(n): return assemble_responses(r_objs(R_EVENTS[:n]))

def test_responses_interrupted():
    from openai.types.responses import Response
    assert r_cut(6)['output']==[]                        # reasoning summary streaming, no encrypted_content
    assert r_cut(9)['output']==[]                        # reasoning done, its following item never came
    assert r_cut(11)['output']==[]                       # message started, no text: nothing to send
    r = r_cut(12)
    assert r['status']=='incomplete'
    assert r['output']==[RS_DONE, {**MSG_DONE, 'status':'incomplete', 'content':[{**MSG_DONE['content'][0], 'text':'Let me '}]}]
    assert r['output'][0]['encrypted_content']==ENC
    _,snap = r_sdk(r_objs(R_EVENTS[:12]))                # the SDK snapshot holds the same text
    assert snap['output'][1]['content'][0]['text']=='Let me '
    assert r_cut(16)['output']==[RS_DONE, MSG_DONE]
    assert r_cut(19)['output']==[RS_DONE, MSG_DONE]      # function call arguments cut
    assert r_cut(21)['output']==[RS_DONE, MSG_DONE, FC_DONE]  # arguments.done arrived
    assert r_cut(22)['output']==[RS_DONE, MSG_DONE, FC_DONE] and r_cut(22)['status']=='incomplete'
    for n in range(1, len(R_EVENTS)+1):
        r = r_cut(n)
        Response.model_validate(r)
        assert r==assemble_responses(R_EVENTS[:n])
        if r['output']: assert r['output'][-1]['type']!='reasoning'

def test_responses_incomplete_event():
    "`response.incomplete` carries the full response: used as is."
    inc = {**RBASE, 'status':'incomplete', 'incomplete_details':{'reason':'max_output_tokens'},
           'output':[RS_DONE, {**MSG_DONE, 'status':'incomplete'}]}
    evs = R_EVENTS[:16] + [{'type':'response.incomplete', 'response':inc, 'sequence_number':16}]
    r = assemble_responses(r_objs(evs))
    assert r['status']=='incomplete' and r['incomplete_details']=={'reason':'max_output_tokens'}
    assert r['output']==inc['output']

# ---------------------------------------------------------------- Gemini
SIG1,SIG2,SIG3 = b'\x12\x34CiQB\x00\xff\xfe' + bytes(range(256)), b'\nsig-two\x00\x80', b'\xc3\x28third'

def gchunk(parts=None, fr=None, usage=None, **kw):
    c = {'model_version':'gemini-2.5-flash', 'response_id':'Z3dHaM-abc', 'create_time':None}
    cd = {'index':0}
    if parts is not None: cd['content'] = {'role':'model', 'parts':parts}
    if fr: cd['finish_reason'] = fr
    c['candidates'] = [cd]
    if usage: c['usage_metadata'] = usage
    return {**c, **kw}

U1 = {'prompt_token_count':12, 'total_token_count':40, 'thoughts_token_count':28}
U2 = {'prompt_token_count':12, 'candidates_token_count':20, 'total_token_count':90, 'thoughts_token_count':58}
# thought summaries, then an answer whose signature arrives on an empty-text part in the last chunk
G_TEXT = [
    gchunk([{'text':'**Planning the answer**\n\n', 'thought':True}], usage=U1),
    gchunk([{'text':'I will compute 2+2.', 'thought':True}], usage=U1),
    gchunk([{'text':'2 + 2'}], usage=U1),
    gchunk([{'text':' = 4.'}], usage=U1),
    gchunk([{'text':'', 'thought_signature':SIG1}], 'STOP', U2),
]
# thoughts, text, then parallel function calls: the first carries the signature
G_TOOLS = [
    gchunk([{'text':'Need weather for two cities.', 'thought':True}], usage=U1),
    gchunk([{'text':'Checking both.'}], usage=U1),
    gchunk([{'function_call':{'name':'get_weather', 'args':{'city':'Paris', 'unit':None}}, 'thought_signature':SIG2}], usage=U1),
    gchunk([{'function_call':{'name':'get_weather', 'args':{'city':'Rome'}}}], 'STOP', U2),
]
# two signed text parts in a row, and a lone signature after a thought: never merged
G_SIGS = [
    gchunk([{'text':'Part A', 'thought_signature':SIG1}]),
    gchunk([{'text':' B', 'thought_signature':SIG2}]),
    gchunk([{'text':'thinking', 'thought':True}]),
    gchunk([{'text':'', 'thought_signature':SIG3}]),
    gchunk([{'text':''}], 'STOP'),
]

def g_objs(ds):
    from google.genai.types import GenerateContentResponse
    return [GenerateContentResponse.model_validate(d) for d in ds]

def g_variants(objs):
    return {'obj':objs, 'dump':[o.model_dump() for o in objs], 'json':[o.model_dump(mode='json') for o in objs],
            'rest':[o.model_dump(mode='json', by_alias=True, exclude_none=True) for o in objs]}

def g_parts(r): return r['candidates'][0]['content']['parts']

@pytest.mark.parametrize('evs', [G_TEXT, G_TOOLS, G_SIGS], ids=['text', 'tools', 'sigs'])
def test_gemini_validates_and_variants(evs):
    from google.genai.types import GenerateContentResponse
    objs = g_objs(evs)
    res = assemble_gemini(objs)
    assert dump(GenerateContentResponse.model_validate(res))==res
    for k,v in g_variants(objs).items(): assert assemble_gemini(v)==res, k

def test_gemini_expected():
    r = assemble_gemini(g_objs(G_TEXT))
    assert g_parts(r)==[{'text':'**Planning the answer**\n\nI will compute 2+2.', 'thought':True},
                        {'text':'2 + 2 = 4.', 'thought_signature':SIG1}]
    c = r['candidates'][0]
    assert c['finish_reason']=='STOP' and r['usage_metadata']==U2 and r['response_id']=='Z3dHaM-abc'
    r = assemble_gemini(g_objs(G_TOOLS))
    assert g_parts(r)==[{'text':'Need weather for two cities.', 'thought':True}, {'text':'Checking both.'},
        {'function_call':{'name':'get_weather', 'args':{'city':'Paris', 'unit':None}}, 'thought_signature':SIG2},
        {'function_call':{'name':'get_weather', 'args':{'city':'Rome'}}}]
    r = assemble_gemini(g_objs(G_SIGS))
    assert g_parts(r)==[{'text':'Part A', 'thought_signature':SIG1}, {'text':' B', 'thought_signature':SIG2},
                        {'text':'thinking', 'thought':True}, {'text':'', 'thought_signature':SIG3}]
    for k,v in g_variants(g_objs(G_SIGS)).items():
        sigs = [p['thought_signature'] for p in g_parts(assemble_gemini(v)) if 'thought_signature' in p]
        assert sigs==[SIG1, SIG2, SIG3] and all(type(s) is bytes for s in sigs), k

def test_gemini_interrupted():
    from google.genai.types import GenerateContentResponse
    r = assemble_gemini(g_objs(G_TEXT[:4]))
    assert g_parts(r)==[{'text':'**Planning the answer**\n\nI will compute 2+2.', 'thought':True}, {'text':'2 + 2 = 4.'}]
    assert 'finish_reason' not in r['candidates'][0]
    r = assemble_gemini(g_objs(G_TOOLS[:3]))
    assert g_parts(r)[-1]['thought_signature']==SIG2 and 'finish_reason' not in r['candidates'][0]
    for evs in (G_TEXT, G_TOOLS, G_SIGS):
        for n in range(1, len(evs)+1):
            r = assemble_gemini(evs[:n])
            GenerateContentResponse.model_validate(r)
            assert all(p.get('text') or set(p)-{'text', 'thought'} for p in g_parts(r))  # no empty text parts

# ---------------------------------------------------------------- Bedrock
BSIG = 'ErcBCkgIBhABGAIiQMnb7Rr1Hx0Jy+6Rj3p2zd3CiKQ=='
BRED = b'\x00\x01\x02redacted\xff' * 3
def bd(i, **delta): return {'contentBlockDelta':{'delta':delta, 'contentBlockIndex':i}}
def bstop(i): return {'contentBlockStop':{'contentBlockIndex':i}}
B_EVENTS = [
    {'messageStart':{'role':'assistant'}},
    bd(0, reasoningContent={'text':'The user wants the weather'}),
    bd(0, reasoningContent={'text':' in Paris.'}),
    bd(0, reasoningContent={'signature':BSIG}),
    bstop(0),
    bd(1, reasoningContent={'redactedContent':BRED}),
    bstop(1),
    bd(2, text='Let me check'),
    bd(2, text=' the weather.'),
    bstop(2),
    {'contentBlockStart':{'start':{'toolUse':{'toolUseId':'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'name':'get_weather'}}, 'contentBlockIndex':3}},
    bd(3, toolUse={'input':''}),
    bd(3, toolUse={'input':'{"city": "Pa'}),
    bd(3, toolUse={'input':'ris", "unit": null}'}),
    bstop(3),
    {'messageStop':{'stopReason':'tool_use'}},
    {'metadata':{'usage':{'inputTokens':412, 'outputTokens':96, 'totalTokens':508}, 'metrics':{'latencyMs':2113}}},
]
B_EXPECTED = {
    'output':{'message':{'role':'assistant', 'content':[
        {'reasoningContent':{'reasoningText':{'text':'The user wants the weather in Paris.', 'signature':BSIG}}},
        {'reasoningContent':{'redactedContent':BRED}},
        {'text':'Let me check the weather.'},
        {'toolUse':{'toolUseId':'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'name':'get_weather', 'input':{'city':'Paris', 'unit':None}}}]}},
    'stopReason':'tool_use',
    'usage':{'inputTokens':412, 'outputTokens':96, 'totalTokens':508},
    'metrics':{'latencyMs':2113}}

def b_check(res):
    "The result matches botocore's Converse output shape, and its message is a valid next-call input."
    import botocore.session
    from botocore.validate import ParamValidator
    m = botocore.session.get_session().get_service_model('bedrock-runtime')
    v = ParamValidator()
    # botocore has no output validator: validate output as if it were input (unions, types, required);
    # an interrupted result has no stopReason/usage/metrics, which the shape requires
    filled = {'stopReason':'end_turn', 'usage':{'inputTokens':1, 'outputTokens':1, 'totalTokens':2}, 'metrics':{'latencyMs':1}, **res}
    assert not v.validate(filled, m.operation_model('Converse').output_shape).has_errors()
    msgs = [{'role':'user', 'content':[{'text':'Weather in Paris?'}]}, res['output']['message']]
    if res['output']['message']['content']:
        assert not v.validate({'modelId':'anthropic.claude', 'messages':msgs}, m.operation_model('Converse').input_shape).has_errors()

def test_bedrock_expected():
    res = assemble_bedrock(B_EVENTS)
    assert res==B_EXPECTED
    b_check(res)

def b_content(n): return assemble_bedrock(B_EVENTS[:n])['output']['message']['content']

def test_bedrock_interrupted():
    full = B_EXPECTED['output']['message']['content']
    assert b_content(3)==[]                        # reasoning text, no signature: dropped
    assert b_content(4)==full[:1]                  # signature arrived: kept
    assert b_content(4)[0]['reasoningContent']['reasoningText']['signature']==BSIG
    assert b_content(6)[1]['reasoningContent']['redactedContent']==BRED  # opaque bytes intact
    assert b_content(8)==full[:2] + [{'text':'Let me check'}]
    assert b_content(12)==full[:3]                 # tool use, no input yet
    assert b_content(13)==full[:3]                 # half JSON
    assert b_content(14)==full                     # JSON complete, no stop
    assert 'stopReason' not in assemble_bedrock(B_EVENTS[:15])
    for n in range(1, len(B_EVENTS)+1):
        r = assemble_bedrock(B_EVENTS[:n])
        b_check(r)
        if n<16: assert 'stopReason' not in r

def test_bedrock_unsigned_reasoning_complete():
    "Models without signatures (e.g. DeepSeek-R1): a finished reasoning block is kept."
    evs = [{'messageStart':{'role':'assistant'}}, bd(0, reasoningContent={'text':'hmm'}), bstop(0), bd(1, text='Hi'), bstop(1),
           {'messageStop':{'stopReason':'end_turn'}}]
    assert assemble_bedrock(evs)['output']['message']['content']==[{'reasoningContent':{'reasoningText':{'text':'hmm'}}}, {'text':'Hi'}]
    assert assemble_bedrock(evs[:2])['output']['message']['content']==[]

# ---------------------------------------------------------------- stream_msg: assembled messages go back into history
STREAMS = dict(anthropic=A_EVENTS, anthropic_cite=A_CITE_EVENTS, openai_chat=C_TOOLS, openai=R_EVENTS, gemini=G_TOOLS, gemini_sigs=G_SIGS,
               bedrock=B_EVENTS)

def _ev_json(evs): return [json.loads(o.model_dump_json()) if hasattr(o, 'model_dump_json') else o for o in evs]

@pytest.mark.parametrize('cut', [None, 0.5, 0.8])
@pytest.mark.parametrize('name', list(STREAMS))
def test_stream_msg_into_history(name, cut):
    "Whole or cut short, a stream's message (from SDK events or their JSON) goes into the next request and passes the oracle"
    evs = STREAMS[name]
    if cut: evs = evs[:max(2, int(len(evs)*cut))]
    api = stream_response(evs)[0]
    m = stream_msg(evs)
    assert stream_msg(_ev_json(evs)) == m
    def hist(m, a):
        "The question, the streamed message, answers to its tool calls (the APIs require them), and the next question"
        cs = tool_calls(m)
        return mk_msgs(["What's the weather?", m] + ([mk_toolres(cs, ['Sunny']*len(cs), api=a)] if cs else []) + ["Go on"], api=a)
    check(api, hist(m, api))
    for dst in ('openai', 'anthropic', 'gemini', 'bedrock', 'openai_chat'): check(dst, hist(stream_msg(evs, api=dst), dst))

def test_stream_keeps_signatures():
    m = stream_msg(A_EVENTS)
    assert [b['signature'] for b in m['content'] if b['type']=='thinking'] == [ASIG]
    m = stream_msg(B_EVENTS)
    assert [b['reasoningContent'] for b in m['content'] if 'reasoningContent' in b][0]['reasoningText']['signature'] == BSIG

def test_stream_unknown_events():
    with pytest.raises(TypeError, match='Not an event'): stream_msg([{'foo': 1}])
    with pytest.raises(ValueError, match='no events'): stream_msg([])

def test_bedrock_stream_response_dict():
    "boto3's converse_stream response (a dict holding the event stream) works as it is"
    assert stream_msg({'stream': iter(B_EVENTS), 'ResponseMetadata': {}}) == stream_msg(B_EVENTS)
