"""Issue 20, items 5, 8 and 10: `read_batch` knows each provider's output line (and reads a file without `api=`, or
refuses a line of another API's), a list means one thing (a batch request is a history: media the alternation would
make the assistant's is refused; `mk_msg('hi', 'anthropic')` points at `api=`), and a PDF read from a `Path` keeps its
file name where the API takes one."""
import json, warnings, zipfile, io
from pathlib import Path
import pytest
from msgkit import mk_msg, mk_msgs, msg_text, usage, finish_reason, sample, BatchError
from msgkit.batch import read_batch, mk_batch, batch_line
from oracle import check, check_openai, check_openai_chat, check_bedrock
from test_batch import OPENAI_OUT, OPENAI_ERR, ANT_OUT, ANT_ERR, GEM_OUT, GEM_ERR, BED_OUT

# ---------------------------------------------------------------- item 5: read_batch
# Output lines as each provider documents them:
# OpenAI https://platform.openai.com/docs/guides/batch (and the API reference's `BatchRequestOutput`: id, custom_id,
#   response {status_code, request_id, body}, error);
# Anthropic https://docs.anthropic.com/en/docs/build-with-claude/batch-processing (custom_id, result {type:
#   succeeded|errored|canceled|expired, message|error});
# Gemini https://ai.google.dev/gemini-api/docs/batch-mode ("each line is either a GenerateContentResponse or a status
#   object", keyed by the input line's `key`);
# Bedrock https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-results.html ("An error object replaces
#   the modelOutput field in any line where there was an error"; the line below is the page's own example).
BED_DOC_ERR = ('{ "recordId" : "1223213ABCD", "modelInput" : {"inputText": "Hello world"}, '
               '"error" : {"errorCode" : 400, "errorMessage" : "bad request" }}')
ANT_CANCELED = '{"custom_id":"my-third-request","result":{"type":"canceled"}}'
OK = {'openai':OPENAI_OUT, 'anthropic':ANT_OUT, 'gemini':GEM_OUT, 'bedrock':BED_OUT}
TEXT = {'openai':'Hello.', 'anthropic':"Hello again! It's nice to see you.", 'gemini':'Paris.', 'bedrock':'Hello!'}

def test_a_succeeded_anthropic_result_is_a_response_without_api():
    "The bug: with the default api, a succeeded Anthropic result became `BatchError(... failed: {})`"
    (cid, r), = read_batch([ANT_OUT])
    assert not isinstance(r, BatchError) and cid=='my-first-request' and msg_text(r)==TEXT['anthropic']

def test_any_providers_lines_without_api():
    "A file is read without naming its API: each line says whose it is; failures are BatchErrors naming the request"
    lines = [OK[a] for a in OK] + [OPENAI_ERR, ANT_ERR, ANT_CANCELED, GEM_ERR, BED_DOC_ERR]
    got = list(read_batch(l + '\n' for l in lines))
    for (cid, r), a in zip(got[:4], OK):
        assert msg_text(r)==TEXT[a] and usage(r)['output']>0 and finish_reason(r)=='stop', a
    errs = [r for _, r in got[4:]]
    assert all(isinstance(e, BatchError) for e in errs)
    assert [e.id for e in errs]==['request-3', 'my-second-request', 'my-third-request', 'request-2', '1223213ABCD']
    assert 'Validation error' in str(errs[1]) and 'canceled' in str(errs[2]) and 'bad request' in str(errs[4])
    check('anthropic', mk_msgs(['Hi', got[1][1], 'Thanks'], api='anthropic'))

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_a_line_of_another_api_is_refused(api):
    "Named, an API reads its own lines, and refuses another's with an error saying whose it is"
    own = 'openai' if api=='openai_chat' else api
    assert msg_text(next(read_batch([OK[own]], api))[1])==TEXT[own]
    for other, line in OK.items():
        if other==own: continue
        with pytest.raises(ValueError, match=f"not api={api!r}'s: pass api={other!r}"): list(read_batch([line], api))

