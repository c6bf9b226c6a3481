"""Session 10 review, second pass: the own-form readers of the plain lane (Bedrock's Converse messages, the Responses
API's items, Gemini's Contents: commits 3f99ea8, 4b042ef, 6b85157, 57af529) against the general path, on inputs
tests/test_plain.py and tests/test_review_s10.py do not hold: each form's near misses and odd shapes, the forms mixed
in one history (a call of one answered in another), what `mk_msgs` gave for each API sent back to each API (`Msg`s,
`AttrDict`s, a `History`, JSON with bytes as base64), `mk_request` with its options, patched rules (the target's, and
the reading API's), and the provider oracle.

Each comparison is fast (as shipped) against slow (every short way patched out), with the harness of
tests/test_review_s10.py. Counts and compares, never times; never compares with msgkit's output written down."""
import base64, copy, json, os, random, sys, warnings
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit.msgs import History
from msgkit.parts import Part
from msgkit.registry import get_api
from msgkit.adapters.anthropic import AnthropicAdapter
from msgkit.adapters.bedrock import BedrockAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.openai import OpenAIAdapter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import oracle
from peers import big_png
from test_review_s10 import APIS, _TOOLS, _diffs, _general, _short, sent_back_of

P = big_png(2000)

# ---------------------------------------------------------------- histories
def U(c): return dict(role='user', content=c)
def As(c): return dict(role='assistant', content=c)
def bt(s): return dict(text=s)
def bu(i='t1', name='get_weather', inp=None): return dict(toolUse=dict(toolUseId=i, name=name, input={'city':'Paris'} if inp is None else inp))
def br(i='t1', c=None, **kw): return dict(toolResult=dict(toolUseId=i, content=[bt('sunny')] if c is None else c, **kw))
def bl(inp=None, i='t1'): return [U([bt('Weather?')]), As([bt('Looking.'), bu(i, inp=inp)]), U([br(i)]), As([bt('Sunny.')])]

