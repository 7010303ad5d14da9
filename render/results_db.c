#include "render/results_db.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <csv.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/jtree.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/decision_text.h"

struct results_db {
	sqlite3 *db;
	char *path;
	bool migrated;		/* columns were added to the trials table: every row is stale */
};

/* One value to bind: text (NULL: null), a real (NaN: null) or an integer (-1: null). */
enum val_kind { V_TEXT, V_REAL, V_INT };

/*
 * The columns of the trials table, in order, and so of summary.csv and
 * summary.json: a later version adds columns at the end only, which is also
 * what ALTER TABLE ADD COLUMN does to a database an earlier version wrote.
 */
struct trial_col {
	const char *name;
	const char *sql;	/* its type in CREATE TABLE; an added column's is the first word */
	enum val_kind kind;
	size_t off;		/* of its field in struct trial_row */
};

#define COL(name, sql, kind, field) { name, sql, kind, offsetof(struct trial_row, field) }
static const struct trial_col trial_cols[] = {
	COL("id", "TEXT PRIMARY KEY", V_TEXT, id),
	COL("source", "TEXT", V_TEXT, source),
	COL("trial", "TEXT", V_TEXT, trial),
	COL("fingerprint", "TEXT", V_TEXT, fingerprint),
	COL("status", "TEXT NOT NULL", V_TEXT, status),
	COL("error", "TEXT", V_TEXT, error),
	COL("title", "TEXT", V_TEXT, title),
	COL("hypothesis", "TEXT", V_TEXT, hypothesis),
	COL("verdict", "TEXT", V_TEXT, verdict),
	COL("reason", "TEXT", V_TEXT, reason),
	COL("speedup", "REAL", V_REAL, speedup),
	COL("efficiency", "REAL", V_REAL, efficiency),
	COL("gpu_model", "TEXT", V_TEXT, gpu_model),
	COL("precision", "TEXT", V_TEXT, precision),
	COL("confounds", "TEXT", V_TEXT, confounds),
	COL("lost_compute_s", "REAL", V_REAL, lost_s[0]),
	COL("lost_exposed_comm_s", "REAL", V_REAL, lost_s[1]),
	COL("lost_memory_s", "REAL", V_REAL, lost_s[2]),
	COL("lost_idle_s", "REAL", V_REAL, lost_s[3]),
	COL("analysed_at", "TEXT", V_TEXT, analysed_at),
	COL("decision", "TEXT", V_TEXT, decision),
	COL("rent_gpu_model", "TEXT", V_TEXT, rent_gpu_model),
	COL("rent_lots", "INTEGER", V_INT, rent_lots),
	COL("rent_lot_gpus", "INTEGER", V_INT, rent_lot_gpus),
	COL("rent_window_days", "INTEGER", V_INT, rent_window_days),
	COL("rent_windows", "INTEGER", V_INT, rent_windows),
	COL("days_needed", "REAL", V_REAL, days_needed),
	COL("window_gpu_hours", "REAL", V_REAL, window_gpu_hours),
	COL("window_cost", "REAL", V_REAL, window_cost),
	COL("failure", "TEXT", V_TEXT, failure),
};
#undef COL
#define NTRIAL_COLS (sizeof(trial_cols) / sizeof(trial_cols[0]))

/* Column i's field of t: to read, then to write. */
static const void *field_of(const struct trial_row *t, size_t i)
{
	return (const char *)t + trial_cols[i].off;
}

static void *field_in(struct trial_row *t, size_t i)
{
	return (char *)t + trial_cols[i].off;
}

