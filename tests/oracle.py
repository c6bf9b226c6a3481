"Test oracle: checks message lists against each provider SDK's types, real client, and (OpenAI) the OpenAPI spec."
import base64, copy, io, json, types as pytypes, typing, typing_extensions as te, warnings
from collections import abc
from functools import cache, partial, wraps

__all__ = ['strict', 'jsonable', 'check', 'check_openai', 'check_openai_chat', 'check_anthropic', 'check_gemini',
           'check_bedrock', 'APIS', 'openai_response', 'anthropic_message', 'chat_completion', 'gemini_response',
           'bedrock_response', 'spec_errors', 'rules_gemini3', 'RULES']

import os
from pathlib import Path
# shared/ sits beside the checkout (as in CI); MSGKIT_OPENAPI overrides
SPEC = os.environ.get('MSGKIT_OPENAPI') or str(Path(__file__).resolve().parents[2]/'shared'/'openai-openapi'/'openapi.json')

# ---------------------------------------------------------------- strict
class StrictError(AssertionError):
    def __init__(self, path, msg, want=None): super().__init__(f'{path}: {msg}'); self.path, self.want = path, want

def _fail(path, msg): raise StrictError(path, msg)
def _want(path, want, v): raise StrictError(path, f'expected {want}, got {_short(v)}', want)
def _depth(path): return path.count('.') + path.count('[')
def _short(v, n=80): r = repr(v); return r if len(r) <= n else r[:n] + '...'

_WRAPPERS = {typing.Required, typing.NotRequired, te.Required, te.NotRequired, getattr(te, 'ReadOnly', None)} - {None}
_SEQS = {list, tuple, abc.Iterable, abc.Sequence, abc.Collection, abc.MutableSequence}
_MAPS = {dict, abc.Mapping, abc.MutableMapping}
_UNIONS = (typing.Union, pytypes.UnionType)

def _unwrap(ann):
    "Strip `Annotated`, `Required`/`NotRequired`/`ReadOnly` and type aliases"
    while True:
        o = typing.get_origin(ann)
        if o is typing.Annotated or o in _WRAPPERS: ann = typing.get_args(ann)[0]
        elif isinstance(ann, getattr(te, 'TypeAliasType', ())): ann = ann.__value__
        else: return ann

@cache
def _hints(o): return typing.get_type_hints(o, include_extras=True)

@cache
def _required(td):
    "`__required_keys__` is wrong under `from __future__ import annotations`, so read the `Required` wrappers too"
    req = lambda k, o: o in (typing.Required, te.Required) or (k in td.__required_keys__ and o not in (typing.NotRequired, te.NotRequired))
    return {k for k, a in _hints(td).items() if req(k, typing.get_origin(a))}

def _lits(td, k):
    "Literal values allowed for key `k` of TypedDict `td` (also through Optional), or None if not a Literal"
    a = _unwrap(_hints(td).get(k))
    ms = typing.get_args(a) if typing.get_origin(a) in _UNIONS else (a,)
    ms = [_unwrap(m) for m in ms if m is not type(None)]
    if ms and all(typing.get_origin(m) is typing.Literal for m in ms): return tuple(x for m in ms for x in typing.get_args(m))

def _is_lit(v, args): return any(type(v) is type(a) and v == a for a in args)

def _td(v, td, path):
    if not isinstance(v, dict): _want(path, 'a dict', v)
    hs = _hints(td)
    for k in v:
        if k not in hs: _fail(f'{path}.{k}', f'unknown key {k!r} for {td.__name__} (allowed: {sorted(hs)})')
    for k in sorted(_required(td) - set(v)): _fail(f'{path}.{k}', f'missing required key {k!r} of {td.__name__}')
    for k, x in v.items(): strict(x, hs[k], f'{path}.{k}')

def _score(v, a, e):
    "Rank union member `a` for `v`: a Literal key matches and none mismatch, keys it knows, fewer mismatches, error depth"
    if not isinstance(v, dict): return (False, 0, 0, _depth(e.path))
    if not te.is_typeddict(a): return (False, -len(v), 0, _depth(e.path))
    ok = [_is_lit(x, l) for k, x in v.items() if (l := _lits(a, k)) is not None]
    known = sum(k in _hints(a) for k in v)
    return (any(ok) and all(ok), 2 * known - len(v), -ok.count(False), _depth(e.path))

def _union(v, args, path):
    errs = []
    for a in args:
        try: return strict(v, a, path)
        except StrictError as e: errs.append((_score(v, _unwrap(a), e), e))
    tds = [a for a in map(_unwrap, args) if te.is_typeddict(a)]
    if isinstance(v, dict) and tds:  # every TypedDict member rejects the same Literal key: list what is allowed
        for k in v:
            ls = [_lits(a, k) for a in tds]
            if all(l is not None and not _is_lit(v[k], l) for l in ls): _want(f'{path}.{k}', f'one of {sorted({x for l in ls for x in l}, key=str)}', v[k])
    best = max(errs, key=lambda t: t[0])[1]
    wants = [e.want for _, e in errs if e.path == path and e.want]
    if best.path == path and len(wants) > 1: _want(path, ' or '.join(dict.fromkeys(wants)), v)  # all failed right here
    raise best

