#!/bin/bash
# make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="kineto trial ..."]: builds every
# tests/fuzz/fuzz_*.c with clang's libFuzzer, ASan and UBSan into
# build/fuzz/<target>/, then runs the chosen targets (all by default) one
# after another, each for FUZZ_SECONDS (default 60) with -timeout=10 and
# -rss_limit_mb=2048, from its committed seeds (tests/fuzz/seeds/<target>/,
# tests/fuzz/regress/<target>/) plus, when ../shared/realdata is there, the
# real files of its format. The corpus grows in build/fuzz/<target>/corpus;
# a crashing input is kept as build/fuzz/<target>/crash-* (or leak-,
# timeout-, oom-) and the run log as build/fuzz/<target>/log. Prints per
# target the seconds it ran (fewer when it stopped at a crash), the
# executions, the final coverage (cov: edges, ft: features) and the crashes;
# exits 1 when one crashed, 2 when the build failed.
set -u
command -v clang > /dev/null || { echo "fuzz: clang is needed (apt-get install clang)"; exit 2; }
secs=${FUZZ_SECONDS:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
F=tests/fuzz
libs=$(make -s --no-print-directory print-libs)	# the tool's own (ISA-L where the build uses it)
cflags=(-std=c11 -D_GNU_SOURCE -O1 -g -I. $(pkg-config --cflags pangocairo))
san=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

all=()
for src in $F/fuzz_*.c; do
	n=$(basename "$src" .c)
	all+=("${n#fuzz_}")
done
targets=(${FUZZ_TARGETS:-${all[@]}})
for t in "${targets[@]}"; do
	[ -f "$F/fuzz_$t.c" ] || { echo "fuzz: no target '$t' (targets: ${all[*]})"; exit 2; }
done

make --no-print-directory BUILD=build/fuzzlib CC=clang SANITIZE=address,undefined \
	CFLAGS='-O1 -g -fsanitize=fuzzer-no-link' build/fuzzlib/libscaleaudit.a || exit 2
mkdir -p build/fuzz
clang "${cflags[@]}" "${san[@]}" -c $F/helper.c -o build/fuzz/helper.o || exit 2

# realdata DIR...: where ../shared/realdata holds the target's format
declare -A realdata=(
	[kineto_gz]=kineto_trace [nccl_log]=nccl_debug [nccl_tests]=nccl_tests
	[nsys_stats]=nsys [nsys_csv]=nsys [gpumon]=nvidia_smi [trainlog]=training_logs
	[collect_env]=collect_env [ingest]="kineto_trace nsys nccl_debug training_logs"
)
# the dictionary of each target, made of the committed ones
dict_of() {
	case $1 in
	kineto | kineto_gz | memtimeline | analysis_json | pyenv | ingest | jsonscan) cat $F/json.dict ;;
	manifest) cat $F/ini.dict ;;
	trial) cat $F/trial.dict $F/json.dict $F/ini.dict ;;
	esac
}

summary=()
crashed=0
for t in "${targets[@]}"; do
	out=build/fuzz/$t
	mkdir -p "$out/corpus"
	clang "${cflags[@]}" "${san[@]}" $F/fuzz_$t.c build/fuzz/helper.o \
		build/fuzzlib/libscaleaudit.a $libs -lcsv -ldl -lm -o "$out/fuzz_$t" || exit 2
	cp $F/seeds/$t/* "$out/corpus/" 2> /dev/null
	cp $F/regress/$t/* "$out/corpus/" 2> /dev/null
	for d in ${realdata[$t]:-}; do
		[ -d ../shared/realdata/$d ] || continue
		find ../shared/realdata/$d -type f -size -64k | while read -r f; do
			if [ "$t" = kineto_gz ]; then	# first byte 0: fed as stored
				{ printf '\000'; cat "$f"; } > "$out/corpus/real-$(basename "$f")"
			else
				cp "$f" "$out/corpus/real-$(basename "$f")"
			fi
		done
	done
	dict=()
	dict_of "$t" > "$out/dict"
	[ -s "$out/dict" ] && dict=(-dict="$out/dict")
	before=$(ls "$out" | grep -cE '^(crash|leak|timeout|oom)-')
	echo "fuzz: $t for $secs s"
	start=$(date +%s)
	LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0" \
		"$out/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$out/" "${dict[@]}" "$out/corpus" > "$out/log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))	# less than secs when it stopped at a crash
	after=$(ls "$out" | grep -cE '^(crash|leak|timeout|oom)-')
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | tail -n 1)
	last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$out/log" | tail -n 1)
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<< "$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
	new=$((after - before))
	[ $rc -ne 0 ] && [ $new -eq 0 ] && new=1	# died without an artifact: still a failure
	[ $new -gt 0 ] && crashed=1
	summary+=("$(printf '%-14s %6s s %10s execs  cov %6s  ft %7s  crashes %s' "$t" "$took" \
		"${execs:-?}" "${cov:-?}" "${ft:-?}" "$new")")
	echo "${summary[-1]}"
	[ $new -gt 0 ] && { grep -m 3 -E 'ERROR|SUMMARY|==[0-9]+==' "$out/log"; ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|    $out/|"; }
done
echo "fuzz: summary"
printf '%s\n' "${summary[@]}"
exit $crashed
