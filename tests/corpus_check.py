"""The corpus harness: real-world histories (tests/corpus/*.json, each case naming its source) rendered with msgkit for
every API and judged by the providers' validators (`oracle`) and by invariants: every text, call, result and media item
kept in order or reported by a `LossWarning`; calls and results paired; ids unique and valid; nothing glued, invented
or blank; a same-API replay unchanged. `tests/test_corpus.py` runs it; `python tests/corpus_check.py` prints the
classes of what fails.
"""
import base64, collections, copy, glob, hashlib, importlib, json, os, re, sys, traceback, warnings

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import msgkit, oracle
from msgkit import LossWarning

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
HOWS = ['mk_request', 'mk_msgs']
OUT_KEY = dict(openai='input', openai_chat='messages', anthropic='messages', gemini='contents', bedrock='messages')

# ---------------------------------------------------------------- the corpus
def load_cases(folder=HERE):
    "Every case of every `<source>.json` in `folder` (not failures.json), with the file it came from"
    cases = []
    for f in sorted(glob.glob(os.path.join(folder, '*.json'))):
        for c in json.load(open(f)): cases.append(dict(c, file=os.path.basename(f)))
    return cases

def sdk_type(path):
    "The class named by dotted `path`, e.g. 'anthropic.types.Message'"
    mod, name = path.rsplit('.', 1)
    return getattr(importlib.import_module(mod), name)

def lc_load(m):
    "A LangChain message from its dump (`{'lc': 1, ...}`) or its `messages_to_dict` entry"
    if m.get('lc') == 1:
        from langchain_core.load import load
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return load(m)
    from langchain_core.messages import messages_from_dict
    return messages_from_dict([m])[0]

def history(case):
    "The case's history as the user holds it: the JSON items, with SDK responses and LangChain messages built where `sdk` says"
    msgs = copy.deepcopy(case['msgs'])
    sdk = case.get('sdk')
    if not sdk: return msgs
    for i in sdk.get('at') or range(len(msgs)):
        t = sdk['type']
        msgs[i] = lc_load(msgs[i]) if t == 'langchain' else sdk_type(t).model_validate(msgs[i])
    return msgs

# ---------------------------------------------------------------- rendering
def render(case, api, how):
    "`(result, losses, error)`: msgkit's `mk_request` or `mk_msgs` of the case for `api`, the losses it reported, the exception"
    h = history(case)
    before = copy.deepcopy(case['msgs'])
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try:
            if how == 'mk_request': r = msgkit.mk_request(h, api, model='m', system=copy.deepcopy(case.get('system')), tools=copy.deepcopy(case.get('tools')))
            else: r = msgkit.mk_msgs(h, api=api)
            err = None
        except Exception as e: r, err = None, f'{type(e).__name__}: {e}'
    losses = [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses]
    if case['msgs'] != before: err = (err or '') + ' [the input history was mutated]'
    return r, losses, err

def out_msgs(api, r, how):
    "The message list of a result"
    return r if how == 'mk_msgs' else r[OUT_KEY[api]]

# #17D: blocks only Anthropic's beta Messages API takes: the MCP connector's `mcp_tool_use`/`mcp_tool_result` ("requires
# the beta header", https://platform.claude.com/docs/en/agents-and-tools/mcp-connector) and the advisor tool's call and
# result (anthropic.types.beta: `BetaServerToolUseBlockParam` name 'advisor', `BetaAdvisorToolResultBlockParam`). A
# history holding them goes to `client.beta.messages.create`, so it is judged by the installed SDK's beta types, as
# strictly; any other history still by the GA types.
_ANT_BETA = {'mcp_tool_use', 'mcp_tool_result', 'advisor_tool_result'}

def ant_beta(msgs):
    "Does Anthropic history `msgs` hold a block only the beta Messages API takes?"
    return any(isinstance(b, dict) and (b.get('type') in _ANT_BETA or b.get('type') == 'server_tool_use' and b.get('name') == 'advisor')
               for m in msgs if isinstance(m, dict) and isinstance(m.get('content'), list) for b in m['content'])

def check_anthropic_beta(messages, **kw):
    "`oracle.check_anthropic` against the beta types and `client.beta.messages.create`"
    import typing
    from anthropic.types.beta import BetaMessageParam
    from anthropic.resources.beta.messages import Messages
    def f():
        oracle.strict(messages, typing.Iterable[BetaMessageParam])
        oracle._kw_strict(Messages.create, kw)
        return oracle._send('anthropic', lambda: oracle._ant().beta.messages.create(model='claude-sonnet-4-5', max_tokens=1024, messages=messages, **kw))
    return oracle._guarded(messages, f)

# #17D: an `image_generation_call` given back by its id alone ({'id', 'type'}): api.openai.com answered it with a
# completed response (pydantic-ai's cassette test_openai_responses_image_generation_tool_without_image_output.yaml),
# though the SDK's `ImageGenerationCall` wants `result` and `status`: checked as the stored item it names (an
# `item_reference`). Only that exact form; an item with some of its fields and not all is still judged as it is.
def _bare_ids(check):
    def f(msgs, **kw):
        bare = lambda o: isinstance(o, dict) and set(o) == {'id', 'type'} and o['type'] == 'image_generation_call' and isinstance(o['id'], str)
        return check([dict(type='item_reference', id=o['id']) if bare(o) else o for o in msgs], **kw) if any(map(bare, msgs)) else check(msgs, **kw)
    return f

def judge_oracle(api, r, how):
    "The oracle's verdict on a result: None, or the error text (the request's other fields checked too for `mk_request`)"
    try:
        msgs = r if how == 'mk_msgs' else r[OUT_KEY[api]]
        check = check_anthropic_beta if api == 'anthropic' and ant_beta(msgs) else oracle.APIS[api]  # #17D
        if api == 'openai': check = _bare_ids(check)
        if how == 'mk_msgs': check(r); oracle.RULES[api](r); return None
        req = dict(r)
        for k in ('model', 'modelId', 'max_tokens'): req.pop(k, None)
        msgs = req.pop(OUT_KEY[api])
        kw = req.pop('config', {}) if api == 'gemini' else req
        check(msgs, **kw)
        oracle.RULES[api](msgs)
    except Exception as e: return f'{type(e).__name__}: {e}'
    return None

# ---------------------------------------------------------------- what a history holds, in any form
_THINK_TYPES = {'thinking', 'redacted_thinking', 'reasoning', 'reasoning_content'}
_CALL_TYPES = {'tool_use', 'function_call', 'tool_call', 'custom_tool_call'}
_RESULT_TYPES = {'tool_result', 'function_call_output', 'custom_tool_call_output', 'tool'}
_SKIP = {'id', 'signature', 'thoughtSignature', 'thought_signature', 'encrypted_content', 'cache_control', 'cachePoint', 'citations',
         'annotations', 'logprobs', 'usage', 'usageMetadata', 'usage_metadata', 'response_metadata', 'metadata', 'tool_use_id',
         'tool_call_id', 'call_id', 'toolUseId', 'model', 'stop_reason', 'status', 'index', 'lc', 'type', 'role', 'name', 'mime_type',
         'mimeType', 'media_type', 'format', 'detail', 'title', 'context', 'filename', 'additional_kwargs', 'redactedContent',
         'caller', 'thought', 'finishReason', 'finish_reason', 'responseId', 'modelVersion', 'safetyRatings',
         # #17E2: a Gemini Candidate's groundingMetadata (the chunks a file search or Google Search retrieved, the answer's
         # segments they support) is response metadata beside the Content, like citations and annotations above: Content
         # has no field for it, so no API (Gemini included) takes it back in a history
         # (https://ai.google.dev/api/generate-content#candidate: "groundingMetadata: Grounding metadata for the candidate")
         'groundingMetadata', 'grounding_metadata'}

