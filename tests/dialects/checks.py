"""What each OpenAI-compatible server accepts, to judge a dialect's wire body by (tests/test_dialects.py).

Two layers, said apart in every failure:
1. **artefact** - the server's own request type. For the eight servers with an SDK of their own, its JSON Schema,
   generated from the SDK's TypedDict/dataclass by `make_schemas.py` and closed (`additionalProperties: false`, so an
   undeclared key fails; the SDK name and version are in `schemas.json.gz`). For the others, OpenAI's own types
   through the real openai SDK (`oracle.APIS['openai_chat']`), with the server's documented extra fields taken out
   first (they are checked by its rules).
2. **rules** - the server's documented or observed rules that no artefact encodes, each with the evidence it comes
   from (the research is in dialects.md and the dialect notebooks). Ported from the research validators.
"""
import copy, functools, gzip, json, re
from pathlib import Path
import oracle

HERE = Path(__file__).parent

class Refused(AssertionError):
    "A body the server's artefact or rules refuse"

@functools.cache
def schemas() -> dict:
    return json.loads(gzip.decompress((HERE/'schemas.json.gz').read_bytes()))

@functools.cache
def _validator(api):
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schemas()[api]['schema'])

def schema_errors(api, body) -> list:
    "Errors of `body` against the server's SDK schema, best first"
    from jsonschema.exceptions import best_match, relevance
    errs = sorted(_validator(api).iter_errors(body), key=relevance)
    best = best_match(errs)
    return [f'{e.json_path}: {e.message[:200]}' for e in ([best] if best else []) + [e for e in errs if e is not best]]

# ---------------------------------------------------------------- the artefact
# Fields and message keys each server documents beyond OpenAI's, taken out before OpenAI's types judge the rest
EXTRAS = dict(
    deepseek=dict(top={'thinking'}, asst={'reasoning_content', 'prefix'}),
    xai=dict(),
    ollama=dict(top={'reasoning'}, asst={'reasoning'}),
    vllm=dict(top={'continue_final_message', 'add_generation_prompt', 'top_k', 'min_p', 'repetition_penalty',
                   'chat_template_kwargs', 'include_reasoning', 'thinking_token_budget', 'structured_outputs'},
              asst={'reasoning', 'reasoning_content'}),
    llamacpp=dict(top={'top_k', 'min_p', 'n_predict', 'repeat_penalty', 'cache_prompt', 'grammar', 'json_schema',
                       'chat_template_kwargs', 'reasoning_format'}, asst={'reasoning_content'}),
    lmstudio=dict(top={'top_k', 'repeat_penalty', 'ttl', 'draft_model'}),
    gemini_openai=dict(top={'extra_body'}, call={'extra_content'}),
    anthropic_openai=dict(top={'thinking'}),
    bedrock_openai=dict(),
    azure=dict(),
)
# where the SDK's schema and the server differ: HF's hub types have no `tool_call_id` (TGI ignores it, the router's
# providers need it: https://huggingface.co/docs/inference-providers/index), and name a call's `arguments` by the
# alias TGI also reads them by, `parameters` (https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs)
SCHEMA_ALLOW = dict(huggingface=dict(tool={'tool_call_id'}))

def _hub_calls(b):
    b = copy.deepcopy(b)
    for m in b.get('messages') or []:
        for c in m.get('tool_calls') or []: c['function']['parameters'] = c['function'].pop('arguments')
    return b
SCHEMA_FIX = dict(huggingface=_hub_calls)

def _strip(body, top=(), asst=(), call=(), tool=()):
    b = copy.deepcopy(body)
    for k in top: b.pop(k, None)
    for m in b.get('messages') or []:
        for k in (asst if m.get('role') == 'assistant' else tool if m.get('role') == 'tool' else ()): m.pop(k, None)
        for c in m.get('tool_calls') or []:
            for k in call: c.pop(k, None)
    return b

def chat_check(body, **extras):
    "OpenAI's own types and client (the oracle) on `body` without the server's documented extras; then Chat's rules"
    b = _strip(body, **extras)
    msgs = b.pop('messages')
    b.pop('model', None)
    try:
        oracle.APIS['openai_chat'](msgs, **b)
        oracle.RULES['openai_chat'](msgs, id_max=None)  # (OpenAI's 40-character call ids: its service's alone)
    except AssertionError as e: raise Refused(f'[artefact: openai Chat] {e}') from None