def strict(value, annotation, path='$'):
    "Assert `value` matches SDK param `annotation` exactly: no unknown keys, no missing required keys, every item checked"
    v, ann = value, _unwrap(annotation)
    o, args = typing.get_origin(ann), typing.get_args(ann)
    if ann in (typing.Any, object): return
    if isinstance(ann, (str, typing.ForwardRef)): raise TypeError(f'{path}: unresolved forward ref {ann!r}')
    if o in _UNIONS: return _union(v, args, path)
    if o is typing.Literal:
        if not _is_lit(v, args): _want(path, f'one of {list(args)}', v)
    elif te.is_typeddict(ann): _td(v, ann, path)
    elif ann in (None, type(None)):
        if v is not None: _want(path, 'None', v)
    elif ann in (bool, int):
        if not isinstance(v, ann) or (ann is int and isinstance(v, bool)): _want(path, ann.__name__, v)
    elif ann is float:
        if isinstance(v, bool) or not isinstance(v, (int, float)): _want(path, 'a number', v)
    elif o in _SEQS or ann in _SEQS:
        if not isinstance(v, (list, tuple)): _want(path, 'a list', v)
        for i, x in enumerate(v): strict(x, args[0] if args and o is not tuple else typing.Any, f'{path}[{i}]')
    elif o in _MAPS or ann in _MAPS:
        if not isinstance(v, dict): _want(path, 'a dict', v)
        kt, vt = args or (typing.Any, typing.Any)
        for k, x in v.items(): strict(k, kt, f'{path}.{k}(key)'); strict(x, vt, f'{path}.{k}')
    else:
        cls = io.IOBase if typing.IO in (o, ann) else o if isinstance(o, type) else ann  # IO[bytes]: in `Base64FileInput`
        if not isinstance(cls, type): raise TypeError(f'{path}: unsupported annotation {ann!r}')
        if not isinstance(v, cls): _want(path, cls.__name__, v)

# ---------------------------------------------------------------- shared helpers
def jsonable(x):
    "`x` with bytes as base64 strings, dicts (incl. subclasses) as dicts, tuples as lists"
    if isinstance(x, (bytes, bytearray)): return base64.b64encode(x).decode()
    if isinstance(x, dict): return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)): return [jsonable(v) for v in x]
    return x

def _guarded(msgs, f):
    "Run `f()`, asserting it did not mutate `msgs` and that `msgs` is JSON-able (bytes as base64)"
    before = copy.deepcopy(msgs)
    with warnings.catch_warnings():  # e.g. the SDK's model-deprecation warnings
        warnings.simplefilter('ignore', DeprecationWarning)
        res = f()
    assert msgs == before, 'messages were mutated by the check'
    try: json.dumps(jsonable(msgs))
    except (TypeError, ValueError) as e: raise AssertionError(f'messages not JSON-serializable: {e}') from None
    return res

def _guard(f):
    "Decorate check `f(msgs, **kw)` with `_guarded`"
    @wraps(f)
    def _f(msgs, **kw): return _guarded(msgs, lambda: f(msgs, **kw))
    return _f

def _kw_strict(method, kw):
    "Check extra request fields against the SDK method's own annotations"
    hs = _hints(method)
    for k, v in kw.items():
        if k not in hs: raise AssertionError(f'${k}: unknown request field for {method.__qualname__}')
        strict(v, hs[k], f'${k}')

_io = {}  # `_io[api]`: the request body the mock captured; `_io[api+'_resp']`: a JSON response to send instead of the default
_CANNED = dict(openai=lambda: _doc_example('/responses', 'Text input'), openai_chat=lambda: _doc_example('/chat/completions', 'Default'),
               anthropic=lambda: _ant_example(), gemini=lambda: _gem_example(), bedrock=lambda: _bed_example())

def _canned(api): return _io.get(api + '_resp') or _CANNED[api]()

def _reply(mod, api, req):
    "httpx(2) mock handler: capture the JSON body of `req`, answer with the canned response"
    _io[api] = json.loads(req.content)
    return mod.Response(200, json=_canned(api))

def _send(api, f):
    "Call the SDK with `f()` and return the body its mocked transport captured"
    _io.pop(api, None)
    try: f()
    except AssertionError: raise
    except Exception as e: raise AssertionError(f'the {api} SDK rejected the request: {type(e).__name__}: {e}') from e
    assert api in _io, f'the {api} SDK sent no request'
    return _io.pop(api)

# ---------------------------------------------------------------- OpenAI spec
def _fix(o):
    "OpenAPI -> JSON Schema: the spec's `oneOf` are loose unions (members overlap), and `nullable: true` allows null"
    if isinstance(o, list): return [_fix(x) for x in o]
    if not isinstance(o, dict): return o
    o = {('anyOf' if k == 'oneOf' else k): _fix(v) for k, v in o.items()}
    if o.pop('nullable', None) is True: o = {'anyOf': [o, {'type': 'null'}]}
    return o

@cache
def _spec():
    "The official spec from ../shared when it is there (as in CI), else the vendored subset of it (see spec_subset.py)"
    if os.path.exists(SPEC): return json.load(open(SPEC))
    from spec_subset import load_vendored
    return load_vendored()

# the spec's slips, which no body can meet: `MCPApprovalResponse` requires `request_id`, which it never defines (its
# properties: type, id, approval_request_id, approve, reason; openai-python's `McpApprovalResponse` requires
# `approval_request_id`, `approve` and `type`)
_SLIPS = dict(MCPApprovalResponse=('request_id',),
              LocalShellToolCallOutput=('call_id',))  # (its properties: type, id, output, status)

@cache
def _registry():
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012
    spec = copy.deepcopy(_spec())
    for n, ks in _SLIPS.items():
        s = spec['components']['schemas'].get(n) or {}
        if isinstance(s.get('required'), list): s['required'] = [k for k in s['required'] if k not in ks]
    return Registry().with_resource('urn:openai', DRAFT202012.create_resource(_fix(spec)))

@cache
def _validator(name):
    from jsonschema import Draft202012Validator
    return Draft202012Validator({'$ref': f'urn:openai#/components/schemas/{name}'}, registry=_registry())