def _parse_args(a):
    if isinstance(a, str):
        try: r = json.loads(a) if a.strip() else {}
        except ValueError: return a
        return {} if r == '' else r  # #17E1: '""' holds no arguments (litellm reads it as {}); other strings stay
    return {} if a is None else a

def _b64bytes(s):
    try: return base64.b64decode(s, validate=True)
    except Exception:
        try: return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
        except Exception: return None

def _media_key(v, k=None):
    "A key for a media payload: a digest of its bytes (raw, base64, or a data URI), or the URL / file id itself"
    if isinstance(v, (bytes, bytearray)): return 'sha:' + hashlib.sha1(bytes(v)).hexdigest()[:12]
    if not isinstance(v, str): return None
    if k in _MEDIA_DATA_KEYS and not v.startswith('data:'): return 'sha:' + hashlib.sha1(_b64bytes(v) or b'').hexdigest()[:12]
    if v.startswith('data:') and ',' in v:
        b = _b64bytes(v.split(',', 1)[1]) if ';base64' in v.split(',', 1)[0] else v.split(',', 1)[1].encode()
        return 'sha:' + hashlib.sha1(b or b'').hexdigest()[:12]
    return 'url:' + v

_MEDIA_URL_KEYS = {'url', 'image_url', 'fileUri', 'file_uri', 'file_id', 'uri', 'audio_url', 'file_url', 'video_url'}
_MEDIA_DATA_KEYS = {'data', 'bytes', 'base64', 'file_data', 'image_data'}

def _as_text(v, k):
    "The text a payload holds, when it is UTF-8 text (a text/plain document sent as text is kept, not lost)"
    b = v if isinstance(v, (bytes, bytearray)) else _b64bytes(v.split(',', 1)[1]) if isinstance(v, str) and v.startswith('data:') else _b64bytes(v) if k in _MEDIA_DATA_KEYS else None
    try: t = bytes(b).decode('utf-8') if b else None
    except UnicodeDecodeError: return None
    return t if t and t.isprintable() or t and all(ch.isprintable() or ch in '\n\r\t' for ch in t) else None

def _is_payload(k, v):
    if k in _MEDIA_URL_KEYS and isinstance(v, str): return True
    if k in _MEDIA_DATA_KEYS and isinstance(v, (bytes, bytearray)): return True
    if k in _MEDIA_DATA_KEYS and isinstance(v, str) and len(v) >= 16 and ' ' not in v:
        if v.startswith('data:'): return True
        b = _b64bytes(v)
        return bool(b) and len(b) >= 12
    return isinstance(v, str) and v.startswith('data:') and ';base64,' in v[:80]

def atoms(x, at=None, out=None, ctx='text', bare=True):
    """The content of `x` (a message, block or history in any form), as a flat list of atoms in order:
    ('text', s), ('thinking', s), ('call', name, args, id), ('result', id, [strings]), ('media', key); each with `at`"""
    out = [] if out is None else out
    if isinstance(x, (list, tuple)):
        for i, o in enumerate(x): atoms(o, i if at is None else at, out, ctx, bare)
        return out
    if hasattr(x, 'model_dump') and not isinstance(x, dict):
        x = x.model_dump(mode='json', exclude_none=True) if not hasattr(x, 'lc_attributes') else _lc_dict(x)
    if isinstance(x, str):
        if bare: out.append((ctx, x, at))  # a history item, or an item of a content list: not a string deep in some JSON
        return out
    if not isinstance(x, dict): return out
    d = x.get('data') if x.get('type') in ('human', 'ai', 'tool', 'system', 'chat', 'function') and isinstance(x.get('data'), dict) else None
    if d is not None: x = dict(d, type=x['type'])
    if x.get('lc') == 1 and isinstance(x.get('kwargs'), dict):
        k = x['kwargs']; kind = (x.get('id') or ['', ''])[-1]
        x = dict(k, type={'HumanMessage': 'human', 'AIMessage': 'ai', 'ToolMessage': 'tool', 'SystemMessage': 'system'}.get(kind, kind))
    t = x.get('type')
    # #17A: an Anthropic document source holds the document's bytes: as text (`{'type': 'text', 'data': str}`) or as
    # base64 however short ('dGVzdA==' is 'test'); either is the document's content, to be kept as bytes or as its text
    if t in ('text', 'base64') and isinstance(x.get('data'), str) and 'media_type' in x:
        b = x['data'].encode() if t == 'text' else _b64bytes(x['data'])
        if b is not None:
            out.append(('media', 'sha:' + hashlib.sha1(b).hexdigest()[:12], x['data'] if t == 'text' else _as_text(x['data'], 'data'), at))
            return out
    # tool calls
    call = None
    if t in _CALL_TYPES and 'name' in x: call = (x['name'], _parse_args(x.get('input', x.get('arguments', x.get('args')))), x.get('call_id', x.get('id')) if t in ('function_call', 'custom_tool_call') else x.get('id'))
    elif 'toolUse' in x and isinstance(x['toolUse'], dict): u = x['toolUse']; call = (u.get('name'), _parse_args(u.get('input')), u.get('toolUseId'))
    elif isinstance(x.get('functionCall') or x.get('function_call'), dict) and 'name' in (x.get('functionCall') or x.get('function_call')):
        u = x.get('functionCall') or x.get('function_call'); call = (u.get('name'), _parse_args(u.get('args', u.get('arguments'))), u.get('id'))
    elif isinstance(x.get('function'), dict) and 'name' in x['function'] and t in (None, 'function'):
        call = (x['function']['name'], _parse_args(x['function'].get('arguments')), x.get('id'))
    if call:
        out.append(('call', call[0], call[1], call[2], at))
        if x.get('toolUse') or x.get('functionCall') or x.get('function_call'):  # a Bedrock/Gemini part may carry a text too
            for k, v in x.items():
                if k == 'text' and isinstance(v, str): out.append(('text', v, at))
        return out
    # tool results
    res = None
    if t in _RESULT_TYPES and t != 'tool': res = (x.get('tool_use_id') or x.get('call_id'), x.get('content', x.get('output')))
    # #17C: Anthropic's tool search result (`tool_search_tool_result`, answering the `server_tool_use` before it) is the
    # result a history may hold as a `tool_result` of `tool_reference`s (LangChain's form): kept as the server's block,
    # it is kept, not lost; `ids_rules` pairs it with its server call
    elif t == 'tool_search_tool_result' and 'tool_use_id' in x: res = (x['tool_use_id'], x.get('content'))
    # (a Gemini `Content` of role 'tool', Google ADK's: its parts hold the results, read below)
    elif x.get('role') == 'tool' and 'parts' not in x or t == 'tool': res = (x.get('tool_call_id'), x.get('content'))
    elif (x.get('role') == 'function' or t == 'function') and 'content' in x: res = (x.get('name'), x.get('content'))  # legacy function results
    elif isinstance(x.get('toolResult'), dict): res = (x['toolResult'].get('toolUseId'), x['toolResult'].get('content'))
    elif isinstance(x.get('functionResponse') or x.get('function_response'), dict):
        u = x.get('functionResponse') or x.get('function_response'); res = (u.get('id') or u.get('name'), [u.get('response'), u.get('parts')])
    if res:
        # (a Gemini function response's `response` is the result's JSON: a `url` in it is data, its media in `parts`)
        fr = x.get('functionResponse') or x.get('function_response')
        inner = atoms(fr.get('parts') if isinstance(fr, dict) else res[1], at, [], 'text')
        out.append(('result', res[0], leaves(res[1]), at))
        out.extend(a for a in inner if a[0] == 'media')
        return out
    # reasoning
    think = t in _THINK_TYPES or x.get('thought') is True or 'reasoningContent' in x
    for k, v in x.items():
        if k in _SKIP: continue
        # an OpenRouter `reasoning_details` entry's `data` is its encrypted reasoning (a Gemini signature, OpenAI's
        # encrypted content), opaque as `encrypted_content` is: no media
        if k == 'data' and isinstance(t, str) and t.startswith('reasoning.'): continue
        # (a short payload whose media type stands beside it is media too: a 3-byte text/plain document, say)
        if _is_payload(k, v) or k in _MEDIA_DATA_KEYS and isinstance(v, str) and v and ' ' not in v and any(
                m in x for m in ('mime_type', 'mimeType', 'media_type')) and _b64bytes(v):
            key = _media_key(v, k)
            if key: out.append(('media', key, _as_text(v, k), at))
            continue
        if k in ('thinking', 'reasoning_content', 'reasoning') and isinstance(v, str): out.append(('thinking', v, at)); continue
        if k in ('summary', 'reasoningText', 'reasoning_details', 'thinking_blocks') or think:
            atoms(v, at, out, 'thinking', k in ('content', 'summary', 'parts')); continue
        if k == 'audio' and isinstance(v, dict) and ('transcript' in v or set(v) == {'id'}):  # a gpt-4o-audio reply
            out.append(('transcript', v.get('transcript'), v.get('id'), at)); continue
        if k in ('text', 'content', 'output_text', 'refusal', 'transcript', 'input_text', 'parts', 'input', 'output', 'tool_calls',
                 'source', 'image', 'document', 'video', 'audio', 'inline_data', 'inlineData', 'file_data', 'fileData', 'file',
                 'input_audio', 'image_url', 'json', 'value', 'message', 'kwargs', 'data', 'search_result', 'contents') or isinstance(v, (dict, list)):
            if isinstance(v, str) and k in ('text', 'content', 'output_text', 'refusal', 'transcript', 'input_text', 'value'): out.append((ctx, v, at))
            elif isinstance(v, (dict, list)): atoms(v, at, out, ctx, k in ('content', 'parts', 'contents'))
    return out

