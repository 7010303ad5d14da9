/*
 * gpu: the one table of GPU models the tool knows (name spellings, memory,
 * compute capability, architecture, interconnect, peak dense TFLOP/s per
 * dtype) and the lookup from a name as a log spells it to a row.
 *
 * A row is one device as the driver shows it: an MI250X package is two
 * devices, so its row holds one GCD's share. Unknown numbers are NaN (or -1
 * for byte counts), never 0. Rows are static: nothing here is freed.
 */
#ifndef CORE_GPU_H
#define CORE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* The GPU-to-GPU link a model is built around. */
enum gpu_link {
	GPU_LINK_PCIE,		/* PCIe only (generation in link_gen) */
	GPU_LINK_NVLINK,	/* NVLink through NVSwitch or on the board */
	GPU_LINK_NVLINK_BRIDGE,	/* NVLink bridge between 2-4 PCIe cards */
	GPU_LINK_XGMI,		/* AMD Infinity Fabric */
};

/* Peak dense (no 2:4 sparsity) throughput, TFLOP/s (TOP/s for int8); NaN unknown. */
struct gpu_peaks {
	double fp64;		/* tensor/matrix units where the vendor has them */
	double fp32;		/* plain fp32, not tf32 */
	double tf32;
	double bf16;		/* fp32 accumulate */
	double fp16;		/* fp32 accumulate */
	double fp8;
	double fp4;
	double int8;
};

struct gpu_model {
	const char *name;		/* short, unique: "H100 SXM", "B200", "MI300X" */
	const char *const *spellings;	/* as nvidia-smi, torch, collect_env, rocm-smi print them; NULL-ended */
	const char *family;		/* the word a bare name ends with ("H100"); NULL none */
	const char *vendor;		/* "NVIDIA" | "AMD" */
	const char *arch;		/* "Hopper", "CDNA 3" */
	int cc_major, cc_minor;		/* as deviceProperties report it (AMD: 9.4 for gfx942) */
	const char *isa;		/* "sm_90", "gfx942" */
	int64_t memory_nominal;		/* bytes: the vendor's GB x 1e9 */
	int64_t memory_reported;	/* bytes the driver reports (nvidia-smi / totalGlobalMem); -1 unknown */
	double memory_gbps;		/* memory bandwidth, GB/s */
	enum gpu_link link;
	int link_gen;			/* NVLink / PCIe / Infinity Fabric generation */
	double link_gbps;		/* nominal GPU-to-GPU bandwidth per GPU and direction, GB/s */
	int mesh_links;			/* links per GPU of a fully connected mesh (no switch); 0: none */
	double mesh_link_gbps;		/* one such link, one direction, GB/s; 0 without a mesh */
	struct gpu_peaks peak;
};

/* Every row, and how many. */
const struct gpu_model *gpu_models(size_t *n);

/*
 * The model a name stands for, or NULL when unknown or ambiguous.
 * First a spelling or short name (case and runs of spaces ignored, a leading
 * "NVIDIA", "Tesla" or "AMD" optional, a name nvidia-smi cut with "..."
 * matching the one spelling it begins); otherwise a name that ends with a
 * family word ("NVIDIA H100") picks among that family's rows by
 * memory_bytes (the device's total memory; -1 unknown): a row fits when the
 * memory is within -5%..+12% of its nominal memory, and exactly one must.
 */
const struct gpu_model *gpu_lookup(const char *name, int64_t memory_bytes);

/* A model's peak dense TFLOP/s for a dtype (fp8 variants share fp8); NaN unknown. */
double gpu_peak_tflops(const struct gpu_model *m, enum dtype t);

/*
 * The one capacity rule of every command: a fit is judged against the memory
 * the driver reports when it is known (reported >= 0: what the trial's own
 * GPU said; else the row's memory_reported), else against the nominal
 * memory of the row. -1 when neither m nor reported is known.
 */
int64_t gpu_capacity_bytes(const struct gpu_model *m, int64_t reported);

/*
 * The same capacity as every command prints it, into out (n bytes, 64 are
 * enough), returned: "141 GB nominal (150.8 GB / 140.4 GiB reported)",
 * "80 GB nominal" when nothing reported is known, "23.7 GB / 22.1 GiB
 * reported" without a row, "unknown" without either.
 */
const char *gpu_capacity_text(char *out, size_t n, const struct gpu_model *m, int64_t reported);

/*
 * The one rule for the bandwidth a GPU's collectives get among `gpus` GPUs of
 * one node, GB/s per direction: through a switch (NVLink with NVSwitch) or a
 * bridge or PCIe, link_gbps to any peer; in a fully connected mesh (AMD
 * Infinity Fabric), one link per peer, so min(gpus - 1, mesh_links) links of
 * mesh_link_gbps: one link for 2 GPUs, the platform's aggregate for 8.
 */
double gpu_link_gbps_for(const struct gpu_model *m, int gpus);

/* "PCIe", "NVLink", "NVLink bridge", "Infinity Fabric" */
const char *gpu_link_name(enum gpu_link l);

#endif
