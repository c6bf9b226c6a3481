"""Whole requests: tools given in any form for every API, and msgkit's request options in each API's words, checked by
the oracle (the SDKs' request types for every keyword argument, the real clients, botocore's model, the OpenAI spec)."""
import enum, json, typing
import pytest
from msgkit import *
from msgkit.tools import mk_tool, mk_tools, read_tools
from msgkit.parts import Tool
from test_history import accept
OUTK = dict(openai='input', openai_chat='messages', anthropic='messages', gemini='contents', bedrock='messages')

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']

class Unit(enum.Enum):
    C = 'celsius'
    F = 'fahrenheit'

def get_weather(
    location:str, # City and country, e.g. "Paris, France"
    unit:Unit=Unit.C, # Temperature unit
    days:typing.Optional[list[int]]=None, # Days ahead to forecast
)->str:
    "Current weather at a location"
    return 'Sunny'

PARAMS = {'type': 'object', 'properties': {'location': {'type': 'string', 'description': 'City and country'},
                                           'unit': {'type': 'string', 'enum': ['celsius', 'fahrenheit']}}, 'required': ['location']}
DESC = 'Current weather at a location'

def forms():
    "The same tool in every form a user may hold it"
    from google.genai import types
    return dict(function=get_weather,
                json_schema=dict(name='get_weather', description=DESC, parameters=PARAMS),
                chat=dict(type='function', function=dict(name='get_weather', description=DESC, parameters=PARAMS)),
                responses=dict(type='function', name='get_weather', description=DESC, parameters=PARAMS, strict=False),
                anthropic=dict(name='get_weather', description=DESC, input_schema=PARAMS),
                gemini_sdk=types.FunctionDeclaration(name='get_weather', description=DESC, parameters=types.Schema.model_validate(PARAMS)),
                gemini_tool=dict(function_declarations=[dict(name='get_weather', description=DESC, parameters=PARAMS)]),
                bedrock=dict(toolSpec=dict(name='get_weather', description=DESC, inputSchema=dict(json=PARAMS))))

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('form', list(forms()))
def test_tool_forms_accepted(form, api):
    "A tool in any form gives a request every API accepts, the name, description and parameters kept"
    t = forms()[form]
    req = mk_request(["What's the weather in Paris?"], api, model='m', tools=[t], tool_choice='auto')
    accept(api, req)
    back = read_tools(mk_tools([t], api)[0])
    assert [o.name for o in back] == ['get_weather'] and back[0].description == DESC
    props = back[0].schema['properties']
    assert set(props) >= {'location', 'unit'} and props['unit']['enum'] == ['celsius', 'fahrenheit']
    assert str(back[0].schema.get('type')).lower() == 'object'

def test_function_schema():
    t = read_tools(get_weather)[0]
    assert t.schema == {'type': 'object', 'required': ['location'], 'properties': {
        'location': {'type': 'string', 'description': 'City and country, e.g. "Paris, France"'},
        'unit': {'type': 'string', 'enum': ['celsius', 'fahrenheit'], 'description': 'Temperature unit'},
        'days': {'type': 'array', 'items': {'type': 'integer'}, 'description': 'Days ahead to forecast'}}}
    with pytest.raises(TypeError, match="parameter 'x' of f"): read_tools(_bad)

def _bad(x:complex): return x
_bad.__name__ = 'f'

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_strict_accepted(api):
    req = mk_request(['hi'], api, model='m', tools=[get_weather], strict=True)
    accept(api, req)
    if api in ('openai', 'openai_chat'):
        t = req['tools'][0] if api=='openai' else req['tools'][0]['function']
        assert t['strict'] is True and t['parameters']['additionalProperties'] is False
        assert sorted(t['parameters']['required']) == ['days', 'location', 'unit']
        assert 'null' in t['parameters']['properties']['unit']['type']

