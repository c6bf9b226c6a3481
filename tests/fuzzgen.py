"""Generators of awkward inputs for the property suite: strings that look like paths, URLs and data URIs, corrupted
media headers, provider- and SDK-shaped dicts with fields missing or of the wrong type, stream events, deep nesting and
odd scalars. Each takes a `random.Random`, so hypothesis drives them through `st.randoms()` (seeded, reproducible)."""
import base64, copy, json, math
from pathlib import Path
from types import SimpleNamespace

ODD = [None, True, False, 0, -1, 2**70, 1.5, math.nan, math.inf, -0.0, '', ' ', '\x00', '\u202e', 'a' * 3, [], {}, (), b'', bytearray(b'x'),
       set(), frozenset({1}), object, SimpleNamespace(), Ellipsis, 1j, range(3)]

STRINGS = ['/etc/passwd', '~/.ssh/id_rsa', './secret.txt', 'C:\\Windows\\win.ini', 'file:///etc/passwd', '../../etc/shadow', 'secret.txt',
           'http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:1/x.png', 'https://example.com/cat.png', 'https://example.com/a.pdf',
           'https://example.com/', 'ftp://example.com/x', 'javascript:alert(1)', 'http://exa mple.com', 'https://\x00/x.png', 'HTTPS://EXAMPLE.COM/X.JPG',
           'data:image/png;base64,iVBORw0KGgo=', 'data:image/png;base64,!!!!', 'data:text/plain,hello', 'data:,x', 'data:image/png;base64,',
           'data:application/pdf;base64,JVBERi0=', 'Data: the numbers', 'data:x/y;base64,' + 'A' * 4000, 'data:image/png;base64,' + base64.b64encode(b'\x89PNG\r\n\x1a\n').decode(),
           'Hello', 'What is in this image?', '{"role": "user"}', '[]', 'null', '\ud800', 'a' * 10000]

MAGIC = [b'\x89PNG\r\n\x1a\n', b'\xff\xd8\xff\xe0', b'GIF89a', b'GIF87a', b'%PDF-1.4', b'RIFF\x00\x00\x00\x00WAVE', b'RIFF\x10\x00\x00\x00WEBPVP8 ',
         b'ID3\x03', b'\xff\xfb', b'\x00\x00\x00\x18ftypmp42', b'\x1aE\xdf\xa3', b'PK\x03\x04', b'OggS', b'fLaC', b'BM', b'II*\x00', b'\x00\x00\x00\x0cftypheic']

def media_bytes(r):
    "Bytes that start like a media file and go wrong after"
    b = r.choice(MAGIC)
    tail = bytes(r.getrandbits(8) for _ in range(r.choice([0, 1, 7, 30, 200])))
    return b + tail if r.random() < 0.8 else tail

