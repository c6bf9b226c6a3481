"""Issue 18: the OpenAI-compatible servers as dialects, one api each. Each dialect's wire body is judged by its server's
own artefact (its SDK's request schema, vendored in tests/dialects, or OpenAI's types through the real openai SDK for
servers without one) and by the server's documented rules, each citing its evidence (tests/dialects/checks.py).
For every rule, the generic `openai_chat` body (what msgkit sent before) breaks it and the dialect's keeps it."""
import copy, json, os, subprocess, sys, warnings
from pathlib import Path
import pytest
sys.path.insert(0, str(Path(__file__).parent/'dialects'))
import msgkit
from msgkit import mk_request, mk_msgs, mk_msg, mk_toolres, tool_calls, stream_msg, apis, get_api, LossWarning, sample
from msgkit.registry import all_adapters, api_names
from msgkit.adapters.base import Unsupported
from msgkit.errors import InputError, InputTypeError
import checks
from checks import check, broken, RULES, Refused, tgi_check

NAMES = ['deepseek', 'mistral', 'groq', 'together', 'fireworks', 'xai', 'openrouter', 'ollama', 'vllm', 'llamacpp',
         'lmstudio', 'gemini_openai', 'anthropic_openai', 'bedrock_openai', 'azure', 'perplexity', 'cerebras', 'huggingface']
MODEL = dict(deepseek='deepseek-v4-flash', mistral='mistral-medium-latest', groq='openai/gpt-oss-120b',
             together='moonshotai/Kimi-K2-Instruct', fireworks='accounts/fireworks/models/kimi-k2-instruct',
             xai='grok-4.3', openrouter='anthropic/claude-sonnet-4.5', ollama='qwen3', vllm='Qwen/Qwen3-8B',
             llamacpp='local', lmstudio='qwen3-8b', gemini_openai='gemini-3-flash-preview',
             anthropic_openai='claude-sonnet-4-5', bedrock_openai='openai.gpt-oss-120b-1:0', azure='my-gpt-4o',
             perplexity='sonar-pro', cerebras='gpt-oss-120b', huggingface='openai/gpt-oss-120b:cerebras')
png, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()
wav = (b'RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00'
       b'\x02\x00\x10\x00data\x00\x00\x00\x00')
gif = b'GIF89a\x01\x00\x01\x00\x80\x00\x00' + b'\0' * 16

def get_weather(city: str, unit: str = 'C') -> str:
    "Weather in `city`"
    return city

def wire(h, api, **kw):
    "The wire body msgkit makes of history `h` for `api`, its LossWarnings let pass"
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', LossWarning)
        return mk_request(h, api, model=kw.pop('model', MODEL.get(api, 'm')), wire=True, **kw)

def call(id, name='get_weather', args='{"city": "Paris"}'): return dict(id=id, type='function', function=dict(name=name, arguments=args))
def asst(*calls, content=None, **kw): return dict(role='assistant', content=content, **({'tool_calls': list(calls)} if calls else {}), **kw)
def tool(id, content='sunny'): return dict(role='tool', tool_call_id=id, content=content)
def chat_resp(msg, finish='stop', model='m'):
    return dict(id='resp-1', object='chat.completion', created=1767225600, model=model, usage=dict(prompt_tokens=9, completion_tokens=9, total_tokens=18),
                choices=[dict(index=0, finish_reason=finish, message=dict(role='assistant', **msg))])

# ---------------------------------------------------------------- registered as the issue names them
def test_every_dialect_is_an_api():
    "apis() lists the 18 dialects, each with a one-line description; api_names() finds their modules unimported"
    assert set(NAMES) <= set(apis()) and set(apis()) - set(NAMES) == {'openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'}
    d = apis(desc=True)
    assert all(d[n] and '\n' not in d[n] for n in NAMES), {n: d[n] for n in NAMES}
    assert set(NAMES) <= set(api_names()) and 'base' not in api_names()
    assert set(apis(dialects=False)) == {'openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'}
    for n in NAMES: assert callable(getattr(msgkit, f'mk_msg_{n}')) and callable(getattr(msgkit, f'mk_msgs_{n}'))
    assert msgkit.mk_msgs_deepseek(['hi']) == [{'role': 'user', 'content': 'hi'}]

