# an analysis.json, recognised by its content (this one has no .json name), is analysed
# without the logs: the text is that of 'analyze tests/data/trials/log-only'
args: analyze tests/data/cli/log-only-analysis
status: 0
--- stdout
Trial: steps from the training log alone
Hypothesis: step-time
Verdict: CONFIRMED: a step takes 220.0 ms on 2 GPUs against 400.0 ms on 1 GPU: 1.82x faster, 91% scaling efficiency

run           GPUs status      precision global batch   step median p10-p90     throughput    steps   strategy
                                              samples                    ms      samples/s   steady           
1gpu             1 completed   -                   64     400.0 400.0-400.0          160.0     9/10     single
2gpu             2 completed   -                   64     220.0 220.0-220.0          290.9     9/10          -

2gpu against 1gpu: speedup 1.82x, scaling efficiency 91%, throughput ratio 1.82x
Lost against perfect scaling: +40.0 ms per step (no trace says where)

Where the time went, per steady step (ms; waiting = exposed comm spent waiting for a peer):
run           GPU      step   compute  exposed comm   waiting    memory      idle  overlapped
1gpu            0     400.0         -             -         -         -         -           -
2gpu            0     220.0         -             -         -         -         -           -

Memory per GPU:
run           GPU device                           peak from         used capacity
1gpu            0 -                                   - -               - -
2gpu            0 -                                   - -               - -
2gpu            1 -                                   - -               - -


Confounds: none
Recommendations: none
Findings about the inputs: 0 errors, 3 warnings, 0 notes
  warning: run '1gpu', GPU 0: no source gives its peak memory (record nvidia-smi, or profile with profile_memory=True)
  warning: run '2gpu', GPU 0: no source gives its peak memory (record nvidia-smi, or profile with profile_memory=True)
  warning: run '2gpu', GPU 1: no source gives its peak memory (record nvidia-smi, or profile with profile_memory=True)
--- stderr
