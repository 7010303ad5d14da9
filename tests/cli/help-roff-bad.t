# help --roff (for make man) names what it takes when the words name nothing
args: help --roff keys nosuchsection
status: 2
--- stdout
--- stderr
scaleaudit: 'nosuchsection' is not a manifest section
Try 'scaleaudit help'.
