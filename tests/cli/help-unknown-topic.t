# help with a word that is neither a command nor a topic (trial, formats) is a usage error
args: help frobnicate
status: 2
--- stdout
--- stderr
scaleaudit: 'frobnicate' is not a command or a help topic
Try 'scaleaudit help'.
