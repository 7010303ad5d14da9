#include "core/readiness.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- targets --- */

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool all_hex_lower(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && !(*s >= 'a' && *s <= 'f'))
			return false;
	return true;
}

static int parse_sm(const char *name, struct target *t)
{
	const char *d = name + 3;
	long sm;

	if (!all_digits(d) || strlen(d) < 2 || strlen(d) > 3 || *d == '0')
		return -1;
	sm = strtol(d, NULL, 10);
	*t = (struct target){ .vendor = TARGET_CUDA, .major = (int)(sm / 10),
			      .minor = (int)(sm % 10), .sm = (int)sm };
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

static int parse_gfx(const char *name, struct target *t)
{
	const char *d = name + 3;

	if (!all_hex_lower(d) || strlen(d) < 3 || strlen(d) > 5)
		return -1;
	*t = (struct target){ .vendor = TARGET_ROCM,
			      .sm = all_digits(d) ? (int)strtol(d, NULL, 10) : -1 };
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

int target_parse(const char *name, struct target *t)
{
	if (!strncmp(name, "sm_", 3))
		return parse_sm(name, t);
	if (!strncmp(name, "gfx", 3))
		return parse_gfx(name, t);
	return -1;
}

static bool target_listed(const struct target_list *tl, const char *name)
{
	for (size_t i = 0; i < tl->n; i++)
		if (!strcmp(tl->t[i].name, name))
			return true;
	return false;
}

/* Adds the word list[0..len) to tl. */
static int add_word(const char *w, size_t len, struct target_list *tl, char *err, size_t errsize)
{
	char name[CODE_ARCH_LEN];
	struct target t;

	if (len >= sizeof(name) || (snprintf(name, sizeof(name), "%.*s", (int)len, w),
				    target_parse(name, &t) < 0)) {
		snprintf(err, errsize, "'%.*s' is not a GPU target (sm_100, sm_120, gfx942 ...)",
			 (int)len, w);
		return -1;
	}
	if (target_listed(tl, name))
		return 0;
	if (tl->n == READINESS_MAX_TARGETS) {
		snprintf(err, errsize, "more than %d targets", READINESS_MAX_TARGETS);
		return -1;
	}
	tl->t[tl->n++] = t;
	return 0;
}

int target_list_parse(const char *list, struct target_list *tl, char *err, size_t errsize)
{
	const char *p = list;

	tl->n = 0;
	while (*p) {
		size_t len;

		p += strspn(p, " ,");
		len = strcspn(p, " ,");
		if (len && add_word(p, len, tl, err, errsize) < 0)
			return -1;
		p += len;
	}
	if (!tl->n) {
		snprintf(err, errsize, "the target list is empty");
		return -1;
	}
	return 0;
}

void target_list_default(struct target_list *tl)
{
	char err[8];

	target_list_parse("sm_100,sm_120", tl, err, sizeof(err));
}

/* --- the verdict --- */

static const char *const code_verdict_names[] = {
	[CODE_MISSING] = "missing",
	[CODE_JIT] = "jit",
	[CODE_NATIVE] = "native",
};

const char *code_verdict_name(enum code_verdict v)
{
	return code_verdict_names[v];
}

/* Does CUDA code for sm (suffix sfx) run on t? `exact_minor` for SASS: same major needed. */
static bool cuda_runs(const struct code_entry *e, const struct target *t, bool sass)
{
	int major = e->sm / 10, minor = e->sm % 10;

	if (e->sm <= 0)
		return false;
	if (e->suffix == 'a')
		return e->sm == t->sm;
	if (e->suffix == 'f' || sass)
		return major == t->major && minor <= t->minor;
	return e->sm <= t->sm;
}

/* "gfx942:sramecc+:xnack-" names the processor gfx942. */
static bool gfx_is(const char *arch, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arch, name, n) && (arch[n] == 0 || arch[n] == ':');
}

/* Is e a better PTX than the best so far? The newer virtual arch, then the newer ISA. */
static bool better_ptx(const struct code_entry *e, const struct code_entry *best)
{
	if (!best)
		return true;
	if (e->sm != best->sm)
		return e->sm > best->sm;
	return e->ptx_isa > best->ptx_isa;
}

/*
 * Whether the CUDA runtime loads e from o: not relocatable device code
 * (__nv_relfatbin) of a linked file, which only a device link would use;
 * an object file's (a .o, an archive's) is what its link will take.
 */
static bool loaded(const struct code_object *o, const struct code_entry *e)
{
	return !e->relocatable || !strcmp(o->kind, "relocatable") || !strcmp(o->kind, "archive");
}

static void judge_cuda(const struct code_object *o, const struct target *t, struct judgement *j)
{
	const struct code_entry *ptx = NULL;

	for (size_t i = 0; i < o->nentry; i++) {
		const struct code_entry *e = &o->entry[i];

		if (!loaded(o, e))
			continue;
		if (e->kind == CODE_SASS && cuda_runs(e, t, true)) {
			j->verdict = CODE_NATIVE;
			j->by = e;
			return;
		}
		if (e->kind == CODE_PTX && cuda_runs(e, t, false) && better_ptx(e, ptx))
			ptx = e;
	}
	if (!ptx)
		return;
	j->verdict = CODE_JIT;
	j->by = ptx;
	readiness_ptx_driver(ptx->ptx_isa, &j->min_cuda, &j->min_driver);
}

static void judge_rocm(const struct code_object *o, const struct target *t, struct judgement *j)
{
	for (size_t i = 0; i < o->nentry; i++) {
		const struct code_entry *e = &o->entry[i];

		if (e->kind == CODE_AMDGPU && gfx_is(e->arch, t->name)) {
			j->verdict = CODE_NATIVE;
			j->by = e;
			return;
		}
	}
}

void readiness_judge(const struct code_object *o, const struct target *t, struct judgement *j)
{
	*j = (struct judgement){ .verdict = CODE_MISSING };
	if (t->vendor == TARGET_CUDA)
		judge_cuda(o, t, j);
	else
		judge_rocm(o, t, j);
}

/*
 * PTX ISA -> the CUDA release that introduced it -> that release's minimum
 * Linux x86_64 driver: the GA row of "CUDA Toolkit and Corresponding Driver
 * Versions" in NVIDIA's CUDA Toolkit release notes (checked against the
 * CUDA 13.2 edition; docs/stack.md has the table). ISA 8.6 came from an
 * unreleased toolkit (12.7) and is not listed; CUDA 12.6 kept ISA 8.5.
 */
static const struct ptx_row {
	int isa;
	const char *cuda;
	const char *driver;
} ptx_rows[] = {
	{ 70, "11.0", "450.51.05" }, { 71, "11.1", "455.23" },
	{ 72, "11.2", "460.27.03" }, { 73, "11.3", "465.19.01" },
	{ 74, "11.4", "470.42.01" }, { 75, "11.5", "495.29.05" },
	{ 76, "11.6", "510.39.01" }, { 77, "11.7", "515.43.04" },
	{ 78, "11.8", "520.61.05" }, { 80, "12.0", "525.60.13" },
	{ 81, "12.1", "530.30.02" }, { 82, "12.2", "535.54.03" },
	{ 83, "12.3", "545.23.06" }, { 84, "12.4", "550.54.14" },
	{ 85, "12.5", "555.42.02" }, { 87, "12.8", "570.26" },
	{ 88, "12.9", "575.51.03" }, { 90, "13.0", "580.65.06" },
	{ 91, "13.1", "590.44.01" }, { 92, "13.2", "595.45.04" },
	/*
	 * CUDA 13.3 GA's driver is in the name of NVIDIA's installer,
	 * cuda_13.3.0_610.43.02_linux.run. ISA 9.4 came with CUDA 13.4 and
	 * 9.5 with 13.5 (the PTX ISA 9.4 and 9.5 updates of apache/tvm-tirx
	 * #241 and ForceInjection/cuda-code-skill's "CUDA 13.4 / PTX ISA 9.4";
	 * measured: nvcc 13.5.37 writes ".version 9.5"); from 13.4 the
	 * installer's name no longer carries the driver and no source at hand
	 * gives those releases' GA driver (13.4's is of branch R615, per the
	 * CUTLASS 4.8.0dev release notes), so their minimum is NULL: unknown.
	 * What is known: no driver older than 610.43.02 (R580 included) can
	 * compile them.
	 */
	{ 93, "13.3", "610.43.02" }, { 94, "13.4", NULL }, { 95, "13.5", NULL },
};

/*
 * A ZSTD-compressed fatbin entry (nvcc --compress-mode=size or balance,
 * CUDA 12.4 and later) loads only with a driver of CUDA 12.4's branch, R550,
 * or newer: NVIDIA's rapids-cmake documents these modes as needing
 * 550.54.14 for CUDA 12 builds. LZ4 (the older default) needs nothing new.
 */
#define ZSTD_MIN_DRIVER "550.54.14"

const char *readiness_zstd_driver(const struct code_object *o, size_t *nzstd)
{
	*nzstd = 0;
	for (size_t i = 0; i < o->nentry; i++)
		if (o->entry[i].compression == CODE_ZSTD)
			(*nzstd)++;
	return *nzstd ? ZSTD_MIN_DRIVER : NULL;
}

bool readiness_ptx_driver(int isa, const char **cuda, const char **driver)
{
	*cuda = NULL;
	*driver = NULL;
	for (size_t i = 0; i < sizeof(ptx_rows) / sizeof(ptx_rows[0]); i++) {
		if (ptx_rows[i].isa == isa) {
			*cuda = ptx_rows[i].cuda;
			*driver = ptx_rows[i].driver;
			return true;
		}
	}
	return false;
}

const char *readiness_ptx_driver_floor(int isa)
{
	const char *floor = NULL;

	for (size_t i = 0; i < sizeof(ptx_rows) / sizeof(ptx_rows[0]) && ptx_rows[i].isa <= isa; i++)
		if (ptx_rows[i].driver)
			floor = ptx_rows[i].driver;
	return floor;
}

/* --- the fix --- */

/* Libraries that come with a package: their fix is that package's, not a rebuild. */
static const struct package_fix {
	const char *stem;	/* the file name begins with it */
	const char *fix;
} package_fixes[] = {
	{ "libtorch", "install a PyTorch 2.7 or newer wheel built with CUDA 12.8 (cu128): "
		      "pip install torch --index-url https://download.pytorch.org/whl/cu128" },
	{ "libc10", "install a PyTorch 2.7 or newer wheel built with CUDA 12.8 (cu128): "
		    "pip install torch --index-url https://download.pytorch.org/whl/cu128" },
	{ "libnccl", "install NCCL 2.25.1 or newer (the nvidia-nccl-cu12 wheel)" },
	{ "libcudnn", "install cuDNN 9.7 or newer (the nvidia-cudnn-cu12 wheel)" },
	{ "libcublas", "install cuBLAS from CUDA 12.8 or newer (the nvidia-cublas-cu12 wheel)" },
	{ "libcufft", "install cuFFT from CUDA 12.8 or newer (the nvidia-cufft-cu12 wheel)" },
	{ "libcusparse", "install cuSPARSE from CUDA 12.8 or newer (the nvidia-cusparse-cu12 wheel)" },
	{ "libcusolver", "install cuSOLVER from CUDA 12.8 or newer (the nvidia-cusolver-cu12 wheel)" },
	{ "libcurand", "install cuRAND from CUDA 12.8 or newer (the nvidia-curand-cu12 wheel)" },
	{ "libnvrtc", "install NVRTC from CUDA 12.8 or newer (the nvidia-cuda-nvrtc-cu12 wheel)" },
	{ "libcudart", "install the CUDA 12.8 or newer runtime (the nvidia-cuda-runtime-cu12 wheel)" },
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *package_fix(const char *base)
{
	for (size_t i = 0; i < sizeof(package_fixes) / sizeof(package_fixes[0]); i++)
		if (!strncmp(base, package_fixes[i].stem, strlen(package_fixes[i].stem)))
			return package_fixes[i].fix;
	return NULL;
}

/* "10.0;12.0" for the CUDA targets with verdict below `want`; returns how many. */
static size_t cuda_list(const struct target_list *tl, const enum code_verdict *v, enum code_verdict want,
			struct buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->n; i++) {
		if (tl->t[i].vendor != TARGET_CUDA || v[i] >= want)
			continue;
		buf_addf(out, "%s%d.%d", n ? ";" : "", tl->t[i].major, tl->t[i].minor);
		n++;
	}
	return n;
}

static size_t rocm_list(const struct target_list *tl, const enum code_verdict *v, struct buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->n; i++) {
		if (tl->t[i].vendor != TARGET_ROCM || v[i] == CODE_NATIVE)
			continue;
		buf_addf(out, "%s%s", n ? ";" : "", tl->t[i].name);
		n++;
	}
	return n;
}