def converse_odd():
    "Converse-form histories of odd shapes (SDK dicts), each a near miss of the lane or one it takes"
    cs = []
    def c(n, h): cs.append((n, h))
    c('base', bl())
    c('status success', [U([bt('q')]), As([bu()]), U([br(status='success')]), As([bt('x')])])
    c('status error', [U([bt('q')]), As([bu()]), U([br(status='error')]), As([bt('x')])])
    c('json content', [U([bt('q')]), As([bu()]), U([br(c=[dict(json={'t':1})])]), As([bt('x')])])
    c('two text content', [U([bt('q')]), As([bu()]), U([br(c=[bt('a'),bt('b')])]), As([bt('x')])])
    c('empty content', [U([bt('q')]), As([bu()]), U([br(c=[])]), As([bt('x')])])
    c('blank result', [U([bt('q')]), As([bu()]), U([br(c=[bt(' ')])]), As([bt('x')])])
    c('result spaces', [U([bt('q')]), As([bu()]), U([br(c=[bt(' sunny ')])]), As([bt('x')])])
    c('result url', [U([bt('q')]), As([bu()]), U([br(c=[bt('https://x.io/a.png')])]), As([bt('x')])])
    c('result data', [U([bt('q')]), As([bu()]), U([br(c=[bt('data:image/png;base64,iVBORw0KGgo=')])]), As([bt('x')])])
    c('user url', [U([bt('https://x.io/a.png')]), As([bt('x')])])
    c('user data', [U([bt('data:image/png;base64,iVBORw0KGgo=')]), As([bt('x')])])
    c('asst url', [U([bt('q')]), As([bt('https://x.io/a.png')])])
    c('asst url tool', [U([bt('q')]), As([bt('http://x'), bu()]), U([br()]), As([bt('x')])])
    c('asst spaces', [U([bt('q')]), As([bt(' x ')])])
    c('asst trailing', [U([bt('q')]), As([bt('x ')])])
    c('asst trailing mid', [U([bt('q')]), As([bt('x ')]), U([bt('q')]), As([bt('y')])])
    c('asst trailing tool', [U([bt('q')]), As([bt('x '), bu()]), U([br()]), As([bt('y ')])])
    c('asst two text', [U([bt('q')]), As([bt('a'), bt('b')])])
    c('user two text', [U([bt('a'), bt('b')]), As([bt('x')])])
    c('user dup text', [U([bt('a'), bt('a')]), As([bt('x')])])
    c('user spaces', [U([bt(' a '), bt('b\n')]), As([bt('x')])])
    c('image', [U([dict(image=dict(format='png', source=dict(bytes=P))), bt('what')]), As([bt('x')])])
    c('image b64', [U([dict(image=dict(format='png', source=dict(bytes=base64.b64encode(P).decode()))), bt('what')]), As([bt('x')])])
    c('doc', [U([dict(document=dict(format='txt', name='d', source=dict(bytes=b'hello'))), bt('what')]), As([bt('x')])])
    c('cache user', [U([bt('q'), dict(cachePoint=dict(type='default'))]), As([bt('x')])])
    c('cache asst', [U([bt('q')]), As([bt('x'), dict(cachePoint=dict(type='default'))])])
    c('cache results', [U([bt('q')]), As([bu()]), U([br(), dict(cachePoint=dict(type='default'))]), As([bt('x')])])
    c('reasoning', [U([bt('q')]), As([dict(reasoningContent=dict(reasoningText=dict(text='h', signature='s'))), bu()]), U([br()]), As([bt('x')])])
    c('reasoning text', [U([bt('q')]), As([dict(reasoningContent=dict(reasoningText=dict(text='h', signature='s'))), bt('x')])])
    for n,inp in [('nested',{'a':[[1,[2,{'b':'ü😀'}]]],'n':10**30}),('none',{'a':None}),('empty',{}),('float',{'x':1e308,'y':-0.0}),('bool',{'a':True}),('bigint',{'n':2**64}),('unikey',{'é':1,'':2}),('list',[1]),('str','x'),('nested none',{'a':[{'b':None}]})]:
        c('inp '+n, bl(inp))
    for i in ('t.1','a b','x'*64,'x'*65,'x'*100,'x'*300,'tö','','a-b_C','call:1','fc_1'):
        c('id '+repr(i[:10])+str(len(i)), bl(i=i))
    for nm in ('a.b','n'*65,'','get weather','1abc','a-b', 'n'*64):
        c('name '+repr(nm[:8])+str(len(nm)), [U([bt('q')]), As([bu(name=nm)]), U([br()]), As([bt('x')])])
    c('keys rev msg', [dict(content=[bt('q')], role='user'), dict(content=[bt('x')], role='assistant')])
    c('keys rev tooluse', [U([bt('q')]), As([dict(toolUse=dict(input={}, name='f', toolUseId='t1'))]), U([br()]), As([bt('x')])])
    c('keys rev toolres', [U([bt('q')]), As([bu()]), U([dict(toolResult=dict(content=[bt('s')], toolUseId='t1'))]), As([bt('x')])])
    c('keys rev asst calls', [U([bt('q')]), dict(content=[bu()], role='assistant'), U([br()]), As([bt('x')])])
    c('keys rev results', [U([bt('q')]), As([bu()]), dict(content=[br()], role='user'), As([bt('x')])])
    c('text after tool', [U([bt('q')]), As([bu(), bt('x')]), U([br()]), As([bt('x')])])
    c('out of order', [U([bt('q')]), As([bu('a'), bu('b')]), U([br('b'), br('a')]), As([bt('x')])])
    c('partial', [U([bt('q')]), As([bu('a'), bu('b')]), U([br('a')]), As([bt('x')])])
    c('partial split', [U([bt('q')]), As([bu('a'), bu('b')]), U([br('a')]), U([br('b')]), As([bt('x')])])
    c('results then text', [U([bt('q')]), As([bu()]), U([br(), bt('thanks')]), As([bt('x')])])
    c('text then results', [U([bt('q')]), As([bu()]), U([bt('thanks'), br()]), As([bt('x')])])
    c('consec users', [U([bt('a')]), U([bt('b')]), As([bt('x')])])
    c('consec asst', [U([bt('a')]), As([bt('b')]), As([bt('x')])])
    c('consec asst calls', [U([bt('a')]), As([bt('b')]), As([bu()]), U([br()]), As([bt('x')])])
    c('opens asst', [As([bt('x')]), U([bt('q')])])
    c('ends open call', [U([bt('q')]), As([bt('L'), bu()])])
    c('ends results', [U([bt('q')]), As([bu()]), U([br()])])
    c('dup ids', bl()+[U([bt('again')]), As([bu()]), U([br()]), As([bt('ok')])])
    c('result unknown id', [U([bt('q')]), As([bu()]), U([br('zz')]), As([bt('x')])])
    c('system', [dict(role='system', content=[bt('be')]), U([bt('q')]), As([bt('x')])])
    c('extra key', [dict(role='user', content=[bt('q')], name='x'), As([bt('x')])])
    c('toolUse extra', [U([bt('q')]), As([dict(toolUse=dict(toolUseId='t1', name='f', input={}, type='tool_use'))]), U([br()]), As([bt('x')])])
    c('result w/ image', [U([bt('q')]), As([bu()]), U([br(c=[dict(image=dict(format='png', source=dict(bytes=P)))])]), As([bt('x')])])
    c('toolres id int', [U([bt('q')]), As([bu()]), U([dict(toolResult=dict(toolUseId=1, content=[bt('s')]))]), As([bt('x')])])
    c('str asst', [U([bt('q')]), 'x', U([bt('q')]), As([bt('y')])])
    c('chat mix', [U('q'), As([bt('x')]), U([bt('a')]), As('y')])
    c('claude call bedrock res', [U('q'), As([dict(type='tool_use', id='t1', name='f', input={})]), U([br()]), As('x')])
    c('bedrock call claude res', [U('q'), As([bu()]), U([dict(type='tool_result', tool_use_id='t1', content='s')]), As('x')])
    c('bedrock call chat res', [U('q'), As([bu()]), dict(role='tool', tool_call_id='t1', content='s'), As('x')])
    c('chat call bedrock res', [U('q'), dict(role='assistant', content=None, tool_calls=[dict(id='t1', type='function', function=dict(name='f', arguments='{}'))]), U([br()]), As('x')])
    c('results + chat tool', [U('q'), As([bu('a'), bu('b')]), U([br('a')]), dict(role='tool', tool_call_id='b', content='s'), As('x')])
    return cs

def fc(i='c1', name='get_weather', args='{"city": "Paris"}', **kw): return dict(type='function_call', call_id=i, name=name, arguments=args, **kw)
def fo(i='c1', out='sunny', **kw): return dict(type='function_call_output', call_id=i, output=out, **kw)
def rl(**kw): return [U('Weather?'), As('Looking.'), fc(**kw), fo(), As('Sunny.')]