def test_lines_of_no_provider():
    with pytest.raises(ValueError, match="no provider's output line .*recordId.*custom_id"):
        list(read_batch(['{"id": "x", "output": "hi"}']))
    with pytest.raises(ValueError, match='Line 1 of the batch output is not JSON'):
        list(read_batch(['[' * 100000 + ']' * 100000]))  # no RecursionError
    with pytest.raises(TypeError, match='not a JSON object'): list(read_batch(['[1, 2]']))

# ---------------------------------------------------------------- item 8: one meaning for a list
png = sample('gradient.png').read_bytes()

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_media_as_the_assistants_turn_is_refused(api):
    "`mk_batch([..., ['What is this?', img]])`: that request is a history, so the image would be the model's reply"
    model = 'anthropic.claude-3-5-sonnet-20240620-v1:0' if api=='bedrock' else 'm'
    for req in (["What is this?", png], ["Describe", sample('gradient.png')], ["Hi", "Hello!", "Now this:", ["Caption", png]]):
        with pytest.raises(ValueError, match=r"would be the assistant's reply.*\[\['What is this\?', img\]\]"):
            list(mk_batch(["What is 2+2?", req], api, model=model, max_tokens=20))
    one, = mk_batch([[["What is this?", png]]], api, model=model, max_tokens=20)  # one message: text and image
    body = one.get('body') or one.get('params') or one.get('request') or one['modelInput']
    msgs = body.get('input') or body.get('messages') or body.get('contents')
    assert len(msgs)==1 and msgs[0]['role']=='user'

def test_media_the_caller_gave_the_assistant_role_is_kept():
    "Only the alternation's doing is refused: an item with its own assistant role keeps it"
    own = {'role':'model', 'parts':[{'inline_data':{'mime_type':'image/png', 'data':png}}]}  # a generated image
    line, = mk_batch([["Draw a gradient", own, "Thanks"]], 'gemini')
    assert [c['role'] for c in line['request']['contents']]==['user', 'model', 'user']

def test_mk_batch_documents_a_history():
    assert "a list is one request's turns" in mk_batch.__doc__ or "a list is one request's turns" in (
        __import__('msgkit')._docs.docs.get('msgkit.batch.mk_batch', ''))

def test_positional_api_hint():
    "`mk_msg('hi', 'anthropic')`: the second positional is the role (as in msglm); the error says to pass api="
    with pytest.raises(ValueError, match=r"second argument is the role .*pass api='anthropic'"): mk_msg('hi', 'anthropic')
    with pytest.raises(ValueError, match=r"pass api='gemini'"): mk_msg('hi', 'gemini')
    assert mk_msg('hi', 'assistant', 'anthropic')=={'role':'assistant', 'content':'hi'}
    assert mk_msg('hi', 'system', 'openai')['role']=='system'

# ---------------------------------------------------------------- item 10: a Path's file name
def _pdf(tmp_path, name):
    p = tmp_path/name; p.write_bytes(sample('report.pdf').read_bytes()); return p

def test_pdf_keeps_its_file_name(tmp_path):
    "`Path('report.pdf')` is sent as `report.pdf` (it was `document.pdf`), where the API takes a file name"
    p = _pdf(tmp_path, 'q3-report.pdf')
    m = mk_msg([p, 'Summarise'], api='openai')
    assert m['content'][0]['filename']=='q3-report.pdf'
    check_openai([m])
    m = mk_msg([p, 'Summarise'], api='openai_chat')
    assert m['content'][0]['file']['filename']=='q3-report.pdf'
    check_openai_chat([m])
    m = mk_msg([p, 'Summarise'], api='bedrock')
    assert m['content'][0]['document']['name']=='q3-report'  # Bedrock's document name, from the file's
    check_bedrock([m])

def test_a_name_that_says_another_type_is_not_kept(tmp_path):
    "OpenAI reads a file's type from its name: a PDF in `scan.bin` goes as `document.pdf`, as before"
    m = mk_msg([_pdf(tmp_path, 'scan.bin'), 'Summarise'], api='openai')
    assert m['content'][0]['filename']=='document.pdf'
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z: z.writestr('[Content_Types].xml', '<x/>'); z.writestr('word/document.xml', '<x/>')
    (tmp_path/'notes.docx').write_bytes(b.getvalue())
    assert mk_msg([tmp_path/'notes.docx', 'Summarise'], api='openai')['content'][0]['filename']=='notes.docx'
