/*
 * batch_find: the trials of `scaleaudit batch`, as ingest/discover.h finds
 * them, each with the operand it was found under.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/batch.h"
#include "cli/cli.h"
#include "core/xalloc.h"

int batch_find(char *const *paths, int n, struct batch_trials *out)
{
	struct diags d = DIAGS_INIT;
	int rc = 0;

	discovery_init(&out->dv);
	for (int i = 0; i < n; i++) {
		size_t before = out->dv.n;

		if (discover(&out->dv, (const char *const *)&paths[i], 1, &d) < 0)
			rc = -1;
		out->sources = xrealloc(out->sources, (out->dv.n ? out->dv.n : 1) * sizeof(*out->sources));
		for (size_t k = before; k < out->dv.n; k++)
			out->sources[k] = paths[i];
	}
	print_diags(&d);
	diags_release(&d);
	out->n = out->dv.n;
	out->v = xcalloc(out->n ? out->n : 1, sizeof(*out->v));
	for (size_t k = 0; k < out->n; k++) {
		const struct found_trial *f = &out->dv.trials[k];

		out->v[k] = (struct batch_trial){
			.id = f->id, .source = out->sources[k], .location = f->archive ? f->where : f->path,
			.fingerprint = f->fingerprint_hex, .dv = &out->dv, .found = f,
		};
	}
	return rc;
}

void batch_trials_release(struct batch_trials *t)
{
	discovery_release(&t->dv);
	free(t->sources);
	free(t->v);
	t->v = NULL;
	t->sources = NULL;
	t->n = 0;
}
