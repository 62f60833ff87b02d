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
static int pg_put(struct pg_db *p, const char *sql, const struct pg_params *a)
{
	if (PQpipelineStatus(p->conn) == PQ_PIPELINE_OFF)
		return pcost_pg_run(p, sql, a, NULL, PG_WHAT_WRITE);
	if (!PQsendQueryParams(p->conn, sql, a->n, NULL, a->val, a->len, a->fmt, 0))
		return pcost_pg_fail(p, NULL, PG_WHAT_WRITE);
	return ++p->queued < PG_PIPELINE_DEPTH ? 0 : pipeline_drain(p);
}

/* ---- writing ---------------------------------------------------------------------- */

static int insert_session(struct pg_db *p, const struct pcost_session *s)
{
	static const char sql[] =
		"INSERT INTO session (id, kind, started, cmdline, version, env_json, options_json,"
		" seed, tsc_hz, complete, stored, kernel)"
		" VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)";
	char *kernel = pcost_env_json_kernel(s->env_json);
	struct pg_params a = { 0 };
	int rc;

	par_i64(&a, s->id);
	par_text(&a, pcost_session_kind_name(s->kind));
	par_i64(&a, s->started);
	par_text(&a, s->cmdline);
	par_text(&a, s->version);
	par_text(&a, s->env_json);
	par_text(&a, s->options_json);
	par_i64(&a, (int64_t)s->seed);
	par_f64(&a, s->tsc_hz);
	par_bool(&a, s->complete);
	par_i64(&a, (int64_t)time(NULL));
	par_text(&a, kernel);
	rc = pg_put(p, sql, &a);
	free(kernel);
	return rc;
}

static int insert_config(struct pg_db *p, const struct pcost_session *s, size_t i)
{
	static const char sql[] = "INSERT INTO config (session_id, idx, workload, workload_args,"
				  " monitor, variant, unit, expected_events, threads, placement)"
				  " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)";
	const struct pcost_config *c = &s->configs[i];
	struct pg_params a = { 0 };

	par_i64(&a, s->id);
	par_i64(&a, (int64_t)i);
	par_text(&a, c->workload);
	par_text(&a, c->workload_args);
	par_text(&a, c->monitor);
	par_text(&a, c->variant);
	par_text(&a, c->unit);
	par_i64(&a, c->expected_events);
	par_i64(&a, c->threads);
	par_text(&a, c->placement);
	return pg_put(p, sql, &a);
}

static int insert_sample(struct pg_db *p, const struct pcost_session *s, size_t i, size_t j)
{
	static const char sql[] =
		"INSERT INTO run_sample (session_id, config_idx, seq, block, ord, warmup, failed,"
		" wait_status, fail_reason, scale, wall_ns, user_ns, sys_ns, maxrss_kb, minflt,"
		" majflt, nvcsw, nivcsw, has_report, events, timed_ns, monitor_events, other_cpu_ns,"
		" steal_ns, optimized, fault, self_check, note, service_user_ns, service_sys_ns)"
		" VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,"
		"$21,$22,$23,$24,$25,$26,$27,$28,$29,$30)";
	const struct pcost_run_sample *r = &s->configs[i].samples[j];
	char why[sizeof(r->fail_reason) + 1];
	struct pg_params a = { 0 };

	snprintf(why, sizeof(why), "%.*s", (int)sizeof(r->fail_reason), r->fail_reason);
	par_i64(&a, s->id);
	par_i64(&a, (int64_t)i);
	par_i64(&a, (int64_t)j);
	par_i64(&a, r->block);
	par_i64(&a, r->order);
	par_bool(&a, r->warmup);
	par_bool(&a, r->failed);
	par_i64(&a, r->wait_status);
	par_text(&a, why);
	par_f64(&a, r->scale);
	/* Unsigned 64-bit values keep their bit pattern in bigint, as in SQLite. */
	par_i64(&a, (int64_t)r->wall_ns);
	par_i64(&a, (int64_t)r->user_ns);
	par_i64(&a, (int64_t)r->sys_ns);
	par_i64(&a, r->maxrss_kb);
	par_i64(&a, r->minflt);
	par_i64(&a, r->majflt);
	par_i64(&a, r->nvcsw);
	par_i64(&a, r->nivcsw);
	par_bool(&a, r->has_report);
	par_i64(&a, (int64_t)r->events);
	par_i64(&a, (int64_t)r->timed_ns);
	par_i64(&a, r->monitor_events);
	if (r->has_busy) {
		par_i64(&a, (int64_t)r->other_cpu_ns);
		par_i64(&a, (int64_t)r->steal_ns);
	} else {
		par_text(&a, NULL);
		par_text(&a, NULL);
	}
	if (r->optimized)
		par_bool(&a, r->optimized > 0);
	else
		par_text(&a, NULL);
	/* NULL where not recorded or not said, as in SQLite. */
	par_text(&a, pcost_fault_name(r->fault));
	if (r->check)
		par_bool(&a, r->check > 0);
	else
		par_text(&a, NULL);
	par_text(&a, r->note[0] ? r->note : NULL);
	if (r->has_service) {
		par_i64(&a, (int64_t)r->service_user_ns);
		par_i64(&a, (int64_t)r->service_sys_ns);
	} else {
		par_text(&a, NULL);
		par_text(&a, NULL);
	}
	return pg_put(p, sql, &a);
}

