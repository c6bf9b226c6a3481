"""Issue #17, the request-level items (20, 22, 23, 25, 26, 27, 28): each provider rule checked by the oracle (the SDKs'
types, botocore's model, the OpenAI spec) or, where it lives only in a provider's docs, with the URL beside the test."""
import base64, io, json, math, warnings
import pytest
from msgkit import *
from msgkit.errors import InputError
from msgkit.tools import mk_tool, mk_tools
from msgkit.budget import est_tokens
from oracle import APIS as ORACLE, spec_errors
from test_history import accept

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']

def walk(s, path='$'):
    "Every (path, node) of a JSON Schema"
    if isinstance(s, dict):
        yield path, s
        for k,v in s.items(): yield from walk(v, f'{path}.{k}')
    elif isinstance(s, list):
        for i,v in enumerate(s): yield from walk(v, f'{path}[{i}]')

def objects(s): return {p for p,n in walk(s) if n.get('type')=='object' and '.properties.' not in p[-12:]}

# ---------------------------------------------------------------- 22: strict schemas
def _models():
    from pydantic import BaseModel, Field
    class Addr(BaseModel):
        city: str
        street: str = ''
    class Person(BaseModel):
        "A person"
        name: str
        home: Addr = Field(description='Where they live')  # pydantic: {"$ref": ..., "description": ...}
        tags: list[Addr] = []
    return Addr, Person

def test_22_anthropic_bedrock_strict_close_every_object():
    # "additionalProperties must be set to false" on every object (strict tool use and structured outputs:
    # https://platform.claude.com/docs/en/build-with-claude/structured-outputs); the anthropic SDK's own
    # `transform_schema` closes every object, our reference
    from anthropic.lib._parse._transform import transform_schema
    _, Person = _models()
    ref = transform_schema(Person.model_json_schema())
    want = [p for p,n in walk(ref) if n.get('additionalProperties') is False]
    assert len(want)>=2  # the model and its nested definition
    an = mk_tool(Person, 'anthropic', strict=True)
    bd = mk_tool(Person, 'bedrock', strict=True)['toolSpec']
    for s in (an['input_schema'], bd['inputSchema']['json']):
        opened = [p for p,n in walk(s) if (n.get('type')=='object' or isinstance(n.get('properties'), dict))
                  and n.get('additionalProperties') is not False]
        assert not opened, opened
    # schema= for Anthropic (output_config.format) too
    req = mk_request(['Who?'], 'anthropic', model='claude-sonnet-4-5', schema=Person)
    s = req['output_config']['format']['schema']
    assert s['additionalProperties'] is False and s['$defs']['Addr']['additionalProperties'] is False
    accept('anthropic', req)
    accept('anthropic', mk_request(['Who?'], 'anthropic', tools=[Person], strict=True))
    # Bedrock's structured outputs (outputConfig.textFormat) too
    bs = json.loads(mk_request(['Who?'], 'bedrock', schema=Person)['outputConfig']['textFormat']['structure']
                    ['jsonSchema']['schema'])
    assert bs['additionalProperties'] is False and bs['$defs']['Addr']['additionalProperties'] is False
    accept('bedrock', mk_request(['Who?'], 'bedrock', model='anthropic.claude-sonnet-4-5', tools=[Person], strict=True))

def test_22_openai_strict_unravels_ref_with_siblings():
    # OpenAI strict mode: "$ref cannot have keywords {'description'}"; openai's SDK unravels such a ref
    # (openai.lib._pydantic.to_strict_json_schema): ours must match its node
    from openai.lib._pydantic import to_strict_json_schema
    _, Person = _models()
    t = mk_tool(Person, 'openai', strict=True)
    s = t['parameters']
    bad = [p for p,n in walk(s) if '$ref' in n and len(n)>1]
    assert not bad, bad
    sdk = to_strict_json_schema(Person)
    mine,theirs = s['properties']['home'],sdk['properties']['home']
    assert mine['description']==theirs['description']=='Where they live'
    assert mine['properties'].keys()==theirs['properties'].keys() and mine['additionalProperties'] is False
    accept('openai', mk_request(['Who?'], 'openai', tools=[Person], strict=True))
    c = mk_tool(Person, 'openai_chat', strict=True)['function']['parameters']
    assert not [p for p,n in walk(c) if '$ref' in n and len(n)>1]