def artefact(api, body):
    "The server's artefact on `body` (see the module's docstring)"
    if api in schemas():
        errs = schema_errors(api, SCHEMA_FIX.get(api, lambda b: b)(_strip(body, **SCHEMA_ALLOW.get(api, {}))))
        if errs: raise Refused(f"[artefact: {schemas()[api]['sdk']} {schemas()[api]['version']}] " + '; '.join(errs[:3]))
    else: chat_check(body, **EXTRAS[api])

# ---------------------------------------------------------------- the rules
RULES = {}  # api -> [(rule id, evidence url, check)]

def rule(api, rid, url):
    "Register check `f(body)` (an assertion) as rule `rid` of `api`, from the evidence at `url`"
    def deco(f): RULES.setdefault(api, []).append((rid, url, f)); return f
    return deco

def msgs(b): return b.get('messages') or []
def parts(m): return m.get('content') if isinstance(m.get('content'), list) else []
def image_urls(b):
    for m in msgs(b):
        for p in parts(m):
            if isinstance(p, dict) and p.get('type') == 'image_url':
                u = p['image_url']
                yield u if isinstance(u, str) else u.get('url', '')
def last_role_ok(b, ok): return not msgs(b) or msgs(b)[-1].get('role') in ok
def alternates(roles): return all(a != b for a, b in zip(roles, roles[1:]))

def check(api, body):
    "The server's artefact, then each of its rules, on wire body `body`"
    artefact(api, body)
    for rid, url, f in RULES.get(api, []):
        try: f(body)
        except AssertionError as e: raise Refused(f'[{api}.{rid}] {e} ({url})') from None

def broken(api, body) -> list:
    "The ids of `api`'s rules that `body` breaks (the artefact not asked)"
    out = []
    for rid, url, f in RULES.get(api, []):
        try: f(body)
        except AssertionError: out.append(rid)
    return out

# DeepSeek ----------------------------------------------------------------
def _thinking(b): return (b.get('thinking') or {}).get('type') != 'disabled'

@rule('deepseek', 'reasoning_content_tool_turns', 'https://api-docs.deepseek.com/guides/thinking_mode')
def _(b):
    for i, m in enumerate(msgs(b)):
        if _thinking(b) and m.get('role') == 'assistant' and m.get('tool_calls'):
            assert isinstance(m.get('reasoning_content'), str), f"messages[{i}]: a tool-call turn without reasoning_content"

@rule('deepseek', 'max_tokens_field', 'https://github.com/earendil-works/pi/issues/8018')
def _(b): assert 'max_completion_tokens' not in b, "max_completion_tokens is ignored: no cap applies"

@rule('deepseek', 'roles', 'https://github.com/farion1231/cc-switch/issues/3330')
def _(b): assert all(m.get('role') in ('system', 'user', 'assistant', 'tool') for m in msgs(b)), "unknown variant `developer`"

@rule('deepseek', 'response_format', 'https://github.com/NousResearch/hermes-agent/issues/102849')
def _(b): assert (b.get('response_format') or {}).get('type') in (None, 'text', 'json_object'), "This response_format type is unavailable now"

@rule('deepseek', 'thinking_tool_choice', 'https://github.com/deepseek-ai/DeepSeek-V3/issues/1376')
def _(b): assert not _thinking(b) or b.get('tool_choice') in (None, 'auto', 'none'), "Thinking mode does not support this tool_choice"

@rule('deepseek', 'content_parts', 'https://github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/591')
def _(b): assert all(p.get('type') in ('text', 'image_url') for m in msgs(b) for p in parts(m)), "unknown variant, expected `text`"

@rule('deepseek', 'prefix', 'https://api-docs.deepseek.com/guides/chat_prefix_completion')
def _(b):
    ms = msgs(b)
    assert not any(m.get('prefix') for m in ms[:-1]), "prefix only on the last message"
    last = ms[-1] if ms else {}
    assert last.get('role') != 'assistant' or last.get('tool_calls') or last.get('prefix') is True, "a trailing assistant message is continued only with prefix: true"

# Mistral ----------------------------------------------------------------
@rule('mistral', 'tool_call_id', 'https://github.com/karthink/gptel/issues/1203')
def _(b):
    ids = [c.get('id') for m in msgs(b) for c in m.get('tool_calls') or []] + [m.get('tool_call_id') for m in msgs(b) if m.get('role') == 'tool']
    assert all(isinstance(i, str) and re.fullmatch('[a-zA-Z0-9]{9}', i) for i in ids), f"tool call ids must be 9 of a-z, A-Z, 0-9: {ids}"

