#include "ingest/sniff.h"

#include <string.h>

#include "core/buf.h"
#include "core/pattern.h"
#include "core/utf8.h"

static const struct {
	const char *name;
	const char *what;
} formats[FMT_COUNT] = {
	[FMT_UNKNOWN] = { "unknown", "not a format scaleaudit reads" },
	[FMT_KINETO] = { "kineto-trace", "PyTorch profiler (Kineto) trace" },
	[FMT_MEMORY_TIMELINE] = { "memory-timeline", "PyTorch memory timeline export" },
	[FMT_NSYS_SQLITE] = { "nsys-sqlite", "Nsight Systems SQLite export" },
	[FMT_SQLITE] = { "sqlite", "SQLite database without Nsight Systems tables" },
	[FMT_NSYS_CSV] = { "nsys-csv", "Nsight Systems stats report (CSV)" },
	[FMT_NSYS_STATS] = { "nsys-stats", "Nsight Systems stats tables (console)" },
	[FMT_NVSMI_CSV] = { "nvidia-smi-csv", "nvidia-smi --query-gpu CSV" },
	[FMT_ROCM_SMI_CSV] = { "rocm-smi-csv", "rocm-smi CSV" },
	[FMT_NCCL_TESTS] = { "nccl-tests", "nccl-tests results" },
	[FMT_DCGMI_DMON] = { "dcgmi-dmon", "dcgmi dmon samples" },
	[FMT_NVSMI_DMON] = { "nvidia-smi-dmon", "nvidia-smi dmon samples" },
	[FMT_NVSMI_TABLE] = { "nvidia-smi-table", "nvidia-smi status table" },
	[FMT_NVSMI_TOPO] = { "nvidia-smi-topo", "nvidia-smi topo -m matrix" },
	[FMT_TRIAL_INI] = { "trial-ini", "trial manifest" },
	[FMT_RUN_INI] = { "run-ini", "run manifest" },
	[FMT_COLLECT_ENV] = { "collect-env", "PyTorch environment report" },
	[FMT_TRAIN_LOG] = { "train-log", "training job output" },
	[FMT_NCCL_LOG] = { "nccl-log", "NCCL debug output" },
	[FMT_CUBIN] = { "cubin", "GPU code (cubin ELF)" },
	[FMT_FATBIN] = { "fatbin", "CUDA fat binary" },
	[FMT_ELF] = { "elf", "ELF object, library or executable" },
};

const char *format_name(enum format f)
{
	return (unsigned)f < FMT_COUNT ? formats[f].name : "unknown";
}

const char *format_what(enum format f)
{
	return (unsigned)f < FMT_COUNT ? formats[f].what : formats[0].what;
}

enum format format_from_name(const char *name)
{
	for (int i = 0; i < FMT_COUNT; i++)
		if (!strcmp(formats[i].name, name))
			return (enum format)i;
	return FMT_UNKNOWN;
}

/*
 * Text signatures, in order of preference: the first format that matches
 * names the file (but see members[] below); every match sets its bit in
 * `contains`. Patterns are multi-line (^ and $ at line ends) and see the
 * head of the file only.
 */