def _json_leaves(ss):
    "The strings inside each of `ss` that is JSON text (a result sent as its JSON: a string of it escaped in it)"
    out = []
    for s in ss:
        if isinstance(s, str) and s[:1] in '{[':
            try: out += [v for v in leaves(json.loads(s)) if isinstance(v, str)]
            except ValueError: pass
    return out

def _result_json(t, ins):
    "Is text `t` the JSON of a tool result's content in `ins` (every string of it one of the results')?"
    try: v = json.loads(t)
    except ValueError: return False
    have = {_norm(s) for a in ins if a[0] == 'result' for s in a[2] if isinstance(s, str)}
    got = [_norm(s) for s in leaves(v) if isinstance(s, str)]
    return bool(got) and all(s in have for s in got)

def leaves(x):
    "Every string and number in `x` (a tool result's content), payloads and ids aside"
    if isinstance(x, dict): return [s for k, v in x.items() if k not in _SKIP and not _is_payload(k, v) for s in leaves(v)]
    if isinstance(x, (list, tuple)): return [s for v in x for s in leaves(v)]
    if isinstance(x, bool) or x is None: return []
    if isinstance(x, (int, float)): return [json.dumps(x)]
    return [x] if isinstance(x, str) and not x.startswith('data:') else []

def _lc_dict(m): return m.model_dump(mode='json', exclude_none=True)

def _norm(s): return re.sub(r'\s+', ' ', s).strip()

def system_atoms(case):
    "Atoms of the case's `system=`, located at 'system'"
    return atoms(case['system'], 'system') if case.get('system') else []

def output_atoms(api, r, how):
    "Atoms of a result: the system prompt's too, for `mk_request`"
    if how == 'mk_msgs': return atoms(r)
    req = {k: v for k, v in dict(r).items() if k not in ('tools', 'toolConfig', 'model', 'modelId', 'tool_choice')}
    if api == 'gemini': req['config'] = {k: v for k, v in req.get('config', {}).items() if k in ('system_instruction',)}
    sysk = dict(openai='instructions', openai_chat=None, anthropic='system', gemini=None, bedrock='system')[api]
    pre = atoms(req.pop(sysk)) if sysk and sysk in req else []
    if api == 'gemini' and req['config'].get('system_instruction'): pre = atoms(req['config'].pop('system_instruction'))
    return pre + atoms(req[OUT_KEY[api]])

# ---------------------------------------------------------------- invariants
def _where_idx(l):
    m = re.match(r'msgs\[(\d+)\]', l.get('where') or '')
    return int(m.group(1)) if m else None

def _left_out(a, losses):
    "Was call atom `a` reported left out (a loss at its message naming it, not as a renamed tool)?"
    return any(_where_idx(l) == a[-1] and isinstance(a[1], str) and a[1] in (l.get('what') or '')
               and not (l.get('what') or '').startswith('tool name ') for l in losses)

def _excused(a, losses, kind):
    "Was missing atom `a` reported by a LossWarning? (a loss at its message, or one that names no message)"
    for l in losses:
        i = _where_idx(l)
        if i is None or i == a[-1] or a[-1] == 'system' and 'system' in (l.get('what') or '') + (l.get('where') or ''): return True
    return False

def _stream(ats, kinds=('text',)):
    return ' \x00 '.join(_norm(a[1]) for a in ats if a[0] in kinds and isinstance(a[1], str))

# #17B: Chat Completions tool messages take text only ("content: Union[str, Iterable[ChatCompletionContentPartTextParam]]",
# openai-python types/chat/chat_completion_tool_message_param.py), so msgkit moves a result's media to one user message
# right after the tool messages, each result's files under a label naming its call ("Files from tool call <id>:"), and a
# result of media alone says so ("The result is in the next message."), as pydantic-ai's OpenAI model does ("See file
# <id>" in the tool message, "This is file <id>:" before the file in a user message, pydantic_ai/models/openai.py). These
# texts are structure, not invented content, only where they are true: the label is in the user message that follows
# the tool messages, names a call of the assistant turn before them that one of those tool messages answers, and is
# followed by real media (image_url, input_audio, file); the placeholder is accepted only for a call whose label is.
_MOVED_MEDIA = ('image_url', 'input_audio', 'file')

def moved_media(api, msgs):
    "`(labels, ids)`: the honest labels of tool-result media moved to a user turn, and the ids of calls whose result did move"
    labels, ids = set(), set()
    if api != 'openai_chat' or not isinstance(msgs, list): return labels, ids
    calls, run = set(), {}
    for m in msgs:
        if not isinstance(m, dict): continue
        if m.get('role') == 'assistant': calls, run = {c.get('id') for c in m.get('tool_calls') or [] if isinstance(c, dict)}, {}; continue
        if m.get('role') == 'tool': run[m.get('tool_call_id')] = m; continue
        c = m.get('content') if m.get('role') == 'user' and run else None
        for i, b in enumerate(c if isinstance(c, list) else []):
            t = b.get('text') if isinstance(b, dict) and b.get('type') == 'text' else None
            k = re.fullmatch(r'Files from tool call (.+):', t or '')
            if not k or k.group(1) not in run or k.group(1) not in calls: continue
            nxt = c[i+1:next((j for j in range(i+1, len(c)) if not isinstance(c[j], dict) or c[j].get('type') == 'text'), len(c))]
            if nxt and all(o.get('type') in _MOVED_MEDIA for o in nxt): labels.add(t); ids.add(k.group(1))
        run = {}
    return labels, ids

