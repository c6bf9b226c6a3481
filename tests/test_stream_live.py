"""Streams as they arrive (issue 20, item 9): `MsgStream` and `stream_msg` on each API's real SDK stream events, sync
and async (the SDK clients driven through mock transports that answer with that API's SSE body, or for Bedrock, its
event-stream frames), and on the raw bodies themselves, whole, in chunks of every size, or as the lines an HTTP client
gives. The events are test_stream's realistic ones, written in each API's documented wire format:
Responses https://platform.openai.com/docs/api-reference/responses-streaming (`event:`/`data:`, no `[DONE]`);
Chat https://platform.openai.com/docs/api-reference/chat-streaming (`data:` and `data: [DONE]`);
Anthropic https://docs.anthropic.com/en/docs/build-with-claude/streaming (`event:`/`data:`, `ping`, `error`);
Gemini https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent (`alt=sse`, `data:`, camelCase, CRLF);
Bedrock https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html (AWS event-stream)."""
import asyncio, base64, copy, json, random, struct, zlib
import pytest
from msgkit import stream_msg, stream_response, tool_calls, msg_text, mk_msgs
from msgkit.stream import MsgStream, StreamError, body_events, SSE, EventStream
from oracle import check
from test_stream import A_EVENTS, C_TOOLS, R_EVENTS, G_TOOLS, B_EVENTS, BRED

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
WIDE = 'Paris — café ☀ 東京'  # text whose UTF-8 bytes a chunk boundary can split

def _wide(evs, api):
    "The events with a non-ASCII text delta added to the answer, so that chunking can split a character"
    evs = copy.deepcopy(evs)
    if api=='anthropic': evs[8]['delta']['text'] += WIDE
    elif api=='openai':
        evs[12]['delta'] += WIDE
        for e in evs[13:]:
            if e.get('type')=='response.output_text.done': e['text'] += WIDE
            if e.get('type')=='response.content_part.done': e['part'] = {**e['part'], 'text':e['part']['text']+WIDE}
            it = e.get('item') or {}
            if it.get('type')=='message' and it.get('content'):
                e['item'] = {**it, 'content':[{**it['content'][0], 'text':it['content'][0]['text']+WIDE}]}
            r = e.get('response') or {}
            if r.get('output'):
                e['response'] = {**r, 'output':[{**o, 'content':[{**o['content'][0], 'text':o['content'][0]['text']+WIDE}]}
                                                if o['type']=='message' else o for o in r['output']]}
    elif api=='openai_chat': evs.insert(1, {**evs[1], 'choices':[{'index':0, 'delta':{'content':WIDE}, 'logprobs':None,
                                                                   'finish_reason':None}]})
    elif api=='gemini': evs[1]['candidates'][0]['content']['parts'][0]['text'] += WIDE
    else: evs[8]['contentBlockDelta']['delta']['text'] += WIDE
    return evs

def _gem_rest(d):
    "A Gemini chunk as the REST API sends it: camelCase, bytes as base64"
    from google.genai.types import GenerateContentResponse
    return GenerateContentResponse.model_validate(d).model_dump(mode='json', by_alias=True, exclude_none=True)

def _frame(k, payload, mt='event'):
    "An AWS event-stream frame, built from the spec (checked against botocore's own decoder below)"
    h = b''.join(bytes([len(n)]) + n.encode() + b'\x07' + len(v.encode()).to_bytes(2, 'big') + v.encode()
                 for n,v in {f':{mt}-type':k, ':content-type':'application/json', ':message-type':mt}.items())
    b = json.dumps(payload, ensure_ascii=False).encode()
    pre = struct.pack('>II', 16+len(h)+len(b), len(h))
    m = pre + struct.pack('>I', zlib.crc32(pre)) + h + b
    return m + struct.pack('>I', zlib.crc32(m))

def _b64(o):
    if isinstance(o, bytes): return base64.b64encode(o).decode()
    if isinstance(o, dict): return {k:_b64(v) for k,v in o.items()}
    if isinstance(o, list): return [_b64(v) for v in o]
    return o

