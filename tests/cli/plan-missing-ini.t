# an INI that cannot be opened: status 1 with the reason
args: plan /nonexistent/plan.ini
status: 1
--- stdout
--- stderr
scaleaudit: /nonexistent/plan.ini: No such file or directory
