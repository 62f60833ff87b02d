// SPDX-License-Identifier: MIT
/*
 * pg_rows: sessions into and out of the PostgreSQL store.  A session is
 * written whole in one transaction, its rows pipelined; reads take one
 * snapshot.  Every value is a statement parameter.
 */
#include "store/pg_internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

/*
 * Statements in flight before their results are read: enough that a session's
 * rows cross a slow network in a few round trips, few enough that the
 * results never fill a socket buffer while we are still sending.
 */
#define PG_PIPELINE_DEPTH 64

/*
 * Sync the pipeline and read every queued result: 0 or the first failure
 * (those after it are PGRES_PIPELINE_ABORTED).  Two NULLs in a row mean the
 * connection is gone and nothing more will come.
 */
static int pipeline_drain(struct pg_db *p)
{
	int rc = 0, nulls = 0;

	p->queued = 0;
	if (!PQpipelineSync(p->conn))
		return pcost_pg_fail(p, NULL, PG_WHAT_WRITE);
	while (nulls < 2) {
		PGresult *r = PQgetResult(p->conn);

		if (!r) {
			nulls++;
			continue;
		}
		nulls = 0;
		switch (PQresultStatus(r)) {
		case PGRES_PIPELINE_SYNC:
			PQclear(r);
			return rc;
		case PGRES_COMMAND_OK:
		case PGRES_PIPELINE_ABORTED:
			PQclear(r);
			break;
		default:
			if (!rc)
				rc = pcost_pg_fail(p, r, PG_WHAT_WRITE);
			else
				PQclear(r);
		}
	}
	return rc ? rc : pcost_pg_fail(p, NULL, PG_WHAT_WRITE);
}

/* A statement without rows: queued when the connection is in pipeline mode, else run now. */
static int pg_send(struct pg_db *p, const char *sql, const struct pg_params *a)
{
	if (PQpipelineStatus(p->conn) == PQ_PIPELINE_OFF)
		return pcost_pg_run(p, sql, a, NULL, PG_WHAT_WRITE);
	if (!PQsendQueryParams(p->conn, sql, a->n, NULL, a->val, a->len, a->fmt, 0))
		return pcost_pg_fail(p, NULL, PG_WHAT_WRITE);
	return ++p->queued < PG_PIPELINE_DEPTH ? 0 : pipeline_drain(p);
}

/* pg_send(), then a's own texts freed (libpq copied them). */
static int pg_put(struct pg_db *p, const char *sql, struct pg_params *a)
{
	int rc = pg_send(p, sql, a);

	par_release(a);
	return rc;
}

void pcost_pg_par_cols(struct pg_params *a, const struct pcost_table *t, const void *rec,
		       bool rowid)
{
	pcost_for_each_col(c, t) {
		struct pcost_val v;

		if (!pcost_col_inserted(c, rowid))
			continue;
		pcost_col_get(c, rec, &v);
		switch (v.t) {
		case PCOST_VAL_NULL:
			par_text(a, NULL);
			break;
		case PCOST_VAL_INT:
			if (c->type == PCOST_SQL_BOOL)
				par_bool(a, v.i);
			else
				par_i64(a, v.i);
			break;
		case PCOST_VAL_REAL:
			par_f64(a, v.r);
			break;
		case PCOST_VAL_TEXT:
			par_text(a, v.s);
			if (v.own)
				a->own[a->nown++] = v.own;
			break;
		}
	}
}

int pcost_pg_get_cols(const PGresult *r, int row, int k, const struct pcost_table *t, void *rec)
{
	int bad = -1, first = k;

	pcost_for_each_col(c, t) {
		struct pcost_val v = { 0 };

		if (!pcost_col_selected(c))
			continue;
		if (PQgetisnull(r, row, k)) {
			v.t = PCOST_VAL_NULL;
		} else if (c->type == PCOST_SQL_REAL) {
			v.t = PCOST_VAL_REAL;
			v.r = get_f64(r, row, k);
		} else if (c->type == PCOST_SQL_TEXT) {
			v.t = PCOST_VAL_TEXT;
			v.s = PQgetvalue(r, row, k);
		} else {
			v.t = PCOST_VAL_INT;
			v.i = c->type == PCOST_SQL_BOOL ? get_bool(r, row, k) : get_i64(r, row, k);
		}
		if (pcost_col_set(c, rec, &v) && bad < 0)
			bad = k - first;
		k++;
	}
	return bad;
}

