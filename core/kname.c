#include "core/kname.h"

#include <stdint.h>
#include <string.h>

#include "core/pattern.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- communication ---------------------------------------------------- */

/*
 * Communication kernels by a token of their name, first match wins. With
 * `parse`, the collective follows the token ("ncclDevKernel_AllGather_RING_LL")
 * and the dtype is one of the '_'-separated words after it.
 */
static const struct {
	const char *token;
	uint8_t coll;
	bool parse;
} comm_tokens[] = {
	{ "ncclSymkDevKernel", COLL_NONE, true },	/* NCCL >= 2.27 symmetric kernels */
	{ "ncclDevKernel", COLL_NONE, true },		/* NCCL >= 2.19 */
	{ "ncclKernel", COLL_NONE, true },		/* NCCL <= 2.18 */
	{ "rcclKernel", COLL_NONE, true },
	{ "rccl", COLL_NONE, false },
	{ "SendRecv", COLL_SENDRECV, false },
	{ "multimem_all_reduce", COLL_ALLREDUCE, false },	/* PyTorch symmetric memory */
	{ "one_shot_all_reduce", COLL_ALLREDUCE, false },
	{ "two_shot_all_reduce", COLL_ALLREDUCE, false },
	{ "multimem_all_gather", COLL_ALLGATHER, false },
	{ "multimem_reduce_scatter", COLL_REDUCESCATTER, false },
};

/* Collective names of args and kernel names, lowercased, '_' dropped: by prefix. */
static const struct {
	const char *prefix;
	uint8_t coll;
} coll_prefixes[] = {
	{ "allreduce", COLL_ALLREDUCE }, { "allgather", COLL_ALLGATHER },
	{ "reducescatter", COLL_REDUCESCATTER }, { "alltoall", COLL_ALLTOALL },
	{ "broadcast", COLL_BROADCAST }, { "reduce", COLL_REDUCE },
	{ "sendrecv", COLL_SENDRECV }, { "send", COLL_SEND }, { "recv", COLL_RECV },
	{ "gather", COLL_GATHER }, { "scatter", COLL_SCATTER }, { "barrier", COLL_BARRIER },
};

enum coll_op kname_coll_of_text(const char *s, size_t n)
{
	char norm[32];
	size_t len = 0;

	for (size_t i = 0; i < n && len < sizeof(norm) - 1; i++)
		if (s[i] != '_')
			norm[len++] = (char)(s[i] | 0x20);
	norm[len] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(coll_prefixes); i++)
		if (!strncmp(norm, coll_prefixes[i].prefix, strlen(coll_prefixes[i].prefix)))
			return (enum coll_op)coll_prefixes[i].coll;
	return COLL_NONE;
}

/*
 * Parts of CPU op names (record_function ranges, module and autograd ops),
 * case-insensitive, and where they say the ops under them ran.
 */
static const struct {
	const char *part;
	uint8_t where;
} where_parts[] = {
	{ "autograd::engine::evaluate_function", LAUNCH_IN_BACKWARD },
	{ "backward", LAUNCH_IN_BACKWARD },	/* "MulBackward0", "## backward ##" */
	{ "## forward ##", LAUNCH_IN_FORWARD },
	{ "nn.Module:", LAUNCH_IN_FORWARD },
	{ ".forward", LAUNCH_IN_FORWARD },	/* "DistributedDataParallel.forward" */
	{ "ParallelRegion", LAUNCH_IN_TENSOR },	/* Megatron: _ReduceFromModelParallelRegion */
	{ "VocabParallel", LAUNCH_IN_TENSOR },	/* Megatron: _VocabParallelCrossEntropy */
	{ "ColumnParallelLinear", LAUNCH_IN_TENSOR },
	{ "RowParallelLinear", LAUNCH_IN_TENSOR },
	{ "LinearAllreduce", LAUNCH_IN_TENSOR },	/* DeepSpeed's tensor parallel layers */
	{ "FullyShardedDataParallel", LAUNCH_IN_FSDP },
	{ "FSDP", LAUNCH_IN_FSDP },		/* "FSDP::all_gather", "## fsdp ##" */
	{ "pipeline", LAUNCH_IN_PIPELINE },
	{ "send_forward", LAUNCH_IN_PIPELINE },	/* Megatron's p2p_communication */
	{ "recv_forward", LAUNCH_IN_PIPELINE },
	{ "send_backward", LAUNCH_IN_PIPELINE },
	{ "recv_backward", LAUNCH_IN_PIPELINE },
	{ "all_to_all", LAUNCH_IN_ALLTOALL },	/* "nccl:all_to_all" */
	{ "alltoall", LAUNCH_IN_ALLTOALL },	/* "c10d::alltoall_base_" */
	{ "all2all", LAUNCH_IN_ALLTOALL },	/* TorchRec: "## all2all_data:kjt splits ##" */
	{ "optimizer", LAUNCH_IN_OPTIMIZER },	/* "## optimizer ##", "Optimizer.step#Adam.step" */
};

