# --version prints the name and version
args: --version
status: 0
--- stdout
scaleaudit 0.1.0
--- stderr
