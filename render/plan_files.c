#include "render/plan_files.h"

#include <math.h>

void plan_files_init(struct plan_files *pf)
{
	*pf = (struct plan_files){
		.expected_speedup = NAN, .target_samples = -1, .target_tokens = -1,
		.gpu_hour_price = NAN, .memory_reserve_gb = NAN, .micro_batch = -1,
		.seq_len = -1, .seed = -1, .checkpoint_interval_s = NAN,
		.checkpoint_write_s = NAN, .mtbf_s = NAN, .profile_active = 7,
	};
}

int plan_write_dir(const struct plan_files *pf, const char *dir, unsigned flags, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(dir);

	return diag_error(d, "plan-write", &pos, "writing a plan is not built yet");
}

int plan_write_skeleton(const char *dir, unsigned flags, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(dir);

	return diag_error(d, "plan-write", &pos, "writing a trial skeleton is not built yet");
}