def spec_errors(body, name):
    "Errors of `body` against OpenAPI schema `name`, best first, as 'path: message' strings"
    from jsonschema.exceptions import best_match, relevance
    errs = sorted(_validator(name).iter_errors(body), key=relevance)
    best = best_match(errs)
    return [f'{e.json_path}: {e.message[:300]}' for e in ([best] if best else []) + [e for e in errs if e is not best]]

def _spec_check(body, name):
    errs = spec_errors(body, name)
    if errs: raise AssertionError(f'OpenAI spec {name}: ' + '\n'.join(errs[:3]))

def _doc_example(path, title):
    "A documented response example from the spec's `x-oaiMeta`"
    exs = _spec()['paths'][path]['post']['x-oaiMeta']['examples']
    return json.loads(next(e['response'] for e in exs if e['title'] == title))

# ---------------------------------------------------------------- OpenAI
@cache
def _oai():
    import openai, httpx2
    h = lambda req: _reply(httpx2, 'openai_chat' if req.url.path.endswith('/chat/completions') else 'openai', req)
    return openai.OpenAI(api_key='sk-test', base_url='http://oracle.test/v1', max_retries=0,
                         http_client=httpx2.Client(transport=httpx2.MockTransport(h)))

@_guard
def check_openai(input_items, **kw):
    "Check a Responses API `input` list; returns the JSON body the SDK sends"
    from openai.types.responses import ResponseInputParam
    from openai.resources.responses import Responses
    strict(input_items, ResponseInputParam)
    _kw_strict(Responses.create, kw)
    body = _send('openai', lambda: _oai().responses.create(model='gpt-4.1', input=input_items, **kw))
    _spec_check(body, 'CreateResponse')
    return body

@_guard
def check_openai_chat(messages, **kw):
    "Check a Chat Completions `messages` list; returns the JSON body the SDK sends"
    from openai.types.chat import ChatCompletionMessageParam
    from openai.resources.chat.completions import Completions
    strict(messages, typing.Iterable[ChatCompletionMessageParam])
    _kw_strict(Completions.create, kw)
    body = _send('openai_chat', lambda: _oai().chat.completions.create(model='gpt-4o', messages=messages, **kw))
    _spec_check(body, 'CreateChatCompletionRequest')
    return body

# ---------------------------------------------------------------- Anthropic
def _ant_example(text='Hello!', thinking=False, tool_use=False):
    content = []
    if thinking: content.append(dict(type='thinking', thinking='The user greets me; I should greet back.',
                                     signature='EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'))
    content.append(dict(type='text', text=text))
    if tool_use: content.append(dict(type='tool_use', id='toolu_01A09q90qw90lq917835lq9', name='get_weather',
                                     input={'location': 'San Francisco, CA'}))
    return dict(id='msg_013Zva2CMHLNnXjNJJKqJ2EF', type='message', role='assistant', model='claude-sonnet-4-5-20250929',
                content=content, stop_reason='tool_use' if tool_use else 'end_turn', stop_sequence=None,
                usage=dict(input_tokens=2095, output_tokens=503))

@cache
def _ant():
    import anthropic, httpx2
    return anthropic.Anthropic(api_key='sk-test', base_url='http://oracle.test', max_retries=0,
                               http_client=httpx2.Client(transport=httpx2.MockTransport(partial(_reply, httpx2, 'anthropic'))))

@_guard
def check_anthropic(messages, **kw):
    "Check a Messages API `messages` list (and `system=` etc); returns the JSON body the SDK sends"
    from anthropic.types import MessageParam
    from anthropic.resources.messages import Messages
    strict(messages, typing.Iterable[MessageParam])
    for i, m in enumerate(messages):  # the SDK type also admits role 'system': "Claude Opus 4.8 accepts role: 'system'
        # messages immediately after a user turn" (platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages)
        if m['role']=='system' and (i==0 or messages[i-1]['role']!='user'): _want(f'$[{i}].role', "'user' or 'assistant' (a system message only after a user turn)", m['role'])
    _kw_strict(Messages.create, kw)
    return _send('anthropic', lambda: _ant().messages.create(model='claude-sonnet-4-5', max_tokens=1024, messages=messages, **kw))

# ---------------------------------------------------------------- Gemini
def _pyd(e, path):
    "A pydantic ValidationError as an AssertionError naming JSON paths"
    locs = lambda loc: ''.join(f'[{x}]' if isinstance(x, int) else f'.{x}' for x in loc)
    return AssertionError('\n'.join(f"{path}{locs(d['loc'])}: {d['msg']} (got {_short(d.get('input'))})" for d in e.errors()))

def _gem_validate(model, v, path):
    "`model.model_validate(v)`, failing also on the unknown-enum-value warnings google-genai's enums only emit"
    from pydantic import ValidationError
    with warnings.catch_warnings():
        warnings.simplefilter('error', UserWarning)
        try: model.model_validate(v)
        except ValidationError as e: raise _pyd(e, path) from None
        except UserWarning as e: raise AssertionError(f'{path}: {e}') from None
    _gem_bytes(v, model, path)

def _gem_bytes(v, ann, path):
    "SDK-form bytes fields must hold `bytes`: pydantic would silently base64-decode a `str` there"
    from pydantic import BaseModel
    ann = _unwrap(ann)
    o = typing.get_origin(ann)
    if v is None: return
    if ann is bytes:
        if not isinstance(v, bytes): _want(path, 'bytes', v)
    elif o in _UNIONS:
        ms = [a for a in typing.get_args(ann) if a is not type(None)]
        for a in ms:
            if a is not bytes or len(ms) == 1: _gem_bytes(v, a, path)
    elif o in (list, abc.Sequence) and isinstance(v, (list, tuple)):
        for i, x in enumerate(v): _gem_bytes(x, typing.get_args(ann)[0], f'{path}[{i}]')
    elif isinstance(ann, type) and issubclass(ann, BaseModel) and isinstance(v, dict):
        fs = {a: f for n, f in ann.model_fields.items() for a in (n, f.alias) if a}
        for k, x in v.items():
            if k in fs: _gem_bytes(x, fs[k].annotation, f'{path}.{k}')