def responses_odd():
    "Responses-form histories of odd shapes"
    cs = []
    def c(n, h): cs.append((n, h))
    c('base', rl())
    c('no text', [U('q'), fc(), fo(), As('x')])
    c('fc id status', [U('q'), As('L'), dict(fc(), id='fc_1', status='completed'), fo(), As('x')])
    c('fc id first', [U('q'), As('L'), dict(id='fc_1', **fc()), fo(), As('x')])
    c('fc rev', [U('q'), As('L'), dict(reversed(list(fc().items()))), fo(), As('x')])
    c('fc callid first', [U('q'), As('L'), dict(call_id='c1', type='function_call', name='get_weather', arguments='{}'), fo(), As('x')])
    c('fo rev', [U('q'), As('L'), fc(), dict(reversed(list(fo().items()))), As('x')])
    c('fo id status', [U('q'), As('L'), fc(), dict(fo(), id='fco_1', status='completed'), As('x')])
    for a in ('x', '', ' {"a": 1} ', '{"a": 1} ', '{"a":1}', '{ }', '[1]', '"s"', 'null', '{"a": NaN}', '{"a": Infinity}', '{"a": 1}{"b":2}', '{"a": {"b": null}}', '{"a": 1, "a": 2}', '{"\\u00e9": "\\ud83d\\ude00"}', '{"n": 100000000000000000000000}', '{"f": 1e400}', '{"f": 1.0}', '{"f": -0.0}'):
        c('args '+repr(a), [U('q'), As('L'), fc(args=a), fo(), As('x')])
    c('parallel', [U('q'), As('L'), fc('a'), fc('b', args='{}'), fo('a'), fo('b'), As('x')])
    c('parallel no text', [U('q'), fc('a'), fc('b', args='{}'), fo('a'), fo('b'), As('x')])
    c('parallel swapped', [U('q'), As('L'), fc('a'), fc('b'), fo('b'), fo('a'), As('x')])
    c('parallel partial', [U('q'), As('L'), fc('a'), fc('b'), fo('a'), As('x')])
    c('parallel interleaved', [U('q'), As('L'), fc('a'), fo('a'), fc('b'), fo('b'), As('x')])
    c('out twice', [U('q'), As('L'), fc('a'), fo('a'), fo('a'), As('x')])
    c('out unknown', [U('q'), As('L'), fc('a'), fo('z'), As('x')])
    c('content list', [U('q'), As([dict(type='output_text', text='L')]), fc(), fo(), As('x')])
    c('content list annot', [U('q'), dict(type='message', role='assistant', content=[dict(type='output_text', text='L', annotations=[])]), fc(), fo(), As('x')])
    c('type message', [U('q'), dict(type='message', role='assistant', content='L'), fc(), fo(), As('x')])
    c('type message id', [U('q'), dict(type='message', id='msg_1', status='completed', role='assistant', content=[dict(type='output_text', text='L', annotations=[])]), fc(), fo(), As('x')])
    c('msg keys rev', [U('q'), dict(content='L', role='assistant'), fc(), fo(), As('x')])
    c('user input_text', [U([dict(type='input_text', text='q')]), fc(), fo(), As('x')])
    c('reasoning', [U('q'), dict(type='reasoning', id='rs_1', summary=[]), fc(), fo(), As('x')])
    c('reasoning enc', [U('q'), dict(type='reasoning', id='rs_1', summary=[], encrypted_content='abc'), As('L'), fc(), fo(), As('x')])
    c('fo list output', [U('q'), As('L'), fc(), fo(out=[dict(type='input_text', text='sunny')]), As('x')])
    c('fo blank', [U('q'), As('L'), fc(), fo(out=' '), As('x')])
    c('fo empty', [U('q'), As('L'), fc(), fo(out=''), As('x')])
    c('fo spaces', [U('q'), As('L'), fc(), fo(out=' sunny '), As('x')])
    c('fo url', [U('q'), As('L'), fc(), fo(out='https://x.io/a.png'), As('x')])
    c('fo data', [U('q'), As('L'), fc(), fo(out='data:image/png;base64,iVBORw0KGgo=')])
    c('fo json', [U('q'), As('L'), fc(), fo(out='{"t": 1}'), As('x')])
    c('call after user', [U('q'), fc(), fo(), As('x')])
    c('call after user text', [U('q'), U('r'), fc(), fo(), As('x')])
    c('call first', [fc(), fo(), As('x')])
    c('call after results', [U('q'), fc('a'), fo('a'), fc('b'), fo('b'), As('x')])
    c('call after results text', [U('q'), As('L'), fc('a'), fo('a'), As('M'), fc('b'), fo('b'), As('x')])
    c('two asst then call', [U('q'), As('a'), As('b'), fc(), fo(), As('x')])
    c('two asst', [U('q'), As('a'), As('b')])
    c('asst trailing then call', [U('q'), As('L '), fc(), fo(), As('x')])
    c('asst leading space then call', [U('q'), As(' L'), fc(), fo(), As('x')])
    c('asst url then call', [U('q'), As('https://x.io'), fc(), fo(), As('x')])
    c('asst extra key then call', [U('q'), dict(role='assistant', content='L', name='bob'), fc(), fo(), As('x')])
    c('asst None key', [U('q'), dict(role='assistant', content='L', refusal=None), fc(), fo(), As('x')])
    c('ends open call', [U('q'), As('L'), fc()])
    c('ends output', [U('q'), As('L'), fc(), fo()])
    c('ends output text', [U('q'), As('L '), fc(), fo()])
    c('dup call id', [U('q'), As('L'), fc('a'), fo('a'), As('m'), U('r'), fc('a'), fo('a'), As('x')])
    for i in ('t.1','a b','x'*64,'x'*65,'x'*100,'tö','','a-b_C','call:1','fc_1', 'toolu_01'):
        c('id '+repr(i[:10])+str(len(i)), [U('q'), As('L'), fc(i), fo(i), As('x')])
    for nm in ('a.b','n'*65,'','get weather','1abc','a-b', 'n'*64, 'ü'):
        c('name '+repr(nm[:8])+str(len(nm)), [U('q'), As('L'), fc(name=nm), fo(), As('x')])
    c('call id int', [U('q'), As('L'), fc(i=1), fo(i=1), As('x')])
    c('system', [dict(role='system', content='S'), U('q'), As('L'), fc(), fo(), As('x')])
    c('developer', [dict(role='developer', content='S'), U('q'), As('x')])
    c('fo then user', [U('q'), As('L'), fc(), fo(), U('more'), As('x')])
    c('fo then chat tool', [U('q'), As('L'), fc('a'), fc('b'), fo('a'), dict(role='tool', tool_call_id='b', content='s'), As('x')])
    c('chat call then fo', [U('q'), dict(role='assistant', content=None, tool_calls=[dict(id='a', type='function', function=dict(name='f', arguments='{}'))]), fo('a'), As('x')])
    c('fc then claude result', [U('q'), As('L'), fc('a'), U([dict(type='tool_result', tool_use_id='a', content='s')]), As('x')])
    c('fc then bedrock result', [U('q'), As('L'), fc('a'), U([dict(toolResult=dict(toolUseId='a', content=[dict(text='s')]))]), As('x')])
    c('claude call then fo', [U('q'), As([dict(type='tool_use', id='a', name='f', input={})]), fo('a'), As('x')])
    c('claude calls then fc', [U('q'), As([dict(type='tool_use', id='a', name='f', input={})]), fc('b'), dict(role='user', content=[dict(type='tool_result', tool_use_id='a', content='s')]), fo('b'), As('x')])
    c('bedrock calls then fc', [U('q'), As([dict(toolUse=dict(toolUseId='a', name='f', input={}))]), fc('b'), fo('a'), fo('b'), As('x')])
    c('fc after claude text', [U('q'), As([dict(type='text', text='L')]), fc(), fo(), As('x')])
    c('fc after bedrock text', [U('q'), As([dict(text='L')]), fc(), fo(), As('x')])
    c('fc after gemini text', [U('q'), dict(role='model', parts=[dict(text='L')]), fc(), fo(), As('x')])
    c('fc after str', [U('q'), 'L', fc(), fo(), As('x')])
    c('fc after str user', ['q', fc(), fo(), As('x')])
    c('str after fo', [U('q'), As('L'), fc(), fo(), 'x', 'y'])
    c('fc after text list', [['q'], As('L'), fc(), fo(), As('x')])
    return cs