def body(api, evs=None):
    "The HTTP body of the stream of `evs` (each API's fixture by default), as the API sends it"
    evs = _wide({'openai':R_EVENTS, 'openai_chat':C_TOOLS, 'anthropic':A_EVENTS, 'gemini':G_TOOLS, 'bedrock':B_EVENTS}[api],
                api) if evs is None else evs
    js = lambda d: json.dumps(d, ensure_ascii=False, separators=(',', ':'))
    if api=='openai': return ''.join(f"event: {e['type']}\ndata: {js(e)}\n\n" for e in evs).encode()
    if api=='openai_chat': return (''.join(f"data: {js(e)}\n\n" for e in evs) + 'data: [DONE]\n\n').encode()
    if api=='anthropic':
        out = [f"event: {e['type']}\ndata: {js(e)}\n\n" for e in evs]
        out.insert(1, 'event: ping\ndata: {"type": "ping"}\n\n')
        return ''.join(out).encode()
    if api=='gemini': return ''.join(f"data: {js(_gem_rest(e))}\r\n\r\n" for e in evs).encode()
    # boto3 sends blobs in event payloads as base64; Bedrock pads each event with a `p` field
    return b''.join(_frame(k, {**_b64(v), 'p':'abcdefghij'[:i%7]}) for i,e in enumerate(evs) for k,v in e.items())

# ---------------------------------------------------------------- the real SDK clients, through mock transports
def _h(hx, b, ctype='text/event-stream'): return hx.MockTransport(lambda req: hx.Response(200, headers={'content-type':ctype}, content=b))

def sdk_stream(api, b, aio=False):
    "The SDK's stream object for a request answered with body `b` (an async one with `aio`)"
    if api in ('openai', 'openai_chat'):
        import openai, httpx2
        c = (openai.AsyncOpenAI if aio else openai.OpenAI)(api_key='sk-test', base_url='http://mock/v1', max_retries=0,
            http_client=(httpx2.AsyncClient if aio else httpx2.Client)(transport=_h(httpx2, b)))
        if api=='openai': return c.responses.create(model='o4-mini', input='Weather in Paris?', stream=True)
        return c.chat.completions.create(model='gpt-4o', messages=[{'role':'user', 'content':'Weather?'}], stream=True)
    if api=='anthropic':
        import anthropic, httpx2
        c = (anthropic.AsyncAnthropic if aio else anthropic.Anthropic)(api_key='sk-test', base_url='http://mock', max_retries=0,
            http_client=(httpx2.AsyncClient if aio else httpx2.Client)(transport=_h(httpx2, b)))
        return c.messages.create(model='claude-sonnet-4-5', max_tokens=100, messages=[{'role':'user', 'content':'Hi'}], stream=True)
    if api=='gemini':
        import httpx
        from google import genai
        from google.genai import types
        opts = (dict(httpx_async_client=httpx.AsyncClient(transport=_h(httpx, b))) if aio
                else dict(httpx_client=httpx.Client(transport=_h(httpx, b))))
        c = genai.Client(api_key='test', vertexai=False, http_options=types.HttpOptions(base_url='http://mock', **opts))
        return (c.aio if aio else c).models.generate_content_stream(model='gemini-2.5-flash', contents='Weather in Paris?')
    import boto3, botocore.awsrequest, io
    class Raw(io.BytesIO):
        def stream(self, amt=1024, decode_content=None):
            while (c := self.read(amt)): yield c
    c = boto3.client('bedrock-runtime', region_name='us-east-1', aws_access_key_id='x', aws_secret_access_key='x')
    c.meta.events.register('before-send.bedrock-runtime.ConverseStream', lambda request, **kw: botocore.awsrequest.AWSResponse(
        request.url, 200, {'content-type':'application/vnd.amazon.eventstream'}, Raw(b)))
    return c.converse_stream(modelId='anthropic.claude-3-5-sonnet-20240620-v1:0', messages=[{'role':'user', 'content':[{'text':'Hi'}]}])

async def async_stream(api, b):
    "The async SDK stream (Gemini's `client.aio` call is awaited first)"
    s = sdk_stream(api, b, aio=True)
    return (await s) if asyncio.iscoroutine(s) else s

def events(api, b=None):
    "The SDK's own stream events for the fixture body"
    s = sdk_stream(api, body(api) if b is None else b)
    return list(s['stream'] if api=='bedrock' else s)

def want(api):
    "What the stream says: its text and its tool calls, as the SDK's events give them"
    r = stream_response(events(api))[1]
    return msg_text(r), tool_calls(r)

def shown(ds):
    "The text the deltas show, and the tool calls their pieces add up to"
    calls = {}
    for d in ds:
        if d['type']=='tool_call':
            c = calls.setdefault(d['index'], dict(id=None, name=None, args=''))
            for k in ('id','name'):
                if d.get(k): c[k] = d[k]
            c['args'] += d['args']
    return ''.join(d['text'] for d in ds if d['type']=='text'), [dict(c, args=json.loads(c['args'])) for c in calls.values()]

