# comment
step (?<step>\d+