/* The schema (docs/batch.md) but the trials table (trial_cols): each trial's rows are replaced together. */
static const char schema[] =
	"PRAGMA journal_mode=DELETE;"
	"CREATE TABLE IF NOT EXISTS runs (trial_id TEXT NOT NULL, run TEXT, role TEXT,"
	" gpus INTEGER, status TEXT, strategy TEXT, precision TEXT, global_batch INTEGER,"
	" step_median_s REAL, step_p10_s REAL, step_p90_s REAL, samples_per_s REAL,"
	" tokens_per_s REAL, transport TEXT, link TEXT);"
	"CREATE TABLE IF NOT EXISTS gpus (trial_id TEXT NOT NULL, run TEXT, rank INTEGER,"
	" name TEXT, peak_memory_bytes INTEGER, compute_s REAL, exposed_comm_s REAL,"
	" memory_s REAL, idle_s REAL);"
	"CREATE TABLE IF NOT EXISTS confounds (trial_id TEXT NOT NULL, what TEXT,"
	" severity TEXT, baseline TEXT, candidate TEXT, message TEXT);"
	"CREATE TABLE IF NOT EXISTS findings (trial_id TEXT NOT NULL, severity TEXT, code TEXT,"
	" message TEXT, source TEXT);"
	"CREATE INDEX IF NOT EXISTS runs_trial ON runs (trial_id);"
	"CREATE INDEX IF NOT EXISTS gpus_trial ON gpus (trial_id);"
	"CREATE INDEX IF NOT EXISTS confounds_trial ON confounds (trial_id);"
	"CREATE INDEX IF NOT EXISTS findings_trial ON findings (trial_id);";

struct val {
	enum val_kind kind;
	const char *s;
	double d;
	int64_t i;
};

#define T(x) { .kind = V_TEXT, .s = (x) }
#define R(x) { .kind = V_REAL, .d = (x) }
#define I(x) { .kind = V_INT, .i = (x) }

static int db_error(struct results_db *db, struct diags *d)
{
	return diag_error(d, "report-write", &SRCPOS_FILE(db->path), "%s", sqlite3_errmsg(db->db));
}

/* Text as valid UTF-8 (core/utf8: U+FFFD for what is not), as SQLite and CSV readers expect. */
static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	struct buf tmp;
	size_t n = strlen(s);

	s = utf8_valid_text(s, &n, &tmp);
	sqlite3_bind_text(st, col, s, (int)n, SQLITE_TRANSIENT);
	buf_release(&tmp);
}

static void bind(sqlite3_stmt *st, int col, const struct val *v)
{
	if (v->kind == V_TEXT && v->s)
		bind_text(st, col, v->s);
	else if (v->kind == V_REAL && isfinite(v->d))
		sqlite3_bind_double(st, col, v->d);
	else if (v->kind == V_INT && v->i >= 0)
		sqlite3_bind_int64(st, col, v->i);
	else
		sqlite3_bind_null(st, col);
}

/* Runs sql with the n values bound in order. */
static int exec(struct results_db *db, const char *sql, const struct val *v, int n, struct diags *d)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(db, d);
	for (int i = 0; i < n; i++)
		bind(st, i + 1, &v[i]);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(db, d);
}

/* "CREATE TABLE IF NOT EXISTS trials (id TEXT PRIMARY KEY, ...)" */
static char *trials_create(void)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	buf_addstr(&b, "CREATE TABLE IF NOT EXISTS trials (");
	for (size_t i = 0; i < NTRIAL_COLS; i++)
		buf_addf(&b, "%s%s %s", i ? ", " : "", trial_cols[i].name, trial_cols[i].sql);
	buf_addstr(&b, ")");
	return buf_detach(&b);
}

/* Which columns of trial_cols the trials table has, into have[]. */
static int trials_columns(struct results_db *db, bool *have, struct diags *d)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->db, "PRAGMA table_info(trials)", -1, &st, NULL) != SQLITE_OK)
		return db_error(db, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);

		for (size_t i = 0; name && i < NTRIAL_COLS; i++)
			have[i] |= !strcmp(name, trial_cols[i].name);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(db, d);
}

/* Adds the columns an earlier version's trials table lacks, at the end, as it would have. */
static int trials_migrate(struct results_db *db, struct diags *d)
{
	bool have[NTRIAL_COLS] = { false };

	if (trials_columns(db, have, d) < 0)
		return -1;
	for (size_t i = 0; i < NTRIAL_COLS; i++) {
		const struct trial_col *c = &trial_cols[i];
		char *sql;
		int rc;

		if (have[i])
			continue;
		sql = xasprintf("ALTER TABLE trials ADD COLUMN %s %.*s", c->name,
				(int)strcspn(c->sql, " "), c->sql);
		rc = sqlite3_exec(db->db, sql, NULL, NULL, NULL);
		free(sql);
		if (rc != SQLITE_OK)
			return diag_error(d, "report-write", &SRCPOS_FILE(db->path),
					  "cannot add the column %s to the trials table of this database, "
					  "written by an earlier version: %s",
					  c->name, sqlite3_errmsg(db->db));
		db->migrated = true;
	}
	return 0;
}

