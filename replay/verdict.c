#include "replay/verdict.h"

#include <math.h>
#include <string.h>

#include "core/gpu.h"

static const char *const verdict_names[RV_COUNT] = {
	[RV_NOT_RUN] = "not-run", [RV_CONFIRMED] = "confirmed", [RV_DIFFERS] = "differs",
	[RV_PROJECTED] = "projected",
};

const char *replay_verdict_name(enum replay_verdict v)
{
	return v < RV_COUNT ? verdict_names[v] : "not-run";
}

enum replay_verdict replay_verdict_from_name(const char *s)
{
	for (int v = 0; s && v < RV_COUNT; v++)
		if (!strcmp(s, verdict_names[v]))
			return (enum replay_verdict)v;
	return RV_NOT_RUN;
}

const char *replay_strdup(struct replay *r, const char *s)
{
	return s ? arena_strdup(&r->arena, s) : NULL;
}

void replay_init(struct replay *r, const struct plan *p, const char *source)
{
	memset(r, 0, sizeof(*r));
	r->source = replay_strdup(r, source);
	r->run = replay_strdup(r, p->run);
	r->logged_gpu = replay_strdup(r, p->gpu);
	r->logged_gpu_memory = p->gpu_memory;
	r->device_index = -1;
	r->device_memory = -1;
	r->logged_step_s = p->step_s;
	r->projected_step_s = NAN;
	r->n = p->n;
	r->k = arena_alloc(&r->arena, (p->n ? p->n : 1) * sizeof(*r->k));
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_kernel *k = &p->k[i];

		r->k[i] = (struct replay_kernel){
			.name = replay_strdup(r, k->name), .cls = k->cls, .shape = replay_strdup(r, k->shape),
			.dtype = k->dtype, .bytes = k->bytes, .calls_per_step = k->calls_per_step,
			.share = k->share, .method = plan_method_name(k->method), .guessed = k->guessed,
			.logged_median_s = k->logged_median_s, .replayed_median_s = NAN,
			.replayed_p10_s = NAN, .replayed_p90_s = NAN, .reps = -1, .ratio = NAN,
			.verdict = RV_NOT_RUN, .cause = replay_strdup(r, k->why_not),
		};
	}
}

void replay_release(struct replay *r)
{
	arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

bool replay_same_model(const char *device, int64_t device_mem, const char *logged, int64_t logged_mem)
{
	const struct gpu_model *a, *b;

	if (!device || !logged)
		return false;
	a = gpu_lookup(device, device_mem);
	b = gpu_lookup(logged, logged_mem);
	if (a || b)
		return a == b;
	return !strcmp(device, logged);
}

enum replay_verdict replay_verdict_of(double logged, double replayed, bool same_model, bool guessed,
				      const char **cause)
{
	double ratio = replayed / logged;

	*cause = NULL;
	if (!(logged > 0) || !(replayed > 0))
		return RV_NOT_RUN;
	if (!same_model)
		return RV_PROJECTED;
	if (fabs(ratio - 1) <= REPLAY_TOLERANCE)
		return RV_CONFIRMED;
	*cause = guessed ? "a shape or dtype the planner guessed" :
		 ratio > 1 ? "clocks (power or thermal limit) or another library version" :
		 "another library version, or the trial's GPU ran slower (clocks, contention)";
	return RV_DIFFERS;
}

void replay_finish(struct replay *r)
{
	double saved = 0;
	bool projected = false;

	r->same_model = replay_same_model(r->device, r->device_memory, r->logged_gpu,
					  r->logged_gpu_memory);
	for (size_t i = 0; i < r->n; i++) {
		struct replay_kernel *k = &r->k[i];
		const char *cause;

		if (!(k->replayed_median_s > 0))
			continue;
		k->ratio = k->replayed_median_s / k->logged_median_s;
		k->verdict = replay_verdict_of(k->logged_median_s, k->replayed_median_s, r->same_model,
					       k->guessed, &cause);
		k->cause = cause;
		if (k->verdict != RV_PROJECTED || k->cls == CRIT_COLLECTIVE)
			continue;
		projected = true;
		saved += k->calls_per_step * k->logged_median_s * (1 - k->ratio);
	}
	r->projected_step_s = projected ? r->logged_step_s - saved : NAN;
}

const char *replay_driver_version(const char *line, char *out, size_t n)
{
	static const char mark[] = "Kernel Module";
	const char *p = line ? strstr(line, mark) : NULL;
	size_t len;

	if (!p)
		return NULL;
	p += sizeof(mark) - 1;
	p += strspn(p, " \t");
	if (!strncmp(p, "for ", 4)) {	/* "Kernel Module for aarch64  575.57.08" */
		p += 4;
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	len = strspn(p, "0123456789.");
	if (!len || len >= n || !strchr("0123456789", *p))
		return NULL;
	memcpy(out, p, len);
	out[len] = 0;
	return out;
}