/* "flash_attn_2_cuda" for ".../flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so" */
static void extension_name(const char *path, struct buf *out)
{
	const char *b = base_name(path);

	buf_add(out, b, strcspn(b, "."));
}

static bool any_verdict(const struct target_list *tl, const enum code_verdict *v,
			enum target_vendor vendor, enum code_verdict want)
{
	for (size_t i = 0; i < tl->n; i++)
		if (tl->t[i].vendor == vendor && v[i] == want)
			return true;
	return false;
}

static bool has_kind(const struct code_object *o, bool amd)
{
	for (size_t i = 0; i < o->nentry; i++)
		if ((o->entry[i].kind == CODE_AMDGPU) == amd)
			return true;
	return false;
}

/* The CUDA half: the package's fix, or a rebuild for the missing (else the jit) targets. */
static void cuda_fix(const struct code_object *o, const struct target_list *tl,
		     const enum code_verdict *v, struct buf *out)
{
	bool missing = any_verdict(tl, v, TARGET_CUDA, CODE_MISSING);
	const char *pkg = package_fix(code_object_file(o));
	struct buf archs = BUF_INIT;

	if (!missing && !any_verdict(tl, v, TARGET_CUDA, CODE_JIT))
		return;
	if (!has_kind(o, false)) {
		extension_name(o->path, out);
		buf_addstr(out, " is a ROCm build: install or build its CUDA version");
		return;
	}
	if (pkg) {
		buf_addstr(out, pkg);
		return;
	}
	buf_init(&archs, 0);
	cuda_list(tl, v, CODE_NATIVE, &archs);
	buf_addstr(out, "rebuild ");
	extension_name(o->path, out);
	buf_addf(out, " with TORCH_CUDA_ARCH_LIST=\"%s\"%s", archs.data,
		 missing ? "" : " to avoid the PTX compilation at start-up");
	buf_release(&archs);
}