/* The INSERT of t's columns after its keys, nextra more after them (rowid: the id too). */
static char *insert_sql(const struct pcost_table *t, bool rowid, const char *extra, size_t nextra)
{
	return pcost_sql_insert(t, "INSERT", true, rowid, extra, nextra);
}

/* One row: its keys (t->nkeys of them), then rec's columns of t. */
static int put_row(struct pg_db *p, const struct pcost_table *t, const int64_t *keys, size_t nkeys,
		   const void *rec)
{
	char *sql = insert_sql(t, true, NULL, 0);
	struct pg_params a = { 0 };
	int rc;

	for (size_t k = 0; k < nkeys; k++)
		par_i64(&a, keys[k]);
	pcost_pg_par_cols(&a, t, rec, true);
	rc = pg_put(p, sql, &a);
	free(sql);
	return rc;
}

/* ---- writing ---------------------------------------------------------------------- */

static int insert_session(struct pg_db *p, const struct pcost_session *s)
{
	return put_row(p, &pcost_session_cols, NULL, 0, s);
}

static int insert_config(struct pg_db *p, const struct pcost_session *s, size_t i)
{
	const int64_t keys[] = { s->id, (int64_t)i };

	return put_row(p, &pcost_config_cols, keys, ARRAY_SIZE(keys), &s->configs[i]);
}

static int insert_sample(struct pg_db *p, const struct pcost_session *s, size_t i, size_t j)
{
	const int64_t keys[] = { s->id, (int64_t)i, (int64_t)j };

	return put_row(p, &pcost_sample_cols, keys, ARRAY_SIZE(keys), &s->configs[i].samples[j]);
}

/* The session's figures and every run's values (no row for a value the run did not give). */
static int insert_metrics(struct pg_db *p, const struct pcost_session *s)
{
	static const char val_sql[] = "INSERT INTO run_metric (session_id, config_idx, seq,"
				      " metric_idx, value) VALUES ($1,$2,$3,$4,$5)";
	int rc = 0;

	for (size_t k = 0; k < s->nmetrics && !rc; k++) {
		const int64_t keys[] = { s->id, (int64_t)k };

		rc = put_row(p, &pcost_metric_cols, keys, ARRAY_SIZE(keys), &s->metrics[k]);
	}
	for (size_t i = 0; i < s->nconfigs && !rc; i++)
		for (size_t j = 0; j < s->configs[i].nsamples && !rc; j++)
			for (size_t k = 0; k < s->nmetrics && !rc; k++) {
				const double *v = s->configs[i].samples[j].metrics;
				struct pg_params a = { 0 };

				if (!v || isnan(v[k]))
					continue;
				par_i64(&a, s->id);
				par_i64(&a, (int64_t)i);
				par_i64(&a, (int64_t)j);
				par_i64(&a, (int64_t)k);
				par_f64(&a, v[k]);
				rc = pg_put(p, val_sql, &a);
			}
	return rc;
}

static int insert_series(struct pg_db *p, const struct pcost_session *s, size_t i)
{
	const struct pcost_counter_series *c = &s->series[i];
	char *sql = insert_sql(&pcost_series_cols, true, "n, ns", 2);
	struct pg_params a = { 0 };
	int rc;

	if (c->n > (size_t)INT32_MAX / sizeof(double)) {
		snprintf(p->base.err, sizeof(p->base.err),
			 "counter series %zu is too long to store", i);
		free(sql);
		return -EFBIG;
	}
	par_i64(&a, s->id);
	par_i64(&a, (int64_t)i);
	pcost_pg_par_cols(&a, &pcost_series_cols, c, true);
	par_i64(&a, (int64_t)c->n);
	par_bytes(&a, c->ns, c->n * sizeof(double));
	rc = pg_put(p, sql, &a);
	free(sql);
	return rc;
}

/*
 * All of s under its id, inside the caller's transaction, pipelined: one
 * round trip per PG_PIPELINE_DEPTH rows instead of one per row.
 */
