#!/bin/bash
# Remakes tests/fuzz/seeds/<target>/ from the project's own test data and
# sample trials (never ../shared): small files, each under 64 KiB, cut down
# where needed. The seeds are committed; run this only to refresh them.
# Needs python3 and sqlite3.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
S=tests/fuzz/seeds
rm -rf "$S"
mkdir -p "$S"

# seed TARGET FILE...: copies each file (its first 64 KiB) into the target's seeds
seed() {
	local t=$1 f
	shift
	mkdir -p "$S/$t"
	for f in "$@"; do
		[ -f "$f" ] || continue
		head -c 65000 "$f" > "$S/$t/$(echo "${f#*/}" | tr '/' '_')"
	done
}

T=samples/trials
seed kineto tests/data/kineto/*.json
seed kineto_gz tests/data/kineto/cut.json.gz tests/data/cli/cut.json.gz
# the gzip target's first byte: 0x01 gzips the rest, 0x00 feeds it as stored
for f in tests/data/kineto/era-base.json tests/data/kineto/pg-config.json tests/data/kineto/crlf.json; do
	{ printf '\001'; cat "$f"; } > "$S/kineto_gz/gz-$(basename "$f")"
	{ printf '\203'; cat "$f"; } > "$S/kineto_gz/gz2-$(basename "$f")"
done
{ printf '\000'; cat tests/data/kineto/cut.json.gz; } > "$S/kineto_gz/raw-cut.json.gz"
seed memtimeline /dev/null
printf '[[-1, 1, 100, 0], [-1, 1, 200, 0],\n[1000, 2, 300, 1], [2000, 3, 50, 2], [3000, 4, -100, 0]]\n' \
	> "$S/memtimeline/raw.json"
printf '[[1, 2, 3],\n[[0, 10, 20, 30, 0, 0, 0, 0], [0, 15, 25, 35, 1, 2, 3, 4], [0, 5, 5, 5, 5, 5, 5, 5]]]\n' \
	> "$S/memtimeline/coalesced.json"
# the jsonscan target's first byte: bits 0-2 the chunk size (whole, 1, 2, 3, 7, 16, 64, 4096),
# 8 the portable scanner, 16 only the container callbacks, 0xe0 a callback that cancels
mkdir -p "$S/jsonscan"
for o in 000:era-base 001:crlf 004:invalid 011:garbage 026:deep 037:order 343:pg-config 007:bare; do
	{ printf "\\${o%%:*}"; head -c 65000 "tests/data/kineto/${o#*:}.json"; } > "$S/jsonscan/${o#*:}-${o%%:*}.json"
done
printf '\002["a\\u0000b\\ud83d\\ude00\\udc00\\ud800x\\ud800\\u0041\\n\\"\\\\\\/\\b\\f\\r\\t", -0.5e+10, 1E-3, 0,\v\f true, false, null, {}, []]' \
	> "$S/jsonscan/escapes.json"
printf '\001{"a": [1, 2], "b": {"c": "d"}} tr' > "$S/jsonscan/trailing.json"
seed nsys_csv tests/data/nsys/*.csv
seed nsys_stats tests/data/nsys/train_with_kern_sum.log
seed nccl_log tests/data/nccl/nccl-*.txt
seed nccl_tests tests/data/nccl_tests/two-gpu-counts.log tests/data/nccl/nccl-tests-*.txt
seed gpumon tests/data/gpumon/*
head -c 4000 $T/ddp-scales-well/1gpu/nvidia-smi.csv > "$S/gpumon/sample-nvidia-smi.csv"
seed trainlog tests/data/trainlog/*.log $T/ddp-scales-well/2gpu/train.log
seed collect_env tests/data/collect_env/*
seed pyenv tests/data/pyenv/*.txt tests/data/pyenv/*.json
seed manifest $T/*/trial.ini $T/ddp-scales-well/1gpu/run.ini $T/pipeline-bubble/2gpu/run.ini \
	tests/data/cli/trial.ini
seed codescan tests/data/stack/*.cubin tests/data/stack/*.fatbin tests/data/stack/*.o \
	tests/data/stack/sm90.so tests/data/stack/rocm/*.hipfb tests/data/stack/rocm/*.hsaco
seed analysis_json tests/data/cli/*analysis*.json
seed ingest tests/data/kineto/era-base.json tests/data/nsys/report_2024.csv \
	tests/data/trainlog/hf.log tests/data/gpumon/rocm-smi.csv tests/data/cli/cut.json.gz

# nsys SQLite exports: the schema of the tests, with small pages
python3 - "$S/nsys_sqlite" tests/unit/test_nsys.c <<'PY'
import os, re, sqlite3, sys
out, src = sys.argv[1], open(sys.argv[2]).read()
os.makedirs(out, exist_ok=True)
def lit(name):
    m = re.search(r'static const char \*const ' + name + r' =\n(.*?);\n', src, re.S)
    return ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
for fname, sql in (('current.sqlite', lit('current_schema') + lit('current_rows')),
                   ('old.sqlite', lit('old_db'))):
    p = os.path.join(out, fname)
    db = sqlite3.connect(p)
    db.execute('PRAGMA page_size = 512')
    db.executescript(sql)
    db.commit()
    db.execute('VACUUM')
    db.close()
PY

# archives and whole trials: a few small trials, as tar.gz and zip, and in
# the container of fuzz_trial.c ("=== NAME" lines)
python3 - "$S" <<'PY'
import io, os, sys, tarfile, zipfile
S = sys.argv[1]
def trial(files):
    return files
small = {
  'trial.ini': open('samples/trials/ddp-scales-well/trial.ini', 'rb').read(),
  '1gpu/run.ini': open('samples/trials/ddp-scales-well/1gpu/run.ini', 'rb').read(),
  '1gpu/train.log': open('samples/trials/ddp-scales-well/1gpu/train.log', 'rb').read(),
  '1gpu/nvidia-smi.csv': open('samples/trials/ddp-scales-well/1gpu/nvidia-smi.csv', 'rb').read()[:2000],
  '1gpu/rank0.pt.trace.json': open('tests/data/kineto/era-base.json', 'rb').read(),
  '2gpu/run.ini': open('samples/trials/ddp-scales-well/2gpu/run.ini', 'rb').read(),
  '2gpu/train.log': open('samples/trials/ddp-scales-well/2gpu/train.log', 'rb').read(),
  '2gpu/rank0.pt.trace.json': open('tests/data/kineto/pg-config.json', 'rb').read(),
  '2gpu/nccl.log': open('tests/data/nccl/nccl-1358_2GPU_GRAPH-topology_SYS-PIX.txt', 'rb').read(),
}
trials = {'ddp-small': small}
for name in sorted(os.listdir('tests/data/trials')):
    root = os.path.join('tests/data/trials', name)
    files = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f)
            files[os.path.relpath(p, root)] = open(p, 'rb').read()[:16000]
    if sum(map(len, files.values())) < 60000:
        trials[name] = files
os.makedirs(os.path.join(S, 'trial'), exist_ok=True)
os.makedirs(os.path.join(S, 'arc'), exist_ok=True)
for name, files in trials.items():
    with open(os.path.join(S, 'trial', name + '.txt'), 'wb') as f:
        for p in sorted(files):
            f.write(b'=== ' + p.encode() + b'\n' + files[p].rstrip(b'\n') + b'\n')
for name in ('ddp-small', 'log-only'):
    files = trials[name]
    with tarfile.open(os.path.join(S, 'arc', name + '.tar.gz'), 'w:gz') as t:
        for p in sorted(files):
            ti = tarfile.TarInfo(name + '/' + p)
            ti.size = len(files[p])
            t.addfile(ti, io.BytesIO(files[p]))
    with zipfile.ZipFile(os.path.join(S, 'arc', name + '.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
        for p in sorted(files):
            z.writestr(name + '/' + p, files[p])
# an archive inside an archive
inner = open(os.path.join(S, 'arc', 'log-only.tar.gz'), 'rb').read()
with tarfile.open(os.path.join(S, 'arc', 'nested.tar'), 'w') as t:
    ti = tarfile.TarInfo('inner/log-only.tar.gz')
    ti.size = len(inner)
    t.addfile(ti, io.BytesIO(inner))
PY
find "$S" -type f -size +64k -print | sed 's/^/too large: /'
find "$S" -type f -size 0 -delete
echo "seeds: $(find "$S" -type f | wc -l) files, $(du -sk "$S" | cut -f1) KiB"