# ---------------------------------------------------------------- the SDK's events, one at a time
@pytest.mark.parametrize('api', APIS)
def test_deltas_of_sdk_events(api):
    "Each SDK event's deltas, read as they come, show the answer's text and add up to its tool calls; `msg` at the end is stream_msg's"
    evs = events(api)
    s = MsgStream()
    ds = [d for e in evs for d in s.add(e)]
    text, calls = shown(ds)
    mt, tcs = want(api)
    assert text==mt and WIDE in text, (text, mt)
    assert s.text==text
    # (msgkit's readers drop `null` tool arguments for some APIs, so those are compared without them here; the SDKs'
    # own accumulators below keep them, and so do the deltas)
    nn = lambda a: {k:v for k,v in a.items() if v is not None}
    assert [(c['name'], nn(c['args'])) for c in calls]==[(t['name'], nn(t['args'])) for t in tcs]
    assert [c['id'] for c in calls if c['id']]==[t['id'] for t in tcs if api!='gemini']
    assert s.msg==stream_msg(evs) and s.response==stream_response(evs)[1]
    assert set(d['type'] for d in ds) >= {'text', 'tool_call'} | ({'thinking'} if api!='openai_chat' else set())
    check(api, mk_msgs(['Weather in Paris?', s.msg], api=api))  # the message goes back to the API as it is

def test_deltas_match_the_sdks_own_accumulators():
    "The text shown equals what the SDKs' own stream helpers make of the same bodies"
    import openai, anthropic, httpx2
    oc = openai.OpenAI(api_key='sk', base_url='http://mock/v1', http_client=httpx2.Client(transport=_h(httpx2, body('openai'))))
    with oc.responses.stream(model='o4-mini', input='hi') as st: r = st.get_final_response()
    assert shown(MsgStream(events('openai')))[0] in r.output_text
    oc = openai.OpenAI(api_key='sk', base_url='http://mock/v1', http_client=httpx2.Client(transport=_h(httpx2, body('openai_chat'))))
    with oc.chat.completions.stream(model='gpt-4o', messages=[{'role':'user', 'content':'hi'}]) as st: c = st.get_final_completion()
    got = shown(MsgStream(events('openai_chat')))
    assert got[0]==(c.choices[0].message.content or '')
    assert [t['args'] for t in got[1]]==[json.loads(t.function.arguments) for t in c.choices[0].message.tool_calls]
    ac = anthropic.Anthropic(api_key='sk', base_url='http://mock', http_client=httpx2.Client(transport=_h(httpx2, body('anthropic'))))
    with ac.messages.stream(model='claude-sonnet-4-5', max_tokens=10, messages=[{'role':'user', 'content':'hi'}]) as st:
        helper = list(st)  # the helper's own events (text, input_json, ...) beside the raw ones
        m = st.get_final_message()
    got = shown(MsgStream(helper))
    assert got[0]==''.join(b.text for b in m.content if b.type=='text')
    assert [t['args'] for t in got[1]]==[b.input for b in m.content if b.type=='tool_use']

# ---------------------------------------------------------------- async SDK streams
@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini'])
def test_async_sdk_streams(api):
    "`async for` over MsgStream of the async SDK stream gives the sync deltas; `stream_msg` of one is awaited"
    sync = MsgStream(events(api))
    want_ds = list(sync)
    async def run():
        s = MsgStream(await async_stream(api, body(api)))
        ds = [d async for d in s]
        m = await stream_msg(await async_stream(api, body(api)))
        r = await stream_response(await async_stream(api, body(api)))
        with pytest.raises(TypeError, match='async for'): list(MsgStream(await async_stream(api, body(api))))
        return ds, s.msg, m, r
    ds, msg, m, r = asyncio.run(run())
    assert ds==want_ds and msg==sync.msg==m and r[0]==api

@pytest.mark.parametrize('api', APIS)
def test_async_raw_bodies(api):
    "An async HTTP client's raw body (httpx.AsyncClient's `aiter_bytes`, `aiter_text`, `aiter_lines`) gives the sync "
    "deltas and message; for Bedrock this is the async route (boto3 has no async client; aiobotocore is not installed)"
    import httpx
    sdk = events(api)
    want_msg, want_ds = stream_msg(sdk), list(MsgStream(sdk))
    async def run(how):
        async with httpx.AsyncClient(transport=_h(httpx, body(api))) as hc:
            async with hc.stream('POST', 'http://mock/x') as r:
                s = MsgStream(getattr(r, how)())
                ds = [d async for d in s]
            async with hc.stream('POST', 'http://mock/x') as r: m = await stream_msg(getattr(r, how)())
        return ds, s.msg, m
    for how in ('aiter_bytes',) if api=='bedrock' else ('aiter_bytes', 'aiter_text', 'aiter_lines'):
        ds, msg, m = asyncio.run(run(how))
        assert ds==want_ds and msg==m==want_msg, how
    async def agen():  # SDK events from any async source (an async generator of boto3's events, for Bedrock)
        for e in sdk: yield e
    assert asyncio.run(stream_msg(agen()))==want_msg

