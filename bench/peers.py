"""msgkit against its peers (msglm, litellm, langchain-core + its provider packages, pydantic-ai), the SDKs' own stream
accumulators and plain floors, in ONE interleaved run: each round visits every case, and each case cycles through its
libraries round-robin (the starting library rotates every round). Times are CPU time (this process's, or a fresh child
process's), so other work on the machine disturbs them less than wall time; a case's value is the median over rounds, and
a row's ratio is the median over rounds of msgkit ÷ the fastest peer doing the same work in that same round.

    python bench/peers.py                  # full run (what bench/RESULTS.md holds)
    python bench/peers.py --quick          # few rounds, small sizes: checks the harness works (CI); never asserts a time
    python bench/peers.py --json out.json  # also write every sample and median as JSON
    python bench/peers.py --only tools,trim --rounds 5   # just the cases whose key starts with one of these
    python bench/peers.py --profile trim.openai,tools.cold.openai_chat   # cProfile msgkit's side of these cases instead

Each library gets its own native input, built before timing (LangChain messages, pydantic-ai `ModelMessage`s, Chat dicts
for litellm). msgkit remembers base64 text and media types of large payloads by the object ("the memo"): where that
applies a row shows msgkit with the memo warm (the same objects every call) and cold (fresh objects every call, made
outside the timing). A history loaded from JSON holds new strings, yet a data URI's reading is met again by its ends
(same length and text at both ends) when the string lands where the last one was, as it does turn after turn: the
data-URI rows also show msgkit's first sight aside, its memos emptied before each call. A peer that can't do a row's
work is named in the row with the reason; a peer that does related but not the same work is shown aside and left out
of the ratio. A ratio above 1 is marked TRAILS.

litellm is timed as `litellm.completion` treats a call's messages for every provider (litellm/main.py, "validate
messages"): `validate_and_fix_openai_messages` (each message copied, its None fields dropped, tool calls copied, users'
content types checked), then the provider's converter. Its converter alone is shown aside, with msgkit ÷ it (session 15;
before that, the converter alone was the reference).

Install the bench's own requirements (separate from msgkit's) with `pip install -e . -r bench/requirements.txt`.
A peer that isn't installed is reported as "not installed"; one whose API has moved, as "error: ...".
"""
import argparse, asyncio, base64, dataclasses, importlib.util, json, os, platform, resource, shlex, statistics, subprocess, sys, tempfile, time, tracemalloc, types
from pathlib import Path

os.environ.setdefault('LITELLM_LOCAL_MODEL_COST_MAP', 'True')  # litellm would otherwise fetch its price list at import
def _tiktoken_offline():
    "tiktoken's encodings come from the network; litellm ships o200k_base and cl100k_base: point tiktoken at that copy (without importing litellm)"
    s = importlib.util.find_spec('litellm')
    d = Path(s.origin).parent/'litellm_core_utils'/'tokenizers' if s and s.origin else None
    if d and d.is_dir() and 'TIKTOKEN_CACHE_DIR' not in os.environ: os.environ['TIKTOKEN_CACHE_DIR'] = str(d)
_tiktoken_offline()
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import big_png  # noqa: E402  (the existing bench's PNG maker)

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')
COLD = ' (the same, loaded from JSON before each call)'  # a peer's cold measure: what msgkit cold is held against
COLD_B = ' (the same, from fresh copies of the bytes)'
COLDS = (COLD, COLD_B)
FLOOR = 'floor: a copy of each message (dicts and lists, as Msgs)'  # what handing back fresh messages costs at the least
MARSHAL = 'floor: a deep copy in C (marshal round trip; plain dicts, nothing checked)'
LIT_REST = "litellm (its HTTP body's form: base64 text, not the SDK's bytes)"
MSGS = 'msgkit, from the `Msg`s it gave (sent back as a chat loop keeps them, not as JSON)'  # shown aside
ALONE = ", converter alone (no validate_and_fix_openai_messages)"  # shown aside: part of what `completion` does
STDLIB = 'msgkit cold, without its `fast` extra (base64 by the standard library)'  # shown, not the row's figure
FIRST = 'msgkit, first sight (cold, its memos of payloads emptied too: each data URI read afresh)'  # shown aside
# shown aside: every cache level but the last emptied alike
FLUSHED = ', after the same 16 MB written between its preparation and the call'
_FLUSH = bytearray(16_000_000)

def flushed(prep):
    "`prep` followed by a write of 16 MB (untimed): the call meets its code and data as cold as every other library's"
    # (a peer's cold preparation builds its native input with its own code, just before the timed call; msgkit's, only
    # `json.loads`: so a cold row also measures whose code the preparation left in the caches. The flush evens that)
    def g():
        x = prep(); _FLUSH[:] = bytes(len(_FLUSH)); return x
    return g

def forget():
    "Empty msgkit's memos of payloads (data URIs' readings, base64 both ways): as a process meets them the first time"
    # (memo cold loads the history from JSON: each URI a new string, met again by its ends when at the same address)
    from msgkit import mediapart, codec
    mediapart._ends.clear()
    with codec._lock: codec._memo.clear(); codec._memo_n[0] = 0; codec._dec.clear(); codec._new[0] = 0

def stdlib_b64(f):
    "`f(x)` with msgkit's `fast` extra (pybase64) turned off: what msgkit does where it is not installed"
    from msgkit import codec
    def g(x):
        codec.FAST_B64 = False
        try: return f(x)
        finally: codec.FAST_B64 = True
    return g
MISSING = {}  # peer -> "not installed" / "error: ..."
clock = time.process_time  # CPU seconds of this process (all its threads: no peer leaves a thread running, checked at the end)

def _peer(name, f):
    "Run the peer's setup `f`; on failure record why and return None"
    try: return f()
    except ImportError as e: MISSING[name] = f'not installed ({e.name or e})'
    except Exception as e: MISSING[name] = f'error: {type(e).__name__}: {str(e)[:120]}'

def _try(f):
    "`f` itself if building it works, else the exception (a Case shows it as that peer's error)"
    try: return f()
    except Exception as e: return e

# ---------------------------------------------------------------- histories, each peer's in its own form
def text_history(n=100, salt=''): return [f"message {i}{salt} " * 20 for i in range(n)]  # (`salt`: texts never seen)
def chat_dicts(h): return [dict(role='user' if i%2==0 else 'assistant', content=s) for i,s in enumerate(h)]

def image_history(imgs, n=20):
    "`n` alternating messages; every 4th user turn holds one of `imgs` (the same bytes objects on every rebuild)"
    it = iter(imgs); res = []
    for i in range(n):
        if i%2: res.append(f"answer {i}"); continue
        b = next(it, None) if i%4==0 else None
        res.append([b, f"question {i}: what is in this picture?"] if b is not None else f"question {i}")
    return res

def data_uri(b, mt='image/png'): return f'data:{mt};base64,' + base64.b64encode(b).decode('ascii')

def image_chat(imgs, n=20, uris=None):
    "The same history as `image_history`, as Chat dicts: each image an `image_url` data URI in its user turn"
    uris = uris or [data_uri(b) for b in imgs]; it = iter(uris); res = []
    for i in range(n):
        if i%2: res.append(dict(role='assistant', content=f"answer {i}")); continue
        u = next(it, None) if i%4==0 else None
        c = f"question {i}: what is in this picture?" if u else f"question {i}"
        res.append(dict(role='user', content=[dict(type='image_url', image_url=dict(url=u)), dict(type='text', text=c)] if u else c))
    return res

def tool_chat(n=200, salt=None):
    "`n` Chat dicts in rounds of 4: a question, an assistant turn with text and a tool call, the tool's result, the answer"
    res = []
    for i in range(n//4):
        cid = f'call_{i:04d}'
        a = dict(city=f'city {i}', days=3, **({'req': salt} if salt is not None else {}))  # (`salt`: arguments never seen)
        res += [dict(role='user', content=f"What is the weather in city {i}? Please be brief."),
                dict(role='assistant', content=f"Let me look up city {i}.", tool_calls=[dict(id=cid, type='function',
                     function=dict(name='get_weather', arguments=json.dumps(a)))]),
                dict(role='tool', tool_call_id=cid, content=json.dumps(dict(temp=20+i%10, sky='clear', wind_kph=12))),
                dict(role='assistant', content=f"It is {20+i%10} °C and clear in city {i}.")]
    return res[:n]

def copy_floor(h):
    "The least a library that hands back fresh messages does with Chat dicts it passes on: each dict and list copied (as `Msg`s)"
    import operator
    from msgkit.msgs import Msg
    from msgkit.plain import copy_json  # (dicts as `Block`s, lists as `Blocks`: in C where flat)
    new, ior = dict.__new__, operator.ior
    def one(m):
        for v in m.values():
            if type(v) is dict or type(v) is list: return ior(new(Msg), {k: copy_json(v) for k,v in m.items()})
        return ior(new(Msg), m)
    return lambda: [one(m) for m in h]

def lc_msgs(cd):
    "LangChain messages of Chat dicts (langchain-core's own `convert_to_messages`)"
    from langchain_core.messages import convert_to_messages
    return convert_to_messages(cd)

def pai_msgs(cd):
    "pydantic-ai `ModelMessage`s of Chat dicts: user prompts (images as `ImageUrl`), responses with text and tool calls, tool returns"
    from pydantic_ai.messages import ModelRequest, ModelResponse, UserPromptPart, TextPart, ToolCallPart, ToolReturnPart, ImageUrl
    names, out = {}, []
    for m in cd:
        r, c = m['role'], m.get('content')
        if r == 'user':
            if isinstance(c, list): c = [ImageUrl(url=p['image_url']['url']) if p['type']=='image_url' else p['text'] for p in c]
            out.append(ModelRequest(parts=[UserPromptPart(content=c)]))
        elif r == 'assistant':
            tcs = m.get('tool_calls') or []
            for t in tcs: names[t['id']] = t['function']['name']
            out.append(ModelResponse(parts=([TextPart(content=c)] if c else []) + [ToolCallPart(tool_name=t['function']['name'],
                       args=t['function']['arguments'], tool_call_id=t['id']) for t in tcs]))
        elif r == 'tool':
            out.append(ModelRequest(parts=[ToolReturnPart(tool_name=names[m['tool_call_id']], content=c, tool_call_id=m['tool_call_id'])]))
    return out

def pai_binary(msgs):
    "`msgs` with each data-URI `ImageUrl` read with `BinaryContent.from_data_uri` (how pydantic-ai sends one inline), a new list"
    from pydantic_ai.messages import ModelRequest, UserPromptPart, ImageUrl, BinaryContent
    def part(p):
        if not (isinstance(p, UserPromptPart) and isinstance(p.content, list)): return p
        return dataclasses.replace(p, content=[BinaryContent.from_data_uri(c.url) if isinstance(c, ImageUrl) else c for c in p.content])
    return [dataclasses.replace(m, parts=[part(p) for p in m.parts]) if isinstance(m, ModelRequest) else m for m in msgs]

def pai_bytes(imgs, n=20):
    "pydantic-ai's form of `image_history(imgs)`: each image a `BinaryContent` of the bytes"
    from pydantic_ai.messages import ModelRequest, ModelResponse, UserPromptPart, TextPart, BinaryContent
    return [ModelRequest(parts=[UserPromptPart(content=[BinaryContent(data=o[0], media_type='image/png'), o[1]] if isinstance(o, list) else o)])
            if i%2==0 else ModelResponse(parts=[TextPart(content=o)]) for i,o in enumerate(image_history(imgs, n))]

# ---------------------------------------------------------------- peers' conversion paths
_PAI = {}
def pai_models():
    "pydantic-ai's five model classes, built offline with dummy keys, and a runner for their async mappers (one reused event loop)"
    if _PAI: return _PAI
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models import openai as _o, anthropic as _a, google as _g, bedrock as _b  # noqa
    from pydantic_ai.providers.openai import OpenAIProvider
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.providers.google import GoogleProvider
    from pydantic_ai.providers.bedrock import BedrockProvider
    loop = asyncio.new_event_loop()
    _PAI.update(run=loop.run_until_complete, p=ModelRequestParameters(), models=dict(
        openai=_try(lambda: _o.OpenAIResponsesModel('gpt-4.1', provider=OpenAIProvider(api_key='sk-dummy'))),
        openai_chat=_try(lambda: _o.OpenAIChatModel('gpt-4.1', provider=OpenAIProvider(api_key='sk-dummy'))),
        anthropic=_try(lambda: _a.AnthropicModel('claude-sonnet-4-5', provider=AnthropicProvider(api_key='sk-ant-dummy'))),
        gemini=_try(lambda: _g.GoogleModel('gemini-2.5-flash', provider=GoogleProvider(api_key='dummy'))),
        bedrock=_try(lambda: _b.BedrockConverseModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0', provider=BedrockProvider(
            region_name='us-east-1', aws_access_key_id='dummy', aws_secret_access_key='dummy')))))
    return _PAI

