"The rules every function keeps (DESIGN.md): public names, cheap import, no path reads from str, no network, no mutation, clear errors."
import copy, json, socket, subprocess, sys
import pytest
import msgkit
from msgkit import *

PUBLIC = {'mk_msg','mk_msgs','mk_doc','mk_ant_doc','mk_toolres','tool_calls','msg_text','usage','finish_reason','mk_request',
          'mk_msg_openai','mk_msgs_openai','mk_msg_anthropic','mk_msgs_anthropic','mk_msg_openai_chat','mk_msgs_openai_chat',
          'mk_msg_gemini','mk_msgs_gemini','mk_msg_bedrock','mk_msgs_bedrock','media','media_url','provider_file','apis',
          'jsonable','media_type','sample','Part','read_parts','Turn','LossWarning','read_history','render_history','mk_tool','mk_tools','mk_batch','read_batch','BatchError','mk_cache','est_tokens','trim'}

def test_public_names():
    "`from msgkit import *` gives exactly the user-facing names (no module names like `tools`, no adapter machinery)"
    ns = {}
    exec('from msgkit import *', ns)
    got = set(ns) - {'__builtins__'}
    dialects = {f'mk_msg{s}_{a}' for a in apis() if a not in ('openai','openai_chat','anthropic','gemini','bedrock') for s in ('','s')}
    assert got == PUBLIC | dialects | {'media_kind', 'get_api', 'stream_msg', 'stream_response', 'fetch', 'FetchError',
                                       'MsgStream', 'StreamError', 'body_events'}, got ^ PUBLIC
    assert callable(msgkit.fetch) and msgkit.__version__

def test_cheap_import():
    code = "import sys, msgkit; print(','.join(sorted({m.split('.')[0] for m in sys.modules}))) "
    mods = set(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.strip().split(','))
    assert not mods & {'httpx','httpx2','openai','anthropic','google','boto3','botocore','filetype','pydantic'}, mods

def test_str_is_never_a_path(tmp_path):
    f = tmp_path/'secret.txt'
    f.write_text('TOP SECRET')
    for api in apis():
        s = json.dumps(jsonable(mk_msgs([str(f), [str(f), 'summarise'], f"read {f}"], api=api)))
        assert 'TOP SECRET' not in s and str(f) in s
    assert 'TOP SECRET' in json.dumps(jsonable(mk_msg([f, 'summarise'], api='anthropic')))  # a Path is read

@pytest.fixture
def no_network(monkeypatch):
    def boom(*a, **k): raise AssertionError('msgkit touched the network')
    monkeypatch.setattr(socket.socket, 'connect', boom)
    monkeypatch.setattr(socket, 'create_connection', boom)
    monkeypatch.setattr(socket, 'getaddrinfo', boom)

def test_no_network_unless_asked(no_network):
    for api in apis():
        for u in ["https://example.com/cat.png", "https://arxiv.org/pdf/2506.18880", "https://example.com/page"]:
            try: mk_msg([u, "?"], api=api)
            except ValueError as e: assert 'fetch' in str(e) or "can't take" in str(e)

BAD = [3, 3.5, None, object(), b'\x00\x01\x02', {'foo': 'bar'}, {'type': 'bogus'}, {'role': 'user'}, [], [None],
       {'role': 'user', 'content': [{'type': 'image', 'source': {}}]}, {'type': 'function_call'}, {'role':'user', 'content':[3]},
       'data:image/png;base64,@@@', {'type':'input_image'}, {'toolUse': {}}, {'function_call': None}]

@pytest.mark.parametrize('api', ['openai','openai_chat','anthropic','gemini','bedrock'])
@pytest.mark.parametrize('i', range(len(BAD)))
def test_clear_errors(api, i):
    "Bad input gets a TypeError or ValueError that says what is wrong, never a bare KeyError/AttributeError, and is left as it was"
    x = BAD[i]
    before = copy.deepcopy(x) if not isinstance(x, object.__class__) else x
    try: mk_msg(x, api=api)
    except (TypeError, ValueError) as e: assert str(e) and not isinstance(e, KeyError), repr(e)
    else:
        # dicts already in the target API's own form pass through as they are: msgkit does not re-validate them
        own = {(10,'anthropic'), (11,'openai'), (14,'openai'), (15,'bedrock'), (16,'gemini')}
        if (i, api) not in own: pytest.fail(f"accepted {x!r}")
    if isinstance(x, (dict, list)): assert x == before

def test_errors_name_types():
    with pytest.raises(TypeError, match='from float'): mk_msg(3.5)
    with pytest.raises(ValueError, match="Unknown api 'gpt': msgkit knows anthropic, bedrock, gemini, openai, openai_chat"): mk_msg('hi', api='gpt')
    with pytest.raises(ValueError, match=r"api='anthropic' can't take video \(video/mp4\): it takes no video; bedrock, gemini can"):
        mk_msg([media(b'\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom'+b'\0'*16), '?'], api='anthropic')