def _gem_example(text='Hello!', thought=False, function_call=False):
    sig = base64.b64encode(b'\x0a\x12thought-signature-1').decode()
    parts = [dict(text='**Greeting the user**\n\nThe user said hi.', thought=True)] if thought else []
    parts.append(dict(text=text))
    if function_call: parts.append(dict(functionCall=dict(name='get_weather', args={'location': 'Boston, MA'})))
    if thought: parts[-1]['thoughtSignature'] = sig  # the signature rides on the last (answer or call) part
    return dict(candidates=[dict(content=dict(parts=parts, role='model'), finishReason='STOP', index=0)],
                usageMetadata=dict(promptTokenCount=15, candidatesTokenCount=6, totalTokenCount=21),
                modelVersion='gemini-2.5-flash', responseId='Il0taoSYJ5Cez7')

@cache
def _gem():
    import httpx
    from google import genai
    from google.genai import types
    http = httpx.Client(transport=httpx.MockTransport(partial(_reply, httpx, 'gemini')))
    return genai.Client(api_key='test', vertexai=False, http_options=types.HttpOptions(httpx_client=http))

@_guard
def check_gemini(contents, **kw):
    "Check a `contents` list of Content dicts (kw: GenerateContentConfig fields); returns the JSON body the SDK sends"
    from google.genai import types
    assert types.Content.model_config.get('extra') == 'forbid', 'google-genai models no longer forbid extra keys'
    if not isinstance(contents, (list, tuple)): _want('$', 'a list of Content dicts', contents)
    for i, c in enumerate(contents):
        if not isinstance(c, dict): _want(f'$[{i}]', 'a Content dict', c)
        _gem_validate(types.Content, c, f'$[{i}]')
        if c.get('role') not in (None, 'user', 'model'):  # documented on `Content.role`
            _want(f'$[{i}].role', "'user', 'model' or unset", c['role'])
    _gem_validate(types.GenerateContentConfig, kw, '$config')
    cfg = types.GenerateContentConfig.model_validate(kw) if kw else None
    return _send('gemini', lambda: _gem().models.generate_content(model='gemini-2.5-flash', contents=contents, config=cfg))

# ---------------------------------------------------------------- Bedrock
MODEL_ID = 'anthropic.claude-3-5-sonnet-20240620-v1:0'

def _bed_example(text='Hello!', reasoning=False, tool_use=False):
    content = [dict(reasoningContent=dict(reasoningText=dict(text='The user greets me; I should greet back.',
                                                             signature='ErcBCkgIAhABGAIiQMZ8h5dV'))) ] if reasoning else []
    content.append(dict(text=text))
    if tool_use: content.append(dict(toolUse=dict(toolUseId='tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name='get_weather',
                                                  input={'location': 'Seattle, WA'})))
    return dict(output=dict(message=dict(role='assistant', content=content)),
                stopReason='tool_use' if tool_use else 'end_turn',
                usage=dict(inputTokens=30, outputTokens=628, totalTokens=658), metrics=dict(latencyMs=1275))

@cache
def _bed():
    import boto3
    from botocore.awsrequest import AWSResponse
    c = boto3.client('bedrock-runtime', region_name='us-east-1', aws_access_key_id='x', aws_secret_access_key='x')
    def hook(request, **_):
        _io['bedrock'] = json.loads(request.body)
        data = json.dumps(_canned('bedrock')).encode()
        raw = pytypes.SimpleNamespace(stream=lambda **k: iter([data]))
        return AWSResponse(request.url, 200, {'content-type': 'application/json'}, raw)
    c.meta.events.register('before-send.bedrock-runtime.Converse', hook)
    return c

def _shape_check(v, shape, path):
    "What ParamValidator skips: enum values, and real bytes for blobs (botocore would base64 a `str` again)"
    t = shape.type_name
    if t == 'blob' and not isinstance(v, (bytes, bytearray)): _want(path, 'bytes', v)
    elif t == 'string' and shape.enum and v not in shape.enum: _want(path, f'one of {shape.enum}', v)
    elif t == 'structure' and isinstance(v, dict):
        for k, x in v.items():
            if k in shape.members: _shape_check(x, shape.members[k], f'{path}.{k}')
    elif t == 'list' and isinstance(v, (list, tuple)):
        for i, x in enumerate(v): _shape_check(x, shape.member, f'{path}[{i}]')
    elif t == 'map' and isinstance(v, dict):
        for k, x in v.items(): _shape_check(x, shape.value, f'{path}.{k}')

@_guard
def check_bedrock(messages, **kw):
    "Check a Converse `messages` list (kw: other Converse fields); returns the JSON body boto3 sends"
    from botocore.validate import ParamValidator
    params = dict(modelId=MODEL_ID, messages=messages, **kw)
    shape = _bed().meta.service_model.operation_model('Converse').input_shape
    r = ParamValidator().validate(params, shape)
    if r.has_errors(): raise AssertionError(r.generate_report())
    _shape_check(params, shape, '$')
    return _send('bedrock', lambda: _bed().converse(**params))

APIS = dict(openai=check_openai, openai_chat=check_openai_chat, anthropic=check_anthropic, gemini=check_gemini, bedrock=check_bedrock)

# ---------------------------------------------------------------- rules the types can't express
# Each is a documented provider rule whose breach the API answers with a 400; the error text is quoted.
def _blank(s): return isinstance(s, str) and not s.strip()

_MODEL_SIDE = {'message', 'reasoning', 'function_call', 'custom_tool_call', 'web_search_call', 'file_search_call', 'code_interpreter_call',
               'image_generation_call', 'computer_call', 'local_shell_call', 'shell_call', 'apply_patch_call', 'mcp_call', 'mcp_list_tools',
               'mcp_approval_request', 'tool_search_call', 'compaction'}
