"""mk_request's option vocabulary (issue 20 item 3, issue 18's `unsupported=`): named options, each API's own request
fields checked against its SDK, misspellings refused with the close matches, `extra=` for what no SDK knows yet,
`unsupported='drop'` for what an API lacks; and LossWarnings at the caller's line (issue 20 item 4).
Every request is judged by the provider's own artefacts (`oracle.APIS`: SDK types, the real client on a mock transport,
botocore's service model)."""
import inspect, warnings
import pytest
import msgkit
from msgkit import mk_request, get_api, LossWarning
from oracle import APIS, _send, _oai, _gem

API5 = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
OUT = dict(openai='input', openai_chat='messages', anthropic='messages', gemini='contents', bedrock='messages')

def accepted(api, req):
    "The body the provider's SDK sends for request `req` (its checks passed), as `oracle.APIS` gives it"
    req = dict(req)
    for k in ('model', 'modelId'): req.pop(k, None)
    msgs = req.pop(OUT[api])
    if api == 'gemini': return APIS[api](msgs, **req.pop('config', {}))
    if api == 'anthropic': req.pop('max_tokens', None)
    return APIS[api](msgs, **req)

def sdk_params(api):
    "The request fields of the installed SDK, read from the SDK itself"
    if api == 'gemini':
        from google.genai.types import GenerateContentConfig
        return set(GenerateContentConfig.model_fields)
    if api == 'bedrock':
        import botocore.session
        m = botocore.session.get_session().get_service_model('bedrock-runtime')
        return set(m.operation_model('Converse').input_shape.members) - {'modelId', 'messages'}
    from openai.resources.responses import Responses
    from openai.resources.chat.completions import Completions
    from anthropic.resources.messages import Messages
    f = dict(openai=Responses.create, openai_chat=Completions.create, anthropic=Messages.create)[api]
    return set(inspect.signature(f).parameters) - {'self', 'model', OUT[api]}

# ---------------------------------------------------------------- the fields each API takes
@pytest.mark.parametrize('api', API5)
def test_fields_are_the_sdks(api):
    "Every field an adapter lists is a request field of its SDK (none invented), and its call options are the SDK's"
    ad = get_api(api)
    assert set(ad.fields) <= sdk_params(api), set(ad.fields) - sdk_params(api)
    assert set(ad.call_kw) <= sdk_params(api) | {'extra_headers', 'extra_query', 'extra_body', 'timeout'}
    assert ad.sdk_fields() == sdk_params(api)  # the live list, for fields newer than the adapter's

@pytest.mark.parametrize('api', API5)
def test_a_newer_sdks_field_passes(api, monkeypatch):
    "A field the installed SDK has but the adapter's list lacks (an SDK newer than msgkit) passes on"
    ad = get_api(api)
    k = dict(openai='store', openai_chat='seed', anthropic='metadata', gemini='seed', bedrock='requestMetadata')[api]
    monkeypatch.setattr(type(ad), 'fields', tuple(f for f in ad.fields if f != k))
    v = dict(store=False, seed=7, metadata={'user_id': 'u1'}, requestMetadata={'team': 'a'})[k]
    body = accepted(api, mk_request(['hi'], api, model='m', **{k: v}))
    assert v in (body.get(k), body.get('generationConfig', {}).get(k)), body

FIELDS = dict(openai=dict(store=False, metadata={'run': '1'}, previous_response_id='resp_1', parallel_tool_calls=False),
              openai_chat=dict(seed=7, n=1, logprobs=True, frequency_penalty=0.5, user='u1'),
              anthropic=dict(metadata={'user_id': 'u1'}, service_tier='auto', stop_sequences=['END']),
              gemini=dict(top_k=40, seed=7, candidate_count=1, response_modalities=['TEXT']),
              bedrock=dict(requestMetadata={'team': 'a'}, performanceConfig={'latency': 'optimized'}))

@pytest.mark.parametrize('api', API5)
def test_own_fields_pass_and_are_accepted(api):
    "The API's own fields pass on as given, and the provider's SDK accepts the request"
    accepted(api, mk_request(['hi'], api, model='m', max_tokens=100, **FIELDS[api]))