/* The ROCm half: a rebuild for the missing gfx targets. */
static void rocm_fix(const struct code_object *o, const struct target_list *tl,
		     const enum code_verdict *v, struct buf *out)
{
	struct buf archs = BUF_INIT;

	buf_init(&archs, 0);
	if (!rocm_list(tl, v, &archs))
		goto out;
	if (out->len)
		buf_addstr(out, "; ");
	extension_name(o->path, out);
	if (has_kind(o, true))
		buf_addf(out, ": rebuild with PYTORCH_ROCM_ARCH=\"%s\"", archs.data);
	else
		buf_addf(out, " is a CUDA build: install or build its ROCm version for %s",
			 archs.data);
out:
	buf_release(&archs);
}

void readiness_fix(const struct code_object *o, const struct target_list *tl,
		   const enum code_verdict *v, struct buf *out)
{
	struct buf fix = BUF_INIT;

	buf_init(&fix, 0);
	cuda_fix(o, tl, v, &fix);
	rocm_fix(o, tl, v, &fix);
	buf_add(out, fix.data, fix.len);
	buf_release(&fix);
}

/* --- arch lists --- */

static void add_arch(struct code_object *o, enum code_kind kind, const char *prefix, int sm,
		     char suffix)
{
	struct code_entry e = { .kind = kind, .sm = sm, .suffix = suffix, .ptx_isa = -1,
				.cubin_abi = -1, .offset = -1 };

	snprintf(e.arch, sizeof(e.arch), "%s%d%s", prefix, sm, suffix ? (char[]){ suffix, 0 } : "");
	code_object_add(o, &e);
}

