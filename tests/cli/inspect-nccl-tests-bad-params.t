# nccl-tests' "nThread N nGpus M" lines with no plausible GPU count (65536 x 65536, and an
# nGpus past 32 bits): a warning names each line and the GPU count is unknown, never 0 or 2.
args: inspect tests/data/nccl_tests/bad-params.log
status: 0
--- stdout
tests/data/nccl_tests/bad-params.log: nccl-tests (nccl-tests results)
  nccl_tests: {ops: [], rows: 4, avg_busbw_gbps: -, max_busbw_gbps: 80.01, gpus: 0, devices: [], nccl_version: 2.20.5, nccl_tests_version: 2.13.8, nccl_tests_commit: -, nccl_headers: 2.20.5, results: [{op: -, gpus: -, nthread: 65536, ngpus: 65536, dtype: fp32, rows: 2, avg_busbw_gbps: 65.005, max_busbw_gbps: 80.01, max_bytes: 2097152}, {op: -, gpus: -, nthread: 1, ngpus: 4294967298, dtype: fp32, rows: 2, avg_busbw_gbps: 65.005, max_busbw_gbps: 80.01, max_bytes: 2097152}]}
  train: {framework: plain, global_batch: -, micro_batch: -, grad_accum: -, steps: 0, status: -, precision: -, step_time_s_median: -, oom: -, train_runtime_s: -, samples_per_s: -, tokens_per_s: -, throughput_source: -, peak_memory_bytes: -, tflops: -, mfu: -}
  tests/data/nccl_tests/bad-params.log:2: warning: "nThread 65536 nGpus 65536" does not give a GPU count of 1 to 65536: the test's GPU count is taken as unknown
  tests/data/nccl_tests/bad-params.log:11: warning: "nThread 1 nGpus 4294967298" does not give a GPU count of 1 to 65536: the test's GPU count is taken as unknown
--- stderr