def pai_mapper(api):
    "`f(msgs)`: the pydantic-ai model class's own `_map_messages` for `api` (what its `request` awaits)"
    P = pai_models(); m, run, p = P['models'][api], P['run'], P['p']
    if isinstance(m, BaseException): raise m
    call = dict(openai=lambda ms: m._map_messages(ms, {}, p), openai_chat=lambda ms: m._map_messages(ms, p),
                anthropic=lambda ms: m._map_message(ms, p, {}), gemini=lambda ms: m._map_messages(ms, p),
                bedrock=lambda ms: m._map_messages(ms, p, None))[api]
    return lambda ms: run(call(ms))

def setup_pydantic_ai(msgs, binary=()):
    "api -> f() mapping the prebuilt `msgs`; for the APIs in `binary`, their data-URI images read into `BinaryContent` inside the call"
    fs = {}
    for api in APIS:
        try: f = pai_mapper(api); fs[api] = (lambda f=f, b=api in binary: f(pai_binary(msgs) if b else msgs))
        except Exception as e: fs[api] = e
    return fs

def lc_converters():
    "api -> f(lc_messages): langchain-core's `convert_to_openai_messages` and each provider package's own request converter"
    from langchain_core.messages import convert_to_openai_messages
    fs = dict(openai_chat=convert_to_openai_messages)
    def imp(api, f):
        try: fs[api] = f()
        except ImportError as e: fs[api] = e
    def oai():
        from langchain_openai.chat_models.base import _construct_responses_api_input  # what `_construct_responses_api_payload` calls
        return _construct_responses_api_input
    def ant():
        from langchain_anthropic.chat_models import _format_messages  # what `ChatAnthropic._get_request_payload` calls
        return lambda m: _format_messages(m, model='claude-sonnet-4-5')
    def goo():
        from langchain_google_genai.chat_models import _parse_chat_history  # what `ChatGoogleGenerativeAI._prepare_request` calls
        return lambda m: _parse_chat_history(m, model='gemini-2.5-flash')
    def bed():
        from langchain_aws.chat_models.bedrock_converse import _messages_to_bedrock  # what `ChatBedrockConverse._converse_params` calls
        return lambda m: _messages_to_bedrock(m, model_id='anthropic.claude-sonnet-4-5-20250929-v1:0', provider='anthropic')
    imp('openai', oai); imp('anthropic', ant); imp('gemini', goo); imp('bedrock', bed)
    return fs
LC_PKG = dict(openai='langchain-openai', openai_chat='langchain-core', anthropic='langchain-anthropic', gemini='langchain-google-genai', bedrock='langchain-aws')

def setup_langchain(lc):
    "api -> f() converting the prebuilt LangChain messages `lc`"
    return {api: (f if isinstance(f, BaseException) else (lambda f=f: f(lc))) for api,f in lc_converters().items()}

def _alone(f, a):
    "`f`, knowing `a` (`f.alone`): the same work without litellm's validation (shown aside, `ALONE`)"
    f.alone = a; return f

def lit_converters():
    """api -> f(chat_dicts): what litellm does to a call's messages, as `litellm.completion` runs it for every provider:
    `validate_and_fix_openai_messages` (each message copied, None fields dropped, tool calls copied, users' content
    types checked; litellm/main.py, `completion`, "validate messages"), then the provider's prompt converter, as its
    `transform_request` calls it. `f.alone`: the converter alone"""
    from litellm.utils import validate_and_fix_openai_messages as v
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt, _bedrock_converse_messages_pt
    from litellm.llms.vertex_ai.gemini.transformation import gemini_convert_messages_with_history
    from litellm.completion_extras.litellm_responses_transformation.transformation import LiteLLMResponsesTransformationHandler
    from litellm.llms.openai.chat.gpt_transformation import OpenAIGPTConfig
    rh, oc = LiteLLMResponsesTransformationHandler(), OpenAIGPTConfig()
    conv = dict(openai=rh.convert_chat_completion_messages_to_responses_api,
                openai_chat=lambda cd: oc._transform_messages(cd, model='gpt-4.1'),
                anthropic=lambda cd: anthropic_messages_pt(cd, model='claude-sonnet-4-5', llm_provider='anthropic'),
                gemini=lambda cd: gemini_convert_messages_with_history(cd, model='gemini-2.5-flash', custom_llm_provider='gemini'),
                bedrock=lambda cd: _bedrock_converse_messages_pt(cd, model='anthropic.claude-sonnet-4-5-20250929-v1:0', llm_provider='bedrock_converse'))
    return {api: _alone(lambda cd, f=f: f(v(cd)), f) for api,f in conv.items()}

def setup_litellm(cd):
    "api -> f() of litellm on `cd`, a copy of its own (its validation sets fields of the messages it is given)"
    import copy
    cd = copy.deepcopy(cd)  # (its strings shared, as immutable: a payload is not copied)
    return {api: _alone(lambda f=f: f(cd), lambda f=f: f.alone(cd)) for api,f in lit_converters().items()}

def with_alone(fns):
    "`fns` and, for each of litellm's that knows it (`_alone`), its converter alone beside it; and those names (aside)"
    out, aside = dict(fns), []
    for k,f in fns.items():
        a = getattr(f[1] if isinstance(f, tuple) else f, 'alone', None)
        if a is None or k.endswith(FLUSHED): continue  # (the flushed measures: aside already, one of each)
        sfx = next((c for c in COLDS if k.endswith(c)), '')
        n = k[:len(k)-len(sfx)] + ALONE + sfx
        out[n] = (f[0], a) if isinstance(f, tuple) else a; aside.append(n)
    return out, aside

def setup_msglm(h):
    import msglm
    return dict(openai=lambda: msglm.mk_msgs(h, api='openai'), anthropic=lambda: msglm.mk_msgs(h, api='anthropic'))