def test_strict_refuses_what_it_cannot_say():
    with pytest.raises(ValueError, match="additionalProperties=True"): mk_tool(dict(name='f', parameters=dict(type='object', additionalProperties=True)), strict=True)
    with pytest.raises(ValueError, match="takes no 'allOf'"): mk_tool(dict(name='f', parameters=dict(type='object', properties=dict(a=dict(allOf=[{}])))), strict=True)
    with pytest.raises(ValueError, match="no strict mode"): mk_tool(get_weather, 'gemini', strict=True)

def test_gemini_schema_subset():
    "Gemini's parameters: $ref inlined from $defs, type lists as nullable, const as enum; a keyword it lacks named"
    from pydantic import BaseModel
    class Place(BaseModel):
        city: str
        country: typing.Optional[str] = None
    def visit(place:Place, when:str='today'):
        "Plan a visit"
    req = mk_request(['hi'], 'gemini', model='m', tools=[visit])
    accept('gemini', req)
    p = req['config']['tools'][0]['function_declarations'][0]['parameters']['properties']['place']
    assert p['properties']['city'] == {'title': 'City', 'type': 'string'} and '$ref' not in json.dumps(req['config']['tools'])
    with pytest.raises(ValueError, match="api='gemini' takes no 'oneOf'"): __import__('msgkit.adapters.gemini', fromlist=['x']).gemini_schema(dict(oneOf=[{}]))
    for s in (dict(type='object', properties=dict(a=dict(oneOf=[{'type':'string'}, {'type':'integer'}]))), dict(type='object', properties=dict(a=dict(type=['string','integer'])))):
        t = mk_tool(dict(name='f', parameters=s), 'gemini')  # what `parameters` can't say goes whole as `parameters_json_schema`
        assert t['parameters_json_schema'] == s and 'parameters' not in t
        accept('gemini', mk_request(['hi'], 'gemini', model='m', tools=[t]))
    with pytest.raises(ValueError, match='enums of strings only'): __import__('msgkit.adapters.gemini', fromlist=['x']).gemini_schema(dict(enum=[1, 2]))
    assert 'parameters_json_schema' in mk_tool(dict(name='f', parameters=dict(type='object', properties=dict(n=dict(type='integer', enum=[1, 2])))), 'gemini')

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('name', ['get weather', 'a'*65, '1tool', 'x/y'])
def test_tool_names(api, name):
    "Names no API takes are an error naming the API, never silently changed (the model would call a tool that isn't there)"
    if name=='1tool' and api!='gemini': return mk_tool(dict(name=name, parameters=PARAMS), api)  # a digit first is fine but for Gemini
    if name=='1tool':  # another API's name (OpenAI's): fitted, and the LossWarning says so
        with pytest.warns(LossWarning, match="tool name '1tool'"): assert mk_tool(dict(name=name, parameters=PARAMS), api)['name'] == '_1tool'
        return
    with pytest.raises(ValueError, match=f"api={api!r} takes tool names"): mk_tool(dict(name=name, parameters=PARAMS), api)

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_gemini_tool_names_fitted_in_history_and_tools(api):
    "issue 17 item 6: Gemini/MCP names with '.' or ':' in a history and in tools= match after fitting, reported"
    call = dict(role='model', parts=[dict(function_call=dict(name='files.read', args={'path': 'a'}))])
    res = dict(role='user', parts=[dict(function_response=dict(name='files.read', response={'text': 'hi'}))])
    tool = dict(function_declarations=[dict(name='files.read', description='Read', parameters=dict(type='object', properties=dict(path=dict(type='string'))))])
    with pytest.warns(LossWarning, match="tool name 'files.read'"):
        r = mk_request(['read a', call, res, 'thanks'], api, model='m', tools=[tool])
    accept(api, r)
    names = {c['name'] for c in tool_calls(r[OUTK[api]])}
    defs = json.dumps(r.get('tools') or r['toolConfig'])
    assert names == {'files_read'} and 'files_read' in defs and 'files.read' not in defs

def test_tool_errors():
    with pytest.raises(ValueError, match='unique'): mk_tools([get_weather, get_weather])
    with pytest.raises(TypeError, match='A tool is a function'): mk_tools([42])
    with pytest.raises(ValueError, match='needs a name'): mk_tools([dict(description='x')])