# ---------------------------------------------------------------- raw bodies: whole, chunked, line by line
def raw_captures(api):
    "The raw body as an HTTP client hands it over: whole bytes, `iter_bytes()` chunks, `iter_text()`, `iter_lines()`"
    b = body(api)
    if api in ('openai', 'anthropic'):  # the SDK's own raw-lines API
        import openai, anthropic, httpx2
        hc = httpx2.Client(transport=_h(httpx2, b))
        if api=='openai':
            c = openai.OpenAI(api_key='sk', base_url='http://mock/v1', http_client=hc)
            ctx = lambda: c.responses.with_streaming_response.create(model='o4-mini', input='hi', stream=True)
        else:
            c = anthropic.Anthropic(api_key='sk', base_url='http://mock', http_client=hc)
            ctx = lambda: c.messages.with_streaming_response.create(model='m', max_tokens=5, messages=[{'role':'user', 'content':'hi'}], stream=True)
        with ctx() as r: lines = list(r.iter_lines())
        with ctx() as r: chunks = list(r.iter_bytes())
        with ctx() as r: text = list(r.iter_text())
    else:
        import httpx
        with httpx.Client(transport=_h(httpx, b)) as hc:
            with hc.stream('POST', 'http://mock/x') as r: chunks = list(r.iter_bytes())
            with hc.stream('POST', 'http://mock/x') as r: text = list(r.iter_text())
            with hc.stream('POST', 'http://mock/x') as r: lines = list(r.iter_lines()) if api!='bedrock' else None
    return dict(whole=b, text_whole=None if api=='bedrock' else b.decode(), chunks=chunks, text=None if api=='bedrock' else text,
                lines=lines)

@pytest.mark.parametrize('api', APIS)
def test_raw_bodies(api):
    "The raw body, in every form an HTTP client or curl gives it, is read into the SDK events' message and deltas"
    sdk = events(api)
    want_msg, want_ds = stream_msg(sdk), list(MsgStream(sdk))
    for how, raw in raw_captures(api).items():
        if raw is None: continue
        assert stream_msg(raw)==want_msg, how
        assert list(MsgStream(raw))==want_ds, how
    if api=='gemini':  # the REST chunks are camelCase, base64: read as the SDK's
        api_, r = stream_response(body(api))
        assert api_=='gemini' and r['candidates'][0]['content']['parts'][-1]['function_call']['args']=={'city':'Rome'}

@pytest.mark.parametrize('api', APIS)
def test_any_chunking(api):
    "Chunk boundaries anywhere (inside `\\r\\n`, a UTF-8 character, a frame's prelude) give the same deltas and message"
    b, rnd = body(api), random.Random(20)
    want_msg, want_ds = stream_msg(events(api)), list(MsgStream(events(api)))
    for top in (1, 3, 17, 400):
        cuts, i = [], 0
        while i<len(b): n = rnd.randint(1, top); cuts.append(b[i:i+n]); i += n
        s = MsgStream()
        ds = [d for c in cuts for d in s.add(c)] + s.close()
        assert ds==want_ds and s.msg==want_msg, top

def test_sse_parser_matches_the_sdks():
    "SSE parses each body into the events the SDKs' own decoders give (openai's and anthropic's SSEDecoder)"
    from openai._streaming import SSEDecoder as O
    from anthropic._streaming import SSEDecoder as A
    for api, Dec in [('openai', O), ('openai_chat', O), ('anthropic', A), ('gemini', O)]:
        b = body(api)
        sdk = [(e.event, e.data) for e in Dec().iter_bytes(iter([b]))]
        p = SSE()
        assert p.feed(b.decode()) + p.close()==sdk, api

def test_event_stream_matches_botocore():
    "EventStream decodes Bedrock's frames as botocore's EventStreamBuffer does, and the events are the ones boto3 yields"
    from botocore.eventstream import EventStreamBuffer
    b = body('bedrock')
    buf = EventStreamBuffer(); buf.add_data(b)
    theirs = [(m.headers, m.payload) for m in buf]
    es = EventStream()
    assert es.feed(b)==theirs and es.close()==[]
    mine = list(body_events(b))
    assert [list(e) for e in mine]==[list(e) for e in events('bedrock')]
    assert all('p' not in v for e in mine for v in e.values())
    assert stream_msg(mine)==stream_msg(events('bedrock'))
    assert stream_msg(b)==stream_msg(events('bedrock'))