static int insert_whole(struct pg_db *p, const struct pcost_session *s)
{
	bool piped = PQenterPipelineMode(p->conn);
	int rc = insert_session(p, s), last;

	for (size_t i = 0; i < s->nconfigs && !rc; i++) {
		rc = insert_config(p, s, i);
		for (size_t j = 0; j < s->configs[i].nsamples && !rc; j++)
			rc = insert_sample(p, s, i, j);
	}
	if (!rc)
		rc = insert_metrics(p, s);
	for (size_t i = 0; i < s->nseries && !rc; i++)
		rc = insert_series(p, s, i);
	if (piped) {
		last = pipeline_drain(p);
		rc = rc ? rc : last;
		PQexitPipelineMode(p->conn);
	}
	return rc;
}

/* A new session id from the identity sequence: unique whoever else writes. */
static int next_id(struct pg_db *p, int64_t *id)
{
	PGresult *r = NULL;
	int rc = pcost_pg_run(p, "SELECT nextval(pg_get_serial_sequence('session', 'id'))", NULL,
			      &r, PG_WHAT_WRITE);

	if (!rc) {
		*id = get_i64(r, 0, 0);
		PQclear(r);
	}
	return rc;
}

/*
 * The sink's session: its id is taken now, and the whole session is written
 * by pcost_pg_finish_session() in one transaction, so nothing travels to the server
 * while the measurement runs and a reader never sees it half written.
 */
int pcost_pg_begin_session(struct pcost_db *db, struct pcost_session *s)
{
	return next_id(pg_of(db), &s->id);
}

int pcost_pg_finish_session(struct pcost_db *db, const struct pcost_session *s)
{
	struct pg_db *p = pg_of(db);
	int rc = pcost_pg_tx_begin(p);

	return rc ? rc : pcost_pg_tx_end(p, insert_whole(p, s));
}

int pcost_pg_import(struct pcost_db *db, struct pcost_session *ss, size_t n)
{
	struct pg_db *p = pg_of(db);
	int64_t *old_ids = xcalloc(n ? n : 1, sizeof(*old_ids));
	int rc;

	for (size_t k = 0; k < n; k++)
		old_ids[k] = ss[k].id;
	rc = pcost_pg_tx_begin(p);
	if (!rc) {
		for (size_t k = 0; k < n && !rc; k++) {
			rc = next_id(p, &ss[k].id);
			if (!rc)
				rc = insert_whole(p, &ss[k]);
		}
		rc = pcost_pg_tx_end(p, rc);
	}
	if (rc)
		for (size_t k = 0; k < n; k++)
			ss[k].id = old_ids[k];
	free(old_ids);
	return rc;
}

/* ---- reading ---------------------------------------------------------------------- */

int pcost_pg_select(struct pg_db *p, const struct pcost_table *t, const char *lead,
		    const char *tail, int64_t id, PGresult **r)
{
	char *sql = pcost_sql_select(t, lead, tail);
	struct pg_params a = { 0 };
	int rc;

	if (id >= 0)
		par_i64(&a, id);
	rc = pcost_pg_run(p, sql, &a, r, PG_WHAT_READ);
	free(sql);
	return rc;
}

/* One statement with the session id as $1. */
static int select_of(struct pg_db *p, const char *sql, int64_t id, PGresult **r)
{
	struct pg_params a = { 0 };

	par_i64(&a, id);
	return pcost_pg_run(p, sql, &a, r, PG_WHAT_READ);
}

static int load_session_row(struct pg_db *p, int64_t id, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_session_cols, NULL, " FROM session WHERE id = $1", id,
				 &r),
	    bad;

	if (rc)
		return rc;
	if (PQntuples(r) != 1) {
		snprintf(p->base.err, sizeof(p->base.err),
			 "no session %lld in '%s'; see 'probecost history'", (long long)id,
			 p->base.path);
		PQclear(r);
		return -ENOENT;
	}
	if ((bad = pcost_pg_get_cols(r, 0, 0, &pcost_session_cols, s)) >= 0) {
		snprintf(p->base.err, sizeof(p->base.err), "session %lld has an unknown kind '%s'",
			 (long long)id, PQgetvalue(r, 0, bad));
		rc = -EBADMSG;
	}
	s->id = id;
	PQclear(r);
	return rc;
}

