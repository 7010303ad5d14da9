# --kernels prints, per run, its top kernels by total time with their per-call statistics, and
# the launch line, in place of the summary; on a capture without any ProfilerStep the whole
# profiled span is taken. The trace (tests/data/kineto/make-traces.py) has two GEMM calls of 2.0
# and 3.0 ms (p50 2.5, p90 2.0 + 0.9 x 1.0 = 2.9 ms), one memset, one memcpy and one add; three
# kernels whose launch delays are p50 4.2, p90 5.2, max 5.5 ms, from ops of 0.06 ms CPU time in all
args: analyze --kernels tests/data/cli/b200-no-steps
status: 0
--- stdout
b200, GPU 0, whole profiled span (no steady step):
  calls  total ms   mean us    min us    p50 us    p90 us    max us  kernel
      2       5.0    2500.0    2000.0    2500.0    2900.0    3000.0  GEMM bf16 (cuBLAS): sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cublas
      1       1.0    1000.0    1000.0    1000.0    1000.0    1000.0  Memset (Device)
      1     0.500     500.0     500.0     500.0     500.0     500.0  Memcpy HtoD (Pageable -> Device)
      1     0.400     400.0     400.0     400.0     400.0     400.0  aten::mm: void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16> >

Kernel launches, slowest GPU (delay: kernel start less the end of its launch call):
  b200: launch delay p50 4.2 ms, p90 5.2 ms, max 5.5 ms; CPU ops 0.0600 ms against their kernels' 5.4 ms over the span: gpu-bound; launch calls 0.0300 ms over the span; 0% of 3 kernels shorter than their launch call

--- stderr
