/*
 * Unit tests of render/results_db: a trial's rows from the fixture analysis
 * (counts and values read back with SQLite itself), a trial put again
 * replacing its rows, a failed trial with no run rows, the up-to-date test,
 * a decision's columns, a trials table of the previous version migrated,
 * summary.csv's quoting, and batch.json written, read back and refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "render/results_db.h"
#include "tests/unit/fixture_analysis.h"

struct fx {
	char dir[64];
	char *db_path;
	struct results_db *db;
	struct diags d;
	struct analysis a;
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_batch_db.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->db_path = xasprintf("%s/results.sqlite", f->dir);
	f->db = results_db_open(f->db_path, &f->d);
	assert_non_null(f->db);
	fixture_analysis_ddp(&f->a);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char *rec = xasprintf("%s/batch.json", f->dir);

	results_db_close(f->db);
	unlink(f->db_path);
	unlink(rec);
	rmdir(f->dir);
	free(rec);
	free(f->db_path);
	fixture_analysis_release(&f->a);
	diags_release(&f->d);
	free(f);
	return 0;
}

/* The one integer a query gives, through SQLite itself. */
static long long count(const struct fx *f, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long n;

	assert_int_equal(sqlite3_open(f->db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static const struct batch_record ok_record = {
	.id = "t--ddp", .source = "trials", .trial = "trials/ddp", .fingerprint = "0123456789abcdef",
	.status = "ok", .analysed_at = "2026-12-01T06:00:00Z",
};

static void test_put_rows(void **state)
{
	struct fx *f = *state;
	size_t gpus = 0;

	for (size_t i = 0; i < f->a.nruns; i++)
		gpus += f->a.runs[i].ngpu;
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials"), 1);
	assert_int_equal(count(f, "SELECT count(*) FROM runs"), (long long)f->a.nruns);
	assert_int_equal(count(f, "SELECT count(*) FROM gpus"), (long long)gpus);
	assert_int_equal(count(f, "SELECT count(*) FROM confounds"), (long long)f->a.cmp.nconfounds);
	assert_int_equal(count(f, "SELECT count(*) FROM findings"), (long long)f->a.nfindings);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE verdict = 'confirmed' AND status = 'ok'"
				  " AND error IS NULL AND gpu_model = 'NVIDIA B200'"), 1);
	assert_int_equal(count(f, "SELECT count(*) FROM runs WHERE role = 'candidate' AND gpus = 2"), 1);
	assert_int_equal(count(f, "SELECT round(speedup * 1e6) FROM trials"),
			 (long long)round(f->a.cmp.speedup * 1e6));
	assert_int_equal(count(f, "SELECT peak_memory_bytes FROM gpus WHERE run = 'b200-1gpu'"), FX_BASE_PEAK);
	assert_int_equal(count(f, "SELECT round(step_median_s * 1e6) FROM runs WHERE role = 'baseline'"),
			 (long long)round(FX_BASE_MEDIAN_S * 1e6));
	assert_int_equal(f->d.count, 0);
}

static void test_put_again_replaces(void **state)
{
	struct fx *f = *state;
	struct batch_record failed = ok_record;

	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM runs"), (long long)f->a.nruns);
	failed.status = "error";
	failed.error = "killed by signal 11 (Segmentation fault)";
	assert_int_equal(results_db_put(f->db, &failed, NULL, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE status = 'error' AND verdict IS NULL"
				  " AND error = 'killed by signal 11 (Segmentation fault)'"), 1);
	assert_int_equal(count(f, "SELECT count(*) FROM runs"), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM gpus"), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM findings"), 0);
}

static void test_current(void **state)
{
	struct fx *f = *state;
	struct batch_record other = ok_record;

	assert_false(results_db_current(f->db, &ok_record));
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_true(results_db_current(f->db, &ok_record));
	other.fingerprint = "fedcba9876543210";
	assert_false(results_db_current(f->db, &other));
	other = ok_record;
	other.analysed_at = "2026-12-02T00:00:00Z";
	assert_false(results_db_current(f->db, &other));
}

/* Without a target: what is rented, but no window, days, hours or cost. */
static void test_decision_columns(void **state)
{
	struct fx *f = *state;
	struct decision *dc = &f->a.cmp.decision;

	*dc = (struct decision){
		.present = true, .run = "b200-2gpu", .samples_per_s = 376.946019, .target = -1,
		.rent = { .present = true, .gpu_model = "B200", .gpus = 2, .lots = 1, .window_days = -1,
			  .windows = -1, .run_gpus = 2, .concurrent_runs = 1 },
		.variants = 1, .days_needed = NAN, .window_gpu_hours = NAN, .window_cost = NAN,
		.gpu_hours_per_million_samples = 2e6 / 376.946019 / 3600, .cost_per_million_samples = NAN,
	};
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE decision = 'Rent 1 lot of 2x B200: lowest"
				  " cost per sample, 1.47 GPU-hours per million samples at 376.9 samples/s; no target"
				  " in trial.ini, no window' AND rent_gpu_model = 'B200' AND rent_lots = 1"
				  " AND rent_lot_gpus = 2 AND rent_window_days IS NULL AND rent_windows IS NULL"
				  " AND days_needed IS NULL AND window_gpu_hours IS NULL AND window_cost IS NULL"), 1);
	/* nothing rented: the line says why, every rental column is NULL */
	dc->rent.present = false;
	dc->why = "the runs differ in workload";
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE decision = 'Rent nothing yet: the runs differ"
				  " in workload' AND rent_gpu_model IS NULL AND rent_lots IS NULL"
				  " AND rent_lot_gpus IS NULL"), 1);
	dc->present = false;
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE decision IS NULL"), 1);
}

