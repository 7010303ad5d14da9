/*
 * readiness: whether compiled GPU code and a software stack will run on the
 * GPUs a campaign rents. Owns the targets ("sm_100", "gfx942"), the
 * native / jit / missing verdict of a code_object for a target (the SASS and
 * PTX compatibility rules as data), the fix to suggest, and the table of
 * minimum versions (CUDA, driver, PyTorch, NCCL, cuDNN, ROCm) with the check
 * of an environment's versions against it. Nothing here reads a file.
 */
#ifndef CORE_READINESS_H
#define CORE_READINESS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/codeobj.h"
#include "core/model.h"

enum target_vendor {
	TARGET_CUDA,		/* an NVIDIA compute capability: "sm_100" */
	TARGET_ROCM,		/* an AMDGPU gfx target: "gfx942" */
};

/* One GPU to be ready for, as --target names it. */
struct target {
	char name[CODE_ARCH_LEN];	/* "sm_100", "gfx942", as written (lowercase) */
	enum target_vendor vendor;
	int major, minor;		/* CUDA: 10, 0 for sm_100; ROCm: 0, 0 */
	int sm;				/* CUDA: 100; ROCm: as code_entry.sm (942; -1 for gfx90a) */
};

#define READINESS_MAX_TARGETS 16

struct target_list {
	struct target t[READINESS_MAX_TARGETS];
	size_t n;
};

/*
 * Parses one target: "sm_XY" or "sm_XYZ" (a device: no `a`/`f` suffix, major
 * 1..99, minor one digit) or "gfxN..." (lowercase hex digits). Returns 0, or -1
 * when name is not one.
 */
int target_parse(const char *name, struct target *t);

/*
 * Parses a comma-separated list ("sm_100,sm_120,gfx942"; spaces around names
 * ignored, duplicates kept once). Returns 0, or -1 with a one-line message in
 * err (lowercase, no period: "'sm_10x' is not a GPU target (sm_100, gfx942 ...)",
 * "the target list is empty", "more than 16 targets").
 */
int target_list_parse(const char *list, struct target_list *tl, char *err, size_t errsize);

/* The default targets: the Blackwell data-centre and workstation GPUs, sm_100 and sm_120. */
void target_list_default(struct target_list *tl);

enum code_verdict {
	CODE_MISSING,	/* no code that loads on the target: "no kernel image" */
	CODE_JIT,		/* only PTX the driver must compile at start-up */
	CODE_NATIVE,		/* SASS / a code object the target runs as is */
};

/* "missing", "jit", "native" */
const char *code_verdict_name(enum code_verdict v);

/* The verdict of one code_object for one target, and what decided it. */
struct judgement {
	enum code_verdict verdict;
	const struct code_entry *by;	/* the deciding entry in the object (NULL: missing) */
	const char *min_cuda;		/* jit: the CUDA version whose driver compiles that PTX
					   ISA ("12.8"); NULL otherwise or ISA unknown */
	const char *min_driver;		/* jit: its minimum Linux driver ("570.26"); NULL likewise */
};

/*
 * Judges o for t. CUDA: native when a SASS entry runs on t: the same major
 * and a minor <= t's, and for an `a` entry exactly t's arch, for an `f` entry
 * the same major (a family); LTO-IR never loads. Otherwise jit when a PTX
 * entry's virtual arch <= t (an `a` PTX only for exactly t, an `f` PTX only in
 * t's family); the newest such PTX decides. Otherwise missing. ROCm: native
 * when an AMDGPU entry names exactly t's gfx processor (its features such as
 * ":xnack-" do not matter here), else missing. An entry of the other vendor
 * never counts. When several entries qualify, the first in o decides.
 */
void readiness_judge(const struct code_object *o, const struct target *t, struct judgement *j);

/*
 * The PTX ISA's CUDA and minimum driver: isa is major * 10 + minor (87 for
 * 8.7). Returns false when the ISA is not in the table (*cuda, *driver NULL).
 */
bool readiness_ptx_driver(int isa, const char **cuda, const char **driver);
/*
 * A driver every driver that compiles PTX of ISA isa is at least: the
 * minimum of the newest release at or before it whose minimum is known;
 * NULL when none is. For an ISA whose own minimum is unknown (9.4, 9.5), an
 * older driver is certainly too old, a newer one not certainly new enough.
 */
const char *readiness_ptx_driver_floor(int isa);

/*
 * The oldest Linux driver that can load o's ZSTD-compressed entries
 * ("550.54.14": R550, CUDA 12.4's), with their count in *nzstd; NULL when
 * no entry is ZSTD-compressed (raw and LZ4 entries load on any driver that
 * knows their code).
 */
const char *readiness_zstd_driver(const struct code_object *o, size_t *nzstd);

/*
 * Appends the fix for an item to out; v[i] is the verdict for tl->t[i].
 * CUDA targets: when one is missing (else, when one is only jit: to avoid
 * the start-up compilation), a library of PyTorch, NCCL, cuDNN, cuBLAS ...
 * (told by its file name) gets that package's fix ("install NCCL 2.25.1 or
 * newer ..."), any other file is an extension, named after its file
 * ("flash_attn_2_cuda"), to rebuild with TORCH_CUDA_ARCH_LIST="10.0;12.0"
 * (every CUDA target not native); a file without CUDA code is "a ROCm build".
 * ROCm targets missing, after "; ": a rebuild with PYTORCH_ROCM_ARCH="gfx942",
 * or for a file without AMDGPU code, "a CUDA build". Appends nothing when
 * every target is native.
 */