def test_bedrock_description():
    "Converse's description has a minimum length of 1: a tool without one is sent without it"
    t = mk_tool(dict(name='f', parameters=PARAMS), 'bedrock')
    assert 'description' not in t['toolSpec']
    accept('bedrock', mk_request(['hi'], 'bedrock', model='m', tools=[t]))

# ---------------------------------------------------------------- the option vocabulary
class Answer(__import__('pydantic').BaseModel):
    city: str
    temp: float

OPTS = [dict(max_tokens=100), dict(temperature=0.5, top_p=0.9), dict(stop=['END']), dict(schema=Answer), dict(schema=Answer.model_json_schema()),
        dict(reasoning='low'), dict(reasoning=2048), dict(tools=[get_weather], tool_choice='get_weather'), dict(tools=[get_weather], tool_choice='required'),
        dict(tools=[get_weather], tool_choice='none')]
LACKS = {('openai', 'stop'), ('openai', 'reasoning=2048'), ('openai_chat', 'reasoning=2048'), ('anthropic', 'temperature'), ('bedrock', "tool_choice='none'")}
FIELD = dict(openai=dict(max_tokens='max_output_tokens', schema='text', reasoning='reasoning'),
             openai_chat=dict(max_tokens='max_completion_tokens', schema='response_format', reasoning='reasoning_effort', stop='stop'),
             anthropic=dict(max_tokens='max_tokens', schema='output_config', stop='stop_sequences'),
             gemini=dict(max_tokens='max_output_tokens', schema='response_json_schema', reasoning='thinking_config', stop='stop_sequences'),
             bedrock=dict(max_tokens='inferenceConfig', schema='outputConfig', stop='inferenceConfig'))

def _key(o):
    k = next(iter(o))
    return f'{k}={o[k]!r}' if k=='reasoning' and isinstance(o[k], int) else f"tool_choice={o['tool_choice']!r}" if 'tool_choice' in o else k

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('opts', OPTS, ids=_key)
def test_options(api, opts):
    "Each option lands in the API's own field and the oracle accepts it; an option the API lacks is an error naming the API"
    if (api, _key(opts)) in LACKS:
        with pytest.raises(ValueError, match=f"api={api!r} takes no"): mk_request(['hi'], api, model='m', **opts)
        return
    req = mk_request(['hi'], api, model='m', **opts)
    accept(api, req)
    k = next(iter(opts))
    f = FIELD[api].get(k)
    if f: assert f in (req.get('config') or req), (f, req)

def test_option_details():
    oa = mk_request(['hi'], 'openai', model='m', schema=Answer, tool_choice='get_weather', tools=[get_weather], reasoning='high')
    assert oa['text']['format']['name'] == 'Answer' and oa['tool_choice'] == dict(type='function', name='get_weather') and oa['reasoning'] == dict(effort='high')
    an = mk_request(['hi'], 'anthropic', model='m', reasoning=2048, tool_choice='auto', tools=[get_weather], stop='END')
    assert an['thinking'] == dict(type='enabled', budget_tokens=2048) and an['tool_choice'] == dict(type='auto') and an['stop_sequences'] == ['END']
    assert mk_request(['hi'], 'anthropic', model='m', tool_choice='required', tools=[get_weather])['tool_choice'] == dict(type='any')
    # "Thinking may not be enabled when tool_choice forces tool use"
    with pytest.raises(ValueError, match='forces tool use'):
        mk_request(['hi'], 'anthropic', model='m', reasoning=2048, tool_choice='required', tools=[get_weather])
    gm = mk_request(['hi'], 'gemini', model='m', tool_choice='get_weather', tools=[get_weather], reasoning=512)
    assert gm['config']['tool_config'] == dict(function_calling_config=dict(mode='ANY', allowed_function_names=['get_weather']))
    assert gm['config']['thinking_config'] == dict(thinking_budget=512)
    bd = mk_request(['hi'], 'bedrock', model='m', tools=[get_weather], tool_choice='auto', max_tokens=50, stop='END')
    assert bd['toolConfig']['toolChoice'] == dict(auto={}) and bd['inferenceConfig'] == dict(maxTokens=50, stopSequences=['END'])
    with pytest.raises(TypeError, match='tool_choice takes'): mk_request(['hi'], 'openai', tools=[get_weather], tool_choice=3)
    assert mk_request(['hi'], 'anthropic', reasoning=2048)['max_tokens'] == 3072  # "budget_tokens must be less than max_tokens"
    with pytest.raises(ValueError, match='above the thinking budget'): mk_request(['hi'], 'anthropic', reasoning=2048, max_tokens=1000)
    with pytest.raises(ValueError, match='at least 1,024'): mk_request(['hi'], 'anthropic', reasoning=100)
    own = mk_request(['hi'], 'anthropic', model='m', thinking=dict(type='adaptive'))  # the API's own names pass, checked by its type
    assert own['thinking'] == dict(type='adaptive')
    accept('anthropic', own)
    # a misspelt field: msgkit names the close match (it used to pass, for the SDK to refuse)
    with pytest.raises(TypeError, match='did you mean thinking'): mk_request(['hi'], 'anthropic', model='m', thinkin=1)

