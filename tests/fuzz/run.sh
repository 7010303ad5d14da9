#!/bin/bash
# make fuzz: builds each tests/fuzz/fuzz_*.c with clang's libFuzzer, ASan and
# UBSan, and runs it for FUZZ_SECONDS (default 60) on seeds from
# tests/data and, when present, ../shared/realdata. Crashes land in
# build/fuzz/<target>/.
set -eu
command -v clang > /dev/null || { echo "fuzz: clang is needed (apt-get install clang)"; exit 1; }
secs=${FUZZ_SECONDS:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make --no-print-directory BUILD=build/fuzzlib CC=clang SANITIZE=address,undefined \
	CFLAGS='-O1 -g -fsanitize=fuzzer-no-link' build/fuzzlib/libscaleaudit.a
libs=$(pkg-config --libs cairo pangocairo libpcre2-8 yajl zlib sqlite3 inih libarchive liblz4 libzstd)
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	out=build/fuzz/$name
	mkdir -p "$out/corpus"
	cp tests/data/cli/*.* "$out/corpus/" 2> /dev/null || true
	[ -d ../shared/realdata ] && find ../shared/realdata -type f -size -200k -exec cp {} "$out/corpus/" \;
	clang -O1 -g -I. -fsanitize=fuzzer,address,undefined "$src" build/fuzzlib/libscaleaudit.a \
		$libs -lcsv -ldl -lm -o "$out/$name"
	echo "fuzz: $name for $secs s"
	(cd "$out" && "./$name" -max_total_time="$secs" -max_len=65536 corpus)
done
