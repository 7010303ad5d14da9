#include "core/codes.h"

#include <string.h>

#define E CODE_ERROR
#define W CODE_WARNING
#define I CODE_INFO

/* By layer, then by code: docs/codes.md lists them in this order. */
static const struct code_info table[] = {
	/* reading the trial's files */
	{ "analysis-json", E, CODE_INPUT, "analysis.json reader (`analyze` and `report` given an analysis.json)",
	  "The file given in place of a trial is not an analysis.json that scaleaudit can read: not JSON, cut short, of a layout this version does not know, or a value of the wrong type at the byte named.",
	  "Give the trial directory instead, or the analysis.json exactly as `report` or `analyze --json` wrote it (a newer scaleaudit's file needs that version)." },
	{ "archive", E, CODE_INPUT, "archive reader (`batch`, `stack`)",
	  "An archive, or an archive inside it, is damaged or cut short: its members from the one named on could not be listed or read. The message names the archive, the member and the byte where reading stopped.",
	  "Copy the archive again from where it was made (an intact one lists with `tar -tf` or `unzip -l`); the trials found before the damage are still read." },
	{ "archive-duplicate", W, CODE_INPUT, "archive reader (`analyze`, `batch`)",
	  "A member of a trial's archive is in it more than once under the same name (a tar appended to, or made twice into one file). Its last copy was read, as tar extracts it over the earlier ones; the earlier copies were left out. The message names the archive, the member and how many copies it holds.",
	  "Check that the last copy is the one meant (`tar -tvf` lists every copy with its size and time), then make the archive again from the trial's folder so that each file is in it once." },
	{ "archive-member", E, CODE_INPUT, "archive reader (`batch`, `stack`)",
	  "A member of an archive was not read: its name is an absolute path or climbs out with `..`, it is a link (links are not followed in an archive; those that point outside it are refused), or it decompresses to more than the caps against archive bombs (64 GiB, or 1000 times its compressed size past 64 MiB).",
	  "Make the archive again from the trial's folder with relative names and without links (`tar -czf trial.tar.gz -C parent trial`); a member really larger than the caps has to be read from a directory." },
	{ "bad-base", W, CODE_INPUT, "Kineto trace reader",
	  "The trace's `baseTimeNanoseconds` is out of range, so its times are kept relative to the start of the trace.",
	  "Nothing is lost within the trace; if it was edited or converted, export it again from the profiler." },
	{ "bad-event", W, CODE_INPUT, "Kineto trace reader",
	  "An event has no usable `ts` or `dur` (missing, negative or implausibly long) and was skipped.",
	  "A few are harmless; many mean the trace was damaged or rewritten by a tool: export it again." },
	{ "bad-memory-record", W, CODE_INPUT, "memory timeline reader",
	  "A record of a PyTorch memory timeline is not `[time, action, bytes, category]` with an action of 1 to 4 and a category of 0 to 7 (raw form), or a row is not nine byte counts (coalesced form); it was skipped.",
	  "A few are harmless; many mean the file was edited or is not an `export_memory_timeline` file: export it again." },
	{ "bad-pattern", E, CODE_INPUT, "training-log reader (`--patterns`)",
	  "A pattern you gave does not compile as a PCRE2 regular expression, or has no named group that scaleaudit reads.",
	  "Fix the pattern: the message gives the offset of the error, or the names of the groups it may use." },
	{ "binary-not-scanned", I, CODE_INPUT, "trial loader",
	  "A binary inside a trial's archive is larger than 256 MiB: binaries in an archive are scanned for GPU code from memory, and one this large is not, so the run's readiness is judged without it.",
	  "Extract the archive and analyse the trial's directory: binaries on disk are read in place, whatever their size." },
	{ "corrupt", E, CODE_INPUT, "every reader of gzip-compressed files",
	  "The compressed data of the file is corrupt; what was read before the damage is kept.",
	  "Copy the file again from the machine that wrote it (an intact copy passes `gzip -t`)." },
	{ "cpu-only", W, CODE_INPUT, "Kineto trace reader, Nsight Systems SQLite reader",
	  "The trace or export holds no GPU activity at all (no kernel, memcpy or memset): it was recorded without CUDA activity.",
	  "Profile with `ProfilerActivity.CUDA` in torch.profiler, or with CUDA tracing on in `nsys profile`." },
	{ "dcgmi-error", W, CODE_INPUT, "GPU monitor reader (`dcgmi dmon`)",
	  "`dcgmi dmon` printed an error instead of samples, so the file gives no GPU samples.",
	  "Check that the DCGM host engine runs before recording, or record with `nvidia-smi` instead." },
	{ "device-remapped", I, CODE_INPUT, "Kineto trace reader",
	  "The trace's GPU work ran on a device id that its `deviceProperties` do not list (ROCm's profiler numbers GPUs after the CPUs, and visible-device settings renumber them), so the device was read as a listed one: the only device listed; else by order, when the trace lists as many devices as its GPU work used (the lowest id used is the lowest id listed, and so on); else, when every listed device has the same name and memory, the first. The GPU's name, capacity and the `[memory]` samples on either id then count for it. The message names both ids, the device's name and which rule was used.",
	  "Nothing to do when the name is the GPU you ran on. With several different GPUs listed and no rule that fits, the GPU stays unnamed: profile with one visible device per process (`HIP_VISIBLE_DEVICES`, `CUDA_VISIBLE_DEVICES`)." },
	{ "duplicate-rank", W, CODE_INPUT, "Kineto trace reader",
	  "Two traces of one run say they are the same rank; both are kept, as different GPUs.",
	  "Keep one trace per rank in each run's directory; move traces of another job or capture elsewhere." },
	{ "duplicate-trace", W, CODE_INPUT, "trial loader",
	  "Two traces of one run hold exactly the same GPU work: one trace was given twice, as two ranks. The second is left out.",
	  "Keep one trace per rank in each run's directory; copy each rank's own trace." },
	{ "empty", E, CODE_INPUT, "trial loader",
	  "A directory you named holds no files.",
	  "Name the directory that holds the runs' logs." },
	{ "fatbin-entry-unknown", W, CODE_INPUT, "CUDA fat binary reader (`stack`, trial loader)",
	  "A CUDA fat binary holds an entry of a kind (or a concatenated entry of a format) that scaleaudit does not know, perhaps from a newer nvcc: the GPU code in it is not counted, so the file may carry architectures that `stack` does not list. The message names the file and the byte where the entry starts.",
	  "List the file's code with NVIDIA's `cuobjdump --list-elf --list-ptx FILE`; the verdicts about this file stand only for the architectures listed." },
	{ "gpumon-noheader", W, CODE_INPUT, "GPU monitor reader (nvidia-smi CSV)",
	  "An nvidia-smi CSV file has no header, so columns with units (such as memory.used and memory.total) cannot be told apart and were left out.",
	  "Record with `--format=csv` rather than `csv,noheader`, so that the header names each column." },
	{ "gpumon-row", W, CODE_INPUT, "GPU monitor reader (nvidia-smi, rocm-smi, dmon)",
	  "A row of a GPU monitor log names no GPU, or has a different number of fields than its header; it was left out.",
	  "A few (a last line cut short when the job ended) are harmless; many mean two tables share one file: record each to its own file." },
	{ "gpumon-value", W, CODE_INPUT, "GPU monitor reader (nvidia-smi, rocm-smi, dmon)",
	  "A value in a GPU monitor row is not a number in its column's unit; the row was left out.",
	  "Look for text another program wrote into the file, and record the monitor to a file of its own." },
	{ "implausible-world", W, CODE_INPUT, "Kineto trace reader",
	  "A trace's `distributedInfo` claims a `world_size` of more than 4096 ranks, or a `rank` past that (or either is negative): the value is taken as unknown so that a damaged trace cannot make the analysis count billions of GPUs.",
	  "Export the trace again; if the job really ran on more ranks, give each run's GPU count with `gpus` in its run.ini." },
	{ "internal", E, CODE_INPUT, "training-log reader",
	  "One of scaleaudit's own patterns does not compile with this PCRE2 library: a fault of scaleaudit, not of your input.",
	  "Report it with the output of `scaleaudit --version` and the PCRE2 version installed." },
	{ "invalid-json", E, CODE_INPUT, "Kineto trace reader, memory timeline reader",
	  "The trace is not valid JSON at the byte named; the events read before it are kept.",
	  "Export the trace again; if it was edited, check it with a JSON validator." },
	{ "left-out", W, CODE_INPUT, "every reader, trial loader",
	  "A path is not a regular file (a FIFO, a socket, a device) or is a symbolic link that dangles or loops, so it was not opened: reading it could block forever or means nothing.",
	  "Nothing to do if it was not meant to be read; otherwise copy the data into a regular file and name that." },
	{ "limit", E, CODE_INPUT, "every reader that keeps events: Kineto traces, nsys SQLite, CSV and console tables, NCCL logs, nccl-tests, GPU monitors, training logs",
	  "A file is past one of the caps that keep a damaged or hostile input from taking all memory or time: more events from one file than `--max-events` (10,000,000 unless given; kernels, monitor samples, log steps, table rows and NCCL lines all count), more events from the whole trial than 4 times that, more data kept in memory than `--max-memory` (the smaller of 8 GiB and half of the machine's memory unless given), an nsys SQLite export of more than 20,000,000 rows, or one whose queries run for more than 300 s. What was read before the cap is kept; the rest of the file is not read.",
	  "Export a shorter capture (nsys `--duration`, or a profiler schedule of a few steps); the steps of a short capture are enough for the analysis. A trial that really holds more events is read whole with a larger `--max-events` and `--max-memory`, given the memory (about 100 bytes an event)." },
	{ "link-loop", W, CODE_INPUT, "trial loader",
	  "A symbolic link leads back into a directory it is in; following it would never end, so it was not followed (linked run directories are otherwise read as if they were there).",
	  "Replace the link with the directory it should name, or remove it." },
	{ "long-line", W, CODE_INPUT, "every line reader",
	  "A line is longer than 1 MiB; only its first 1 MiB was read.",
	  "Usually harmless (a printed tensor or a progress bar); if the numbers you need are on that line, break it up." },
	{ "manifest-key", W, CODE_INPUT, "manifest reader (trial.ini, run.ini)",
	  "A manifest has a key that scaleaudit does not know; it was ignored.",
	  "Check its spelling against the manifest keys listed in the README." },
	{ "manifest-place", W, CODE_INPUT, "manifest reader (trial.ini, run.ini)",
	  "A `[run]` section sits in the manifest at the top of the trial, where it describes no run; it was ignored.",
	  "Move the `[run]` keys into a run.ini in the directory of the run they describe." },
	{ "manifest-syntax", E, CODE_INPUT, "manifest reader (trial.ini, run.ini)",
	  "A line of a manifest is neither `[section]` nor `key = value`, or is longer than the INI reader takes (199 characters); it was not read.",
	  "Fix the line named in the message." },
	{ "manifest-value", E, CODE_INPUT, "manifest reader (trial.ini, run.ini)",
	  "A manifest value is not of the kind its key takes (a number, a known precision, strategy or hypothesis); it was not used (a precision that names no dtype makes the run's declared precision unknown).",
	  "Use one of the values the message lists." },
	{ "member-too-large", W, CODE_INPUT, "archive reader (`stack`)",
	  "A binary inside a wheel, conda package or other archive given to `stack` is larger than 256 MiB: binaries in an archive are scanned for GPU code from memory, and one this large is not, so the stack is judged without it (exit status 3).",
	  "Install the package, or extract the archive, and give its directory: binaries on disk are read in place, whatever their size." },
	{ "nccl-coll-dropped", W, CODE_INPUT, "NCCL log reader",
	  "The log holds more than 4096 distinct collectives (operation, dtype and count); those past the limit were counted but not added to the communication table.",
	  "Log fewer steps with `NCCL_DEBUG_SUBSYS=COLL`, or leave COLL out: the traces give the collectives too." },
	{ "nccl-env-disabled", I, CODE_INPUT, "NCCL log reader",
	  "The NCCL log echoes an `NCCL_*` setting from the job's environment that turns a transport off (`NCCL_P2P_DISABLE=1`, `NCCL_P2P_LEVEL=LOC` or `0`, `NCCL_SHM_DISABLE=1`): NCCL then moves data a slower way, which explains a slow transport.",
	  "Unset the variable unless it works around a known fault (a hang with peer-to-peer on some consumer boards), and run again." },
	{ "nccl-error", W, CODE_INPUT, "NCCL log reader",
	  "NCCL reported an error in the log; the message quotes it.",
	  "Read the quoted error: the run may have failed, or fallen back to a slower path." },
	{ "nccl-mixed-versions", W, CODE_INPUT, "NCCL log reader",
	  "One log names two different NCCL versions.",
	  "Check that every rank loads the same NCCL library, and compare runs made with one NCCL build." },
	{ "nccl-tests-header", W, CODE_INPUT, "nccl-tests reader",
	  "A test's `nThread N nGpus M` line names no plausible GPU count: N or M is 0, or N x M is more than 65536. The test's GPU count is taken as unknown rather than computed from that line.",
	  "Check that the file is nccl-tests' output as the test wrote it; if its device lines were cut, run the test again and keep its whole output." },
	{ "nccl-timeout", W, CODE_INPUT, "NCCL log reader",
	  "A collective timed out: the job waited on communication that never completed.",
	  "A rank stalled or died; the run's numbers from that point on are not valid: find the rank in the log and run again." },
	{ "nccl-warn", W, CODE_INPUT, "NCCL log reader",
	  "NCCL printed a warning; the message quotes it.",
	  "Read the quoted warning: it often explains a fallback (no peer-to-peer access, no InfiniBand) that slows communication." },
	{ "no-gpu-read", W, CODE_INPUT, "Kineto trace reader",
	  "The trace holds events, but the part that could be read holds no GPU activity (the file is cut short or damaged before it).",
	  "Export the trace again in full." },
	{ "not-a-trial", E, CODE_INPUT, "trial loader",
	  "The path is not a directory, and a trial is a directory of runs.",
	  "Name the trial's directory; to look at one file, use `scaleaudit inspect FILE`." },
	{ "not-read", W, CODE_INPUT, "trial loader",
	  "A file in a run's directory was not read: its content is of no format scaleaudit reads (binary data, or text of no known format), or nothing in it was of use. Nothing a run holds is left out without a word.",
	  "If it is a log or trace the run should use, see `scaleaudit inspect FILE` for what it was taken for; otherwise move it out of the run's directory." },
	{ "nsys-table", W, CODE_INPUT, "Nsight Systems console table reader",
	  "A console summary table of `nsys stats` ends before its first row, or holds a line that does not fit its columns (a row cut short); the rows before it are kept.",
	  "Keep the report's output whole: print it again with `nsys stats REPORT.nsys-rep`, or write it as CSV with `--format csv`." },
	{ "nul-bytes", W, CODE_INPUT, "trial loader (every text file)",
	  "A text file holds NUL bytes, as a node that crashed while writing leaves them (blocks allocated, never written); they were left out and the text around them read. The file was judged on its text before them.",
	  "Nothing to do if the job crashed; otherwise check that the file was copied in full." },
	{ "outside-run", W, CODE_INPUT, "trial loader",
	  "A log at the top of a trial with several runs belongs to no run, so nothing uses it.",
	  "Move it into the directory of the run that wrote it." },
	{ "own-output", I, CODE_INPUT, "trial loader",
	  "A directory inside the trial holds scaleaudit's own output (a report, or a batch folder, by the hidden .scaleaudit-report or .scaleaudit-batch file it holds, or a report's analysis.json, summary.md and report.html together); it is not read as a run.",
	  "Nothing to do; write reports outside the trial to keep it clean." },
	{ "several-trials", E, CODE_INPUT, "trial loader (`analyze`, `report`)",
	  "The directory holds several trials (a trial.ini, or runs with their run.ini, in its sub-directories), not the runs of one trial; nothing was analysed.",
	  "Name one trial's directory, or analyse them all with `scaleaudit batch DIR`." },
	{ "sqlite", E, CODE_INPUT, "Nsight Systems SQLite reader",
	  "SQLite could not read the Nsight Systems export; the message gives SQLite's reason.",
	  "Export the report again with `nsys export --type sqlite`." },
	{ "too-deep", E, CODE_INPUT, "trial loader",
	  "Directories are nested more than 32 levels deep; the deeper ones were not read.",
	  "Name a directory closer to the runs' logs." },
	{ "too-many-binaries", W, CODE_INPUT, "trial loader",
	  "A run's directory holds more than 256 binaries with GPU code (a copied environment?): the ones after the 256th are left out of its readiness.",
	  "Keep only the run's own extensions in its directory, or check a whole environment with `scaleaudit stack`." },
	{ "train-conflict", W, CODE_INPUT, "training-log reader",
	  "The log gives a fact (global batch, micro batch, gradient accumulation, total steps, world size) twice with different values; the value read first is kept.",
	  "Check which value the job used and declare it in the run's run.ini." },
	{ "train-precision", W, CODE_INPUT, "training-log reader",
	  "The log names a precision that scaleaudit does not know; it was not used.",
	  "Declare `precision =` in the run's run.ini with one of fp32, tf32, bf16, fp16, fp8, fp4, int8, fp64." },
	{ "truncated", E, CODE_INPUT, "every reader of gzip-compressed files, Kineto trace reader, memory timeline reader",
	  "The file ends early (its compressed data or its JSON is cut short); what was read before the end is kept.",
	  "Copy the file again in full; a trace written while the job was being stopped is often cut short." },
	{ "unreadable", E, CODE_INPUT, "every reader, trial loader",
	  "A file or directory could not be opened or read; the message gives the system's reason.",
	  "Check the path and its permissions." },

	/* the analysis */
	{ "arch-unsupported", E, CODE_ANALYSIS, "readiness",
	  "PyTorch said the run's GPU is not compatible with the installed build (\"... with CUDA capability sm_120 is not compatible with the current PyTorch installation\"), or a kernel found no code for the GPU (\"no kernel image is available for execution on the device\"): the run's kernels do not target its GPU, so no verdict can stand on it (a blocking `gpu_arch` confound).",
	  "Install a PyTorch wheel built for the GPU (for Blackwell, sm_100/sm_103/sm_120: a cu128 wheel or newer, PyTorch 2.7 or later), or rebuild PyTorch and the extensions with `TORCH_CUDA_ARCH_LIST` naming its compute capability (\"10.0\", \"12.0\"); then run again." },
	{ "baseline-ambiguous", W, CODE_ANALYSIS, "comparison",
	  "trial.ini names no baseline and the two runs compared have the same GPU count (2 against 2), so nothing says which is the baseline: the first in name order was taken. The speedup, the attribution and the verdict read the other way round if that guess is wrong.",
	  "Set `baseline =` in trial.ini to the name of the run the candidate is measured against." },
	{ "baseline-missing", W, CODE_ANALYSIS, "comparison",
	  "trial.ini names a baseline run that does not exist, so the run with the fewest GPUs is the baseline.",
	  "Set `baseline =` in trial.ini to the name of a run's directory." },
	{ "batch-inconsistent", W, CODE_ANALYSIS, "declared against measured",
	  "The global batch the run uses is not its micro batch x data-parallel GPUs x gradient accumulation, all of them measured (from the training logs and traces, none from run.ini): the logs contradict each other or the traces' GPU count. Data-parallel GPUs are the data-parallel size the log prints, else all the run's GPUs for single, ddp, fsdp and zero, 1 for pipeline, tensor and device_map.",
	  "Check that the log is of this run (the same GPUs); throughput and examples processed use the global batch as the message gives it." },
	{ "collective-count-mismatch", W, CODE_ANALYSIS, "clock alignment",
	  "The GPUs of a run ran different numbers of one kind of communication kernel (of one process group), so those kernels cannot be matched across GPUs: they align no clock, and all their time counts as transfer rather than waiting.",
	  "Profile every rank over the same steps (one schedule for all ranks), and keep each rank's whole trace." },
	{ "cuda-oom", I, CODE_ANALYSIS, "run checks",
	  "The run ran out of GPU memory; the message gives the allocation that failed and what was already reserved.",
	  "Nothing, when the trial asks whether the job fits; otherwise lower the micro batch or split the model, and run again." },
	{ "extension-jit", W, CODE_ANALYSIS, "readiness",
	  "A binary in the run's directory (a compiled extension, a `.cubin`) has no machine code for the run's GPU, only PTX that the driver compiles when the program starts: the run paid that compilation, and the architecture's own features (`a`/`f` targets) were absent. The message names the PTX and the driver it needs.",
	  "Rebuild the extension with `TORCH_CUDA_ARCH_LIST` naming the GPU's compute capability (\"10.0\" for B200), then run again." },
	{ "extension-missing-arch", E, CODE_ANALYSIS, "readiness",
	  "A binary in the run's directory (a compiled extension such as flash-attn's, a `.cubin`, a `.hsaco`) holds no code the run's GPU can load: its kernels fail with \"no kernel image is available for execution on the device\", so no verdict can stand on the run (a blocking `gpu_arch` confound). The message names the file and the architectures it carries.",
	  "Rebuild the extension with `TORCH_CUDA_ARCH_LIST` naming the GPU's compute capability (\"10.0\" for B200, \"12.0\" for RTX 50xx), or `PYTORCH_ROCM_ARCH` for an AMD GPU; then run again." },
	{ "extension-zstd-driver", W, CODE_ANALYSIS, "readiness",
	  "A binary in the run's directory holds ZSTD-compressed GPU code (nvcc `--compress-mode=size` or `balance`, CUDA 12.4 and later), which only driver 550.54.14 (R550) or newer can unpack, and the run's driver is older: the binary cannot load there. The message gives the count of such entries and both drivers.",
	  "Install driver 550.54.14 or newer, or rebuild the binary with `nvcc --compress-mode=speed` (LZ4, which every driver loads)." },
	{ "extension-zstd-unverified", I, CODE_ANALYSIS, "readiness",
	  "A binary in the run's directory holds ZSTD-compressed GPU code, which only driver 550.54.14 (R550) or newer can unpack, and no log of the run gives its driver: whether it loads is not known.",
	  "Add the output of PyTorch's collect_env (`python -m torch.utils.collect_env`) to the run, so the driver is known." },
	{ "foreign-kernels", W | I, CODE_ANALYSIS, "readiness",
	  "Kernels whose names say they were built for another GPU generation (`sm80_xmma_...`, `sm90_xmma_...`, `cutlass_80_...`, `..._sm80`, `ampere_...`) ran on a Blackwell GPU: they run, but are not tuned for it. The message gives their share of the run's GPU kernel time and the largest; a warning above 10%, a note below.",
	  "Use libraries built for the GPU: a PyTorch wheel with CUDA 12.8 or newer brings cuBLAS/cuDNN kernels for Blackwell; rebuild extensions (flash-attn, xformers, your own) with `TORCH_CUDA_ARCH_LIST` naming its compute capability." },
	{ "global-batch-unknown", W, CODE_ANALYSIS, "run checks",
	  "No log or manifest gives the run's global batch, so its throughput and examples processed are unknown.",
	  "Add `global_batch =` to the run's run.ini." },
	{ "gpu-count", W | I, CODE_ANALYSIS, "run checks",
	  "The number of GPUs disagrees between sources: as a warning, run.ini declares more GPUs than there are rank traces, and the traces give no world size (traces of part of the job); as a note, nvidia-smi watched a different number of GPUs than the traces show.",
	  "Check `gpus =` in run.ini and that every rank's trace is in the run's directory; the note is expected when the machine has GPUs the job did not use." },
	{ "gpu-count-conflict", E, CODE_ANALYSIS, "run checks",
	  "run.ini's `gpus` disagrees with the traces: with their `world_size`, or, where they give none, it declares fewer GPUs than there are rank traces. The traces are believed.",
	  "Correct `gpus =` in run.ini, or check that the traces are of this run." },
	{ "gpu-model-conflict", W, CODE_ANALYSIS, "run checks",
	  "Two sources name different GPU models for one GPU (the trace's deviceProperties, collect_env, nvidia-smi). The trace is believed, then collect_env, then nvidia-smi.",
	  "Check that every file in the run's directory comes from the machine that ran it; move the others out." },
	{ "gpu-work-outside-steps", I, CODE_ANALYSIS, "run checks",
	  "Some GPU work of a rank was launched outside any profiled step (before the first, between steps, after the last); it enters no step's numbers. The message gives how much, per rank.",
	  "Nothing when it is set-up or evaluation; if it is training work, put it inside the profiler's step (`prof.step()` after each iteration)." },
	{ "log-inconsistent", W, CODE_ANALYSIS, "run checks (runs without traces)",
	  "A run's step time times its samples per second differs from its global batch by more than 10%: one of the three is wrong (a step count that is planned, not run; a batch that is not the one that ran). The message gives the three numbers and where each comes from. The less direct of step time and samples per second is not used: a step time from a whole-job summary gives way to the samples per second the trainer printed, a samples per second to a step time printed per iteration.",
	  "Check the global batch the trainer printed against run.ini, and log per-iteration times; a trace of a few steps gives a step time that needs no batch." },
	{ "log-summary-timing", W, CODE_ANALYSIS, "run checks (runs without traces)",
	  "A run without traces whose training log prints no per-iteration time takes its step time and throughput from the trainer's whole-job summary (Hugging Face `train_runtime` over the steps run, `train_runtime` x `train_steps_per_second`, never a planned step count; `train_samples_per_second`). That span includes start-up, evaluation and checkpoint saving, so the step time is too long by an unknown share, and a speedup from it is rough: a verdict uses it only over 100 steps run or more, and lists it as weak evidence.",
	  "Log per-iteration times (Megatron, torchtitan, DeepSpeed and Lightning print them), or profile a few steps with torch.profiler to see where the time goes." },
	{ "log-timing", I, CODE_ANALYSIS, "run checks (runs without traces)",
	  "A run without traces takes its step time and throughput from the training log's per-iteration lines (a step time, or the global batch over the samples per second a line prints), warm-up left out as for traced steps. They are as good as the job's own timer; where the time went (compute, communication, memory, idle) stays unknown.",
	  "To see where the time goes, profile a few steps with torch.profiler beside the log." },
	{ "manifest-conflict", E, CODE_ANALYSIS, "declared against measured",
	  "run.ini declares a fact (gpus, precision, global_batch, micro_batch, grad_accum, seq_len, steps, model, dataset) that a training log of the run gives otherwise, or its global_batch is not micro_batch x data-parallel GPUs x grad_accum. The message names both sources with file:line and both values; the measured value is the one used (traces over logs over run.ini), and the confounds compare the values used.",
	  "Correct run.ini to what the job ran with (the log's value), or check that the log is of this run." },
	{ "memory-unknown", W, CODE_ANALYSIS, "run checks",
	  "No source gives a GPU's peak memory, so memory checks and advice leave it out.",
	  "Record nvidia-smi during the run, or profile with `profile_memory=True`." },
	{ "missing-rank", W, CODE_ANALYSIS, "run checks",
	  "The traces say the job had more ranks than there are traces of; the message lists the missing ones.",
	  "Copy every rank's trace into the run's directory." },
	{ "mixed-jobs", W, CODE_ANALYSIS, "run checks",
	  "The rank traces of one run disagree on the world size, as if they came from different jobs.",
	  "Keep only traces of one job in each run's directory." },
	{ "monitor-not-used", W, CODE_ANALYSIS, "peak memory",
	  "A GPU monitor's (nvidia-smi's) peak memory is not used as the GPU's peak: it names another GPU model than the trace, reads less than the memory the profiler reserved, or its samples cover less time than the trace profiled. The message says which; the profiler's reserved memory is used instead.",
	  "Record nvidia-smi on the same machine, every second or faster (`-lms 500`), from before the profiled steps until after them." },
	{ "no-step-windows", W, CODE_ANALYSIS, "run checks",
	  "The run's traces hold no closed step window: no `ProfilerStep#N` at all (a plain `with profile():`), or a single step, which no next step closes. The run has no step time; the whole profiled span (first to last GPU activity) is partitioned instead (`per_gpu[].span_s`).",
	  "Profile with `schedule=torch.profiler.schedule(wait=1, warmup=1, active=7)` and call `prof.step()` at the end of every iteration, so that 7 active steps are recorded." },
	{ "nsys-timing", I, CODE_ANALYSIS, "run checks (runs without traces)",
	  "A run without traces or per-iteration log times takes its step time from Nsight Systems summary tables: the median of the NVTX range that marks the steps. Tables hold totals, not a timeline, so warm-up steps cannot be told apart and where the time of a step went stays unknown; GPU time by class is given over the whole profile, overlap counted twice.",
	  "Export the report as SQLite (`nsys export --type sqlite`) or as `nsys stats --report cuda_gpu_trace` CSV, so that each kernel's start and end are read, or profile a few steps with torch.profiler." },
	{ "op-above-peak", W, CODE_ANALYSIS, "MFU (FLOPs from op shapes)",
	  "An op's FLOPs, counted from its recorded shapes, over the time of the kernels it launched come to more TFLOP/s than the GPU table's dense peak for its dtype: no kernel computes that fast, so the op's kernel time (a clock, a kernel attributed to the wrong op) or its recorded shapes are wrong. The run's MFU, built on the same times and shapes, is not evidence and is left unknown; the achieved TFLOP/s stay, as what the trace says. The message names the run, the op, its shapes and dtype, its TFLOP/s and the peak.",
	  "Check the op in the trace: that its shapes are those of the call (`record_shapes=True` on the profiled steps) and that the kernels under it are its own; profile again if the trace was edited or its clock is off. Until then the run's MFU stays unknown." },
	{ "plan-memory-off", W, CODE_ANALYSIS, "plan against measured (run.ini `predicted_peak_gb`)",
	  "The run's largest measured peak memory per GPU is more than 15% away from the peak `scaleaudit plan` predicted: the plan's memory model (activations, reserve, strategy) did not describe the job.",
	  "Compare the measured split (memory chart, per_gpu peaks) with the plan's `--explain`; correct the inputs (micro batch, sequence length, activation checkpointing, strategy) before planning the next rental." },
	{ "plan-step-off", W, CODE_ANALYSIS, "plan against measured (run.ini `predicted_step_s`)",
	  "The run's median step time is more than 25% away from the step time the plan predicted: the assumed throughput (MFU) did not hold.",
	  "Plan the next rental from the measured step time (`plan` takes the measured throughput), not from the assumed one." },
	{ "plan-within", I, CODE_ANALYSIS, "plan against measured (run.ini `predicted_peak_gb`, `predicted_step_s`)",
	  "The predicted peak memory per GPU or step time is within its tolerance (15% for memory, 25% for the step) of what the run measured; the message gives both numbers.",
	  "Nothing to do: the plan described the job." },
	{ "precision-mismatch", W, CODE_ANALYSIS, "run checks",
	  "The declared precision differs from the dtype that most of the run's matmul time ran in.",
	  "Check the job's autocast or dtype setting, or correct `precision =` in run.ini." },
	{ "precision-unchecked", W, CODE_ANALYSIS, "run checks",
	  "The declared precision names no dtype, so the run's declared precision is unknown and the observed one is checked against no declaration.",
	  "Declare `precision =` with one of fp32, tf32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, fp4, int8, fp64." },
	{ "rank-without-steps", W, CODE_ANALYSIS, "run checks",
	  "A rank's trace gives no step of GPU work (damaged, or from another part of the run), so the run's numbers rest on the other GPUs.",
	  "Profile every rank over the same steps, with the profiler's step schedule." },
	{ "stack-below-minimum", W, CODE_ANALYSIS, "readiness",
	  "The run's environment report or logs show a version below what its GPU needs (for Blackwell: PyTorch 2.7 built with CUDA 12.8, driver 570.26, NCCL 2.25.1, cuDNN 9.7), or a PyTorch architecture list that does not name the GPU. The message names each, with its fix.",
	  "Install what the message names (a cu128 PyTorch wheel, a newer driver or NCCL), or rebuild with `TORCH_CUDA_ARCH_LIST` naming the GPU's compute capability." },
	{ "strategy-mismatch", W, CODE_ANALYSIS, "run checks",
	  "The declared strategy differs from what the run's collectives look like.",
	  "Check how the job wraps the model, or correct `strategy =` in run.ini." },
	{ "superlinear", W, CODE_ANALYSIS, "comparison",
	  "The scaling efficiency is above 105%: n GPUs did more than n times the work of the baseline per unit of time, which the extra GPUs alone cannot do. The message gives the causes checked with their numbers, those that hold first: baseline-near-capacity (a baseline GPU at 85% or more of its memory), per-gpu-batch (the runs' micro batches differ), host-bound-baseline (the baseline's slowest GPU idle 10% or more of its step), baseline-saved-memory (a replica candidate, ddp or single, peaks more than 5% above the baseline: the baseline traded compute for memory, as activation checkpointing does). The verdict stands, and its sentence says so.",
	  "Compare like with like: the same micro batch and the same memory savings (checkpointing, offload) on both sides; when no cause holds, check the step-time measurement (the steps compared, warm-up, other work on the GPUs)." },
	{ "suppressed", I, CODE_ANALYSIS, "findings list",
	  "More than 20 messages of one code came from the inputs; the rest were counted but not listed.",
	  "Fix the problems listed first: the rest are usually the same one repeated." },

	/* writing results */
	{ "timeline-only", I, CODE_ANALYSIS, "run checks (runs without traces)",
	  "A run whose only input is PyTorch memory timelines (`export_memory_timeline`): its memory by category (parameters, gradients, optimizer state, activations ...) is shown per GPU, but a timeline holds no steps, so step time, throughput and speedup are n/a.",
	  "Add the profiler's trace of the same steps (`prof.export_chrome_trace`) or the job's training log to the run's directory." },
	{ "gen-write", E, CODE_OUTPUT, "scaleaudit-gen (the sample generator)",
	  "A sample trial's file or directory could not be created or written; the message gives the system's reason.",
	  "Check that the `-o` directory can be written and that the disk has room." },
	{ "plan-exists", E, CODE_OUTPUT, "plan (`-o DIR`, `--init DIR`)",
	  "The directory already holds a trial.ini; plan does not replace a trial that may have been recorded.",
	  "Give another directory, or add `--force` to replace trial.ini, the run.ini files and CHECKLIST.md." },
	{ "plan-write", E, CODE_OUTPUT, "plan (`-o DIR`, `--init DIR`)",
	  "A plan file or directory could not be created or written, or its place is a symbolic link, which plan never writes through; the message gives the reason.",
	  "Check that the directory can be written and has room, and remove the link or write elsewhere." },
	{ "report-write", E, CODE_OUTPUT, "report",
	  "An output file or directory could not be created or written; the message gives the system's reason.",
	  "Check that the `-o` directory can be written and that the disk has room." },
};