unsigned kname_op_where(const char *op_name)
{
	unsigned where = 0;

	for (size_t i = 0; op_name && i < ARRAY_SIZE(where_parts); i++)
		if (strcasestr(op_name, where_parts[i].part))
			where |= where_parts[i].where;
	return where;
}

/* The words after a parsed token: the first that names a collective, then the first dtype. */
static void comm_words(const char *p, struct kname_comm *c)
{
	while (*p == '_') {
		size_t n = strcspn(++p, "_(<");

		if (c->coll == COLL_NONE)
			c->coll = kname_coll_of_text(p, n);
		else if (c->dtype == DT_UNKNOWN)
			c->dtype = dtype_parse(p, n);
		p += n;
	}
}

bool kname_comm(const char *name, struct kname_comm *c)
{
	struct kname_comm tmp;

	if (!name)
		return false;
	if (!c)
		c = &tmp;
	for (size_t i = 0; i < ARRAY_SIZE(comm_tokens); i++) {
		const char *p = strstr(name, comm_tokens[i].token);

		if (!p)
			continue;
		*c = (struct kname_comm){ .coll = (enum coll_op)comm_tokens[i].coll,
					  .dtype = DT_UNKNOWN };
		if (comm_tokens[i].parse)
			comm_words(p + strlen(comm_tokens[i].token), c);
		return true;
	}
	return false;
}

void kname_classify_as(struct gpu_event *g, bool comm, const struct kname_comm *c)
{
	if (!comm)
		return;
	g->cls = EVC_COMM;
	g->coll = (uint8_t)c->coll;
	if (g->dtype == DT_UNKNOWN)
		g->dtype = (uint8_t)c->dtype;
}

void kname_classify(struct gpu_event *g)
{
	struct kname_comm c;
	bool comm = kname_comm(g->name, &c);

	kname_classify_as(g, comm, &c);
}

/* ---- matmul class ------------------------------------------------------ */

static const char *const class_names[KNAME_CLASS_COUNT] = {
	[KNAME_OTHER] = "other", [KNAME_GEMM] = "gemm", [KNAME_CONV] = "conv",
	[KNAME_ATTENTION] = "attention",
};

const char *kname_class_name(enum kname_class c)
{
	return (unsigned)c < KNAME_CLASS_COUNT ? class_names[c] : "other";
}

/*
 * Name tokens of matmul-class kernels, first match wins: attention before
 * convolution before GEMM, since an attention kernel's name may hold "gemm"
 * and a convolution's "implicit_gemm". None of them appears in NCCL names.
 */
static const struct {
	const char *token;
	uint8_t cls;
} class_tokens[] = {
	{ "flash", KNAME_ATTENTION }, { "fmha", KNAME_ATTENTION }, { "ttention", KNAME_ATTENTION },
	{ "conv", KNAME_CONV }, { "fprop", KNAME_CONV }, { "grad", KNAME_CONV },
	{ "Conv", KNAME_CONV },
	{ "gemm", KNAME_GEMM }, { "Gemm", KNAME_GEMM }, { "GEMM", KNAME_GEMM },
	{ "nvjet", KNAME_GEMM }, { "xmma", KNAME_GEMM }, { "cutlass", KNAME_GEMM },
	{ "cublas", KNAME_GEMM }, { "s16816", KNAME_GEMM }, { "h16816", KNAME_GEMM },
	{ "s1688", KNAME_GEMM }, { "h1688", KNAME_GEMM }, { "884", KNAME_GEMM },
	{ "sdpa", KNAME_GEMM }, { "cudnn", KNAME_GEMM }, { "bmm_", KNAME_GEMM },
	{ "matmul", KNAME_GEMM }, { "Matmul", KNAME_GEMM }, { "triton_tem_", KNAME_GEMM },
	{ "addmm", KNAME_GEMM },
};

