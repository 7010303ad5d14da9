#include "render/smoke_text.h"

#include <math.h>
#include <stdint.h>

#include "core/json.h"

static void cuda_version_text(int v, char buf[32])
{
	if (v < 0)
		snprintf(buf, 32, "unknown");
	else
		snprintf(buf, 32, "%d.%d", v / 1000, v % 1000 / 10);
}

static void value_text(double v, char buf[32])
{
	if (isnan(v))
		snprintf(buf, 32, "-");
	else
		snprintf(buf, 32, "%.*f", fabs(v) >= 100 ? 0 : 1, v);
}

int smoke_write_text(const struct smoke_report *rep, FILE *f)
{
	char ver[32], val[32];

	cuda_version_text(rep->driver_version, ver);
	fprintf(f, "driver: %s, CUDA %s%s%s\n", rep->library[0] ? rep->library : "none", ver,
		rep->kernel_module[0] ? ", kernel module " : "", rep->kernel_module);
	fprintf(f, "%-16s %-6s %9s  %-8s %s\n", "item", "status", "value", "unit", "detail");
	for (size_t i = 0; i < rep->n; i++) {
		const struct smoke_result *r = &rep->results[i];

		value_text(r->value, val);
		fprintf(f, "%-16s %-6s %9s  %-8s %s%s\n", r->item, smoke_status_name(r->status), val,
			r->unit[0] ? r->unit : "-", r->detail,
			r->status == SMOKE_FAIL && !r->essential ? " (not essential)" : "");
	}
	fprintf(f, "%s\n", rep->exit_status ? "smoke check failed: an essential item failed" : "smoke check passed");
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

/* A count or size; negative (unknown) is null. */
static void json_count(yajl_gen g, int64_t v)
{
	if (v < 0)
		yajl_gen_null(g);
	else
		json_int(g, v);
}

static void json_device(yajl_gen g, const struct smoke_device *d)
{
	char cc[16];

	snprintf(cc, sizeof cc, "%d.%d", d->info.cc_major, d->info.cc_minor);
	yajl_gen_map_open(g);
	json_key(g, "ordinal"); json_int(g, d->info.ordinal);
	json_key(g, "name"); json_str(g, d->info.name);
	json_key(g, "model"); json_str(g, d->model);
	json_key(g, "cc"); json_str(g, cc);
	json_key(g, "arch"); json_str(g, d->arch);
	json_key(g, "blackwell"); yajl_gen_bool(g, d->blackwell);
	json_key(g, "sms"); json_int(g, d->info.sms);
	json_key(g, "total_bytes"); json_int(g, d->info.total_bytes);
	json_key(g, "free_bytes");
	json_count(g, d->info.free_bytes);
	json_key(g, "sm_clock_mhz");
	json_count(g, d->info.clock_khz < 0 ? -1 : d->info.clock_khz / 1000);
	json_key(g, "memory_bus_bits");
	json_count(g, d->info.bus_width_bits);
	json_key(g, "memory_gbps"); json_num(g, d->info.mem_gbps);
	yajl_gen_map_close(g);
}

static void json_result(yajl_gen g, const struct smoke_result *r)
{
	yajl_gen_map_open(g);
	json_key(g, "item"); json_str(g, r->item);
	json_key(g, "essential"); yajl_gen_bool(g, r->essential);
	json_key(g, "status"); json_str(g, smoke_status_name(r->status));
	json_key(g, "value"); json_num(g, r->value);
	json_key(g, "unit"); json_str(g, r->unit[0] ? r->unit : NULL);
	json_key(g, "detail"); json_str(g, r->detail);
	yajl_gen_map_close(g);
}

void smoke_json(const struct smoke_report *rep, yajl_gen g)
{
	char ver[32];

	cuda_version_text(rep->driver_version, ver);
	yajl_gen_map_open(g);
	json_key(g, "driver");
	yajl_gen_map_open(g);
	json_key(g, "library"); json_str(g, rep->library[0] ? rep->library : NULL);
	json_key(g, "cuda_version"); json_str(g, rep->driver_version < 0 ? NULL : ver);
	json_key(g, "driver_api_version");
	json_count(g, rep->driver_version);
	json_key(g, "kernel_module"); json_str(g, rep->kernel_module[0] ? rep->kernel_module : NULL);
	yajl_gen_map_close(g);
	json_key(g, "devices");
	yajl_gen_array_open(g);
	for (int i = 0; i < rep->ndev; i++)
		json_device(g, &rep->dev[i]);
	yajl_gen_array_close(g);
	json_key(g, "items");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < rep->n; i++)
		json_result(g, &rep->results[i]);
	yajl_gen_array_close(g);
	json_key(g, "exit_status"); json_int(g, rep->exit_status);
	json_key(g, "error"); json_str(g, rep->error[0] ? rep->error : NULL);
	yajl_gen_map_close(g);
}

int smoke_write_json(const struct smoke_report *rep, FILE *f, bool pretty)
{
	yajl_gen g = json_new();
	int rc;

	smoke_json(rep, g);
	rc = json_flush(g, f, pretty);
	yajl_gen_free(g);
	return rc;
}