# ---------------------------------------------------------------- what the APIs send when a stream fails
def test_errors_in_the_stream():
    "An error event is a StreamError naming the API's error; what came before it stays with the MsgStream"
    ant = body('anthropic', A_EVENTS[:8]) + b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    s = MsgStream()
    with pytest.raises(StreamError, match='overloaded_error') as e: [s.add(c) for c in [ant[:100], ant[100:]]]
    assert e.value.error=={'type':'overloaded_error', 'message':'Overloaded'} and isinstance(e.value, ValueError)
    assert s.msg['content'][-1]=={'type':'text', 'text':'27 * 453 = 12,231. '}
    with pytest.raises(StreamError, match='Overloaded'): stream_msg(ant)
    chat = body('openai_chat', C_TOOLS[:3]).replace(b'data: [DONE]', b'data: {"error": {"message": "The server had an error", "type": "server_error"}}')
    with pytest.raises(StreamError, match='server_error'): list(MsgStream(chat))
    resp = body('openai', R_EVENTS[:12]) + b'event: error\ndata: {"type":"error","code":"ERR","message":"boom","param":null,"sequence_number":12}\n\n'
    with pytest.raises(StreamError, match='boom'): stream_msg(resp)
    bed = body('bedrock', B_EVENTS[:6]) + _frame('modelStreamErrorException', {'message':'Model failed', 'originalStatusCode':500}, 'exception')
    with pytest.raises(StreamError, match='modelStreamErrorException.*Model failed'): stream_msg(bed)
    from openai.types.responses import ResponseErrorEvent  # the SDK's own error event, as the SDK yields it
    evs = events('openai')[:12] + [ResponseErrorEvent(type='error', code='ERR', message='boom', param=None, sequence_number=12)]
    s = MsgStream()
    with pytest.raises(StreamError, match='boom'): [s.add(e) for e in evs]
    assert msg_text(s.response)=='Let me '

def test_cut_and_bad_bodies():
    "A body cut mid-event gives what arrived; bytes that are no stream, or no JSON, are clear errors"
    b = body('anthropic')
    cut = b[:b.index(b'"partial_json":"o, CA')+10]  # in the middle of the last tool call's JSON
    m = stream_msg(cut)
    assert [c['type'] for c in m['content']]==['thinking', 'text'] and WIDE in m['content'][1]['text']
    assert stream_msg(b[:-1])==stream_msg(b)  # no blank line after the last event
    bed = body('bedrock')
    with pytest.raises(ValueError, match='in the middle of a frame'): stream_msg(bed[:-3])
    with pytest.raises(ValueError, match="checksum is wrong"): stream_msg(bed[:40] + bytes([bed[40]^1]) + bed[41:])
    with pytest.raises(ValueError, match='not JSON'): stream_msg('data: {"a": nope}\n\ndata: {}\n\n')
    with pytest.raises(TypeError, match="Not an event of a known API's stream"): stream_msg('data: {"a": 1}\n\n')
    with pytest.raises(ValueError, match='not JSON'): stream_msg('data: ' + '['*100000 + '\n\n' + 'data: {}\n\n')
    with pytest.raises(TypeError, match="raw body is text or bytes"): stream_msg(['data: {}\n\n', {'type':'message_start'}])
    with pytest.raises(TypeError, match="stream's events, or its raw body: this str holds none"): stream_msg('')
    with pytest.raises(ValueError, match='no events yet'): MsgStream().msg
    assert stream_msg(b'\xef\xbb\xbf' + b)==stream_msg(b)  # a UTF-8 BOM is dropped, as the SSE spec says
    async def coro(): return None
    c = coro()
    with pytest.raises(TypeError, match='await it'): stream_msg(c)
    c.close()

def test_chat_dialect_reasoning_and_target():
    "Chat dialects share Chat's chunks: a compatible server's reasoning_content shows as thinking; msg goes to any API"
    from test_stream import chunk
    evs = [chunk({'role':'assistant', 'content':None, 'reasoning_content':'Think'}), chunk({'reasoning_content':'ing.'}),
           chunk({'content':'Hi'}), chunk({}, 'stop')]
    s = MsgStream(api='anthropic')
    ds = [d for e in evs for d in s.add(e)]
    assert ds==[dict(type='thinking', text='Think'), dict(type='thinking', text='ing.'), dict(type='text', text='Hi')]
    assert s.msg=={'role':'assistant', 'content':'Hi'} or msg_text(s.msg)=='Hi'
    assert s.src.name=='openai_chat'
