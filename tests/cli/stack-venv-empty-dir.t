# a virtual environment with an empty directory (include/, as `python -m venv` leaves it; real
# site-packages hold empty ones too): the walk lists nothing there and goes on to the packages.
args: stack --target sm_120 tests/data/pyenv/venv
status: 0
--- stdout
targets: sm_120

no file with GPU code

environment:
  sm_120 CUDA 12.8: ok (12.8 or newer)
  sm_120 PyTorch 2.7.0: ok (2.7 or newer)
  sm_120 NCCL 2.26.2: ok (2.25.1 or newer)

ready: sm_120 yes
  sm_120 yes: CUDA 12.8, PyTorch 2.7.0, NCCL 2.26.2: each meets its minimum; the driver is not checked: no input gives it
--- stderr
