# Sourced by test scripts that build the same trials (from the repository's
# root, as the scripts run):
#   slow_trial DIR    a trial whose 1-GPU train.log.gz is 40 gzip members of
#                     64 MiB each (2.5 GiB of text): seconds to read, so that a
#                     limit or a signal meets its batch worker mid-way
#   sched_trials DIR  DIR/data/trials holding five samples of different kinds
#                     and `broken`, a trial whose inputs fail it, and
#                     DIR/bin/scaleaudit running $SCALEAUDIT, for the
#                     scheduler recipes of docs/batch.md
slow_trial() {
	mkdir -p "$1/1gpu" "$1/2gpu"
	printf '[trial]\ntitle = slow\n' > "$1/trial.ini"
	cp samples/trials/ddp-scales-well/2gpu/train.log "$1/2gpu/"
	python3 - samples/trials/ddp-scales-well/1gpu/train.log "$1/1gpu/train.log.gz" <<'PY'
import gzip, sys
lines = open(sys.argv[1], "rb").read()
size = 64 << 20
member = gzip.compress((lines * (size // len(lines) + 1))[:size], compresslevel=1)
with open(sys.argv[2], "wb") as f:
    for _ in range(40):
        f.write(member)
PY
}

sched_trials() {
	mkdir -p "$1/data/trials" "$1/bin"
	for t in ddp-scales-well ddp-2-vs-4 logs-only pipeline-oom-feasibility hparam-sweep-independent; do
		cp -r "samples/trials/$t" "$1/data/trials/"
	done
	mkdir -p "$1/data/trials/broken/1gpu" "$1/data/trials/broken/2gpu"
	printf '[run]\ngpus = 1\n' > "$1/data/trials/broken/1gpu/run.ini"
	printf '[run]\ngpus = 2\n' > "$1/data/trials/broken/2gpu/run.ini"
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$SCALEAUDIT" > "$1/bin/scaleaudit"
	chmod +x "$1/bin/scaleaudit"
}
