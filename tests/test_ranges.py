"""Sampling numbers within each API's stated bounds: the bounds msgkit holds are the providers' own (the OpenAI spec's
minimum/maximum, botocore's service model), values just inside are accepted by the oracle, and values outside are an
`InputError` naming the option, the API and the bound, before anything is sent."""
import json
from pathlib import Path
import pytest
from msgkit import mk_request, get_api
from msgkit.errors import InputError
from oracle import APIS as ORACLE
from test_history import accept

# Anthropic: the SDK's messages.create takes no temperature or top_p (refused as Unsupported, 23_anthropic)
MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4o', gemini='gemini-2.5-flash',
             bedrock='anthropic.claude-3-5-sonnet-20240620-v1:0')

def _spec_bounds(schema, key):
    s = json.loads((Path(__file__).parents[2]/'shared/openai-openapi/openapi.json').read_text())['components']['schemas']
    def walk(o):
        if isinstance(o, dict):
            if key in o.get('properties', {}):
                p = o['properties'][key]
                for a in [p, *p.get('anyOf', [])]:
                    if 'maximum' in a: return a['minimum'], a['maximum']
            for k, v in o.items():
                if (r := walk(s[v.split('/')[-1]] if k=='$ref' else v)): return r
        elif isinstance(o, list):
            for v in o:
                if (r := walk(v)): return r
    return walk(s[schema])

def test_bounds_are_the_providers():
    for api, schema in (('openai', 'CreateResponse'), ('openai_chat', 'CreateChatCompletionRequest')):
        for k in ('temperature', 'top_p'): assert get_api(api).ranges[k][:2] == _spec_bounds(schema, k), (api, k)
    import botocore.session
    sh = botocore.session.get_session().get_service_model('bedrock-runtime').shape_for('InferenceConfiguration')
    for k, m in (('temperature', 'temperature'), ('top_p', 'topP')):
        md = sh.members[m].metadata
        assert get_api('bedrock').ranges[k][:2] == (md['min'], md['max'])

def test_the_oracle_refuses_what_msgkit_refuses():
    m = [{'role': 'user', 'content': 'Hi'}]
    with pytest.raises(AssertionError, match='temperature'): ORACLE['openai'](m, temperature=2.5)
    with pytest.raises(AssertionError, match='top_p'): ORACLE['openai_chat'](m, top_p=1.5)

@pytest.mark.parametrize('api', list(MODEL))
def test_inside_sent_outside_refused(api):
    lo, hi, _ = get_api(api).ranges['temperature']
    for v in (lo, hi): accept(api, mk_request(['Hi'], api, model=MODEL[api], temperature=v))
    for k, v in (('temperature', hi + 0.5), ('temperature', -0.1), ('top_p', 1.01)):
        with pytest.raises(InputError, match=rf"api='{api}' takes {k} from \d+ to \d+ \(.+\), not {v}"):
            mk_request(['Hi'], api, model=MODEL[api], **{k: v})