def png(w=2, h=2):
    import zlib, struct
    raw = b''.join(b'\x00' + b'\x00\x00\x00' * w for _ in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')

B64 = base64.b64encode(png()).decode()

# valid examples of each API's forms; `shaped` breaks them
TEMPLATES = [
    # Anthropic
    {'role': 'user', 'content': [{'type': 'text', 'text': 'hi'}]},
    {'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': 't', 'signature': 'sig'}, {'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': {'a': 1}}]},
    {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': [{'type': 'text', 'text': 'r'}], 'is_error': False}]},
    {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': B64}},
    {'type': 'image', 'source': {'type': 'url', 'url': 'https://example.com/a.png'}},
    {'type': 'document', 'source': {'type': 'text', 'media_type': 'text/plain', 'data': 'doc'}, 'title': 't', 'citations': {'enabled': True}},
    {'type': 'document', 'source': {'type': 'content', 'content': [{'type': 'text', 'text': 'c'}]}},
    {'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'claude', 'content': [{'type': 'text', 'text': 'hi', 'citations': None}],
     'stop_reason': 'end_turn', 'stop_sequence': None, 'usage': {'input_tokens': 1, 'output_tokens': 2}},
    # OpenAI Responses
    {'type': 'message', 'role': 'user', 'content': [{'type': 'input_text', 'text': 'hi'}, {'type': 'input_image', 'image_url': 'data:image/png;base64,' + B64, 'detail': 'auto'}]},
    {'type': 'function_call', 'call_id': 'call_1', 'name': 'f', 'arguments': '{"a": 1}'},
    {'type': 'function_call_output', 'call_id': 'call_1', 'output': 'r'},
    {'type': 'reasoning', 'id': 'rs_1', 'summary': [], 'encrypted_content': 'gAAA'},
    {'id': 'resp_1', 'object': 'response', 'status': 'completed', 'model': 'gpt', 'output': [
        {'type': 'message', 'id': 'msg_1', 'role': 'assistant', 'status': 'completed', 'content': [{'type': 'output_text', 'text': 'hi', 'annotations': []}]}],
     'usage': {'input_tokens': 1, 'output_tokens': 1, 'total_tokens': 2}},
    # Chat Completions
    {'role': 'assistant', 'content': None, 'tool_calls': [{'id': 'call_1', 'type': 'function', 'function': {'name': 'f', 'arguments': '{}'}}]},
    {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'r'},
    {'role': 'user', 'content': [{'type': 'image_url', 'image_url': {'url': 'data:image/png;base64,' + B64}}, {'type': 'input_audio', 'input_audio': {'data': 'AAAA', 'format': 'wav'}}]},
    {'id': 'c1', 'object': 'chat.completion', 'created': 1, 'model': 'gpt', 'choices': [{'index': 0, 'finish_reason': 'stop', 'message': {'role': 'assistant', 'content': 'hi'}}],
     'usage': {'prompt_tokens': 1, 'completion_tokens': 1, 'total_tokens': 2}},
    {'id': 'c1', 'object': 'chat.completion', 'created': 1, 'model': 'gpt', 'choices': []},
    # Gemini
    {'role': 'model', 'parts': [{'text': 'hi', 'thought_signature': b'sig'}, {'function_call': {'name': 'f', 'args': {}}}]},
    {'role': 'user', 'parts': [{'inline_data': {'mime_type': 'image/png', 'data': png()}}, {'file_data': {'file_uri': 'https://generativelanguage.googleapis.com/v1beta/files/x', 'mime_type': 'image/png'}}]},
    {'role': 'user', 'parts': [{'function_response': {'name': 'f', 'response': {'output': 'r'}}}]},
    {'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'hi'}]}, 'finish_reason': 'STOP'}], 'usage_metadata': {'prompt_token_count': 1}},
    {'candidates': []},
    # Bedrock
    {'role': 'user', 'content': [{'text': 'hi'}, {'image': {'format': 'png', 'source': {'bytes': png()}}}, {'document': {'format': 'pdf', 'name': 'd', 'source': {'bytes': b'%PDF-1.4'}}}]},
    {'role': 'assistant', 'content': [{'toolUse': {'toolUseId': 't1', 'name': 'f', 'input': {}}}, {'reasoningContent': {'reasoningText': {'text': 'r', 'signature': 's'}}}]},
    {'role': 'user', 'content': [{'toolResult': {'toolUseId': 't1', 'content': [{'text': 'r'}, {'json': {'a': 1}}], 'status': 'success'}}]},
    {'output': {'message': {'role': 'assistant', 'content': [{'text': 'hi'}]}}, 'stopReason': 'end_turn', 'usage': {'inputTokens': 1, 'outputTokens': 1}},
    {'output': {}, 'stopReason': 'end_turn'},
    # stream events
    {'type': 'message_start', 'message': {'id': 'm', 'type': 'message', 'role': 'assistant', 'content': [], 'model': 'c', 'usage': {'input_tokens': 1, 'output_tokens': 0}}},
    {'type': 'content_block_delta', 'index': 0, 'delta': {'type': 'text_delta', 'text': 'x'}},
    {'type': 'content_block_start', 'index': 0, 'content_block': {'type': 'tool_use', 'id': 't', 'name': 'f', 'input': {}}},
    {'type': 'response.output_text.delta', 'item_id': 'm', 'output_index': 0, 'content_index': 0, 'delta': 'x'},
    {'type': 'response.completed', 'response': {'id': 'r', 'object': 'response', 'status': 'completed', 'output': []}},
    {'id': 'c', 'object': 'chat.completion.chunk', 'created': 1, 'model': 'm', 'choices': [{'index': 0, 'delta': {'content': 'x'}, 'finish_reason': None}]},
    {'id': 'c', 'object': 'chat.completion.chunk', 'created': 1, 'model': 'm', 'choices': []},
    {'contentBlockDelta': {'contentBlockIndex': 0, 'delta': {'text': 'x'}}},
    {'messageStart': {'role': 'assistant'}},
    # tools
    {'name': 'f', 'description': 'd', 'input_schema': {'type': 'object', 'properties': {'a': {'type': 'integer'}}}},
    {'type': 'function', 'function': {'name': 'f', 'parameters': {'type': 'object', 'properties': {}}}},
    {'toolSpec': {'name': 'f', 'inputSchema': {'json': {'type': 'object'}}}},
    {'function_declarations': [{'name': 'f', 'parameters': {'type': 'OBJECT'}}]},
    # other formats
    {'kind': 'tool_call', 'role': 'assistant', 'content': 'x', 'tool_calls': [{'id': 'c', 'function': {'name': 'f', 'arguments': '{}'}}]},
    {'role': 'text', 'content': 'x'},
]

def _paths(d, p=()):
    "Every path to a value inside `d` (to 20 levels)"
    yield p
    if len(p) > 20: return
    if isinstance(d, dict):
        for k, v in d.items(): yield from _paths(v, p + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d): yield from _paths(v, p + (i,))

def shaped(r):
    "A provider- or SDK-shaped dict with one to three fields replaced by odd values, removed, or left as they are"
    d = copy.deepcopy(r.choice(TEMPLATES))
    for _ in range(r.choice([0, 1, 1, 2, 3])):
        ps = [p for p in _paths(d) if p]
        if not ps: break
        p = r.choice(ps)
        parent = d
        for k in p[:-1]: parent = parent[k]
        how = r.random()
        if how < 0.3 and isinstance(parent, dict): del parent[p[-1]]
        elif how < 0.3 and isinstance(parent, list): parent.pop(p[-1])
        else: parent[p[-1]] = value(r, 1)
    return d

def sdk_like(r):
    "An object with the attributes an SDK response has, some wrong"
    d = shaped(r)
    return SimpleNamespace(**{str(k): v for k, v in d.items()}) if isinstance(d, dict) else d

def nested(r, depth=None):
    depth = depth or r.choice([5, 50, 400, 1200])
    o = r.choice(['x', {'type': 'text', 'text': 'x'}, b'\x89PNG'])
    for _ in range(depth): o = [o] if r.random() < 0.7 else {'role': 'user', 'content': [o]}
    return o

def value(r, depth=0):
    "One awkward input"
    k = r.random()
    if k < 0.12: return r.choice(ODD)
    if k < 0.30: return r.choice(STRINGS) if r.random() < 0.8 else ''.join(chr(r.randrange(0x20, 0x2000)) for _ in range(r.randrange(12)))
    if k < 0.40: return media_bytes(r)
    if k < 0.68: return shaped(r)
    if k < 0.74: return sdk_like(r)
    if k < 0.78: return nested(r) if depth == 0 else r.choice(ODD)
    if k < 0.82: return Path(r.choice(['/nonexistent/x.png', '/dev/null', '/proc/self/status', '/']))
    if depth < 2: return [value(r, depth + 1) for _ in range(r.randrange(4))]
    return r.choice(STRINGS)

# what JSON can't hold (or holds only once converted), for the wire=True property: sets, ranges, functions, Ellipsis,
# memoryview, NaN and the infinities, complex, tuples and non-str keys
UNJSON = [set(), {1, 2}, frozenset({'a'}), range(3), len, lambda: 0, Ellipsis, memoryview(b'mv'), math.nan, math.inf, -math.inf,
          1j, (1, 'a'), {1: 'int key'}, {None: 'none key'}, {(1, 2): 'tuple key'}, object(), b'\x00\xff', bytearray(b'ba')]

def jsonish(r, depth=0):
    "A JSON-like value (what a tool's arguments or a pass-through field hold) with, now and then, a leaf JSON can't hold"
    k = r.random()
    if k < 0.25: return r.choice(UNJSON)
    if k < 0.5 or depth > 3: return r.choice([None, True, 0, -7, 2**70, 1.5, -0.0, '', 'text', '\u202e', 'a' * 50])
    if k < 0.75: return {r.choice(['a', 'b', 'x', 'y', 'z']) + str(i): jsonish(r, depth + 1) for i in range(r.randrange(4))}
    return [jsonish(r, depth + 1) for _ in range(r.randrange(4))]