@pytest.mark.parametrize('api', API5)
@pytest.mark.parametrize('typo,want', [('max_token', 'max_tokens'), ('temprature', 'temperature'), ('sytem', 'system')])
def test_misspelt_options_are_type_errors(api, typo, want):
    "issue 20: `max_token=100, temprature=0.5` succeeded for all five APIs; now a TypeError naming the close match"
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{typo}' for api='{api}': did you mean {want}"):
        mk_request(['hi'], api, model='m', **{typo: 1})

def test_gemini_typos_no_longer_land_in_config():
    "issue 20: for Gemini the typos landed inside `config`"
    with pytest.raises(TypeError, match='did you mean temperature'): mk_request(['hi'], 'gemini', temprature=0.5)
    with pytest.raises(TypeError, match='did you mean top_k'): mk_request(['hi'], 'gemini', topk=5)

@pytest.mark.parametrize('api,k', [('openai_chat', 'stop_sequences'), ('openai', 'max_output_token'), ('bedrock', 'stopSequences')])
def test_another_apis_word_points_at_msgkits(api, k):
    "A field under another API's name for one of msgkit's options says which option to use"
    with pytest.raises((TypeError, ValueError)) as e: mk_request(['hi'], api, model='m', **{k: ['x']})
    assert 'stop=' in str(e.value) or 'max_tokens' in str(e.value)

# ---------------------------------------------------------------- extra=
def test_extra_goes_through_each_sdks_body():
    "`extra=` reaches the HTTP body through the real SDK clients (OpenAI, Chat, Anthropic: extra_body; Gemini: http_options)"
    for api in ('openai', 'openai_chat', 'anthropic', 'gemini'):
        body = accepted(api, mk_request(['hi'], api, model='m', extra={'new_field': {'a': 1}}))
        assert body['new_field'] == {'a': 1}, (api, body)

def test_extra_in_the_wire_body():
    for api in API5:
        assert mk_request(['hi'], api, model='m', extra={'newField': 1}, wire=True)['newField'] == 1

def test_extra_for_boto3_and_call_options_in_wire_are_refused():
    with pytest.raises(ValueError, match="additionalModelRequestFields"): mk_request(['hi'], 'bedrock', extra={'x': 1})
    with pytest.raises(ValueError, match="belong to the HTTP call"): mk_request(['hi'], 'openai', wire=True, timeout=5)
    with pytest.raises(ValueError, match="belong to the HTTP call"):
        mk_request(['hi'], 'gemini', wire=True, http_options={'timeout': 5})
    with pytest.raises(TypeError, match='extra= takes a dict'): mk_request(['hi'], 'openai', extra=['x'])

def test_call_options_pass_to_the_sdk():
    "extra_headers and timeout are the SDK call's own options: they pass, and the SDK takes them"
    req = mk_request(['hi'], 'openai', model='m', extra_headers={'X-Trace': '1'}, timeout=30)
    assert (req['extra_headers'], req['timeout']) == ({'X-Trace': '1'}, 30)
    accepted('openai', req)

def test_a_field_and_the_option_that_sets_it_combine():
    "`text=` with `schema=` (Responses), `output_config=` with `reasoning=` (Anthropic): both kept"
    r = mk_request(['hi'], 'openai', model='m', schema={'type': 'object'}, text={'verbosity': 'low'})
    assert r['text']['verbosity'] == 'low' and r['text']['format']['type'] == 'json_schema'
    accepted('openai', r)
    r = mk_request(['hi'], 'openai', model='m', reasoning={'effort': 'high', 'summary': 'auto'})
    assert r['reasoning'] == {'effort': 'high', 'summary': 'auto'}
    accepted('openai', r)