/*
 * A name is matmul-class when one of these tokens is in it; the class is
 * then that of the first class token. Convolution and attention words alone
 * ("grad" of layer_norm_grad) make no matmul.
 */
static const char *const matmul_tokens[] = {
	"gemm", "Gemm", "GEMM", "nvjet", "xmma", "cutlass", "cublas", "s16816", "h16816",
	"s1688", "h1688", "884", "flash", "fmha", "attention", "Attention", "sdpa",
	"fprop", "dgrad", "wgrad", "conv", "Conv", "cudnn", "bmm_", "matmul", "Matmul",
	"triton_tem_", "addmm", "Cijk_",
};

/*
 * Kernels that are never matmul-class whatever else their names hold:
 * FBGEMM's embedding and quantisation kernels ("gemm" of "fbgemm", also in
 * the arguments of the ATen kernels that serve them), Inductor's pointwise
 * and reduction kernels (their names list the fused ops: the "addmm" of
 * triton_per_fused__to_copy_addmm_mean_pow_view_8 is its epilogue, the GEMM
 * ran elsewhere), cuDNN's batch-norm and layout kernels ("cudnn").
 */
static const char *const never_matmul[] = {
	"fbgemm", "triton_poi_", "triton_per_", "triton_red_", "cudnn::bn_", "cudnn::ops::",
};

/* PyTorch ops whose kernels are matmul-class whatever their names, by prefix. */
static const struct {
	const char *prefix;
	uint8_t cls;
} matmul_ops[] = {
	{ "aten::mm", KNAME_GEMM }, { "aten::addmm", KNAME_GEMM }, { "aten::bmm", KNAME_GEMM },
	{ "aten::baddbmm", KNAME_GEMM }, { "aten::matmul", KNAME_GEMM },
	{ "aten::linear", KNAME_GEMM }, { "aten::_scaled_mm", KNAME_GEMM },
	{ "aten::convolution", KNAME_CONV }, { "aten::cudnn_convolution", KNAME_CONV },
	{ "aten::_scaled_dot_product", KNAME_ATTENTION },
	{ "aten::scaled_dot_product", KNAME_ATTENTION },
	{ "aten::_flash_attention", KNAME_ATTENTION }, { "aten::_efficient_attention", KNAME_ATTENTION },
};

static bool has_any(const char *name, const char *const *tokens, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(name, tokens[i]))
			return true;
	return false;
}

enum kname_class kname_class_of(const char *name)
{
	if (!name || kname_comm(name, NULL) ||
	    !has_any(name, matmul_tokens, ARRAY_SIZE(matmul_tokens)) ||
	    has_any(name, never_matmul, ARRAY_SIZE(never_matmul)))
		return KNAME_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(class_tokens); i++)
		if (strstr(name, class_tokens[i].token))
			return (enum kname_class)class_tokens[i].cls;
	return KNAME_GEMM;
}

enum kname_class kname_op_class(const char *op)
{
	if (!op)
		return KNAME_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(matmul_ops); i++)
		if (!strncmp(op, matmul_ops[i].prefix, strlen(matmul_ops[i].prefix)))
			return (enum kname_class)matmul_ops[i].cls;
	return KNAME_OTHER;
}

/* ---- dtype ------------------------------------------------------------- */

/*
 * Name rules, first match wins: the most specific tokens come first (fp8
 * before bf16 in "e4m3bf16"; bf16 before f16; tf32 before fp32). Rule 0
 * reads nvjet's type letters (nvjet_letters), rule 1 Tensile's (AMD).
 */