/* "sm_90a" / "compute_120" / "gfx942" */
static size_t named_arch(const char *w, struct code_object *o)
{
	static const struct { const char *prefix; enum code_kind kind; } forms[] = {
		{ "sm_", CODE_SASS }, { "compute_", CODE_PTX },
	};
	struct target t;

	if (!strncmp(w, "gfx", 3) && target_parse(w, &t) == 0) {
		struct code_entry e = { .kind = CODE_AMDGPU, .sm = t.sm, .ptx_isa = -1,
					.cubin_abi = -1, .offset = -1 };

		snprintf(e.arch, sizeof(e.arch), "%s", w);
		code_object_add(o, &e);
		return 1;
	}
	for (size_t i = 0; i < 2; i++) {
		size_t pl = strlen(forms[i].prefix);
		char *end;
		long sm;

		if (strncmp(w, forms[i].prefix, pl) || !isdigit((unsigned char)w[pl]))
			continue;
		sm = strtol(w + pl, &end, 10);
		if ((*end && strcmp(end, "a") && strcmp(end, "f")) || sm < 10 || sm > 999)
			return 0;
		add_arch(o, forms[i].kind, forms[i].prefix, (int)sm, *end);
		return 1;
	}
	return 0;
}

/* "9.0", "9.0a", "12.0+PTX" */
static size_t dotted_arch(const char *w, struct code_object *o)
{
	char *end;
	long major = strtol(w, &end, 10), minor;
	char suffix = 0;
	bool ptx;

	if (end == w || *end != '.' || !isdigit((unsigned char)end[1]))
		return 0;
	minor = strtol(end + 1, &end, 10);
	if (*end == 'a' || *end == 'f')
		suffix = *end++;
	ptx = !strcmp(end, "+PTX");
	if ((*end && !ptx) || major < 1 || major > 99 || minor < 0 || minor > 9)
		return 0;
	add_arch(o, CODE_SASS, "sm_", (int)(major * 10 + minor), suffix);
	if (!ptx)
		return 1;
	add_arch(o, CODE_PTX, "compute_", (int)(major * 10 + minor), suffix);
	return 2;
}

