"The real `msgkit` command: --wire gives the body the SDK sends, --curl a command a shell runs, --indent 0 compact JSON."
import json, re, shutil, subprocess, sys
from pathlib import Path
import pytest
from msgkit import mk_request, apis, mk_msg

def msgkit(*args, **kw):
    "Run the installed `msgkit` command; its stdout"
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    assert exe, 'the msgkit command is not installed'
    if 'input' not in kw: kw.setdefault('stdin', subprocess.DEVNULL)  # no content: the samples, not a wait on stdin
    r = subprocess.run([exe, *args], capture_output=True, text=True, **kw)
    assert r.returncode==0, r.stderr
    return r.stdout

MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4o', anthropic='claude-sonnet-4-5', gemini='gemini-2.5-flash', bedrock='anthropic.claude-3-5-sonnet-20240620-v1:0')

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_wire(api):
    out = json.loads(msgkit('--api', api, '--model', MODEL[api], '--system', 'Be brief.', '--wire', 'Hello'))
    assert out == mk_request([['Hello']], api, model=MODEL[api], system='Be brief.', wire=True)
    from test_request import sdk_body, camel  # and what the official SDK sends for the same call
    req = mk_request([['Hello']], api, model=MODEL[api], system='Be brief.')
    got = sdk_body(api, req)
    if api in ('openai', 'openai_chat', 'anthropic'): got = {**got, 'model': MODEL[api]}
    if api=='anthropic': got['max_tokens'] = req['max_tokens']
    assert camel(out) == camel(got) if api=='gemini' else out == got

def _heredoc(s): return json.loads(re.search(r"<<'MSGKIT_JSON'\n(.*)\nMSGKIT_JSON", s, re.S)[1])

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini'])
def test_curl(api):
    out = msgkit('--api', api, '--model', MODEL[api], '--curl', 'Hello')
    assert out.startswith('curl -sS https://') or api=='openai_chat' and out.startswith('curl -sS "${OPENAI_BASE_URL:-https://api.openai.com/v1}"/chat/completions')
    subprocess.run(['bash', '-n'], input=out, text=True, check=True)
    assert _heredoc(out) == mk_request([['Hello']], api, model=MODEL[api], wire=True)
    if api=='gemini': assert f'/models/{MODEL[api]}:generateContent' in out and "-H 'x-goog-api-key: '\"$GEMINI_API_KEY\"" in out

def test_curl_bedrock_points_to_the_aws_cli():
    out = msgkit('--api', 'bedrock', '--model', MODEL['bedrock'], '--curl', 'Hello')
    assert 'SigV4' in out and 'aws bedrock-runtime converse --cli-input-json file:///dev/stdin' in out
    subprocess.run(['bash', '-n'], input=out, text=True, check=True)
    assert _heredoc(out)['modelId'] == MODEL['bedrock']

def test_indent_0_is_compact():
    out = msgkit('--indent', '0', 'hi')
    assert out == '[{"role":"user","content":"hi"}]\n'

def test_cli_as_a_curl_user_meets_it(tmp_path):
    "Errors name the CLI's options; a file named without @ gets a hint; - reads stdin; a closed pipe ends quietly"
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    r = subprocess.run([exe, '--api', 'bedrock', 'https://example.com/cat.png'], capture_output=True, text=True)
    assert r.returncode!=0 and 'with --fetch' in r.stderr and 'mk_msg(' not in r.stderr
    f = tmp_path/'note.txt'; f.write_text('hello')
    r = subprocess.run([exe, str(f)], capture_output=True, text=True)
    assert r.returncode==0 and f"write @{f}" in r.stderr and json.loads(r.stdout)[0]['content']==str(f)
    assert json.loads(msgkit('-', input='What is 2+2?\n'))[0]['content'] == 'What is 2+2?'
    r = subprocess.run(f"{exe} --api all </dev/null | head -1", shell=True, capture_output=True, text=True, executable='/bin/bash')
    quiet = lambda err: 'Error' not in err and 'Traceback' not in err  # (the note about base64 bytes may be there)
    assert r.stdout=='{\n' and quiet(r.stderr), r.stderr
    r = subprocess.run(['bash', '-c', f"set -o pipefail; {exe} --api all </dev/null | head -1 >/dev/null"], capture_output=True, text=True)
    assert r.returncode==0 and quiet(r.stderr), r.stderr

def test_path_errors_name_the_file(tmp_path):
    p = tmp_path/'t.py'; p.write_text('print(1)')
    with pytest.raises(ValueError, match=r"Can't tell the media type of '.*t\.py'.*mt='text/plain'"): mk_msg(p)
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    r = subprocess.run([exe, f'@{p}'], capture_output=True, text=True)
    assert 't.py' in r.stderr