# ---------------------------------------------------------------- 23: bounds the spec states
def test_23_oracle_knows_the_bounds():
    # openapi.json: CreateResponse.max_output_tokens "minimum": 16; CreateChatCompletionRequest.stop "maxItems": 4
    m = [{'role':'user', 'content':'Hi'}]
    with pytest.raises(AssertionError, match='minimum of 16'): ORACLE['openai'](m, max_output_tokens=8)
    with pytest.raises(AssertionError, match=r'\$\.stop'): ORACLE['openai_chat'](m, stop=list('abcde'))
    ORACLE['openai'](m, max_output_tokens=16); ORACLE['openai_chat'](m, stop=list('abcd'))

def test_23_max_output_tokens_at_least_16():
    with pytest.raises(InputError, match=r"max_tokens \(Responses' max_output_tokens\) of at least 16, not 8"):
        mk_request(['Hi'], 'openai', max_tokens=8)
    with pytest.raises(InputError, match='at least 16'): mk_request(['Hi'], 'openai', max_output_tokens=3)
    accept('openai', mk_request(['Hi'], 'openai', max_tokens=16))
    accept('openai_chat', mk_request(['Hi'], 'openai_chat', max_tokens=8))  # Chat has no such bound

def test_23_chat_stop_at_most_4():
    with pytest.raises(InputError, match=r"at most 4 stop sequences \(stop=\), not 5"):
        mk_request(['Hi'], 'openai_chat', stop=list('abcde'))
    accept('openai_chat', mk_request(['Hi'], 'openai_chat', stop=list('abcd')))
    accept('anthropic', mk_request(['Hi'], 'anthropic', stop=list('abcde')))  # Anthropic's stop_sequences: no bound

# ---------------------------------------------------------------- 25: built-in tools
def get_weather(city:str)->str:
    "The weather in a city"
    return 'Sunny'

BUILTINS = dict(
    # https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool, .../bash-tool, .../text-editor-tool
    anthropic=[dict(type='web_search_20250305', name='web_search', max_uses=3), dict(type='bash_20250124', name='bash'),
               dict(type='text_editor_20250728', name='str_replace_based_edit_tool'),
               dict(type='code_execution_20250825', name='code_execution')],
    # https://platform.openai.com/docs/guides/tools
    openai=[dict(type='web_search'), dict(type='file_search', vector_store_ids=['vs_123']),
            dict(type='mcp', server_label='deepwiki', server_url='https://mcp.deepwiki.com/mcp', require_approval='never'),
            dict(type='code_interpreter', container=dict(type='auto')), dict(type='image_generation')],
    # https://ai.google.dev/gemini-api/docs/google-search, .../code-execution, .../url-context
    gemini=[dict(google_search={}), dict(code_execution={}), dict(url_context={})],
    # botocore's bedrock-runtime `Tool` shape: toolSpec | systemTool | cachePoint
    bedrock=[dict(systemTool=dict(name='nova_grounding'))])

@pytest.mark.parametrize('api', list(BUILTINS))
def test_25_builtins_pass_for_their_api(api):
    ts = BUILTINS[api]
    model = dict(bedrock='us.amazon.nova-premier-v1:0').get(api)
    req = mk_request(['What is new?'], api, model=model, tools=[get_weather, *ts])
    tools = (req['toolConfig']['tools'] if api=='bedrock' else req['config']['tools'] if api=='gemini'
             else req['tools'])
    assert all(any(o==t for o in tools) for t in ts), tools  # unchanged
    assert len(tools)==len(ts)+1
    accept(api, req)

@pytest.mark.parametrize('src,api', [(s, a) for s in BUILTINS for a in APIS if a!=s])
def test_25_builtins_refused_by_name_elsewhere(src, api):
    for t in BUILTINS[src]:
        with pytest.raises(InputError, match=rf"is a built-in tool of api=.*'{src}'.*api='{api}' can't take it"):
            mk_request(['Hi'], api, tools=[get_weather, t])