# ---------------------------------------------------------------- tools from Python functions
_TOOL_SRC = '''
def {name}(query: str, limit: int = 10, exact: bool = False, threshold: float = 0.5) -> str:
    """Search the {topic} records for `query`.

    Parameters
    ----------
    query : str
        What to look for in the {topic} records.
    limit : int, optional
        The most results to return.
    exact : bool, optional
        Match the whole query only.
    threshold : float, optional
        The lowest relevance score kept.
    """
    return query

def {name}_get(record_id: str, fields: str = "all") -> str:
    """Fetch one {topic} record by its id.

    Parameters
    ----------
    record_id : str
        The record's id.
    fields : str, optional
        Which fields to return, comma separated.
    """
    return record_id
'''
def tool_fns(n=20):
    "`n` plain functions (type hints, NumPy docstrings: what litellm's `function_to_dict` reads), from a real module file (so their source can be read)"
    topics = ['customer', 'order', 'invoice', 'product', 'shipment', 'ticket', 'employee', 'supplier', 'contract', 'payment']
    src = ''.join(_TOOL_SRC.format(name=f'search_{t}', topic=t) for t in topics[:(n+1)//2])
    d = Path(tempfile.mkdtemp(prefix='msgkit-bench-tools-')); p = d/'bench_tool_fns.py'; p.write_text(src)
    import atexit, shutil; atexit.register(shutil.rmtree, d, True)  # read (for their source) while the run lasts, removed after
    spec = importlib.util.spec_from_file_location('bench_tool_fns', p); mod = importlib.util.module_from_spec(spec)
    sys.modules['bench_tool_fns'] = mod; spec.loader.exec_module(mod)
    return [getattr(mod, n_) for t in topics[:(n+1)//2] for n_ in (f'search_{t}', f'search_{t}_get')][:n]

def fresh_fns(fns):
    "New function objects for `fns` (same code, so the same source): a memo by the object would see them for the first time"
    def cp(f):
        g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
        g.__doc__, g.__annotations__, g.__module__, g.__qualname__, g.__kwdefaults__ = f.__doc__, dict(f.__annotations__), f.__module__, f.__qualname__, f.__kwdefaults__
        return g
    return [cp(f) for f in fns]

def lit_tools():
    "api -> f(fns): litellm's `function_to_dict` for each function, then the provider's own tool mapping of those Chat tools"
    from litellm.utils import function_to_dict
    import numpydoc  # noqa: F401  (function_to_dict needs it)
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig
    from litellm.litellm_core_utils.prompt_templates.factory import _bedrock_tools_pt
    from litellm.completion_extras.litellm_responses_transformation.transformation import LiteLLMResponsesTransformationHandler
    rh, ac, gc = LiteLLMResponsesTransformationHandler(), AnthropicConfig(), VertexGeminiConfig()
    chat = lambda fns: [dict(type='function', function=function_to_dict(f)) for f in fns]
    return dict(openai_chat=chat, openai=lambda fns: rh._convert_tools_to_responses_format(chat(fns)),
                anthropic=lambda fns: ac._map_tools(chat(fns)), gemini=lambda fns: gc._map_function(chat(fns), optional_params={}),
                bedrock=lambda fns: _bedrock_tools_pt(chat(fns)))

def lc_tools():
    "api -> f(fns): langchain-core's `convert_to_openai_tool` and each provider package's own tool converter"
    from langchain_core.utils.function_calling import convert_to_openai_tool
    fs = dict(openai_chat=lambda fns: [convert_to_openai_tool(f) for f in fns])
    # langchain-openai sends Responses tools as convert_to_openai_tool's, their `function` flattened (in `_construct_responses_api_payload`)
    fs['openai'] = lambda fns: [{'type': 'function', **convert_to_openai_tool(f)['function']} for f in fns]
    def imp(api, f):
        try: fs[api] = f()
        except ImportError as e: fs[api] = e
    def ant():
        from langchain_anthropic.chat_models import convert_to_anthropic_tool
        return lambda fns: [convert_to_anthropic_tool(f) for f in fns]
    def goo():
        from langchain_google_genai._function_utils import convert_to_genai_function_declarations
        return convert_to_genai_function_declarations
    def bed():
        from langchain_aws.chat_models.bedrock_converse import _format_tools
        return _format_tools
    imp('anthropic', ant); imp('gemini', goo); imp('bedrock', bed)
    return fs

def pai_tools():
    "api -> f(fns): pydantic-ai's `Tool(f).tool_def` (its function schema) for each, mapped by the model class's own tool mapping"
    from pydantic_ai import Tool
    from pydantic_ai.models.google import _function_declaration_from_tool
    ms = pai_models()['models']
    defs = lambda fns: [Tool(f).tool_def for f in fns]
    maps = dict(openai=lambda m, t: m._map_tool_definition(t, visibility='visible'), openai_chat=lambda m, t: m._map_tool_definition(t, {}),
                anthropic=lambda m, t: m._map_tool_definition(t, {}, visibility='visible'), gemini=lambda m, t: _function_declaration_from_tool(t),
                bedrock=lambda m, t: m._map_tool_definition(t))
    return {api: (ms[api] if isinstance(ms[api], BaseException) else (lambda fns, m=ms[api], g=maps[api]: [g(m, t) for t in defs(fns)])) for api in APIS}

# ---------------------------------------------------------------- streams, built with the SDKs' own types
def ant_events(n, w='word '):
    from anthropic.types import (RawMessageStartEvent, RawContentBlockStartEvent, RawContentBlockDeltaEvent, RawContentBlockStopEvent,
                                 RawMessageDeltaEvent, RawMessageStopEvent, Message, TextBlock, TextDelta, Usage, MessageDeltaUsage)
    from anthropic.types.raw_message_delta_event import Delta
    msg = Message(id='msg_1', type='message', role='assistant', content=[], model='claude-sonnet-4-5', stop_reason=None,
                  stop_sequence=None, usage=Usage(input_tokens=10, output_tokens=1))
    return ([RawMessageStartEvent(type='message_start', message=msg),
             RawContentBlockStartEvent(type='content_block_start', index=0, content_block=TextBlock(type='text', text=''))]
            + [RawContentBlockDeltaEvent(type='content_block_delta', index=0, delta=TextDelta(type='text_delta', text=w)) for _ in range(n)]
            + [RawContentBlockStopEvent(type='content_block_stop', index=0),
               RawMessageDeltaEvent(type='message_delta', delta=Delta(stop_reason='end_turn', stop_sequence=None), usage=MessageDeltaUsage(output_tokens=n)),
               RawMessageStopEvent(type='message_stop')])

def sdk_anthropic(evs):
    from anthropic.lib.streaming._messages import accumulate_event
    def f():
        snap, bufs = None, {}
        for e in evs: snap = accumulate_event(event=e, current_snapshot=snap, json_bufs=bufs)
        return snap
    return f

def resp_events(n, w='word '):
    from openai.types.responses import (Response, ResponseCreatedEvent, ResponseOutputItemAddedEvent, ResponseContentPartAddedEvent,
        ResponseTextDeltaEvent, ResponseTextDoneEvent, ResponseContentPartDoneEvent, ResponseOutputItemDoneEvent, ResponseCompletedEvent,
        ResponseOutputMessage, ResponseOutputText)
    resp = lambda st, out: Response.model_validate(dict(id='resp_1', object='response', created_at=1700000000, model='gpt-4.1', status=st,
                                                        output=out, parallel_tool_calls=True, tool_choice='auto', tools=[]))
    msg = lambda st, c: ResponseOutputMessage(id='msg_1', type='message', role='assistant', status=st, content=c)
    part = lambda t: ResponseOutputText(type='output_text', text=t, annotations=[])
    seq = iter(range(1, n+100)).__next__; full = w*n
    ids = dict(output_index=0, content_index=0, item_id='msg_1')
    return ([ResponseCreatedEvent(type='response.created', sequence_number=seq(), response=resp('in_progress', [])),
             ResponseOutputItemAddedEvent(type='response.output_item.added', sequence_number=seq(), output_index=0, item=msg('in_progress', [])),
             ResponseContentPartAddedEvent(type='response.content_part.added', sequence_number=seq(), part=part(''), **ids)]
            + [ResponseTextDeltaEvent(type='response.output_text.delta', sequence_number=seq(), delta=w, logprobs=[], **ids) for _ in range(n)]
            + [ResponseTextDoneEvent(type='response.output_text.done', sequence_number=seq(), text=full, logprobs=[], **ids),
               ResponseContentPartDoneEvent(type='response.content_part.done', sequence_number=seq(), part=part(full), **ids),
               ResponseOutputItemDoneEvent(type='response.output_item.done', sequence_number=seq(), output_index=0, item=msg('completed', [part(full)])),
               ResponseCompletedEvent(type='response.completed', sequence_number=seq(), response=resp('completed', [msg('completed', [part(full)])]))])

def sdk_responses(evs):
    from openai import omit
    from openai.lib.streaming.responses._responses import ResponseStreamState
    def f():
        st = ResponseStreamState(input_tools=omit, text_format=omit)
        for e in evs: st.handle_event(e)
        return st._completed_response
    return f

def chat_chunks(n, w='word '):
    from openai.types.chat import ChatCompletionChunk
    mk = lambda delta, fr=None: ChatCompletionChunk.model_validate(dict(id='chatcmpl-1', object='chat.completion.chunk', created=1700000000,
                                                                        model='gpt-4.1', choices=[dict(index=0, delta=delta, finish_reason=fr)]))
    return [mk(dict(role='assistant', content=''))] + [mk(dict(content=w)) for _ in range(n)] + [mk({}, 'stop')]

def sdk_chat(chunks):
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    def f():
        st = ChatCompletionStreamState()
        for c in chunks: st.handle_chunk(c)
        return st.get_final_completion()
    return f

# ---------------------------------------------------------------- fresh processes
def _env():
    "Subprocess env: .pyc files cached (outside the tree) for every library alike, so no import pays a recompile"
    e = dict(os.environ); e.pop('PYTHONDONTWRITEBYTECODE', None)
    e['PYTHONPYCACHEPREFIX'] = str(Path(tempfile.gettempdir())/'msgkit-bench-pycache')
    return e

def _child_cpu(code):
    "CPU ms (user + system) of a fresh interpreter running `code`"
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, '-c', code], check=True, env=_env())
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)*1000

def _timed(code):
    "Run `code` in a fresh interpreter; it prints a time in ms as its last line"
    r = subprocess.run([sys.executable, '-c', code], check=True, env=_env(), capture_output=True, text=True)
    return float(r.stdout.split()[-1])

_FIRST = """
import sys, time, base64; sys.path.insert(0, {here!r}); from bench import big_png
import os; os.environ.setdefault('LITELLM_LOCAL_MODEL_COST_MAP', 'True')
imgs = [big_png({sz}) for _ in range(5)]
from peers import image_history
h = image_history(imgs)
{setup}
t = time.process_time(); {stmt}; print((time.process_time()-t)*1000)
"""
def first_build(sz, setup, stmt): return lambda: _timed(_FIRST.format(here=str(HERE), sz=sz, setup=setup, stmt=stmt))

# ---------------------------------------------------------------- the run
class Case:
    """One measured case: `fns` maps a library to a callable, a `(prep, f)` pair (`prep()` untimed, then `f` of what it made, timed),
    or the exception that stopped it. The row it makes: `kind` 'peer' (ratio msgkit ÷ fastest of `peers`), 'floor' or 'goal' (÷ `ref`),
    'self' (÷ `ref_fn(round)`); 'msgkit' is the memo-warm measure, 'msgkit cold' the memo-cold one; `aside` peers are shown, not compared;
    `cant` names peers that can't do this work and why; `nomemo` says why no cold measure exists."""
    def __init__(self, key, label, unit, fns, scale=1, per_call=True, kind='peer', ref=None, ref_note=None, aside=(), cant=None,
                 nomemo=None, rounds=None, check=None, ref_fn=None):
        self.key,self.label,self.unit,self.scale,self.per_call = key,label,unit,scale,per_call
        self.kind,self.ref,self.ref_note,self.aside,self.cant,self.nomemo = kind,ref,ref_note,set(aside),dict(cant or {}),nomemo
        self.rounds,self.check,self.ref_fn = rounds,check,ref_fn
        self.fns, self.err, self.n, self.samples, self.out = {}, {}, {}, {}, {}
        for k,f in fns.items():
            if isinstance(f, BaseException): self.err[k] = f'error: {type(f).__name__}: {str(f)[:100]}'
            elif f is not None: self.fns[k] = f

    def _once(self, f):
        "CPU seconds of one call (the prep of a pair untimed), and what it returned"
        if isinstance(f, tuple):
            x = f[0](); t = clock(); r = f[1](x); return clock()-t, r
        t = clock(); r = f(); return clock()-t, r

    def warm(self, target):
        "Call each twice (a failure drops that lib), note what it made, and pick calls per sample so one sample takes about `target` s"
        for k,f in list(self.fns.items()):
            try:
                dt, r = self._once(f)
                if self.per_call: dt = min(dt, self._once(f)[0])
                if self.check: self.out[k] = self.check(r)
                self.n[k] = max(1, min(10_000, int(target/max(dt, 1e-6)))) if self.per_call else 1
            except Exception as e:
                self.err[k] = f'error: {type(e).__name__}: {str(e)[:100]}'; del self.fns[k]

    def sample(self, rnd):
        ks = list(self.fns)
        if not ks or (self.rounds is not None and rnd >= self.rounds): return
        r = rnd % len(ks)
        for k in ks[r:]+ks[:r]:
            f,n = self.fns[k], self.n[k]
            if not self.per_call: v = f()
            elif isinstance(f, tuple):
                tot = 0.0
                for _ in range(n):
                    x = f[0](); t = clock(); f[1](x); tot += clock()-t
                v = tot/n*self.scale
            else:
                t = clock()
                for _ in range(n): f()
                v = (clock()-t)/n*self.scale
            self.samples.setdefault(k, []).append(v)

    def med(self, k): return statistics.median(self.samples[k]) if self.samples.get(k) else None
    def peers(self, cold=False):
        "The peers msgkit (memo warm) is held against; for its cold measure, the peers' own cold ones where a row has them"
        ps = [k for k in self.fns if not k.startswith('msgkit') and k not in self.aside and self.samples.get(k)]
        cs = [k for k in ps if k.endswith(COLDS)]
        return (cs or ps) if cold else [k for k in ps if not k.endswith(COLDS)]

    def ratio(self, k='msgkit'):
        "Median over rounds of msgkit (`k`) ÷ its reference in the same round; and the reference's name"
        m = self.samples.get(k)
        if not m: return None, None
        if self.kind == 'peer':
            ps = self.peers(cold=k.endswith('cold'))
            if not ps: return None, None
            rs = [m[i]/d for i in range(min(len(m), *(len(self.samples[p]) for p in ps))) if (d := min(self.samples[p][i] for p in ps)) > 0]
            best = min(ps, key=self.med)
            return (statistics.median(rs) if rs else None), best
        if self.kind == 'self':
            rs = [m[i]/d for i in range(len(m)) if (d := self.ref_fn(self, i))]
            return (statistics.median(rs) if rs else None), self.ref_note
        if isinstance(self.ref, str):  # another library of this case
            r = self.samples.get(self.ref)
            rs = [a/b for a,b in zip(m, r or ()) if b > 0]
            return (statistics.median(rs) if rs else None), self.ref
        return (self.med(k)/self.ref if isinstance(self.ref, (int, float)) and self.med(k) is not None else None), self.ref_note

def peak_multiple(f, payload_len):
    "Peak traced memory while `f` runs, the payload (allocated before tracing, alive throughout) included, ÷ payload"
    import gc; gc.collect()
    tracemalloc.start()
    try: r = f(); p = tracemalloc.get_traced_memory()[1]; del r
    except Exception as e: return f'error: {type(e).__name__}: {str(e)[:80]}'
    finally: tracemalloc.stop()
    return (p+payload_len)/payload_len

def machine():
    cpu = next((l.split(':',1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.processor()) if os.path.exists('/proc/cpuinfo') else platform.processor()
    aff = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    vers = {}
    from importlib.metadata import version
    for p in ('msgkit-llm','msglm','litellm','langchain-core','langchain-anthropic','langchain-openai','langchain-google-genai','langchain-aws',
              'pydantic-ai-slim','openai','anthropic','google-genai','boto3','tiktoken','numpydoc','fastcore','pybase64'):
        try: vers[p] = version(p)
        except Exception: vers[p] = 'not installed'
    def git(*a):
        try: return subprocess.run(['git', '-C', str(HERE.parent), *a], capture_output=True, text=True, timeout=10).stdout.strip()
        except Exception: return ''
    dirty = git('status', '--porcelain', '--', 'msgkit')
    rev = (git('rev-parse', '--short', 'HEAD') or '?') + (f' + uncommitted changes to {len(dirty.splitlines())} msgkit file(s)' if dirty else '')
    return dict(msgkit_rev=rev, cpus=os.cpu_count(), usable_cpus=aff, cpu=cpu, python=platform.python_version(), implementation=platform.python_implementation(),
                platform=platform.platform(), loadavg=os.getloadavg() if hasattr(os,'getloadavg') else None, versions=vers)

def fmt(v, unit=''):
    if v is None: return '–'
    if isinstance(v, str): return v
    if isinstance(v, int) and not isinstance(v, bool): return f'{v:,}'
    return f'{v:.3f}' if abs(v)<1 else f'{v:.2f}' if abs(v)<10 else f'{v:.1f}' if abs(v)<1000 else f'{v:,.0f}'

def _loadavg(): return ', '.join(f'{x:.2f}' for x in os.getloadavg()) if hasattr(os, 'getloadavg') else '?'

# ---------------------------------------------------------------- the cases
def _mk_counter():
    "How msgkit counts OpenAI text tokens on this machine: tiktoken where an encoding is already here, else 4 characters a token"
    from msgkit.adapters.openai import encoder
    e = encoder()
    return f'tiktoken {e.name}, exact' if e else '4 characters a token'

def build_cases(q, only=None):
    "Every case of the run (`q`: quick sizes); `only`: key prefixes to keep"
    import msgkit
    img_sz, n_ev = (100_000, 1_000) if q else (1_000_000, 10_000)
    isz = f'{img_sz/1e6:g} MB'
    want = lambda key: not only or any(key.startswith(o) or o.startswith(key) for o in only)  # a block of cases, some of which are wanted
    cases = []
    def add(c):
        if not only or any(c.key.startswith(o) for o in only):
            c.fns, al = with_alone(c.fns); c.aside.update(al)  # (litellm's converter alone, beside it: aside)
            cases.append(c)
    h = text_history(100); cd = chat_dicts(h); nmsg = len(h)
    lc_ok = _peer('langchain-core', lambda: lc_converters()) is not None
    for api,pkg in LC_PKG.items():
        if lc_ok and isinstance(lc_converters().get(api), ImportError): MISSING.setdefault(pkg, 'not installed')
    lit_ok = _peer('litellm', lambda: lit_converters()) is not None
    pai_ok = _peer('pydantic-ai', lambda: pai_models()) is not None
    mlm = _peer('msglm', lambda: setup_msglm(h)) or {}
    have_msglm = bool(mlm)
    def lc_name(api): return LC_PKG[api]
    def peers_for(api, lc=None, lit=None, pai=None, extra=()):
        "The peer callables for `api` of the given setups (api -> f), named by package"
        out = {}
        for name, d in (('pydantic-ai', pai), (lc_name(api), lc), ('litellm', lit), *extra):
            if d and api in d: out[name] = d[api]
        return out
    def cant_for(names):
        "peers expected in a row, reported when missing"
        return {n: MISSING[n] for n in names if n in MISSING}

    # 1. text histories from plain strings (each peer in its own form)
    if want('text.') or want('own.'):
        lc = setup_langchain(lc_msgs(cd)) if lc_ok else {}
        lit = setup_litellm(cd) if lit_ok else {}
        pai = setup_pydantic_ai(pai_msgs(cd)) if pai_ok else {}
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(h, api)), **peers_for(api, lc, lit, pai, extra=(('msglm', mlm),))}
            if api == 'openai_chat': fns[FLOOR] = copy_floor(cd)
            exp = ['pydantic-ai', lc_name(api), 'litellm'] + (['msglm'] if api in ('openai','anthropic') else [])
            add(Case(f'text.{api}', f'1. 100-message text history → {api}', 'µs/msg', fns, 1e6/nmsg, cant=cant_for(exp),
                     nomemo='no payload ≥ 32 KB', aside=(FLOOR,)))
        # 1b. the same history in the target API's own form, as a chat app stores it (JSON of what mk_msgs made)
        for api in APIS:
            own = json.loads(json.dumps(msgkit.jsonable(msgkit.mk_msgs(h, api))))
            fns = {'msgkit': (lambda api=api, own=own: msgkit.mk_msgs(own, api))}
            fns[MSGS] = lambda api=api, ms=msgkit.mk_msgs(h, api): msgkit.mk_msgs(ms, api)
            if api == 'openai_chat' and lit: fns['litellm'] = lit['openai_chat']; fns[FLOOR] = copy_floor(own)  # the one peer that reads this form: Chat dicts
            add(Case(f'own.{api}', f"1b. same history in {api}'s own form (as stored: JSON) → {api}", 'µs/msg', fns, 1e6/nmsg,
                     kind='peer' if api=='openai_chat' else 'goal', ref_note="fastest peer of row 1 (no peer reads this form)",
                     nomemo='no payload ≥ 32 KB', aside=(FLOOR, MSGS)))

    # 2. the same history as Chat dicts (litellm's own form; langchain-core reads them with convert_to_messages, timed here)
    if want('chat_dicts.'):
        lit = setup_litellm(cd) if lit_ok else {}
        lcf = lc_converters() if lc_ok else {}
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(cd, api))}
            if api in lit: fns['litellm'] = lit[api]
            if api == 'openai_chat': fns[FLOOR] = copy_floor(cd)
            f = lcf.get(api)
            if f is not None: fns[f'{lc_name(api)} (convert_to_messages + converter)'] = f if isinstance(f, BaseException) else (lambda f=f: f(lc_msgs(cd)))
            add(Case(f'chat_dicts.{api}', f'2. same history as Chat dicts → {api}', 'µs/msg', fns, 1e6/nmsg,
                     cant={'pydantic-ai': 'takes no Chat dicts', **cant_for(['litellm'])}, nomemo='no payload ≥ 32 KB', aside=(FLOOR,)))

    # 3. a history of Chat dicts holding data-URI images (new): memo warm = the same dicts every call; memo cold = loaded from JSON before each call
    if want('data_uri.'):
        u_imgs = [big_png(img_sz) for _ in range(5)]
        dcd = image_chat(u_imgs); u_js = json.dumps(dcd)
        lc = setup_langchain(lc_msgs(dcd)) if lc_ok else {}
        lit = setup_litellm(dcd) if lit_ok else {}
        pai = setup_pydantic_ai(pai_msgs(dcd), binary=('anthropic', 'gemini', 'bedrock')) if pai_ok else {}
        # each peer's cold measure: its own input made from the history loaded from JSON before each call (not timed),
        # as msgkit's is: every library then meets the payloads afresh, caches and all
        lcf = lc_converters() if lc_ok else {}
        litf = lit_converters() if lit_ok else {}
        def colds(api):
            out = {}
            if api in litf: out['litellm' + COLD] = (lambda: json.loads(u_js), litf[api])
            if not isinstance(lcf.get(api, KeyError()), BaseException):
                out[lc_name(api) + COLD] = (lambda: lc_msgs(json.loads(u_js)), lcf[api])
            if pai_ok:
                try:
                    pm = pai_mapper(api); bin_ = api in ('anthropic', 'gemini', 'bedrock')
                    out['pydantic-ai' + COLD] = (lambda: pai_msgs(json.loads(u_js)), lambda m, pm=pm, b=bin_: pm(pai_binary(m) if b else m))
                except Exception as e: out['pydantic-ai' + COLD] = e
            return out
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(dcd, api)),
                   'msgkit cold': (lambda: json.loads(u_js), lambda x, api=api: msgkit.mk_msgs(x, api)),
                   **peers_for(api, lc, lit, pai), **colds(api)}
            fns[FIRST] = (lambda: (forget(), json.loads(u_js))[1], lambda x, api=api: msgkit.mk_msgs(x, api))
            if api in ('gemini', 'bedrock'): fns[STDLIB] = (lambda: json.loads(u_js), stdlib_b64(lambda x, api=api: msgkit.mk_msgs(x, api)))
            cant = cant_for(['pydantic-ai', lc_name(api), 'litellm'])
            flush = ()
            if api == 'openai_chat':  # (the row msgkit trails cold: each cold measure again, the caches emptied alike)
                for k in ['msgkit cold'] + [k for k in fns if k.endswith(COLD)]:
                    if isinstance(fns[k], tuple):
                        fns[k + FLUSHED] = (flushed(fns[k][0]), fns[k][1]); flush += (k + FLUSHED,)
            if 'pydantic-ai' in fns and api in ('anthropic', 'gemini', 'bedrock'):
                fns['pydantic-ai (BinaryContent.from_data_uri in the call)'] = fns.pop('pydantic-ai')
            aside = (FIRST, *flush)
            if api in ('gemini', 'bedrock') and 'litellm' in fns:  # its output is the HTTP body's, not the SDK's
                fns[LIT_REST] = fns.pop('litellm'); aside = (LIT_REST,)
                if 'litellm' + COLD in fns: fns[LIT_REST + COLD] = fns.pop('litellm' + COLD); aside += (LIT_REST + COLD,)
                fns[f'floor: b64decode of the {len(u_imgs)} payloads'] = (lambda: json.loads(u_js), lambda x: [base64.b64decode(
                    m['content'][0]['image_url']['url'].split(',', 1)[1]) for m in x if isinstance(m['content'], list)])
                aside += (f'floor: b64decode of the {len(u_imgs)} payloads',)
            add(Case(f'data_uri.{api}', f'3. 20-message Chat-dict history, 5 × {isz} images as `image_url` data URIs → {api} '
                     f'(memo cold: the history loaded from JSON before each call, json.loads not timed)', 'ms', fns, 1e3, cant=cant, aside=aside))


    # 4. a 200-message tool-call history (new)
    if want('tool_history.') or want('loop.'):
        tc = tool_chat(200); ntc = len(tc)
        lc = setup_langchain(lc_msgs(tc)) if lc_ok else {}
        lit = setup_litellm(tc) if lit_ok else {}
        pai = setup_pydantic_ai(pai_msgs(tc)) if pai_ok else {}
        from msgkit import plain as _plain
        for api in APIS:
            # memo cold: msgkit's memo of each call's parsed arguments (by their text) emptied before each call
            fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(tc, api)),
                   'msgkit cold': (lambda: _plain._args.clear(), lambda x, api=api: msgkit.mk_msgs(tc, api)), **peers_for(api, lc, lit, pai)}
            if api == 'openai_chat':
                fns[FLOOR] = copy_floor(tc)
                import marshal  # (the fastest deep copy there is, in C, of plain dicts and lists: no Msg, no check)
                fns[MARSHAL] = lambda: marshal.loads(marshal.dumps(tc))
            add(Case(f'tool_history.{api}', f'4. {ntc}-message tool-call history (Chat dicts: text, assistant tool_calls, tool results) → {api} '
                     '(memo cold: its memo of parsed arguments emptied before each call)', 'µs/msg', fns, 1e6/ntc, cant=cant_for(['pydantic-ai', lc_name(api), 'litellm']),
                     aside=(FLOOR, MARSHAL) if api == 'openai_chat' else ()))
        # 4b. the same loop as each library keeps it between turns: msgkit's, what `mk_msgs` gave for the API, sent back
        # (a History of Msgs; cold: stored as JSON, bytes as base64, loaded before each call); each peer's, its own
        # native messages, as in 4 (pydantic-ai's ModelMessages, LangChain's messages, litellm's Chat dicts)
        for api in APIS:
            own = msgkit.mk_msgs(tc, api)
            own_js = json.dumps(own, default=lambda b: base64.b64encode(b).decode() if isinstance(b, bytes) else repr(b))
            fns = {'msgkit': (lambda api=api, own=own: msgkit.mk_msgs(own, api)),
                   'msgkit cold': (lambda own_js=own_js: json.loads(own_js), lambda x, api=api: msgkit.mk_msgs(x, api)),
                   **peers_for(api, lc, lit, pai)}
            add(Case(f'loop.{api}', f'4b. the same loop as each library keeps it between turns (msgkit: what mk_msgs gave for {api}, '
                     f'sent back; cold: stored as JSON, loaded before each call) → {api}', 'µs/msg', fns, 1e6/ntc,
                     cant=cant_for(['pydantic-ai', lc_name(api), 'litellm'])))

    # 5. a history holding image bytes, rebuilt every turn (memo warm: the same bytes objects; cold: fresh copies each call)
    if want('image_bytes.'):
        b_imgs = [big_png(img_sz) for _ in range(5)]; ih = image_history(b_imgs)
        def fresh_hist(): return image_history([bytes(bytearray(b)) for b in b_imgs])
        pai = {}
        if pai_ok:
            pm = pai_bytes(b_imgs)
            for api in APIS: pai[api] = _try(lambda api=api: (lambda f=pai_mapper(api): f(pm)))
        lit = {}
        if lit_ok:  # litellm takes no bytes: the caller's base64 and data URIs are part of its time
            conv = lit_converters()
            for api in APIS: lit[api] = _alone(lambda f=conv[api]: f(image_chat(b_imgs)), lambda f=conv[api].alone: f(image_chat(b_imgs)))
        fresh = lambda: [bytes(bytearray(b)) for b in b_imgs]
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(ih, api)),
                   'msgkit cold': (fresh_hist, lambda x, api=api: msgkit.mk_msgs(x, api))}
            if api not in ('gemini', 'bedrock'): fns[STDLIB] = (fresh_hist, stdlib_b64(lambda x, api=api: msgkit.mk_msgs(x, api)))
            # each peer's cold measure: its own input made from fresh copies of the bytes before each call (not timed), as msgkit's
            if pai.get(api) is not None:
                fns['pydantic-ai (BinaryContent)'] = pai[api]
                if not isinstance(pai[api], BaseException):
                    fns['pydantic-ai (BinaryContent)' + COLD_B] = (lambda: pai_bytes(fresh()), lambda m, f=pai_mapper(api): f(m))
            if lit.get(api) is not None:
                fns['litellm (from bytes: data URIs made in the call)'] = lit[api]
                fns['litellm (from bytes: data URIs made in the call)' + COLD_B] = (fresh, _alone(lambda im, f=conv[api]: f(image_chat(im)),
                                                                                             lambda im, f=conv[api].alone: f(image_chat(im))))
            if api in mlm:
                import msglm; fns['msglm'] = (lambda api=api: msglm.mk_msgs(ih, api=api))
                fns['msglm' + COLD_B] = (fresh_hist, lambda x, api=api: msglm.mk_msgs(x, api=api))
            cant = {**cant_for(['pydantic-ai', 'litellm'] + (['msglm'] if api in ('openai', 'anthropic') else [])),
                    'langchain': 'takes images as base64 or URLs, not bytes'}
            add(Case(f'image_bytes.{api}', f'5. rebuild 20-message history with 5 × {isz} PNGs (bytes) → {api}', 'ms', fns, 1e3, cant=cant))
        # the same history already holding base64 (anthropic form), and that loaded from JSON before each build (kept from #9)
        ih_b64 = json.loads(json.dumps(msgkit.mk_msgs(ih, 'anthropic'))); b_js = json.dumps(ih_b64)
        add(Case('b64_history', '5b. the same history already holding base64 (anthropic form) → anthropic', 'ms',
                 {'msgkit': lambda: msgkit.mk_msgs(ih_b64, 'anthropic'), 'msgkit cold': (lambda: json.loads(b_js), lambda x: msgkit.mk_msgs(x, 'anthropic'))},
                 1e3, kind='goal', ref=2.3, ref_note="#9's figure for histories that store base64 (no peer reads this form)"))

    # 6. one image message, the memo cold (fresh bytes) and warm, vs msglm's mk_msg
    if want('one_image.'):
        img1 = big_png(img_sz)
        for api in ('openai', 'anthropic', 'gemini', 'bedrock', 'openai_chat'):
            fns = {'msgkit': (lambda api=api: msgkit.mk_msg([img1, 'What is in this picture?'], api=api)),
                   'msgkit cold': (lambda: bytes(bytearray(img1)), lambda b, api=api: msgkit.mk_msg([b, 'What is in this picture?'], api=api))}
            if api not in ('gemini', 'bedrock'):
                fns[STDLIB] = (lambda: bytes(bytearray(img1)), stdlib_b64(lambda b, api=api: msgkit.mk_msg([b, 'What is in this picture?'], api=api)))
            if api in mlm:
                import msglm; fns['msglm'] = (lambda api=api: msglm.mk_msg([img1, 'What is in this picture?'], api=api))
                fns['msglm' + COLD_B] = (lambda: bytes(bytearray(img1)), lambda b, api=api: msglm.mk_msg([b, 'What is in this picture?'], api=api))
            cant = cant_for(['msglm']) if api in ('openai', 'anthropic') else {'msglm': f'no {api} API'}
            add(Case(f'one_image.{api}', f'6. one `mk_msg([{isz} PNG, text])` → {api}', 'ms', fns, 1e3, cant=cant))

    # 7. first build in a fresh process vs base64 of those bytes once (kept from #9: the memo cold by construction)
    if want('first_build'):
        fns = {'msgkit': first_build(img_sz, "import msgkit; msgkit.mk_msgs([['warm up', msgkit.sample('gradient.png').read_bytes()]], 'anthropic')", "msgkit.mk_msgs(h, 'anthropic')"),
               'base64': first_build(img_sz, '', "[base64.b64encode(b).decode('ascii') for b in imgs]")}
        if have_msglm: fns['msglm'] = first_build(img_sz, "import msglm, msgkit; msglm.mk_msgs([['warm up', msgkit.sample('gradient.png').read_bytes()]], api='anthropic')", "msglm.mk_msgs(h, api='anthropic')")
        add(Case('first_build', f'7. first build in a fresh process (modules loaded by a small image message first; the memo cold) of the {isz} history → anthropic, ÷ base64 of its bytes once',
                 'ms', fns, per_call=False, kind='floor', ref='base64', ref_note='base64 of the bytes once (floor)'))

    # 8. import (fresh process, CPU time, minus a bare interpreter's)
    if want('import'):
        fns = {'msgkit': lambda: _child_cpu('import msgkit'), 'bare interpreter': lambda: _child_cpu('pass')}
        if have_msglm: fns['msglm'] = lambda: _child_cpu('import msglm')
        add(Case('import', '8. `import` (fresh process, CPU, minus bare interpreter start)', 'ms', fns, per_call=False, kind='peer', aside=('bare interpreter',)))
        fns = {'msgkit': lambda: _child_cpu("import msgkit; msgkit.mk_msgs(['Hi', 'Hello!'], api='anthropic')"), 'bare interpreter': lambda: _child_cpu('pass')}
        if have_msglm: fns['msglm'] = lambda: _child_cpu("import msglm; msglm.mk_msgs(['Hi', 'Hello!'], api='anthropic')")
        cant = {}
        if not q:  # the big peers' imports take seconds each: a few rounds of them, in the full run only
            if lit_ok: fns['litellm'] = lambda: _child_cpu("import os; os.environ['LITELLM_LOCAL_MODEL_COST_MAP']='True'\nfrom litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt; anthropic_messages_pt([dict(role='user', content='Hi'), dict(role='assistant', content='Hello!')], model='claude-sonnet-4-5', llm_provider='anthropic')")
            if lc_ok and not isinstance(lc_converters().get('anthropic'), BaseException):
                fns['langchain-anthropic'] = lambda: _child_cpu("from langchain_anthropic.chat_models import _format_messages\nfrom langchain_core.messages import HumanMessage, AIMessage\n_format_messages([HumanMessage('Hi'), AIMessage('Hello!')], model='claude-sonnet-4-5')")
            if pai_ok: fns['pydantic-ai'] = lambda: _child_cpu(f"import sys; sys.path.insert(0, {str(HERE)!r})\nfrom peers import pai_mapper\nfrom pydantic_ai.messages import ModelRequest, ModelResponse, UserPromptPart, TextPart\npai_mapper('anthropic')([ModelRequest(parts=[UserPromptPart(content='Hi')]), ModelResponse(parts=[TextPart(content='Hello!')])])")
        else: cant = {'litellm, langchain-anthropic, pydantic-ai': 'skipped in --quick (their imports take seconds)'}
        add(Case('import_call', "8. `import` and a first `mk_msgs(['Hi', 'Hello!'], api='anthropic')` (its lazy imports) or each peer's anthropic converter, same way",
                 'ms', fns, per_call=False, kind='peer', aside=('bare interpreter',), rounds=None if q else 5, cant=cant))

    # 9. tools from 20 Python functions (memo warm: the same function objects; cold: new ones each call) and a request with them
    if want('tools.') or want('request_tools.'):
        fns20 = tool_fns(20); nf = len(fns20)
        lt = _try(lit_tools) if lit_ok else None; lct = _try(lc_tools) if lc_ok else None; pt = _try(pai_tools) if pai_ok else None
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_tools(fns20, api)),
                   'msgkit cold': (lambda: fresh_fns(fns20), lambda x, api=api: msgkit.mk_tools(x, api))}
            for name, d in (('pydantic-ai', pt), (lc_name(api) if api not in ('openai', 'openai_chat') else 'langchain-core', lct), ('litellm', lt)):
                if isinstance(d, BaseException): fns[name] = d
                elif d and api in d: fns[name] = d[api] if isinstance(d[api], BaseException) else (lambda f=d[api]: f(fns20))
            add(Case(f'tools.{api}', f'9. tools from {nf} Python functions (`mk_tools(fns, api)`) → {api}', 'ms', fns, 1e3,
                     cant=cant_for(['pydantic-ai', 'litellm', LC_PKG[api] if api not in ('openai','openai_chat') else 'langchain-core']),
                     check=lambda r: f'{len(r[0] if isinstance(r, tuple) else r)} item(s)'))
        def parts(c, i):
            "without tools + mk_tools alone, in round i"
            s = c.samples
            return s['msgkit without tools'][i] + s['mk_tools alone'][i] if len(s.get('mk_tools alone', ())) > i and len(s.get('msgkit without tools', ())) > i else None
        for api in APIS:
            fns = {'msgkit': (lambda api=api: msgkit.mk_request(h, api, model='m', tools=fns20)),
                   'msgkit without tools': (lambda api=api: msgkit.mk_request(h, api, model='m')),
                   'mk_tools alone': (lambda api=api: msgkit.mk_tools(fns20, api))}
            add(Case(f'request_tools.{api}', f'9b. `mk_request(h, {api!r}, model=\'m\', tools=fns)` (100-message history, {nf} tools) ÷ (the same request without tools + `mk_tools` alone)',
                     'ms', fns, 1e3, kind='self', ref_fn=parts, ref_note='without tools + mk_tools alone (msgkit; no peer builds a whole request offline)',
                     aside=('msgkit without tools', 'mk_tools alone'), nomemo='no memo for functions'))

    # 10. trim 2,000 messages to a 20k-token budget
    if want('trim'):
        n_tr, budget = (200, 2_000) if q else (2_000, 20_000)
        tcd = chat_dicts(text_history(n_tr)); kept = lambda r: f'kept {len(r)}'
        fns = {'msgkit': lambda: msgkit.trim(tcd, budget, api='openai')}
        if lc_ok:
            from langchain_core.messages import trim_messages, BaseMessage
            tlc = lc_msgs(tcd)
            try:
                import tiktoken; enc = tiktoken.get_encoding('o200k_base')
                def count_one(m: BaseMessage) -> int: return len(enc.encode(m.text)) + 3  # per message: its text's tokens + OpenAI's 3 of framing
                fns['langchain-core (tiktoken o200k_base, exact)'] = lambda: trim_messages(tlc, max_tokens=budget, token_counter=count_one, strategy='last', start_on='human')
            except Exception as e: fns['langchain-core (tiktoken o200k_base, exact)'] = e
            fns['langchain-core (its approximate counter)'] = lambda: trim_messages(tlc, max_tokens=budget, token_counter='approximate', strategy='last', start_on='human')
        if lit_ok:
            from litellm.utils import trim_messages as lit_trim
            fns['litellm (tiktoken, exact)'] = lambda: lit_trim(tcd, model='gpt-4o', max_tokens=budget)
        add(Case('trim', f'10. `trim` of {n_tr:,} Chat-dict messages to a {budget:,}-token budget (openai; msgkit counts with {_mk_counter()})', 'ms', fns, 1e3, check=kept,
                 aside=() if _mk_counter().startswith('4 char') else ('langchain-core (its approximate counter)',),
                 cant={'pydantic-ai': 'no trimming by tokens (history processors are user code)', **cant_for(['litellm', 'langchain-core'])},
                 nomemo='no payload ≥ 32 KB'))

    # 11. est_tokens: 1k texts, and 10 data-URI images
    if want('est_tokens'):
        n_t = 100 if q else 1000
        ecd = chat_dicts(text_history(n_t)); elc = lc_msgs(ecd) if lc_ok else None
        from msgkit.adapters import openai as _oa  # memo cold: msgkit's memo of each text's tokens emptied before each call
        fns = {'msgkit': lambda: msgkit.est_tokens(ecd, 'openai'),
               'msgkit cold': (lambda: _oa._toks.clear(), lambda x: msgkit.est_tokens(ecd, 'openai'))}
        if lit_ok: import litellm; fns['litellm (token_counter: tiktoken, exact)'] = lambda: litellm.token_counter(model='gpt-4o', messages=ecd)
        if lc_ok:
            from langchain_core.messages.utils import count_tokens_approximately
            fns['langchain-core (count_tokens_approximately)'] = lambda: count_tokens_approximately(elc)
        add(Case('est_tokens.texts', f'11. `est_tokens` of {n_t:,} text messages (openai; msgkit counts with {_mk_counter()}; memo cold: its memo of texts\' tokens emptied before each call)', 'ms', fns, 1e3, check=lambda r: f'{r:,} tokens',
                 aside=() if _mk_counter().startswith('4 char') else ('langchain-core (count_tokens_approximately)',),
                 cant={'pydantic-ai': 'no offline token count'}))
        e_imgs = [big_png(img_sz) for _ in range(10)]
        icd = [dict(role='user', content=[dict(type='image_url', image_url=dict(url=data_uri(b))), dict(type='text', text=f'picture {i}?')]) for i,b in enumerate(e_imgs)]
        ijs = json.dumps(icd); ilc = lc_msgs(icd) if lc_ok else None
        fns = {'msgkit': lambda: msgkit.est_tokens(icd, 'openai'), 'msgkit cold': (lambda: json.loads(ijs), lambda x: msgkit.est_tokens(x, 'openai'))}
        if lit_ok: fns['litellm (token_counter)'] = lambda: litellm.token_counter(model='gpt-4o', messages=icd)
        if lc_ok: fns['langchain-core (count_tokens_approximately: a flat 85 a picture)'] = lambda: count_tokens_approximately(ilc)
        add(Case('est_tokens.images', f'11. `est_tokens` of 10 messages each holding a {isz} PNG data URI (openai; memo cold: loaded from JSON before each call)',
                 'ms', fns, 1e3, check=lambda r: f'{r:,} tokens', aside=('langchain-core (count_tokens_approximately: a flat 85 a picture)',),
                 cant={'pydantic-ai': 'no offline token count'}))


    # 12. mk_batch of 100k requests written as JSON lines vs the floor: json.dumps of the same dicts built by hand
    if want('batch'):
        n_b = 1_000 if q else 100_000
        prompts = [f"Summarise document {i} in one sentence." for i in range(n_b)]
        out = Path(tempfile.gettempdir())/'msgkit-bench-batch.jsonl'
        def mk():
            with open(out, 'w') as f:
                for o in msgkit.mk_batch(prompts, 'openai', model='m', progress=False): f.write(json.dumps(o)); f.write('\n')
            return out.stat().st_size
        def floor():
            with open(out, 'w') as f:
                for i,p in enumerate(prompts):
                    f.write(json.dumps({'custom_id': f'request-{i}', 'method': 'POST', 'url': '/v1/responses',
                                        'body': {'model': 'm', 'input': [{'role': 'user', 'content': p}]}})); f.write('\n')
            return out.stat().st_size
        add(Case('batch', f"12. `list(mk_batch(prompts, 'openai', model='m'))` of {n_b:,} prompts written as JSON lines ÷ the floor (a loop of json.dumps of the same request dicts built by hand)",
                 'µs/request', {'msgkit': mk, 'floor (json.dumps loop)': floor}, 1e6/n_b, kind='floor', rounds=None if q else 7, ref='floor (json.dumps loop)', ref_note='json.dumps loop',
                 check=lambda r: f'{r:,} bytes', cant={'litellm, langchain, pydantic-ai': 'no batch-file builder'}, nomemo='no payload ≥ 32 KB'))

    # 13. stream assembly
    def stream_case(key, label, mk_evs, sdk, api):
        try: evs = mk_evs(n_ev); fns = {'msgkit': lambda: msgkit.stream_msg(evs, api=api), 'SDK': sdk(evs)}
        except ImportError as e: fns = {}; add(Case(key, label, 'ms', fns, 1e3, cant={'SDK': f'not installed ({e.name or e})'})); return
        add(Case(key, label, 'ms', fns, 1e3, nomemo='no payloads', cant={'litellm, langchain, pydantic-ai': 'assemble only from a live call'}))
    k = f'{n_ev//1000}k'
    if want('stream.'):
        stream_case('stream.anthropic', f'13. {k} Anthropic stream events (vs SDK `accumulate_event`)', ant_events, sdk_anthropic, 'anthropic')
        stream_case('stream.responses', f'13. {k} Responses stream events (vs SDK `ResponseStreamState`)', resp_events, sdk_responses, 'openai')
        stream_case('stream.chat', f'13. {k} Chat chunks (vs SDK `ChatCompletionStreamState`)', chat_chunks, sdk_chat, 'openai_chat')
    return cases

