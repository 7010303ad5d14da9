/*
 * pyenv: what a Python environment says about its GPU stack. Reads the
 * package lists of a `site-packages` directory (`*.dist-info` and
 * `*.egg-info` names and their METADATA / PKG-INFO `Name:`/`Version:`),
 * `pip freeze` and `pip list` output (text or --format=json), `conda list`
 * output (text or --json) and a saved torch.cuda.get_arch_list(),
 * into one py_env: the packages, and what they tell of the stack (torch and
 * its CUDA or ROCm build, NCCL, cuDNN, the CUDA runtime wheel, the archs
 * torch was built for). No I/O in the parsers; pyenv_read_file and
 * pyenv_walk own the files.
 */
#ifndef INGEST_PYENV_H
#define INGEST_PYENV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "ingest/walk.h"

#define PY_NAME_LEN 128		/* a package name, normalised; longer ones are cut */
#define PY_VER_LEN 64		/* a version or its local part; longer ones are cut */
#define PY_ARCH_LEN 40		/* one get_arch_list() entry ("sm_120", "gfx942:xnack-") */
#define PY_MAX_PACKAGES 8192	/* packages kept; the rest are counted in dropped */
#define PY_MAX_ARCHS 64		/* get_arch_list() entries kept */

struct py_package {
	char name[PY_NAME_LEN];		/* PEP 503 normalised: lowercase, runs of -_. as '-' */
	char version[PY_VER_LEN];	/* public part: "2.7.0"; "" when the input gave none */
	char local[PY_VER_LEN];		/* local part after '+': "cu128", "rocm6.2"; "" none */
	const char *source;		/* static: "dist-info", "egg-info", "pip freeze", "pip list",
					   "conda list" */
};

struct py_env {
	struct py_package *pkg;		/* owned; in input order, one per name (first kept) */
	size_t npkg, cap;
	size_t dropped;			/* packages past PY_MAX_PACKAGES */
	/* derived from the packages as they are added; "" when unknown */
	char torch_version[PY_VER_LEN];	/* "2.7.0" */
	char torch_local[PY_VER_LEN];	/* "cu128", "rocm6.2", "cpu" */
	char torch_cuda[PY_VER_LEN];	/* "12.8" from "+cu128" */
	char torch_rocm[PY_VER_LEN];	/* "6.2" from "+rocm6.2" */
	char nccl_version[PY_VER_LEN];	/* nvidia-nccl-cu12 / -cu13 wheel: "2.26.2" */
	char cudnn_version[PY_VER_LEN];	/* nvidia-cudnn-cu12 / -cu13 wheel: "9.7.1.26" */
	char cuda_runtime[PY_VER_LEN];	/* nvidia-cuda-runtime-cu12 / -cu13 wheel: "12.8.90" */
	/* a saved torch.cuda.get_arch_list(): "sm_90", "compute_120", "gfx942" */
	char arch_list[PY_MAX_ARCHS][PY_ARCH_LEN];
	size_t narch;
};

/* The text inputs pyenv reads. */
enum py_input {
	PY_NONE,		/* not one of them */
	PY_FREEZE,		/* pip freeze: "name==version", "name @ url", "-e ...#egg=name" */
	PY_LIST,		/* pip list: "Package Version" header, dashes, two columns */
	PY_ARCH_LIST,		/* torch.cuda.get_arch_list(): "['sm_50', ..., 'compute_120']" */
	PY_METADATA,		/* a METADATA or PKG-INFO file: "Name:" / "Version:" headers */
	PY_PIP_JSON,		/* pip list --format=json: [{"name": ..., "version": ...}, ...] */
	PY_CONDA,		/* conda list: "# packages in environment at ...", then
				   name, version, build and channel columns */
	PY_CONDA_JSON,		/* conda list --json: objects with name, version, build_string, channel */
};

void py_env_init(struct py_env *e);
void py_env_release(struct py_env *e);	/* frees; e may be initialised again */

/*
 * Adds one package as an input names it (any spelling, version with or
 * without a local part) and updates the derived fields. A name already
 * present keeps its first version. Returns false when name is empty.
 */
bool py_env_add(struct py_env *e, const char *name, size_t nlen, const char *version,
		size_t vlen, const char *source);