void readiness_fix(const struct code_object *o, const struct target_list *tl,
		   const enum code_verdict *v, struct buf *out);

/*
 * The architectures an arch list names, as a code_object of kind "arch-list"
 * (path: label): torch.cuda.get_arch_list() ("sm_75 sm_90a compute_120",
 * brackets, quotes and commas ignored) or TORCH_CUDA_ARCH_LIST ("8.0 9.0+PTX",
 * "10.0;12.0", "9.0a"): "X.Y" is sm_XY SASS, "+PTX" adds compute_XY PTX of
 * unknown ISA; gfx names become AMDGPU entries. Unknown words are skipped.
 * Returns the number of entries added.
 */
size_t readiness_arch_list(const char *list, const char *label, struct code_object *o);

/* --- minimum versions --- */

enum stack_component {
	COMP_CUDA,		/* the CUDA toolkit PyTorch was built with ("12.8") */
	COMP_DRIVER,		/* the NVIDIA driver ("570.124.06") */
	COMP_TORCH,		/* PyTorch ("2.7.0") */
	COMP_NCCL,		/* NCCL ("2.26.2") */
	COMP_CUDNN,		/* cuDNN ("9.7.1") */
	COMP_ROCM,		/* ROCm / HIP ("6.2.41133") */
	COMP_ARCHS,		/* PyTorch's arch list: the target must be in it (native or jit) */
	COMP_COUNT
};

/* "CUDA", "driver", "PyTorch", "NCCL", "cuDNN", "ROCm", "arch list" */
const char *stack_component_name(enum stack_component c);

/* One row of the minimum-version table: what a target needs of one component. */
struct min_version {
	const char *target;		/* "sm_100" */
	enum stack_component comp;
	const char *version;		/* "12.8" */
	const char *fix;		/* what to do when the environment has less */
};

/* Every row, and how many; rows of one target are consecutive. */
const struct min_version *readiness_min_versions(size_t *n);

/* The versions an environment shows; NULL where not known. */
struct readiness_env {
	const char *torch;		/* "2.7.0" or "2.7.0+cu128" */
	const char *torch_cuda;		/* CUDA PyTorch was built with: "12.8" */
	const char *driver;		/* "570.124.06" */
	const char *nccl;		/* "2.26.2" (or "2.26.2+cuda12.8") */
	const char *cudnn;		/* "9.7.1" */
	const char *rocm;		/* "6.2.41133-dd7f95766" */
	const char *torch_rocm;		/* ROCm PyTorch was built with ("ROCM used to build
					   PyTorch", "+rocm6.2"): a ROCm build; NULL otherwise */
	bool torch_cpu;			/* PyTorch is a CPU build ("2.7.0+cpu") */
	const char *arch_list;		/* get_arch_list() or TORCH_CUDA_ARCH_LIST, see readiness_arch_list */
};

/*
 * The versions an environment report (run->env) shows: torch from its
 * version or the "torch" library line, NCCL from run->nccl_version or an
 * nvidia-nccl-cu* / nccl library line, ROCm from rocm_version, hip_runtime
 * or rocm_build, the arch list from arch_list, cuda_archs or the list the
 * first "not compatible with the current PyTorch installation" warning
 * gives ("sm_50 sm_60 ... sm_90"); PyTorch's ROCm build from rocm_build, a
 * CPU build from the "+cpu" of torch's full version. Pointers borrow from r.
 */
void readiness_env_from_run(const struct run *r, struct readiness_env *e);

/* The outcome of one row of the table against an environment. */
struct readiness_check {
	const struct min_version *row;	/* the requirement */
	const char *have;		/* the environment's value (borrowed) */
	bool ok;
	const struct target *target;	/* the target checked (in the tl given; row->target
					   is NULL for the rows every target shares) */
	char via[CODE_ARCH_LEN];	/* COMP_ARCHS covered only through PTX: that PTX
					   ("compute_90"); "" otherwise */
};

/*
 * Checks e against the table for every target of tl, in tl's order and then
 * enum stack_component's: a component e does not show is not checked; a
 * version must be at least the row's (version_cmp); for COMP_ARCHS the
 * target must judge native or jit against e->arch_list (jit: `via` names
 * the PTX). A target without
 * rows of its own is checked against its arch list only. Writes up to max
 * checks and returns how many there were (may exceed max).
 */
size_t readiness_check_env(const struct readiness_env *e, const struct target_list *tl,
			   struct readiness_check *out, size_t max);

/*
 * Compares dotted version numbers numerically ("12.10" > "12.9"); reading
 * stops at the first character that is neither digit nor dot ("2.7.0+cu128"
 * is 2.7.0); missing parts are 0. Returns <0, 0, >0.
 */
int version_cmp(const char *a, const char *b);

#endif
