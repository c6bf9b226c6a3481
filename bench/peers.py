"""msgkit against its peers (msglm, litellm, langchain-core + langchain-anthropic, pydantic-ai) and the SDKs' own
stream accumulators, in ONE interleaved run: each round visits every case, and each case cycles through its libraries
round-robin (the starting library rotates every round); a case's value is the median over rounds.

    python bench/peers.py                 # full run (what bench/RESULTS.md holds)
    python bench/peers.py --quick         # few rounds, small sizes: checks the harness works (CI); never asserts a time
    python bench/peers.py --json out.json # also write every sample and median as JSON

Install the bench's own requirements (separate from msgkit's) with `pip install -e . -r bench/requirements.txt`.
A peer that isn't installed is reported as "not installed"; one whose API has moved, as "error: ...".
"""
import argparse, asyncio, base64, json, os, platform, shlex, statistics, subprocess, sys, tempfile, time, tracemalloc
from pathlib import Path

os.environ.setdefault('LITELLM_LOCAL_MODEL_COST_MAP', 'True')  # litellm would otherwise fetch its price list at import
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import big_png  # noqa: E402  (the existing bench's PNG maker)

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')
MISSING = {}  # peer -> "not installed" / "error: ..."

def _peer(name, f):
    "Run the peer's setup `f`; on failure record why and return None"
    try: return f()
    except ImportError as e: MISSING[name] = f'not installed ({e.name or e})'
    except Exception as e: MISSING[name] = f'error: {type(e).__name__}: {str(e)[:120]}'

# ---------------------------------------------------------------- histories, each peer's in its own form
def text_history(n=100): return [f"message {i} " * 20 for i in range(n)]
def chat_dicts(h): return [dict(role='user' if i%2==0 else 'assistant', content=s) for i,s in enumerate(h)]

def image_history(imgs, n=20):
    "`n` alternating messages; every 4th user turn holds one of `imgs` (the same bytes objects on every rebuild)"
    it = iter(imgs); res = []
    for i in range(n):
        if i%2: res.append(f"answer {i}"); continue
        b = next(it, None) if i%4==0 else None
        res.append([b, f"question {i}: what is in this picture?"] if b is not None else f"question {i}")
    return res

# ---------------------------------------------------------------- peers' conversion paths
def setup_pydantic_ai(h):
    "pydantic-ai: each model class's own `_map_messages` (what its `request` awaits), models built offline with dummy keys"
    from pydantic_ai.messages import ModelRequest, ModelResponse, UserPromptPart, TextPart
    from pydantic_ai.models import ModelRequestParameters
    msgs = [ModelRequest(parts=[UserPromptPart(content=s)]) if i%2==0 else ModelResponse(parts=[TextPart(content=s)]) for i,s in enumerate(h)]
    p = ModelRequestParameters(); loop = asyncio.new_event_loop(); run = loop.run_until_complete
    fs = {}
    def add(api, mk, call):
        try: m = mk(); fs[api] = lambda: run(call(m))
        except Exception as e: fs[api] = e
    def oai():
        from pydantic_ai.providers.openai import OpenAIProvider
        return OpenAIProvider(api_key='sk-dummy')
    from pydantic_ai.models import openai as _o, anthropic as _a, google as _g, bedrock as _b  # noqa
    add('openai', lambda: _o.OpenAIResponsesModel('gpt-4.1', provider=oai()), lambda m: m._map_messages(msgs, {}, p))
    add('openai_chat', lambda: _o.OpenAIChatModel('gpt-4.1', provider=oai()), lambda m: m._map_messages(msgs, p))
    def ant():
        from pydantic_ai.providers.anthropic import AnthropicProvider
        return _a.AnthropicModel('claude-sonnet-4-5', provider=AnthropicProvider(api_key='sk-ant-dummy'))
    add('anthropic', ant, lambda m: m._map_message(msgs, p, {}))
    def goo():
        from pydantic_ai.providers.google import GoogleProvider
        return _g.GoogleModel('gemini-2.5-flash', provider=GoogleProvider(api_key='dummy'))
    add('gemini', goo, lambda m: m._map_messages(msgs, p))
    def bed():
        from pydantic_ai.providers.bedrock import BedrockProvider
        return _b.BedrockConverseModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0', provider=BedrockProvider(
            region_name='us-east-1', aws_access_key_id='dummy', aws_secret_access_key='dummy'))
    add('bedrock', bed, lambda m: m._map_messages(msgs, p, None))
    async def nothing(): pass
    fs['_loop_overhead'] = lambda: run(nothing())
    return fs