# ---------------------------------------------------------------- unsupported=
LACKS = dict(openai=dict(stop='END', reasoning=2048, top_k=5),
             openai_chat=dict(reasoning=2048, top_k=5, stop_sequences=['x']),
             anthropic=dict(temperature=0.5, top_p=0.9, top_k=5, seed=1),
             gemini=dict(strict=True, metadata={'a': 'b'}, reasoning='max'),
             bedrock=dict(tool_choice='none', top_k=5, seed=3))

def get_weather(city: str) -> str:
    "Weather in `city`"
    return city

@pytest.mark.parametrize('api', API5)
def test_each_lacking_option_is_an_error_naming_the_way_out(api):
    for k, v in LACKS[api].items():
        kw = {k: v, 'tools': [get_weather]} if k in ('strict', 'tool_choice') else {k: v}
        with pytest.raises(ValueError, match=rf"api='{api}'.*\(unsupported='drop' leaves {k}= out\)"):
            mk_request(['hi'], api, model='m', **kw)

@pytest.mark.parametrize('api', API5)
def test_drop_leaves_out_each_option_it_lacks(api):
    "issue 18: `unsupported='drop'` leaves out each option the API lacks, in one LossWarning, and the request is accepted"
    kw = dict(LACKS[api], tools=[get_weather], max_tokens=2000)
    kw.setdefault('temperature', 0.2)  # taken by all but Anthropic, which lists it among what it lacks
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = mk_request(['hi'], api, model='m', unsupported='drop', **kw)
    ls = [w for w in ws if issubclass(w.category, LossWarning)]
    assert len(ls) == 1
    assert {l['what'] for l in ls[0].message.losses} == {f'{k}=' for k in LACKS[api]}
    assert all('unsupported=' not in l['why'] for l in ls[0].message.losses)
    accepted(api, r)

def test_drop_keeps_what_the_api_takes():
    r = mk_request(['hi'], 'openai_chat', model='m', stop='END', temperature=0.3, unsupported='drop')
    assert (r['stop'], r['temperature']) == ('END', 0.3)
    with pytest.raises(ValueError, match="unsupported is 'error' or 'drop'"): mk_request(['hi'], unsupported='ignore')

def test_drop_in_a_loop_over_apis():
    "One call, every API: what one lacks is dropped, the rest sent"
    for api in API5:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', LossWarning)
            r = mk_request(['hi'], api, model='m', stop='END', reasoning=2048, top_k=5, max_tokens=4096, unsupported='drop')
        accepted(api, r)

def test_typos_are_not_dropped():
    "A misspelling is no option the API lacks: drop mode still refuses it"
    with pytest.raises(TypeError, match='did you mean temperature'):
        mk_request(['hi'], 'openai', temprature=0.5, unsupported='drop')

# ---------------------------------------------------------------- warnings at the user's line
def test_loss_warnings_point_at_the_callers_line():
    "issue 20 item 4: every LossWarning said msgkit/errors.py:91; now it names the line that called msgkit"
    thought = dict(role='assistant', content=[dict(type='thinking', thinking='hm', signature='sig'), dict(type='text', text='4')])
    calls = [lambda: msgkit.mk_msgs(['2+2?', thought], api='gemini'),
             lambda: msgkit.mk_request(['2+2?', thought], 'openai'),
             lambda: msgkit.mk_request(['hi'], 'openai', stop='x', unsupported='drop'),
             lambda: msgkit.mk_msg_openai(thought)]
    for f in calls:
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter('always')
            f()
        assert ws and all(w.filename == __file__ for w in ws), [(w.filename, w.lineno) for w in ws]

def test_each_call_site_warns_once_by_default():
    "Python's default filter: one warning per distinct loss per call site (so three call sites give three)"
    import subprocess, sys, textwrap
    code = textwrap.dedent('''
        import msgkit
        t = dict(role='assistant', content=[dict(type='thinking', thinking='hm', signature='s'), dict(type='text', text='4')])
        msgkit.mk_msgs(['q', t], api='gemini')
        msgkit.mk_msgs(['q', t], api='openai')
        for _ in range(3): msgkit.mk_msgs(['q', t], api='openai_chat')
    ''')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert r.stderr.count('LossWarning') == 3, r.stderr
