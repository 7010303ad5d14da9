# the second pattern misses a parenthesis, the third captures nothing scaleaudit reads
it=(?<step>\d+)
it=(?<step>\d+ took
it=\d+