#undef E
#undef W
#undef I

static const char *const layer_titles[] = {
	[CODE_INPUT] = "Reading the trial's files",
	[CODE_ANALYSIS] = "The analysis",
	[CODE_OUTPUT] = "Writing results",
};

const struct code_info *codes_find(const char *code)
{
	for (size_t i = 0; code && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].code, code))
			return &table[i];
	return NULL;
}

const struct code_info *codes_all(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

bool codes_allow(const char *code, enum diag_severity sev)
{
	const struct code_info *c = codes_find(code);

	return c && (c->severity & (1u << sev));
}

void codes_severity_names(unsigned severity, struct buf *out)
{
	const char *sep = "";

	for (int s = DIAG_ERROR; s <= DIAG_INFO; s++) {
		if (!(severity & (1u << s)))
			continue;
		buf_addf(out, "%s%s", sep, diag_severity_name((enum diag_severity)s));
		sep = ", ";
	}
}

static void markdown_row(const struct code_info *c, struct buf *out)
{
	buf_addf(out, "| `%s` | ", c->code);
	codes_severity_names(c->severity, out);
	buf_addf(out, " | %s | %s | %s |\n", c->raised_by, c->meaning, c->action);
}

void codes_markdown(struct buf *out)
{
	int layer = -1;

	buf_addstr(out,
		"# Finding and error codes\n"
		"\n"
		"<!-- Generated from the table in core/codes.c by `make docs/codes.md`:\n"
		"     edit the table, then regenerate; a test fails when the two differ. -->\n"
		"\n"
		"Every message scaleaudit gives about your inputs, its analysis or its\n"
		"output carries a stable code. Those about the trial reach analysis.json as\n"
		"`findings[].code` (`scaleaudit analyze --json`, and the analysis.json that\n"
		"`scaleaudit report` writes); the text output, the report and `inspect`\n"
		"show the same messages without the code. Codes are never renamed; new ones\n"
		"may be added.\n"
		"\n"
		"Severity: `error` means an input, or part of one, could not be used;\n"
		"`warning` means something was used but looks wrong, or was left out;\n"
		"`info` (shown as `note:`) is worth knowing. Findings are output, not\n"
		"failure: the exit status changes only when inputs could not be read or\n"
		"were cut short (see the README). Of the messages about the inputs, at most\n"
		"20 of one code are listed; the rest are counted (code `suppressed`).\n");
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if ((int)table[i].layer != layer) {
			layer = (int)table[i].layer;
			buf_addf(out, "\n## %s\n\n", layer_titles[layer]);
			buf_addstr(out, "| code | severity | raised by | what it means | what to do |\n"
					"| --- | --- | --- | --- | --- |\n");
		}
		markdown_row(&table[i], out);
	}
}