def test_25_sdk_objects_and_chat_custom_tools():
    from google.genai import types
    req = mk_request(['News?'], 'gemini', tools=[types.Tool(google_search=types.GoogleSearch()), get_weather])
    assert len(req['config']['tools'])==2
    accept('gemini', req)
    # Chat's custom tool (openai.types.chat.ChatCompletionCustomToolParam) goes as it is, and is Chat's alone
    ct = dict(type='custom', custom=dict(name='sql', description='A SQL query'))
    req = mk_request(['Count users'], 'openai_chat', tools=[get_weather, ct])
    assert req['tools'][-1]==ct
    accept('openai_chat', req)
    with pytest.raises(InputError, match="'sql' is a built-in tool of api=.*'openai_chat'"):
        mk_request(['Count users'], 'anthropic', tools=[ct])

def test_25_tool_choice_forces_a_builtin_in_its_own_words():
    # Responses' ToolChoice: {'type': 'code_interpreter'}, {'type': 'mcp', 'server_label': ...}; not a function's form
    ts = BUILTINS['openai']
    r = mk_request(['Plot it'], 'openai', tools=[get_weather, *ts], tool_choice='code_interpreter')
    assert r['tool_choice']==dict(type='code_interpreter')
    accept('openai', r)
    r = mk_request(['Ask the wiki'], 'openai', tools=ts, tool_choice='deepwiki')
    assert r['tool_choice']==dict(type='mcp', server_label='deepwiki')
    accept('openai', r)
    with pytest.raises(InputError, match="can't force its web_search tool"):
        mk_request(['News?'], 'openai', tools=ts, tool_choice='web_search')
    assert mk_request(['x'], 'openai', tools=[get_weather], tool_choice='get_weather')['tool_choice']['type']=='function'

def test_25_builtins_do_not_mutate():
    ts = [dict(type='web_search_20250305', name='web_search', max_uses=3)]
    before = json.dumps(ts)
    req = mk_request(['Hi'], 'anthropic', tools=ts, cache=True)
    assert json.dumps(ts)==before and req['tools'][0]['name']=='web_search'
    accept('anthropic', req)

# ---------------------------------------------------------------- 28: est_tokens and detail
def _png(w, h):
    from PIL import Image
    b = io.BytesIO(); Image.new('RGB', (w, h)).save(b, 'PNG')
    return 'data:image/png;base64,' + base64.b64encode(b.getvalue()).decode()

def test_28_est_tokens_reads_the_block_detail():
    # "All images with detail: low cost 85 tokens each" (gpt-4o;
    # https://platform.openai.com/docs/guides/images-vision#calculating-costs)
    uri = _png(1024, 1024)
    resp = [{'role':'user', 'content':[{'type':'input_image', 'image_url':uri, 'detail':'low'}]}]
    chat = [{'role':'user', 'content':[{'type':'image_url', 'image_url':{'url':uri, 'detail':'low'}}]}]
    hi = [{'role':'user', 'content':[{'type':'image_url', 'image_url':{'url':uri, 'detail':'high'}}]}]
    base = est_tokens(['x'], 'openai_chat', model='gpt-4o') - est_tokens('x', 'openai_chat', model='gpt-4o')
    n_low = est_tokens(chat, 'openai_chat', model='gpt-4o')
    n_hi = est_tokens(hi, 'openai_chat', model='gpt-4o')
    assert n_hi - n_low == 765 - 85  # 1024x1024 at high: 765 (the docs' example); at low: 85
    assert est_tokens(resp, 'openai', model='gpt-4o') == est_tokens(chat, 'openai', model='gpt-4o')
    # the block's own detail wins over the call's default
    assert est_tokens(chat, 'openai_chat', model='gpt-4o', detail='high') == n_low

def test_28_gpt41_mini_patch_cap():
    # gpt-4.1-mini: 32px patches "capped at 1536", times 1.62 (the images-vision docs' patch-based models)
    from msgkit.adapters.openai import openai_image_tokens
    # the docs' example: 1800 x 2400 is 1,452 patches once shrunk to the cap; 1,024 x 1,024 is 1,024, under it
    assert openai_image_tokens((1800, 2400), 'gpt-4.1-mini', 'high') == math.ceil(1452*1.62)
    assert openai_image_tokens((1024, 1024), 'gpt-4.1-mini', 'high') == math.ceil(1024*1.62)
    assert openai_image_tokens((4096, 4096), 'gpt-4.1-mini', 'high') <= math.ceil(1536*1.62)