size_t readiness_arch_list(const char *list, const char *label, struct code_object *o)
{
	static const char sep[] = " \t\n,;[]'\"";
	size_t n = 0;

	code_object_init(o, label, "arch-list");
	for (const char *p = list; *p;) {
		char w[CODE_ARCH_LEN];
		size_t len;

		p += strspn(p, sep);
		len = strcspn(p, sep);
		if (len && len < sizeof(w)) {
			snprintf(w, sizeof(w), "%.*s", (int)len, p);
			n += isdigit((unsigned char)w[0]) ? dotted_arch(w, o) : named_arch(w, o);
		}
		p += len;
	}
	return n;
}

/* --- minimum versions --- */

static const char *const component_names[COMP_COUNT] = {
	[COMP_CUDA] = "CUDA", [COMP_DRIVER] = "driver", [COMP_TORCH] = "PyTorch",
	[COMP_NCCL] = "NCCL", [COMP_CUDNN] = "cuDNN", [COMP_ROCM] = "ROCm",
	[COMP_ARCHS] = "arch list",
};

const char *stack_component_name(enum stack_component c)
{
	return component_names[c];
}

#define FIX_CU128 "install a PyTorch wheel built with CUDA 12.8 or newer (cu128)"
#define FIX_CU129 "install a PyTorch wheel built with CUDA 12.9 or newer (cu129)"
#define FIX_CU130 "install a PyTorch wheel built with CUDA 13.0 (cu130)"
#define FIX_R570 "install an NVIDIA driver of branch R570 or newer (580.65.06 or newer for CUDA 13 builds)"
#define FIX_R575 "install an NVIDIA driver of branch R575 or newer (580.65.06 or newer for CUDA 13 builds)"
#define FIX_R580 "install an NVIDIA driver 580.65.06 or newer"
#define FIX_TORCH27 "install PyTorch 2.7 or newer with cu128: " \
	"pip install torch --index-url https://download.pytorch.org/whl/cu128"