# ---------------------------------------------------------------- the table
def report(cases, mem, pdf_sz):
    "The rows: one a case (import's less the bare interpreter), plus peak memory"
    rows = []
    for c in cases:
        if c.key in ('import', 'import_call'):  # minus the bare interpreter, round by round
            base = c.samples.get('bare interpreter') or []
            for k in list(c.samples):
                if k != 'bare interpreter': c.samples[k] = [max(v-b, 0.0) for v,b in zip(c.samples[k], base)]
        warm, cold = c.med('msgkit'), c.med('msgkit cold')
        rw, best = c.ratio('msgkit'); rc, _ = c.ratio('msgkit cold')
        if c.key.startswith('own.') and c.kind == 'goal':
            t = next((x for x in cases if x.key == 'text.' + c.key.split('.', 1)[1]), None)
            if t and t.peers():
                best = min(t.peers(), key=t.med); c.ref = t.med(best); rw = warm/c.ref if warm else None
                c.ref_note = f'fastest peer of row 1 ({best}); no peer reads this form'
        ref = (c.med(best) if c.kind == 'peer' and best else c.med(c.ref) if isinstance(c.ref, str) else c.ref)
        if c.kind == 'self' and c.ref_fn: ref = statistics.median([v for i in range(len(c.samples.get('msgkit', []))) if (v := c.ref_fn(c, i))] or [0]) or None
        peers = {k: c.med(k) for k in c.fns if k != 'msgkit' and k != 'msgkit cold' and not (c.key.startswith('import') and k == 'bare interpreter')}
        for k in c.out:
            if not k.startswith('msgkit'): peers.setdefault(k, None)
        alone = {}  # msgkit ÷ litellm's converter alone (aside), round by round, as the row's ratio is taken
        for k in c.aside:
            if ALONE in k and (rs := [a/b for a,b in zip(c.samples.get('msgkit cold' if k.endswith(COLDS) else 'msgkit') or [],
                                                         c.samples.get(k) or []) if b > 0]):
                alone[k] = statistics.median(rs)
        fl = None  # msgkit cold ÷ the fastest peer cold, each after the same flush (aside), round by round
        if (m := c.samples.get('msgkit cold' + FLUSHED)) and (fps := [k for k in c.aside if k.endswith(FLUSHED) and
                                                                      not k.startswith('msgkit') and c.samples.get(k)]):
            fl = statistics.median([m[i]/d for i in range(min(len(m), *(len(c.samples[k]) for k in fps)))
                                    if (d := min(c.samples[k][i] for k in fps)) > 0])
        rows.append(dict(key=c.key, measure=c.label, unit=c.unit, warm=warm, cold=cold, nomemo=c.nomemo, ref=ref,
                         ref_name=best if c.kind == 'peer' else (c.ref_note or c.ref), kind=c.kind, ratio_warm=rw, ratio_cold=rc,
                         peers=peers, aside=sorted(c.aside), out=c.out, errors=c.err, cant=c.cant, alone=alone,
                         flushed=fl,
                         base=c.med('bare interpreter') if c.key.startswith('import') else None))
    ps = {'floor (bytes + base64 text alive at once)': 1 + 4/3, **{k:v for k,v in mem.items() if k!='msgkit'}}
    m = mem.get('msgkit')
    rows.append(dict(key='memory', measure=f"14. peak memory of `mk_msg([pdf_{pdf_sz//1_000_000}MB, 'Summarise'], api='openai')`, payload included",
                     unit='× payload', warm=m, cold=None, nomemo='a payload this big is never memoised', ref=2.7, ref_name="#9's goal", kind='goal',
                     ratio_warm=m/2.7 if isinstance(m, float) else None, ratio_cold=None, peers=ps, aside=[], out={}, errors={}, cant={}))
    for r in rows:
        rs = [x for x in (r['ratio_warm'], r['ratio_cold']) if x is not None]
        r['trails'] = r['kind'] != 'self' and any(x > 1 for x in rs)  # msgkit against msgkit (a request ÷ its parts) trails no one
        if r['kind'] == 'self': r['verdict'] = f"{(rs[0]-1)*100:+.0f}% over its parts" if rs else 'no reference'
        else: r['verdict'] = ('**TRAILS**' if r['trails'] else 'leads' if r['kind'] == 'peer' else 'within') if rs else 'no reference'
    return rows

