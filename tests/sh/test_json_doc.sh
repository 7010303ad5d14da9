#!/bin/bash
# docs/json.md names only keys and columns the tool really writes, and every
# top-level key and column it writes: its tables are checked against
# analyze --json, replay.json (against the fake driver of tests/data),
# stack --json, plan --json, inspect --json, and batch's results.sqlite,
# summary.csv, summary.json and batch.json, made here from the sample trial.
# Then the checker is shown to catch a key the document invents and one it
# leaves out.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trial=samples/trials/ddp-scales-well
fail=0
run() {	# run OUT CMD...: CMD's stdout into OUT; it must exit 0
	local out=$1; shift
	"$@" > "$out" 2> "$tmp/err" || { echo "$* exited $?:"; cat "$tmp/err"; fail=1; }
}
run "$tmp/analysis.json" "$SCALEAUDIT" analyze --json "$trial"
${CC:-cc} -shared -fPIC -o "$tmp/libcuda.so" tests/data/fake_libcuda.c || fail=1
run /dev/null env SCALEAUDIT_LIBCUDA="$tmp/libcuda.so" FAKE_CUDA_B200=1 \
	SCALEAUDIT_LIBCUBLASLT=/nonexistent/libcublasLt.so SCALEAUDIT_LIBNCCL=/nonexistent/libnccl.so.2 \
	"$SCALEAUDIT" replay -o "$tmp/replay.json" "$trial"
run "$tmp/stack.json" "$SCALEAUDIT" stack --json tests/data/stack/family.fatbin tests/data/stack/all-zstd.fatbin tests/data/stack/libk.a tests/data/collect_env/classic-b200.txt
run "$tmp/plan.json" "$SCALEAUDIT" plan --json --model llama-3-8b --gpu H200
run "$tmp/inspect.json" "$SCALEAUDIT" inspect --json "$trial/2gpu"
run /dev/null "$SCALEAUDIT" batch -q -j 1 -o "$tmp/batch" "$trial"
[ "$fail" -eq 0 ] || exit 1
samples=("analysis.json=$tmp/analysis.json" "replay.json=$tmp/replay.json" "stack=$tmp/stack.json"
	"plan=$tmp/plan.json" "inspect=$tmp/inspect.json" "results.sqlite=$tmp/batch/results.sqlite"
	"summary.csv=$tmp/batch/summary.csv" "summary.json=$tmp/batch/summary.json"
	"batch.json=$tmp/batch/ddp-scales-well/batch.json")
python3 tests/sh/json_doc_check.py docs/json.md "${samples[@]}" || exit 1

# a key the document invents, and a top-level key it leaves out, are caught
sed -e 's/^| `tolerance` |/| `tolerance`, `tolerence` |/' -e '/^| `hypothesis_note` |/d' docs/json.md > "$tmp/json.md"
out=$(python3 tests/sh/json_doc_check.py "$tmp/json.md" "${samples[@]}")
want="$tmp/json.md: replay.json names tolerence, which $tmp/replay.json does not have
$tmp/json.md: plan does not name hypothesis_note, which $tmp/plan.json has
13 tables checked, 2 problems"
[ "$out" = "$want" ] || { echo "the checker did not catch the planted faults:"; diff <(echo "$want") <(echo "$out"); exit 1; }
echo "ok: docs/json.md matches the output"
