"""Issue #17, group B (media in tool results and assistant turns): corpus cases judged by the providers' validators
(`oracle`) and by the corpus invariants (`corpus_check`), each failing on 135ffd6"""
import copy, functools, warnings
import pytest
import corpus_check as cc, oracle
import msgkit
from msgkit import LossWarning
from msgkit.errors import InputError

@functools.lru_cache(None)
def _cases(): return {c['id']: c for c in cc.load_cases()}
def case(id): return copy.deepcopy(_cases()[id])

def fails(id, api, how):
    "The corpus failures of case `id` for `api`/`how`, as (class, detail)"
    c = case(id)
    r, losses, err = cc.render(c, api, how)
    if err: return [(cc.classify(dict(kind='raised', detail=err), api, how, c), err)]
    o = cc.judge_oracle(api, r, how)
    fs = [dict(kind='oracle', detail=o)] if o else []
    fs += [dict(kind=k, detail=d) for k, d in cc.invariants(c, api, r, how, losses)]
    return [(cc.classify(f, api, how, c), f['detail']) for f in fs]

def media_keys(x): return {a[1] for a in cc.atoms(x) if a[0] == 'media'}

# ---------------------------------------------------------------- tool-result media moved to a user turn (Chat)
MOVED = ['litellm-factory-tool-result-image-url-string', 'lc-anthropic-test__format_messages_with_tool_calls-L966',
         'docs-anthropic-tool-result-image', 'litellm-factory-tool-result-two-anthropic-images']

@pytest.mark.parametrize('id', MOVED)
def test_moved_media_label_and_placeholder_pass(id):
    "'label added before tool-result media moved to a user turn', 'placeholder tool-result text (an empty result)'"
    for how in cc.HOWS:
        assert fails(id, 'openai_chat', how) == [], (how, fails(id, 'openai_chat', how))
    c = case(id)
    r, _, err = cc.render(c, 'openai_chat', 'mk_msgs')
    assert err is None
    oracle.check('openai_chat', r)  # Chat takes it
    i = next(i for i, m in enumerate(r) if m['role'] == 'user' and isinstance(m['content'], list)
             and any(b.get('text', '').startswith('Files from tool call') for b in m['content']))
    assert r[i - 1]['role'] == 'tool'  # the media right after the tool messages, every one of them kept
    assert media_keys(cc.history(c)) <= media_keys(r[i])

def _moved():
    c = case('litellm-factory-tool-result-image-url-string')
    r, losses, err = cc.render(c, 'openai_chat', 'mk_msgs')
    assert err is None and [m['role'] for m in r] == ['user', 'assistant', 'tool', 'user']
    assert r[2]['content'] == 'The result is in the next message.'
    assert r[3]['content'][0]['text'] == 'Files from tool call call_123:'
    return c, r, losses

def kinds(c, r, losses): return {k for k, _ in cc.invariants(c, 'openai_chat', r, 'mk_msgs', losses)}

def test_judge_still_fails_a_stray_placeholder_or_label():
    "The judge accepts exactly the moved structure: a placeholder or label that points at nothing still fails"
    c, r, losses = _moved()
    assert kinds(c, r, losses) == set()
    # the user turn with the media gone: the placeholder points at nothing (and the media is lost)
    k = kinds(c, r[:3], losses)
    assert 'placeholder tool-result text (an empty result)' in k and 'media lost silently' in k
    # the label names no call of the turn
    bad = copy.deepcopy(r); bad[3]['content'][0]['text'] = 'Files from tool call call_999:'
    assert 'text added: label added before tool-result media moved to a user turn' in kinds(c, bad, losses)
    # the label followed by no media (a text, or a block that is no media)
    bad = copy.deepcopy(r); bad[3]['content'][1:] = [dict(type='text', text='x')]
    assert {'text added: label added before tool-result media moved to a user turn',
            'placeholder tool-result text (an empty result)'} <= kinds(c, bad, losses)
    bad = copy.deepcopy(r); bad[3]['content'][1:] = [dict(type='tool_reference', tool_name='get_image')]
    assert 'text added: label added before tool-result media moved to a user turn' in kinds(c, bad, losses)
    # the labelled media not right after the tool messages (an assistant turn between)
    bad = r[:3] + [dict(role='assistant', content='Go.')] + r[3:]
    assert 'text added: label added before tool-result media moved to a user turn' in kinds(c, bad, losses)
    # the placeholder where nothing moved (a result with text)
    bad = copy.deepcopy(r); bad[2]['content'] = 'The result is in the next message.'; del bad[3]
    assert 'placeholder tool-result text (an empty result)' in kinds(c, bad, losses)