def table(rows):
    hd = ['| measure | unit | msgkit, memo warm | msgkit, memo cold | reference | ratio warm | ratio cold | verdict | every library (median) · notes |',
          '|---|---|---|---|---|---|---|---|---|']
    for o in rows:
        cold = fmt(o['cold']) if o['cold'] is not None else (f"– ({o['nomemo']})" if o['nomemo'] else '–')
        ref = f"{fmt(o['ref'])} ({o['ref_name']})" if o['ref'] is not None else '–'
        bits = []
        for k,v in o['peers'].items():
            s = f"{k} {fmt(v)}" + (f" [{o['out'][k]}]" if k in o['out'] else '')
            if k in o.get('alone', {}): s += f" (msgkit ÷ it: {fmt(o['alone'][k])}×)"
            bits.append(s + (' (aside: not the same work)' if o['kind'] == 'peer' and k in o['aside'] and not k.startswith(('msgkit', 'mk_tools', 'bare', 'floor')) else ''))
        if 'msgkit' in o['out']: bits.insert(0, f"msgkit [{o['out']['msgkit']}]")
        if o.get('base') is not None: bits.append(f"bare interpreter {fmt(o['base'])} ms (subtracted)")
        bits += [f'{k}: {v}' for k,v in o['errors'].items() if k not in o['cant']] + [f'{k}: can\'t — {v}' for k,v in o['cant'].items()]
        rw = fmt(o['ratio_warm']) + ('×' if o['ratio_warm'] is not None else '')
        rc = fmt(o['ratio_cold']) + ('×' if o['ratio_cold'] is not None else '')
        hd.append(f"| {o['measure']} | {o['unit']} | {fmt(o['warm'])} | {cold} | {ref} | {rw} | {rc} | {o['verdict']} | {' · '.join(bits)} |")
    return '\n'.join(hd)