static const struct dtype_rule {
	const char *re;		/* first: the pattern table reads it */
	enum dtype dt;
} rules[] = {
	{ "nvjet_(?:sm\\d+_)?([a-z]{3,5})(_tf32)?_", DT_UNKNOWN },
	{ "^Cijk_A[a-z]+_B[a-z]+_(I8|F8|B8|[SDHBX])", DT_UNKNOWN },
	{ "e2m1|E2m1|ue4m3xf4|ue8m0xf4|nvfp4|Avec16UE4M3", DT_FP4 },
	{ "e4m3|E4m3|Float8_e4m3", DT_FP8_E4M3 },
	{ "e5m2|E5m2|Float8_e5m2", DT_FP8_E5M2 },
	{ "sss_tf32|_tf32|tf32f32|tf32_", DT_TF32 },
	{ "bf16|bfloat16|BFloat16|Bfloat16", DT_BF16 },
	{ "f16|fp16|half|Half|h16816|h1688|h884|hgemm|Fp16", DT_FP16 },
	{ "tensorop_s\\d+(?:gemm|fprop|dgrad|wgrad)|_s1688gemm|_s16816gemm", DT_TF32 },
	{ "sgemm|scudnn|f32f32_f32f32|gemm_f32|Fp32|\\bfloat\\b", DT_FP32 },
	{ "dgemm|d884|f64|\\bdouble\\b", DT_FP64 },
	{ "i8816|i16832|igemm|int8", DT_INT8 },
};

static pcre2_code *compiled[ARRAY_SIZE(rules)];
static struct pattern_table table = PATTERN_TABLE(rules, compiled, 0);

/*
 * nvjet's type letters, as cuBLASLt's exported matmul entry points spell
 * them (HSH, TST, SSS, ...); the first is the A operand's storage type.
 * "s" with the "_tf32" suffix is fp32 data on TF32 tensor cores.
 */
static const uint8_t nvjet_letters[128] = {
	['t'] = DT_BF16, ['h'] = DT_FP16, ['s'] = DT_FP32, ['q'] = DT_FP8_E4M3,
	['r'] = DT_FP8_E5M2, ['o'] = DT_FP4, ['b'] = DT_INT8, ['d'] = DT_FP64,
};

static enum dtype nvjet_dtype(const char *name)
{
	const char *g;
	size_t len;
	enum dtype dt;

	if (!pattern_get(&table, 1, name, &g, &len) || (unsigned char)*g >= 128)
		return DT_UNKNOWN;
	dt = (enum dtype)nvjet_letters[(unsigned char)*g];
	if (dt == DT_FP32 && pattern_get(&table, 2, name, &g, &len) && len > 0)
		dt = DT_TF32;
	return dt;
}

/*
 * Tensile's type codes (hipBLASLt, rocBLAS): after the index names come the
 * types, A's first ("Cijk_Alik_Bljk_BBS_BH_..." is bf16 in and out with
 * fp32 compute); only A's is read.
 */
static const struct {
	const char *code;
	enum dtype dt;
} tensile_types[] = {
	{ "I8", DT_INT8 }, { "F8", DT_FP8_E4M3 }, { "B8", DT_FP8_E5M2 }, { "S", DT_FP32 },
	{ "D", DT_FP64 }, { "H", DT_FP16 }, { "B", DT_BF16 }, { "X", DT_TF32 },
};

static enum dtype tensile_dtype(const char *name)
{
	const char *g;
	size_t len;

	if (!pattern_get(&table, 1, name, &g, &len))
		return DT_UNKNOWN;
	for (size_t i = 0; i < ARRAY_SIZE(tensile_types); i++)
		if (strlen(tensile_types[i].code) == len && !memcmp(g, tensile_types[i].code, len))
			return tensile_types[i].dt;
	return DT_UNKNOWN;
}

enum dtype kname_dtype_of_name(const char *name)
{
	size_t n;

	if (!name || !pattern_compile(&table))
		return DT_UNKNOWN;
	n = strlen(name);
	if (pattern_find(&table, 0, name, n))
		return nvjet_dtype(name);
	if (pattern_find(&table, 1, name, n))
		return tensile_dtype(name);
	for (size_t i = 2; i < ARRAY_SIZE(rules); i++)
		if (pattern_find(&table, i, name, n))
			return rules[i].dt;
	return DT_UNKNOWN;
}