static const struct signature {
	const char *re;		/* first: the pattern table reads it */
	enum format format;
} signatures[] = {
	{ "^\\s*\\[trial\\]\\s*$", FMT_TRIAL_INI },
	{ "^\\s*\\[run\\]\\s*$", FMT_RUN_INI },
	{ "^\"?Time ?\\(%\\)\"?,\"?Total Time", FMT_NSYS_CSV },
	{ "^\"?Start(?: \\(ns\\))?\"?,\"?Duration(?: \\(ns\\))?\"?,", FMT_NSYS_CSV },
	{ "^(?=[^\\n]*\\b(?:memory|utilization|power)\\.)(?:timestamp|index|name|gpu_name|pci\\.bus_id|uuid|"
			 "memory\\.\\w+|utilization\\.\\w+)(?: \\[[^\\]\\n]*\\])?"
			 "(?:, ?[\\w.]+(?: \\[[^\\]\\n]*\\])?)+\\s*$", FMT_NVSMI_CSV },
	{ "^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d+, [^\\n]*\\d (?:MiB|%|W)(?:,|$)", FMT_NVSMI_CSV },
	{ "^device,.*(?:VRAM|GPU use|Temperature)", FMT_ROCM_SMI_CSV },
	{ "^#?\\s*nThread \\d+ nGpus \\d+", FMT_NCCL_TESTS },
	{ "^#?\\s+size\\s+count\\s+type\\s+(?:redop|op)\\b", FMT_NCCL_TESTS },
	{ "^#?\\s*bytes\\s+N\\s+type\\s+op\\b", FMT_NCCL_TESTS },
	{ "^#?\\s*Avg bus bandwidth\\s*:", FMT_NCCL_TESTS },
	{ "^#?\\s*NCCL Tests compiled with NCCL", FMT_NCCL_TESTS },
	{ "^# nccl-tests version", FMT_NCCL_TESTS },
	/* a result row without its header: 13 columns, size count type redop root ... */
	{ "^\\s*\\d+\\s+\\d+\\s+[a-z_0-9]+\\s+(?:sum|prod|max|min|avg|none|mulsum)\\s+-?\\d+"
			  "(?:\\s+(?:[\\d.]+|N/A)){3}\\s+(?:\\d+|N/A|[\\d.]+e[+-]\\d+)\\s", FMT_NCCL_TESTS },
	{ "^\\s*Time \\(%\\)\\s+Total Time \\(ns\\)\\s", FMT_NSYS_STATS },
	{ "^\\s*Start \\(ns\\)\\s+Duration \\(ns\\)\\s", FMT_NSYS_STATS },
	{ "Executing '\\w+' stats report", FMT_NSYS_STATS },
	/* a cuda_gpu_kern_sum row without its header: 8 numbers, then the name */
	{ "^\\s*\\d+\\.\\d\\s+[\\d,]+\\s+[\\d,]+(?:\\s+[\\d,]+(?:\\.\\d+)?){5}\\s+\\S", FMT_NSYS_STATS },
	{ "^\\s*PyTorch version\\s*: ", FMT_COLLECT_ENV },
	{ "^\\s*CUDA used to build PyTorch\\s*: ", FMT_COLLECT_ENV },
	{ "^\\s*Is CUDA available\\s*: ", FMT_COLLECT_ENV },
	{ "^Versions of relevant libraries:", FMT_COLLECT_ENV },
	{ "^\\[(?:pip3?|conda)\\] (?:torch|numpy|triton|nvidia-[\\w-]+)[=\\s]", FMT_COLLECT_ENV },
	{ "^\\s*(?:System|PyTorch|Python Environment|CUDA / GPU|vLLM) Info\\s*$", FMT_COLLECT_ENV },
	{ "^#\\s*Entity\\s+[A-Z]", FMT_DCGMI_DMON },
	{ "^#\\s*(?:Date\\s+)?(?:Time\\s+)?gpu\\s+(?:pwr|sm|fb|mem|temp|gtemp)\\b", FMT_NVSMI_DMON },
	{ "NVIDIA-SMI \\d+\\.\\d+", FMT_NVSMI_TABLE },
	{ "^\\s*GPU0(?:\\s+(?:GPU|NIC|mlx)\\w*)*\\s+CPU Affinity", FMT_NVSMI_TOPO },
	{ "\\*{5} Running training \\*{5}", FMT_TRAIN_LOG },
	{ "\\{'(?:loss|train_runtime|eval_loss)': ", FMT_TRAIN_LOG },
	{ "Total train batch size", FMT_TRAIN_LOG },
	{ "\\biteration\\s+\\d+/\\s*\\d+ \\|", FMT_TRAIN_LOG },
	{ "elapsed time per iteration \\(ms\\)", FMT_TRAIN_LOG },
	{ "\\b(?:bfloat16_enabled|fp16_enabled|train_micro_batch_size_per_gpu|"
			 "gradient_accumulation_steps)\\b", FMT_TRAIN_LOG },
	{ "\\bstep:\\s*\\d+\\s+(?:\\x1b\\[[0-9;]*m)*\\s*loss:", FMT_TRAIN_LOG },
	{ "\\bGPU available: (?:True|False)", FMT_TRAIN_LOG },
	{ "Initializing distributed: GLOBAL_RANK", FMT_TRAIN_LOG },
	{ "CUDA out of memory|OutOfMemoryError", FMT_TRAIN_LOG },
	{ "with CUDA capability sm_\\d+ is not compatible", FMT_TRAIN_LOG },
	{ "no kernel image is available for execution", FMT_TRAIN_LOG },
	{ "(?i)^\\W*(?:global[ _])?step\\s*[:=#]?\\s*\\d+\\b[^\\n]*\\b(?:step[ _]?time|loss)\\b", FMT_TRAIN_LOG },
	{ "\\bNCCL (?:INFO|WARN)\\b", FMT_NCCL_LOG },
	{ "^\\s*NCCL version \\d+\\.\\d+\\.\\d+", FMT_NCCL_LOG },
	{ "ProcessGroupNCCL|DistBackendError: NCCL error|Watchdog caught collective", FMT_NCCL_LOG },
};