def GU(*ps): return dict(role='user', parts=list(ps))
def GM(*ps): return dict(role='model', parts=list(ps))
def t(s): return dict(text=s)
def gc(i='c1', name='get_weather', args=None, sig=None, **kw):
    f = dict(id=i, name=name, args={'city':'Paris'} if args is None else args) if i is not None else dict(name=name, args={'city':'Paris'} if args is None else args)
    p = dict(function_call=f)
    if sig is not None: p['thought_signature']=sig
    p.update(kw); return p
def gr(i='c1', name='get_weather', out='sunny', resp=None):
    f = dict(id=i, name=name, response=dict(output=out) if resp is None else resp) if i is not None else dict(name=name, response=dict(output=out) if resp is None else resp)
    return dict(function_response=f)
SIG = bytes(range(256))[:64] + b'\x00\xff'*20
def gl(**kw): return [GU(t('Weather?')), GM(t('Looking.'), gc(**kw)), GU(gr()), GM(t('Sunny.'))]

def gemini_odd():
    "Gemini-form histories of odd shapes"
    cs = []
    def c(n, h): cs.append((n, h))
    c('base', gl())
    c('no text', [GU(t('q')), GM(gc()), GU(gr()), GM(t('x'))])
    c('no text str end', [GU(t('q')), GM(gc()), GU(gr()), 'x'])
    c('chat ends', [GU(t('q')), GM(gc()), GU(gr()), dict(role='assistant', content='x')])
    c('no id', [GU(t('q')), GM(gc(None)), GU(gr(None)), GM(t('x'))])
    c('no id call only', [GU(t('q')), GM(gc(None)), GU(gr('c1')), GM(t('x'))])
    c('sig bytes', gl(sig=SIG))
    c('sig b64', gl(sig=base64.b64encode(SIG).decode()))
    c('sig b64url', gl(sig=base64.urlsafe_b64encode(SIG).decode()))
    c('sig b64 nopad', gl(sig=base64.b64encode(SIG[:-1]).decode().rstrip('=')))
    c('sig b64url nopad', gl(sig=base64.urlsafe_b64encode(SIG[:-1]).decode().rstrip('=')))
    c('sig invalid', gl(sig='not base64!!'))
    c('sig invalid2', gl(sig='abc'))
    c('sig empty str', gl(sig=''))
    c('sig empty bytes', gl(sig=b''))
    c('sig spaces', gl(sig=' ' + base64.b64encode(SIG).decode()))
    c('sig newline', gl(sig=base64.encodebytes(SIG).decode()))
    c('sig bytearray', gl(sig=bytearray(SIG)))
    c('sig int', gl(sig=5))
    c('sig ascii', gl(sig='skip_thought_signature_validator'))
    c('sig first only', [GU(t('q')), GM(gc('a', sig=SIG), gc('b')), GU(gr('a'), gr('b')), GM(t('x'))])
    c('sig second only', [GU(t('q')), GM(gc('a'), gc('b', sig=SIG)), GU(gr('a'), gr('b')), GM(t('x'))])
    c('two calls', [GU(t('q')), GM(gc('a'), gc('b')), GU(gr('a'), gr('b')), GM(t('x'))])
    c('two calls text', [GU(t('q')), GM(t('L'), gc('a'), gc('b')), GU(gr('a'), gr('b')), GM(t('x'))])
    c('two calls swapped', [GU(t('q')), GM(gc('a'), gc('b')), GU(gr('b'), gr('a')), GM(t('x'))])
    c('two calls partial', [GU(t('q')), GM(gc('a'), gc('b')), GU(gr('a')), GM(t('x'))])
    c('two calls split', [GU(t('q')), GM(gc('a'), gc('b')), GU(gr('a')), GU(gr('b')), GM(t('x'))])
    c('resp name other', [GU(t('q')), GM(gc()), GU(gr(name='other')), GM(t('x'))])
    c('resp result key', [GU(t('q')), GM(gc()), GU(gr(resp=dict(result='sunny'))), GM(t('x'))])
    c('resp output+', [GU(t('q')), GM(gc()), GU(gr(resp=dict(output='sunny', extra=1))), GM(t('x'))])
    c('resp output dict', [GU(t('q')), GM(gc()), GU(gr(resp=dict(output=dict(t=1)))), GM(t('x'))])
    c('resp output blank', [GU(t('q')), GM(gc()), GU(gr(out=' ')), GM(t('x'))])
    c('resp output spaces', [GU(t('q')), GM(gc()), GU(gr(out=' s ')), GM(t('x'))])
    c('resp output url', [GU(t('q')), GM(gc()), GU(gr(out='https://x.io/a.png')), GM(t('x'))])
    c('resp output data', [GU(t('q')), GM(gc()), GU(gr(out='data:image/png;base64,iVBORw0KGgo=')), GM(t('x'))])
    c('resp error key', [GU(t('q')), GM(gc()), GU(gr(resp=dict(error='boom'))), GM(t('x'))])
    c('resp empty', [GU(t('q')), GM(gc()), GU(gr(resp={})), GM(t('x'))])
    c('resp id other', [GU(t('q')), GM(gc()), GU(gr('zz')), GM(t('x'))])
    c('camel call', [GU(t('q')), GM(dict(functionCall=dict(id='c1', name='f', args={}))), GU(gr(name='f')), GM(t('x'))])
    c('camel sig', [GU(t('q')), GM(dict(gc(), thoughtSignature=base64.b64encode(SIG).decode())), GU(gr()), GM(t('x'))])
    c('camel sig only', [GU(t('q')), GM(dict(function_call=dict(id='c1', name='get_weather', args={}), thoughtSignature=base64.b64encode(SIG).decode())), GU(gr()), GM(t('x'))])
    c('camel resp', [GU(t('q')), GM(gc()), GU(dict(functionResponse=dict(id='c1', name='get_weather', response=dict(output='s')))), GM(t('x'))])
    c('thought part', [GU(t('q')), GM(dict(text='hm', thought=True), gc()), GU(gr()), GM(t('x'))])
    c('thought part sig', [GU(t('q')), GM(dict(text='hm', thought=True, thought_signature=SIG), gc()), GU(gr()), GM(t('x'))])
    c('text sig', [GU(t('q')), GM(dict(text='L', thought_signature=SIG))])
    c('text sig call', [GU(t('q')), GM(dict(text='L', thought_signature=SIG), gc()), GU(gr()), GM(t('x'))])
    c('inline data', [GU(dict(inline_data=dict(mime_type='image/png', data=P)), t('what')), GM(t('x'))])
    c('model text only', [GU(t('q')), GM(t('x'))])
    c('model text trailing', [GU(t('q')), GM(t('x '))])
    c('model text trailing mid', [GU(t('q')), GM(t('x ')), GU(t('r')), GM(t('y'))])
    c('model two text', [GU(t('q')), GM(t('a'), t('b'))])
    c('model text call text', [GU(t('q')), GM(t('a'), gc(), t('b')), GU(gr()), GM(t('x'))])
    c('model call text', [GU(t('q')), GM(gc(), t('b')), GU(gr()), GM(t('x'))])
    c('model url', [GU(t('q')), GM(t('https://x.io/a.png'))])
    c('model url call', [GU(t('q')), GM(t('https://x.io'), gc()), GU(gr()), GM(t('x'))])
    c('user two text', [GU(t('a'), t('b')), GM(t('x'))])
    c('user url', [GU(t('https://x.io/a.png')), GM(t('x'))])
    c('user spaces', [GU(t(' a ')), GM(t('x'))])
    c('user role user + model', [dict(role='user', parts=[t('q')]), dict(role='assistant', parts=[t('x')])])
    c('keys rev', [dict(parts=[t('q')], role='user'), dict(parts=[t('x')], role='model')])
    c('keys rev calls', [GU(t('q')), dict(parts=[gc()], role='model'), dict(parts=[gr()], role='user'), GM(t('x'))])
    c('fc keys rev', [GU(t('q')), GM(dict(function_call=dict(args={}, name='get_weather', id='c1'))), GU(gr()), GM(t('x'))])
    c('fr keys rev', [GU(t('q')), GM(gc()), GU(dict(function_response=dict(response=dict(output='s'), name='get_weather', id='c1'))), GM(t('x'))])
    c('sig before call', [GU(t('q')), GM(dict(thought_signature=SIG, function_call=dict(id='c1', name='get_weather', args={}))), GU(gr()), GM(t('x'))])
    for n,a in [('none',{'a':None}),('nested',{'a':[[1,{'b':'ü😀'}]],'n':10**30}),('empty',{}),('float',{'x':1e308,'y':-0.0}),('unikey',{'é':1,'':2}),('list', [1])]:
        c('args '+n, gl(args=a))
        c('args sig '+n, gl(args=a, sig=SIG))
    for i in ('t.1','a b','x'*64,'x'*65,'x'*100,'tö','','a-b_C','call:1','toolu_01'):
        c('id '+repr(i[:10])+str(len(i)), [GU(t('q')), GM(gc(i)), GU(gr(i)), GM(t('x'))])
    for nm in ('a.b','n'*65,'','get weather','1abc','a-b','n'*64):
        c('name '+repr(nm[:8])+str(len(nm)), [GU(t('q')), GM(gc(name=nm)), GU(gr(name=nm)), GM(t('x'))])
    c('system', [dict(role='system', parts=[t('S')]), GU(t('q')), GM(t('x'))])
    c('consec user', [GU(t('a')), GU(t('b')), GM(t('x'))])
    c('consec model', [GU(t('a')), GM(t('b')), GM(t('x'))])
    c('consec model call', [GU(t('a')), GM(t('b')), GM(gc()), GU(gr()), GM(t('x'))])
    c('opens model', [GM(t('x')), GU(t('q'))])
    c('ends open', [GU(t('q')), GM(gc())])
    c('ends results', [GU(t('q')), GM(gc()), GU(gr())])
    c('ends results sig', [GU(t('q')), GM(gc(sig=SIG)), GU(gr())])
    c('results + text', [GU(t('q')), GM(gc()), GU(gr(), t('thx')), GM(t('x'))])
    c('text + results', [GU(t('q')), GM(gc()), GU(t('thx'), gr()), GM(t('x'))])
    c('gem call chat result', [GU(t('q')), GM(gc()), dict(role='tool', tool_call_id='c1', content='s'), GM(t('x'))])
    c('gem call claude result', [GU(t('q')), GM(gc()), dict(role='user', content=[dict(type='tool_result', tool_use_id='c1', content='s')]), 'x'])
    c('gem call fo', [GU(t('q')), GM(gc()), dict(type='function_call_output', call_id='c1', output='s'), 'x'])
    c('gem call bedrock result', [GU(t('q')), GM(gc()), dict(role='user', content=[dict(toolResult=dict(toolUseId='c1', content=[dict(text='s')]))]), 'x'])
    c('claude call gem result', ['q', dict(role='assistant', content=[dict(type='tool_use', id='c1', name='get_weather', input={})]), GU(gr()), 'x'])
    c('chat call gem result', ['q', dict(role='assistant', content=None, tool_calls=[dict(id='c1', type='function', function=dict(name='get_weather', arguments='{}'))]), GU(gr()), 'x'])
    c('fc gem result', ['q', dict(type='function_call', call_id='c1', name='get_weather', arguments='{}'), GU(gr()), 'x'])
    c('sig call chat result', [GU(t('q')), GM(gc(sig=SIG)), dict(role='tool', tool_call_id='c1', content='s'), GM(t('x'))])
    c('gem results + chat tool', [GU(t('q')), GM(gc('a'), gc('b')), GU(gr('a')), dict(role='tool', tool_call_id='b', content='s'), GM(t('x'))])
    c('gem text after str', ['q', GM(t('x')), GU(t('r')), 'y'])
    c('mixed forms', [dict(role='user', content='q'), GM(t('L'), gc()), GU(gr()), dict(role='assistant', content=[dict(text='x')]), dict(role='user', content=[dict(type='text', text='y')]), 'z'])
    c('extra key', [dict(role='user', parts=[t('q')], name='x'), GM(t('x'))])
    c('parts empty', [GU(t('q')), GM()])
    return cs