/* Floating types of op inputs, the narrowest first: the first present wins. */
static const uint8_t type_rank[] = {
	DT_FP4, DT_FP8_E4M3, DT_FP8_E5M2, DT_FP8, DT_BF16, DT_FP16, DT_FP32, DT_FP64,
};

enum dtype kname_dtype_of_types(const char *s, size_t n)
{
	bool seen[DT_COUNT] = { false };
	size_t i = 0;

	while (i < n) {
		size_t k = i;

		while (k < n && s[k] != ',')
			k++;
		seen[dtype_parse(s + i, k - i)] = true;
		i = k + 1;
	}
	for (size_t r = 0; r < ARRAY_SIZE(type_rank); r++)
		if (seen[type_rank[r]])
			return (enum dtype)type_rank[r];
	return DT_UNKNOWN;
}

enum dtype kname_dtype(const char *name, const char *input_types)
{
	enum dtype dt = kname_dtype_of_name(name);

	if (dt != DT_UNKNOWN || !input_types)
		return dt;
	return kname_dtype_of_types(input_types, strlen(input_types));
}

/* ---- library ----------------------------------------------------------- */

static const char *const lib_names[LIB_COUNT] = {
	[LIB_UNKNOWN] = "unknown", [LIB_CUBLAS] = "cuBLAS", [LIB_NVJET] = "cuBLAS nvjet",
	[LIB_CUTLASS] = "CUTLASS", [LIB_CUDNN] = "cuDNN", [LIB_FLASH_ATTN] = "FlashAttention",
	[LIB_NCCL] = "NCCL", [LIB_RCCL] = "RCCL", [LIB_SYMM_MEM] = "PyTorch symmetric memory",
	[LIB_TRITON] = "Triton", [LIB_ATEN] = "ATen", [LIB_FBGEMM] = "FBGEMM",
	[LIB_HIPBLASLT] = "hipBLASLt", [LIB_CK] = "Composable Kernel", [LIB_MIOPEN] = "MIOpen",
};

const char *kname_lib_name(enum kname_lib l)
{
	return (unsigned)l < LIB_COUNT ? lib_names[l] : "unknown";
}

/*
 * Library tokens, first match wins: the library a user called comes before
 * the one it is built from ("cutlass_cudnn_infer" is cuDNN's, "fmha_cutlass"
 * PyTorch's attention), and ATen's namespace comes last since ATen launches
 * templates of every other library.
 */
static const struct {
	const char *token;
	uint8_t lib;
} lib_tokens[] = {
	{ "nvjet", LIB_NVJET },
	{ "rccl", LIB_RCCL }, { "nccl", LIB_NCCL },
	{ "multimem_", LIB_SYMM_MEM }, { "one_shot_all_reduce", LIB_SYMM_MEM },
	{ "two_shot_all_reduce", LIB_SYMM_MEM }, { "symmetric_memory", LIB_SYMM_MEM },
	{ "cudnn", LIB_CUDNN },
	{ "flash", LIB_FLASH_ATTN },
	{ "fbgemm", LIB_FBGEMM },
	{ "cutlass", LIB_CUTLASS },
	{ "cublas", LIB_CUBLAS }, { "xmma", LIB_CUBLAS }, { "gemv", LIB_CUBLAS },
	{ "gemmk1", LIB_CUBLAS }, { "splitKreduce", LIB_CUBLAS },
	{ "ampere_", LIB_CUBLAS }, { "volta_", LIB_CUBLAS }, { "turing_", LIB_CUBLAS },
	{ "maxwell_", LIB_CUBLAS }, { "hopper_", LIB_CUBLAS },
	{ "triton", LIB_TRITON },
	{ "Cijk_", LIB_HIPBLASLT },
	{ "ck_tile::", LIB_CK }, { "void ck::", LIB_CK },
	{ "miopen", LIB_MIOPEN }, { "MIOpen", LIB_MIOPEN },
	{ "at::native::", LIB_ATEN }, { "at::cuda::", LIB_ATEN }, { "at_cuda_detail", LIB_ATEN },
};

