/*
 * sniff: what a file is, decided by its content alone (never its name).
 * The caller hands over the first bytes of the file, already decompressed
 * when it was gzip; sniff does no I/O.
 *
 * Text logs often hold several formats at once (NCCL INFO lines inside a
 * training log): `contains` has a bit for each format seen, and `format` is
 * the one that describes the file best (the table order in sniff.c).
 */
#ifndef INGEST_SNIFF_H
#define INGEST_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum format {
	FMT_UNKNOWN,
	FMT_KINETO,		/* PyTorch profiler / Kineto Chrome trace JSON */
	FMT_MEMORY_TIMELINE,	/* profiler.export_memory_timeline() raw/JSON */
	FMT_NSYS_SQLITE,	/* nsys export --type sqlite */
	FMT_SQLITE,		/* some other SQLite database */
	FMT_NSYS_CSV,		/* nsys stats --format csv */
	FMT_NSYS_STATS,		/* nsys console summary tables */
	FMT_NVSMI_CSV,		/* nvidia-smi --query-gpu --format=csv */
	FMT_ROCM_SMI_CSV,	/* rocm-smi --csv */
	FMT_NCCL_TESTS,		/* all_reduce_perf and siblings */
	FMT_DCGMI_DMON,		/* dcgmi dmon */
	FMT_NVSMI_DMON,		/* nvidia-smi dmon */
	FMT_NVSMI_TABLE,	/* nvidia-smi default table */
	FMT_NVSMI_TOPO,		/* nvidia-smi topo -m */
	FMT_TRIAL_INI,		/* trial.ini manifest */
	FMT_RUN_INI,		/* run.ini manifest */
	FMT_COLLECT_ENV,	/* python -m torch.utils.collect_env */
	FMT_TRAIN_LOG,		/* the job's stdout/stderr */
	FMT_NCCL_LOG,		/* NCCL_DEBUG=INFO output */
	FMT_CUBIN,		/* an ELF file of GPU code */
	FMT_FATBIN,		/* a CUDA fat binary */
	FMT_ELF,		/* a host ELF file: .so, .o, executable */
	FMT_COUNT
};

struct sniff {
	enum format format;	/* best description; FMT_UNKNOWN when nothing matched */
	uint32_t contains;	/* 1 << format for every format seen */
	bool text;		/* the head looks like text */
	const char *why;	/* for FMT_UNKNOWN: a short reason ("binary data", ...) */
};

/*
 * Decides from head[0..len). `complete` says head is the whole file. A head
 * that begins with a UTF-16 byte-order mark is judged as the UTF-8 text it
 * holds, and lines that end in "\r" alone as if they ended in "\n".
 */
void sniff_bytes(const unsigned char *head, size_t len, bool complete, struct sniff *out);

/* Whether p[0..n) is text whose lines end in "\r" alone (no "\n" in it). */
bool sniff_cr_lines(const unsigned char *p, size_t n);

const char *format_name(enum format f);		/* the stable name, "kineto-trace" */
const char *format_what(enum format f);		/* a few words for people */
enum format format_from_name(const char *name);	/* FMT_UNKNOWN if none */

/* How many bytes of a file sniffing wants to see. */
#define SNIFF_HEAD (256 * 1024)

#endif