#define FIX_NCCL "install NCCL 2.25.1 or newer (the nvidia-nccl-cu12 wheel)"
#define FIX_CUDNN "install cuDNN 9.7 or newer (the nvidia-cudnn-cu12 wheel)"
#define FIX_ARCHS "install a PyTorch build whose get_arch_list() covers this GPU"

/* The rows of one Blackwell target whose toolkit is `cuda`. */
#define BLACKWELL(t, cuda, fcuda, driver, fdriver) \
	{ t, COMP_CUDA, cuda, fcuda }, { t, COMP_DRIVER, driver, fdriver }, \
	{ t, COMP_TORCH, "2.7", FIX_TORCH27 }, { t, COMP_NCCL, "2.25.1", FIX_NCCL }, \
	{ t, COMP_CUDNN, "9.7", FIX_CUDNN }, { t, COMP_ARCHS, NULL, FIX_ARCHS }

/*
 * What each target needs. Blackwell: CUDA 12.8 (driver R570, 570.26) made
 * the first sm_100/sm_120 code, 12.9 (R575) sm_103 and sm_121, 13.0 (R580)
 * renamed Thor sm_110; PyTorch 2.7 shipped the first cu128 wheels, NCCL
 * 2.25.1 and cuDNN 9.7 the first Blackwell support. Hopper: CUDA 11.8 (R520).
 * MI300X (gfx942): ROCm 6.0 is the first release that supports it.
 */
static const struct min_version min_versions[] = {
	BLACKWELL("sm_100", "12.8", FIX_CU128, "570.26", FIX_R570),
	BLACKWELL("sm_120", "12.8", FIX_CU128, "570.26", FIX_R570),
	BLACKWELL("sm_103", "12.9", FIX_CU129, "575.51.03", FIX_R575),
	BLACKWELL("sm_121", "12.9", FIX_CU129, "575.51.03", FIX_R575),
	{ "sm_110", COMP_CUDA, "13.0", FIX_CU130 },
	{ "sm_110", COMP_DRIVER, "580.65.06", FIX_R580 },
	{ "sm_110", COMP_ARCHS, NULL, FIX_ARCHS },
	{ "sm_90", COMP_CUDA, "11.8", "install a PyTorch wheel built with CUDA 11.8 or newer" },
	{ "sm_90", COMP_DRIVER, "520.61.05", "install an NVIDIA driver 520.61.05 or newer" },
	{ "sm_90", COMP_ARCHS, NULL, FIX_ARCHS },
	{ "gfx942", COMP_ROCM, "6.0", "install ROCm 6.0 or newer and a PyTorch ROCm 6 wheel "
				      "(pip install torch --index-url https://download.pytorch.org/whl/rocm6.2)" },
	{ "gfx942", COMP_ARCHS, NULL, "install a PyTorch ROCm build whose get_arch_list() has gfx942" },
	{ NULL, COMP_ARCHS, NULL, FIX_ARCHS },	/* any other target */
};

const struct min_version *readiness_min_versions(size_t *n)
{
	*n = sizeof(min_versions) / sizeof(min_versions[0]);
	return min_versions;
}

/* --- the environment --- */

/* The number at *s, moving *s past it and past one dot that a digit follows. */
static long version_part(const char **s)
{
	long n = 0;

	for (; isdigit((unsigned char)**s); (*s)++)
		n = n < 100000000 ? n * 10 + (**s - '0') : n;
	if (**s == '.' && isdigit((unsigned char)(*s)[1]))
		(*s)++;
	return n;
}