enum kname_lib kname_library(const char *name)
{
	if (!name)
		return LIB_UNKNOWN;
	for (size_t i = 0; i < ARRAY_SIZE(lib_tokens); i++)
		if (strstr(name, lib_tokens[i].token))
			return (enum kname_lib)lib_tokens[i].lib;
	return LIB_UNKNOWN;
}

/* ---- the architecture a kernel was built for -------------------------- */

/*
 * Words that name an architecture, each at the start of the name or after a
 * character that is not a letter or digit ('_', '<', ' '): "sm" and its SM
 * number ("sm90_xmma_gemm_...", "nvjet_sm90_...", "cutlass3x_sm90_...",
 * "fmha_..._sm80("), CUTLASS 2.x's "cutlass_80_", and the generation words
 * of legacy cuBLAS/cuDNN kernels ("ampere_sgemm_...", "cudnn_infer_volta_...").
 * An SM number is followed by an optional 'a' or 'f' and then a character
 * that is not a letter or digit, or the end.
 */
static const struct {
	const char *word;
	int sm;			/* 0: digits follow the word */
} arch_words[] = {
	{ "sm", 0 }, { "cutlass_", 0 },
	{ "volta_", 70 }, { "turing_", 75 }, { "ampere_", 80 }, { "hopper_", 90 },
};

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool word_start(const char *name, const char *p)
{
	return p == name || !alnum(p[-1]);
}

/* The SM number of the digits at p ("90_", "100f(", "80"), or -1. */
static int sm_digits(const char *p)
{
	int sm = 0, n = 0;

	for (; *p >= '0' && *p <= '9' && n < 4; p++, n++)
		sm = sm * 10 + (*p - '0');
	if (n < 2 || n > 3 || sm < 30)
		return -1;
	if (*p == 'a' || *p == 'f')
		p++;
	return alnum(*p) ? -1 : sm;
}

int kname_sm_of(const char *name)
{
	if (!name)
		return -1;
	for (const char *p = name; *p; p++)
		for (size_t i = 0; i < ARRAY_SIZE(arch_words); i++) {
			size_t n = strlen(arch_words[i].word);
			int sm;

			if (strncmp(p, arch_words[i].word, n) || !word_start(name, p))
				continue;
			sm = arch_words[i].sm ? arch_words[i].sm : sm_digits(p + n);
			if (sm > 0)
				return sm;
		}
	return -1;
}

/* ---- kernel family ----------------------------------------------------- */

/* Names of memory operations, by their start (Kineto, Nsight Systems): no family. */
static const char *const memory_prefixes[] = {
	"Memcpy", "Memset", "[CUDA memcpy", "[CUDA memset", "[CUDA Unified Memory",
};

/*
 * ATen's generic launchers: the operation they run is a template argument
 * ("vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, ...>"),
 * so their family is their kind and that operation ("elementwise CUDAFunctor_add").
 */
static const struct {
	const char *name;
	const char *kind;
} launchers[] = {
	{ "vectorized_elementwise_kernel", "elementwise" },
	{ "unrolled_elementwise_kernel", "elementwise" },
	{ "elementwise_kernel", "elementwise" },
	{ "elementwise_kernel_with_index", "elementwise" },
	{ "reduce_kernel", "reduce" },
	{ "multi_tensor_apply_kernel", "multi_tensor_apply" },
	{ "index_elementwise_kernel", "index" },
};

/*
 * Words of a launcher's template arguments that name no operation: types,
 * the wrappers around an operation, and C++ syntax ("{lambda()#1}").
 */