def test_get_api_imports_only_that_dialect():
    code = ("import sys, msgkit; from msgkit.registry import get_api; get_api('mistral'); "
            "print(sorted(m for m in sys.modules if m.startswith('msgkit.adapters.dialects.')))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[1]).stdout
    assert eval(out) == ['msgkit.adapters.dialects.base', 'msgkit.adapters.dialects.mistral']

def test_dialects_are_asked_only_as_the_target():
    "A dialect reads what openai_chat reads: the five APIs read Chat dicts as before, a dialect is asked first as target"
    assert not [o.name for o in all_adapters() if o.name in NAMES]
    assert all_adapters(get_api('mistral'))[0].name == 'mistral' and len(all_adapters(get_api('mistral'))) == 6
    with pytest.raises(ValueError, match="Unknown api 'gpt': msgkit knows anthropic, bedrock, gemini, openai, openai_chat "
                                         r"\(and OpenAI-compatible servers: anthropic_openai, azure"):
        get_api('gpt')

# ---------------------------------------------------------------- each rule: broken by openai_chat's body, kept by the dialect's
call_turn = [asst(call('call_abc123')), tool('call_abc123')]
ds_turn = [chat_resp(dict(content='', reasoning_content='I need the weather.', tool_calls=[call('call_abc123')]), 'tool_calls'), tool('call_abc123')]
think = dict(role='assistant', content='Hello!', reasoning_content='A greeting.')
TOOLS = dict(tools=[get_weather])
# (api, rule, evidence, history, mk_request's options, how: 'fixed' | 'unsupported' | 'refused', openai_chat's own options)
CASES = [
    ('deepseek', 'reasoning_content_tool_turns', 'https://api-docs.deepseek.com/guides/thinking_mode', ['Weather?', *ds_turn], TOOLS, 'fixed', {}),
    ('deepseek', 'reasoning_content_tool_turns', 'https://api-docs.deepseek.com/guides/thinking_mode', ['Weather?', *call_turn], TOOLS, 'fixed', {}),
    ('deepseek', 'max_tokens_field', 'https://github.com/earendil-works/pi/issues/8018', ['hi'], dict(max_tokens=100), 'fixed', {}),
    ('deepseek', 'roles', 'https://github.com/farion1231/cc-switch/issues/3330', [dict(role='developer', content='Be brief.'), 'hi'], {}, 'fixed', {}),
    ('deepseek', 'response_format', 'https://github.com/NousResearch/hermes-agent/issues/102849', ['hi'], dict(schema={'type': 'object'}), 'unsupported', {}),
    ('deepseek', 'thinking_tool_choice', 'https://github.com/deepseek-ai/DeepSeek-V3/issues/1376', ['hi'], dict(TOOLS, tool_choice='required'), 'unsupported', {}),
    ('deepseek', 'content_parts', 'https://github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/591', [[wav, 'Transcribe']], {}, 'refused', {}),
    ('deepseek', 'prefix', 'https://api-docs.deepseek.com/guides/chat_prefix_completion', ['Write code', dict(role='assistant', content='```python\n')], {}, 'fixed', {}),
    ('mistral', 'artefact', 'https://pypi.org/project/mistralai/3.7.0/', ['hi'], dict(max_tokens=100), 'fixed', {}),
    ('mistral', 'artefact', 'https://github.com/charmbracelet/crush/issues/1590', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('mistral', 'artefact', 'https://pypi.org/project/mistralai/3.7.0/', [dict(role='developer', content='Be brief.'), 'hi'], {}, 'fixed', {}),
    ('mistral', 'artefact', 'https://github.com/mistralai/client-python/blob/main/docs/models/audiochunk.md', [[wav, 'Transcribe']], {}, 'fixed', {}),
    ('mistral', 'tool_call_id', 'https://github.com/karthink/gptel/issues/1203', ['Weather?', *call_turn], TOOLS, 'fixed', {}),
    ('mistral', 'user_after_tool', 'https://github.com/avante-corp/avante.nvim/pull/2695', ['Weather?', *call_turn, dict(role='user', content='And tomorrow?')], TOOLS, 'fixed', {}),
    ('mistral', 'last_role', 'https://github.com/huggingface/smolagents/issues/757', ['Write a haiku', dict(role='assistant', content='Autumn')], {}, 'fixed', {}),
    ('groq', 'unsupported_fields', 'https://console.groq.com/docs/openai', [dict(role='user', content='hi', name='ann')], {}, 'fixed', {}),
    ('groq', 'unsupported_fields', 'https://console.groq.com/docs/openai', ['hi'], dict(logprobs=True), 'unsupported', {}),
    ('groq', 'reasoning_history', 'https://github.com/tashfeenahmed/freellmapi/issues/1070', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('groq', 'stop', 'https://github.com/groq/groq-python/blob/main/src/groq/types/chat/completion_create_params.py', ['hi'], dict(stop=list('abcde')), 'refused', {}),
    ('together', 'artefact', 'https://pypi.org/project/together/3.1.1/', ['hi'], dict(max_tokens=100, stop='END'), 'fixed', {}),
    ('together', 'artefact', 'https://pypi.org/project/together/3.1.1/', ['Weather?', *call_turn], TOOLS, 'fixed', {}),
    ('fireworks', 'model_path', 'https://docs.fireworks.ai/tools-sdks/openai-compatibility', ['hi'], dict(model='kimi-k2-instruct'), 'fixed', {}),
    ('xai', 'image_types', 'https://docs.x.ai/developers/model-capabilities/images/understanding', [[gif, 'What is it?']], {}, 'refused', {}),
    ('xai', 'reasoning_unsupported', 'https://github.com/ChatGPTNextWeb/NextChat/issues/6443', ['hi'], dict(stop='END'), 'unsupported', {}),
    ('openrouter', 'no_reasoning_content', 'https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('ollama', 'max_tokens_field', 'https://github.com/ollama/ollama/blob/main/openai/openai.go', ['hi'], dict(max_tokens=100), 'fixed', {}),
    ('ollama', 'image_url', 'https://github.com/ollama/ollama/blob/main/openai/openai.go', [['https://example.com/cat.png', 'What is it?']], {}, 'refused', {}),
    ('ollama', 'content_parts', 'https://github.com/ollama/ollama/blob/main/openai/openai.go', [[pdf, 'Summarise']], {}, 'refused', {}),
    ('ollama', 'reasoning_history', 'https://github.com/ollama/ollama/blob/main/openai/openai.go', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('vllm', 'continue_final_message', 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py', ['Write a haiku', dict(role='assistant', content='Autumn')], {}, 'fixed', {}),
    ('vllm', 'stop_max', 'https://github.com/vllm-project/vllm/blob/main/vllm/envs.py', ['hi'], dict(stop=list('abcde')), 'refused', {}),
    ('vllm', 'reasoning_history', 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('llamacpp', 'tool_choice', 'https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp', ['hi'], dict(TOOLS, tool_choice='get_weather'), 'unsupported', {}),
    ('llamacpp', 'content_parts', 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-common.cpp', [[pdf, 'Summarise']], {}, 'refused', {}),
    ('lmstudio', 'response_format', 'https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/189', ['hi'], dict(response_format={'type': 'json_object'}), 'unsupported', {}),
    ('lmstudio', 'tool_choice', 'https://github.com/lmstudio-ai/docs/blob/main/1_developer/api-changelog.md', ['hi'], dict(TOOLS, tool_choice='get_weather'), 'unsupported', {}),
    ('gemini_openai', 'schema_proto', 'https://github.com/Kilo-Org/kilocode/issues/5333', ['hi'], dict(TOOLS, strict=True), 'fixed', {}),
    ('gemini_openai', 'schema_proto', 'https://github.com/Kilo-Org/kilocode/issues/5333', ['hi'], dict(schema={'type': 'object', 'properties': {'a': {'type': ['string', 'null']}}}), 'fixed', {}),
    ('gemini_openai', 'thought_signature', 'https://ai.google.dev/gemini-api/docs/thought-signatures', ['Weather?', *call_turn], TOOLS, 'fixed', {}),
    ('gemini_openai', 'function_name', 'https://github.com/google-gemini/gemini-cli/issues/7664', ['hi'], dict(tools=[dict(type='function', function=dict(name='1st_tool', parameters={'type': 'object'}))]), 'refused', {}),
    ('anthropic_openai', 'fields', 'https://platform.claude.com/docs/en/api/openai-sdk', ['hi'], dict(schema={'type': 'object'}), 'unsupported', {}),
    ('anthropic_openai', 'fields', 'https://platform.claude.com/docs/en/api/openai-sdk', ['hi'], dict(temperature=1.5), 'unsupported', {}),
    ('anthropic_openai', 'fields', 'https://platform.claude.com/docs/en/api/openai-sdk', ['hi'], dict(n=2), 'unsupported', {}),
    ('anthropic_openai', 'system_hoisting', 'https://platform.claude.com/docs/en/api/openai-sdk', ['hi', 'hello', dict(role='system', content='Be terse.'), dict(role='user', content='ok?')], {}, 'refused', {}),
    ('anthropic_openai', 'content', 'https://platform.claude.com/docs/en/api/openai-sdk', [[wav, 'Transcribe']], {}, 'refused', {}),
    ('bedrock_openai', 'allowlist', 'https://github.com/BerriAI/litellm/issues/13959', ['hi'], dict(prompt_cache_key='k1'), 'unsupported', {}),
    ('bedrock_openai', 'text_only', 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-openai.html', [[png, 'What is it?']], {}, 'refused', {}),
    ('azure', 'unrecognized_arguments', 'https://github.com/openai/openai-python/issues/1724', ['hi'], dict(cache=True), 'refused', {}),
    ('perplexity', 'alternation', 'https://github.com/perplexityai/api-discussion/issues/265', [dict(role='user', content='Hi'), dict(role='user', content='Who won?')], {}, 'fixed', {}),
    ('perplexity', 'alternation', 'https://github.com/perplexityai/api-discussion/issues/265', [dict(role='developer', content='Be brief.'), 'hi'], {}, 'fixed', {}),
    ('perplexity', 'alternation', 'https://github.com/perplexityai/api-discussion/issues/265', ['hi', 'hello', dict(role='system', content='Be terse.'), dict(role='user', content='ok?')], {}, 'refused', {}),
    # from the whole corpus (tests/corpus): Chat's audio dict for Mistral, Chat's image detail for Together, a $ref for
    # Gemini's proto, an assistant opening Perplexity's conversation
    ('mistral', 'artefact', 'https://github.com/mistralai/client-python/blob/main/docs/models/audiochunk.md', [[dict(type='text', text='Transcribe'), dict(type='input_audio', input_audio=dict(data=__import__('base64').b64encode(wav).decode(), format='wav'))]], {}, 'fixed', {}),
    ('together', 'artefact', 'https://pypi.org/project/together/3.1.1/', [[dict(type='text', text='What is it?'), dict(type='image_url', image_url=dict(url='https://example.com/cat.png', detail='high'))]], {}, 'fixed', {}),
    ('gemini_openai', 'schema_proto', 'https://github.com/Kilo-Org/kilocode/issues/5333', ['hi'], dict(tools=[dict(type='function', function=dict(name='who', parameters={'type': 'object', 'properties': {'p': {'$ref': '#/$defs/P'}}, '$defs': {'P': {'type': 'object', 'properties': {'name': {'type': 'string'}}}}}))]), 'fixed', {}),
    ('perplexity', 'alternation', 'https://github.com/perplexityai/api-discussion/issues/265', [dict(role='user', content=None), dict(role='system', content='Be terse.'), dict(role='assistant', content='a1'), dict(role='user', content='q2')], {}, 'refused', {}),
    ('cerebras', 'reasoning_history', 'https://github.com/Alishahryar1/free-claude-code/issues/1136', ['hi', think, 'bye'], {}, 'fixed', dict(reasoning_field='reasoning_content')),
    ('cerebras', 'stop', 'https://pypi.org/project/cerebras_cloud_sdk/1.91.0/', ['hi'], dict(stop=list('abcde')), 'refused', {}),
    ('cerebras', 'artefact', 'https://github.com/egoist/chatwise-releases/issues/1442', ['hi'], dict(store=True), 'unsupported', {}),
    ('huggingface', 'stop_list', 'https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs', ['hi'], dict(stop='END'), 'fixed', {}),
    ('huggingface', 'content_parts', 'https://github.com/huggingface/text-generation-inference/blob/main/router/src/lib.rs', [[wav, 'Transcribe']], {}, 'refused', {}),
]

@pytest.mark.parametrize('api,rid,url,h,kw,how,gkw', CASES, ids=[f'{c[0]}-{c[1]}-{i}' for i, c in enumerate(CASES)])
def test_rule(api, rid, url, h, kw, how, gkw):
    "The rule, with its evidence: openai_chat's body breaks it; the dialect's keeps it, or the dialect says it can't"
    assert rid == 'artefact' or url in [u for r, u, _ in RULES[api] if r == rid], f"{api}.{rid} is not cited from {url}"
    model = kw.get('model', MODEL[api])
    g = wire(copy.deepcopy(h), 'openai_chat', model=model, **{k: v for k, v in kw.items() if k != 'model'}, **gkw)
    if rid == 'artefact': pytest.raises(Refused, checks.artefact, api, g)
    else: assert rid in broken(api, g), f"openai_chat's body keeps {api}.{rid}: {g}"
    before = copy.deepcopy(h)
    if how == 'fixed': check(api, wire(h, api, **kw))
    elif how == 'unsupported':
        with pytest.raises(Unsupported, match=r"\(unsupported='drop' leaves \w+= out\)"): wire(h, api, **kw)
        check(api, wire(h, api, unsupported='drop', **kw))
    else:
        with pytest.raises(ValueError, match=f"api='{api}'"): wire(h, api, **kw)
    assert h == before, 'the history was mutated'

def test_every_dialect_has_its_rules_tested():
    "Each dialect with documented rules has a case for each of them (the list in checks.py)"
    tested = {(c[0], c[1]) for c in CASES}
    untested = {(a, r) for a, rs in RULES.items() for r, _, _ in rs if (a, r) not in tested}
    # kept by construction, and checked on every body below (test_each_dialect_body_is_accepted, the loops, the corpus)
    assert untested <= {('ollama', 'content_null'), ('ollama', 'tool_arguments'), ('llamacpp', 'prefill'),
                        ('llamacpp', 'reasoning_history'), ('vllm', 'empty_tools')}, untested
    assert {c[0] for c in CASES} == set(NAMES)

def test_the_checks_can_fail():
    "Each layer refuses what its server refuses: a key its SDK lacks, a rule's breach"
    with pytest.raises(Refused, match='mistralai'): check('mistral', dict(model='m', messages=[dict(role='user', content='hi')], seed=1))
    with pytest.raises(Refused, match='groq'): check('groq', dict(model='m', messages=[dict(role='user', content='hi', nick='x')]))
    with pytest.raises(Refused, match='openai Chat'): check('deepseek', dict(model='m', messages=[dict(role='user', content='hi')], top_k=1))
    with pytest.raises(Refused, match='mistral.tool_call_id'):
        check('mistral', dict(model='m', messages=[dict(role='user', content='hi'), asst(call('call_1')), tool('call_1')]))
    with pytest.raises(AssertionError): tgi_check(dict(response_format=dict(type='json_schema', json_schema={})))

# ---------------------------------------------------------------- everything a dialect makes passes its server's checks
def rich(api):
    "A history with a system prompt, text, an image, a tool loop with reasoning, and a follow-up"
    img = [] if api == 'bedrock_openai' else [png]
    return [dict(role='system', content='Be brief.'), ['What is the weather where this was taken?', *img],
            chat_resp(dict(content='Let me check.', reasoning_content='Use the tool.', tool_calls=[call('call_w1')]), 'tool_calls'),
            *mk_toolres(dict(id='call_w1', name='get_weather', args={'city': 'Paris'}), 'sunny', api=api),
            chat_resp(dict(content='It is sunny.')), dict(role='user', content='And tomorrow?')]

@pytest.mark.parametrize('api', NAMES)
def test_each_dialect_body_is_accepted(api):
    "A rich history and every option the dialect takes: its server's artefact and rules accept the body"
    kw = dict(tools=[get_weather], max_tokens=500, temperature=0.5, system='You are a weather bot.')
    if get_api(api).efforts: kw['reasoning'] = get_api(api).efforts[-1]
    body = wire(rich(api), api, **kw)
    check(api, body)
    if api == 'huggingface': tgi_check(wire(rich(api), api, tgi=True, schema={'type': 'object'}))
    assert body[get_api(api).max_field] == 500

@pytest.mark.parametrize('api', sorted(set(NAMES) - {'mistral'}))
def test_each_dialect_passes_the_oracles_chat_checks(api):
    "Chat-compatible bodies (all but Mistral's, whose chunks are its own) pass OpenAI's own types and client, the server's extras aside"
    body = wire(rich(api), api, tools=[get_weather], max_tokens=500)
    ex = checks.EXTRAS.get(api) or dict(top={'reasoning_format', 'include_reasoning', 'tool_prompt'}, call={'index'},
                                       asst={'reasoning', 'reasoning_content', 'reasoning_details'})
    checks.chat_check(body, **ex)

# ---------------------------------------------------------------- tool loops across turns
def loop(api, respond, turns=3, **kw):
    "Run a tool loop: each turn's request checked, then the server's response (`respond(i)`) and the results appended"
    h, bodies = ['Plan a trip: check the weather in three cities.'], []
    for i in range(turns):
        body = wire(h, api, tools=[get_weather], **kw)
        check(api, body)
        bodies.append(body)
        r = respond(i)
        h += [r, *mk_toolres(tool_calls(r)[0], f'sunny in city {i}', api=api)]
    return h, bodies

def sdk(d):
    "The response as the openai SDK (used against the server) parses it: extra fields kept"
    from openai.types.chat import ChatCompletion
    return ChatCompletion.model_validate(d)

def test_deepseek_tool_loop_keeps_reasoning_content():
    "Every assistant turn that made calls carries its own reasoning_content back, in every later request"
    respond = lambda i: sdk(chat_resp(dict(content='', reasoning_content=f'Thinking about city {i}.', tool_calls=[call(f'call_{i}')]), 'tool_calls'))
    h, bodies = loop('deepseek', respond)
    last = wire(h, 'deepseek', tools=[get_weather])
    check('deepseek', last)
    got = [m['reasoning_content'] for m in last['messages'] if m.get('tool_calls')]
    assert got == [f'Thinking about city {i}.' for i in range(3)]
    assert 'reasoning_content_tool_turns' in broken('deepseek', wire(h, 'openai_chat', tools=[get_weather]))

def test_openrouter_tool_loop_sends_reasoning_details_back_unmodified():
    dets = lambda i: [dict(type='reasoning.text', text=f'Step {i}.', format='anthropic-claude-v1', index=0, signature=f'Eq{i}sig'),
                      dict(type='reasoning.encrypted', data=f'enc{i}', format='google-gemini-v1', index=1, id=f'tool_{i}')]
    respond = lambda i: sdk(chat_resp(dict(content=None, reasoning=f'Step {i}.', reasoning_details=dets(i), tool_calls=[call(f'toolu_{i}')]), 'tool_calls'))
    h, bodies = loop('openrouter', respond)
    last = wire(h, 'openrouter', tools=[get_weather])
    assert [m['reasoning_details'] for m in last['messages'] if m.get('tool_calls')] == [dets(i) for i in range(3)]

def test_gemini_openai_tool_loop_keeps_thought_signatures():
    "Each call's signature goes back on that call; a parallel call without one stays without; a foreign turn gets the stand-in"
    sig = lambda i: dict(google=dict(thought_signature=f'CiQB{i}sig=='))
    respond = lambda i: sdk(chat_resp(dict(content=None, tool_calls=[{**call(f'function-call-{i}'), 'extra_content': sig(i)},
                                                                    call(f'function-call-{i}b', args='{"city": "Rome"}')]), 'tool_calls'))
    h = ['Weather?', *call_turn]
    for i in range(2):
        r = respond(i)
        h += [r, *mk_toolres(tool_calls(r), ['a', 'b'], api='gemini_openai')]
    body = wire(h, 'gemini_openai', tools=[get_weather])
    check('gemini_openai', body)
    turns = [m['tool_calls'] for m in body['messages'] if m.get('tool_calls')]
    assert turns[0][0]['extra_content'] == dict(google=dict(thought_signature='skip_thought_signature_validator'))
    assert [t[0]['extra_content'] for t in turns[1:]] == [sig(0), sig(1)] and all('extra_content' not in t[1] for t in turns[1:])
    assert 'thought_signature' in broken('gemini_openai', wire(h, 'openai_chat', tools=[get_weather]))

def test_gemini_native_signatures_go_to_its_openai_endpoint():
    "A history from the native gemini API keeps its thought signature (base64) on the call"
    from oracle import gemini_response
    r = gemini_response(function_call=True)
    body = wire(['Weather in Boston?', r, *mk_toolres(tool_calls(r)[0], 'rain', api='gemini_openai')], 'gemini_openai', tools=[get_weather])
    check('gemini_openai', body)
    c = next(m for m in body['messages'] if m.get('tool_calls'))['tool_calls'][0]
    import base64
    assert base64.b64decode(c['extra_content']['google']['thought_signature']) == b'\x0a\x12thought-signature-1'

def test_mistral_ids_stay_paired_across_a_loop():
    "Foreign ids become 9 letters and digits, calls and results alike and the same in every request; Mistral's own stay"
    respond = lambda i: chat_resp(dict(content='', tool_calls=[call(f'Ab{i}dEf{i}gH')]), 'tool_calls', 'mistral-medium-latest')
    h = ['Weather?', asst(call('call_abc123'), call('toolu_01A09q90qw90lq917835lq9')), tool('call_abc123'), tool('toolu_01A09q90qw90lq917835lq9', 'rain')]
    prev = None
    for i in range(3):
        body = wire(h, 'mistral', tools=[get_weather])
        check('mistral', body)
        ids = [(c['id'], m['tool_call_id']) for j, m in enumerate(body['messages']) if m.get('role') == 'tool'
               for c in [next(c for k in range(j, -1, -1) for c in body['messages'][k].get('tool_calls') or [] if c['id'] == m['tool_call_id'])]]
        assert all(a == b for a, b in ids)
        calls = [c['id'] for m in body['messages'] for c in m.get('tool_calls') or []]
        if prev: assert calls[:len(prev)] == prev, 'an earlier turn was renamed differently'
        prev = calls
        r = respond(i)
        h += [r, *mk_toolres(tool_calls(r)[0], 'ok', api='mistral')]
    assert prev[2:] == ['Ab0dEf0gH', 'Ab1dEf1gH'] and len(set(prev)) == len(prev)

def test_a_responses_reasoning_item_goes_on_its_message():
    "A Responses history's reasoning item and the message after it are one assistant message (llama.cpp: two in a row are a 400)"
    h = ['Say hello', dict(type='reasoning', id='rs_1', summary=[], content=[dict(type='reasoning_text', text='Just greet.')]),
         dict(role='assistant', content='hello'), 'Now goodbye']
    for api in ('llamacpp', 'deepseek', 'vllm'):
        body = wire(copy.deepcopy(h), api, reasoning_field='reasoning_content' if api != 'vllm' else 'reasoning')
        check(api, body)
        assert [m['role'] for m in body['messages']] == ['user', 'assistant', 'user'], body
        assert body['messages'][1]['content'] == 'hello' and body['messages'][1][get_api(api).think] == 'Just greet.'
    mb = wire(copy.deepcopy(h), 'mistral', reasoning_field='thinking')
    check('mistral', mb)
    assert [o['type'] for o in mb['messages'][1]['content']] == ['thinking', 'text']

# ---------------------------------------------------------------- each server's responses and streams read back
FIELD = dict(deepseek='reasoning_content', fireworks='reasoning_content', llamacpp='reasoning_content', together='reasoning',
             ollama='reasoning', vllm='reasoning', cerebras='reasoning', openrouter='reasoning_details')

@pytest.mark.parametrize('api', NAMES)
def test_a_response_round_trips(api):
    "The server's response, in its own form, goes back in the next request as the server reads it (reasoning included)"
    f = FIELD.get(api)
    msg = dict(content='Paris.', **({f: 'It is the capital.'} if f and f != 'reasoning_details' else {}))
    if f == 'reasoning_details': msg[f] = [dict(type='reasoning.text', text='It is the capital.', format='unknown', index=0)]
    if api == 'mistral': msg['content'] = [dict(type='thinking', thinking=[dict(type='text', text='It is the capital.')], signature='c2ln'),
                                           dict(type='text', text='Paris.')]
    body = wire(['Capital of France?', chat_resp(msg, model=MODEL[api]), 'And of Italy?'], api)
    check(api, body)
    m = body['messages'][1]
    if api == 'mistral': assert m['content'][0] == msg['content'][0]
    elif f: assert m[f] == msg[f]
    else: assert set(m) == {'role', 'content'}, m

def chunks(deltas, model='m'):
    return [dict(id='c1', object='chat.completion.chunk', created=1, model=model,
                 choices=[dict(index=0, delta=d, finish_reason=f)]) for d, f in deltas]

@pytest.mark.parametrize('api', sorted(FIELD))
def test_a_stream_round_trips(api):
    "A stream's reasoning deltas add up and go back in the server's field"
    f = FIELD[api]
    if f == 'reasoning_details':
        ds = [({f: [dict(type='reasoning.text', text='It is ', index=0, format='unknown')]}, None),
              ({f: [dict(type='reasoning.text', text='the capital.', index=0)]}, None)]
        want = [dict(type='reasoning.text', text='It is the capital.', index=0, format='unknown')]
    else: ds, want = [({f: 'It is '}, None), ({f: 'the capital.'}, None)], 'It is the capital.'
    evs = chunks([({'role': 'assistant'}, None), *ds, ({'content': 'Paris'}, None), ({'content': '.'}, 'stop')])
    m = stream_msg(evs, api=api)
    body = wire(['Capital of France?', m, 'And of Italy?'], api)
    check(api, body)
    assert body['messages'][1][f] == want and body['messages'][1]['content'] == 'Paris.'

def test_mistral_stream_of_thinking_chunks_round_trips():
    th = lambda s, **k: [dict(type='thinking', thinking=[dict(type='text', text=s)], **k)]
    evs = chunks([({'role': 'assistant', 'content': th('It is ')}, None), ({'content': th('the capital.', signature='c2ln')}, None),
                  ({'content': 'Paris'}, None), ({'content': '.'}, 'stop')])
    body = wire(['Capital of France?', stream_msg(evs, api='mistral'), 'And of Italy?'], 'mistral')
    check('mistral', body)
    assert body['messages'][1]['content'] == [*th('It is the capital.', signature='c2ln'), dict(type='text', text='Paris.')]

def test_gemini_openai_stream_keeps_signatures():
    tc = {**call('function-call-1'), 'index': 0, 'extra_content': dict(google=dict(thought_signature='CiQBsig'))}
    m = stream_msg(chunks([({'role': 'assistant', 'tool_calls': [tc]}, None), ({}, 'tool_calls')]), api='gemini_openai')
    body = wire(['Weather?', m, *mk_toolres(tool_calls(m)[0], 'sunny', api='gemini_openai')], 'gemini_openai', tools=[get_weather])
    check('gemini_openai', body)
    assert body['messages'][1]['tool_calls'][0]['extra_content'] == tc['extra_content']

# ---------------------------------------------------------------- a history in any API's form renders for every dialect
def corpus_cases(step):
    import corpus_check
    return corpus_check, corpus_check.load_cases()[::step]

def render_corpus(step):
    """`(rendered, refused, failures)` over the corpus (every `step`th case) for each dialect. A case whose generic
    openai_chat body fails OpenAI's own checks is left to openai_chat (tests/corpus_check.py classifies those: a
    `system=` given as a Gemini Content dict, a history with nothing left to send); the dialects start from its body"""
    cc, cases = corpus_cases(step)
    done, refused, bad = 0, 0, []
    for case in cases:
        try:
            checks.chat_check(wire(cc.history(case), 'openai_chat', system=copy.deepcopy(case.get('system')), tools=copy.deepcopy(case.get('tools'))))
        except Exception: continue
        for api in NAMES:
            h = cc.history(case)
            try: body = wire(h, api, system=copy.deepcopy(case.get('system')), tools=copy.deepcopy(case.get('tools')))
            except (InputError, InputTypeError): refused += 1; continue
            except Exception as e: bad.append((case['id'], api, f'{type(e).__name__}: {e}'[:300])); continue
            try: check(api, body); done += 1
            except Refused as e: bad.append((case['id'], api, str(e)[:300]))
    return done, refused, bad

def test_corpus_renders_for_every_dialect():
    "Every 40th real-world history (tests/corpus) renders for every dialect (or is refused with a clear error) and passes its checks"
    done, refused, bad = render_corpus(40)
    assert not bad, bad[:5]
    assert done > 10 * refused, (done, refused)

@pytest.mark.slow
def test_whole_corpus_renders_for_every_dialect():
    done, refused, bad = render_corpus(1)
    assert not bad, (len(bad), bad[:5])

@pytest.mark.parametrize('api', NAMES)
def test_est_tokens_and_trim_take_each_dialect(api):
    "est_tokens and trim take a dialect's name; the trimmed history still renders and passes its server's checks"
    from msgkit import est_tokens, trim
    h = rich(api) + ['Hello there ' * 40, 'Hi! ' * 40, 'And now?']
    n = est_tokens(h, api)
    t = trim(h, n // 2, api)
    assert 0 < est_tokens(list(t), api) <= n // 2 < n
    check(api, wire(list(t), api, tools=[get_weather]))

# ---------------------------------------------------------------- unsupported='drop', per dialect
LACKS = dict(deepseek=dict(schema={'type': 'object'}, reasoning=2048, top_k=5),
             mistral=dict(seed=1, max_completion_tokens=100, reasoning=2048),
             groq=dict(logprobs=True, n=2, reasoning='xhigh'),
             together=dict(strict=True, reasoning=2048, max_completion_tokens=100),
             fireworks=dict(reasoning='xhigh', top_a=0.5, store=True),
             xai=dict(stop='END', reasoning=2048, top_k=5),
             openrouter=dict(reasoning=2048, store=True),
             ollama=dict(tool_choice='required', strict=True, n=2),
             vllm=dict(reasoning=2048, store=True),
             llamacpp=dict(tool_choice='get_weather', reasoning=2048),
             lmstudio=dict(tool_choice='get_weather', reasoning='xhigh', response_format={'type': 'json_object'}),
             gemini_openai=dict(reasoning=2048, top_k=5),
             anthropic_openai=dict(schema={'type': 'object'}, strict=True, reasoning='high', temperature=1.5, seed=1),
             bedrock_openai=dict(top_k=5, reasoning='minimal', prompt_cache_key='k'),
             azure=dict(reasoning=2048, top_k=5),
             perplexity=dict(reasoning='none', seed=1),
             cerebras=dict(store=True, reasoning='minimal'),
             huggingface=dict(reasoning='low', top_k=5))

@pytest.mark.parametrize('api', NAMES)
def test_drop_leaves_out_each_option_it_lacks(api):
    "Each option the dialect lacks is an error naming the way out; with unsupported='drop', one LossWarning and an accepted body"
    for k, v in LACKS[api].items():
        kw = {k: v, 'tools': [get_weather]} if k in ('strict', 'tool_choice') else {k: v}
        with pytest.raises(ValueError, match=rf"api='{api}'.*\(unsupported='drop' leaves {k}= out\)"): wire(['hi'], api, **kw)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        body = mk_request(['hi'], api, model=MODEL[api], wire=True, unsupported='drop', tools=[get_weather], max_tokens=100,
                          **{'temperature': 0.5, **LACKS[api]})
    ls = [w for w in ws if issubclass(w.category, LossWarning)]
    assert len(ls) == 1 and {l['what'] for l in ls[0].message.losses} == {f'{k}=' for k in LACKS[api]}
    check(api, body)

def test_drop_in_a_loop_over_every_api():
    "One call for all 23 APIs: what one lacks is dropped, the rest sent"
    for api in apis():
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', LossWarning)
            body = mk_request(['hi'], api, model=MODEL.get(api, 'm'), stop='END', reasoning=2048, max_tokens=4096, unsupported='drop', wire=True)
        if api in NAMES: check(api, body)

def test_misspellings_and_other_servers_fields():
    "A misspelling is a TypeError with the close match; another server's field names that server; a server's own word is given"
    with pytest.raises(TypeError, match='did you mean temperature'): mk_request(['hi'], 'groq', temprature=0.5)
    with pytest.raises(ValueError, match=r"api='groq' takes no random_seed \(mistral takes it\)"): mk_request(['hi'], 'groq', random_seed=1)
    with pytest.raises(ValueError, match='its word is random_seed='): mk_request(['hi'], 'mistral', seed=1)
    assert mk_request(['hi'], 'mistral', random_seed=1)['random_seed'] == 1

# ---------------------------------------------------------------- --curl: each server's documented URL and key, overridable
def test_endpoints_are_the_documented_ones():
    for api in NAMES:
        ad = get_api(api)
        url, hs = ad.endpoint(MODEL[api])
        assert url.endswith('/chat/completions') and ad.base_url in url, (api, url)
        assert url.startswith('${' + (ad.url_env or api.upper() + '_BASE_URL') + ':-')
        if ad.key_env: assert ad.key_env in ''.join(hs.values()), (api, hs)
        else: assert hs == {}
    assert get_api('deepseek').endpoint() == ('${DEEPSEEK_BASE_URL:-https://api.deepseek.com}/chat/completions', {'Authorization': 'Bearer $DEEPSEEK_API_KEY'})
    assert get_api('azure').endpoint()[1] == {'api-key': '$AZURE_OPENAI_API_KEY'}

def _run_curl(tmp_path, api, env):
    "The `msgkit --api <api> --curl` command, run by bash with a fake curl that prints its arguments and the body"
    import io, contextlib
    from msgkit.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out): main(['--api', api, '--model', MODEL[api], '--curl', 'Hi'])
    fake = tmp_path/'curl'
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@"; cat\n'); fake.chmod(0o755)
    e = {k: v for k, v in os.environ.items() if not k.endswith(('_BASE_URL', '_API_KEY', '_HOST', '_TOKEN', '_ENDPOINT'))}
    r = subprocess.run(['bash', '-c', out.getvalue()], capture_output=True, text=True, env=e | {'PATH': f"{tmp_path}:{e['PATH']}"} | env)
    assert r.returncode == 0, r.stderr
    args, body = r.stdout.split('\n{', 1)
    return args.splitlines(), json.loads('{' + body)

def test_curl_uses_the_servers_url_and_key(tmp_path):
    args, body = _run_curl(tmp_path, 'deepseek', {'DEEPSEEK_API_KEY': 'sk-1'})
    assert 'https://api.deepseek.com/chat/completions' in args and 'Authorization: Bearer sk-1' in args
    check('deepseek', body)
    args, _ = _run_curl(tmp_path, 'deepseek', {'DEEPSEEK_API_KEY': 'sk-1', 'DEEPSEEK_BASE_URL': 'https://api.deepseek.com/beta'})
    assert 'https://api.deepseek.com/beta/chat/completions' in args
    args, _ = _run_curl(tmp_path, 'ollama', {})
    assert 'http://localhost:11434/v1/chat/completions' in args and not any(a.startswith('Authorization') for a in args)
    args, _ = _run_curl(tmp_path, 'ollama', {'OLLAMA_HOST': 'gpu-box:11434'})
    assert 'http://gpu-box:11434/v1/chat/completions' in args
    args, _ = _run_curl(tmp_path, 'azure', {'AZURE_OPENAI_ENDPOINT': 'https://res.openai.azure.com', 'AZURE_OPENAI_API_KEY': 'k2'})
    assert 'https://res.openai.azure.com/openai/v1/chat/completions' in args and 'api-key: k2' in args
    args, _ = _run_curl(tmp_path, 'bedrock_openai', {'AWS_REGION': 'eu-west-1', 'AWS_BEARER_TOKEN_BEDROCK': 't'})
    assert 'https://bedrock-runtime.eu-west-1.amazonaws.com/openai/v1/chat/completions' in args

def test_readme_lists_the_dialects():
    readme = (Path(__file__).parents[1]/'README.md').read_text()
    assert all(f'`{n}`' in readme for n in NAMES)