def setup_langchain(h):
    "langchain-core's `convert_to_openai_messages`; langchain-anthropic's `_format_messages` (what `ChatAnthropic._get_request_payload` calls)"
    from langchain_core.messages import HumanMessage, AIMessage, convert_to_openai_messages
    lc = [HumanMessage(s) if i%2==0 else AIMessage(s) for i,s in enumerate(h)]
    fs = dict(openai_chat=lambda: convert_to_openai_messages(lc))
    try:
        from langchain_anthropic.chat_models import _format_messages
        fs['anthropic'] = lambda: _format_messages(lc, model='claude-sonnet-4-5')
    except ImportError as e: fs['anthropic'] = e
    return fs

def setup_litellm(cd):
    "litellm's prompt converters from Chat dicts, as its providers' `transform_request` call them"
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt, _bedrock_converse_messages_pt
    from litellm.llms.vertex_ai.gemini.transformation import gemini_convert_messages_with_history
    from litellm.completion_extras.litellm_responses_transformation.transformation import LiteLLMResponsesTransformationHandler
    rh = LiteLLMResponsesTransformationHandler()
    return dict(openai=lambda: rh.convert_chat_completion_messages_to_responses_api(cd),
                anthropic=lambda: anthropic_messages_pt(cd, model='claude-sonnet-4-5', llm_provider='anthropic'),
                gemini=lambda: gemini_convert_messages_with_history(cd, model='gemini-2.5-flash', custom_llm_provider='gemini'),
                bedrock=lambda: _bedrock_converse_messages_pt(cd, model='anthropic.claude-sonnet-4-5-20250929-v1:0', llm_provider='bedrock_converse'))

def setup_msglm(h):
    import msglm
    return dict(openai=lambda: msglm.mk_msgs(h, api='openai'), anthropic=lambda: msglm.mk_msgs(h, api='anthropic'))

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

