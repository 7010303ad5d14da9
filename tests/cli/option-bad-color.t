# --color takes auto, always or never
args: analyze --color=sometimes tests/data/cli
status: 2
--- stdout
--- stderr
scaleaudit analyze: --color: 'sometimes' is not auto, always or never
Try 'scaleaudit help analyze'.