def invariants(case, api, r, how, losses):
    "The invariants a result breaks, as a list of `(name, detail)`"
    h = history(case)
    ins = (system_atoms(case) if how == 'mk_request' else []) + atoms(h)
    outs = output_atoms(api, r, how)
    bad = []
    otext = _stream(outs, ('text',))
    orest = ' \x00 '.join(_norm(s) for a in outs if a[0] == 'result' for s in a[2] + _json_leaves(a[2]) if isinstance(s, str))
    othink = _stream(outs, ('thinking', 'text'))
    # texts, in order
    pos, seen_in = 0, set()
    for a in ins:
        if a[0] != 'text' or not isinstance(a[1], str) or not a[1].strip(): continue
        s = _norm(a[1]); seen_in.add(s)
        j = otext.find(s, pos)
        if j >= 0: pos = j + len(s); continue
        if s in otext:  # out of order: a move that was reported (a system message to the system prompt) is fine
            if not _excused(a, losses, 'text'): bad.append(('text order changed', s[:60]))
            continue
        if s in orest: continue  # sent inside a tool result
        if re.match(r'https?://\S+$', s) and 'url:' + s in {o[1] for o in outs if o[0] == 'media'}: continue  # a URL read as the media it names
        if not _excused(a, losses, 'text'): bad.append(('text lost', f'msgs[{a[-1]}]: {s[:60]!r}'))
    # a gpt-4o-audio reply: its transcript as text, or its audio id kept (Chat sends the reply back by id)
    orefs = {a[2] for a in outs if a[0] == 'transcript'}
    for a in ins:
        if a[0] == 'transcript' and a[1] and _norm(a[1]) not in otext and a[2] not in orefs and not _excused(a, losses, 'text'):
            bad.append(('audio reply lost (transcript and id)', f'msgs[{a[-1]}]: {_norm(a[1])[:50]!r}'))
    # glued: two neighbouring texts of one message joined with nothing between them
    tx = [a for a in ins if a[0] == 'text' and isinstance(a[1], str) and a[1].strip()]
    cited = _cited_texts(case['msgs'])
    for a, b in zip(tx, tx[1:]):
        if a[-1] != b[-1]: continue
        if _norm(a[1]) in cited or _norm(b[1]) in cited: continue  # #17A: text split only by citations joins as written (item 3)
        g = _norm(a[1]) + _norm(b[1])
        if g in otext and g not in _stream(ins): bad.append(('texts glued', f'msgs[{a[-1]}]: {g[:60]!r}')); break
    # texts that came from nowhere (placeholders), and blank texts sent
    mlabels, mids = moved_media(api, out_msgs(api, r, how))  # #17B: the honest structure of moved media (above)
    # #17A: a gpt-4o-audio reply's transcript is its text (issue item 16): sent as text, it is kept, not added
    allin = _stream(ins, ('text', 'thinking', 'transcript')) + ' \x00 ' + ' \x00 '.join(_norm(s) for a in ins if a[0] == 'result' for s in a[2] if isinstance(s, str))
    # #17E2: Converse wants a user turn first ("A conversation must start with a user message") holding text that isn't
    # blank ("The text field in the ContentBlock object is blank"): the empty user turn a history opens with (pydantic-ai
    # prepends one for Gemini) can only go as one character. That '.' stands for the input's own empty turn, nobody's new
    # words: excused only as the whole first message, a user's, where the input's first item is a user turn with no content
    om = out_msgs(api, r, how)
    lead = (api == 'bedrock' and bool(om) and om[0] == {'role': 'user', 'content': [{'text': '.'}]} and bool(h)
            and isinstance(h[0], dict) and h[0].get('role') == 'user' and not any(x[0] != 'text' or x[1].strip() for x in atoms(h[0])))
    for a in outs:
        if lead and a[0] == 'text' and a[1] == '.' and a[-1] == 0: lead = False; continue
        if a[0] == 'text' and isinstance(a[1], str) and a[1].strip() and _norm(a[1]) not in allin and not any(_norm(a[1]) in _norm(s) or _norm(s) in _norm(a[1]) for s in seen_in):
            t = a[1].strip()
            if t in mlabels: continue  # #17B: a label of media moved from a tool result, true (moved_media)
            docs = [_norm(b[2]) for b in ins if b[0] == 'media' and b[2] and _norm(b[2])]
            if any(x in _norm(t) for x in docs) and not t.startswith('#'): continue  # a text document sent as its text
            if _doc_prose(t, docs, case): continue  # #17A: ... under a heading made from its own title/name in the input
            if _result_json(t, ins): continue  # a result with no call before it, sent as the user's text (reported)
            kind = ('label added before tool-result media moved to a user turn' if t.startswith(('Files from tool call', 'Media from tool call')) else
                    'document sent as text under a heading' if t.startswith('# ') else
                    "a Gemini Content dict's keys sent as text ('partsrole')" if t == 'partsrole' else
                    "placeholder '.' text" if t in ('.', '...') else 'other')
            bad.append((f'text added: {kind}', repr(a[1][:60]))); break
    for a in outs:
        if a[0] == 'result' and a[1] in mids and a[2] == ['The result is in the next message.']: continue  # #17B: it moved
        if a[0] == 'result' and any(isinstance(s, str) and s.strip() in ('The result is in the next message.', '.', '(empty)') for s in a[2]):
            src = next((b for b in ins if b[0] == 'result' and b[1] == a[1]), None)
            had = 'an empty result' if src and not any(isinstance(x, str) and x.strip() for x in src[2]) else 'a result with media or blocks'
            bad.append((f'placeholder tool-result text ({had})', repr(a[2][:1]))); break
    # thinking: kept (as thinking or text) or reported
    for a in ins:
        if a[0] == 'thinking' and isinstance(a[1], str) and a[1].strip() and _norm(a[1]) not in othink and not _excused(a, losses, 'thinking'):
            bad.append(('thinking lost silently', f'msgs[{a[-1]}]: {_norm(a[1])[:50]!r}')); break
    # tool calls: the same calls (name and arguments), in order
    icalls, ocalls = _unglue(_dedupe_calls([a for a in ins if a[0] == 'call'])), [a for a in outs if a[0] == 'call']
    oi = 0
    for a in icalls:
        k = next((j for j in range(oi, len(ocalls)) if ocalls[j][1] == a[1] and ocalls[j][2] == a[2]), None)
        if k is not None: oi = k + 1; continue
        if any(o[1] == a[1] for o in ocalls[oi:]): bad.append(('tool call args changed', f'{a[1]}: {str(a[2])[:60]}')); continue
        # #17E1: a rename the adapter reported ('foo@bar' sent as 'foo_bar' where the API's name pattern refuses '@') is
        # the same call; an unreported rename, or one reported as another name, still fails
        k = next((j for j in range(oi, len(ocalls)) if ocalls[j][2] == a[2] and _renamed(a, ocalls[j][1], losses)), None)
        if k is not None: oi = k + 1; continue
        # (a call left out and reported by its name, whose arguments another call shares (`{}`, say): lost, not renamed)
        if any(o[2] == a[2] for o in ocalls[oi:]) and not _left_out(a, losses):
            bad.append(('tool call name changed', f'{a[1]!r}')); continue
        if not _excused(a, losses, 'call'): bad.append(('tool call lost', f'msgs[{a[-1]}]: {a[1]}'))
    # tool results: as many, each one's strings kept
    ires, ores = [a for a in ins if a[0] == 'result'], [a for a in outs if a[0] == 'result']
    if len(ores) < len(ires):
        lost = len(ires) - len(ores)
        if not any(_excused(a, losses, 'result') for a in ires): bad.append(('tool result lost', f'{lost} of {len(ires)}'))
    ostrs = otext + ' \x00 ' + orest
    for a in ires:
        for s in a[2]:
            if isinstance(s, str) and s.strip() and _norm(s) not in ostrs and not _excused(a, losses, 'result'):
                bad.append(('tool result text lost', f'msgs[{a[-1]}]: {_norm(s)[:50]!r}')); break
    # media: every payload (bytes digest or URL) kept, or reported
    okeys = {a[1] for a in outs if a[0] == 'media'}
    for a in ins:
        if a[0] == 'media' and a[1] not in okeys and not (a[2] and _norm(a[2]) in otext) and not _excused(a, losses, 'media'): bad.append(('media lost silently', f'msgs[{a[-1]}]: {a[1][:70]}')); break
    ids = ids_rules(api, out_msgs(api, r, how), how)
    in_ids = collections.Counter(a[3] for a in icalls if a[3])
    for j, (k, d) in enumerate(ids):
        if k == 'call ids repeat across the history' and all(in_ids[x] > 1 for x in eval(d)): ids[j] = ('call ids repeat across the history (as in the input)', d)
    # #17E2: an id used again in a later model turn, in a same-API replay of a history that holds it so, is no fault: the
    # API took it (api.anthropic.com answered 200 to pydantic-ai's test_cross_provider_capability_replay with "0usajhl5"
    # in two turns; litellm keeps such ids: test_sanitize_messages_dedup_scoped_per_turn_preserves_cross_turn). Two
    # calls of one id in one message still fail ('one turn with two calls of the same id'), as do ids msgkit repeats
    if api == case.get('form') and not _dup_in_one_msg(out_msgs(api, r, how)):
        ids = [x for x in ids if x[0] != 'call ids repeat across the history (as in the input)']
    bad += ids
    bad += foreign_keys(api, out_msgs(api, r, how))
    return bad

