#!/usr/bin/env python3
"""Ground truth for tests/unit/test_kineto.c, computed independently of the C
reader with Python's json module (a whole-file DOM) and Decimal arithmetic.

    python3 tests/data/kineto/truth.py ../shared/realdata/kineto_trace/*.json.gz

Prints one C initialiser per trace; the numbers were pasted into the test.
"""
import collections, gzip, json, re, sys
from decimal import ROUND_HALF_UP, Decimal

COMM = re.compile(r'nccl|rccl|SendRecv|multimem_all|one_shot_all_reduce|two_shot_all_reduce')
GPU = ('kernel', 'gpu_memcpy', 'gpu_memset')

def ns(ts, base):
    return int((Decimal(ts) * 1000).to_integral_value(ROUND_HALF_UP)) + base

def main(path):
    raw = gzip.open(path).read().decode()
    d = json.loads(raw, parse_float=Decimal)
    evs = d['traceEvents'] if isinstance(d, dict) else d
    meta = d if isinstance(d, dict) else {}
    base = int(meta.get('baseTimeNanoseconds', 0))
    X = [e for e in evs if e.get('ph') == 'X']
    cnt = collections.Counter(e.get('cat') for e in X)
    gpu = [e for e in X if e.get('cat') in GPU]
    kern = [e for e in X if e.get('cat') == 'kernel']
    comm = [e for e in kern if COMM.search(e['name']) or 'Collective name' in e.get('args', {})]
    steps = {int(e['name'][13:]) for e in X if e.get('cat') in ('user_annotation', 'gpu_user_annotation')
             and re.fullmatch(r'ProfilerStep#\d+', e['name'])}
    mem = [e for e in evs if e.get('ph') == 'i' and e.get('name') == '[memory]'
           and e.get('args', {}).get('Device Type') != 0]
    dist = meta.get('distributedInfo', {})
    devs = collections.Counter(e['args'].get('device', e.get('pid')) for e in gpu)
    own = devs.most_common(1)[0][0] if devs else None
    name = next((p['name'] for p in meta.get('deviceProperties', []) if p['id'] == own), None)
    # each GPU event's ProfilerStep: the CPU step range holding its launch's ts
    launch = {}
    for e in X:
        if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e['args']:
            launch.setdefault(e['args']['correlation'], e['ts'])
    cpu_steps = [(e['ts'], e['ts'] + e['dur'], int(e['name'][13:])) for e in X
                 if e.get('cat') == 'user_annotation' and re.fullmatch(r'ProfilerStep#\d+', e['name'])]
    in_step = 0
    for e in gpu:
        t = launch.get(e['args'].get('correlation'))
        if t is not None and any(s <= t <= f for s, f, _ in cpu_steps):
            in_step += 1
    first = min((ns(e['ts'], base) for e in gpu), default=None)
    comm_bytes = sum(max(e['args'].get('In msg nelems', 0), e['args'].get('Out msg nelems', 0)) *
                     {'Float': 4, 'BFloat16': 2, 'Half': 2, 'Double': 8, 'Long': 8, 'Int': 4, 'Char': 1, 'Byte': 1}.get(e['args'].get('dtype'), 0)
                     for e in comm)
    # copies: their own "bytes", else the launching call's "size" (ROCm hipMemcpy, a string)
    size_of = {e['args']['correlation']: int(e['args']['size']) for e in X
               if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {})
               and str(e['args'].get('size', '')).isdigit()}
    copy_bytes = sum(e['args']['bytes'] if 'bytes' in e['args'] else size_of.get(e['args'].get('correlation'), 0)
                     for e in gpu if e.get('cat') != 'kernel')
    # pg_config: its entries; the comm kernels whose own group name it lists, and their pg_size
    pgs = dist.get('pg_config')
    size = {str(g['pg_name']): g['pg_size'] for g in pgs or []}
    names = [e['args'].get('Process Group Name', str(e['args'].get('Process Group ID', ''))) for e in comm]
    sized = [size[n] for n in names if n in size]
    print('{ "%s", %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %s, %d, %s, %d, %d, %d, %d, %d },' % (
        path.split('/')[-1], cnt['kernel'], cnt['gpu_memcpy'], cnt['gpu_memset'], cnt['cpu_op'],
        cnt['cuda_runtime'], cnt['cuda_driver'], len(comm), len(steps), len(mem),
        dist.get('rank', -1), dist.get('world_size', -1), '"%s"' % name if name else 'NULL',
        in_step, '%dLL' % first if first is not None else '-1', comm_bytes, copy_bytes,
        len(pgs) if pgs is not None else -1, len(sized), sized[0] if len(set(sized)) == 1 else -1))

for p in sys.argv[1:]:
    main(p)
