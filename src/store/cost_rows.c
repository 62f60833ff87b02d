// SPDX-License-Identifier: MIT
/*
 * store/cost_rows: calibrate's cost tables in the SQLite store (tables
 * cost_table and cost_entry, schema 6).  A table is written whole in one
 * transaction, so a calibration interrupted or failed leaves nothing half
 * stored; a figure that was not measured is NULL, never 0.
 */
#include "store/db_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

#define WHAT_WRITE "could not write to the store"
#define WHAT_READ "could not read the store"

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int insert_table(struct pcost_db *db, struct pcost_cost_table *t)
{
	static const char sql[] =
		"INSERT INTO cost_table (created, level, version, host, kernel, cpu, env_json,"
		" seconds, complete, stored) VALUES (?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	int rc;

	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	sqlite3_bind_int64(st, 1, t->created);
	bind_str(st, 2, t->level ? t->level : "custom");
	bind_str(st, 3, t->version);
	bind_str(st, 4, t->host);
	bind_str(st, 5, t->kernel);
	bind_str(st, 6, t->cpu);
	bind_str(st, 7, t->env_json);
	bind_num(st, 8, t->seconds);
	sqlite3_bind_int(st, 9, t->complete);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pcost_db_fail(db, rc, WHAT_WRITE);
	t->id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

static int insert_entries(struct pcost_db *db, const struct pcost_cost_table *t)
{
	static const char sql[] =
		"INSERT INTO cost_entry (table_id, idx, subject, kind, event, status, ns, lo, hi, df,"
		" workload, method, why, session_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	int rc;

	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	for (size_t i = 0; i < t->n && !rc; i++) {
		const struct pcost_cost_entry *e = &t->e[i];

		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		bind_str(st, 3, e->subject ? e->subject : "");
		bind_str(st, 4, e->kind ? e->kind : "monitor");
		bind_str(st, 5, pcost_cost_event_name(e->event));
		bind_str(st, 6, pcost_cost_status_name(e->status));
		bind_num(st, 7, e->ns);
		bind_num(st, 8, e->lo);
		bind_num(st, 9, e->hi);
		bind_num(st, 10, e->df);
		bind_str(st, 11, e->workload);
		bind_str(st, 12, e->method);
		bind_str(st, 13, e->why);
		if (e->session_id)
			sqlite3_bind_int64(st, 14, e->session_id);
		else
			sqlite3_bind_null(st, 14);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE)
			rc = pcost_db_fail(db, rc, WHAT_WRITE);
		else
			rc = 0;
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_store_costs(struct pcost_db *db, struct pcost_cost_table *t)
{
	int rc = pcost_db_exec(db, "BEGIN IMMEDIATE", WHAT_WRITE);

	if (rc)
		return rc;
	if (!(rc = insert_table(db, t)))
		rc = insert_entries(db, t);
	if (!rc)
		rc = pcost_db_exec(db, "COMMIT", WHAT_WRITE);
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		t->id = 0;
	}
	return rc;
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static double col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int load_entries(struct pcost_db *db, struct pcost_cost_table *t)
{
	static const char sql[] =
		"SELECT subject, kind, event, status, ns, lo, hi, df, workload, method, why,"
		" session_id FROM cost_entry WHERE table_id = ? ORDER BY idx";
	sqlite3_stmt *st;
	int rc, r;

	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	sqlite3_bind_int64(st, 1, t->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		enum pcost_cost_event ev;
		enum pcost_cost_status status;
		struct pcost_cost_entry *e;
		char *why;

		if (pcost_cost_event_parse((const char *)sqlite3_column_text(st, 2), &ev) ||
		    pcost_cost_status_parse((const char *)sqlite3_column_text(st, 3), &status)) {
			snprintf(
				db->err, sizeof(db->err),
				"cost table %lld has an entry of unknown event '%s' or status '%s'",
				(long long)t->id, sqlite3_column_text(st, 2),
				sqlite3_column_text(st, 3));
			rc = -EBADMSG;
			break;
		}
		e = pcost_cost_add(t, (const char *)sqlite3_column_text(st, 0),
				   (const char *)sqlite3_column_text(st, 1), ev,
				   (const char *)sqlite3_column_text(st, 8),
				   (const char *)sqlite3_column_text(st, 9));
		e->status = status;
		e->ns = col_num(st, 4);
		e->lo = col_num(st, 5);
		e->hi = col_num(st, 6);
		e->df = col_num(st, 7);
		why = col_str(st, 10);
		e->why = why;
		e->session_id = sqlite3_column_int64(st, 11);
	}
	if (!rc && r != SQLITE_DONE)
		rc = pcost_db_fail(db, r, WHAT_READ);
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n)
{
	static const char sql[] =
		"SELECT id, created, level, version, host, kernel, cpu, env_json, seconds, complete"
		" FROM cost_table ORDER BY created DESC, id DESC";
	struct pcost_cost_table *v = NULL;
	size_t cap = 0, k = 0;
	sqlite3_stmt *st;
	int rc, r;

	*out = NULL;
	*n = 0;
	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct pcost_cost_table *t;

		xgrow((void **)&v, &cap, k + 1, sizeof(*v));
		t = &v[k++];
		pcost_cost_table_init(t);
		t->id = sqlite3_column_int64(st, 0);
		t->created = sqlite3_column_int64(st, 1);
		t->level = col_str(st, 2);
		t->version = col_str(st, 3);
		t->host = col_str(st, 4);
		t->kernel = col_str(st, 5);
		t->cpu = col_str(st, 6);
		t->env_json = col_str(st, 7);
		t->seconds = col_num(st, 8);
		t->complete = sqlite3_column_int(st, 9);
	}
	if (r != SQLITE_DONE)
		rc = pcost_db_fail(db, r, WHAT_READ);
	sqlite3_finalize(st);
	for (size_t i = 0; i < k && !rc; i++)
		rc = load_entries(db, &v[i]);
	if (rc) {
		pcost_cost_tables_free(v, k);
		return rc;
	}
	*out = v;
	*n = k;
	return 0;
}
