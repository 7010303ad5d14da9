#!/bin/bash
# docs/batch.md's Slurm job array, taken from the page itself
# (tests/sh/sched_check.py recipe), runs on a one-node Slurm cluster started
# here, over sample trials and a trial that fails, and gives what `batch -j 2`
# gives on the same trials: the same results.sqlite rows (but each trial's
# analysed_at) and the same summary.csv (tests/sh/sched_check.py same). The
# recipe's paths are the only words replaced: /data/trials by the trials'
# folder, /shared/results by the output folder.
#
# The cluster lives in one temporary folder: a munge key and munged (its
# socket there), a slurm.conf for one node "localhost" with 2 CPUs on free
# ports, no accounting, slurmctld -D and slurmd -D. Everything is killed and
# removed on exit. The test skips when these programs are not installed, or
# when a daemon cannot start here (the reason, then the tail of its log).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
. tests/trials.sh
need_tool python3
for tool in munged slurmctld slurmd sbatch sinfo squeue scancel; do need_tool "$tool"; done
tmp=$(mktemp -d)
pids=()
teardown() {
	local p i
	if [ ${#pids[@]} -gt 0 ] && [ -e "$tmp/slurm.conf" ]; then
		# shellcheck disable=SC2046 # one job id a word
		SLURM_CONF=$tmp/slurm.conf timeout 10 scancel --full --quiet $(SLURM_CONF=$tmp/slurm.conf timeout 10 squeue -h -o %A 2> /dev/null) > /dev/null 2>&1
	fi
	# the daemons in the reverse order of their start: slurmd, slurmctld, munged
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		p=${pids[i]}
		kill "$p" 2> /dev/null || continue
		for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.2; done
		kill -KILL "$p" 2> /dev/null
		wait "$p" 2> /dev/null
	done
	rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 1' INT TERM HUP
# munged wants every folder above its socket open to all
chmod 755 "$tmp"
fail=0

# skip_daemon WHAT LOG...: the skip of a daemon that could not start here,
# after the tail of each of its logs (what it printed, what it logged)
skip_daemon() {
	local why=$1 f
	shift
	for f in "$@"; do
		[ -s "$f" ] || continue
		echo "$f:"
		tail -n 15 "$f" | sed 's/^/    /'
	done
	echo "skip: a Slurm daemon cannot start here: $why"
	exit 77
}

# wait_for SECONDS PID COMMAND...: until COMMAND succeeds (0), PID dies (1)
# or the time is up (2)
wait_for() {
	local end=$((SECONDS + $1)) pid=$2
	shift 2
	while ! "$@" > /dev/null 2>&1; do
		kill -0 "$pid" 2> /dev/null || return 1
		[ $SECONDS -lt $end ] || return 2
		sleep 0.5
	done
}

# munge: a key of its own, its socket in the temporary folder
mkdir -m 700 "$tmp/munge"
mkdir -m 755 "$tmp/sock"
head -c 1024 /dev/urandom > "$tmp/munge/munge.key"
chmod 600 "$tmp/munge/munge.key"
munged -F --key-file="$tmp/munge/munge.key" --socket="$tmp/sock/munge.socket" \
	--pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
	--log-file="$tmp/munge/munged.log" > "$tmp/munge/munged.log" 2>&1 &
pids+=($!)
wait_for 30 "${pids[0]}" test -S "$tmp/sock/munge.socket" ||
	skip_daemon "munged did not start" "$tmp/munge/munged.log"

# two free ports on the loopback, for slurmctld and slurmd
read -r ctld_port d_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" << EOF
ClusterName=scaleaudit-test
SlurmctldHost=$(uname -n | cut -d. -f1)(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$tmp/sock/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=32768 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
# a cluster's settings in the caller's environment (make check run inside a
# Slurm job) must not reach this one
# shellcheck disable=SC2046 # one name a word
unset $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN|SQUEUE|SINFO)_')
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i > "$tmp/slurmctld.out" 2>&1 &
pids+=($!)
wait_for 60 "${pids[1]}" sinfo -h ||
	skip_daemon "slurmctld did not start" "$tmp/slurmctld.out" "$tmp/slurmctld.log"
slurmd -D -N localhost > "$tmp/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo -h -n localhost -o %T)" = idle ]; }
wait_for 90 "${pids[2]}" node_idle ||
	skip_daemon "slurmd did not start, or its node is not idle ($(sinfo -h -n localhost -o %T 2>&1))" "$tmp/slurmd.out" "$tmp/slurmd.log"

# the trials: a few samples of different kinds, and one whose inputs fail it
mkdir -p "$tmp/work"
sched_trials "$tmp"

python3 tests/sh/sched_check.py recipe docs/batch.md slurm > "$tmp/recipe.sh" || exit 1
for word in /data/trials /shared/results; do
	grep -q -F -e "$word" "$tmp/recipe.sh" || { echo "the recipe no longer says '$word':"; cat "$tmp/recipe.sh"; exit 1; }
done
sed -i -e "s|/data/trials|$tmp/data/trials|g" -e "s|/shared/results|$tmp/results|g" "$tmp/recipe.sh"

# submitted, then waited for: every job of the cluster is the recipe's
(cd "$tmp/work" && PATH=$tmp/bin:$PATH bash "$tmp/recipe.sh") > "$tmp/recipe.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "the recipe: exit status $rc, expected 0"; cat "$tmp/recipe.out"; exit 1; }
"$SCALEAUDIT" batch -j 2 "$tmp/data/trials" -o "$tmp/ref" > "$tmp/ref.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { echo "batch -j 2: exit status $rc, expected 3 (one trial fails)"; cat "$tmp/ref.out"; fail=1; }
queue_empty() { [ -z "$(squeue -h -o %A)" ]; }
wait_for 120 "${pids[1]}" queue_empty || {
	echo "the recipe's jobs did not end in 120 s:"; squeue; tail -n 20 "$tmp/slurmctld.log"; exit 1; }

# one array task per trial, only the failed trial's task failed, and the
# merge ran after them and failed the batch (exit 3) as batch does
states=$(squeue -h -t all -o '%K %T' | awk '{ print ($1 == "N/A" ? "merge" : "task"), $2 }' |
	sort | uniq -c | tr -s ' ')
want=" 1 merge FAILED
 5 task COMPLETED
 1 task FAILED"
[ "$states" = "$want" ] || { echo "the jobs' states: expected"; echo "$want"; echo "got"; echo "$states"; fail=1; }
failed=$(squeue -h -t failed -o '%i %K' | awk '$2 != "N/A" { print $2 }')
[ "$(sed -n "${failed:-0}p" "$tmp/work/trials.tsv" | cut -f1)" = trials--broken ] ||
	{ echo "the failed array task is '$failed', not the broken trial's"; cat "$tmp/work/trials.tsv"; fail=1; }
n=$(python3 -c "import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute(\"select count(*), sum(status = 'ok') from trials\").fetchone())" \
	"$tmp/results/results.sqlite" 2>&1)
[ "$n" = "(6, 5)" ] || { echo "the recipe's database: (trials, ok) = $n, expected (6, 5)"; fail=1; }
python3 tests/sh/sched_check.py same "$tmp/ref" "$tmp/results" ||
	{ echo "the recipe's results differ from batch -j 2's"; fail=1; }
if [ $fail -ne 0 ]; then
	for f in "$tmp"/work/slurm-*.out; do echo "$f:"; tail -n 5 "$f"; done
fi
exit $fail
