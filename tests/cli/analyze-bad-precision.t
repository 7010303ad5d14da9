# a precision that names no dtype is a manifest error at its line; the run is still analysed
args: analyze tests/data/cli/bad-precision
status: 3
--- stderr
tests/data/cli/bad-precision/run.ini:3: [run] precision = 'banana': expected one of fp32, tf32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, fp4, int8, fp64 (or an alias of one: bfloat16, torch.float16, bf16-mixed, amp-bf16, 16-mixed)