# ---------------------------------------------------------------- wire bodies
import oracle
from oracle import check_openai, check_openai_chat, check_anthropic, check_gemini, check_bedrock

def sdk_body(api, req):
    "What the real SDK client puts on the wire for keyword arguments `req` (through its mock transport)"
    req = {k:v for k,v in req.items() if k not in ('model','modelId')}
    if api=='openai': return check_openai(req.pop('input'), **req)
    if api=='openai_chat': return check_openai_chat(req.pop('messages'), **req)
    if api=='anthropic': return check_anthropic(req.pop('messages'), **{k:v for k,v in req.items() if k!='max_tokens'})
    if api=='gemini': return check_gemini(req['contents'], **req.get('config', {}))
    return check_bedrock(req.pop('messages'), **req)

def camel(x):
    "Field names spelled one way (proto JSON takes snake_case and lowerCamelCase alike); empty objects left out"
    import re
    if isinstance(x, list): return [camel(o) for o in x]
    if not isinstance(x, dict): return x
    return {re.sub(r'_(\w)', lambda m: m[1].upper(), k):camel(v) for k,v in x.items() if v!={}}

WIRE_MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4o', anthropic='claude-sonnet-4-5', gemini='gemini-2.5-flash', bedrock=oracle.MODEL_ID)

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('case', ['text', 'media_tools', 'options'])
def test_wire_equals_sdk(api, case):
    "mk_request(..., wire=True) is the body the official SDK sends for the same call: history, media, tools, options"
    from test_history import api_form
    png = sample('gradient.png').read_bytes()
    h = ['Hi', 'Hello!', 'Weather in Paris?'] if case=='text' else [[png, 'What is this?']] if case=='options' else api_form('anthropic')[0] + ['And tomorrow?']
    kw = dict(tools=[get_weather], tool_choice='auto') if case=='media_tools' else dict(max_tokens=300, stop=['END'] if api!='openai' else None,
              schema=Answer, temperature=None if api=='anthropic' else 0.3) if case=='options' else {}
    kw = {k:v for k,v in kw.items() if v is not None}
    if api=='anthropic': kw['max_tokens'] = 1024
    req = mk_request(h, api, model=WIRE_MODEL[api], system='Be brief.', **kw)
    body = mk_request(h, api, model=WIRE_MODEL[api], system='Be brief.', wire=True, **kw)
    assert json.loads(json.dumps(body)) == body, 'not JSON'
    got = sdk_body(api, req)
    if api in ('openai', 'openai_chat', 'anthropic'): got = {**got, 'model': WIRE_MODEL[api]}
    if api=='anthropic': got['max_tokens'] = req['max_tokens']
    if api=='gemini': assert camel(body) == camel(got)
    else: assert body == got