def _cited_texts(x, out=None):
    "#17A: the texts of blocks that carry citations (an answer split at each cited span), anywhere in the raw history"
    out = set() if out is None else out
    if isinstance(x, list):
        for v in x: _cited_texts(v, out)
    elif isinstance(x, dict):
        if x.get('type') == 'text' and isinstance(x.get('text'), str) and isinstance(x.get('citations'), list) and x['citations']: out.add(_norm(x['text']))
        for v in x.values(): _cited_texts(v, out)
    return out

def _doc_labels(x, out=None):
    "#17A: the titles, names and contexts documents carry in the raw history (Anthropic title/context, Bedrock name, a file's filename)"
    out = [] if out is None else out
    if isinstance(x, list):
        for v in x: _doc_labels(v, out)
    elif isinstance(x, dict):
        d = x['document'] if isinstance(x.get('document'), dict) else x if x.get('type') in ('document', 'input_file', 'file') else None
        if d is not None: out += [(k, d[k]) for k in ('title', 'name', 'context', 'filename') if isinstance(d.get(k), str) and d[k].strip()]
        for v in x.values(): _doc_labels(v, out)
    return out

def _doc_prose(t, docs, case):
    '''#17A: is text `t` a text document sent as text, under a heading made from that document's own title/name and its
    context (as Anthropic documents carry them)? Where an API takes a text document only as text, the label is content
    the user gave, not invention. A heading or context that names nothing in the input still fails.'''
    labels = _doc_labels(case['msgs'])
    heads = {_norm(v) for k, v in labels if k != 'context'}
    ctxs = {_norm(v) for k, v in labels if k == 'context'}
    m = re.match(r'# (.+?)\n', t)
    if not m or _norm(m.group(1)) not in heads: return False
    rest = _norm(t[m.end():])
    for c in ctxs:
        if rest.startswith(c): rest = rest[len(c):].strip(); break
    return bool(rest) and any(rest == x for x in docs)

def _unglue(calls):
    """#17E1: a call whose arguments are JSON objects glued together ('{...}{...}', Claude on Bedrock, litellm #20543) stands
    for one call per object, as litellm reads it; arguments that are not objects alone stay one call (and still fail)"""
    out, dec = [], json.JSONDecoder()
    for a in calls:
        objs, j, s = [], 0, a[2] if isinstance(a[2], str) else ''
        try:
            while s and j < len(s.rstrip()):
                j = len(s) - len(s[j:].lstrip()); d, j = dec.raw_decode(s, j); objs.append(d)
        except ValueError: objs = []
        if len(objs) > 1 and all(isinstance(d, dict) for d in objs):
            out += [('call', a[1], d, a[3] if k == 0 or not a[3] else f'{a[3]}_{k}', a[-1]) for k, d in enumerate(objs)]
        else: out.append(a)
    return out

def _renamed(a, new, losses):
    "#17E1: was call atom `a`'s name reported as sent as `new`, by a loss at its message?"
    return any(_where_idx(l) == a[-1] and l.get('what') == f'tool name {a[1]!r}' and (l.get('why') or '').endswith(f'sent as {new!r}')
               for l in losses)

_ID = re.compile(r'^[a-zA-Z0-9_-]+$')

def _dup_in_one_msg(msgs):
    "Does one message hold two calls of the same id?"
    for i, m in enumerate(msgs):
        c = collections.Counter(a[3] for a in atoms(m, i) if a[0] == 'call' and a[3])
        if any(n > 1 for n in c.values()): return True
    return False

def _dedupe_calls(calls):
    "One call per (message, id): a LangChain AIMessage holds each call twice (a tool_use block and a tool_calls entry); the last wins"
    last = {(a[-1], a[3]): k for k, a in enumerate(calls) if a[3]}
    return [a for k, a in enumerate(calls) if not a[3] or last[(a[-1], a[3])] == k]