def test_office_by_content(tmp_path):
    "An Office file whose named parts come after a big thumbnail is still a .docx, not application/zip"
    import io, os, zipfile
    from msgkit import media_type
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z:
        z.writestr('[Content_Types].xml', '<x/>'); z.writestr('docProps/thumbnail.jpeg', os.urandom(20000)); z.writestr('word/document.xml', '<x/>')
    assert media_type(b.getvalue()) == 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    assert mk_msg([b.getvalue(), 'Summarise'], api='openai').content[0]['type'] == 'input_file'

def test_sdk_output_says_how_to_load_bytes_back(tmp_path):
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    png = Path(__import__('msgkit').sample('gradient.png'))
    r = subprocess.run([exe, '--api', 'bedrock', f'@{png}', 'What is this?'], capture_output=True, text=True)
    assert 'read it back with msgkit.mk_msgs' in r.stderr
    back = __import__('msgkit').mk_msgs(json.loads(r.stdout), api='bedrock')
    assert isinstance(back[0]['content'][0]['image']['source']['bytes'], bytes)
    assert 'base64' not in subprocess.run([exe, 'hi'], capture_output=True, text=True).stderr

def test_office_file_through_the_command(tmp_path):
    import io, os, zipfile
    p = tmp_path/'report.docx'
    with zipfile.ZipFile(p, 'w') as z:
        z.writestr('[Content_Types].xml', '<x/>'); z.writestr('docProps/thumbnail.jpeg', os.urandom(20000)); z.writestr('word/document.xml', '<x/>')
    out = json.loads(msgkit('--api', 'bedrock', f'@{p}', 'Summarise'))
    assert out[0]['content'][0]['document']['format'] == 'docx'

def test_cli_needs_and_refuses():
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    run = lambda *a, **kw: subprocess.run([exe, *a], capture_output=True, text=True, **kw)
    for api in ('openai', 'bedrock'): assert 'pass --model' in run('--api', api, '--curl', 'hi').stderr
    assert "can't read /no/such.jsonl" in run('batch', '/no/such.jsonl').stderr
    assert 'the prompt on stdin is empty' in run('-', input='\n').stderr
    assert msgkit('--api', 'anthropic', '--model', 'm', '--curl', '--indent', '0', 'hi').count('\n') == 7  # the JSON on one line

def test_fit(tmp_path):
    "--fit: a GIF for Gemini becomes a PNG; without it, the command says how to make it fit"
    import io, base64
    from PIL import Image
    frames = [Image.new('RGB', (320, 240), c) for c in ('red', 'blue')]
    b = io.BytesIO(); frames[0].save(b, 'GIF', save_all=True, append_images=frames[1:])
    f = tmp_path/'anim.gif'; f.write_bytes(b.getvalue())
    out = json.loads(msgkit('--api', 'gemini', '--fit', f'@{f}', 'What is this?'))
    blob = out[0]['parts'][0]['inline_data'] if 'parts' in out[0] else out['parts'][0]['inline_data']
    assert blob['mime_type'] == 'image/png' and Image.open(io.BytesIO(base64.b64decode(blob['data']))).size == (320, 240)
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    r = subprocess.run([exe, '--api', 'gemini', f'@{f}'], capture_output=True, text=True)
    assert r.returncode and "can't take image (image/gif)" in r.stderr and '(--fit converts an image to one it takes)' in r.stderr

def test_fit_says_what_changed_plainly(tmp_path):
    "--fit reports each change on one plain line in the command's own words (it was Python's warning format, saying fit=True)"
    import io
    from PIL import Image
    frames = [Image.new('RGB', (320, 240), c) for c in ('red', 'blue')]
    b = io.BytesIO(); frames[0].save(b, 'GIF', save_all=True, append_images=frames[1:])
    f = tmp_path/'anim.gif'; f.write_bytes(b.getvalue())
    exe = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')
    r = subprocess.run([exe, '--api', 'gemini', '--fit', f'@{f}', 'What is this?'], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stderr.splitlines() if 'image/gif' in l]
    assert len(lines) == 1 and lines[0].startswith('msgkit: ') and '(--fit)' in lines[0], r.stderr
    assert 'fit=True' not in r.stderr and 'LossWarning' not in r.stderr and 'changed or dropped' not in r.stderr and 'cli.py' not in r.stderr
    assert 'a 320×240 image/gif of' in lines[0] and 'sent as 320×240 image/png' in lines[0]