static const char *const not_an_op[] = {
	"void", "bool", "char", "short", "int", "long", "unsigned", "signed", "float", "double",
	"half", "const", "true", "false", "auto", "Half", "BFloat16", "bfloat16", "bfloat16_t",
	"half_t", "Float8_e4m3fn", "Float8_e5m2", "complex", "int8_t", "int16_t", "int32_t",
	"int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "anonymous", "namespace",
	"lambda", "operator", "decltype", "nullptr", "gpu_kernel_impl", "gpu_kernel_impl_nocast",
	"gpu_index_kernel", "ReduceOp", "func_wrapper_t", "AUnaryFunctor", "BUnaryFunctor",
	"BinaryFunctor", "UnaryFunctor", "TensorListMetadata", "FusedOptimizerTensorListMetadata",
	"OpaqueType", "Array", "array", "TrivialOffsetCalculator", "OffsetCalculator",
	"LoadWithCast", "StoreWithCast", "LoadWithoutCast", "StoreWithoutCast",
	"TensorIteratorBase", "TensorIterator", "Scalar",
};

/*
 * '_'-separated words of a name that say how a kernel was built, not what it
 * does: dtypes, layouts and launch flags ("_v_bz_TNT" of nvjet, "_tn" of
 * cuBLAS). Words of a shape are matched by build_shape() below.
 */
static const char *const build_words[] = {
	"bf16", "fp16", "f16", "half", "fp32", "f32", "float", "tf32", "bfloat16", "fp64", "f64",
	"double", "fp8", "e4m3", "e5m2", "int8", "s8", "i8", "u8", "fp4", "e2m1",
	"tn", "nn", "nt", "tt", "TN", "NN", "NT", "TT", "v", "h", "bz", "splitK", "f2f", "stages",
};

/* Prefixes of a tile or launch shape: the rest of the word is digits and 'x' ("tilesize128x256x64"). */
static const char *const shape_prefixes[] = {
	"", "ldg", "align", "stage", "stages", "tilesize", "warpgroupsize", "warpsize", "sliced",
	"tensor",
};

#define IDENT_CHAR(c) (alnum(c) || (c) == '_' || (c) == '~')

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

static bool word_in(const char *w, size_t n, const char *const *set, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (word_is(w, n, set[i]))
			return true;
	return false;
}

/* True when w[0..n) is digits and 'x' with at least one digit: "128x256", "5x", "12". */
static bool shape_digits(const char *w, size_t n)
{
	bool digit = false;

	for (size_t i = 0; i < n; i++) {
		if (w[i] != 'x' && (w[i] < '0' || w[i] > '9'))
			return false;
		digit |= w[i] != 'x';
	}
	return digit;
}

static size_t digits(const char *w, size_t n)
{
	size_t i = 0;

	while (i < n && w[i] >= '0' && w[i] <= '9')
		i++;
	return i;
}

/* "sm90", "sm90a", "sm100f": an architecture. */
static bool arch_word(const char *w, size_t n)
{
	size_t d = n > 2 && !memcmp(w, "sm", 2) ? digits(w + 2, n - 2) : 0;

	return d && (2 + d == n || (3 + d == n && (w[n - 1] == 'a' || w[n - 1] == 'f')));
}

/* Triton's signature words: "0d1d2d3d4de" (digits and 'd' in turn, then maybe 'e'). */
static bool triton_signature(const char *w, size_t n)
{
	size_t i = 0;

	if (n && w[n - 1] == 'e')
		n--;
	while (i < n) {
		size_t d = digits(w + i, n - i);

		if (!d || i + d >= n || w[i + d] != 'd')
			return false;
		i += d + 1;
	}
	return n > 0;
}

/* A word of a name that says how the kernel was built, not what it does. */
static bool build_word(const char *w, size_t n)
{
	size_t d = digits(w, n);

	if (word_in(w, n, build_words, ARRAY_SIZE(build_words)) || arch_word(w, n) ||
	    triton_signature(w, n) || (n == 3 && strspn(w, "TN") >= 3) ||
	    (d && n == d + 3 && !memcmp(w + d, "cta", 3)))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(shape_prefixes); i++) {
		size_t p = strlen(shape_prefixes[i]);

		if (n > p && !memcmp(w, shape_prefixes[i], p) && shape_digits(w + p, n - p))
			return true;
	}
	return false;
}

/* Appends s[0..n) to the family being written, cut at size - 1; returns the new length. */
static size_t put(char *buf, size_t size, size_t len, const char *s, size_t n)
{
	if (len + 1 >= size)
		return len;
	if (n > size - 1 - len)
		n = size - 1 - len;
	memcpy(buf + len, s, n);
	buf[len + n] = '\0';
	return len + n;
}

