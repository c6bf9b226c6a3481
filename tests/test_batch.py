"""Provider batch files: every line of mk_batch's output validates against that API's request type, the stream is lazy,
ids are unique and stable, and read_batch reads the providers' documented output lines back into responses."""
import itertools, json
import pytest
from msgkit import *
from msgkit.batch import mk_batch, read_batch, batch_line, BatchError
from oracle import check_openai, check_openai_chat, check_anthropic, check_bedrock, MODEL_ID
from test_cli import msgkit

png = sample('gradient.png').read_bytes()
def get_weather(location:str)->str:
    "Current weather"

HISTS = ["What is 2+2?", ("with-image", [[png, "What is in this picture?"]]),
         ("tool-loop", ["Weather in Paris?", dict(role='assistant', content=None, tool_calls=[dict(id='call_1', type='function',
                        function=dict(name='get_weather', arguments='{"location": "Paris"}'))]), dict(role='tool', tool_call_id='call_1', content='Sunny')])]
MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4o', anthropic='claude-sonnet-4-5', gemini='gemini-2.5-flash', bedrock=MODEL_ID)

def _gemini_line(req):
    "A Gemini batch request (the REST body) validated field by field with google-genai's models (they take camelCase and base64)"
    from google.genai import types
    from oracle import _gem_validate
    import warnings
    assert set(req) <= {'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings', 'cachedContent'}, set(req)
    for i, c in enumerate(req['contents']): types.Content.model_validate(c)
    if 'systemInstruction' in req: types.Content.model_validate(req['systemInstruction'])
    for t in req.get('tools', []): types.Tool.model_validate(t)
    if 'generationConfig' in req: types.GenerationConfig.model_validate(req['generationConfig'])
    if 'toolConfig' in req: types.ToolConfig.model_validate(req['toolConfig'])

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_lines_validate(api):
    "Each line is that API's batch line, and its request is one the API's request type takes"
    lines = list(mk_batch(HISTS, api, model=MODEL[api], system='Be brief.', max_tokens=100, tools=[get_weather]))
    assert len(lines) == 3
    json.dumps(lines)
    for o in lines:
        if api in ('openai', 'openai_chat'):
            assert set(o) == {'custom_id', 'method', 'url', 'body'} and o['method'] == 'POST'
            assert o['url'] == {'openai':'/v1/responses', 'openai_chat':'/v1/chat/completions'}[api]
            b = {k:v for k,v in o['body'].items() if k!='model'}
            (check_openai(b.pop('input'), **b) if api=='openai' else check_openai_chat(b.pop('messages'), **b))
        elif api=='anthropic':
            assert set(o) == {'custom_id', 'params'}
            p = {k:v for k,v in o['params'].items() if k not in ('model', 'max_tokens')}
            check_anthropic(p.pop('messages'), **p)
        elif api=='gemini':
            assert set(o) == {'key', 'request'}
            _gemini_line(o['request'])
        else:
            assert set(o) == {'recordId', 'modelInput'}
            mi = dict(o['modelInput'])
            assert mi.pop('anthropic_version') == 'bedrock-2023-05-31'  # Claude's native InvokeModel body on Bedrock
            check_anthropic(mi.pop('messages'), **{k:v for k,v in mi.items() if k!='max_tokens'})
    ids = [o.get('custom_id') or o.get('key') or o.get('recordId') for o in lines]
    assert ids == ['request-0', 'with-image', 'tool-loop']

def test_bedrock_converse_body_for_other_models():
    o = batch_line("r1", [["Hi", png]], "bedrock", model="amazon.nova-pro-v1:0", max_tokens=50)
    mi = o['modelInput']
    check_bedrock(mk_msgs(mi['messages'], api='bedrock'), inferenceConfig=mi['inferenceConfig'])

def test_streams_and_ids():
    "mk_batch reads its input lazily (an endless generator works), ids are stable and must be unique and well formed"
    endless = (f"prompt {i}" for i in itertools.count())
    first = list(itertools.islice(mk_batch(endless, 'anthropic', model='m', max_tokens=5), 3))
    assert [o['custom_id'] for o in first] == ['request-0', 'request-1', 'request-2']
    assert list(mk_batch(['a', 'b'], 'gemini')) == list(mk_batch(['a', 'b'], 'gemini'))
    with pytest.raises(ValueError, match="comes twice"): list(mk_batch([('x', 'a'), ('x', 'b')], 'openai', model='m'))
    with pytest.raises(ValueError, match="comes twice"): list(mk_batch(['a', ('request-0', 'b')], 'openai', model='m'))  # a made id, taken again
    with pytest.raises(ValueError, match="comes twice"): list(mk_batch([('request-1', 'a'), 'b'], 'openai', model='m'))
    assert [o['custom_id'] for o in mk_batch([('request-0', 'a'), 'b'], 'openai', model='m')] == ['request-0', 'request-1']
    with pytest.raises(ValueError, match="A batch id is"): list(mk_batch([('x'*65, 'a')], 'openai', model='m'))
    with pytest.raises(ValueError, match="name their model"): list(mk_batch(['a'], 'anthropic'))