/* The session's figures and every run's values (no row for a value the run did not give). */
static int insert_metrics(struct pg_db *p, const struct pcost_session *s)
{
	static const char def_sql[] = "INSERT INTO metric (session_id, idx, name, unit, better)"
				      " VALUES ($1,$2,$3,$4,$5)";
	static const char val_sql[] = "INSERT INTO run_metric (session_id, config_idx, seq,"
				      " metric_idx, value) VALUES ($1,$2,$3,$4,$5)";
	int rc = 0;

	for (size_t k = 0; k < s->nmetrics && !rc; k++) {
		struct pg_params a = { 0 };

		par_i64(&a, s->id);
		par_i64(&a, (int64_t)k);
		par_text(&a, s->metrics[k].name);
		par_text(&a, s->metrics[k].unit);
		par_i64(&a, s->metrics[k].better);
		rc = pg_put(p, def_sql, &a);
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
	static const char sql[] =
		"INSERT INTO series (session_id, idx, interface, op, events,"
		" nevents, timer, note, n, ns) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)";
	const struct pcost_counter_series *c = &s->series[i];
	struct pg_params a = { 0 };

	if (c->n > (size_t)INT32_MAX / sizeof(double)) {
		snprintf(p->base.err, sizeof(p->base.err),
			 "counter series %zu is too long to store", i);
		return -EFBIG;
	}
	par_i64(&a, s->id);
	par_i64(&a, (int64_t)i);
	par_text(&a, c->interface);
	par_text(&a, c->op);
	par_text(&a, c->events);
	par_i64(&a, c->nevents);
	par_text(&a, c->timer);
	par_text(&a, c->note);
	par_i64(&a, (int64_t)c->n);
	par_bytes(&a, c->ns, c->n * sizeof(double));
	return pg_put(p, sql, &a);
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
	int rc = select_of(p,
			   "SELECT kind, started, cmdline, version, env_json, options_json, seed,"
			   " tsc_hz, complete FROM session WHERE id = $1",
			   id, &r);

	if (rc)
		return rc;
	if (PQntuples(r) != 1) {
		snprintf(p->base.err, sizeof(p->base.err),
			 "no session %lld in '%s'; see 'probecost history'", (long long)id,
			 p->base.path);
		PQclear(r);
		return -ENOENT;
	}
	if (pcost_session_kind_parse(PQgetvalue(r, 0, 0), &s->kind)) {
		snprintf(p->base.err, sizeof(p->base.err), "session %lld has an unknown kind '%s'",
			 (long long)id, PQgetvalue(r, 0, 0));
		rc = -EBADMSG;
	}
	s->id = id;
	s->started = get_i64(r, 0, 1);
	s->cmdline = dup_text(r, 0, 2);
	s->version = dup_text(r, 0, 3);
	s->env_json = dup_text(r, 0, 4);
	s->options_json = dup_text(r, 0, 5);
	s->seed = (uint64_t)get_i64(r, 0, 6);
	s->tsc_hz = get_f64(r, 0, 7);
	s->complete = get_bool(r, 0, 8);
	PQclear(r);
	return rc;
}

static int load_configs(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = select_of(p,
			   "SELECT idx, workload, workload_args, monitor, variant, unit,"
			   " expected_events, threads, placement FROM config WHERE session_id = $1"
			   " ORDER BY idx",
			   s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r); k++) {
		struct pcost_config *c;

		if (get_i64(r, k, 0) != (int64_t)s->nconfigs) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: configuration %zu is missing", (long long)s->id,
				 s->nconfigs);
			rc = -EBADMSG;
			break;
		}
		c = pcost_session_add_config(s, get_text(r, k, 1), get_text(r, k, 2),
					     get_text(r, k, 3), get_text(r, k, 4),
					     get_text(r, k, 5));
		c->expected_events = get_i64(r, k, 6);
		c->threads = (uint32_t)get_i64(r, k, 7);
		c->placement = dup_text(r, k, 8);
	}
	PQclear(r);
	return rc;
}