def ids_rules(api, msgs, how):
    "Tool-call ids unique across the history and valid for `api`; every call answered once, every result after its call"
    bad, calls, results = [], [], []
    for i, m in enumerate(msgs):
        for a in atoms(m, i):
            if a[0] == 'call': calls.append((a[3], a[1], i))
            if a[0] == 'result': results.append((a[1], i))
    if api == 'gemini':  # ids are optional: pair by turn, names in order
        for i, m in enumerate(msgs):
            fc = [p for p in m.get('parts') or [] if p.get('function_call') or p.get('functionCall')]
            if fc and m.get('role') == 'model':
                nxt = msgs[i + 1] if i + 1 < len(msgs) else None
                fr = [p for p in (nxt or {}).get('parts') or [] if p.get('function_response') or p.get('functionResponse')]
                if nxt is None: bad.append(('call without result sent', f'gemini $[{i}]') if how == 'mk_request' else None)
                elif len(fr) != len(fc): bad.append(('calls and results not paired', f'$[{i}]: {len(fc)} calls, {len(fr)} responses next'))
            if m.get('role') == 'model' and i == 0 and fc: bad.append(('history opens with a model function call', '$[0]'))
        ids = [c[0] for c in calls if c[0]]
        dup = [k for k, n in collections.Counter(ids).items() if n > 1]
        if dup: bad.append(('call ids repeat across the history', f'{dup[:3]}'))
        return [b for b in bad if b]
    ids = [c[0] for c in calls]
    dup = [k for k, n in collections.Counter(ids).items() if n > 1]
    if dup: bad.append(('call ids repeat across the history', f'{dup[:3]}'))
    for cid, name, i in calls:
        if cid is None: bad.append(('call without id', name)); continue
        if api == 'openai_chat' and len(cid) > 40: bad.append(('id over 40 chars for Chat', f'{cid} ({len(cid)})'))
        if api == 'openai' and len(cid) > 64: bad.append(('call_id over 64 chars for Responses', cid))
        if api in ('anthropic', 'bedrock') and not _ID.match(cid): bad.append((f'id not [a-zA-Z0-9_-]+ for {api}', cid))
        if api == 'bedrock' and len(cid) > 64: bad.append(('id over 64 chars for Bedrock', cid))
        if api == 'bedrock' and not _ID.match(name or ''): bad.append(('Bedrock tool name not [a-zA-Z0-9_-]+', name))
    rc = collections.Counter(r[0] for r in results)
    # #17E2: a result answers the latest call of its id before it (an id may come again in a later turn: see invariants)
    per = collections.Counter((k, max((c[2] for c in calls if c[0] == k and c[2] < i), default=None)) for k, i in results)
    for (k, _), n in per.items():
        if n > 1: bad.append(('two results for one call', k))
    cids = {c[0] for c in calls}
    # #17C: a tool search result answers the server call before it (a `server_tool_use`, which no other atom is)
    cids |= {b.get('id') for m in msgs if isinstance(m, dict) and isinstance(m.get('content'), list)
             for b in m['content'] if isinstance(b, dict) and b.get('type') == 'server_tool_use'}
    for k, i in results:
        if k not in cids: bad.append(('result without its call', str(k)))
    if how == 'mk_request':
        for cid, name, i in calls:
            if cid not in rc: bad.append(('call without result sent', f'{name} ({cid}) at $[{i}]'))
    return list(dict.fromkeys(bad))

_FOREIGN = dict(openai={'cache_control', 'cachePoint', 'toolUse', 'toolResult', 'functionCall', 'function_call', 'thought_signature', 'parts', 'tool_use_id'},
                openai_chat={'cache_control', 'cachePoint', 'toolUse', 'toolResult', 'functionCall', 'thought_signature', 'parts', 'tool_use_id', 'call_id'},
                anthropic={'cachePoint', 'toolUse', 'toolResult', 'functionCall', 'function_call', 'thought_signature', 'parts', 'tool_calls', 'call_id', 'image_url'},
                gemini={'cache_control', 'cachePoint', 'toolUse', 'toolResult', 'tool_calls', 'tool_use_id', 'call_id', 'content', 'image_url'},
                bedrock={'cache_control', 'functionCall', 'function_call', 'thought_signature', 'parts', 'tool_calls', 'tool_use_id', 'call_id', 'type', 'image_url'})

def foreign_keys(api, msgs):
    "Keys that belong to another API's form, anywhere in the messages (tool inputs and results' JSON aside)"
    found = set()
    def walk(o, depth):
        if isinstance(o, list):
            for x in o: walk(x, depth)
        elif isinstance(o, dict):
            for k, v in o.items():
                if k in _FOREIGN[api] and not (api == 'gemini' and k == 'content' and depth > 0): found.add(k)
                if k in ('input', 'args', 'arguments', 'json', 'response') and not isinstance(v, list): continue
                if api == 'bedrock' and k == 'content' and depth == 0: walk(v, 1); continue
                walk(v, depth + 1)
    for m in msgs: walk(m, 0)
    if api == 'bedrock' and not any('type' in b for m in msgs for b in m.get('content', []) if isinstance(b, dict)): found.discard('type')
    return [('keys foreign to the API', k) for k in sorted(found)]

# ---------------------------------------------------------------- one case, all APIs
def run_case(case):
    "Per API and per entry point: 'pass', or the failures"
    res = {}
    for api in APIS:
        for how in HOWS:
            try: r, losses, err = render(case, api, how)
            except Exception as e: r, losses, err = None, [], f'building the case: {type(e).__name__}: {e}'
            fails = []
            if err and r is None: fails.append(('raised', err))
            else:
                if err: fails.append(('input mutated', err))
                o = judge_oracle(api, r, how)
                # #17E2: `mk_msgs` of a history with nothing in it (langchain-core's empty AIMessageChunks) is the empty
                # list: a history, not a request (mk_request refuses it: 'mk_request needs a message to send'). The oracle
                # judges a request, which must hold a message; only an empty result of an input without content is excused
                if o and how == 'mk_msgs' and r == [] and not any(a[0] != 'text' or a[1].strip() for a in atoms(history(case))): o = None
                if o: fails.append(('oracle', o))
                try: fails += invariants(case, api, r, how, losses)
                except Exception as e: fails.append(('harness error', f'{type(e).__name__}: {e} {traceback.format_exc(limit=-2)}'))
                if how == 'mk_msgs' and not fails: fails += replay(case, api)
            res[(api, how)] = dict(fails=[dict(kind=k, detail=str(d)[:600]) for k, d in fails],
                                   losses=[f"{l['where']}: {l['what']} ({l['why']})"[:200] for l in losses])
    return res

def _snake(k): return re.sub(r'(?<!^)(?=[A-Z])', '_', k).lower() if isinstance(k, str) else k

def _canon(x, api):
    """`x` with the differences that mean nothing taken out: bytes as base64, Gemini's camelCase keys as snake_case (both
    its wire forms), keys set to None as absent, and Anthropic's string content as the one text block it stands for"""
    if isinstance(x, (bytes, bytearray)): return base64.b64encode(bytes(x)).decode()
    if isinstance(x, (list, tuple)): return [_canon(v, api) for v in x]
    if not isinstance(x, dict): return x
    d = {(_snake(k) if api == 'gemini' else k): _canon(v, api) for k, v in x.items()
         if v is not None and not (k == 'is_error' and v is False) and not (k == 'status' and v == 'success')}  # the defaults
    if api == 'anthropic' and isinstance(d.get('content'), str) and (d.get('role') or d.get('type') == 'tool_result'):
        d['content'] = [{'type': 'text', 'text': d['content']}] if d['content'] else []
    if api == 'anthropic' and d.get('type') == 'tool_result' and 'content' not in d: d['content'] = []
    return d

def diff(a, b, path='$', out=None):
    "The first few differences between input `a` and output `b`, as (path, what)"
    out = [] if out is None else out
    if len(out) >= 3: return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b: out.append((f'{path}.{k}', f"key '{k}' dropped"))
            else: diff(a[k], b[k], f'{path}.{k}', out)
        for k in b:
            if k not in a: out.append((f'{path}.{k}', f"key '{k}' added"))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b): out.append((path, f'{len(a)} items became {len(b)}'))
        for i, (x, y) in enumerate(zip(a, b)): diff(x, y, f'{path}[{i}]', out)
    elif a != b: out.append((path, f'{_short(a, 30)} became {_short(b, 30)}'))
    return out

def _short(v, n): r = repr(v); return r if len(r) <= n else r[:n] + '...'

