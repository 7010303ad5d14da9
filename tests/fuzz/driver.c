/*
 * driver: a main() for the fuzz targets without libFuzzer. Runs each file
 * named on the command line once through LLVMFuzzerTestOneInput() and prints
 * "ran N inputs"; exits 1 when a file cannot be read. The seed test of
 * `make check` runs every target on its committed seeds and regressions this
 * way, so the targets build and run on a machine without clang.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t n = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "%s: cannot be opened\n", path);
		return -1;
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		fprintf(stderr, "%s: cannot be read\n", path);
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int ran = 0;

	for (int i = 1; i < argc; i++) {
		if (run_file(argv[i]) < 0)
			return 1;
		ran++;
	}
	printf("ran %d inputs\n", ran);
	return 0;
}
