"Proves each oracle check can fail and can pass."
import base64, copy, io, json, pathlib, typing, pytest
from typing_extensions import Annotated, Literal, NotRequired, Required, TypedDict
from fastcore.basics import AttrDict
from oracle import *
from oracle import _guarded

PNG = 'data:image/png;base64,iVBORw0KGgo='
GOOD = dict(
    openai=[{'role': 'user', 'content': [{'type': 'input_text', 'text': 'hi'},
                                         {'type': 'input_image', 'image_url': PNG, 'detail': 'auto'}]}],
    openai_chat=[{'role': 'system', 'content': 'Be brief.'},
                 {'role': 'user', 'content': [{'type': 'text', 'text': 'hi'}, {'type': 'image_url', 'image_url': {'url': PNG}}]}],
    anthropic=[{'role': 'user', 'content': [
        {'type': 'text', 'text': 'hi'},
        {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': 'iVBORw0KGgo='}},
        {'type': 'document', 'source': {'type': 'base64', 'media_type': 'application/pdf', 'data': 'JVBERi0xLjQ='},
         'citations': {'enabled': True}}]}],
    gemini=[{'role': 'user', 'parts': [{'text': 'hi'}, {'inline_data': {'mime_type': 'image/png', 'data': b'\x89PNG'}}]}],
    bedrock=[{'role': 'user', 'content': [{'text': 'hi'}, {'image': {'format': 'png', 'source': {'bytes': b'\x89PNG'}}}]}],
)

def mod(api, f):
    "A deep copy of `GOOD[api]` changed in place by `f`"
    x = copy.deepcopy(GOOD[api]); f(x); return x

def fails(f, *args, match=None, **kw):
    with pytest.raises(AssertionError, match=match): f(*args, **kw)

# ---------------------------------------------------------------- every API passes good and fails bad
@pytest.mark.parametrize('api', APIS)
def test_good_passes(api):
    msgs = GOOD[api]
    before = copy.deepcopy(msgs)
    assert isinstance(check(api, msgs), dict)
    assert msgs == before

def _pop(d, k): d.pop(k)
BAD = [  # (api, change to GOOD[api], regex the error must match: it names the JSON path)
    ('openai', lambda x: x[0].update(foo=1), r'\$\[0\]\.foo: unknown key'),
    ('openai', lambda x: x[0]['content'][1].update(foo=1), r'\$\[0\]\.content\[1\]\.foo: unknown key'),
    ('openai', lambda x: x[0]['content'][1].update(type='image_url'), r"\$\[0\]\.content\[1\]\.type: expected one of .*input_image"),
    ('openai', lambda x: _pop(x[0]['content'][1], 'detail'), r"\$\[0\]\.content\[1\]\.detail: missing required"),
    ('openai', lambda x: x[0].update(role='bot'), r'\$\[0\]\.role: expected one of'),
    ('openai', lambda x: x[0]['content'][1].update(image_url=3), r'\$\[0\]\.content\[1\]\.image_url: expected str'),
    ('openai', lambda x: x[0]['content'].__setitem__(0, 'hi'), r'\$\[0\]\.content\[0\]'),
    ('openai_chat', lambda x: x[1].update(foo=1), r'\$\[1\]\.foo: unknown key'),
    ('openai_chat', lambda x: x[1]['content'][1]['image_url'].update(foo=1), r'\$\[1\]\.content\[1\]\.image_url\.foo'),
    ('openai_chat', lambda x: x[1]['content'][1].update(type='input_image'), r"\$\[1\]\.content\[1\]\.type: expected one of .*image_url"),
    ('openai_chat', lambda x: _pop(x[1]['content'][1]['image_url'], 'url'), r"\$\[1\]\.content\[1\]\.image_url\.url: missing"),
    ('openai_chat', lambda x: x[1].update(role='bot'), r'\$\[1\]\.role: expected one of'),
    ('openai_chat', lambda x: x[1].update(content={'type': 'text', 'text': 'hi'}), r'\$\[1\]\.content'),
    ('anthropic', lambda x: x[0].update(foo=1), r'\$\[0\]\.foo: unknown key'),
    ('anthropic', lambda x: x[0]['content'][1].update(foo=1), r'\$\[0\]\.content\[1\]\.foo: unknown key'),
    ('anthropic', lambda x: x[0]['content'][1]['source'].update(type='b64'), r'\$\[0\]\.content\[1\]\.source\.type: expected one of'),
    ('anthropic', lambda x: x[0]['content'][1]['source'].update(media_type='image/tiff'), r'source\.media_type'),
    ('anthropic', lambda x: x[0]['content'][1]['source'].update(data=b'\x89PNG'), r'source\.data: expected str'),
    ('anthropic', lambda x: _pop(x[0]['content'][2]['source'], 'data'), r'\$\[0\]\.content\[2\]\.source\.data: missing'),
    ('anthropic', lambda x: x[0]['content'][2].update(citations=True), r'\$\[0\]\.content\[2\]\.citations'),
    ('anthropic', lambda x: x[0].update(role='bot'), r'\$\[0\]\.role: expected one of'),
    ('anthropic', lambda x: x.__setitem__(0, {'role': 'system', 'content': 'hi'}), r"\$\[0\]\.role: expected 'user' or 'assistant'"),  # SDK type allows it
    ('anthropic', lambda x: x[0].update(content={'type': 'text', 'text': 'hi'}), r'\$\[0\]\.content'),
    ('gemini', lambda x: x[0].update(foo=1), r'\$\[0\]\.foo: Extra inputs'),
    ('gemini', lambda x: x[0]['parts'][1]['inline_data'].update(foo=1), r'\$\[0\]\.parts\[1\]\.inline_data\.foo: Extra'),
    ('gemini', lambda x: x[0]['parts'][1]['inline_data'].update(data='iVBORw0KGgo='), r'inline_data\.data: expected bytes'),
    ('gemini', lambda x: x[0].update(role='assistant'), r"\$\[0\]\.role: expected 'user', 'model'"),
    ('gemini', lambda x: x[0].update(parts='hi'), r'\$\[0\]\.parts: Input should be a valid list'),
    ('gemini', lambda x: x[0]['parts'][0].update(text=3), r'\$\[0\]\.parts\[0\]\.text'),
    ('gemini', lambda x: x[0]['parts'][1].update(media_resolution={'level': 'HUGE'}), r'\$\[0\]: HUGE is not a valid'),  # SDK only warns
    # Gemini models have no required fields, so there is no 'missing required key' case
    ('bedrock', lambda x: x[0].update(foo=1), r'Unknown parameter in messages\[0\]: "foo"'),
    ('bedrock', lambda x: x[0]['content'][1]['image'].update(foo=1), r'messages\[0\]\.content\[1\]\.image: "foo"'),
    ('bedrock', lambda x: x[0]['content'][1]['image'].update(format='tiff'), r'content\[1\]\.image\.format: expected one of'),
    ('bedrock', lambda x: _pop(x[0]['content'][1]['image'], 'format'), r'Missing required parameter .*"format"'),
    ('bedrock', lambda x: x[0].update(role='bot'), r'messages\[0\]\.role: expected one of'),
    ('bedrock', lambda x: x[0].update(content='hi'), r'Invalid type for parameter messages\[0\]\.content'),
    ('bedrock', lambda x: x[0]['content'][1]['image']['source'].update(bytes='iVBORw0KGgo='), r'source\.bytes: expected bytes'),
    ('bedrock', lambda x: x[0]['content'][0].update(image={'format': 'png', 'source': {'bytes': b'x'}}), r'tagged union'),
]

@pytest.mark.parametrize('api,f,match', BAD, ids=[f'{a}-{i}' for i, (a, *_) in enumerate(BAD)])
def test_bad_fails(api, f, match): fails(check, api, mod(api, f), match=match)

@pytest.mark.parametrize('api', APIS)
def test_str_instead_of_list_fails(api): fails(check, api, 'hi')

@pytest.mark.parametrize('api', APIS)
def test_single_message_instead_of_list_fails(api): fails(check, api, GOOD[api][0])

def test_check_unknown_api():
    with pytest.raises(KeyError): check('cohere', [])

# ---------------------------------------------------------------- request bodies
def test_bodies_contain_messages():
    b = check_openai(GOOD['openai'], instructions='Be brief.')
    assert b == dict(model='gpt-4.1', input=GOOD['openai'], instructions='Be brief.')
    b = check_openai_chat(GOOD['openai_chat'])
    assert b == dict(model='gpt-4o', messages=GOOD['openai_chat'])
    b = check_anthropic(GOOD['anthropic'], system='Be brief.')
    assert b['messages'] == GOOD['anthropic'] and b['system'] == 'Be brief.' and b['max_tokens'] == 1024
    b = check_bedrock(GOOD['bedrock'], system=[{'text': 'Be brief.'}])
    assert b['messages'] == jsonable(GOOD['bedrock']) and b['system'] == [{'text': 'Be brief.'}]
    b = check_gemini(GOOD['gemini'], system_instruction='Be brief.')
    # the SDK camelCases known keys (inline_data -> inlineData, mime_type stays) and url-safe-base64s bytes
    assert b['contents'] == [{'role': 'user', 'parts': [{'text': 'hi'}, {'inlineData': {'mime_type': 'image/png',
        'data': base64.urlsafe_b64encode(b'\x89PNG').decode()}}]}]
    assert b['systemInstruction']['parts'] == [{'text': 'Be brief.'}]

def test_jsonable():
    x = AttrDict(a=(b'\x00\x01', {'b': [b'hi']}))
    assert jsonable(x) == {'a': ['AAE=', {'b': ['aGk=']}]} and type(jsonable(x)) is dict

def test_attrdict_messages_pass():
    check_anthropic([AttrDict(role='user', content=[AttrDict(type='text', text='hi')])])
    check_openai([AttrDict(role='user', content='hi')])

# ---------------------------------------------------------------- extra request fields (**kw)
def test_kw_checked():
    fails(check_openai, GOOD['openai'], instructions=3, match=r'\$instructions: expected str')
    fails(check_openai, GOOD['openai'], bogus=1, match='unknown request field')
    fails(check_openai_chat, GOOD['openai_chat'], tools=[{'type': 'function', 'function': {'name': 'f', 'foo': 1}}], match=r'\$tools\[0\]\.function\.foo')
    check_anthropic(GOOD['anthropic'], system=[{'type': 'text', 'text': 'Be brief.', 'cache_control': {'type': 'ephemeral'}}])
    fails(check_anthropic, GOOD['anthropic'], system=[{'type': 'text', 'text': 'x', 'foo': 1}], match=r'\$system\[0\]\.foo')
    fails(check_anthropic, GOOD['anthropic'], system={'type': 'text', 'text': 'x'}, match=r'\$system')
    fails(check_gemini, GOOD['gemini'], system_instructions='x', match=r'\$config\.system_instructions')
    fails(check_bedrock, GOOD['bedrock'], system='x', match='Invalid type for parameter system')

# ---------------------------------------------------------------- the OpenAI spec layer is not vacuous
def _body(items): return dict(model='gpt-4.1', input=items)

def test_spec_rejects_bad_items_directly():
    assert spec_errors(_body(GOOD['openai']), 'CreateResponse') == []
    bad = mod('openai', lambda x: x[0]['content'][1].update(image_url=3))
    assert '$.input[0].content[1].image_url' in spec_errors(_body(bad), 'CreateResponse')[0]
    assert spec_errors(_body([{'type': 'bogus', 'role': 'user', 'content': 'hi'}]), 'CreateResponse')
    assert spec_errors(_body(mod('openai', lambda x: x[0]['content'][1].update(type='image_url'))), 'CreateResponse')
    assert spec_errors(_body(mod('openai', lambda x: x[0].update(role='bot'))), 'CreateResponse')
    assert spec_errors(dict(model='gpt-4o', messages=[{'role': 'bot', 'content': 'hi'}]), 'CreateChatCompletionRequest')
    assert spec_errors(dict(model='gpt-4o', messages=[]), 'CreateChatCompletionRequest')  # minItems: 1
    # the spec's objects allow unknown keys: only `strict` (the SDK types) catches those
    assert spec_errors(_body(mod('openai', lambda x: x[0]['content'][1].update(foo=1))), 'CreateResponse') == []

def test_spec_alone_catches_output_text_without_logprobs():
    item = {'type': 'message', 'id': 'msg_1', 'role': 'assistant', 'status': 'completed',
            'content': [{'type': 'output_text', 'text': 'Hi', 'annotations': []}]}
    import openai.types.responses as R
    strict([item], R.ResponseInputParam)  # the SDK type has `logprobs` optional...
    fails(check_openai, [item], match=r'OpenAI spec CreateResponse: \$\.input\[0\]')  # ...the spec requires it
    item['content'][0]['logprobs'] = []
    check_openai([item])

def test_spec_alone_catches_empty_chat_messages():
    strict([], typing.Iterable[dict])
    fails(check_openai_chat, [], match=r'OpenAI spec CreateChatCompletionRequest: \$\.messages: \[\] should be non-empty')

def test_sdk_rejections_become_assertions():
    fails(check_gemini, [], match='the gemini SDK rejected the request: ValueError')

def test_chat_spec_nullable_handled():
    # `nullable: true` in the spec must admit None, or this good request would fail
    check_openai_chat([{'role': 'user', 'content': 'hi'}], max_completion_tokens=None, store=None)

# ---------------------------------------------------------------- guards
def test_mutation_guard():
    msgs = [{'role': 'user', 'content': 'hi'}]
    fails(_guarded, msgs, lambda: msgs[0].update(content='changed'), match='mutated')

def test_json_guard():
    blk = anthropic_message(thinking=False).content[0]  # an SDK model: the type admits it, JSON does not
    fails(check_anthropic, [{'role': 'assistant', 'content': [blk]}], match='not JSON-serializable')

# ---------------------------------------------------------------- strict() itself
class Src(TypedDict, total=False):
    type: Required[Literal['base64']]
    data: Required[str]
    note: str

class Blk(TypedDict):
    kind: Literal['img', 'doc']
    src: Annotated[Src, 'meta']
    tags: NotRequired[typing.Dict[str, int]]
    parts: NotRequired[typing.Iterable['Src']]  # forward ref

def test_strict_typeddicts():
    ok = {'kind': 'img', 'src': {'type': 'base64', 'data': 'x'}}
    strict(ok, Blk)
    strict({**ok, 'tags': {'a': 1}, 'parts': ({'type': 'base64', 'data': 'y', 'note': 'n'},)}, Blk)
    fails(strict, {**ok, 'x': 1}, Blk, match=r'\$\.x: unknown key')
    fails(strict, {'kind': 'img'}, Blk, match=r'\$\.src: missing required')
    fails(strict, {**ok, 'src': {'type': 'base64'}}, Blk, match=r'\$\.src\.data: missing required')
    fails(strict, {**ok, 'kind': 'vid'}, Blk, match=r'\$\.kind: expected one of')
    fails(strict, {**ok, 'tags': {'a': True}}, Blk, match=r'\$\.tags\.a: expected int')
    fails(strict, {**ok, 'parts': [ok['src'], {'type': 'base64', 'data': 1}]}, Blk, match=r'\$\.parts\[1\]\.data: expected str')
    fails(strict, {**ok, 'parts': ok['src']}, Blk, match=r'\$\.parts: expected a list')

def test_strict_scalars():
    strict(1.5, float); strict(2, float); strict(b'x', bytes); strict(None, typing.Optional[int]); strict('x', typing.Any)
    strict(object(), object); strict(io.BytesIO(b'x'), typing.IO[bytes])
    fails(strict, True, int, match='expected int')
    fails(strict, 1, bool, match='expected bool')
    fails(strict, True, float)
    fails(strict, 'x', bytes)
    fails(strict, 'ab', typing.List[str], match='expected a list')
    fails(strict, b'ab', typing.Sequence[int], match='expected a list')
    fails(strict, {'a': 1}, typing.Iterable[str], match='expected a list')
    fails(strict, 1, Literal[True])

def test_strict_union_reports_closest_member():
    from anthropic.types import MessageParam
    m = {'role': 'user', 'content': [{'type': 'image', 'source': {'type': 'url', 'url': 3}}]}
    fails(strict, m, MessageParam, match=r"^\$\.content\[0\]\.source\.url: expected str")
    from openai.types.responses import ResponseInputParam
    fails(strict, [{'type': 'function_call', 'call_id': 'c', 'name': 'f', 'arguments': {}}], ResponseInputParam,
          match=r'^\$\[0\]\.arguments: expected str')

def test_strict_union_lists_what_was_expected():
    from anthropic.types import MessageParam
    fails(strict, {'role': 'user', 'content': 3}, MessageParam, match=r"^\$\.content: expected str or a list, got 3")

def test_strict_sdk_aliases():
    from anthropic.types import ImageBlockParam
    from openai._types import SequenceNotStr
    img = lambda data: {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': data}}
    for data in ('iVBORw0KGgo=', io.BytesIO(b'x'), pathlib.Path('x.png')): strict(img(data), ImageBlockParam)  # Base64FileInput
    fails(strict, img(b'x'), ImageBlockParam, match=r'\$\.source\.data: expected str or IOBase or PathLike')
    strict(['a', 'b'], SequenceNotStr[str])
    fails(strict, 'ab', SequenceNotStr[str], match='expected a list')

# ---------------------------------------------------------------- response builders
def test_openai_response():
    from openai.types.responses import Response
    r = openai_response('Yo', tool_call=True)
    assert isinstance(r, Response) and [o.type for o in r.output] == ['reasoning', 'message', 'function_call']
    assert r.output[0].encrypted_content and r.output[0].summary[0].text and r.output_text == 'Yo'
    assert [o.type for o in openai_response(reasoning=False).output] == ['message']

def test_chat_completion():
    from openai.types.chat import ChatCompletion
    c = chat_completion('Yo')
    assert isinstance(c, ChatCompletion) and c.choices[0].message.content == 'Yo'
    assert chat_completion(tool_call=True).choices[0].message.tool_calls[0].function.name == 'get_current_weather'

def test_anthropic_message():
    from anthropic.types import Message
    m = anthropic_message('Yo', tool_use=True)
    assert isinstance(m, Message) and [b.type for b in m.content] == ['thinking', 'text', 'tool_use']
    assert m.content[0].signature and m.content[1].text == 'Yo' and m.stop_reason == 'tool_use'
    assert [b.type for b in anthropic_message(thinking=False).content] == ['text']

def test_gemini_response():
    from google.genai import types
    g = gemini_response('Yo', function_call=True)
    assert isinstance(g, types.GenerateContentResponse)
    ps = g.candidates[0].content.parts
    assert ps[0].thought and isinstance(ps[-1].thought_signature, bytes) and ps[-1].function_call.name == 'get_weather'
    assert gemini_response('Yo').text == 'Yo'
    assert not any(p.thought or p.thought_signature for p in gemini_response(thought=False).candidates[0].content.parts)

def test_bedrock_response():
    r = bedrock_response('Yo', tool_use=True)
    c = r['output']['message']['content']
    assert c[0]['reasoningContent']['reasoningText']['signature'] and c[1] == {'text': 'Yo'} and 'toolUse' in c[2]
    assert r['stopReason'] == 'tool_use' and r['usage']['totalTokens'] and 'ResponseMetadata' in r
    assert [list(b) for b in bedrock_response(reasoning=False)['output']['message']['content']] == [['text']]

def test_responses_feed_back_into_history():
    r = openai_response(tool_call=True)
    items = [o.model_dump(exclude_none=True) for o in r.output]
    check_openai([{'role': 'user', 'content': 'hi'}, *items, {'type': 'function_call_output', 'call_id': items[-1]['call_id'], 'output': '20C'}])
    m = anthropic_message(tool_use=True)
    blocks = [b.model_dump(exclude_none=True) for b in m.content]
    check_anthropic([{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': blocks},
                     {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': blocks[-1]['id'], 'content': '20C'}]}])
    c = gemini_response(function_call=True).candidates[0].content.model_dump(exclude_none=True)
    check_gemini([{'role': 'user', 'parts': [{'text': 'hi'}]}, c,
                  {'role': 'user', 'parts': [{'function_response': {'name': 'get_weather', 'response': {'t': 20}}}]}])
    b = bedrock_response(tool_use=True)['output']['message']
    check_bedrock([{'role': 'user', 'content': [{'text': 'hi'}]}, b,
                   {'role': 'user', 'content': [{'toolResult': {'toolUseId': b['content'][-1]['toolUse']['toolUseId'], 'content': [{'text': '20C'}]}}]}])
    a = chat_completion(tool_call=True).choices[0].message.model_dump(exclude_none=True)
    check_openai_chat([{'role': 'user', 'content': 'hi'}, a, {'role': 'tool', 'tool_call_id': 'call_abc123', 'content': '20C'}])

# ---------------------------------------------------------------- the documented rules beyond the types can fail too
from oracle import RULES
RULE_BAD = dict(
    openai=[[{'type':'function_call_output', 'call_id':'call_9', 'output':'x'}],
            [{'role':'user', 'content':'q'}, {'type':'reasoning', 'id':'rs_1', 'summary':[]}]],
    openai_chat=[[{'role':'user', 'content':'q'}, {'role':'assistant', 'content':None, 'tool_calls':[{'id':'c1', 'type':'function', 'function':{'name':'f', 'arguments':'{}'}}]},
                  {'role':'user', 'content':'next'}],
                 [{'role':'user', 'content':'q'}, {'role':'tool', 'tool_call_id':'c1', 'content':'x'}]],
    anthropic=[[{'role':'user', 'content':[{'type':'text', 'text':'  '}]}], [{'role':'user', 'content':[]}],
               [{'role':'user', 'content':[{'type':'tool_result', 'tool_use_id':'t1', 'content':'x'}]}],
               [{'role':'user', 'content':'q'}, {'role':'assistant', 'content':[{'type':'tool_use', 'id':'t', 'name':'f', 'input':{}}]*2}],
               [{'role':'user', 'content':'q'}, {'role':'assistant', 'content':[{'type':'tool_use', 'id':'t', 'name':'f', 'input':{}}]},
                {'role':'user', 'content':'next'}]],  # a call without its result
    gemini=[[{'role':'model', 'parts':[]}], [{'role':'user'}]],
    bedrock=[[{'role':'user', 'content':[{'text':' '}]}], [{'role':'user', 'content':[{'text':'a'}]}, {'role':'user', 'content':[{'text':'b'}]}],
             [{'role':'user', 'content':[{'text':'q'}, {'document':{'format':'txt', 'name':'n', 'source':{'bytes':b'a'}}},
                                        {'document':{'format':'txt', 'name':'n', 'source':{'bytes':b'b'}}}]}],
             [{'role':'user', 'content':[{'document':{'format':'txt', 'name':'n', 'source':{'bytes':b'a'}}}]}]],
)

@pytest.mark.parametrize('api,i', [(a, i) for a, bs in RULE_BAD.items() for i in range(len(bs))])
def test_rules_fail(api, i):
    with pytest.raises(AssertionError): RULES[api](RULE_BAD[api][i])

def test_vendored_spec_subset_is_current():
    "The vendored subset equals the subset of the official spec in ../shared (skipped only where ../shared is absent)"
    import os
    from oracle import SPEC
    from spec_subset import subset, load_vendored
    if not os.path.exists(SPEC): pytest.skip("../shared/openai-openapi/openapi.json is not beside this checkout")
    assert load_vendored() == json.loads(json.dumps(subset(json.load(open(SPEC))), sort_keys=True))