# documented example output lines
OPENAI_OUT = ('{"id": "batch_req_123", "custom_id": "request-2", "response": {"status_code": 200, "request_id": "req_123", "body": {"id": "chatcmpl-123", '
              '"object": "chat.completion", "created": 1711652795, "model": "gpt-3.5-turbo-0125", "choices": [{"index": 0, "message": {"role": "assistant", '
              '"content": "Hello."}, "logprobs": null, "finish_reason": "stop"}], "usage": {"prompt_tokens": 22, "completion_tokens": 2, "total_tokens": 24}, '
              '"system_fingerprint": "fp_123"}}, "error": null}')
OPENAI_ERR = '{"id": "batch_req_456", "custom_id": "request-3", "response": null, "error": {"code": "server_error", "message": "Request failed"}}'
ANT_OUT = ('{"custom_id":"my-first-request","result":{"type":"succeeded","message":{"id":"msg_014VwiXbi91y3JMjcpyGBHX5","type":"message","role":"assistant",'
           '"model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Hello again! It\'s nice to see you."}],"stop_reason":"end_turn",'
           '"stop_sequence":null,"usage":{"input_tokens":11,"output_tokens":36}}}}')
ANT_ERR = '{"custom_id":"my-second-request","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"Validation error"}}}}'
GEM_OUT = ('{"key": "request-1", "response": {"candidates": [{"content": {"parts": [{"text": "Paris."}], "role": "model"}, "finishReason": "STOP"}], '
           '"usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 2, "totalTokenCount": 10}, "modelVersion": "gemini-2.5-flash"}}')
GEM_ERR = '{"key": "request-2", "status": {"code": 3, "message": "Invalid argument"}}'
BED_OUT = ('{"recordId": "CALL0000001", "modelInput": {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 50, "messages": [{"role": "user", '
           '"content": "Hi"}]}, "modelOutput": {"id": "msg_bdrk_01", "type": "message", "role": "assistant", "model": "claude-3-5-sonnet-20240620", '
           '"content": [{"type": "text", "text": "Hello!"}], "stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": 8, "output_tokens": 4}}}')
BED_ERR = '{"recordId": "CALL0000002", "modelInput": {}, "error": {"errorCode": 400, "errorMessage": "bad request"}}'

@pytest.mark.parametrize('api,ok,bad,text', [('openai_chat', OPENAI_OUT, OPENAI_ERR, 'Hello.'), ('anthropic', ANT_OUT, ANT_ERR, "Hello again! It's nice to see you."),
                                             ('gemini', GEM_OUT, GEM_ERR, 'Paris.'), ('bedrock', BED_OUT, BED_ERR, 'Hello!')])
def test_read_batch(api, ok, bad, text):
    "Output lines come back as responses msg_text, usage, finish_reason and mk_msgs take; failures as BatchErrors"
    (i1, r), (i2, e) = read_batch([ok + '\n', '\n', bad.encode()], api)
    assert msg_text(r) == text and usage(r)['output'] > 0 and finish_reason(r) == 'stop'
    assert isinstance(e, BatchError) and isinstance(e, ValueError) and e.id == i2
    target = 'anthropic' if api=='bedrock' else api
    check = __import__('oracle').check
    check(target, mk_msgs(['Hi', r, 'Thanks'], api=target))

def test_read_batch_errors():
    with pytest.raises(ValueError, match='Line 1 of the batch output is not JSON'): list(read_batch(['{bad'], 'openai'))

def test_cli_batch(tmp_path):
    p = tmp_path/'prompts.jsonl'
    p.write_text('"What is 2+2?"\n\n{"id": "cap", "prompt": "Capital of France?"}\n{"messages": ["Hi", "Hello!", "Bye"]}\n')
    out = [json.loads(l) for l in msgkit('batch', '--api', 'anthropic', '--model', 'claude-sonnet-4-5', '--max-tokens', '50', str(p)).splitlines()]
    assert out == list(mk_batch([('request-0', ['What is 2+2?']), ('cap', ['Capital of France?']), ('request-3', ['Hi', 'Hello!', 'Bye'])],
                                'anthropic', model='claude-sonnet-4-5', max_tokens=50))
    p.write_text('{"id": 0, "prompt": "zero"}\n')
    assert json.loads(msgkit('batch', '--api', 'gemini', str(p)))['key'] == '0'
    stdin = msgkit('batch', '--api', 'gemini', input='"hi"\n')
    assert json.loads(stdin) == {'key': 'request-0', 'request': {'contents': [{'role': 'user', 'parts': [{'text': 'hi'}]}]}}

def test_progress(capsys):
    list(mk_batch(['a']*2500, 'gemini', progress=True))
    err = capsys.readouterr().err
    assert 'msgkit: 1,000/2,500 requests' in err and '2,500/2,500' in err

def test_ids_that_only_look_made():
    assert [o['custom_id'] for o in mk_batch(['a', 'b', ('request-01', ['c'])], 'anthropic', model='m')] == ['request-0', 'request-1', 'request-01']