#define NSIG (sizeof(signatures) / sizeof(signatures[0]))

static pcre2_code *compiled[NSIG];
static struct pattern_table table = PATTERN_TABLE(signatures, compiled, PCRE2_MULTILINE);

/*
 * Text: at most 1% NUL bytes and other control characters (tab, CR, LF,
 * ESC, FF, VT and BS are fine): a log with a burst of binary noise near its
 * start is still a log. Binary formats are far above that. A short file
 * may hold two (one in 8 bytes at most): one stray byte in a 60-byte
 * trial.ini leaves it a manifest, whose reader names the byte.
 */
static bool looks_text(const unsigned char *p, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 && (!p[i] || !strchr("\t\r\n\x1b\f\v\b", p[i])))
			bad++;
	return bad * 100 <= n || (bad <= 2 && bad * 8 <= n);
}

/*
 * A log a crashed node left ends in NUL bytes (blocks allocated but never
 * written): such a file is judged on its text before them. The text must be
 * long enough to judge (UTF-16 without a byte-order mark has a NUL in its
 * second byte) and look like text alone.
 */
#define TEXT_BEFORE_NUL 64

static bool text_before_nul(const unsigned char *p, size_t n)
{
	const unsigned char *z = memchr(p, 0, n);

	return z && z - p >= TEXT_BEFORE_NUL && looks_text(p, (size_t)(z - p));
}

static const unsigned char *skip_space(const unsigned char *p, const unsigned char *end)
{
	if (end - p >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		p += 3;		/* UTF-8 byte order mark */
	while (p < end && strchr(" \t\r\n", *p))
		p++;
	return p;
}

static bool contains(const unsigned char *p, size_t n, const char *needle)
{
	return memmem(p, n, needle, strlen(needle)) != NULL;
}

/* JSON: a Chrome trace object or array, or a memory timeline (nested arrays). */
static enum format sniff_json(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	const unsigned char *q = skip_space(p, end);

	if (q == end)
		return FMT_UNKNOWN;
	if (*q == '{') {
		if (contains(q, (size_t)(end - q), "\"traceEvents\"") ||
		    contains(q, (size_t)(end - q), "\"schemaVersion\"") ||
		    contains(q, (size_t)(end - q), "\"deviceProperties\"") ||
		    contains(q, (size_t)(end - q), "\"distributedInfo\""))
			return FMT_KINETO;
		return FMT_UNKNOWN;
	}
	if (*q != '[')
		return FMT_UNKNOWN;
	q = skip_space(q + 1, end);
	if (q < end && *q == '[') {
		q = skip_space(q + 1, end);
		if (q < end && (*q == '-' || (*q >= '0' && *q <= '9') || *q == ']'))
			return FMT_MEMORY_TIMELINE;
	}
	if (q < end && *q == '{' && contains(q, (size_t)(end - q), "\"ph\""))
		return FMT_KINETO;
	return FMT_UNKNOWN;
}

static void sniff_binary(const unsigned char *p, size_t n, struct sniff *out)
{
	static const unsigned char elf[] = { 0x7f, 'E', 'L', 'F' };
	static const unsigned char fatbin[] = { 0x50, 0xed, 0x55, 0xba };
	static const char sqlite[] = "SQLite format 3";

	out->why = "binary data of no known format";
	if (n >= 20 && !memcmp(p, elf, 4)) {
		/* e_machine at offset 18, little-endian: 190 is EM_CUDA */
		unsigned machine = p[18] | (unsigned)p[19] << 8;

		out->format = machine == 190 ? FMT_CUBIN : FMT_ELF;
	} else if (n >= 4 && !memcmp(p, fatbin, 4)) {
		out->format = FMT_FATBIN;
	} else if (n >= 16 && !memcmp(p, sqlite, 16)) {
		bool nsys = contains(p, n, "CUPTI_ACTIVITY_KIND_") ||
			    contains(p, n, "TARGET_INFO_GPU") || contains(p, n, "StringIds");

		out->format = nsys ? FMT_NSYS_SQLITE : FMT_SQLITE;
		if (!nsys)
			out->why = "SQLite database without Nsight Systems tables";
	}
	if (out->format != FMT_UNKNOWN)
		out->contains = 1u << out->format;
}

/*
 * Formats that share files (nccl-tests prints NCCL's own lines between its
 * header and table): what makes a line one of theirs. Among these the
 * format of most lines names the file, never a few header lines.
 */
static const struct member {
	const char *re;		/* first: the pattern table reads it */
	enum format format;
} members[] = {
	{ "^\\s*#|^\\s*\\d+\\s+\\d+\\s+\\w+\\s+\\w+\\s", FMT_NCCL_TESTS },
	{ "\\bNCCL (?:INFO|WARN|TRACE)\\b|^\\s*NCCL version \\d", FMT_NCCL_LOG },
};

#define NMEMBER (sizeof(members) / sizeof(members[0]))

static pcre2_code *member_code[NMEMBER];
static struct pattern_table member_table = PATTERN_TABLE(members, member_code, 0);

static const struct member *member_of(enum format f)
{
	for (size_t i = 0; i < NMEMBER; i++)
		if (members[i].format == f)
			return &members[i];
	return NULL;
}

/* Lines of head[0..len) that pattern i of the member table matches. */
static size_t count_lines(const char *p, const char *end, size_t i)
{
	size_t n = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (!e)
			e = end;
		n += pattern_find(&member_table, i, p, (size_t)(e - p));
		p = e + 1;
	}
	return n;
}