def user_text(r, s):
    return r.choice([s, dict(role='user', content=s), dict(role='user', content=[dict(type='text', text=s)]),
                     dict(role='user', content=[dict(text=s)]), dict(role='user', parts=[dict(text=s)]),
                     dict(role='user', content=[dict(type='input_text', text=s)]), [s]])
def asst_text(r, s):
    return r.choice([s, dict(role='assistant', content=s), dict(role='assistant', content=[dict(text=s)]),
                     dict(role='model', parts=[dict(text=s)]), dict(role='assistant', content=[dict(type='output_text', text=s)])])
def calls(r, ids, txt):
    f = r.choice(['chat','claude','bedrock','gemini','resp'])
    args = r.choice([{}, {'city':'Paris'}, {'a':[1,{'b':'ü'}]}])
    import json
    if f=='chat': return [dict(role='assistant', content=txt, tool_calls=[dict(id=i, type='function', function=dict(name='get_weather', arguments=json.dumps(args))) for i in ids])]
    if f=='claude': return [dict(role='assistant', content=([dict(type='text', text=txt)] if txt else [])+[dict(type='tool_use', id=i, name='get_weather', input=args) for i in ids])]
    if f=='bedrock': return [dict(role='assistant', content=([dict(text=txt)] if txt else [])+[dict(toolUse=dict(toolUseId=i, name='get_weather', input=args)) for i in ids])]
    if f=='gemini':
        ps = [dict(function_call=dict(id=i, name='get_weather', args=args)) for i in ids]
        if r.random()<.4: ps[0]['thought_signature'] = r.choice([SIG, base64.b64encode(SIG).decode(), base64.urlsafe_b64encode(SIG).decode().rstrip('=')])
        return [dict(role='model', parts=([dict(text=txt)] if txt else [])+ps)]
    return ([r.choice([txt, dict(role='assistant', content=txt)])] if txt else []) + [dict(type='function_call', call_id=i, name='get_weather', arguments=json.dumps(args, separators=r.choice([(',',':'),(', ',': ')]))) for i in ids]
