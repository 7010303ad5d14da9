# my trainer prints: it=12 took 0.25s nll=3.5 bs=64
# a comment, then a blank line

it=(?<step>\d+) took (?<step_time>[\d.]+)s nll=(?<loss>[\d.]+)
^config: bs=(?<global_batch>\d+) dtype=(?<precision>\w+)
^peak mem (?<reserved_mib>[\d.]+) MiB