static int load_configs(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_config_cols, "idx",
				 " FROM config WHERE session_id = $1 ORDER BY idx", s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r); k++) {
		if (get_i64(r, k, 0) != (int64_t)s->nconfigs) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: configuration %zu is missing", (long long)s->id,
				 s->nconfigs);
			rc = -EBADMSG;
			break;
		}
		pcost_pg_get_cols(r, k, 1, &pcost_config_cols,
				  pcost_session_add_config(s, NULL, NULL, NULL, NULL, NULL));
	}
	PQclear(r);
	return rc;
}

static int load_samples(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_sample_cols, "config_idx",
				 " FROM run_sample WHERE session_id = $1 ORDER BY config_idx, seq",
				 s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r); k++) {
		struct pcost_run_sample x = { 0 };
		int64_t ci = get_i64(r, k, 0);

		if (ci < 0 || (uint64_t)ci >= s->nconfigs) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: a sample of no configuration", (long long)s->id);
			rc = -EBADMSG;
			break;
		}
		/* A fault word this probecost does not know reads as not recorded. */
		pcost_pg_get_cols(r, k, 1, &pcost_sample_cols, &x);
		pcost_config_add_sample(&s->configs[ci], &x);
	}
	PQclear(r);
	return rc;
}

/* The session's figures, then each run's values (samples loaded first). */
static int load_metrics(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_metric_cols, "idx",
				 " FROM metric WHERE session_id = $1 ORDER BY idx", s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r) && !rc; k++) {
		if (get_i64(r, k, 0) != (int64_t)s->nmetrics) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: figure %zu is missing", (long long)s->id,
				 s->nmetrics);
			rc = -EBADMSG;
		} else {
			struct pcost_session_metric m = { 0 };

			pcost_pg_get_cols(r, k, 1, &pcost_metric_cols, &m);
			pcost_session_add_metric(s, m.name, m.unit, m.better);
			free(m.name);
			free(m.unit);
		}
	}
	PQclear(r);
	if (rc || !s->nmetrics ||
	    (rc = select_of(p,
			    "SELECT config_idx, seq, metric_idx, value"
			    " FROM run_metric WHERE session_id = $1",
			    s->id, &r)))
		return rc;
	for (int k = 0; k < PQntuples(r) && !rc; k++)
		if (pcost_session_set_metric(s, (size_t)get_i64(r, k, 0), (size_t)get_i64(r, k, 1),
					     (size_t)get_i64(r, k, 2), get_f64(r, k, 3)) < 0) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: a figure's value of no run", (long long)s->id);
			rc = -EBADMSG;
		}
	PQclear(r);
	return rc;
}

static int load_series(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_series_cols, NULL,
				 ", n, ns FROM series WHERE session_id = $1 ORDER BY idx", s->id,
				 &r),
	    at = (int)pcost_sql_nselected(&pcost_series_cols);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r) && !rc; k++) {
		int64_t n = get_i64(r, k, at);
		size_t bytes = 0;
		unsigned char *ns =
			PQunescapeBytea((const unsigned char *)PQgetvalue(r, k, at + 1), &bytes);

		if (!ns || n < 0 || (uint64_t)bytes != (uint64_t)n * sizeof(double)) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: counter series %zu has %zu bytes for %lld samples",
				 (long long)s->id, s->nseries, bytes, (long long)n);
			rc = -EBADMSG;
		} else {
			/* PQunescapeBytea's buffer is malloc'd (aligned for double); it holds
			 * the doubles as stored, and add_series copies them. */
			// cppcheck-suppress invalidPointerCast
			const double *v = (const double *)ns;

			pcost_pg_get_cols(r, k, 0, &pcost_series_cols,
					  pcost_session_add_series(s, NULL, NULL, NULL, 0, NULL, v,
								   (size_t)n));
		}
		PQfreemem(ns);
	}
	PQclear(r);
	return rc;
}

int pcost_pg_load(struct pcost_db *db, int64_t id, struct pcost_session *s)
{
	struct pg_db *p = pg_of(db);
	int rc;

	pcost_session_init(s, PCOST_SESSION_RUN);
	/* One snapshot for the four reads. */
	rc = pcost_pg_run(p, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", NULL, NULL,
			  PG_WHAT_READ);
	if (!rc)
		rc = load_session_row(p, id, s);
	if (!rc)
		rc = load_configs(p, s);
	if (!rc)
		rc = load_samples(p, s);
	if (!rc)
		rc = load_metrics(p, s);
	if (!rc)
		rc = load_series(p, s);
	pcost_pg_rollback(p, 0);
	if (rc)
		pcost_session_release(s);
	return rc;
}