/*
 * The name's own identifier, after "void " and the namespaces (an anonymous
 * one too): *n gets its length, the return value its start; *rest the text
 * after it ('<' of its template arguments, '(' of its parameters).
 */
static const char *head_of(const char *name, size_t *n, const char **rest)
{
	static const char anon[] = "(anonymous namespace)::";
	const char *p = !strncmp(name, "void ", 5) ? name + 5 : name;

	for (;;) {
		const char *w = p;

		while (!strncmp(p, anon, sizeof(anon) - 1))
			w = p += sizeof(anon) - 1;
		while (IDENT_CHAR(*p))
			p++;
		if (p > w && p[0] == ':' && p[1] == ':') {
			p += 2;
			continue;
		}
		*n = (size_t)(p - w);
		*rest = p;
		return w;
	}
}

/*
 * The first word of a launcher's template arguments that names an
 * operation: an identifier that is not a namespace or class qualifier
 * (followed by "::"), nor one of not_an_op; *n its length, NULL when none.
 */
static const char *launcher_op(const char *p, size_t *n)
{
	while (*p) {
		const char *w = p;

		if (!IDENT_CHAR(*p)) {
			p++;
			continue;
		}
		while (IDENT_CHAR(*p))
			p++;
		*n = (size_t)(p - w);
		if (*w >= '0' && *w <= '9')	/* a number, "3ul" */
			continue;
		if ((p[0] == ':' && p[1] == ':') || word_in(w, *n, not_an_op, ARRAY_SIZE(not_an_op)))
			continue;
		return w;
	}
	return NULL;
}

/* The identifier without the words build_word() knows; the identifier whole when none is left. */
static size_t strip_build_words(const char *w, size_t n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t k = i;

		while (k < n && w[k] != '_')
			k++;
		if (k > i && !build_word(w + i, k - i)) {
			if (len)
				len = put(buf, size, len, "_", 1);
			len = put(buf, size, len, w + i, k - i);
		}
		i = k + 1;
	}
	return len ? len : put(buf, size, 0, w, n);
}

size_t kname_short(const char *name, char *buf, size_t size)
{
	const char *w, *rest, *op;
	size_t n, opn, len;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (!name)
		return 0;
	w = head_of(name, &n, &rest);
	if (!n || (*rest != '<' && *rest != '(' && *rest))
		return put(buf, size, 0, name, strlen(name));
	len = put(buf, size, 0, w, n);
	if (*rest != '<' || !(op = launcher_op(rest, &opn)))
		return len;
	for (size_t i = 0; i < ARRAY_SIZE(launchers); i++)
		if (word_is(w, n, launchers[i].name)) {
			len = put(buf, size, len, " ", 1);
			return put(buf, size, len, op, opn);
		}
	if (n >= 8)
		return len;
	len = put(buf, size, len, "<", 1);
	len = put(buf, size, len, op, opn);
	return put(buf, size, len, ">", 1);
}

size_t kname_family(const char *name, char *buf, size_t size)
{
	enum kname_class cls;
	const char *w, *rest, *op;
	size_t n, opn, len;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (!name || kname_comm(name, NULL))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(memory_prefixes); i++)
		if (!strncmp(name, memory_prefixes[i], strlen(memory_prefixes[i])))
			return 0;
	cls = kname_class_of(name);
	if (cls != KNAME_OTHER)
		return put(buf, size, 0, kname_class_name(cls), strlen(kname_class_name(cls)));
	w = head_of(name, &n, &rest);
	if (!n)
		return put(buf, size, 0, name, strlen(name));
	for (size_t i = 0; *rest == '<' && i < ARRAY_SIZE(launchers); i++) {
		if (!word_is(w, n, launchers[i].name))
			continue;
		len = put(buf, size, 0, launchers[i].kind, strlen(launchers[i].kind));
		if ((op = launcher_op(rest, &opn))) {
			len = put(buf, size, len, " ", 1);
			len = put(buf, size, len, op, opn);
		}
		return len;
	}
	return strip_build_words(w, n, buf, size);
}
