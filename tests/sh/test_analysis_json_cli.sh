#!/bin/bash
# A report drawn from analysis.json alone is the report drawn from the trial:
# for every sample trial (and, with ../shared, trials built from real traces
# and logs) `report TRIAL` and `report TRIAL-report/analysis.json` write the
# same bytes (charts, report.pdf, summary.md, report.html, analysis.json), `analyze` prints
# the same text, and `analyze --json` of the document is the document. The trial is freed
# before its report is drawn, so the sanitizer build sees any pointer the analysis kept
# into it. Each committed trial's report holds the charts it should (counted below); those
# reports are the ones tests/report_cache.sh shares with the other scripts.
set -u
. tests/report_cache.sh
export SOURCE_DATE_EPOCH=1700000000
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 files=0

# The files a report may have; a multi-GPU sample has most of them.
report_files=(report.pdf summary.md report.html charts/01-step-time.svg charts/02-breakdown.svg
	charts/04-memory.svg charts/06-top-kernels.svg charts/07-timeline.svg
	charts/08-monitor.svg charts/05-communication.svg charts/03-waterfall.svg
	charts/10-options.svg charts/11-sweep.svg charts/12-precision.svg charts/13-waiting.svg
	charts/00-throughput.svg)

same_from_json() {	# trial name [its report, written: the status in FOLDER.rc, stderr in FOLDER.err]
	local t=$1 o=$tmp/$2 r1=${3:-$tmp/$2/r1} f
	if [ -n "${3:-}" ]; then
		rc=$(cat "$r1.rc") && cp "$r1.err" "$o.err"
	else
		"$SCALEAUDIT" report "$t" -o "$r1" > /dev/null 2> "$o.err"
		rc=$?
	fi
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "$t: report exited $rc"; cat "$o.err"; fail=1; return; }
	"$SCALEAUDIT" report "$r1/analysis.json" -o "$o/r2" > /dev/null 2> "$o.err" ||
		{ echo "$t: report of its analysis.json exited $?"; cat "$o.err"; fail=1; return; }
	[ -s "$r1/report.html" ] || { echo "$t: no report.html"; fail=1; }
	diff -r "$r1" "$o/r2" > "$o.diff" || { echo "$t: the reports differ:"; cat "$o.diff"; fail=1; }
	"$SCALEAUDIT" analyze "$t" > "$o/a1.txt" 2> /dev/null
	"$SCALEAUDIT" analyze "$r1/analysis.json" > "$o/a2.txt" 2> "$o.err"
	cmp -s "$o/a1.txt" "$o/a2.txt" || { echo "$t: analyze text differs"; diff "$o/a1.txt" "$o/a2.txt" | head; fail=1; }
	"$SCALEAUDIT" analyze --json "$r1/analysis.json" | cmp -s - "$r1/analysis.json" ||
		{ echo "$t: analyze --json of analysis.json is not the same document"; fail=1; }
	for f in "${report_files[@]}"; do
		[ -e "$r1/$f" ] && files=$((files + 1))
	done
	n=$((n + 1))
}

for t in samples/trials/*/ tests/data/trials/*/; do
	mkdir -p "$tmp/$(basename "$t")"
	same_from_json "$t" "$(basename "$t")" "$(report_of "$t")"
done
[ $n -eq 29 ] || { echo "$n sample trials compared, expected 29"; fail=1; }
# report.pdf, summary.md, report.html and 8 charts (all but replay) for 14 samples; no waterfall for
# pipeline-oom-feasibility (its baseline never ran a step); log-only has steps only,
# megatron-log-only steps and memory, hf-log-only (a whole-job summary) and
# nsys-stats-only and nsys-csv-only (summary tables: no step of any GPU) no chart;
# timeline-only (memory timelines: no step) the memory chart alone of those.
# The newer charts: options for the 13 samples whose comparison no confound blocks
# (ddp-precision-changed and gpu-model-mismatch are blocked) and the 5 log-only trials
# with a throughput; sweep for the 2 hparam-sweep samples; precision and waiting for the
# 15 samples with traces (kernel dtypes, per-GPU waiting), none for the log-only trials.
# blackwell-not-ready (hand-made traces, no memory source, no monitor, blocked): 11 of
# report_files (the three documents, step time, breakdown, waterfall, communication,
# top kernels, timeline, precision, waiting); blackwell-extension (the same runs, blocked
# by a binary built for Hopper) the same 11.
# The samples of contradicted manifests (a global batch confound does not block the
# options), 2 against 4 GPUs and superlinear scaling: the 11 and options, precision and
# waiting each; one job against another (its workload confound blocks): no options;
# logs-only (Megatron-LM logs, no trace): the three documents, step time, memory, monitor
# and options. Page 1's samples/s chart (00-throughput) for every trial with a run's
# throughput or failure: all 28 but timeline-only.
# host-bound-input (DDP whose loss is idle, counted apart from the 28 above): the 11,
# options, precision, waiting and samples/s, 15.
want=$((14 * 11 + 10 + 4 + 5 + 3 + 3 + 3 + 4 + (13 + 5) + 2 + 15 + 15 + 11 + 11 +
	3 * (11 + 3) + (11 + 2) + 7 + 27 + 15))
[ "$files" -eq "$want" ] || { echo "the committed trials' reports hold $files of report_files, expected $want"; fail=1; }

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
	[ $n -eq 30 ] || { echo "the trial of real traces was not compared"; fail=1; }
fi
exit $fail
