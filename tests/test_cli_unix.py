"""The `msgkit` command as a Unix user meets it (issue 20 item 6, issue 23 items 6 and 13): a piped prompt, errors in
flag names, `--version`, `--fit` saying how to get Pillow, `--curl` output that is safe to pipe to `sh` whatever the
model is called, and no tracebacks for hostile arguments, stdin or batch lines: one line on stderr and status 2."""
import contextlib, io, json, os, random, shlex, shutil, subprocess, sys
from pathlib import Path
import pytest
import msgkit
from msgkit import mk_request, apis
from msgkit.cli import main

EXE = shutil.which('msgkit', path=str(Path(sys.executable).parent)) or shutil.which('msgkit')

def sh(*args, input=None, **kw):
    "Run the installed command; `(status, stdout, stderr)` (stdin: `input`, else nothing)"
    r = subprocess.run([EXE, *args], capture_output=True, text=isinstance(input, (str, type(None))), input=input,
                       stdin=None if input is not None else subprocess.DEVNULL, **kw)
    return r.returncode, r.stdout, r.stderr

def inproc(argv, stdin=''):
    "`main(argv)` in this process: `(status, stdout, stderr)`; anything but SystemExit escaping it fails the test"
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin if isinstance(stdin, bytes) else stdin.encode()), encoding='utf-8')
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try: main(argv); code = 0
            except SystemExit as e: code = e.code if isinstance(e.code, int) else 1
    finally: sys.stdin = old
    return code, out.getvalue(), err.getvalue()

# ---------------------------------------------------------------- issue 20, item 6
def test_piped_prompt():
    "With no content, a prompt piped in is the prompt; an empty pipe (or a terminal) gives the bundled samples"
    code, out, err = sh('--api', 'gemini', input='text\n')
    assert code==0 and json.loads(out)==[{'role':'user', 'parts':[{'text':'text'}]}], err
    code, out, _ = sh('--api', 'anthropic', '--model', 'claude-sonnet-4-5', '--wire', input='Summarise: the cat sat.')
    assert json.loads(out)==mk_request([['Summarise: the cat sat.']], 'anthropic', model='claude-sonnet-4-5', wire=True)
    code, out, _ = sh('--api', 'gemini', input='')
    assert code==0 and len(json.loads(out)[0]['parts'])==len(msgkit.sample())+1  # the samples
    code, out, _ = sh('What is', '-', input='2+2?\n')  # `-` among other content: the prompt from stdin, in its place
    assert json.loads(out)[0]['content']==[{'type':'input_text', 'text':'What is'}, {'type':'input_text', 'text':'2+2?'}]

def test_help_documents_stdin_and_version():
    code, out, _ = sh('--help')
    assert code==0 and '- for the prompt on stdin' in out and 'a prompt piped in' in out and '--version' in out
    code, out, _ = sh('--version')
    assert code==0 and out.strip()==f'msgkit {msgkit.__version__}'

def test_errors_name_flags():
    "The library's `model=...` is the command line's `--model`"
    code, _, err = sh('batch', '--api', 'anthropic', input='"hi"\n')
    assert code==2 and err=="msgkit batch: api='anthropic' batch lines name their model: pass --model\n"
    code, _, err = sh('--api', 'bedrock', '--curl', 'hi')
    assert code==2 and 'pass --model' in err and 'model=' not in err

def test_fit_without_pillow_says_what_to_install():
    "Without Pillow, --fit says so, with the distribution's own name (not PyPI's unrelated `msgkit`)"
    code = ("import sys; sys.modules['PIL'] = None; from msgkit.cli import main; "
            "sys.argv = ['msgkit', '--api', 'gemini', '--fit', 'hi']; main()")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode==2 and r.stderr.strip()==('msgkit: --fit resizes images with Pillow, which is not installed: '
                                                 'pip install "msgkit-llm[images]"'), r.stderr
    assert 'Traceback' not in r.stderr