/* The package of that name (any spelling), or NULL. */
const struct py_package *py_env_find(const struct py_env *e, const char *name);

/* Which input the start of a file is (its first 4 KiB are plenty), or PY_NONE. */
enum py_input pyenv_sniff(const char *buf, size_t len);

/*
 * A push parser of one input of a known kind: feed it the bytes in chunks
 * of any size, then finish it. Lines longer than 4 KiB are cut. path names
 * the input in diagnostics. The JSON kinds are kept (up to 16 MiB) and
 * parsed at finish; an element without a string name and version is
 * skipped. conda's "pytorch" package is added as "torch", with the CUDA of
 * its build string as the local part ("py3.11_cuda12.4_cudnn9.1.0_0" and
 * "cuda126_mkl_py312_..." give "cu124" and "cu126", a "cpu" build "cpu");
 * conda's nccl, cudnn and cuda-cudart packages give the NCCL, cuDNN and CUDA
 * runtime versions as the nvidia-* wheels do.
 */
struct py_parser;
struct py_parser *py_parser_new(struct py_env *e, enum py_input kind, const char *path);
void py_parser_feed(struct py_parser *p, const char *buf, size_t len);
/* Ends the input and frees p. Returns the number of packages or archs read. */
size_t py_parser_finish(struct py_parser *p);

/* py_parser_new + feed(buf, len) + finish. */
size_t pyenv_parse(struct py_env *e, enum py_input kind, const char *buf, size_t len,
		   const char *path);

/*
 * Reads the file path (its first 16 MiB at most), sniffing its kind. Returns
 * the kind read (e was filled), PY_NONE when it is none of them (e is
 * unchanged, no diagnostic), or -1 after a diagnostic when it cannot be read
 * or a JSON list is not valid JSON ("invalid-json" at its byte; what came
 * before is not used).
 */
int pyenv_read_file(struct py_env *e, const char *path, struct diags *d);

/*
 * The environment scan as a visitor of a walk (ingest/walk.h) that may go
 * further for its own sake: it reads the `*.dist-info` and `*.egg-info`
 * entries of the directories at most PYENV_MAX_DEPTH levels down, and
 * nothing below a directory that holds some (a site-packages). A
 * `*.dist-info` directory's METADATA and an `*.egg-info`'s PKG-INFO give the
 * name and version, else the entry's own name does. They are added at
 * pyenv_scan_finish(), in the order of a walk by name whatever the order of
 * the walk, since the first package of a name is the one kept.
 */
#define PYENV_MAX_DEPTH 6
struct pyenv_found {
	char *path;		/* owned: a *.dist-info or *.egg-info entry */
	bool is_dir;		/* a directory (not a link to one) */
};
struct pyenv_scan {
	struct py_env *e;	/* where the packages go (borrowed) */
	int site_depth;		/* depth of the site-packages being walked; INT_MAX: none */
	struct pyenv_found *found;	/* owned, until pyenv_scan_finish() */
	size_t nfound, cap;
	int added;		/* packages added */
};
void pyenv_scan_init(struct pyenv_scan *s, struct py_env *e);
/*
 * Takes the listing of dir (walk_visitor.listed's arguments). Returns false
 * when nothing below dir is for the scan.
 */
bool pyenv_scan_listed(struct pyenv_scan *s, const struct walk_entry *dir, const struct walk_entry *e,
		       size_t n);
/* Adds the packages found to s's py_env and frees what s holds; returns s->added. */
int pyenv_scan_finish(struct pyenv_scan *s);

/*
 * Walks the directory dir (a virtual environment, a prefix or site-packages
 * itself) with the scan alone, through PYENV_MAX_ENTRIES directory entries at
 * most (ingest/walk.c's count); directories reached through symbolic links
 * are not entered. Returns the number of packages added, or -1 after a
 * diagnostic when dir cannot be listed.
 */
#define PYENV_MAX_ENTRIES 200000
int pyenv_walk(struct py_env *e, const char *dir, struct diags *d);

/* "12.8" from "cu128", "6.2" from "rocm6.2": writes out (size n); false when local is neither. */
bool pyenv_local_cuda(const char *local, char *out, size_t n);
bool pyenv_local_rocm(const char *local, char *out, size_t n);

#endif
