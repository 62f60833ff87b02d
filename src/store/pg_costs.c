// SPDX-License-Identifier: MIT
/*
 * store/pg_costs: calibrate's cost tables on a PostgreSQL store, the same
 * tables and columns as store/cost_rows.c's; a table is written in one
 * transaction, its id from the identity column, so machines of a fleet
 * calibrating at once never mix their tables.
 */
#include "store/pg_internal.h"

#include <errno.h>
#include <string.h>
#include <time.h>

/* NaN and infinities are not measured: NULL. */
static void par_num(struct pg_params *a, double v)
{
	if (isfinite(v))
		par_f64(a, v);
	else
		par_text(a, NULL);
}

static int insert_entry(struct pg_db *p, const struct pcost_cost_table *t, size_t i)
{
	static const char sql[] =
		"INSERT INTO cost_entry (table_id, idx, subject, kind, event, status, ns, lo, hi, df,"
		" workload, method, why, session_id)"
		" VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)";
	const struct pcost_cost_entry *e = &t->e[i];
	struct pg_params a = { 0 };

	par_i64(&a, t->id);
	par_i64(&a, (int64_t)i);
	par_text(&a, e->subject ? e->subject : "");
	par_text(&a, e->kind ? e->kind : "monitor");
	par_text(&a, pcost_cost_event_name(e->event));
	par_text(&a, pcost_cost_status_name(e->status));
	par_num(&a, e->ns);
	par_num(&a, e->lo);
	par_num(&a, e->hi);
	par_num(&a, e->df);
	par_text(&a, e->workload);
	par_text(&a, e->method);
	par_text(&a, e->why);
	if (e->session_id)
		par_i64(&a, e->session_id);
	else
		par_text(&a, NULL);
	return pcost_pg_run(p, sql, &a, NULL, PG_WHAT_WRITE);
}

int pcost_pg_store_costs(struct pcost_db *db, struct pcost_cost_table *t)
{
	static const char sql[] =
		"INSERT INTO cost_table (created, level, version, host, kernel, cpu, env_json,"
		" seconds, complete, stored) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id";
	struct pg_db *p = pg_of(db);
	struct pg_params a = { 0 };
	PGresult *r = NULL;
	int rc = pcost_pg_tx_begin(p);

	if (rc)
		return rc;
	par_i64(&a, t->created);
	par_text(&a, t->level ? t->level : "custom");
	par_text(&a, t->version);
	par_text(&a, t->host);
	par_text(&a, t->kernel);
	par_text(&a, t->cpu);
	par_text(&a, t->env_json);
	par_num(&a, t->seconds);
	par_bool(&a, t->complete);
	par_i64(&a, (int64_t)time(NULL));
	if (!(rc = pcost_pg_run(p, sql, &a, &r, PG_WHAT_WRITE))) {
		t->id = get_i64(r, 0, 0);
		PQclear(r);
	}
	for (size_t i = 0; i < t->n && !rc; i++)
		rc = insert_entry(p, t, i);
	rc = pcost_pg_tx_end(p, rc);
	if (rc)
		t->id = 0;
	return rc;
}

static double get_num(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NAN : get_f64(r, row, col);
}

static int load_entries(struct pg_db *p, struct pcost_cost_table *t)
{
	struct pg_params a = { 0 };
	PGresult *r = NULL;
	int rc;

	par_i64(&a, t->id);
	rc = pcost_pg_run(
		p,
		"SELECT subject, kind, event, status, ns, lo, hi, df, workload, method, why,"
		" session_id FROM cost_entry WHERE table_id = $1 ORDER BY idx",
		&a, &r, PG_WHAT_READ);
	if (rc)
		return rc;
	for (int i = 0; i < PQntuples(r) && !rc; i++) {
		enum pcost_cost_event ev;
		enum pcost_cost_status status;
		struct pcost_cost_entry *e;

		if (pcost_cost_event_parse(get_text(r, i, 2), &ev) ||
		    pcost_cost_status_parse(get_text(r, i, 3), &status)) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "cost table %lld has an entry of unknown event or status",
				 (long long)t->id);
			rc = -EBADMSG;
			break;
		}
		e = pcost_cost_add(t, get_text(r, i, 0), get_text(r, i, 1), ev, get_text(r, i, 8),
				   get_text(r, i, 9));
		e->status = status;
		e->ns = get_num(r, i, 4);
		e->lo = get_num(r, i, 5);
		e->hi = get_num(r, i, 6);
		e->df = get_num(r, i, 7);
		e->why = dup_text(r, i, 10);
		e->session_id = get_i64(r, i, 11);
	}
	PQclear(r);
	return rc;
}

int pcost_pg_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n)
{
	struct pg_db *p = pg_of(db);
	struct pcost_cost_table *v;
	PGresult *r = NULL;
	size_t k;
	int rc;

	*out = NULL;
	*n = 0;
	rc = pcost_pg_run(
		p,
		"SELECT id, created, level, version, host, kernel, cpu, env_json, seconds,"
		" complete FROM cost_table ORDER BY created DESC, id DESC",
		NULL, &r, PG_WHAT_READ);
	if (rc)
		return rc;
	k = (size_t)PQntuples(r);
	v = xcalloc(k ? k : 1, sizeof(*v));
	for (size_t i = 0; i < k; i++) {
		struct pcost_cost_table *t = &v[i];
		int row = (int)i;

		pcost_cost_table_init(t);
		t->id = get_i64(r, row, 0);
		t->created = get_i64(r, row, 1);
		t->level = dup_text(r, row, 2);
		t->version = dup_text(r, row, 3);
		t->host = dup_text(r, row, 4);
		t->kernel = dup_text(r, row, 5);
		t->cpu = dup_text(r, row, 6);
		t->env_json = dup_text(r, row, 7);
		t->seconds = get_num(r, row, 8);
		t->complete = get_bool(r, row, 9);
	}
	PQclear(r);
	for (size_t i = 0; i < k && !rc; i++)
		rc = load_entries(p, &v[i]);
	if (rc) {
		pcost_cost_tables_free(v, k);
		return rc;
	}
	*out = v;
	*n = k;
	return 0;
}