def _model_side(m): return m.get('role')=='assistant' or (m.get('type') in _MODEL_SIDE and m.get('role', 'assistant')=='assistant')

# An input item's `id`, where it has one, is the API's own: "Invalid 'input[66].id': 'item_df7e...'. Expected an ID that
# begins with 'rs'." (a reasoning item: jlcodes99/cockpit-tools#2090), "... Expected an ID that begins with 'fc'." (a
# function call: nodetool-ai/nodetool#4252, Wei-Shaw/sub2api#3785), "... Expected an ID that begins with 'msg'." (a
# message: openai/codex#33176, mastra-ai/mastra#10815); and of any item, "Expected an ID that contains letters,
# numbers, underscores, or dashes" (RooCodeInc/Roo-Code#9839)
_ITEM_ID_PREFIX = dict(reasoning='rs', function_call='fc', message='msg')

def _item_id(i, m):
    if m.get('id') is None or m.get('type')=='item_reference': return
    t = m.get('type', 'message' if 'role' in m else None)
    assert isinstance(m['id'], str) and _ID.fullmatch(m['id']), \
        f"$[{i}].id: Expected an ID that contains letters, numbers, underscores, or dashes, not {m['id']!r:.60}"
    if (p := _ITEM_ID_PREFIX.get(t)): assert m['id'].startswith(p), f"$[{i}].id: Expected an ID that begins with {p!r}, not {m['id']!r:.60}"

def _rules_openai(msgs):
    calls, open_calls = set(), set()
    for i, m in enumerate(msgs):
        _item_id(i, m)
        if m.get('type')=='function_call':
            calls.add(m['call_id']); open_calls.add(m['call_id'])
            # "Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64" (string_above_max_length)
            assert len(m['call_id']) <= 64, f"$[{i}].call_id: string too long ({len(m['call_id'])} > 64)"
        if m.get('type')=='function_call_output':
            assert m['call_id'] in calls, f"$[{i}]: 'No tool call found for function call output with call_id {m['call_id']}'"
            assert m['call_id'] in open_calls, f"$[{i}]: the output of {m['call_id']} comes after a user message that followed its call"
            open_calls.discard(m['call_id'])
        if m.get('role') in ('user', 'system', 'developer'):
            # a user's text after its turn's tool outputs: strict Responses servers reject any item between a call and its output
            assert not open_calls, f"$[{i}]: a {m['role']} message before the outputs of {sorted(open_calls)}"
        if m.get('type')=='reasoning':  # "Item 'rs_..' of type 'reasoning' was provided without its required following item"
            assert i+1 < len(msgs) and _model_side(msgs[i+1]), f"$[{i}]: a reasoning item needs the item that followed it"
            # #17E2: an assistant message as that item is it only by its id: "When a reasoning item is present in the
            # conversation history, OpenAI's Responses API requires the following message item to have 'id' and 'status'
            # fields" (OpenHands/software-agent-sdk#1754; the same 400 in continuedev/continue#8933)
            nxt = msgs[i+1]
            if m.get('id') and nxt.get('role')=='assistant' and nxt.get('type', 'message')=='message':
                assert nxt.get('id'), f"$[{i}]: a reasoning item needs the item that followed it (the message after it has no id)"

def _rules_chat(msgs, id_max=40):
    for i, m in enumerate(msgs):
        if m.get('role')=='assistant' and m.get('tool_calls'):
            ids = [c['id'] for c in m['tool_calls']]
            # "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a
            # string with length 46 instead." (agno-agi/agno#5382; msgkit's `OpenAIChatAdapter.id_max`): OpenAI's own
            # service; a compatible server's body is judged by its own rules (tests/dialects/checks.py: `id_max=None`)
            for j, c in enumerate(ids):
                assert not id_max or len(c) <= id_max, f"$[{i}].tool_calls[{j}].id: string too long ({len(c)} > {id_max})"
            assert len(set(ids))==len(ids), f"$[{i}]: duplicate tool call ids {ids}"
            j, got = i+1, []
            while j < len(msgs) and msgs[j].get('role')=='tool': got.append(msgs[j]['tool_call_id']); j += 1
            # "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"
            if j < len(msgs) or got: assert sorted(got)==sorted(ids), f"$[{i}]: tool calls {ids} answered by {got} right after"
        if m.get('role')=='tool':  # "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"
            k = i-1
            while k >= 0 and msgs[k].get('role')=='tool': k -= 1
            assert k >= 0 and msgs[k].get('role')=='assistant' and msgs[k].get('tool_calls'), f"$[{i}]: tool message not after tool calls"

_ID = __import__('re').compile(r'[a-zA-Z0-9_-]+')