def _fn_name(k):
    "pstats key (file, line, name) as `module.py:line(name)`, the path cut to the package"
    f, l, n = k
    if f == '~': return n
    parts = Path(f).parts
    at = max((i for i,p in enumerate(parts) if p in ('msgkit', 'site-packages', 'bench', 'lib')), default=len(parts)-2)
    return f"{'/'.join(parts[at+1:] if parts[at] in ('site-packages', 'lib') else parts[at:])}:{l}({n})"

_WRAPPERS = ('errors.py', 'history.py:34(', 'history.py:36(_f)', 'peers.py', 'core.py:97(mk_msgs)', 'core.py:38(mk_msg)')
def profile(keys, q, n=20):
    "cProfile msgkit's side (memo warm, and cold where it has one) of the cases `keys`: a summary of hot spots, then the top `n` by cumulative and own time"
    import cProfile, pstats, io
    cases = {c.key: c for c in build_cases(q, only=keys)}
    summary, details = [], []
    for key in keys:
        c = cases.get(key)
        if c is None or not c.per_call: details.append(f'## {key}: no such in-process case\n'); continue
        for lib in ('msgkit', 'msgkit cold'):
            f = c.fns.get(lib)
            if f is None: continue
            c._once(f); c._once(f)  # warmed: lazy imports done, the memo (for 'msgkit') filled
            reps = max(1, min(20 if isinstance(f, tuple) else 200, int(0.5/max(c._once(f)[0], 1e-4))))
            xs = [f[0]() for _ in range(reps)] if isinstance(f, tuple) else None
            pr = cProfile.Profile(time.process_time)
            if xs is None:
                pr.enable()
                for _ in range(reps): f()
            else:
                pr.enable()
                for x in xs: f[1](x)
            pr.disable()
            st = pstats.Stats(pr); tot = sum(v[2] for v in st.stats.values())  # own times add up to the whole
            own = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:4]
            cum = [kv for kv in sorted(st.stats.items(), key=lambda kv: -kv[1][3]) if '/msgkit/' in kv[0][0] and not any(w in _fn_name(kv[0]) for w in _WRAPPERS)][:4]
            summary.append(f"| {key} | {lib.replace('msgkit', 'memo warm') if lib == 'msgkit' else 'memo cold'} | {tot/reps*1e3:.2f} ms | "
                           + ' · '.join(f"`{_fn_name(k)}` {v[2]/tot*100:.0f}%" for k,v in own) + ' | '
                           + ' · '.join(f"`{_fn_name(k)}` {v[3]/tot*100:.0f}%" for k,v in cum) + ' |')
            details.append(f'## {key} — {lib} ({c.label}), {reps} calls, {tot/reps*1e3:.2f} ms a call under the profiler\n')
            for sort in ('cumulative', 'tottime'):
                out = io.StringIO(); pstats.Stats(pr, stream=out).sort_stats(sort).print_stats(n)
                body = out.getvalue(); body = body[body.find('   ncalls'):] if '   ncalls' in body else body
                details.append(f'### by {sort} time\n\n```\n{body.rstrip()}\n```\n')
            out = io.StringIO(); pstats.Stats(pr, stream=out).sort_stats('tottime').print_callers(3)
            body = out.getvalue(); body = body[body.find('Function '):] if 'Function ' in body else body
            details.append(f'### who calls the 3 with most own time\n\n```\n{body.rstrip()}\n```\n')
    print('| case | memo | CPU a call (profiled) | most own time (share of the call) | msgkit functions with most cumulative time (share) |\n|---|---|---|---|---|')
    print('\n'.join(summary) + '\n')
    print('\n'.join(details))

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quick', action='store_true', help='few rounds, small sizes (CI: checks the harness works, no timed assertions)')
    ap.add_argument('--json', metavar='PATH', help='also write the samples and medians as JSON')
    ap.add_argument('--rounds', type=int, help='rounds (default 15, quick 3)')
    ap.add_argument('--only', metavar='KEYS', help='comma-separated case-key prefixes to run (e.g. tools,trim)')
    ap.add_argument('--profile', metavar='KEYS', help="comma-separated case keys: cProfile msgkit's side of each instead of the run")
    a = ap.parse_args(argv)
    q = a.quick
    if a.profile: profile(a.profile.split(','), q); return 0
    rounds = a.rounds or (3 if q else 15)
    target = 0.004 if q else 0.03            # seconds per in-process sample
    pdf_sz = 5_000_000 if q else 50_000_000
    t_start, w_start = clock(), time.perf_counter()
    mach = machine()
    cmd = shlex.join(['python', os.path.relpath(__file__)] + (sys.argv[1:] if argv is None else list(argv)))
    print(f'$ {cmd}\n')
    print(f"machine: {mach['cpus']} CPUs ({mach['usable_cpus']} usable), {mach['cpu']}; {mach['implementation']} {mach['python']}; "
          f"{mach['platform']}; load average at start {_loadavg()}")
    print('versions: ' + ', '.join(f'{k} {v}' for k,v in mach['versions'].items()) + f"; msgkit at {mach['msgkit_rev']}")
    print(f"mode: {'quick' if q else 'full'}; {rounds} rounds, each case's libraries round-robin (rotating start); CPU time; medians\n", flush=True)

    import msgkit
    cases = build_cases(q, only=a.only.split(',') if a.only else None)
    print(f'{len(cases)} cases built ({time.perf_counter()-w_start:.0f} s wall); warming up...', file=sys.stderr, flush=True)
    for c in cases: c.warm(target)
    print(f'warmed up ({time.perf_counter()-w_start:.0f} s wall)', file=sys.stderr, flush=True)
    loads = []
    for r in range(rounds):
        for c in cases: c.sample(r)
        loads.append(os.getloadavg()[0] if hasattr(os, 'getloadavg') else None)
        print(f'round {r+1}/{rounds} done ({time.perf_counter()-w_start:.0f} s wall, load {_loadavg()})', file=sys.stderr, flush=True)

    # peak memory (tracemalloc slows everything it watches: measured after the timed rounds, once each)
    mem = {}
    if not a.only or 'memory' in a.only:
        pdf = b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n' + os.urandom(pdf_sz - 15)
        mem = {'msgkit': peak_multiple(lambda: msgkit.mk_msg([pdf, 'Summarise'], api='openai'), len(pdf)),
               '`b64encode(pdf).decode()` alone': peak_multiple(lambda: base64.b64encode(pdf).decode('ascii'), len(pdf))}
        if 'msglm' not in MISSING:
            try: import msglm; mem['msglm'] = peak_multiple(lambda: msglm.mk_msg([pdf, 'Summarise'], api='openai'), len(pdf))
            except ImportError: pass
        del pdf

    rows = report(cases, mem, pdf_sz)
    if not mem: rows = [o for o in rows if o['key'] != 'memory']
    print('\n' + table(rows))
    notes = []
    P = _PAI.get('run')
    if P:
        async def nothing(): pass
        n = 2000; t = clock()
        for _ in range(n): P(nothing())
        notes.append(f"pydantic-ai's mappers are async: each call runs on one reused event loop; an empty coroutine costs "
                     f"{(clock()-t)/n*1e6:.1f} µs of CPU a call there, included in its numbers.")
    import threading
    if threading.active_count() > 1: notes.append(f'threads alive at the end (their CPU time counts in every measure): {[t.name for t in threading.enumerate()]}')
    notes.append(f"tiktoken encodings from {os.environ.get('TIKTOKEN_CACHE_DIR') or 'the network'} (litellm's bundled copy: offline); "
                 f"msgkit's OpenAI text tokens here: {_mk_counter()}. A peer's approximate counter is set aside where msgkit counts exactly.")
    from msgkit import codec
    pyb = codec._fast()
    notes.append(f"msgkit's base64 of large payloads here: " + (f"its `fast` extra (pybase64 {pyb.__version__}, SIMD); the image rows show msgkit "
                 f"cold without it too ({STDLIB!r}), aside" if pyb else "the standard library's (its `fast` extra, pybase64, is not installed)"))
    notes.append("litellm's messages are timed as `litellm.completion` treats them for every provider: its "
                 "`validate_and_fix_openai_messages` (a fresh copy of each message, tool calls copied, users' content checked), "
                 f"then the provider's converter. The converter alone is shown aside ({ALONE.strip(', ')!r}), with msgkit ÷ it")
    for k,v in MISSING.items(): notes.append(f'{k}: {v}')
    tr = [o for o in rows if o['trails']]
    al = [f"{o['key']} {v:.2f}×" for o in rows for k,v in o.get('alone', {}).items() if v > 1]
    if al: notes.append("msgkit ÷ litellm's converter alone, above 1 (not the row's ratio): " + '; '.join(al))
    fl = [f"{o['key']} {o['flushed']:.2f}×" for o in rows if o.get('flushed')]
    if fl: notes.append("msgkit cold ÷ the fastest peer cold, each call after the same 16 MB written (aside: every "
                        "library's code and data as cold as the others'; the row's cold ratio leaves each where its "
                        "preparation left it): " + '; '.join(fl))
    notes.append(f"{len(tr)} of {sum(o['verdict'] != 'no reference' and o['kind'] != 'self' for o in rows)} rows TRAIL (a ratio above 1): " + ('; '.join(o['key'] for o in tr) or 'none'))
    la = [x for x in loads if x is not None]
    notes.append(f"load average (1 min) over the rounds: {min(la):.2f}–{max(la):.2f}; at the end {_loadavg()}; the run took {clock()-t_start:.0f} s of CPU, "
                 f"{time.perf_counter()-w_start:.0f} s wall." if la else f'the run took {time.perf_counter()-w_start:.0f} s wall.')
    print('\n' + '\n'.join(f'- {s}' for s in notes))
    if a.json:
        Path(a.json).write_text(json.dumps(dict(command=cmd, machine=mach, mode='quick' if q else 'full', rounds=rounds, loadavg_rounds=loads,
            seconds=time.perf_counter()-w_start, rows=rows, missing=MISSING, memory=mem,
            cases={c.key: dict(label=c.label, unit=c.unit, calls_per_sample=c.n, errors=c.err, samples=c.samples, out=c.out,
                               medians={k: c.med(k) for k in c.samples}) for c in cases}), indent=1, default=str))
    return 0

if __name__ == '__main__': sys.exit(main())