int pcost_pg_latest(struct pcost_db *db, int64_t *id)
{
	struct pg_db *p = pg_of(db);
	PGresult *r = NULL;
	int rc = pcost_pg_run(p, "SELECT max(id) FROM session", NULL, &r, PG_WHAT_READ);

	if (rc)
		return rc;
	if (PQgetisnull(r, 0, 0)) {
		snprintf(p->base.err, sizeof(p->base.err), "no sessions in '%s' yet", p->base.path);
		rc = -ENOENT;
	} else {
		*id = get_i64(r, 0, 0);
	}
	PQclear(r);
	return rc;
}

/*
 * history's rows: the SQLite query (read.c) in PostgreSQL's words.  Distinct
 * workloads and monitors are listed in the order their first configuration
 * comes, as SQLite lists them.
 */
static const char list_sql[] =
	"SELECT s.id, s.kind, s.started, s.complete, s.kernel,"
	" (SELECT string_agg(w, ',' ORDER BY f) FROM (SELECT workload AS w, min(idx) AS f"
	"   FROM config WHERE session_id = s.id GROUP BY workload) x),"
	" coalesce((SELECT string_agg(m, ',' ORDER BY f) FROM (SELECT monitor AS m, min(idx) AS f"
	"   FROM config WHERE session_id = s.id GROUP BY monitor) x),"
	"  (SELECT string_agg(i, ',' ORDER BY f) FROM (SELECT interface AS i, min(idx) AS f"
	"   FROM series WHERE session_id = s.id GROUP BY interface) x)),"
	" (SELECT count(*) FROM config WHERE session_id = s.id),"
	" (SELECT count(*) FROM run_sample WHERE session_id = s.id)"
	"  + (SELECT coalesce(sum(n), 0) FROM series WHERE session_id = s.id),"
	" (SELECT count(*) FROM series WHERE session_id = s.id),"
	" s.cmdline"
	" FROM session s WHERE ($1::bigint = 0 OR s.started >= $1)"
	" AND ($2::bigint = 0 OR s.started <= $2)"
	" AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM config WHERE session_id = s.id"
	"   AND workload = $3))"
	" AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM config WHERE session_id = s.id"
	"   AND monitor = $4))"
	" AND ($5::text IS NULL OR starts_with(s.kernel, $5))"
	" AND ($6::text IS NULL OR s.kind = $6)"
	" ORDER BY s.id";

int pcost_pg_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		  size_t *n)
{
	struct pg_db *p = pg_of(db);
	struct pg_params a = { 0 };
	struct pcost_db_row *out;
	PGresult *r = NULL;
	size_t len;
	int rc;

	*rows = NULL;
	*n = 0;
	par_i64(&a, f->since);
	par_i64(&a, f->until);
	par_text(&a, f->workload);
	par_text(&a, f->monitor);
	par_text(&a, f->kernel);
	par_text(&a, f->kind >= 0 ? pcost_session_kind_name(f->kind) : NULL);
	if ((rc = pcost_pg_run(p, list_sql, &a, &r, PG_WHAT_READ)))
		return rc;
	len = (size_t)PQntuples(r);
	out = xcalloc(len ? len : 1, sizeof(*out));
	for (int k = 0; k < (int)len; k++) {
		struct pcost_db_row *w = &out[k];

		w->id = get_i64(r, k, 0);
		if (pcost_session_kind_parse(PQgetvalue(r, k, 1), &w->kind))
			w->kind = PCOST_SESSION_RUN;
		w->started = get_i64(r, k, 2);
		w->complete = get_bool(r, k, 3);
		w->kernel = dup_text(r, k, 4);
		w->workloads = dup_text(r, k, 5);
		w->monitors = dup_text(r, k, 6);
		w->nconfigs = (size_t)get_i64(r, k, 7);
		w->nsamples = (size_t)get_i64(r, k, 8);
		w->nseries = (size_t)get_i64(r, k, 9);
		w->cmdline = dup_text(r, k, 10);
	}
	PQclear(r);
	*rows = out;
	*n = len;
	return 0;
}