def results(r, ids, outs):
    f = r.choice(['chat','claude','bedrock','gemini','resp'])
    if f=='chat': return [dict(role='tool', tool_call_id=i, content=o) for i,o in zip(ids,outs)]
    if f=='claude': return [dict(role='user', content=[dict(type='tool_result', tool_use_id=i, content=r.choice([o,[dict(type='text', text=o)]])) for i,o in zip(ids,outs)])]
    if f=='bedrock': return [dict(role='user', content=[dict(toolResult=dict(toolUseId=i, content=[dict(text=o)])) for i,o in zip(ids,outs)])]
    if f=='gemini': return [dict(role='user', parts=[dict(function_response=dict(id=i, name='get_weather', response=dict(output=o))) for i,o in zip(ids,outs)])]
    return [dict(type='function_call_output', call_id=i, output=o) for i,o in zip(ids,outs)]
def hist(r):
    h, k = [], 0
    for _ in range(r.randrange(1, 4)):
        h.append(user_text(r, r.choice(['q', ' q ', 'ünï', 'https://x.io/a.png'])))
        while r.random() < .6:
            n = r.choice([1,1,2])
            ids = [f'id{k}_{j}' for j in range(n)]; k += 1
            h += calls(r, ids, r.choice([None, 'Looking.', 'Looking. ']))
            outs = [r.choice(['sunny', ' sunny ', '{"t": 1}']) for _ in ids]
            if r.random()<.1: ids, outs = ids[::-1], outs[::-1]
            h += results(r, ids, outs)
        h.append(asst_text(r, r.choice(['x', 'x ', 'Sunny.'])))
    if r.random() < .3: h.pop()
    return h

