"Benchmark msgkit against msglm in the same run: import cost, message-building speed, peak memory."
import subprocess, sys, time, timeit, tracemalloc, statistics, json, zlib, struct

def import_cost(mod, n=15):
    "Median wall time of a fresh `python -c 'import mod'`, minus a bare interpreter start; and the modules it pulls in"
    def run(code):
        t = time.perf_counter(); subprocess.run([sys.executable, '-c', code], check=True); return time.perf_counter()-t
    base = statistics.median(run('pass') for _ in range(n))
    t = statistics.median(run(f'import {mod}') for _ in range(n))
    mods = subprocess.run([sys.executable, '-c', f'import sys; k=set(sys.modules); import {mod}; print(len(set(sys.modules)-k))'],
                          capture_output=True, text=True, check=True).stdout.strip()
    heavy = subprocess.run([sys.executable, '-c', f"import sys; import {mod}; print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('httpx','httpx2','openai','anthropic','google','boto3','botocore'))) or '-')"],
                           capture_output=True, text=True, check=True).stdout.strip()
    return dict(ms=round((t-base)*1000, 1), modules=int(mods), heavy=heavy)

def big_png(sz):
    "A valid PNG of about `sz` bytes (incompressible pixels)"
    import os
    w = int((sz/3)**0.5); raw = b''.join(b'\0'+os.urandom(w*3) for _ in range(w))
    c = lambda t,d: struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d)&0xffffffff)
    return b'\x89PNG\r\n\x1a\n'+c(b'IHDR',struct.pack('>IIBBBBB',w,w,8,2,0,0,0))+c(b'IDAT',zlib.compress(raw,0))+c(b'IEND',b'')

def per_call(f, n):
    t = timeit.Timer(f); return min(t.repeat(5, n))/n*1e6

def peak(f):
    tracemalloc.start(); f(); p = tracemalloc.get_traced_memory()[1]; tracemalloc.stop(); return p

def main():
    import msglm, msgkit
    img = big_png(3_000_000)  # under Anthropic's 5 MB (base64) image limit
    hist = [f"message {i} " * 20 for i in range(100)]
    res = dict(import_msgkit=import_cost('msgkit'), import_msglm=import_cost('msglm'))
    for api in ('openai','anthropic'):
        cases = dict(text=lambda: M.mk_msg("Hello, world!", api=api),
                     text_list=lambda: M.mk_msg(["Hello", "world"], api=api),
                     history_100=lambda: M.mk_msgs(hist, api=api),
                     image_3MB=lambda: M.mk_msg([img, "describe"], api=api))
        for name,f in cases.items():
            n = 3 if 'image' in name else 300
            for lib,M in (('msglm',msglm),('msgkit',msgkit)):
                res[f'{api}.{name}.{lib}.us'] = round(per_call(f, n), 1)
            if 'image' in name:
                for lib,M in (('msglm',msglm),('msgkit',msgkit)): res[f'{api}.{name}.{lib}.peak_MB'] = round(peak(f)/1e6, 1)
    img_small = msgkit.sample('gradient.png').read_bytes()
    for api in msgkit.apis():
        res[f'msgkit_only.{api}.history_100.us'] = round(per_call(lambda: msgkit.mk_msgs(hist, api=api), 100), 1)
        res[f'msgkit_only.{api}.image_msg.us'] = round(per_call(lambda: msgkit.mk_msg([img_small, "describe"], api=api), 300), 1)
    evs = [dict(type='message_start', message=dict(id='m', type='message', role='assistant', content=[], model='c', usage=dict(input_tokens=1, output_tokens=1))),
           dict(type='content_block_start', index=0, content_block=dict(type='text', text=''))]
    evs += [dict(type='content_block_delta', index=0, delta=dict(type='text_delta', text='word ')) for _ in range(20_000)]
    evs += [dict(type='content_block_stop', index=0), dict(type='message_delta', delta=dict(stop_reason='end_turn'), usage=dict(output_tokens=20_000)), dict(type='message_stop')]
    for n in (10_000, 100_000):  # same-role runs are merged in one pass: the time grows with n, not n squared
        us = [dict(role='user', content=f'u{i}') for i in range(n)]
        t = time.perf_counter(); msgkit.mk_msgs(us, api='anthropic'); res[f'msgkit_only.anthropic.merge_{n//1000}k_user_turns.ms'] = round((time.perf_counter()-t)*1000, 1)
    chat = [dict(role='user', content='q'), dict(role='assistant', content='', tool_calls=[dict(id='c1', type='function', function=dict(name='f', arguments='{}'))]),
            dict(role='tool', tool_call_id='c1', content='ok')] * 33
    res['msgkit_only.chat_history_99_to_anthropic.us'] = round(per_call(lambda: msgkit.mk_msgs(chat, api='anthropic'), 30), 1)
    for n in (10_000, 100_000):  # mk_batch streams: its peak memory stays flat however many prompts go through
        prompts = (f"Summarise document {i}." for i in range(n))
        def run(): 
            for o in msgkit.mk_batch(prompts, 'anthropic', model='claude-sonnet-4-5', max_tokens=100, progress=False): json.dumps(o)
        t = time.perf_counter(); res[f'msgkit_only.batch_{n//1000}k_prompts.peak_MB'] = round(peak(run)/1e6, 2)
        res[f'msgkit_only.batch_{n//1000}k_prompts.s'] = round(time.perf_counter()-t, 1)
    t = time.perf_counter(); m = msgkit.stream_msg(evs); res['msgkit_only.anthropic.stream_20k_deltas.ms'] = round((time.perf_counter()-t)*1000, 1)
    assert len(m['content'][0]['text'])==100_000
    print(json.dumps(res, indent=1))

if __name__=='__main__': main()