static int create_tables(struct results_db *db, struct diags *d)
{
	char *trials = trials_create();
	int rc = sqlite3_exec(db->db, schema, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->db, trials, NULL, NULL, NULL);
	free(trials);
	if (rc != SQLITE_OK)
		return db_error(db, d);
	return trials_migrate(db, d);
}

static bool is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

struct results_db *results_db_open(const char *path, struct diags *d)
{
	struct results_db *db = xcalloc(1, sizeof(*db));

	db->path = xstrdup(path);
	if (is_link(path)) {
		diag_error(d, "report-write", &SRCPOS_FILE(path),
			   "is a symbolic link: not followed (batch writes only a database of its own)");
		results_db_close(db);
		return NULL;
	}
	/* NOFOLLOW as well: a link made between the check and the open is refused too. */
	if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW,
			    NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(db->db, 10000) != SQLITE_OK) {
		db_error(db, d);
		results_db_close(db);
		return NULL;
	}
	if (create_tables(db, d) < 0) {
		results_db_close(db);
		return NULL;
	}
	return db;
}

void results_db_close(struct results_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->db);
	free(db->path);
	free(db);
}

/* ---------------------------------------------------------------- trial rows */

/* The run a trial is judged by: the candidate, else the first run. */
static const struct run_result *main_run(const struct analysis *a)
{
	if (!a->nruns)
		return NULL;
	return a->cmp.valid ? &a->runs[a->cmp.candidate] : &a->runs[0];
}

static const char *gpu_model(const struct analysis *a)
{
	const struct run_result *r = main_run(a);

	for (size_t g = 0; r && g < r->ngpu; g++)
		if (r->gpu[g].name)
			return r->gpu[g].name;
	for (size_t i = 0; i < a->nruns; i++)
		for (size_t g = 0; g < a->runs[i].ngpu; g++)
			if (a->runs[i].gpu[g].name)
				return a->runs[i].gpu[g].name;
	return NULL;
}

static const char *run_precision(const struct run_result *r)
{
	if (!r)
		return NULL;
	if (r->precision_observed != DT_UNKNOWN)
		return dtype_name(r->precision_observed);
	return r->precision_declared;
}

/* "precision (blocking); global_batch (warning)"; NULL when none. */
static char *confound_summary(const struct analysis *a)
{
	struct buf b = BUF_INIT;

	if (!a->cmp.nconfounds)
		return NULL;
	buf_init(&b, 0);
	for (size_t i = 0; i < a->cmp.nconfounds; i++)
		buf_addf(&b, "%s%s (%s)", i ? "; " : "", confound_name(a->cmp.confounds[i].what),
			 confound_severity_name(a->cmp.confounds[i].severity));
	return buf_detach(&b);
}

/* The rental columns of a decision that rents (NULL, NaN and -1 already in t otherwise). */
static void rent_fields(struct trial_row *t, const struct decision *dc)
{
	const struct rent *r = &dc->rent;

	t->rent_gpu_model = r->gpu_model;
	t->rent_lots = r->lots;
	t->rent_lot_gpus = r->gpus;
	t->rent_window_days = r->window_days > 0 ? r->window_days : -1;
	t->rent_windows = r->window_days > 0 ? r->windows : -1;
	t->days_needed = dc->days_needed;
	t->window_gpu_hours = dc->window_gpu_hours;
	t->window_cost = dc->window_cost;
}

/* The decision's columns; its line's text is put in ar. */
static void decision_fields(struct trial_row *t, const struct decision *dc, struct arena *ar)
{
	struct buf line = BUF_INIT;

	if (!dc->present)
		return;
	buf_init(&line, 0);
	decision_line(&line, dc);
	t->decision = arena_strdup(ar, line.data);
	buf_release(&line);
	if (dc->rent.present)
		rent_fields(t, dc);
}

