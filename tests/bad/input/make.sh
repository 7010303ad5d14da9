#!/bin/bash
# Makes the odd inputs of tests/bad/input/cases in directory $1 (which must
# exist and be empty): things that cannot be committed (sockets, FIFOs,
# permission modes, links that dangle or loop) or are too large to commit.
# TOP is the repository root. The cases read them as user 65534 when the
# tests run as root, so everything made here is readable by others unless a
# case is about that.
set -eu
: "${TOP:?}"
cd "$1"
chmod 755 .

# single files named on the command line
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
mkfifo fifo
echo '{"traceEvents": []}' > no-read && chmod 000 no-read
echo '{"traceEvents": []}' > write-only && chmod 200 write-only
ln -s nowhere dangling
ln -s loop loop
cp "$TOP/tests/data/kineto/bare.json" good.json
mkdir empty-dir

# a trial whose 2gpu run holds a FIFO, a socket, a dangling link and a loop
cp -r "$TOP/samples/trials/short-capture" odd-trial
mkfifo odd-trial/2gpu/pipe
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("odd-trial/2gpu/sock")'
ln -s nowhere odd-trial/2gpu/dangling
ln -s loop odd-trial/2gpu/loop
chmod -R a+rX .
chmod 000 no-read
chmod 200 write-only

# a trial whose 2gpu run cannot be listed, and one whose files cannot be read
cp -r "$TOP/samples/trials/short-capture" unlisted-run
chmod -R a+rX unlisted-run
chmod 000 unlisted-run/2gpu
cp -r "$TOP/samples/trials/short-capture" no-read-files
chmod -R a+rX no-read-files
chmod 000 no-read-files/*/*

# traces that claim 2^31-1 ranks, and a rank past any cap
cp -r "$TOP/samples/trials/short-capture" huge-world
for r in 0 1; do
	f=huge-world/2gpu/rank$r.pt.trace.json.gz
	gzip -dc "$f" | sed 's/"world_size": 2,/"world_size": 2147483647,/; s/"rank": 1,/"rank": 99999,/' \
		| gzip -n > "$f.new"
	mv "$f.new" "$f"
done
chmod -R a+rX huge-world

# nsys SQLite exports: one in WAL mode in a read-only directory, and one
# whose "kernel table" is an endless recursive view
mkdir ro
python3 - <<'PY'
import sqlite3
k = ("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
     "INSERT INTO StringIds VALUES (1, 'gemm_kernel');")
kt = ("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
      " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
      " globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 10, 1, 1, 1),"
      " (3000, 4500, 0, 1, 7, 11, 1, 1, 1);")
db = sqlite3.connect("ro/wal.sqlite")
db.execute("PRAGMA journal_mode=WAL")
db.executescript(k + kt)
db.commit()
db.close()
db = sqlite3.connect("view.sqlite")
db.executescript(k + "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE c(x) AS"
                 " (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS start, x + 1 AS end,"
                 " 0 AS deviceId, 1 AS contextId, 7 AS streamId, x AS correlationId,"
                 " 1 AS globalPid, 1 AS demangledName, 1 AS shortName FROM c;")
db.commit()
db.close()
PY
chmod 644 ro/wal.sqlite view.sqlite
chmod 555 ro

# a gzip trace of 5000 kernels, for --max-events
python3 - <<'PY'
import gzip
ev = ",".join('{"ph": "X", "cat": "kernel", "name": "gemm", "ts": %d, "dur": 1, "pid": 0, '
              '"tid": 7, "args": {"device": 0, "stream": 7}}' % i for i in range(5000))
with gzip.GzipFile("kernels.json.gz", "wb", mtime=0) as f:
    f.write(('{"traceEvents": [%s]}' % ev).encode())
PY
chmod 644 kernels.json.gz

# run.ini values past the range: global_batch near INT64_MAX, gpus past the rank cap
cp -r "$TOP/samples/trials/short-capture" huge-batch
sed -i 's/^global_batch *=.*/global_batch = 9223372036854775800/' huge-batch/1gpu/run.ini
printf 'gpus = 5000\n' >> huge-batch/2gpu/run.ini
chmod -R a+rX huge-batch

# a file of every reader that keeps events, for --max-events and --max-memory
mkdir caps
cp "$TOP/tests/data/nsys/report_2024.csv" "$TOP/tests/data/nsys/train_with_kern_sum.log" \
	"$TOP/tests/data/nccl/nccl-1358_2GPU_GRAPH-topology_SYS-PIX.txt" \
	"$TOP/tests/data/nccl_tests/two-gpu-counts.log" "$TOP/tests/data/gpumon/query-ts-index-nounits.csv" \
	"$TOP/tests/data/gpumon/dmon-dt.txt" "$TOP/tests/data/gpumon/table-old.txt" \
	"$TOP/tests/data/trainlog/hf.log" caps/
cp -r "$TOP/samples/trials/short-capture" mem-trial

# a run of five traces of 1000 kernels each, for the trial's cap (4 x --max-events)
mkdir -p five-ranks/run
python3 - <<'PY'
ev = ",".join('{"ph": "X", "cat": "kernel", "name": "gemm", "ts": %d, "dur": 1, "pid": 0, '
              '"tid": 7, "args": {"device": 0, "stream": 7}}' % i for i in range(1000))
for r in range(5):
    with open("five-ranks/run/rank%d.json" % r, "w") as f:
        f.write('{"distributedInfo": {"rank": %d, "world_size": 5}, "traceEvents": [%s]}' % (r, ev))
PY
chmod -R a+rX caps mem-trial five-ranks

# a software stack directory holding links that dangle or loop, beside an environment report
mkdir stack-links
cp "$TOP/tests/data/collect_env/classic-b200.txt" stack-links/
ln -s nowhere stack-links/dangling
ln -s loop stack-links/loop
chmod -R a+rX stack-links

# the sample generator's output: a link where it writes trial.ini, and a directory not ours to write
mkdir -p gen-link gen-ro/trial
echo untouched > gen-victim
ln -s ../gen-victim gen-link/trial.ini
chmod -R a+rX gen-link gen-ro gen-victim
chmod 555 gen-ro/trial