@rule('mistral', 'user_after_tool', 'https://github.com/avante-corp/avante.nvim/pull/2695')
def _(b):
    rs = [m.get('role') for m in msgs(b)]
    assert ('tool', 'user') not in zip(rs, rs[1:]), "Unexpected role 'user' after role 'tool'"

@rule('mistral', 'last_role', 'https://github.com/huggingface/smolagents/issues/757')
def _(b):
    ms = msgs(b)
    assert last_role_ok(b, ('user', 'tool')) or ms[-1].get('prefix') is True, "Expected last role User or Tool (or Assistant with prefix True)"
    assert not any(m.get('prefix') for m in ms[:-1]), "prefix only on the last message"

# Groq ----------------------------------------------------------------
@rule('groq', 'unsupported_fields', 'https://console.groq.com/docs/openai')
def _(b):
    assert not {'logprobs', 'logit_bias', 'top_logprobs'} & set(b), "logprobs, logit_bias, top_logprobs are not supported"
    assert b.get('n') in (None, 1), "n must be 1"
    assert not any('name' in m for m in msgs(b)), "messages[].name is not supported"

@rule('groq', 'reasoning_history', 'https://github.com/tashfeenahmed/freellmapi/issues/1070')
def _(b): assert not any('reasoning_content' in m for m in msgs(b)), "property 'reasoning_content' is unsupported"

@rule('groq', 'stop', 'https://github.com/groq/groq-python/blob/main/src/groq/types/chat/completion_create_params.py')
def _(b): assert not isinstance(b.get('stop'), list) or len(b['stop']) <= 4, "up to 4 stop sequences"

# Fireworks ----------------------------------------------------------------
@rule('fireworks', 'model_path', 'https://docs.fireworks.ai/tools-sdks/openai-compatibility')
def _(b): assert str(b.get('model', '')).startswith('accounts/'), "model is accounts/<account>/models/<model>"

# xAI ----------------------------------------------------------------
@rule('xai', 'image_types', 'https://docs.x.ai/developers/model-capabilities/images/understanding')
def _(b): assert all(not u.startswith('data:') or re.match(r'data:image/(jpeg|jpg|png);base64,', u) for u in image_urls(b)), "jpg/png only"

@rule('xai', 'reasoning_unsupported', 'https://github.com/ChatGPTNextWeb/NextChat/issues/6443')
def _(b):
    m = str(b.get('model', ''))
    if 'non-reasoning' not in m and re.search(r'grok-(3-mini|[4-9])', m):
        assert not {'presence_penalty', 'frequency_penalty', 'stop'} & set(b), "not supported by reasoning models"

# OpenRouter ----------------------------------------------------------------
@rule('openrouter', 'no_reasoning_content', 'https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks')
def _(b): assert not any('reasoning_content' in m for m in msgs(b)), "reasoning goes back as reasoning_details"

# Ollama ----------------------------------------------------------------
@rule('ollama', 'max_tokens_field', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b): assert 'max_completion_tokens' not in b, "max_completion_tokens is not read: no cap applies"

@rule('ollama', 'image_url', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b):
    for u in image_urls(b):
        assert not u.startswith(('http://', 'https://')), "image URLs are not currently supported"
        assert re.match(r'data:image/(jpeg|jpg|png|webp);base64,', u), "invalid image input"

@rule('ollama', 'content_parts', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b): assert all(p.get('type') in ('text', 'image_url', 'input_audio') for m in msgs(b) for p in parts(m)), "invalid message format"

@rule('ollama', 'content_null', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b): assert all(m.get('content') is not None or m.get('tool_calls') for m in msgs(b)), "content null only with tool_calls"

@rule('ollama', 'tool_arguments', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b):
    for m in msgs(b):
        for c in m.get('tool_calls') or []: json.loads(c['function']['arguments'])

@rule('ollama', 'reasoning_history', 'https://github.com/ollama/ollama/blob/main/openai/openai.go')
def _(b): assert not any('reasoning_content' in m for m in msgs(b)), "reasoning is read from `reasoning`; reasoning_content is dropped"