def cross_odd():
    "URLs and data URIs in each form's text and results; calls of one form answered in another, with odd ids"
    cs = []
    def c(n, h): cs.append((n, h))
    for s in ('https://x.io/a.png', 'http://x.io/a.pdf', 'data:image/png;base64,iVBORw0KGgo=', ' https://x.io/a.png',
              'HTTPS://X.IO/A.PNG', 'www.x.io/a.png', 'gs://b/a.png', 'file:///a.png'):
        c('user ' + s, [U('q'), As('L'), fc(), fo(), U(s), As('x')])
        c('asst ' + s, [U('q'), As('L'), fc(), fo(), U('r'), As(s)])
        c('fo ' + s, [U('q'), As('L'), fc(), fo(out=s), As('x')])
        c('first ' + s, [U(s), As('L'), fc(), fo(), As('x')])
        c('gem ' + s, [GU(t('q')), GM(gc()), GU(gr(out=s)), GU(t(s)), GM(t('x'))])
        c('gem2 ' + s, [GU(t(s)), GM(gc()), GU(gr()), GM(t(s))])
        c('conv ' + s, [U([bt(s)]), As([bu()]), U([br(c=[bt(s)])]), As(s)])
    for i in ('toolu_01ABC', 'call_abc', 'c1', 'x' * 65, 'a.b', 'fc_1', 'get_weather_0', 'toolu_' + 'x' * 40):
        c('claude->gem ' + i[:12], ['q', As([dict(type='tool_use', id=i, name='get_weather', input={})]), GU(gr(i)), 'x'])
        c('chat->gem ' + i[:12], ['q', dict(role='assistant', content=None, tool_calls=[dict(
            id=i, type='function', function=dict(name='get_weather', arguments='{}'))]), GU(gr(i)), 'x'])
        c('fc->gem ' + i[:12], ['q', fc(i), GU(gr(i)), 'x'])
        c('gem->fo ' + i[:12], [GU(t('q')), GM(gc(i)), fo(i), GM(t('x'))])
        c('gem->conv ' + i[:12], [GU(t('q')), GM(gc(i)), U([br(i)]), 'x'])
        c('conv->fo ' + i[:12], [U('q'), As([bu(i)]), fo(i), 'x'])
        c('fc->conv ' + i[:12], [U('q'), fc(i), U([br(i)]), 'x'])
    c('fo after text reply', [U('q'), As('L'), fc(), As('M'), fo(), As('x')])
    c('developer mid', [U('q'), As('L'), fc(), fo(), dict(role='developer', content='S'), As('x')])
    return cs

def _flat(h):
    "Converse's model text (a block) as Chat's text message: the lane then taken for every API, not Bedrock's alone"
    return [As(m['content'][0]['text']) if isinstance(m, dict) and m.get('role') == 'assistant'
            and isinstance(m.get('content'), list) and len(m['content']) == 1 and 'text' in m['content'][0] else m
            for m in h]

CONVERSE = converse_odd()
CONVERSE += [(n + ' /flat', _flat(h)) for n, h in CONVERSE]
RESPONSES, GEMINI, CROSS = responses_odd(), gemini_odd(), cross_odd()
_r = random.Random(7)
MIXED = [(f'mix{j}', hist(_r)) for j in range(150)]
ALL = CONVERSE + RESPONSES + GEMINI + CROSS

# ---------------------------------------------------------------- clean areas (regression tests)
@pytest.mark.parametrize('name', ['converse', 'responses', 'gemini', 'cross', 'mixed'])
def test_own_forms_odd_shapes_as_general(name, monkeypatch):
    "Each own form's odd shapes and near misses, and the forms mixed: the general path's outcome, mk_msgs and mk_request"
    cs = dict(converse=CONVERSE, responses=RESPONSES, gemini=GEMINI, cross=CROSS, mixed=MIXED)[name]
    assert not _diffs(monkeypatch, cs)
    assert sum(_short(h, a) for _, h in cs for a in APIS) > 60  # the short ways were taken, many times

def _jdef(o):
    if isinstance(o, (bytes, bytearray)): return base64.b64encode(o).decode()
    raise TypeError(type(o))

def _sent_back(srcs):
    "What mk_msgs gave for each API, sent to each API: as it came, as AttrDicts, a History with a turn, JSON (bytes: base64)"
    return sent_back_of(srcs, _jdef)

_SRC = {'converse': ('base', 'status error', 'two text content', 'asst trailing tool', 'user two text', 'inp nested',
                     "id 'xxxxxxxxxx'65", 'out of order', 'ends results', 'reasoning', 'base /flat', 'inp nested /flat',
                     'asst trailing tool /flat'),
        'responses': ('base', 'no text', 'parallel', 'parallel no text', 'args \'{"a": {"b": null}}\'', 'fo spaces',
                      'call after results text', 'asst trailing then call', "id 'xxxxxxxxxx'65", 'fc id status',
                      'fo then chat tool', 'ends output'),
        'gemini': ('base', 'sig bytes', 'sig b64', 'sig b64url nopad', 'sig first only', 'two calls text', 'no id',
                   'resp name other', 'thought part sig', 'model text trailing mid', "id 'xxxxxxxxxx'65",
                   'ends results sig', 'text sig call', 'sig call chat result')}

@pytest.mark.parametrize('form', list(_SRC))
def test_own_forms_sent_back_as_general(form, monkeypatch):
    "A history of each own form, made by mk_msgs for each API and sent back to each API: the general path's outcome"
    src = dict(converse=CONVERSE, responses=RESPONSES, gemini=GEMINI)[form]
    cs = list(_sent_back([x for x in src if x[0] in _SRC[form]]))
    assert len(cs) > 150
    assert not _diffs(monkeypatch, cs[::2])
    assert sum(_short(h, a) for _, h in cs[::2] for a in APIS) > 150

@pytest.mark.parametrize('kw', [dict(system='Be brief.'), dict(tools=_TOOLS, tool_choice='get_weather'),
                                dict(system=[dict(type='text', text='S')], tools=_TOOLS, cache=True), dict(system=123),
                                dict(model='gemini-2.5-pro', reasoning='high', unsupported='drop')],
                         ids=lambda kw: ','.join(kw))