# ---------------------------------------------------------------- issue 23, item 6: --curl | sh
HOSTILE = ['x"; echo INJECTED $(id -un); echo "', "x'; touch PWNED; echo '", '$(touch PWNED)', '`touch PWNED`',
           '${IFS}touch${IFS}PWNED', '$GEMINI_API_KEY', 'a\ntouch PWNED\n', '"; touch PWNED #', '\\"$(touch PWNED)\\"',
           "gemini-2.5-flash' -d @/etc/passwd -o 'x"]
HARNESS = r'''curl() { for a in "$@"; do printf 'ARG<%s>\n' "$a"; done; printf 'BODY<%s>\n' "$(cat)"; }
aws() { for a in "$@"; do printf 'ARG<%s>\n' "$a"; done; printf 'BODY<%s>\n' "$(cat)"; }
GEMINI_API_KEY=k-gem; OPENAI_API_KEY=k-oa; ANTHROPIC_API_KEY=k-ant
'''

@pytest.mark.parametrize('shell', ['sh', 'bash'])
@pytest.mark.parametrize('api', ['gemini', 'openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_curl_is_safe_to_pipe_to_sh(api, shell, tmp_path):
    "With a hostile --model, the printed command parses (`sh -n`), runs nothing but curl (a harmless stand-in here, no "
    "network), passes the model as a literal, and sends the request body mk_request makes"
    for model in HOSTILE:
        code, out, err = inproc(['--api', api, '--model', model, '--curl', 'Hello', '--indent', '0'])
        assert code==0, err
        if model==HOSTILE[0]: assert sh('--api', api, '--model', model, '--curl', 'Hello', '--indent', '0')[1]==out
        subprocess.run([shell, '-n'], input=out, text=True, check=True)
        r = subprocess.run([shell], input=HARNESS + out, text=True, capture_output=True, cwd=tmp_path)
        assert r.returncode==0 and r.stderr=='', (model, r.stderr)
        assert not list(tmp_path.iterdir()), f'{model!r} ran a command: {list(tmp_path.iterdir())}'
        assert not any(l.startswith('INJECTED') for l in r.stdout.split('\n'))
        body = json.loads(r.stdout.split('BODY<', 1)[1].rsplit('>', 1)[0])
        if api=='bedrock': assert body['modelId']==model
        else: assert body==mk_request([['Hello']], api, model=model, wire=True)
        if api=='gemini':
            url = f'https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent'
            assert f'ARG<{url}>' in r.stdout and 'ARG<x-goog-api-key: k-gem>' in r.stdout, r.stdout
        if api=='openai': assert 'ARG<-sS>\nARG<https://api.openai.com/v1/responses>\nARG<-H>' in r.stdout
        if api=='openai_chat': assert 'ARG<https://api.openai.com/v1/chat/completions>' in r.stdout  # the default base URL
        if api=='anthropic': assert 'ARG<x-api-key: k-ant>' in r.stdout

def test_curl_for_every_api_is_safe(tmp_path):
    code, out, _ = inproc(['--api', 'all', '--model', '$(touch PWNED)', '--curl', 'Hi'])
    subprocess.run(['sh', '-n'], input=out, text=True, check=True)
    r = subprocess.run(['sh'], input=HARNESS + out, text=True, capture_output=True, cwd=tmp_path)
    assert r.returncode==0 and not list(tmp_path.iterdir()) and r.stdout.count('BODY<')==len(apis(dialects=False))

# ---------------------------------------------------------------- issue 23, item 13: no tracebacks
def one_line(code, err):
    "A failure is status 2 and one line of stderr (argparse's own usage errors: its usage, then one `error:` line)"
    assert code==2, (code, err)
    assert 'Traceback' not in err
    lines = err.rstrip('\n').split('\n')
    assert len(lines)==1 or lines[-1].startswith(('msgkit: error:', 'msgkit batch: error:')), err
    return lines[-1]

def test_named_tracebacks_are_gone():
    "The two found: `msgkit @~nosuchuser/x` (RuntimeError from expanduser), and a deeply nested batch line (RecursionError)"
    assert 'no user' in one_line(*sh('@~nosuchuser/x')[::2])
    code, out, err = sh('~nosuchuser/x')  # without @ it is text: sent as it is
    assert code==0 and json.loads(out)[0]['content']=='~nosuchuser/x' and 'Traceback' not in err
    assert 'nested too deeply' in one_line(*sh('batch', '--api', 'gemini', input='{"prompt": ' + '['*100000 + ']'*100000 + '}\n')[::2])
    deep = '{"messages": [' + '{"role": "user", "content": ' * 300 + '"x"' + '}' * 300 + ']}\n'
    assert 'nested more than 100 levels' in one_line(*sh('batch', '--api', 'gemini', input=deep)[::2])

BAD_ARGS = [['@' + 'x'*5000], ['@/dev/null/x'], ['@/'], ['@/dev/zero'], ['@'], ['--indent', '-5', 'hi'], ['--indent', 'x', 'hi'],
            ['--indent', '999999999', 'hi'], ['--api', 'gemini', '--curl', 'hi'], ['--api', 'nope', 'hi'],
            ['--api', 'bedrock', 'https://example.com/a.png'], ['--model', 'm', '--system', '', '\x00'], ['-'],
            ['data:image/png;base64,AAAA'], ['data:;base64,' + 'A'*10], ['--cache', '--api', 'gemini', 'hi'],
            ['batch', '--max-tokens', 'x'], ['batch', '/'], ['batch', '--api', 'nope'], ['--wire', '--api', 'all', 'hi']]
BAD_STDIN = [(['-'], b'\xff\xfe\x00bad utf-8'), (['batch'], b'\xff\xfe\n'), (['batch'], b'{"prompt": NaN}\n'),
             (['batch'], b'[1, 2]\n'), (['batch'], b'null\n'), (['batch'], b'{"messages": 5}\n'), (['batch'], b'{"prompt": {"a": 1}}\n'),
             (['batch'], b'{"id": {"x": 1}, "prompt": "hi"}\n'), (['batch'], b'{"messages": [{"role": "tool", "content": 1}]}\n'),
             (['batch'], b'"' + b'\\ud800' + b'"\n'), (['batch'], b'{"prompt": "hi", "id": "has space"}\n'),
             (['batch'], b'{"prompt": 1e999}\n'), (['batch'], b'{' * 50000 + b'\n'), ([], b'\x00' * 1000),
             (['batch', '--api', 'bedrock'], b'{"messages": [[[' * 60 + b']]]' * 60 + b'}\n')]

@pytest.mark.parametrize('argv', BAD_ARGS, ids=range(len(BAD_ARGS)))
def test_hostile_arguments(argv):
    "Each is a clear result or one line and status 2, never a traceback (or any exception out of `main`)"
    code, out, err = inproc(argv)
    if code: one_line(code, err)
    else: json.loads(out) if '--curl' not in argv else None

@pytest.mark.parametrize('argv,stdin', BAD_STDIN, ids=range(len(BAD_STDIN)))
def test_hostile_stdin(argv, stdin):
    code, out, err = inproc(argv, stdin)
    if code: one_line(code, err)
    elif argv[:1]==['batch']: [json.loads(l) for l in out.splitlines()]
    else: json.loads(out)

def test_random_arguments_and_stdin():
    "A seeded fuzz of arguments and stdin: the same rule for every one"
    rnd = random.Random(23)
    pieces = ['@', '@@', '-', '~', '$(x)', '\x00', '\ud800', 'data:', 'http://', 'https://[::1', '..', '/', '{', '[', '"',
              '--api', 'gemini', '--model', '--curl', '--wire', '--fit', '--cache', '--system', 'batch', 'all']  # no --fetch: no network
    for _ in range(150):
        argv = [''.join(rnd.choice(pieces) for _ in range(rnd.randint(1, 3))) for _ in range(rnd.randint(0, 4))]
        argv = [a.replace('\x00', '') for a in argv] if rnd.random()<0.5 else argv
        stdin = bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 40))) if rnd.random()<0.5 else b'"hi"\n'
        code, out, err = inproc(argv, stdin)
        assert code in (0, 2), (argv, stdin, code, err)
        if code: one_line(code, err)