def _rules_anthropic(msgs):
    prev_uses = set()
    # No user-first rule: api.anthropic.com answered 200 to a history that opens with the assistant's turn (pydantic-ai's
    # cassette tests/models/cassettes/test_anthropic/test_anthropic_model_empty_message_on_history.yaml, claude-sonnet-4-5)
    # images and documents only in user turns ("images are not allowed in assistant turns": the provider-rules review)
    for i, m in enumerate(msgs):
        if m['role']=='assistant' and isinstance(m['content'], list):
            assert not any(b.get('type') in ('image','document') for b in m['content']), f"$[{i}]: media in an assistant turn"
    ccs = [b['cache_control'] for m in msgs if isinstance(m['content'], list) for b in m['content'] if b.get('cache_control')]
    assert len(ccs) <= 4, f"'A maximum of 4 blocks with cache_control may be provided. Found {len(ccs)}.'"
    # prompt caching docs, mixing TTLs: "cache entries with longer TTL must appear before shorter TTLs"
    ttls = [c.get('ttl') or '5m' for c in ccs]
    assert ttls == sorted(ttls, key=lambda t: t!='1h'), f"a 1h cache_control after a 5m one: {ttls}"
    if msgs and msgs[-1]['role']=='assistant':
        c = msgs[-1]['content']
        last = c if isinstance(c, str) else (c[-1].get('text') if c and c[-1].get('type')=='text' else None)
        assert last is None or last==last.rstrip(), "'messages: final assistant content cannot end with trailing whitespace'"
    for i, m in enumerate(msgs):
        c = m['content']
        assert c, f"$[{i}]: 'messages: all messages must have non-empty content'"  # except an optional final assistant turn
        # "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after ... Each `tool_use` block must
        # have a corresponding `tool_result` block in the next message" (the Messages API's 400 for a dangling call)
        if m['role']=='user' and prev_uses:
            missing = prev_uses - {b.get('tool_use_id') for b in c if isinstance(b, dict) and b.get('type')=='tool_result'}
            assert not missing, f"$[{i}]: 'tool_use ids were found without tool_result blocks immediately after: {sorted(missing)}'"
        if isinstance(c, str): prev_uses = set(); continue
        kinds = [b.get('type')=='tool_result' for b in c]
        # "In the user message containing tool results, the tool_result blocks must come FIRST in the content array"
        assert kinds==sorted(kinds, reverse=True), f"$[{i}]: tool_result blocks must come first in the content"
        for j, b in enumerate(c):
            if b.get('type')=='tool_use':  # "messages.N.content.M.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
                assert _ID.fullmatch(b['id']), f"$[{i}].content[{j}].id: String should match pattern '^[a-zA-Z0-9_-]+$'"
        for j, b in enumerate(c):
            if b.get('type')=='text': assert not _blank(b['text']), f"$[{i}].content[{j}]: 'text content blocks must contain non-whitespace text'"
            if b.get('type')=='tool_result':
                assert b['tool_use_id'] in prev_uses, f"$[{i}].content[{j}]: 'unexpected tool_use_id found in tool_result blocks'"
                for k, x in enumerate(b.get('content') or []) if not isinstance(b.get('content'), str) else []:
                    if x.get('type')=='text': assert not _blank(x['text']), f"$[{i}].content[{j}].content[{k}]: blank text"
        # "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after ... Each `tool_use` block must
        # have a corresponding `tool_result` block in the next message" (the Messages API's 400 for a dangling call)
        uses = [b['id'] for b in c if b.get('type')=='tool_use']
        assert len(set(uses))==len(uses), f"$[{i}]: 'tool_use ids must be unique'"
        prev_uses = set(uses) if m['role']=='assistant' else set()

def _rules_gemini(contents):
    for i, c in enumerate(contents):
        assert c.get('parts'), f"$[{i}]: 'contents.parts must not be empty'"
        # Gemini's 400: "Please ensure that function call turn comes immediately after a user turn or after a function
        # response turn." (pydantic-ai's google model opens such a history with an empty user turn for this reason)
        calls = any('function_call' in p or 'functionCall' in p for p in c.get('parts') or [])
        if calls and c.get('role')=='model':
            assert i, f"$[{i}]: 'function call turn comes immediately after a user turn or after a function response turn'"
        # #17E2: the 400's other half, "Please ensure that function response turn comes immediately after a function call
        # turn." (a history opening with function responses, as pydantic-ai's test_google_splits_tool_return_from_user_prompt)
        if c.get('role')!='model' and any('function_response' in p or 'functionResponse' in p for p in c.get('parts') or []):
            prev = contents[i-1] if i else {}
            assert any('function_call' in p or 'functionCall' in p for p in prev.get('parts') or []), \
                f"$[{i}]: 'function response turn comes immediately after a function call turn'"

def _rules_bedrock(msgs):
    names = []
    # "A conversation must start with a user message. Try again with a conversation that starts with a user message."
    assert not msgs or msgs[0]['role']=='user', "$[0]: 'A conversation must start with a user message'"
    for i, m in enumerate(msgs):
        for j, b in enumerate(m['content']):
            tid = (b.get('toolUse') or b.get('toolResult') or {}).get('toolUseId')
            # botocore's ToolUseId: min 1, max 64, pattern [a-zA-Z0-9_-]+ (newer models add '.' and ':'; the narrower one holds for both)
            if tid is not None: assert _ID.fullmatch(tid) and len(tid) <= 64, f"$[{i}].content[{j}]: toolUseId {tid!r} breaks ToolUseId"
        assert m['content'], f"$[{i}]: empty content"
        if i: assert m['role']!=msgs[i-1]['role'], f"$[{i}]: 'A conversation must alternate between user and assistant roles'"
        # #17E2: "The number of toolResult blocks at messages.N.content exceeds the number of toolUse blocks of previous
        # turn." (Converse's ValidationException for results whose calls are not in the turn before)
        nres = sum('toolResult' in b for b in m['content']) if m['role']=='user' else 0  # a server tool's are the model's
        if nres: assert nres <= sum('toolUse' in b for b in (msgs[i-1]['content'] if i else [])), \
            f"$[{i}]: 'The number of toolResult blocks exceeds the number of toolUse blocks of previous turn'"
        for j, b in enumerate(m['content']):
            if 'text' in b: assert not _blank(b['text']), f"$[{i}].content[{j}]: 'The text field in the ContentBlock object is blank'"
            if 'document' in b: names.append(b['document']['name'])
            for x in (b.get('toolResult') or {}).get('content') or []:
                if 'document' in x: names.append(x['document']['name'])
        if any('document' in b for b in m['content']):
            assert any('text' in b for b in m['content']), f"$[{i}]: a message with a document needs a text block"
    assert len(set(names))==len(names), f"'Messages can't contain duplicate document names': {names}"