# ---------------------------------------------------------------- 20: Gemini's inline limit is the request's
MP4 = b'\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom'

def test_20_gemini_inline_limit_per_request():
    # inline data: 100 MB a request, as base64 (https://ai.google.dev/gemini-api/docs/file-input-methods#method-comparison)
    v = MP4 + b'\0'*(40*1024*1024)  # 40 MiB each: under the limit alone (56 MB as base64), over it together
    accept('gemini', mk_request([[v, 'What happens?']], 'gemini'))
    with pytest.raises(InputError, match=r"at most 104,857,600 bytes of inline data .* in a request.*Files API"):
        mk_request([[v, v, 'What happens?']], 'gemini')
    with pytest.raises(InputError, match='in a request'): mk_request([[v, 'One'], 'Seen.', [v, 'Two']], 'gemini')
    with pytest.raises(InputError, match='in a request'): mk_msgs([[v, v, 'What happens?']], 'gemini')

# ---------------------------------------------------------------- 27: Bedrock batch records for Claude
CLAUDE = 'anthropic.claude-3-5-sonnet-20240620-v1:0'

def test_27_bedrock_claude_records_base64_only():
    # Claude on Bedrock: "Base64 image sources only" (https://platform.claude.com/docs/en/build-with-claude/vision);
    # InvokeModel's body gives every source as base64
    # (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html)
    url = [['https://example.com/cat.png', 'What is it?']]
    with pytest.raises(InputError, match=r"batch records for Claude take images as base64 only, not by URL"):
        list(mk_batch([url], 'bedrock', model=CLAUDE))
    fid = [[{'type':'document', 'source':{'type':'file', 'file_id':'file_011CNha8iCJcU1wXNR6q4V8w'}}, 'Summarise']]
    with pytest.raises(InputError, match='base64 only, not by file id'): list(mk_batch([fid], 'bedrock', model=CLAUDE))
    # the same history as it goes to Anthropic's own batches keeps its URL (that API takes it)
    a = next(mk_batch([url], 'anthropic', model='claude-sonnet-4-5'))
    assert a['params']['messages'][0]['content'][0]['source']['type']=='url'

def test_27_bedrock_claude_records_fetch_as_mk_request_does():
    import httpx
    from PIL import Image
    b = io.BytesIO(); Image.new('RGB', (8, 8)).save(b, 'PNG'); png = b.getvalue()
    cli = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, content=png,
                                                                              headers={'content-type':'image/png'})))
    rec = next(mk_batch([[['https://example.com/cat.png', 'What is it?']]], 'bedrock', model=CLAUDE, fetch=cli))
    body = rec['modelInput']
    src = body['messages'][0]['content'][0]['source']
    assert src['type']=='base64' and base64.b64decode(src['data'])==png and body['anthropic_version']=='bedrock-2023-05-31'
    ORACLE['anthropic'](body['messages'])  # the body is still Anthropic's Messages form

# ---------------------------------------------------------------- 26: cache_control <-> cachePoint
CC,CC1H = dict(type='ephemeral'),dict(type='ephemeral', ttl='1h')
CP,CP1H = dict(cachePoint=dict(type='default')),dict(cachePoint=dict(type='default', ttl='1h'))

def _quiet(f):
    "`f()`, failing on any LossWarning"
    with warnings.catch_warnings():
        warnings.simplefilter('error', LossWarning)
        return f()

def test_26_anthropic_cache_control_to_bedrock_cache_point():
    # Anthropic: cache_control on a block caches the prefix up to it; Bedrock: a cachePoint block after the content it
    # caches (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html)
    h = [{'role':'user', 'content':[{'type':'text', 'text':'A long document ...', 'cache_control':CC1H},
                                    {'type':'text', 'text':'What does it say?'}]},
         {'role':'assistant', 'content':[{'type':'text', 'text':'It says hello.'}]},
         {'role':'user', 'content':[{'type':'text', 'text':'And then?', 'cache_control':CC}]}]
    req = _quiet(lambda: mk_request(h, 'bedrock', model='anthropic.claude-sonnet-4-5'))
    ms = req['messages']
    assert ms[0]['content']==[{'text':'A long document ...'}, CP1H, {'text':'What does it say?'}]
    assert ms[2]['content'][-1]==CP
    accept('bedrock', req)
    assert json.dumps(h).count('cache_control')==2  # the caller's history is unchanged

