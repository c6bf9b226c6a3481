"""Every key of every adapter's exact form (its `msg_shape` and `block_shape`) is one the provider's own request type has
at that place: the SDK TypedDicts for OpenAI and Anthropic, google-genai's pydantic models, botocore's Converse shape.
So a dict that fits a shape is one the provider takes, key for key; only the extras listed (and cited) here are not."""
import typing, collections.abc as abc
import typing_extensions as te
import pytest
from msgkit import get_api
from msgkit.shapes import By, OneOf, Shape
from oracle import _unwrap, _hints, _UNIONS, _required

# Gemini's OpenAI-compatible endpoint puts thought signatures in `extra_content` on a tool call and needs them back
# (ai.google.dev/gemini-api/docs/openai, "Thought signatures"): not in the OpenAI SDK's types, kept for Chat on purpose.
EXTRAS = {('openai_chat', 'extra_content')}
LOOSE = set()  # (api, path) of shapes allowed to require less than the SDK

def _members(a):
    a = _unwrap(a)
    return [m for x in typing.get_args(a) for m in _members(x)] if typing.get_origin(a) in _UNIONS else [a]

def _items(a):
    "The element annotations of the list types in annotation `a`"
    out = []
    for m in _members(a):
        o = typing.get_origin(m)
        if o in (list, tuple, abc.Iterable, abc.Sequence, typing.Iterable) and typing.get_args(m): out += _members(typing.get_args(m)[0])
    return out

def _tds(anns): return [m for a in anns for m in _members(a) if te.is_typeddict(m)]

def _lit(td, k):
    a = _hints(td).get(k)
    return {v for m in _members(a) if typing.get_origin(m) is typing.Literal for v in typing.get_args(m)} if a is not None else set()

def check_td(shape, anns, path, api, bad, tag=()):
    "Walk `shape` beside SDK annotations `anns`, noting in `bad` each key no TypedDict there has, and each required key it does not need"
    if shape is None or isinstance(shape, (type, str)): return
    if isinstance(shape, OneOf):
        for s in shape: check_td(s, anns, path, api, bad, tag)
    elif isinstance(shape, list): check_td(shape[0], [x for a in anns for x in _items(a)], f'{path}[]', api, bad)
    elif isinstance(shape, By):
        for tag, s in shape.items():
            tds = [t for t in _tds(anns) if tag in _lit(t, shape.key)]
            if not tds: bad.append(f'{path}<{shape.key}={tag}>: no such member'); continue
            check_td(s, tds, f'{path}<{tag}>', api, bad, (shape.key,))  # `By` itself needs its key
    elif isinstance(shape, dict):
        tds = _tds(anns)
        # what every request type here requires, the shape must require too: else a block missing it would pass through
        req = set.intersection(*[set(_required(t)) for t in tds]) if tds else set()
        miss = req - set(getattr(shape, 'need', ())) - set(tag)
        if miss and (api, path) not in LOOSE: bad.append(f'{path}: needs {sorted(miss)}')
        for k, s in shape.items():
            has = [t for t in tds if k in _hints(t)]
            if not has:
                if (api, k) not in EXTRAS: bad.append(f'{path}.{k}')
                continue
            check_td(s, [_hints(t)[k] for t in has], f'{path}.{k}', api, bad)

def sdk_type(api):
    if api=='anthropic':
        from anthropic.types import MessageParam, ContentBlockParam
        return MessageParam, ContentBlockParam
    if api=='openai_chat':
        from openai.types.chat import ChatCompletionMessageParam, ChatCompletionContentPartParam
        from openai.types.chat.chat_completion_content_part_refusal_param import ChatCompletionContentPartRefusalParam
        return ChatCompletionMessageParam, typing.Union[ChatCompletionContentPartParam, ChatCompletionContentPartRefusalParam]
    from openai.types.responses import ResponseInputItemParam, ResponseInputContentParam
    from openai.types.responses.response_output_text_param import ResponseOutputTextParam
    from openai.types.responses.response_output_refusal_param import ResponseOutputRefusalParam
    return ResponseInputItemParam, typing.Union[ResponseInputContentParam, ResponseOutputTextParam, ResponseOutputRefusalParam]

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic'])
def test_shapes_match_sdk_types(api):
    ad, (msg, block), bad = get_api(api), sdk_type(api), []
    check_td(ad.msg_shape, [msg], '$', api, bad)
    check_td(ad.block_shape, [block], '$block', api, bad)
    assert not bad, bad

def check_pyd(shape, model, path, bad):
    "Walk `shape` beside pydantic `model` (google-genai), by field name or alias"
    from pydantic import BaseModel
    if shape is None or not isinstance(shape, dict) or not (isinstance(model, type) and issubclass(model, BaseModel)):
        if isinstance(shape, list) and model is not None: check_pyd(shape[0], model, path, bad)
        return
    fs = {a: f for n, f in model.model_fields.items() for a in (n, f.alias) if a}
    for k, s in shape.items():
        if k not in fs: bad.append(f'{path}.{k}'); continue
        ann = [m for m in _members(fs[k].annotation) if m is not type(None)]
        el = [x for a in ann for x in (_items(a) or [a])]
        for m in el: check_pyd(s, m, f'{path}.{k}', bad)

def test_gemini_shapes_match_genai_models():
    from google.genai import types
    ad, bad = get_api('gemini'), []
    check_pyd(ad.msg_shape, types.Content, '$', bad)
    check_pyd(ad.block_shape, types.Part, '$part', bad)
    assert not bad, bad

def check_boto(shape, bs, path, bad):
    "Walk `shape` beside botocore shape `bs`"
    if shape is None or isinstance(shape, (type, str, OneOf)): return
    if isinstance(shape, list): return check_boto(shape[0], bs.member, f'{path}[]', bad)
    if set(bs.required_members) - set(getattr(shape, 'need', ())): bad.append(f'{path}: needs {sorted(set(bs.required_members) - set(getattr(shape, "need", ())))}')
    for k, s in shape.items():
        if k not in bs.members: bad.append(f'{path}.{k}'); continue
        m = bs.members[k]
        check_boto(s, m if m.type_name!='list' or isinstance(s, list) else m.member, f'{path}.{k}', bad)

def test_bedrock_shapes_match_botocore():
    import boto3
    c = boto3.client('bedrock-runtime', region_name='us-east-1', aws_access_key_id='x', aws_secret_access_key='x')
    msg = c.meta.service_model.operation_model('Converse').input_shape.members['messages'].member
    ad, bad = get_api('bedrock'), []
    check_boto(ad.msg_shape, msg, '$', bad)
    check_boto(ad.block_shape, msg.members['content'].member, '$block', bad)
    assert not bad, bad

def test_a_wrong_key_fails_the_check():
    "The walk itself can fail: a made-up key in a shape is found"
    from msgkit.shapes import S
    bad = []
    check_td(S(role=None, content=None, tool_calls=None, _need=('role','content')), [sdk_type('anthropic')[0]], '$', 'anthropic', bad)
    assert bad == ['$.tool_calls']
    bad = []
    check_td(S(role=None, content=None), [sdk_type('anthropic')[0]], '$', 'anthropic', bad)  # a required key left optional
    assert bad == ["$: needs ['content', 'role']"]
    bad = []
    check_pyd(S(parts=[S(text=None, thinking=None)]), __import__('google.genai.types', fromlist=['Content']).Content, '$', bad)
    assert bad == ['$.parts.thinking']