# ---------------------------------------------------------------- regressions from review
def test_nested_models_and_docs():
    "A nested pydantic model's $defs sit at the root its refs point to; a model without a docstring has no description"
    import jsonschema, pydantic
    class Addr(pydantic.BaseModel):
        street: str
    class Person(pydantic.BaseModel):
        name: str
        addr: Addr
    def ship(to:Person):
        "Ship a parcel"
    s = mk_tool(ship)['parameters']
    jsonschema.validate({'to': {'name': 'a', 'addr': {'street': 'x'}}}, s)
    for api in APIS: accept(api, mk_request(['hi'], api, model='m', tools=[ship], strict=api!='gemini'))
    assert 'description' not in mk_tool(Person, 'anthropic') and mk_tool(Person)['description'] == ''

def test_hints_from_future_annotations_and_callables(tmp_path):
    "String annotations (from __future__ import annotations), Annotated docs, partials and callable objects are tools"
    import functools, importlib.util
    p = tmp_path/'fa.py'
    p.write_text('from __future__ import annotations\nimport typing\ndef fa(a: int, b: typing.Annotated[str, "the b"] = "x"):\n    "Doc"\n')
    spec = importlib.util.spec_from_file_location('fa', p); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    assert read_tools(m.fa)[0].schema['properties'] == {'a': {'type': 'integer'}, 'b': {'type': 'string', 'description': 'the b'}}
    def g(a:int, b:str='x'): "G"
    assert mk_tool(functools.partial(g, b='y'))['name'] == 'g'
    class C:
        def __call__(self, q:str): "Call"
    assert mk_tool(C())['parameters']['properties'] == {'q': {'type': 'string'}}

def test_api_form_keeps_its_own_keys():
    "strict and Anthropic's cache_control on a tool given in the API's form stay for that API"
    t = dict(type='function', name='f', description='d', parameters=PARAMS, strict=True)
    assert mk_tool(t, 'openai')['strict'] is True and mk_tool(t, 'anthropic')['strict'] is True
    a = dict(name='f', description='d', input_schema=PARAMS, cache_control={'type': 'ephemeral'})
    assert mk_tool(a, 'anthropic')['cache_control'] == {'type': 'ephemeral'}
    accept('anthropic', mk_request(['hi'], 'anthropic', model='m', tools=[a]))

def test_gemini_form_means_the_same_elsewhere():
    "A Gemini schema read for another API: nullable becomes a type with null, snake_case keywords camelCase"
    g = dict(name='f', parameters=dict(type='OBJECT', properties=dict(tags=dict(type='ARRAY', items=dict(type='STRING'), max_items=3, nullable=True))))
    s = read_tools(g)[0].schema
    assert s['properties']['tags'] == {'type': ['array', 'null'], 'items': {'type': 'string'}, 'maxItems': 3}
    for api in APIS: accept(api, mk_request(['hi'], api, model='m', tools=[g]))

def test_free_form_objects_and_dict_values():
    def f(meta:dict, counts:dict[str, int]): "F"
    assert read_tools(f)[0].schema['properties']['counts'] == {'type': 'object', 'additionalProperties': {'type': 'integer'}}
    with pytest.raises(ValueError, match="free-form object"): mk_tool(f, strict=True)

@pytest.mark.parametrize('api,bad', [('anthropic', 'minimal'), ('gemini', 'none'), ('openai', 'max'), ('openai_chat', 'max')])
def test_efforts_checked(api, bad):
    with pytest.raises(ValueError, match='takes reasoning efforts'): mk_request(['hi'], api, model='m', reasoning=bad)

def test_bedrock_budget_rules():
    with pytest.raises(ValueError, match='at least 1,024'): mk_request(['hi'], 'bedrock', model='m', reasoning=0)
    with pytest.raises(ValueError, match='above the thinking budget'): mk_request(['hi'], 'bedrock', model='m', reasoning=2048, max_tokens=1000)

@pytest.mark.parametrize('api', APIS)
def test_tool_choice_needs_tools(api):
    with pytest.raises(ValueError, match='tool_choice needs tools'): mk_request(['hi'], api, model='m', tool_choice='auto')

def test_gemini_options_win_over_config():
    assert mk_request(['hi'], 'gemini', model='m', config=dict(temperature=0.1), temperature=0.5)['config']['temperature'] == 0.5