/* The trials row of r and its analysis a (NULL: it failed); strings in ar. */
static void trial_row_of(struct trial_row *t, const struct batch_record *r, const struct analysis *a,
			 struct arena *ar)
{
	const struct comparison *c = a ? &a->cmp : NULL;
	bool cmp = c && c->valid;
	char *conf = a ? confound_summary(a) : NULL;

	*t = (struct trial_row){
		.id = r->id, .source = r->source, .trial = r->trial, .fingerprint = r->fingerprint,
		.status = r->status, .error = r->error, .analysed_at = r->analysed_at,
		.failure = r->failure,
		.title = a ? a->title : NULL, .hypothesis = a ? hypothesis_name(a->hypothesis) : NULL,
		.verdict = cmp ? verdict_name(c->verdict) : NULL, .reason = cmp ? c->reason : NULL,
		.speedup = cmp ? c->speedup : NAN, .efficiency = cmp ? c->scaling_efficiency : NAN,
		.gpu_model = a ? gpu_model(a) : NULL, .precision = a ? run_precision(main_run(a)) : NULL,
		.confounds = conf ? arena_strdup(ar, conf) : NULL,
		.lost_s = { cmp ? c->attribution_s.compute : NAN, cmp ? c->attribution_s.exposed_comm : NAN,
			    cmp ? c->attribution_s.memory : NAN, cmp ? c->attribution_s.idle : NAN },
		.rent_lots = -1, .rent_lot_gpus = -1, .rent_window_days = -1, .rent_windows = -1,
		.days_needed = NAN, .window_gpu_hours = NAN, .window_cost = NAN,
	};
	free(conf);
	if (c)
		decision_fields(t, &c->decision, ar);
}

/* Column i of t, to bind. */
static struct val col_val(const struct trial_row *t, size_t i)
{
	switch (trial_cols[i].kind) {
	case V_TEXT:
		return (struct val)T(*(const char *const *)field_of(t, i));
	case V_REAL:
		return (struct val)R(*(const double *)field_of(t, i));
	default:
		return (struct val)I(*(const int64_t *)field_of(t, i));
	}
}

/* "id, source, ...": the columns of trial_cols, in its order. */
static void add_trial_columns(struct buf *b)
{
	for (size_t i = 0; i < NTRIAL_COLS; i++)
		buf_addf(b, "%s%s", i ? ", " : "", trial_cols[i].name);
}

/* "INSERT INTO trials (id, source, ...) VALUES (?, ?, ...)": by name, whatever the table's order. */
static char *trials_insert(void)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	buf_addstr(&b, "INSERT INTO trials (");
	add_trial_columns(&b);
	buf_addstr(&b, ") VALUES (");
	for (size_t i = 0; i < NTRIAL_COLS; i++)
		buf_addstr(&b, i ? ", ?" : "?");
	buf_addstr(&b, ")");
	return buf_detach(&b);
}

static int put_trial(struct results_db *db, const struct batch_record *r, const struct analysis *a,
		     struct diags *d)
{
	struct arena ar = { 0 };
	struct trial_row t;
	struct val v[NTRIAL_COLS];
	char *sql = trials_insert();
	int rc;

	trial_row_of(&t, r, a, &ar);
	for (size_t i = 0; i < NTRIAL_COLS; i++)
		v[i] = col_val(&t, i);
	rc = exec(db, sql, v, (int)NTRIAL_COLS, d);
	free(sql);
	arena_release(&ar);
	return rc;
}

static const char *run_role(const struct analysis *a, size_t i)
{
	if (!a->cmp.valid)
		return NULL;
	return i == a->cmp.baseline ? "baseline" : i == a->cmp.candidate ? "candidate" : NULL;
}

static int put_gpus(struct results_db *db, const char *id, const struct run_result *r, struct diags *d)
{
	static const char sql[] = "INSERT INTO gpus VALUES (?,?,?,?,?,?,?,?,?)";

	for (size_t g = 0; g < r->ngpu; g++) {
		const struct gpu_result *x = &r->gpu[g];
		struct val v[] = {
			T(id), T(r->name), I(x->rank), T(x->name), I(x->peak_memory),
			R(x->step_s.compute), R(x->step_s.exposed_comm), R(x->step_s.memory),
			R(x->step_s.idle),
		};

		if (exec(db, sql, v, (int)(sizeof(v) / sizeof(v[0])), d) < 0)
			return -1;
	}
	return 0;
}