/* The trials table as the previous version wrote it, with one row of ok_record. */
static const char old_schema[] =
	"CREATE TABLE trials (id TEXT PRIMARY KEY, source TEXT, trial TEXT,"
	" fingerprint TEXT, status TEXT NOT NULL, error TEXT, title TEXT, hypothesis TEXT,"
	" verdict TEXT, reason TEXT, speedup REAL, efficiency REAL, gpu_model TEXT,"
	" precision TEXT, confounds TEXT, lost_compute_s REAL, lost_exposed_comm_s REAL,"
	" lost_memory_s REAL, lost_idle_s REAL, analysed_at TEXT);"
	"INSERT INTO trials (id, fingerprint, status, analysed_at)"
	" VALUES ('t--ddp', '0123456789abcdef', 'ok', '2026-12-01T06:00:00Z');";

static void test_old_table_migrated(void **state)
{
	struct fx *f = *state;
	sqlite3 *db;

	results_db_close(f->db);
	unlink(f->db_path);
	assert_int_equal(sqlite3_open(f->db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, old_schema, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	f->db = results_db_open(f->db_path, &f->d);
	assert_non_null(f->db);
	assert_int_equal(count(f, "SELECT count(*) FROM pragma_table_info('trials')"), 30);
	assert_int_equal(count(f, "SELECT cid FROM pragma_table_info('trials') WHERE name = 'decision'"), 20);
	assert_int_equal(count(f, "SELECT cid FROM pragma_table_info('trials') WHERE name = 'window_cost'"), 28);
	assert_int_equal(count(f, "SELECT cid FROM pragma_table_info('trials') WHERE name = 'failure'"), 29);
	/* its row is the same trial, fingerprint and time, but lacks the new columns: not current */
	assert_false(results_db_current(f->db, &ok_record));
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trials WHERE gpu_model = 'NVIDIA B200'"), 1);
	/* opened again, nothing is added and the row is current */
	results_db_close(f->db);
	f->db = results_db_open(f->db_path, &f->d);
	assert_non_null(f->db);
	assert_true(results_db_current(f->db, &ok_record));
	assert_int_equal(f->d.count, 0);
}

static void test_csv_quoting(void **state)
{
	struct fx *f = *state;
	struct arena ar = { 0 };
	struct trial_row *rows;
	char *out = NULL;
	size_t len = 0;
	FILE *m;

	f->a.title = "a \"b\", c";
	assert_int_equal(results_db_put(f->db, &ok_record, &f->a, &f->d), 0);
	assert_int_equal(results_db_trials(f->db, &ar, &rows, &f->d), 1);
	assert_string_equal(rows[0].title, "a \"b\", c");
	assert_null(rows[0].error);
	assert_true(isnan(rows[0].lost_s[0]) == !isfinite(f->a.cmp.attribution_s.compute));
	m = open_memstream(&out, &len);
	assert_int_equal(results_write_csv(rows, 1, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "\"id\",\"source\",\"trial\",\"fingerprint\",\"status\",\"error\",\"title\""));
	assert_non_null(strstr(out, "\n\"t--ddp\",\"trials\",\"trials/ddp\",\"0123456789abcdef\",\"ok\",,"
				    "\"a \"\"b\"\", c\",\"step-time\",\"confirmed\","));
	assert_int_equal(out[len - 1], '\n');
	free(out);
	arena_release(&ar);
}

static void write_file(const char *path, const char *text)
{
	FILE *w = fopen(path, "w");

	assert_non_null(w);
	fputs(text, w);
	fclose(w);
}

static void test_record(void **state)
{
	struct fx *f = *state;
	char *path = xasprintf("%s/batch.json", f->dir);
	struct batch_record r = ok_record, back;
	struct arena ar = { 0 };
	struct buf line = BUF_INIT;
	FILE *w;

	r.status = "error";
	r.error = "ran past the 600 s limit";
	w = fopen(path, "w");
	assert_int_equal(batch_record_write(&r, w), 0);
	fclose(w);
	assert_int_equal(batch_record_read(path, &ar, &back, &f->d), 0);
	assert_string_equal(back.id, r.id);
	assert_string_equal(back.trial, r.trial);
	assert_string_equal(back.fingerprint, r.fingerprint);
	assert_string_equal(back.status, "error");
	assert_string_equal(back.error, "ran past the 600 s limit");
	assert_string_equal(back.analysed_at, r.analysed_at);

	write_file(path, "{\"scaleaudit_batch\": 1, \"id\": 5, \"status\": \"ok\"}");
	assert_int_equal(batch_record_read(path, &ar, &back, &f->d), -1);
	write_file(path, "{\"id\": \"x\", \"status\": \"ok\"}");
	assert_int_equal(batch_record_read(path, &ar, &back, &f->d), -1);
	write_file(path, "{\"scaleaudit_batch\": 1, \"id\": \"x\", \"status\": \"maybe\"}");
	assert_int_equal(batch_record_read(path, &ar, &back, &f->d), -1);
	assert_int_equal(f->d.count, 3);
	buf_init(&line, 0);
	diag_format(&f->d.items[0], &line);
	assert_string_equal(strstr(line.data, "batch.json"), "batch.json: byte 30: id: a string expected, not a number");
	buf_reset(&line);
	diag_format(&f->d.items[1], &line);
	assert_string_equal(strstr(line.data, "batch.json"), "batch.json: not a batch result record");
	buf_reset(&line);
	diag_format(&f->d.items[2], &line);
	assert_string_equal(strstr(line.data, "batch.json"),
			    "batch.json: a record needs an id and a status of ok or error");
	buf_release(&line);
	arena_release(&ar);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_put_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_put_again_replaces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_current, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decision_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_table_migrated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
