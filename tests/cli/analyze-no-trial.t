args: analyze
status: 2
--- stdout
--- stderr
scaleaudit analyze: no TRIAL given
Try 'scaleaudit help analyze'.