static int put_runs(struct results_db *db, const char *id, const struct analysis *a, struct diags *d)
{
	static const char sql[] = "INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];
		struct val v[] = {
			T(id), T(r->name), T(run_role(a, i)), I(r->gpus), T(run_status_name(r->status)),
			T(r->strategy), T(run_precision(r)), I(r->global_batch), R(r->step_median_s),
			R(r->step_p10_s), R(r->step_p90_s), R(r->samples_per_s), R(r->tokens_per_s),
			T(r->transport), T(r->link),
		};

		if (exec(db, sql, v, (int)(sizeof(v) / sizeof(v[0])), d) < 0 ||
		    put_gpus(db, id, r, d) < 0)
			return -1;
	}
	return 0;
}

static int put_confounds(struct results_db *db, const char *id, const struct comparison *c,
			 struct diags *d)
{
	static const char sql[] = "INSERT INTO confounds VALUES (?,?,?,?,?,?)";

	for (size_t i = 0; i < c->nconfounds; i++) {
		const struct confound *x = &c->confounds[i];
		struct val v[] = {
			T(id), T(confound_name(x->what)), T(confound_severity_name(x->severity)),
			T(x->baseline), T(x->candidate), T(x->message),
		};

		if (exec(db, sql, v, (int)(sizeof(v) / sizeof(v[0])), d) < 0)
			return -1;
	}
	return 0;
}

static int put_findings(struct results_db *db, const char *id, const struct analysis *a,
			struct diags *d)
{
	static const char sql[] = "INSERT INTO findings VALUES (?,?,?,?,?)";

	for (size_t i = 0; i < a->nfindings; i++) {
		const struct finding *x = &a->findings[i];
		struct val v[] = {
			T(id), T(diag_severity_name(x->severity)), T(x->code), T(x->message), T(x->source),
		};

		if (exec(db, sql, v, (int)(sizeof(v) / sizeof(v[0])), d) < 0)
			return -1;
	}
	return 0;
}

static const char *const deletes[] = {
	"DELETE FROM trials WHERE id = ?", "DELETE FROM runs WHERE trial_id = ?",
	"DELETE FROM gpus WHERE trial_id = ?", "DELETE FROM confounds WHERE trial_id = ?",
	"DELETE FROM findings WHERE trial_id = ?",
};

static int put_all(struct results_db *db, const struct batch_record *r, const struct analysis *a,
		   struct diags *d)
{
	struct val id[] = { T(r->id) };

	for (size_t i = 0; i < sizeof(deletes) / sizeof(deletes[0]); i++)
		if (exec(db, deletes[i], id, 1, d) < 0)
			return -1;
	if (put_trial(db, r, a, d) < 0)
		return -1;
	if (!a)
		return 0;
	if (put_runs(db, r->id, a, d) < 0 || put_confounds(db, r->id, &a->cmp, d) < 0)
		return -1;
	return put_findings(db, r->id, a, d);
}