def replay(case, api):
    "For a history already in `api`'s form that the oracle accepts: what `mk_msgs` changed when sending it back to `api`"
    if case.get('form') != api or case.get('sdk') or input_ok(case) != 'ok': return []
    # Chat's legacy function calling (an assistant's `function_call`, a `function` message) is deprecated and "replaced by
    # `tool_calls`" (openapi.json: ChatCompletionRequestAssistantMessage.function_call and
    # ChatCompletionRequestFunctionMessage, both "deprecated": true): msgkit sends the replacement, the same call and
    # result (the invariants check their names, arguments and text), so a replay of that form is not byte-identical
    if api == 'openai_chat' and any(isinstance(m, dict) and ('function_call' in m or m.get('role') == 'function')
                                    for m in case['msgs']): return []
    r, losses, err = render(case, api, 'mk_msgs')
    if r is None: return []
    ds = diff(_canon(case['msgs'], api), _canon(r, api))
    # #17E1: a tool name the API refuses even in a history, renamed and reported (OpenAI answers 400 "Invalid
    # 'messages[9].tool_calls[0].function.name': string does not match pattern. Expected a string that matches the pattern
    # '^[a-zA-Z0-9_-]+$'", mcp-use/mcp-use#90), is no silent change; any other change still fails
    ren = {f"{l['what'][len('tool name '):]} became {l['why'].rsplit('sent as ', 1)[1]}" for l in losses
           if (l.get('what') or '').startswith('tool name ') and 'sent as ' in (l.get('why') or '')}
    ds = [(p, w) for p, w in ds if not (re.search(r'\.name$', p) and w in ren)]
    # #17E1: arguments holding JSON objects glued together, read as one call per object and reported (as litellm does)
    glued = {f'$[{_where_idx(l)}]' for l in losses if 'JSON objects glued together' in (l.get('why') or '')}
    ds = [(p, w) for p, w in ds if not (p.endswith('.arguments') and p.split('.')[0] in glued)]
    return [('same-API replay changed the history', '; '.join(f'{p}: {w}' for p, w in ds))] if ds else []

def input_ok(case):
    "Does the oracle accept the input as it is, for its own API? (None when it is in no single API's form)"
    f = case.get('form')
    if f not in APIS or case.get('sdk'): return None
    try: oracle.check(f, case['msgs'])
    except Exception as e: return f'{type(e).__name__}: {str(e)[:300]}'
    return 'ok'

# ---------------------------------------------------------------- classes
EXPECTED = [  # refusals msgkit documents, with the fix in the message: reported, not counted as failures
    (r"takes roles [^:]*not '(system|developer)': use mk_request", 'mk_msgs: a system message for an API without a system role (use mk_request)'),
    (r"takes roles .* not 'invalid_role'", "a test's invalid role, refused"),
    (r'by URL: fetch it first|fetch=True', 'a URL the API cannot take (needs fetch=True)'),
    (r"belongs to api=.*can't use it", "another API's file reference (gs://, file id) the API cannot use"),
    (r"Not an http\(s\) URL: '(https://<|\d)", "a test's placeholder where a URL belongs"),
    # Converse: "A conversation must start with a user message. Try again with a conversation that starts with a user
    # message." (ValidationException; strands-agents/harness-sdk#2085 meets it on a windowed history)
    (r"api='bedrock' needs a history that starts with a user turn", 'Bedrock: a conversation must start with a user message'),
    # Anthropic takes a system message in `messages` only where the model does (mk_request moves it; mk_msgs says so)
    (r"api='anthropic' takes a system message in `messages` only", 'mk_msgs: a system message where this Claude takes none (use mk_request)'),
    # what is left when every item was dropped and reported (an unanswered call, a lone reasoning item): not a request
    (r"nothing of this history is left to send|mk_request needs a message to send", 'nothing left to send after the reported drops'),
    # item 25: each API's built-in tools go to that API; another API's are refused by name
    (r"is a built-in tool of api=", "another API's built-in tool in tools=, refused by name"),
    # #17A: Chat Completions takes an image only as `image_url` ("url: Either a URL of the image or the base64 encoded
    # image data", https://platform.openai.com/docs/api-reference/chat/create); its `file` part takes PDFs
    # (https://platform.openai.com/docs/guides/pdf-files?api-mode=chat): an image by file id has no place there
    (r"takes no image by file id: send its bytes", 'Chat: an image by file id (send its bytes or a URL)'),
    # #17B: issue item 17, "refuse clearly": a model-made image or audio can't go back as the model's own. Converse: "You
    # can only include images and documents if the role is user." (https://docs.aws.amazon.com/bedrock/latest/
    # APIReference/API_runtime_Message.html); Chat: ChatCompletionAssistantMessageParam.content is "Union[str,
    # Iterable[ContentArrayOfContentPart]]", text and refusal parts only (openai-python types/chat/
    # chat_completion_assistant_message_param.py); Responses: an assistant message's content is output_text/refusal
    # (ResponseOutputMessageParam); Claude: "images are not allowed in assistant turns" (the provider-rules review of
    # issue #17). The error says the way out (a user message, or leave it out).
    (r"takes only text in an assistant message, not .*send (it|the media) in a user|only in user messages: send the media"
     r"|only in user turns, not in the assistant's .*send it in a user message", 'media in an assistant turn (model-made image/audio), refused'),
    # #17B: litellm's test of Azure's string image_url ('www.mock.com', test_convert_to_azure_openai_messages) holds an
    # address without its scheme: no API fetches it (OpenAI's image_url.url is "Either a URL of the image or the base64
    # encoded image data"), msgkit does not guess one, and the error says to give the scheme
    (r"Not an http\(s\) URL: '[^']*' \(a URL starts with its scheme", 'a URL without its scheme (a test placeholder)'),
    # langchain-google's test of a video whose end_offset comes before its start_offset (it raises too): "The Gemini API
    # surfaces an opaque `500 Internal error` when video offsets are negative or `start_offset` exceeds `end_offset`"
    # (langchain-google-genai chat_models.py `_validate_video_metadata`)
    (r"video_metadata needs offsets of 0 or more, start_offset before end_offset", "a video's offsets Gemini fails on (end before start), refused"),
    # Converse: "A text block must be included when using documents" (ValidationException: BerriAI/litellm#36499,
    # maximhq/bifrost#5817, archestra-ai/archestra#4220 meet it on the AI SDK's bodies); msgkit's `tidy` says so
    (r"api='bedrock' needs a text block in a message that holds a document", 'Bedrock: a document needs a text block in its message'),
    # "A maximum of 4 blocks with cache_control may be provided" (Anthropic); Converse's cache points likewise at most 4
    (r"takes at most 4 cache (breakpoints|points)", 'more cache marks than the API takes, refused with the way out'),
    # `FunctionCallOutput.output: Required[Union[str, ResponseFunctionCallOutputItemListParam]]` (openai-python)
    (r"A function_call_output's output is text or a list of input blocks", "a function_call_output whose output is neither text nor blocks"),
    # an image or file block with no source ("Compaction input_image item missing image_url or file_id": the agents SDK)
    (r"An OpenAI input_(image|file) block needs its image or file", "an OpenAI image or file block with no source"),
    # Chat's image part: "url: Either a URL of the image or the base64 encoded image data" (required)
    (r"A Chat image_url part needs a URL string in image_url\.url", "a Chat image part with no URL"),
]

