/* Content sniffing: one minimal sample per format, and what is not a format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ingest/sniff.h"

static enum format sniff_str(const char *s, uint32_t *contains)
{
	struct sniff sn;

	sniff_bytes((const unsigned char *)s, strlen(s), true, &sn);
	if (contains)
		*contains = sn.contains;
	return sn.format;
}

static const struct {
	const char *text;
	enum format want;
} samples[] = {
	{ "{\"schemaVersion\": 1, \"traceEvents\": []}", FMT_KINETO },
	{ "\xef\xbb\xbf  {\n \"deviceProperties\": [", FMT_KINETO },
	{ "[{\"ph\": \"X\", \"name\": \"k\"}]", FMT_KINETO },
	{ "[[1712195495505583, 0, 4096, 1], [", FMT_MEMORY_TIMELINE },
	{ "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n",
	  FMT_NSYS_CSV },
	{ "index, name, memory.used [MiB], memory.total [MiB]\n0, NVIDIA H200, 1 MiB, 143771 MiB\n",
	  FMT_NVSMI_CSV },
	{ "2025/03/01 10:00:00.123, NVIDIA B200, 100 MiB\n", FMT_NVSMI_CSV },
	{ "# nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor)\n", FMT_NCCL_TESTS },
	{ "# Avg bus bandwidth    : 2.05774\n", FMT_NCCL_TESTS },
	{ "        1024           256     float     sum      -1    7.09    0.14    0.14      0\n",
	  FMT_NCCL_TESTS },
	{ " Time (%)  Total Time (ns)  Instances  Avg (ns)\n", FMT_NSYS_STATS },
	{ "#Entity    GRACT        SMACT\nID\n", FMT_DCGMI_DMON },
	{ "# gpu    pwr  gtemp  mtemp     sm\n# Idx      W      C      C      %\n", FMT_NVSMI_DMON },
	{ "| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07\n", FMT_NVSMI_TABLE },
	{ "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n", FMT_NVSMI_TOPO },
	{ "[trial]\ntitle = x\n", FMT_TRIAL_INI },
	{ "; comment\n[run]\ngpus = 2\n", FMT_RUN_INI },
	{ "PyTorch version: 2.5.1+cu124\nIs debug build: False\n", FMT_COLLECT_ENV },
	{ "***** Running training *****\n  Num examples = 1,000\n", FMT_TRAIN_LOG },
	{ "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", FMT_TRAIN_LOG },
	{ "step: 10  \x1b[32mloss:  7.9\n", FMT_TRAIN_LOG },
	{ "host:12:12 [0] NCCL INFO Channel 00/02 :    0   1\n", FMT_NCCL_LOG },
	{ "NCCL version 2.19.3+cuda12.3\n", FMT_NCCL_LOG },
};

static void every_format_has_a_signature(void **state)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		enum format got = sniff_str(samples[i].text, NULL);

		if (got != samples[i].want)
			fail_msg("sample %zu: got %s, want %s", i, format_name(got),
				 format_name(samples[i].want));
	}
}

static void logs_mix_formats(void **state)
{
	uint32_t contains;
	enum format f = sniff_str("[rank0]: host:1:1 [0] NCCL INFO Using network Socket\n"
				  "{'loss': 2.31, 'grad_norm': 1.0, 'epoch': 0.1}\n", &contains);

	assert_int_equal(f, FMT_TRAIN_LOG);
	assert_true(contains & (1u << FMT_NCCL_LOG));
	assert_true(contains & (1u << FMT_TRAIN_LOG));
}

/*
 * NCCL's own lines and nccl-tests' share files: the format of most lines
 * names the file, whatever comes first; three header lines inside an NCCL
 * debug log do not make it nccl-tests, and a table with NCCL INFO lines
 * between its rows stays nccl-tests.
 */
static void majority_of_lines(void **state)
{
	static const char debug_log[] =
		"# nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20\n"
		"h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"#\n"
		"h:1:1 [0] NCCL INFO cudaDriverVersion 12080\n"
		"# Using devices\n"
		"h:1:1 [0] NCCL INFO NCCL version 2.25.1+cuda12.8\n"
		"h:1:1 [0] NCCL INFO 32 coll channels, 32 collnet channels, 32 nvls channels, 32 p2p channels\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n";
	static const char tests_log[] =
		"# nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20\n"
		"#\n"
		"h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
		"        1024           256     float     sum      -1    7.09    0.14    0.14      0\n"
		"        2048           512     float     sum      -1    7.19    0.28    0.28      0\n";
	uint32_t contains;

	assert_int_equal(sniff_str(debug_log, &contains), FMT_NCCL_LOG);
	assert_true(contains & (1u << FMT_NCCL_TESTS));
	assert_int_equal(sniff_str(tests_log, &contains), FMT_NCCL_TESTS);
	assert_true(contains & (1u << FMT_NCCL_LOG));
	/* one line each: the tie keeps the order of preference */
	assert_int_equal(sniff_str("# nThread 1 nGpus 2 minBytes 8\nh:1:1 [0] NCCL INFO x\n", NULL),
			 FMT_NCCL_TESTS);
	/* a training log keeps its name however many NCCL lines it holds */
	assert_int_equal(sniff_str("{'loss': 2.31, 'epoch': 0.1}\nh:1:1 [0] NCCL INFO a\n"
				   "h:1:1 [0] NCCL INFO b\n", NULL), FMT_TRAIN_LOG);
}

