#!/bin/bash
# A report drawn from analysis.json alone is the report drawn from the trial:
# for every sample trial (and, with ../shared, trials built from real traces
# and logs) `report TRIAL` and `report TRIAL-report/analysis.json` write the
# same bytes (charts, report.pdf, summary.md, report.html, analysis.json), `analyze` prints
# the same text, and `analyze --json` of the document is the document.
set -u
export SOURCE_DATE_EPOCH=1700000000
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

same_from_json() {	# trial name
	local t=$1 o=$tmp/$2
	"$SCALEAUDIT" report "$t" -o "$o/r1" > /dev/null 2> "$o.err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "$t: report exited $rc"; cat "$o.err"; fail=1; return; }
	"$SCALEAUDIT" report "$o/r1/analysis.json" -o "$o/r2" > /dev/null 2> "$o.err" ||
		{ echo "$t: report of its analysis.json exited $?"; cat "$o.err"; fail=1; return; }
	[ -s "$o/r1/report.html" ] || { echo "$t: no report.html"; fail=1; }
	diff -r "$o/r1" "$o/r2" > "$o.diff" || { echo "$t: the reports differ:"; cat "$o.diff"; fail=1; }
	"$SCALEAUDIT" analyze "$t" > "$o/a1.txt" 2> /dev/null
	"$SCALEAUDIT" analyze "$o/r1/analysis.json" > "$o/a2.txt" 2> "$o.err"
	cmp -s "$o/a1.txt" "$o/a2.txt" || { echo "$t: analyze text differs"; diff "$o/a1.txt" "$o/a2.txt" | head; fail=1; }
	"$SCALEAUDIT" analyze --json "$o/r1/analysis.json" | cmp -s - "$o/r1/analysis.json" ||
		{ echo "$t: analyze --json of analysis.json is not the same document"; fail=1; }
	n=$((n + 1))
}

for t in samples/trials/*/ tests/data/trials/*/; do
	mkdir -p "$tmp/$(basename "$t")"
	same_from_json "$t" "$(basename "$t")"
done
[ $n -eq 28 ] || { echo "$n sample trials compared, expected 28"; fail=1; }

if [ -n "${SHARED:-}" ]; then
	r=$SHARED/realdata
	t=$tmp/real
	mkdir -p "$t/1gpu" "$t/2gpu" "$t/amd" "$tmp/realout"
	ln -s "$r/kineto_trace/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" "$t/1gpu/"
	ln -s "$r/nvidia_smi/issue-bpytop-26_query-gpu-csv_2GPUs_GTX1080Ti_GTX1060.txt" "$t/1gpu/"
	ln -s "$r/kineto_trace/hta__nccl_parser_config__nccl_data.json.gz" "$t/2gpu/"
	ln -s "$r/nccl_debug/04_torchtitan-issue-1369_2xH100_hopper01_COLL_nranks2.txt" "$t/2gpu/"
	ln -s "$r/nccl_tests/issue-nccl-1435_2xGPU_all_gather_bfloat16.txt" "$t/2gpu/"
	ln -s "$r/kineto_trace/hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz" "$t/amd/"
	printf '[trial]\ntitle = real traces\nhypothesis = step-time\nbaseline = 1gpu\n' > "$t/trial.ini"
	same_from_json "$t" realout
	[ $n -eq 29 ] || { echo "the trial of real traces was not compared"; fail=1; }
fi
exit $fail