int results_db_put(struct results_db *db, const struct batch_record *r, const struct analysis *a,
		   struct diags *d)
{
	if (sqlite3_exec(db->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(db, d);
	if (put_all(db, r, a, d) < 0) {
		sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_error(db, d);
		sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

bool results_db_current(struct results_db *db, const struct batch_record *r)
{
	static const char sql[] =
		"SELECT 1 FROM trials WHERE id = ? AND fingerprint IS ? AND analysed_at IS ?";
	struct val v[] = { T(r->id), T(r->fingerprint), T(r->analysed_at) };
	sqlite3_stmt *st;
	bool found;

	if (db->migrated || sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	for (int i = 0; i < 3; i++)
		bind(st, i + 1, &v[i]);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* ---------------------------------------------------------------- reading rows */

static const char *col_text(sqlite3_stmt *st, int i, struct arena *a)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? arena_strdup(a, (const char *)s) : NULL;
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void read_row(sqlite3_stmt *st, struct arena *a, struct trial_row *t)
{
	for (size_t i = 0; i < NTRIAL_COLS; i++) {
		int null = sqlite3_column_type(st, (int)i) == SQLITE_NULL;

		switch (trial_cols[i].kind) {
		case V_TEXT:
			*(const char **)field_in(t, i) = col_text(st, (int)i, a);
			break;
		case V_REAL:
			*(double *)field_in(t, i) = col_real(st, (int)i);
			break;
		default:
			*(int64_t *)field_in(t, i) = null ? -1 : sqlite3_column_int64(st, (int)i);
			break;
		}
	}
}

/* "SELECT id, source, ... FROM trials ORDER BY id": the columns of trial_cols, in its order. */
static char *trials_select(void)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	buf_addstr(&b, "SELECT ");
	add_trial_columns(&b);
	buf_addstr(&b, " FROM trials ORDER BY id");
	return buf_detach(&b);
}

long results_db_trials(struct results_db *db, struct arena *a, struct trial_row **rows, struct diags *d)
{
	sqlite3_stmt *st;
	size_t n = 0, cap = 0;
	struct trial_row *r = NULL;
	char *sql = trials_select();
	int rc = sqlite3_prepare_v2(db->db, sql, -1, &st, NULL);

	free(sql);
	if (rc != SQLITE_OK)
		return db_error(db, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		xgrow(&r, &cap, n + 1, sizeof(*r));
		read_row(st, a, &r[n++]);
	}
	sqlite3_finalize(st);
	*rows = arena_alloc(a, (n ? n : 1) * sizeof(**rows));
	if (n)
		memcpy(*rows, r, n * sizeof(*r));
	free(r);
	if (rc != SQLITE_DONE)
		return db_error(db, d);
	return (long)n;
}

/* ---------------------------------------------------------------- summaries */

/*
 * Column i of t as text (NULL: unknown), a number written into buf; *num is
 * the number of a real column, else NaN, *integer that of an integer column, else -1.
 */
static const char *row_field(const struct trial_row *t, size_t i, char *buf, size_t size, double *num,
			     int64_t *integer)
{
	*num = NAN;
	*integer = -1;
	switch (trial_cols[i].kind) {
	case V_TEXT:
		return *(const char *const *)field_of(t, i);
	case V_REAL:
		*num = *(const double *)field_of(t, i);
		if (!isfinite(*num))
			return NULL;
		json_format_double(*num, buf, size);
		return buf;
	default:
		*integer = *(const int64_t *)field_of(t, i);
		if (*integer < 0)
			return NULL;
		snprintf(buf, size, "%" PRId64, *integer);
		return buf;
	}
}

static void csv_text(FILE *f, const char *s)
{
	struct buf tmp;
	size_t n = strlen(s);

	s = utf8_valid_text(s, &n, &tmp);
	csv_fwrite(f, s, n);
	buf_release(&tmp);
}

int results_write_csv(const struct trial_row *rows, size_t n, FILE *f)
{
	char num[64];
	double v;
	int64_t k;

	for (size_t i = 0; i < NTRIAL_COLS; i++) {
		if (i)
			fputc(',', f);
		csv_fwrite(f, trial_cols[i].name, strlen(trial_cols[i].name));
	}
	fputc('\n', f);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < NTRIAL_COLS; i++) {
			const char *s = row_field(&rows[r], i, num, sizeof(num), &v, &k);

			if (i)
				fputc(',', f);
			if (s)
				csv_text(f, s);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int results_write_json(const struct trial_row *rows, size_t n, FILE *f)
{
	yajl_gen g = json_new();
	char num[64];
	double v;
	int64_t k;
	int rc;

	yajl_gen_map_open(g);
	json_key(g, "trials");
	yajl_gen_array_open(g);
	for (size_t r = 0; r < n; r++) {
		yajl_gen_map_open(g);
		for (size_t i = 0; i < NTRIAL_COLS; i++) {
			const char *s = row_field(&rows[r], i, num, sizeof(num), &v, &k);

			json_key(g, trial_cols[i].name);
			if (!isnan(v))
				json_num(g, v);
			else if (k >= 0)
				json_int(g, k);
			else
				json_str(g, s);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	rc = json_flush(g, f, true);
	yajl_gen_free(g);
	return rc;
}

/* ---------------------------------------------------------------- batch.json */

static const char *const record_keys[] = {
	"id", "source", "trial", "fingerprint", "status", "error", "analysed_at", "failure",
};

/* The integer keys of a record: -1 where absent (a record of an earlier version). */
static const char *const record_ints[] = { "timeout_s", "memory_limit_mib" };

static const char **record_field(struct batch_record *r, size_t i)
{
	const char **f[] = {
		&r->id, &r->source, &r->trial, &r->fingerprint, &r->status, &r->error, &r->analysed_at,
		&r->failure,
	};

	return f[i];
}

static int64_t *record_int(struct batch_record *r, size_t i)
{
	int64_t *f[] = { &r->timeout_s, &r->memory_limit_mib };

	return f[i];
}

int batch_record_write(const struct batch_record *r, FILE *f)
{
	struct batch_record copy = *r;
	yajl_gen g = json_new();
	int rc;

	yajl_gen_map_open(g);
	json_key(g, "scaleaudit_batch");
	json_int(g, 1);
	for (size_t i = 0; i < sizeof(record_keys) / sizeof(record_keys[0]); i++) {
		json_key(g, record_keys[i]);
		json_str(g, *record_field(&copy, i));
	}
	for (size_t i = 0; i < sizeof(record_ints) / sizeof(record_ints[0]); i++) {
		int64_t v = *record_int(&copy, i);

		json_key(g, record_ints[i]);
		if (v >= 0)
			json_int(g, v);
		else
			yajl_gen_null(g);
	}
	yajl_gen_map_close(g);
	rc = json_flush(g, f, true);
	yajl_gen_free(g);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	buf_init(&b, 1 << 20);	/* a record is a few hundred bytes */
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && buf_add(&b, chunk, n))
		;
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

static int record_fields(const struct jnode *root, const char *path, struct batch_record *r,
			 struct diags *d)
{
	if (!root || root->type != J_OBJ || !jtree_member(root, "scaleaudit_batch"))
		return diag_error(d, "report-write", &SRCPOS_FILE(path), "not a batch result record");
	for (size_t i = 0; i < sizeof(record_keys) / sizeof(record_keys[0]); i++) {
		const struct jnode *v = jtree_member(root, record_keys[i]);

		if (v && v->type != J_STR && v->type != J_NULL)
			return diag_error(d, "report-write", &SRCPOS_BYTE(path, v->at),
					  "%s: a string expected, not %s", record_keys[i],
					  jtree_type_name(v->type));
		*record_field(r, i) = v && v->type == J_STR ? v->s : NULL;
	}
	for (size_t i = 0; i < sizeof(record_ints) / sizeof(record_ints[0]); i++) {
		const struct jnode *v = jtree_member(root, record_ints[i]);

		if (v && v->type != J_NULL && !(v->type == J_NUM && v->is_int && v->i >= 0))
			return diag_error(d, "report-write", &SRCPOS_BYTE(path, v->at),
					  "%s: a whole number >= 0 expected", record_ints[i]);
		*record_int(r, i) = v && v->type == J_NUM ? v->i : -1;
	}
	if (!r->id || !r->status || (strcmp(r->status, "ok") && strcmp(r->status, "error")))
		return diag_error(d, "report-write", &SRCPOS_FILE(path),
				  "a record needs an id and a status of ok or error");
	return 0;
}

int batch_record_read(const char *path, struct arena *a, struct batch_record *r, struct diags *d)
{
	size_t len = 0;
	char *buf = slurp(path, &len);
	const char *err = NULL;
	int64_t at = 0;
	const struct jnode *root;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!buf)
		return diag_error(d, "report-write", &SRCPOS_FILE(path), "cannot read: %s", strerror(errno));
	root = jtree_parse(a, buf, len, &err, &at);
	free(buf);
	if (!root)
		return diag_error(d, "report-write", &SRCPOS_BYTE(path, at), "%s", err);
	rc = record_fields(root, path, r, d);
	return rc;
}