def test_own_forms_request_options_as_general(kw, monkeypatch):
    "mk_request of own-form histories with system=, tools=, cache=, an invalid system=, a model's options"
    assert not _diffs(monkeypatch, ALL[::5], reqs=(True,), **kw)

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
def test_own_forms_short_way_accepted_by_provider():
    "What the short ways give for own-form histories (as written, mixed, sent back), each provider's own types take"
    n = 0
    cs = ALL + MIXED[::3] + list(_sent_back([x for x in GEMINI + RESPONSES if x[0] in ('base', 'sig b64', 'parallel')]))
    for name, h in cs:
        if any(s in name for s in ('NaN', 'Infinity', '1e400')): continue  # (JSON has none: nor the general path's)
        for api in APIS:
            if _short(h, api) is not True: continue
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try: r = msgkit.mk_msgs(copy.deepcopy(h), api)
                except Exception: continue
            oracle.check(api, r); n += 1
    assert n > 500

def _bang(p):
    "A part's text marked (a `Part` still, as a rule patched in a notebook returns it)"
    return Part({**p, 'text': p['text'] + '!'}) if p.get('type') == 'text' else p

_OWN = [x for x in CONVERSE if x[0] in ('base', 'user two text')] + [x for x in RESPONSES if x[0] in ('base', 'parallel')] \
     + [x for x in GEMINI if x[0] in ('base', 'sig b64', 'model text only')]

@pytest.mark.parametrize('rule', ['fix_item', 'tidy', 'msg', 'part', 'before_send', 'fits_item', 'mergeable', 'text_msg',
                                  'parse_item', 'parse_block', 'fn_response'])
def test_target_rule_patched_own_forms_step_aside(rule, monkeypatch):
    "A rule of the target patched on its class: each own form's tool loop gets what the general path gives"
    for api in APIS:
        cls = type(get_api(api))
        if not hasattr(cls, rule): continue
        orig = getattr(cls, rule)
        def marked(self, *a, _o=orig, **k):
            r = _o(self, *a, **k)
            if rule in ('fits_item', 'mergeable'): return False
            if rule == 'parse_block': return _bang(r)
            if rule == 'parse_item': return (r[0], [_bang(p) for p in r[1]])
            if isinstance(r, dict): return {**r, 'marked': 1}
            return [*r, dict(role='user', content='marked')] if rule in ('tidy', 'before_send') else r
        with monkeypatch.context() as m:
            m.setattr(cls, rule, marked)
            assert not _diffs(m, _OWN, apis=(api,)), api

# ---------------------------------------------------------------- differences found (strict xfails, fixed in session 10)
def _patch_reader(m, cls, rule):
    "Patch a reading rule of the API whose form the history is in (its text parts marked, as a notebook's fix might)"
    orig = getattr(cls, rule)
    if rule == 'parse_block': m.setattr(cls, rule, lambda self, d: _bang(orig(self, d)))
    else: m.setattr(cls, rule, lambda self, d: (lambda r: (r[0], [
        Part({**p, 'content': [_bang(x) for x in p['content']]}) if p.get('type') == 'tool_result' else _bang(p)
        for p in r[1]]))(orig(self, d)))

_CLAUDE = [dict(role='user', content=[dict(type='text', text='Weather?')]),
           dict(role='assistant', content=[dict(type='text', text='Looking.'),
                                           dict(type='tool_use', id='c1', name='get_weather', input={'city': 'Paris'})]),
           dict(role='user', content=[dict(type='tool_result', tool_use_id='c1', content='sunny')]), 'Sunny.']
_READERS = {
    'converse parse_block': (BedrockAdapter, 'parse_block', _flat(converse_odd()[0][1]), ('openai', 'anthropic', 'gemini')),
    'converse parse_item': (BedrockAdapter, 'parse_item', _flat(converse_odd()[0][1]), ('openai', 'anthropic', 'gemini')),
    'responses parse_item': (OpenAIAdapter, 'parse_item', responses_odd()[0][1], ('anthropic', 'gemini', 'bedrock')),
    'gemini results parse_item': (GeminiAdapter, 'parse_item', ['q', As([dict(type='tool_use', id='c1', name='get_weather',
                                   input={})]), GU(gr()), 'x'], ('openai', 'anthropic', 'bedrock')),
    'claude parse_block (s10 reader)': (AnthropicAdapter, 'parse_block', _CLAUDE, ('openai', 'gemini', 'bedrock')),
}

# found by the s10 second review: the lane asks only the TARGET's rules (`plain_ready`: its class, `_as_shipped`); a
# history in another API's own form is read on the general path by that API's `parse_item`/`parse_block`, which the
# lane's reader (`plain_turn`) stands for but never checks. Patched (here: its text parts marked), the general path
# gives the marked text; the lane gives the text as it came. Bedrock's, the Responses API's and Gemini's readers (new);
# Claude's the same (the s10 reader, not caught by the first review: it patched the target only)
# found by the s10 second review, fixed in session 10 (was a strict xfail): plain lane checks only the target's rules;
# a patched parse_item/parse_block of the API whose form it reads is ignored
@pytest.mark.parametrize('case', list(_READERS))
def test_reader_rule_patched_steps_aside(case, monkeypatch):
    cls, rule, h, apis = _READERS[case]
    with monkeypatch.context() as m:
        _patch_reader(m, cls, rule)
        assert not _diffs(m, [(case, h)], apis=apis, reqs=(False, True))

# found by the s10 second review (not new in this change: `_texts`, 8d06d31/823776b): `_texts` calls the target's
# `text_of` on each dict BEFORE asking `rules_as_shipped()`; a patched `text_of` that raises (a notebook's assert)
# makes mk_msgs fail with InputError('... ValueError ... (in _texts)') where the general path, which does not call it
# for these histories, returns the messages
# found by the s10 second review, fixed in session 10 (was a strict xfail): _texts calls a patched text_of before
# checking rules_as_shipped()
@pytest.mark.parametrize('api', ['bedrock', 'gemini', 'openai'])
def test_text_path_patched_text_of_raising(api, monkeypatch):
    h = {'bedrock': converse_odd()[0][1], 'gemini': gemini_odd()[0][1], 'openai': responses_odd()[0][1]}[api]
    def boom(self, *a, **k): raise ValueError('patched text_of')
    with monkeypatch.context() as m:
        m.setattr(type(get_api(api)), 'text_of', boom)
        assert not _diffs(m, [(api, h)], apis=(api,), reqs=(False,))