def rules_gemini3(contents):
    "Gemini 3: 'Function call is missing a thought_signature in functionCall parts' (the first call of each model turn needs one)"
    for i, c in enumerate(contents):
        fcs = [p for p in c.get('parts') or [] if 'function_call' in p or 'functionCall' in p]
        if c.get('role')=='model' and fcs:
            assert fcs[0].get('thought_signature') or fcs[0].get('thoughtSignature'), f"$[{i}]: 'Function call is missing a thought_signature'"

RULES = dict(openai=_rules_openai, openai_chat=_rules_chat, anthropic=_rules_anthropic, gemini=_rules_gemini, bedrock=_rules_bedrock)

def check(api, msgs, **kw):
    "Check `msgs` for `api` (a key of `APIS`): the types, then the documented rules they can't express; returns the request body"
    body = APIS[api](msgs, **kw)
    RULES[api](msgs)
    return body

# ---------------------------------------------------------------- response builders
def _no_extras(m, path='$'):
    "Assert no pydantic model in `m` kept keys its type does not declare"
    from pydantic import BaseModel
    if isinstance(m, BaseModel):
        assert not m.model_extra, f'{path}: undeclared keys {sorted(m.model_extra)} in {type(m).__name__}'
        for k in type(m).model_fields: _no_extras(getattr(m, k), f'{path}.{k}')
    elif isinstance(m, (list, tuple)):
        for i, x in enumerate(m): _no_extras(x, f'{path}[{i}]')

def _validated(cls, d, **dump):
    m = cls.model_validate(d)
    _no_extras(m)
    got = m.model_dump(mode='json', exclude_unset=True, **dump)
    assert got == d, f'{cls.__name__}.model_validate changed the example:\n{got}\n!=\n{d}'
    return m

def openai_response(text='Hello!', reasoning=True, tool_call=False):
    "An `openai.types.responses.Response` built from the spec's documented example"
    from openai.types.responses import Response
    d = _doc_example('/responses', 'Reasoning')
    d.pop('store')  # documented in the example, but not a field of the SDK's `Response`
    msg = d['output'][0]
    msg['content'][0].update(text=text, logprobs=[])  # the spec's OutputTextContent requires logprobs; the live API sends []
    out = [msg]
    if reasoning: out.insert(0, dict(type='reasoning', id='rs_67ccd7eca01881908ff0b5146584e408', encrypted_content='gAAAAABoISQ24OyVRYbkYfukTx6nHrpoXk',
                                     summary=[dict(type='summary_text', text='**Answering a riddle**\n\nThe user asks a classic riddle.')]))
    if tool_call: out.append(_doc_example('/responses', 'Functions')['output'][0])
    d['output'] = out
    return _validated(Response, d)

def chat_completion(text='Hello!', tool_call=False):
    "An `openai.types.chat.ChatCompletion` built from the spec's documented example"
    from openai.types.chat import ChatCompletion
    d = _doc_example('/chat/completions', 'Functions' if tool_call else 'Default')
    if not tool_call: d['choices'][0]['message']['content'] = text
    return _validated(ChatCompletion, d)

def anthropic_message(text='Hello!', thinking=True, tool_use=False):
    "An `anthropic.types.Message` with optional thinking (with signature) and tool_use blocks"
    from anthropic.types import Message
    return _validated(Message, _ant_example(text, thinking, tool_use))

def gemini_response(text='Hello!', thought=True, function_call=False):
    "A `GenerateContentResponse` as the real client parses it, with a bytes `thought_signature` when `thought`"
    from google.genai import types
    d = _gem_example(text, thought, function_call)
    _validated(types.GenerateContentResponse, d, by_alias=True)
    _io['gemini_resp'] = d
    try: return _gem().models.generate_content(model='gemini-2.5-flash', contents='hi')
    finally: _io.pop('gemini_resp')

def bedrock_response(text='Hello!', reasoning=True, tool_use=False):
    "The dict boto3's `converse` returns, parsed by the real client"
    d = _bed_example(text, reasoning, tool_use)
    _io['bedrock_resp'] = d
    try: r = _bed().converse(modelId=MODEL_ID, messages=[dict(role='user', content=[dict(text='hi')])])
    finally: _io.pop('bedrock_resp')
    got = {k: v for k, v in r.items() if k != 'ResponseMetadata'}
    assert got == d, f'boto3 dropped or changed keys:\n{got}\n!=\n{d}'
    return r

# ---------------------------------------------------------------- cache marks across a whole request
def _ttl_order(ttls, what):
    # "a 1-hour cache entry must appear before any 5-minute cache entries", checked in prefix order (tools, system, messages)
    assert ttls == sorted(ttls, key=lambda t: t != '1h'), f"{what}: a 1h cache mark after a 5m one: {ttls}"