def _wall(code):
    t = time.perf_counter(); subprocess.run([sys.executable, '-c', code], check=True, env=_env()); return (time.perf_counter()-t)*1000

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
t = time.perf_counter(); {stmt}; print((time.perf_counter()-t)*1000)
"""
def first_build(sz, setup, stmt): return lambda: _timed(_FIRST.format(here=str(HERE), sz=sz, setup=setup, stmt=stmt))

# ---------------------------------------------------------------- the run
class Case:
    def __init__(self, key, label, unit, fns, scale=1, goal=None, per_call=True):
        "`fns`: lib -> callable (or the exception that stops it); `scale` turns seconds per call into `unit`"
        self.key,self.label,self.unit,self.scale,self.goal,self.per_call = key,label,unit,scale,goal,per_call
        self.fns, self.err, self.n, self.samples = {}, {}, {}, {}
        for k,f in fns.items():
            if isinstance(f, BaseException): self.err[k] = f'error: {type(f).__name__}: {str(f)[:100]}'
            elif f is not None: self.fns[k] = f

    def warm(self, target):
        "Call each once (a failure drops that lib), and pick calls per sample so one sample takes about `target` s"
        for k,f in list(self.fns.items()):
            try:
                t = time.perf_counter(); f(); dt = time.perf_counter()-t
                if self.per_call:
                    t = time.perf_counter(); f(); dt = min(dt, time.perf_counter()-t)
                self.n[k] = max(1, min(10_000, int(target/max(dt, 1e-9)))) if self.per_call else 1
            except Exception as e:
                self.err[k] = f'error: {type(e).__name__}: {str(e)[:100]}'; del self.fns[k]

    def sample(self, rnd):
        ks = list(self.fns)
        if not ks: return
        r = rnd % len(ks)
        for k in ks[r:]+ks[:r]:
            f,n = self.fns[k], self.n[k]
            if self.per_call:
                t = time.perf_counter()
                for _ in range(n): f()
                v = (time.perf_counter()-t)/n*self.scale
            else: v = f()
            self.samples.setdefault(k, []).append(v)

    def med(self, k): return statistics.median(self.samples[k]) if self.samples.get(k) else None

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
    for p in ('msgkit','msglm','litellm','langchain-core','langchain-anthropic','pydantic-ai-slim','openai','anthropic','google-genai','boto3','fastcore'):
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
    return f'{v:.2f}' if abs(v)<10 else f'{v:.1f}' if abs(v)<1000 else f'{v:,.0f}'

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quick', action='store_true', help='few rounds, small sizes (CI: checks the harness works, no timed assertions)')
    ap.add_argument('--json', metavar='PATH', help='also write the samples and medians as JSON')
    ap.add_argument('--rounds', type=int, help='rounds (default 15, quick 3)')
    a = ap.parse_args(argv)
    q = a.quick
    rounds = a.rounds or (3 if q else 15)
    target = 0.004 if q else 0.03            # seconds per in-process sample
    img_sz, pdf_sz, n_ev = (100_000, 5_000_000, 1_000) if q else (1_000_000, 50_000_000, 10_000)
    t_start = time.perf_counter()
    mach = machine()
    cmd = shlex.join(['python', os.path.relpath(__file__)] + (sys.argv[1:] if argv is None else list(argv)))
    print(f'$ {cmd}\n')
    print(f"machine: {mach['cpus']} CPUs ({mach['usable_cpus']} usable), {mach['cpu']}; {mach['implementation']} {mach['python']}; "
          f"{mach['platform']}; load average {', '.join(f'{x:.2f}' for x in mach['loadavg'] or ())}")
    print('versions: ' + ', '.join(f'{k} {v}' for k,v in mach['versions'].items()) + f"; msgkit at {mach['msgkit_rev']}")
    print(f"mode: {'quick' if q else 'full'}; {rounds} rounds, each case's libraries round-robin (rotating start), medians\n", flush=True)

    import msgkit
    h = text_history(100); cd = chat_dicts(h); nmsg = len(h)
    pai = _peer('pydantic-ai', lambda: setup_pydantic_ai(h)) or {}
    lc = _peer('langchain-core', lambda: setup_langchain(h)) or {}
    if isinstance(lc.get('anthropic'), ImportError): MISSING['langchain-anthropic'] = 'not installed'; lc.pop('anthropic')
    lit = _peer('litellm', lambda: setup_litellm(cd)) or {}
    mlm = _peer('msglm', lambda: setup_msglm(h)) or {}
    have_msglm = bool(mlm)
    peer_names = {'pydantic-ai': pai, 'langchain-core': lc, 'litellm': lit, 'msglm': mlm}
    cases = []
    # 1. text histories from plain strings (each peer in its own form)
    for api in APIS:
        fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(h, api))}
        for name,d in peer_names.items():
            if api in d: fns[name if not (name=='langchain-core' and api=='anthropic') else 'langchain-anthropic'] = d[api]
        cases.append(Case(f'text.{api}', f'1. 100-message text history → {api}', 'µs/msg', fns, 1e6/nmsg))
    # 1b. the same history in the target API's own form, as a chat app stores it (JSON of what mk_msgs made): the peers as in row 1
    for api in APIS:
        own = json.loads(json.dumps(msgkit.jsonable(msgkit.mk_msgs(h, api))))
        cases.append(Case(f'own.{api}', f"1b. same history in {api}'s own form (as stored: JSON) → {api}", 'µs/msg',
                          {'msgkit': (lambda api=api, own=own: msgkit.mk_msgs(own, api))}, 1e6/nmsg))
    # 2. the same history as Chat Completions dicts
    for api in ('anthropic', 'gemini', 'bedrock'):
        fns = {'msgkit': (lambda api=api: msgkit.mk_msgs(cd, api))}
        if api in lit: fns['litellm'] = lit[api]
        cases.append(Case(f'chat_dicts.{api}', f'2. same history as Chat dicts → {api}', 'µs/msg', fns, 1e6/nmsg))
    # 3. rebuilding an image history (the same bytes objects every time), and one that already holds base64
    imgs = [big_png(img_sz) for _ in range(5)]; ih = image_history(imgs)
    ih_b64 = json.loads(json.dumps(msgkit.mk_msgs(ih, 'anthropic')))  # what a chat app that stores the API form holds
    js = json.dumps(ih_b64)  # and one loaded from JSON every turn: new text objects, never seen by the memo
    def from_json(k=9):
        "ms per build, the median of `k`, each of a history just loaded (json.loads not timed)"
        ts = []
        for _ in range(k):
            h2 = json.loads(js); t = time.perf_counter(); msgkit.mk_msgs(h2, 'anthropic'); ts.append((time.perf_counter()-t)*1e3)
        return statistics.median(ts)
    fns = {'msgkit': lambda: msgkit.mk_msgs(ih, 'anthropic'), 'msgkit (history holds base64)': lambda: msgkit.mk_msgs(ih_b64, 'anthropic')}
    if have_msglm:
        import msglm; fns['msglm'] = lambda: msglm.mk_msgs(ih, api='anthropic')
    isz = f'{img_sz/1e6:g} MB'
    cases.append(Case('image_rebuild', f'3. rebuild 20-message history with 5 × {isz} PNGs → anthropic', 'ms', fns, 1e3))
    cases.append(Case('image_json', f'3. the same history holding base64, loaded from JSON before each build (json.loads not timed) → anthropic', 'ms',
                      {'msgkit': from_json}, per_call=False))
    # 4. first build in a fresh process vs base64 of those bytes once
    # the modules loaded first (their cost is row 5's), the memo cold: what the first build of a history costs beside base64
    fns = {'msgkit': first_build(img_sz, "import msgkit; msgkit.mk_msgs([['warm up', msgkit.sample('gradient.png').read_bytes()]], 'anthropic')", "msgkit.mk_msgs(h, 'anthropic')"),
           'base64': first_build(img_sz, '', "[base64.b64encode(b).decode('ascii') for b in imgs]")}
    if have_msglm: fns['msglm'] = first_build(img_sz, "import msglm, msgkit; msglm.mk_msgs([['warm up', msgkit.sample('gradient.png').read_bytes()]], api='anthropic')", "msglm.mk_msgs(h, api='anthropic')")
    cases.append(Case('first_build', f'4. first build in a fresh process (modules already loaded by a small image message: their import is row 5\'s; the memo cold) of that history ÷ base64 of its bytes once', '×', fns, per_call=False))
    # 5. import
    fns = {'msgkit': lambda: _wall('import msgkit'), 'bare interpreter': lambda: _wall('pass'),
           'msgkit+call': lambda: _wall("import msgkit; msgkit.mk_msgs(['Hi', 'Hello!'], api='anthropic')")}
    if have_msglm:
        fns['msglm'] = lambda: _wall('import msglm')
        fns['msglm+call'] = lambda: _wall("import msglm; msglm.mk_msgs(['Hi', 'Hello!'], api='anthropic')")
    cases.append(Case('import', '5. `import` (fresh process, minus bare interpreter start)', 'ms', fns, per_call=False))
    # 6. stream assembly
    def stream_case(key, label, mk_evs, sdk, api):
        try: evs = mk_evs(n_ev); fns = {'msgkit': lambda: msgkit.stream_msg(evs, api=api), 'SDK': sdk(evs)}
        except ImportError as e: fns = {}; cases.append(Case(key, label, 'ms', fns, 1e3)); cases[-1].err['SDK'] = f'not installed ({e.name or e})'; return
        cases.append(Case(key, label, 'ms', fns, 1e3))
    k = f'{n_ev//1000}k'
    stream_case('stream.anthropic', f'6. {k} Anthropic stream events (vs SDK `accumulate_event`)', ant_events, sdk_anthropic, 'anthropic')
    stream_case('stream.responses', f'6. {k} Responses stream events (vs SDK `ResponseStreamState`)', resp_events, sdk_responses, 'openai')
    stream_case('stream.chat', f'6. {k} Chat chunks (vs SDK `ChatCompletionStreamState`)', chat_chunks, sdk_chat, 'openai_chat')

    print('warming up...', file=sys.stderr, flush=True)
    for c in cases: c.warm(target if c.key not in ('image_rebuild',) else target*2)
    for r in range(rounds):
        for c in cases: c.sample(r)
        print(f'round {r+1}/{rounds} done ({time.perf_counter()-t_start:.0f} s)', file=sys.stderr, flush=True)

    # 7. peak memory (tracemalloc slows everything it watches: measured after the timed rounds, once each)
    pdf = b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n' + os.urandom(pdf_sz - 15)
    mem = {'msgkit': peak_multiple(lambda: msgkit.mk_msg([pdf, 'Summarise'], api='openai'), len(pdf)),
           '`b64encode(pdf).decode()` alone': peak_multiple(lambda: base64.b64encode(pdf).decode('ascii'), len(pdf))}
    if have_msglm: mem['msglm'] = peak_multiple(lambda: msglm.mk_msg([pdf, 'Summarise'], api='openai'), len(pdf))
    del pdf

    # ---------------------------------------------------------------- the table
    rows = []
    def row(label, unit, v, goal, goal_note, peers):
        ratio = v/goal if (isinstance(v, float) and isinstance(goal, float)) else None
        rows.append(dict(measure=label, unit=unit, msgkit=v, goal=goal, goal_note=goal_note, ratio=ratio,
                         met=None if ratio is None else ratio <= 1.0, peers=peers))
    def peers_of(c, skip=('msgkit',)):
        out = {k: c.med(k) for k in c.fns if k not in skip}
        out.update(c.err); return out
    by_key = {c.key: c for c in cases}
    for c in cases:
        if c.key.startswith('own.'):
            t = by_key[f"text.{c.key.split('.', 1)[1]}"]; nums = {k:v for k,v in peers_of(t).items() if isinstance(v, float)}
            best = min(nums, key=nums.get) if nums else None
            row(c.label, c.unit, c.med('msgkit'), nums.get(best), f'fastest peer of row 1 ({best})' if best else 'no peer', {})
        elif c.key == 'image_json':
            row(c.label, c.unit, c.med('msgkit'), 2.3, "the issue's figure for histories that store base64", {})
        elif c.key.startswith(('text.', 'chat_dicts.')):
            ps = peers_of(c); nums = {k:v for k,v in ps.items() if isinstance(v, float)}
            best = min(nums, key=nums.get) if nums else None
            expected = ['pydantic-ai', 'langchain-core' if c.key=='text.openai_chat' else None, 'langchain-anthropic' if c.key=='text.anthropic' else None,
                        'msglm' if c.key in ('text.openai', 'text.anthropic') else None, 'litellm' if c.key!='text.openai_chat' else None]
            if c.key.startswith('chat_dicts.'): expected = ['litellm']
            for p in filter(None, expected):
                if p not in ps and p in MISSING: ps[p] = MISSING[p]
            row(c.label, c.unit, c.med('msgkit'), nums.get(best), f'fastest peer ({best})' if best else 'no peer', ps)
        elif c.key == 'image_rebuild':
            m = c.med('msglm'); g = m/20 if m else None
            ps = {'msglm': m} if m else {'msglm': MISSING.get('msglm', c.err.get('msglm'))}
            row(c.label, c.unit, c.med('msgkit'), g, 'msglm ÷ 20', ps)
            row('3. the same history already holding base64 (anthropic form) → anthropic', c.unit, c.med('msgkit (history holds base64)'), 2.3, "the issue's figure for histories that store base64", {})
        elif c.key == 'first_build':
            b = c.med('base64'); v = c.med('msgkit')/b if (b and c.med('msgkit')) else None
            ps = {'base64 once (ms)': b, 'msgkit first build (ms)': c.med('msgkit')}
            if c.med('msglm'): ps['msglm ×'] = c.med('msglm')/b
            row(c.label, c.unit, v, 1.3, '1.3', ps)
        elif c.key == 'import':
            base = c.med('bare interpreter')
            d = {k: max(c.med(k)-base, 0.0) for k in c.fns if k != 'bare interpreter' and c.med(k) is not None}  # below the timer's resolution: 0
            ps = {'msglm': d.get('msglm', MISSING.get('msglm')), 'bare interpreter (ms, subtracted)': base}
            row(c.label, c.unit, d.get('msgkit'), d['msglm']*0.5 if 'msglm' in d else None, '0.5 × msglm', ps)
            ps = {'msglm': d.get('msglm+call', MISSING.get('msglm'))}
            row("5. `import` and a first `mk_msgs(['Hi', 'Hello!'], api='anthropic')` (its lazy imports), same way", c.unit,
                d.get('msgkit+call'), d['msglm+call']*0.5 if 'msglm+call' in d else None, '0.5 × msglm', ps)
        elif c.key.startswith('stream.'):
            s = c.med('SDK'); ps = {'SDK': s if s is not None else c.err.get('SDK', c.err.get('msgkit'))}
            row(c.label, c.unit, c.med('msgkit'), s, '1.0 × SDK', ps)
    ps = {'floor (bytes + base64 text alive at once)': 1 + 4/3, **{k:v for k,v in mem.items() if k!='msgkit'}}
    row(f"7. peak memory of `mk_msg([pdf_{pdf_sz//1_000_000}MB, 'Summarise'], api='openai')`, payload included", '× payload', mem['msgkit'], 2.7, '2.7', ps)

    lines = ['| measure | unit | msgkit | goal | ratio (msgkit ÷ goal) | met | peers and references |', '|---|---|---|---|---|---|---|']
    for o in rows:
        pt = ' · '.join(f'{k} {fmt(v)}' for k,v in o['peers'].items())
        met = '–' if o['met'] is None else ('yes' if o['met'] else 'no')
        lines.append(f"| {o['measure']} | {o['unit']} | {fmt(o['msgkit'])} | {fmt(o['goal'])} ({o['goal_note']}) | {fmt(o['ratio'])} | {met} | {pt} |")
    print('\n' + '\n'.join(lines))
    ov = pai.get('_loop_overhead') if isinstance(pai, dict) else None
    notes = []
    if ov and not isinstance(ov, BaseException):
        n = 2000; t = time.perf_counter()
        for _ in range(n): ov()
        notes.append(f"pydantic-ai's mappers are async: each call runs on one reused event loop; an empty coroutine costs "
                     f"{(time.perf_counter()-t)/n*1e6:.1f} µs a call there ({(time.perf_counter()-t)/n*1e6/nmsg:.2f} µs/msg), included in its numbers.")
    for k,v in MISSING.items(): notes.append(f'{k}: {v}')
    elapsed = time.perf_counter()-t_start
    notes.append(f'{sum(o["met"] is True for o in rows)} of {sum(o["met"] is not None for o in rows)} rows at or below their goal; run took {elapsed:.0f} s.')
    print('\n' + '\n'.join(f'- {s}' for s in notes))
    if a.json:
        Path(a.json).write_text(json.dumps(dict(command=cmd, machine=mach, mode='quick' if q else 'full', rounds=rounds, seconds=elapsed,
            rows=rows, missing=MISSING, memory=mem,
            cases={c.key: dict(label=c.label, unit=c.unit, calls_per_sample=c.n, errors=c.err, samples=c.samples,
                               medians={k: c.med(k) for k in c.samples}) for c in cases}), indent=1, default=str))
    return 0

if __name__ == '__main__': sys.exit(main())