# ---------------------------------------------------------------- instructor's {'type': 'image', 'source': url}
def test_instructor_image_source_is_read():
    "'image type the target API cannot take': instructor's media dict (autodetect_images) is an image by URL"
    id = 'instructor-multimodal-test_multimodal_image_description_autodetect_image_params-L97'
    url = 'https://raw.githubusercontent.com/instructor-ai/instructor/main/tests/assets/image.jpg'
    for api in ('openai', 'openai_chat', 'anthropic', 'gemini'):
        assert fails(id, api, 'mk_request') == [], (api, fails(id, api, 'mk_request'))
    r = msgkit.mk_request(case(id)['msgs'], api='anthropic', model='m')
    assert r['messages'][0]['content'][1] == dict(type='image', source=dict(type='url', url=url))
    oracle.APIS['anthropic'](r['messages'], system=r['system'])
    # Bedrock fetches no URL: the usual clear error, with the way out
    assert fails(id, 'bedrock', 'mk_request')[0][0] == 'expected: a URL the API cannot take (needs fetch=True)'

def test_instructor_cache_control_reported():
    id = 'instructor-multimodal-test_multimodal_image_description_autodetect_image_params_cache-L135'
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = msgkit.mk_request(case(id)['msgs'], api='openai', model='m')
    user = next(m for m in r['input'] if m.get('role') == 'user')
    assert [b['type'] for b in user['content']] == ['input_text', 'input_image', 'input_image']
    assert any(issubclass(w.category, LossWarning) and 'cache_control' in str(w.message) for w in ws)
    assert fails(id, 'openai', 'mk_request') == []

# ---------------------------------------------------------------- langchain-aws's Converse blocks
def test_langchain_converse_image_block_is_read():
    "'A LangChain image block needs a url, base64 data or a file_id': langchain-aws's `{'type': 'image', 'image': ..}`"
    id = 'lc-aws-aws-bedrock_converse-test__messages_to_bedrock-L405-dict'
    c = case(id)
    for api in ('openai_chat', 'bedrock'):
        assert fails(id, api, 'mk_request') == [], (api, fails(id, api, 'mk_request'))
    r = msgkit.mk_request(c['msgs'], api='bedrock', model='m')
    blocks = [b for m in r['messages'] for b in m['content']]
    assert any('image' in b and b['image']['format'] == 'jpeg' for b in blocks)
    assert any('document' in b and b['document']['format'] == 'pdf' for b in blocks)
    assert any('video' in b and b['video']['format'] == 'mp4' for b in blocks)
    assert media_keys(cc.history(c)) <= media_keys(r['messages'])

# ---------------------------------------------------------------- litellm's 'www.mock.com'
def test_scheme_less_url_names_the_way_out():
    "'Not an http(s) URL: 'www.mock.com'': refused (no API fetches it), the error says to give the scheme"
    id = 'litellm-factory-azure-image-url-string'
    for api in cc.APIS:
        (k, d), = fails(id, api, 'mk_msgs')
        assert k == 'expected: a URL without its scheme (a test placeholder)' and "'https://www.mock.com'" in d
    with pytest.raises(InputError, match=r"Not an http\(s\) URL: 'file:///x.png'$"):  # no scheme to suggest there
        msgkit.mk_msg(dict(type='image_url', image_url=dict(url='file:///x.png')), api='openai')

# ---------------------------------------------------------------- media in an assistant turn (item 17)
@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'bedrock'])
def test_assistant_media_refused_with_the_way_out(api):
    "'media in an assistant turn (model-made image/audio) refused', 'api='anthropic' takes images only in user turns'"
    id = 'docs-gemini-image-generation-turn'
    for how in cc.HOWS:
        (k, d), = fails(id, api, how)
        assert k == 'expected: media in an assistant turn (model-made image/audio), refused', (k, d)
        assert 'user message, or leave it out' in d
    assert fails(id, 'gemini', 'mk_request') == []  # Gemini takes its own model-made image back

def test_langchain_ai_audio_refused_with_the_way_out():
    id = 'lc-aws-aws-bedrock_converse-test__messages_to_bedrock_preserves_ai_audio_block-L766-dict'
    for api in ('openai_chat', 'bedrock'):
        (k, d), = fails(id, api, 'mk_request')
        assert k == 'expected: media in an assistant turn (model-made image/audio), refused', (k, d)

# ---------------------------------------------------------------- media a kind the API has no place for
def test_langchain_audio_for_responses_dropped_and_reported():
    "'media kind the target API has no place for': a LangChain audio block, like its Chat `input_audio` twin"
    id = 'lc-core-utils-test_convert_to_openai_messages_multimodal-L1362-dict'
    r, losses, err = cc.render(case(id), 'openai', 'mk_request')
    assert err is None and fails(id, 'openai', 'mk_request') == []
    assert any(l['what'] == 'audio (audio/wav)' and "api='openai' takes no audio" in l['why'] for l in losses)
    assert not any(isinstance(b, dict) and b.get('type') == 'input_audio'
                   for m in r['input'] if isinstance(m.get('content'), list) for b in m['content'])
    # the same audio in hand stays an error (sent elsewhere, not dropped)
    wav = b'RIFF\x24\x00\x00\x00WAVEfmt ' + bytes(40)
    with pytest.raises(InputError, match="can't take audio"): msgkit.mk_msg(wav, api='openai')