def rules_cache(api, req):
    "The documented limits on cache marks over a whole request (`mk_request`'s keyword form), in the prefix's order"
    if api == 'anthropic':
        # platform.claude.com/docs/en/build-with-claude/prompt-caching: "You can define up to 4 cache breakpoints";
        # the prefix is "tools, system, and messages (in that order)"
        sys_ = req.get('system') if isinstance(req.get('system'), list) else []
        blocks = list(req.get('tools') or []) + sys_ + [b for m in req['messages'] if isinstance(m['content'], list) for b in m['content']]
        ccs = [b['cache_control'] for b in blocks if b.get('cache_control')] + ([req['cache_control']] if req.get('cache_control') else [])
        # automatic caching (a top-level cache_control) takes one of the 4 slots: "If 4 explicit block-level breakpoints already exist, the API returns a 400"
        assert len(ccs) <= 4, f"'A maximum of 4 blocks with cache_control may be provided. Found {len(ccs)}.'"
        _ttl_order([c.get('ttl') or '5m' for c in ccs], api)
        for b in blocks:  # "Thinking blocks cannot be cached directly"; "Empty text blocks cannot be cached"
            if b.get('cache_control'):
                assert b.get('type') not in ('thinking', 'redacted_thinking'), 'cache_control on a thinking block'
                assert b.get('type') != 'text' or b['text'].strip(), 'cache_control on an empty text block'
    elif api == 'bedrock':
        # docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html: Claude models take at most 4 checkpoints, in
        # system, messages and tools; Amazon Nova's "Maximum number of cache checkpoints: 4" in system and messages only
        tools = (req.get('toolConfig') or {}).get('tools') or []
        cps = [b['cachePoint'] for b in tools + list(req.get('system') or []) + [b for m in req['messages'] for b in m['content']] if 'cachePoint' in b]
        assert len(cps) <= 4, f"at most 4 cache checkpoints per request, not {len(cps)}"
        _ttl_order([c.get('ttl') or '5m' for c in cps], api)
        if 'nova' in (req.get('modelId') or ''): assert not any('cachePoint' in t for t in tools), 'Amazon Nova caches no tools'
        for m in req['messages']:  # a cache point follows content: it isn't a message's first block
            assert 'cachePoint' not in m['content'][0], 'a cache point as the first block of a message'
    elif api == 'gemini':
        cfg = req.get('config') or {}
        # "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config"
        if cfg.get('cached_content'):
            assert not {'system_instruction', 'tools', 'tool_config'} & set(cfg), f"cached_content with {sorted(cfg)}"
    elif api in ('openai', 'openai_chat'):
        key = req.get('prompt_cache_key')
        assert key is None or isinstance(key, str) and len(key) <= 64, f"prompt_cache_key: 'A key ... maxLength 64', not {key!r}"

def check_cache_create(kw):
    "Check `client.caches.create(**kw)` through the real google-genai client: the config strictly, then the body it sends"
    from google.genai import types
    cfg = kw['config']
    _gem_validate(types.CreateCachedContentConfig, cfg, '$config')
    for i, c in enumerate(cfg.get('contents') or []): _gem_validate(types.Content, c, f'$config.contents[{i}]')
    _io['gemini_resp'] = dict(name='cachedContents/abc123', model=f"models/{kw['model']}", expireTime='2026-12-01T12:00:00Z')
    try: return _send('gemini', lambda: _gem().caches.create(model=kw['model'], config=types.CreateCachedContentConfig.model_validate(cfg)))
    finally: _io.pop('gemini_resp')

# ---------------------------------------------------------------- image limits (what fit=True must meet)
def _images(api, msgs):
    "`(media type, bytes)` of every inline image in `msgs`"
    out = []
    def walk(o):
        if isinstance(o, list):
            for x in o: walk(x)
        if not isinstance(o, dict): return
        if api == 'anthropic' and o.get('type') == 'image' and (o.get('source') or {}).get('type') == 'base64':
            out.append((o['source']['media_type'], base64.b64decode(o['source']['data']), len(o['source']['data'])))
        elif api in ('openai', 'openai_chat') and o.get('type') in ('input_image', 'image_url'):
            u = o['image_url'] if isinstance(o['image_url'], str) else o['image_url']['url']
            if u.startswith('data:'):
                h, d = u.split(',', 1); out.append((h[5:].split(';')[0], base64.b64decode(d), len(d)))
        elif api == 'gemini' and 'inline_data' in o and o['inline_data']['mime_type'].startswith('image/'):
            d = o['inline_data']['data']; out.append((o['inline_data']['mime_type'], d, None))
        elif api == 'bedrock' and 'image' in o and 'bytes' in (o['image'].get('source') or {}):
            d = o['image']['source']['bytes']; out.append(('image/' + o['image']['format'].replace('jpeg', 'jpeg'), d, None))
        for v in o.values(): walk(v)
    walk(msgs)
    return out

_IMG_MTS = dict(openai={'image/png', 'image/jpeg', 'image/webp', 'image/gif'}, anthropic={'image/png', 'image/jpeg', 'image/gif', 'image/webp'},
                gemini={'image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'}, bedrock={'image/png', 'image/jpeg', 'image/gif', 'image/webp'})
_IMG_MTS['openai_chat'] = _IMG_MTS['openai']

def rules_images(api, msgs):
    "Documented image limits, checked on the decoded images (Pillow): format, bytes, pixels, animation"
    from PIL import Image
    ims = _images(api, msgs)
    for mt, b, n64 in ims:
        im = Image.open(io.BytesIO(b))
        assert Image.MIME.get(im.format) == mt, f'an image declared {mt} is {im.format}'
        assert mt in _IMG_MTS[api], f'{api} takes no {mt}'
        w, h = im.size
        if api in ('openai', 'openai_chat'):  # images-vision: "Non-animated GIF (.gif)"
            assert not getattr(im, 'is_animated', False), 'OpenAI takes no animated GIF'
        if api == 'anthropic':  # vision: "maximum ... 8000x8000 px"; "more than 20 images ... 2000 x 2000 px"; 5 MB base64 (API error at 5,242,880)
            assert n64 <= 5 * 1024 * 1024, f'image of {n64:,} bytes of base64 over 5 MB'
            px = 2000 if len(ims) > 20 else 8000
            assert max(w, h) <= px, f'{w}x{h} over {px} px'
        if api == 'bedrock':  # ImageBlock: "The maximum height and width of an image is 8000 pixels", "3.75 MB"
            assert len(b) <= 3_932_160 and max(w, h) <= 8000, f'{w}x{h}, {len(b):,} bytes'
    if api == 'bedrock': assert len(ims) <= 20, 'Converse takes at most 20 images'
    return ims