def test_26_bedrock_cache_point_to_anthropic_cache_control():
    h = [{'role':'user', 'content':[{'text':'A long document ...'}, CP1H, {'text':'What does it say?'}]},
         {'role':'assistant', 'content':[{'text':'It says hello.'}]},
         {'role':'user', 'content':[{'text':'And then?'}, CP]}]
    req = _quiet(lambda: mk_request(h, 'anthropic', model='claude-sonnet-4-5'))
    ms = req['messages']
    assert ms[0]['content'][0]=={'type':'text', 'text':'A long document ...', 'cache_control':CC1H}
    assert 'cache_control' not in ms[0]['content'][1]
    assert ms[2]['content'][-1]['cache_control']==CC
    accept('anthropic', req)
    # and back: the same marks, in Bedrock's form
    back = _quiet(lambda: mk_request(req['messages'], 'bedrock'))
    assert back['messages'][0]['content'][1]==CP1H and back['messages'][2]['content'][-1]==CP

def test_26_system_prompt_marks_cross_too():
    r = _quiet(lambda: mk_request(['Hi'], 'bedrock', system=[{'type':'text', 'text':'Be terse.', 'cache_control':CC}]))
    assert r['system']==[{'text':'Be terse.'}, CP]
    accept('bedrock', r)
    r = _quiet(lambda: mk_request(['Hi'], 'anthropic', system=[{'text':'Be terse.'}, CP]))
    assert r['system']==[{'type':'text', 'text':'Be terse.', 'cache_control':CC}]
    accept('anthropic', r)

def test_26_bedrock_cache_point_not_after_a_non_pdf_document_or_video():
    # a cachePoint right after a non-PDF document or a video: "messages.0.content.3.type: Field required"
    # (strands-agents/harness-sdk#1966; pydantic/pydantic-ai#4207 moves it before the trailing documents and videos)
    doc = dict(document=dict(format='md', name='notes', source=dict(bytes=b'# Notes\nhello')))
    vid = dict(video=dict(format='mp4', source=dict(bytes=MP4)))
    pdf = dict(document=dict(format='pdf', name='report', source=dict(bytes=b'%PDF-1.4')))
    h = [{'role':'user', 'content':[{'text':'Read these:'}, doc, vid, CP]}]
    with pytest.warns(LossWarning, match='cachePoint moved before'):
        req = mk_request(h, 'bedrock', model='us.amazon.nova-pro-v1:0')
    c = req['messages'][0]['content']
    assert c.index(CP)==1 and c[2:4]==[doc, vid]
    accept('bedrock', req)
    # cache=True's own point too
    with pytest.warns(LossWarning, match='cachePoint moved before'):
        c = mk_request([{'role':'user', 'content':[{'text':'Read:'}, doc]}], 'bedrock', cache=True)['messages'][0]['content']
    assert c.index(CP) < c.index(doc)
    # after a PDF it stays; with nothing before it, it is left out, reported
    assert mk_request([{'role':'user', 'content':[{'text':'Read:'}, pdf, CP]}], 'bedrock')['messages'][0]['content'][-1]==CP
    with pytest.warns(LossWarning, match='a cachePoint'):
        c = mk_request([{'role':'user', 'content':[doc, CP, {'text':'Summarise.'}]}], 'bedrock')['messages'][0]['content']
    assert CP not in c

def test_26_gemini_cache_says_what_it_does():
    # Gemini: "Implicit caching is enabled by default" (https://ai.google.dev/gemini-api/docs/caching); explicit caches
    # are made beforehand (mk_cache)
    r = _quiet(lambda: mk_request(['Hi', 'Hello!', 'A long question'], 'gemini', cache=True))
    assert r['contents']==mk_request(['Hi', 'Hello!', 'A long question'], 'gemini')['contents']
    assert len(r.notes)==1 and 'implicitly' in r.notes[0] and 'mk_cache' in r.notes[0]
    assert mk_request(['Hi'], 'gemini').notes==() and mk_request(['Hi'], 'anthropic', cache=True).notes==()
    accept('gemini', r)