# vLLM ----------------------------------------------------------------
@rule('vllm', 'continue_final_message', 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py')
def _(b):
    assert not (b.get('continue_final_message') and b.get('add_generation_prompt', True)), "needs add_generation_prompt=false"
    if msgs(b) and msgs(b)[-1].get('role') == 'assistant' and not msgs(b)[-1].get('tool_calls'):
        assert b.get('continue_final_message'), "a trailing assistant message is not continued"

@rule('vllm', 'stop_max', 'https://github.com/vllm-project/vllm/blob/main/vllm/envs.py')
def _(b): assert not isinstance(b.get('stop'), list) or len(b['stop']) <= 4, "at most VLLM_MAX_STOP_STRINGS (4)"

@rule('vllm', 'empty_tools', 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py')
def _(b): assert b.get('tools') != [], "tools must not be empty"

@rule('vllm', 'reasoning_history', 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py')
def _(b): assert not any('reasoning_content' in m for m in msgs(b)), "reasoning_content is deprecated: reasoning"

# llama.cpp ----------------------------------------------------------------
@rule('llamacpp', 'tool_choice', 'https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp')
def _(b): assert b.get('tool_choice') in (None, 'auto', 'none', 'required'), "a named tool_choice is treated as auto"

@rule('llamacpp', 'content_parts', 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-common.cpp')
def _(b): assert all(p.get('type') in ('text', 'image_url', 'input_audio') for m in msgs(b) for p in parts(m)), "unsupported content[].type"

@rule('llamacpp', 'prefill', 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-common.cpp')
def _(b):
    ms = msgs(b)
    assert not (len(ms) >= 2 and ms[-1].get('role') == ms[-2].get('role') == 'assistant'), "Cannot have 2 or more assistant messages at the end"
    assert not (ms and ms[-1].get('role') == 'assistant' and ms[-1].get('tool_calls')), "Cannot continue an assistant message with tool calls"

@rule('llamacpp', 'reasoning_history', 'https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp')
def _(b): assert not any('reasoning' in m for m in msgs(b)), "history reasoning is read from reasoning_content"

# LM Studio ----------------------------------------------------------------
@rule('lmstudio', 'response_format', 'https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/189')
def _(b): assert (b.get('response_format') or {}).get('type') in (None, 'json_schema', 'text'), "must be json_schema or text"

@rule('lmstudio', 'tool_choice', 'https://github.com/lmstudio-ai/docs/blob/main/1_developer/api-changelog.md')
def _(b): assert b.get('tool_choice') in (None, 'auto', 'none', 'required'), "auto, none or required"

# Gemini's endpoint ----------------------------------------------------------------
def _gem_schema(s, path):
    if not isinstance(s, dict): return
    assert not isinstance(s.get('type'), list), f"{path}: a list-valued type is 400 (Proto field is not repeating)"
    assert not {'$ref', '$schema'} & set(s), f"{path}: $ref/$schema are 400 (Unknown name)"
    for k, sub in (s.get('properties') or {}).items(): _gem_schema(sub, f'{path}.{k}')
    if isinstance(s.get('items'), dict): _gem_schema(s['items'], f'{path}.items')
    for k in ('anyOf', 'oneOf'):
        for j, sub in enumerate(s.get(k) or []): _gem_schema(sub, f'{path}.{k}[{j}]')

@rule('gemini_openai', 'schema_proto', 'https://github.com/Kilo-Org/kilocode/issues/5333')
def _(b):
    for t in b.get('tools') or []: _gem_schema(t['function'].get('parameters') or {}, f"tools.{t['function']['name']}")
    if (rf := b.get('response_format') or {}).get('json_schema'): _gem_schema(rf['json_schema'].get('schema'), 'response_format')

@rule('gemini_openai', 'thought_signature', 'https://ai.google.dev/gemini-api/docs/thought-signatures')
def _(b):
    for i, m in enumerate(msgs(b)):
        if m.get('role') == 'assistant' and m.get('tool_calls'):
            sig = ((m['tool_calls'][0].get('extra_content') or {}).get('google') or {}).get('thought_signature')
            assert isinstance(sig, str) and sig, f"messages[{i}]: Function call is missing a thought_signature"

@rule('gemini_openai', 'function_name', 'https://github.com/google-gemini/gemini-cli/issues/7664')
def _(b): assert all(re.fullmatch(r'[A-Za-z_][A-Za-z0-9_.\-]{0,63}', t['function']['name']) for t in b.get('tools') or [])

# Anthropic's endpoint ----------------------------------------------------------------
@rule('anthropic_openai', 'fields', 'https://platform.claude.com/docs/en/api/openai-sdk')
def _(b):
    assert b.get('n') in (None, 1), "n must be 1"
    assert (b.get('temperature') or 0) <= 1, "temperature is capped at 1"
    ignored = {'response_format', 'reasoning_effort', 'seed', 'logprobs', 'top_logprobs', 'presence_penalty',
               'frequency_penalty', 'logit_bias', 'metadata', 'prediction', 'service_tier', 'store', 'user', 'modalities', 'audio'}
    assert not ignored & set(b), f"ignored: {sorted(ignored & set(b))}"
    assert not any(t['function'].get('strict') for t in b.get('tools') or []), "strict is ignored"

@rule('anthropic_openai', 'system_hoisting', 'https://platform.claude.com/docs/en/api/openai-sdk')
def _(b):
    rs = [m.get('role') for m in msgs(b)]
    n = next((i for i, r in enumerate(rs) if r not in ('system', 'developer')), len(rs))
    assert not {'system', 'developer'} & set(rs[n:]), "a system message in the middle is hoisted to the start"

@rule('anthropic_openai', 'content', 'https://platform.claude.com/docs/en/api/openai-sdk')
def _(b): assert all(p.get('type') in ('text', 'image_url') for m in msgs(b) for p in parts(m)), "audio and file parts are ignored"

# Bedrock's endpoint ----------------------------------------------------------------
_BEDROCK = {'messages', 'model', 'store', 'reasoning_effort', 'metadata', 'frequency_penalty', 'logit_bias', 'logprobs',
            'top_logprobs', 'max_tokens', 'max_completion_tokens', 'n', 'modalities', 'prediction', 'audio', 'presence_penalty',
            'response_format', 'seed', 'service_tier', 'stop', 'stream', 'stream_options', 'temperature', 'top_p', 'tools',
            'tool_choice', 'parallel_tool_calls', 'user', 'function_call', 'functions'}

@rule('bedrock_openai', 'allowlist', 'https://github.com/BerriAI/litellm/issues/13959')
def _(b): assert set(b) <= _BEDROCK, f"unknown field {sorted(set(b) - _BEDROCK)}"

@rule('bedrock_openai', 'text_only', 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-openai.html')
def _(b): assert all(p.get('type') == 'text' for m in msgs(b) for p in parts(m)), "gpt-oss takes text only"

# Azure ----------------------------------------------------------------
@rule('azure', 'unrecognized_arguments', 'https://github.com/openai/openai-python/issues/1724')
def _(b): assert 'prompt_cache_breakpoint' not in json.dumps(b), "Unrecognized request argument supplied: prompt_cache_breakpoint"

# Perplexity ----------------------------------------------------------------
@rule('perplexity', 'alternation', 'https://github.com/perplexityai/api-discussion/issues/265')
def _(b):
    rs = [m.get('role') for m in msgs(b)]
    n = next((i for i, r in enumerate(rs) if r != 'system'), len(rs))
    assert 'system' not in rs[n:], "system messages only at the start"
    assert all(r in ('system', 'user', 'assistant', 'tool') for r in rs), "roles system, user, assistant, tool"
    # tool messages answer the assistant's calls: a run of them is the turn after the calls (unverified: dialects.md)
    turns = [r for i, r in enumerate(rs[n:]) if r != 'tool' or rs[n:][i-1] != 'tool']
    assert alternates(turns) and (not turns or turns[0] == 'user'), "user and assistant roles should be alternating"

# Cerebras ----------------------------------------------------------------
@rule('cerebras', 'reasoning_history', 'https://github.com/Alishahryar1/free-claude-code/issues/1136')
def _(b): assert not any('reasoning_content' in m for m in msgs(b)), "property 'messages.reasoning_content' is unsupported"

@rule('cerebras', 'stop', 'https://pypi.org/project/cerebras_cloud_sdk/1.91.0/')
def _(b): assert not isinstance(b.get('stop'), list) or len(b['stop']) <= 4, "up to 4 stop sequences"

# Hugging Face (router; TGI with `tgi_check`) ----------------------------------------------------------------
@rule('huggingface', 'stop_list', 'https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs')
def _(b): assert not isinstance(b.get('stop'), str), "stop is a list of strings"

@rule('huggingface', 'content_parts', 'https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs')
def _(b): assert all(p.get('type') in ('text', 'image_url') for m in msgs(b) for p in parts(m)), "text and image_url parts only"

def tgi_check(b):
    "TGI's own rules (https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs)"
    rf = b.get('response_format')
    if rf is not None:
        assert rf.get('type') in ('json', 'json_object', 'regex', 'json_schema') and 'value' in rf, "422 missing field `value`"
    for i, m in enumerate(msgs(b)):
        assert not (m.get('content') and m.get('tool_calls')), f"messages[{i}]: content and tool_calls: the calls are dropped"
