"The real `msgkit` command: --wire gives the body the SDK sends, --curl a command a shell runs, --indent 0 compact JSON."
import json, re, shutil, subprocess, sys
from pathlib import Path
import pytest
from msgkit import mk_request, apis

def msgkit(*args, **kw):
    "Run the installed `msgkit` command; its stdout"
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    assert exe, 'the msgkit command is not installed'
    r = subprocess.run([exe, *args], capture_output=True, text=True, **kw)
    assert r.returncode==0, r.stderr
    return r.stdout

MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4o', anthropic='claude-sonnet-4-5', gemini='gemini-2.5-flash', bedrock='anthropic.claude-3-5-sonnet-20240620-v1:0')

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_wire(api):
    out = json.loads(msgkit('--api', api, '--model', MODEL[api], '--system', 'Be brief.', '--wire', 'Hello'))
    assert out == mk_request([['Hello']], api, model=MODEL[api], system='Be brief.', wire=True)

def _heredoc(s): return json.loads(re.search(r"<<'MSGKIT_JSON'\n(.*)\nMSGKIT_JSON", s, re.S)[1])

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini'])
def test_curl(api):
    out = msgkit('--api', api, '--model', MODEL[api], '--curl', 'Hello')
    assert out.startswith('curl -sS "https://') or api=='openai_chat' and out.startswith('curl -sS "${OPENAI_BASE_URL:-https://api.openai.com/v1}/chat/completions"')
    subprocess.run(['bash', '-n'], input=out, text=True, check=True)
    assert _heredoc(out) == mk_request([['Hello']], api, model=MODEL[api], wire=True)
    if api=='gemini': assert f'/models/{MODEL[api]}:generateContent' in out and 'x-goog-api-key: $GEMINI_API_KEY' in out

def test_curl_bedrock_points_to_the_aws_cli():
    out = msgkit('--api', 'bedrock', '--model', MODEL['bedrock'], '--curl', 'Hello')
    assert 'SigV4' in out and 'aws bedrock-runtime converse --cli-input-json' in out
    subprocess.run(['bash', '-n'], input=out, text=True, check=True)
    assert _heredoc(out)['modelId'] == MODEL['bedrock']

def test_indent_0_is_compact():
    out = msgkit('--indent', '0', 'hi')
    assert out == '[{"role":"user","content":"hi"}]\n'