static void binary_magic(void **state)
{
	unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	unsigned char fat[16] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 0x10, 0 };
	unsigned char db[4096] = "SQLite format 3";
	struct sniff sn;

	elf[18] = 62;		/* EM_X86_64 */
	sniff_bytes(elf, sizeof(elf), true, &sn);
	assert_int_equal(sn.format, FMT_ELF);
	elf[18] = 190;		/* EM_CUDA */
	sniff_bytes(elf, sizeof(elf), true, &sn);
	assert_int_equal(sn.format, FMT_CUBIN);
	sniff_bytes(fat, sizeof(fat), true, &sn);
	assert_int_equal(sn.format, FMT_FATBIN);
	sniff_bytes(db, sizeof(db), true, &sn);
	assert_int_equal(sn.format, FMT_SQLITE);
	memcpy(db + 1000, "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL", 39);
	sniff_bytes(db, sizeof(db), true, &sn);
	assert_int_equal(sn.format, FMT_NSYS_SQLITE);
}

static void nothing_known(void **state)
{
	struct sniff sn;
	const unsigned char noise[] = { 0, 1, 2, 0xff, 0xfe, 0 };

	sniff_bytes(noise, sizeof(noise), true, &sn);
	assert_int_equal(sn.format, FMT_UNKNOWN);
	assert_string_equal(sn.why, "binary data of no known format");
	sniff_bytes((const unsigned char *)"milk\neggs\n", 10, true, &sn);
	assert_int_equal(sn.format, FMT_UNKNOWN);
	assert_string_equal(sn.why, "text of no known format");
	sniff_bytes((const unsigned char *)"", 0, true, &sn);
	assert_string_equal(sn.why, "empty file");
	assert_int_equal(sniff_str("{\"a\": 1}", NULL), FMT_UNKNOWN);
}

/* One stray control byte in a short manifest leaves it a manifest; three make it binary. */
static void a_stray_byte_in_a_short_manifest(void **state)
{
	static const char ini[] = "[trial]\ntitle = a\x01b\nbaseline = 1gpu\n";
	static const char three[] = "[trial]\n\x01\x02\x03\n";
	struct sniff sn;

	(void)state;
	sniff_bytes((const unsigned char *)ini, sizeof(ini) - 1, true, &sn);
	assert_int_equal(sn.format, FMT_TRIAL_INI);
	sniff_bytes((const unsigned char *)three, sizeof(three) - 1, true, &sn);
	assert_int_equal(sn.format, FMT_UNKNOWN);
	assert_string_equal(sn.why, "binary data of no known format");
}

static void noise_inside_a_log(void **state)
{
	static const char line[] = "host:1:1 [0] NCCL INFO Channel 00/02 :    0   1 via P2P/IPC\n";
	char log[4096];
	size_t n = 0;
	struct sniff sn;

	while (n + sizeof(line) - 1 <= sizeof(log)) {
		memcpy(log + n, line, sizeof(line) - 1);
		n += sizeof(line) - 1;
	}
	memcpy(log + 600, "\0\0\x01\x02\0\xff\0\0", 8);	/* 7 control bytes in 4 KiB */
	sniff_bytes((const unsigned char *)log, n, true, &sn);
	assert_int_equal(sn.format, FMT_NCCL_LOG);
	memset(log + 100, 0, 200);	/* 5% NUL after text: judged on the text before them */
	sniff_bytes((const unsigned char *)log, n, true, &sn);
	assert_int_equal(sn.format, FMT_NCCL_LOG);
	memset(log + 10, 0, 200);	/* too little text before them: not text */
	sniff_bytes((const unsigned char *)log, n, true, &sn);
	assert_int_equal(sn.format, FMT_UNKNOWN);
	assert_string_equal(sn.why, "binary data of no known format");
}

static void names_round_trip(void **state)
{
	for (int f = 0; f < FMT_COUNT; f++) {
		assert_int_equal(format_from_name(format_name((enum format)f)), f);
		assert_non_null(format_what((enum format)f));
	}
	assert_string_equal(format_name(FMT_KINETO), "kineto-trace");
	assert_string_equal(format_name(FMT_NSYS_SQLITE), "nsys-sqlite");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_format_has_a_signature),
		cmocka_unit_test(logs_mix_formats),
		cmocka_unit_test(majority_of_lines),
		cmocka_unit_test(binary_magic),
		cmocka_unit_test(a_stray_byte_in_a_short_manifest),
		cmocka_unit_test(nothing_known),
		cmocka_unit_test(noise_inside_a_log),
		cmocka_unit_test(names_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