static int load_samples(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = select_of(
		p,
		"SELECT config_idx, block, ord, warmup, failed, wait_status, fail_reason,"
		" scale, wall_ns, user_ns, sys_ns, maxrss_kb, minflt, majflt, nvcsw,"
		" nivcsw, has_report, events, timed_ns, monitor_events, other_cpu_ns, steal_ns,"
		" optimized, fault, self_check, note, service_user_ns, service_sys_ns"
		" FROM run_sample"
		" WHERE session_id = $1 ORDER BY config_idx, seq",
		s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r); k++) {
		struct pcost_run_sample x = { 0 };
		int64_t ci = get_i64(r, k, 0);
		int c = 1;

		if (ci < 0 || (uint64_t)ci >= s->nconfigs) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: a sample of no configuration", (long long)s->id);
			rc = -EBADMSG;
			break;
		}
		x.block = (uint32_t)get_i64(r, k, c++);
		x.order = (uint32_t)get_i64(r, k, c++);
		x.warmup = get_bool(r, k, c++);
		x.failed = get_bool(r, k, c++);
		x.wait_status = (int)get_i64(r, k, c++);
		snprintf(x.fail_reason, sizeof(x.fail_reason), "%s", PQgetvalue(r, k, c++));
		x.scale = get_f64(r, k, c++);
		x.wall_ns = (pcost_ns)get_i64(r, k, c++);
		x.user_ns = (pcost_ns)get_i64(r, k, c++);
		x.sys_ns = (pcost_ns)get_i64(r, k, c++);
		x.maxrss_kb = (long)get_i64(r, k, c++);
		x.minflt = (long)get_i64(r, k, c++);
		x.majflt = (long)get_i64(r, k, c++);
		x.nvcsw = (long)get_i64(r, k, c++);
		x.nivcsw = (long)get_i64(r, k, c++);
		x.has_report = get_bool(r, k, c++);
		x.events = (uint64_t)get_i64(r, k, c++);
		x.timed_ns = (pcost_ns)get_i64(r, k, c++);
		x.monitor_events = get_i64(r, k, c++);
		x.has_busy = !PQgetisnull(r, k, c);
		x.other_cpu_ns = (pcost_ns)get_i64(r, k, c++);
		x.steal_ns = (pcost_ns)get_i64(r, k, c++);
		if (!PQgetisnull(r, k, c))
			x.optimized = get_bool(r, k, c) ? 1 : -1;
		c++;
		if (PQgetisnull(r, k, c) || pcost_fault_parse(PQgetvalue(r, k, c), &x.fault))
			x.fault = PCOST_FAULT_UNKNOWN;
		c++;
		if (!PQgetisnull(r, k, c))
			x.check = get_bool(r, k, c) ? 1 : -1;
		c++;
		snprintf(x.note, sizeof(x.note), "%s", PQgetvalue(r, k, c++));
		x.has_service = !PQgetisnull(r, k, c);
		x.service_user_ns = (pcost_ns)get_i64(r, k, c++);
		x.service_sys_ns = (pcost_ns)get_i64(r, k, c++);
		pcost_config_add_sample(&s->configs[ci], &x);
	}
	PQclear(r);
	return rc;
}

/* The session's figures, then each run's values (samples loaded first). */
static int load_metrics(struct pg_db *p, struct pcost_session *s)
{
	PGresult *r = NULL;
	int rc = select_of(p,
			   "SELECT idx, name, unit, better FROM metric WHERE session_id = $1"
			   " ORDER BY idx",
			   s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r) && !rc; k++) {
		if (get_i64(r, k, 0) != (int64_t)s->nmetrics) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "session %lld: figure %zu is missing", (long long)s->id,
				 s->nmetrics);
			rc = -EBADMSG;
		} else {
			pcost_session_add_metric(s, get_text(r, k, 1), get_text(r, k, 2),
						 (int)get_i64(r, k, 3));
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
	int rc = select_of(p,
			   "SELECT interface, op, events, nevents, timer, note, n, ns FROM series"
			   " WHERE session_id = $1 ORDER BY idx",
			   s->id, &r);

	if (rc)
		return rc;
	for (int k = 0; k < PQntuples(r) && !rc; k++) {
		int64_t n = get_i64(r, k, 6);
		size_t bytes = 0;
		unsigned char *ns =
			PQunescapeBytea((const unsigned char *)PQgetvalue(r, k, 7), &bytes);
		struct pcost_counter_series *c;

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

			c = pcost_session_add_series(s, get_text(r, k, 0), get_text(r, k, 1),
						     get_text(r, k, 2), (unsigned)get_i64(r, k, 3),
						     get_text(r, k, 4), v, (size_t)n);
			c->note = dup_text(r, k, 5);
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