int version_cmp(const char *a, const char *b)
{
	while (isdigit((unsigned char)*a) || isdigit((unsigned char)*b)) {
		long x = version_part(&a), y = version_part(&b);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

static const char *library(const struct env_info *env, const char *const *names)
{
	for (size_t i = 0; i < env->nlibs; i++)
		for (size_t k = 0; names[k]; k++)
			if (env->libs[i].name && !strcmp(env->libs[i].name, names[k]))
				return env->libs[i].version;
	return NULL;
}

static const char *first_of(const char *a, const char *b, const char *c)
{
	return a ? a : b ? b : c;
}

void readiness_env_from_run(const struct run *r, struct readiness_env *e)
{
	static const char *const torch[] = { "torch", NULL };
	static const char *const nccl[] = { "nvidia-nccl-cu12", "nvidia-nccl-cu13", "nccl", NULL };
	static const char *const cudnn[] = { "nvidia-cudnn-cu12", "nvidia-cudnn-cu13", NULL };
	const struct env_info *env = &r->env;

	*e = (struct readiness_env){
		.torch = first_of(env->torch.v, library(env, torch), NULL),
		.torch_cuda = env->torch_cuda.v,
		.driver = env->driver.v,
		.nccl = first_of(r->nccl_version.v, library(env, nccl), NULL),
		.cudnn = first_of(env->cudnn.v, library(env, cudnn), NULL),
		.rocm = first_of(env->rocm_version.v, env->hip_runtime.v, env->rocm_build.v),
		.arch_list = first_of(env->arch_list.v, env->cuda_archs.v,
				      env->narch_warnings ? env->arch_warnings[0].supported : NULL),
		.torch_rocm = env->rocm_build.v,
		.torch_cpu = env->torch_full.v && strstr(env->torch_full.v, "+cpu") != NULL,
	};
}

static const char *env_value(const struct readiness_env *e, enum stack_component c)
{
	const char *const v[COMP_COUNT] = {
		[COMP_CUDA] = e->torch_cuda, [COMP_DRIVER] = e->driver, [COMP_TORCH] = e->torch,
		[COMP_NCCL] = e->nccl, [COMP_CUDNN] = e->cudnn, [COMP_ROCM] = e->rocm,
		[COMP_ARCHS] = e->arch_list,
	};

	return v[c];
}

/* Does list cover t? Through PTX only: via gets that PTX's arch. */
static bool archs_cover(const char *list, const struct target *t, char *via, size_t n)
{
	struct code_object o;
	struct judgement j;

	readiness_arch_list(list, "arch list", &o);
	readiness_judge(&o, t, &j);
	snprintf(via, n, "%s", j.verdict == CODE_JIT ? j.by->arch : "");
	code_object_release(&o);
	return j.verdict != CODE_MISSING;
}

/* The table's row for (t, c): the target's own, else the catch-all for COMP_ARCHS. */
static const struct min_version *row_for(const struct target *t, enum stack_component c)
{
	size_t n = sizeof(min_versions) / sizeof(min_versions[0]);
	bool own = false;

	for (size_t i = 0; i < n; i++) {
		const struct min_version *m = &min_versions[i];

		if (m->target && strcmp(m->target, t->name))
			continue;
		own |= m->target != NULL;
		if (m->comp == c && (m->target || !own))
			return m;
	}
	return NULL;
}

size_t readiness_check_env(const struct readiness_env *e, const struct target_list *tl,
			   struct readiness_check *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->n; i++) {
		for (int c = 0; c < COMP_COUNT; c++) {
			const struct min_version *m = row_for(&tl->t[i], (enum stack_component)c);
			const char *have = env_value(e, (enum stack_component)c);
			char via[CODE_ARCH_LEN] = "";
			bool ok;

			if (!m || !have)
				continue;
			ok = m->version ? version_cmp(have, m->version) >= 0
					: archs_cover(have, &tl->t[i], via, sizeof(via));
			if (n < max) {
				out[n] = (struct readiness_check){ .row = m, .have = have, .ok = ok,
								    .target = &tl->t[i] };
				memcpy(out[n].via, via, sizeof(via));
			}
			n++;
		}
	}
	return n;
}
