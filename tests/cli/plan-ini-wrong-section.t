# plan keys outside [plan]: file and line, status 1
args: plan tests/data/plan/wrong-section.ini
status: 1
--- stdout
--- stderr
tests/data/plan/wrong-section.ini:2: [trial] params: plan keys go in a [plan] section