def classify(f, api, how, case):
    "The failure class of failure `f` (a dict of `kind` and `detail`); classes starting 'expected:' are documented refusals"
    k, d = f['kind'], f['detail']
    if k == 'same-API replay changed the history':
        d = d.split('; ')[0]
        m = re.search(r"\.(type|role|detail|status): ('[\w-]+') became ('[\w-]+')", d)
        if m: return f"same-API replay: {m.group(1)} {m.group(2)} became {m.group(3)}"
        m = re.search(r"key '(\w+)' (dropped|added)", d)
        if m: return f"same-API replay: key '{m.group(1)}' {m.group(2)}"
        m = re.search(r'\.(\w+)(\[\d+\])*: ', d)
        return f"same-API replay: {'items merged/split' if 'items became' in d else 'value of ' + repr(m.group(1)) + ' changed' if m else 'changed'}"
    if k not in ('raised', 'oracle'): return k
    if d.startswith('building the case'): return 'harness: case could not be built'
    # a case its own API refuses as it stands (`invalid` says why, with the rule's source), refused with a clear error:
    # what msgkit should do. Passed on instead, it stays a failure (the oracle's)
    if case.get('invalid') and k == 'raised': return 'expected: an input its own API refuses, refused'
    if case.get('invalid') and k == 'oracle': return f"an input its own API refuses, passed on unchecked ({case['id']})"
    for rx, name in EXPECTED:
        if re.search(rx, d): return 'expected: ' + name
    m = re.search(r"Unrecognised content block(?: for api='\w+')?: \{'(\w+)'", d)
    if k == 'raised' and m:
        t = m.group(1)
        if t != 'type' and "'type'" in d: t = (re.search(r"\}, 'type': '(\w+)'", d) or re.search(r"'type': '(\w+)'", d)).group(1)
        elif t == 'type': t = re.search(r"'type': '(\w+)'", d).group(1)
        if 'advisor' in d: t = 'advisor_tool_result'
        return f"refused by msgkit: unrecognised block ({t})"
    rules = [
        (r'takes a system prompt only before the conversation|system message in the middle', 'mid-history system message refused'),
        (r"Can't read this tool", 'built-in/server tool in tools= refused'),
        (r'needs a history that starts with a user turn', 'history opening with an assistant turn refused'),
        (r"can't translate Chat 'thinking' parts", "Chat 'thinking' content parts refused (Mistral/OpenRouter form)"),
        (r"can't take (audio|video|image)[^:]*: it takes no", 'media kind the target API has no place for (raised, not dropped with a LossWarning)'),
        (r"can't take image: it takes image/", 'image type the target API cannot take'),
        (r"needs the tool's name in a function response", 'Gemini function response without a tool name'),
        (r"takes roles .* not '(human|ai)'", "LangChain role names ('human'/'ai') in role dicts not read"),
        (r"takes roles .* not 'tool'", 'tool message left as a role the API lacks'),
        (r"takes roles .* not 'developer'", 'developer message mid-history for an API without that role'),
        (r'Malformed openai_chat item \(TypeError', 'crash (TypeError) on a Chat image_url given as a string inside a tool message'),
        (r'takes only text in an assistant message, not|only in user messages', "media in an assistant turn (model-made image/audio) refused"),
        (r"duplicate tool call ids|'tool_use ids must be unique'", 'one turn with two calls of the same id sent'),
        (r"\{'role': 'user', 'content': \[\]\} is not valid", 'empty user content [] sent to Chat'),
        (r"can't translate Chat 'image' parts", 'Anthropic image block inside a Chat tool message refused'),
        (r'its arguments are not valid JSON|its arguments must be a JSON object', 'tool-call arguments that are not one JSON object refused'),
        (r"source\.media_type: expected one of \['application/pdf'\], got 'text/", 'text/* base64 document sent to Anthropic as a base64 source'),
        (r'takes no image by file id', 'image by file id refused for Chat'),
        (r"content\[0\]\.type: missing required key 'type' of ChatCompletionContentPartTextParam", "another API's system blocks passed into a Chat system message"),
        (r"missing required key 'result' of ImageGenerationCall", 'image_generation_call without its result'),
        (r'code_execution|bash_code_execut', 'server-tool result shape the SDK rejects'),
        (r'Malformed', 'crash on a malformed-looking item'),
        (r'takes only text in a system prompt', 'non-text system content refused'),
        (r'needs a text block in a message that holds a d', 'Bedrock document message without a text block refused'),
        (r'needs the call a tool message answers', 'tool message without its call refused'),
        (r'A LangChain file block needs', 'LangChain file block form not read'),
        (r"can't use msgs, a list of", 'history form not read'),
        (r"system.*(blocks|list)|\$system|\$instructions|system_instruction|\$\[0\]\.content: expected str or a list, got \{'parts'", 'system= given as blocks/Content dict not taken'),
        (r'thought_signature|thoughtSignature', 'Gemini thought signature problem'),
        (r'must alternate|alternate between user and assistant', 'roles do not alternate'),
        (r'first message must use the "user" role|must start with a user message', 'history opens with an assistant turn'),
        (r'tool_use ids were found without tool_result|must be followed by tool messages|answered by', 'trailing/unanswered tool call sent'),
        (r'unexpected tool_use_id|No tool call found|tool message not after tool calls|comes after a user message', 'tool result without its call'),
        (r'tool_result blocks must come first', 'tool_result not first in the user turn'),
        (r'non-whitespace text|text field in the ContentBlock object is blank|blank text', 'blank text sent'),
        (r'\$\.messages: \[\] should be non-empty|contents are required', 'nothing left to send (empty message list)'),
        (r'non-empty content|empty content|parts must not be empty|should be non-empty', 'empty message sent'),
        (r'reasoning item needs|without its required following item', 'reasoning item without its following item'),
        (r'toolUseId .* breaks|match pattern', 'id pattern broken'),
        (r'string too long|maximum length', 'value too long'),
        (r'duplicate document names', 'duplicate Bedrock document names'),
        (r'document needs a text block', 'Bedrock document without a text block'),
        (r'trailing whitespace', 'final assistant text ends with whitespace'),
        (r'expected bytes', 'base64 text where the SDK wants bytes'),
        (r'The bytes are', 'declared media type differs from the bytes'),
        (r'not JSON-serializable', 'result not JSON-serializable'),
        (r'video\.format: expected one of', 'Bedrock video format given as a MIME type'),
        (r"tagged union structure .*toolResult\.content|function_response\.parts\[\d+\]\.(tool_name|type): Extra", 'unknown block kept inside a tool result'),
    ]
    for rx, name in rules:
        if re.search(rx, d): return f"{'refused by msgkit' if k == 'raised' else 'rejected by oracle'}: {name}"
    m = re.search(r"unknown key '(\w+)' for (\w+)", d)
    if m: return f"rejected by oracle: key '{m.group(1)}' kept that {m.group(2)} does not have"
    m = re.search(r"(\.type|\.role): expected one of \[.*?\], got '([\w-]+)'", d)
    if m: return f"rejected by oracle: {m.group(1)[1:]} '{m.group(2)}' passed through"
    m = re.search(r"([\w]+): Extra inputs are not permitted", d)
    if m: return f"rejected by oracle: key '{m.group(1)}' kept that the Gemini SDK does not have"
    m = re.search(r'Unknown parameter in [\w\[\]\.]+: "(\w+)"', d)
    if m: return f"rejected by oracle: key '{m.group(1)}' kept that Converse does not have"
    return f"{'refused by msgkit' if k == 'raised' else 'rejected by oracle'}: other ({d.split(':')[0][:40]}: {d.split(':', 1)[-1].strip()[:60]})"

def run(cases=None):
    "`(case, api, how, failure class, detail)` of every failure of `cases` (every case of the corpus by default)"
    out = []
    for c in cases or load_cases():
        for (api, how), v in run_case(c).items():
            out += [(c, api, how, classify(f, api, how, c), f['detail']) for f in v['fails']]
    return out

if __name__ == '__main__':
    only = sys.argv[1] if len(sys.argv) > 1 else None
    rows = run([c for c in load_cases() if not only or only in c['id'] or only in c['file']])
    for k,v in collections.Counter(r[3] for r in rows).most_common(): print(v, k)