/*
 * When the preferred format is one of the members: the member format the
 * head contains with the most lines; a tie keeps the preferred one.
 */
static enum format majority(const unsigned char *head, size_t len, uint32_t contains, enum format preferred)
{
	enum format best = preferred;
	size_t most = 0;

	if (!member_of(preferred) || !pattern_compile(&member_table))
		return preferred;
	most = count_lines((const char *)head, (const char *)head + len,
			   (size_t)(member_of(preferred) - members));
	for (size_t i = 0; i < NMEMBER; i++) {
		size_t n;

		if (members[i].format == preferred || !(contains & (1u << members[i].format)))
			continue;
		n = count_lines((const char *)head, (const char *)head + len, i);
		if (n > most) {
			most = n;
			best = members[i].format;
		}
	}
	return best;
}

bool sniff_cr_lines(const unsigned char *p, size_t n)
{
	return n && !memchr(p, '\n', n) && memchr(p, '\r', n);
}

/* A head as the reader layer hands it on: UTF-16 as UTF-8, lines ended by "\r" alone by "\n". */
static bool sniff_as_text(const unsigned char *p, size_t n, struct buf *b)
{
	bool le = n >= 2 && p[0] == 0xff && p[1] == 0xfe, be = n >= 2 && p[0] == 0xfe && p[1] == 0xff;

	if (le || be) {
		buf_init(b, 0);
		for (size_t i = 2; i + 1 < n; i += 2) {
			unsigned u = le ? p[i] | (unsigned)p[i + 1] << 8 : (unsigned)p[i] << 8 | p[i + 1];

			utf8_put(b, u >= 0xd800 && u <= 0xdfff ? 0xfffd : u);	/* pairs do not matter here */
		}
	} else if (sniff_cr_lines(p, n)) {
		buf_init(b, 0);
		buf_add(b, p, n);
	} else {
		return false;
	}
	for (size_t i = 0; i < b->len; i++)
		if (b->data[i] == '\r')
			b->data[i] = '\n';
	return true;
}

void sniff_bytes(const unsigned char *head, size_t len, bool complete, struct sniff *out)
{
	enum format json;
	struct buf as_text;

	if (sniff_as_text(head, len, &as_text)) {
		sniff_bytes((const unsigned char *)as_text.data, as_text.len, complete, out);
		buf_release(&as_text);
		return;
	}
	memset(out, 0, sizeof(*out));
	if (!len) {
		out->why = "empty file";
		return;
	}
	if (!looks_text(head, len) && !text_before_nul(head, len)) {
		sniff_binary(head, len, out);
		return;
	}
	out->text = true;
	json = sniff_json(head, len);
	if (json != FMT_UNKNOWN) {
		out->format = json;
		out->contains = 1u << json;
		return;
	}
	if (!pattern_compile(&table)) {
		out->why = "internal error: a built-in pattern does not compile";
		return;
	}
	for (size_t i = 0; i < NSIG; i++) {
		enum format f = signatures[i].format;

		if (out->contains & (1u << f))
			continue;
		if (!pattern_find(&table, i, (const char *)head, len))
			continue;
		out->contains |= 1u << f;
		if (out->format == FMT_UNKNOWN)
			out->format = f;
	}
	if (out->contains & (out->contains - 1))
		out->format = majority(head, len, out->contains, out->format);
	if (out->format == FMT_UNKNOWN)
		out->why = complete ? "text of no known format" :
				      "text of no known format in its first 256 KiB";
}
