// SPDX-License-Identifier: MIT
/*
 * store/costs_sqlite: calibrate's cost tables in the SQLite store (tables
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

/* Prepare t's INSERT (its keys first), or its SELECT with tail (" FROM ..."). */
static int prepare(struct pcost_db *db, const struct pcost_table *t, const char *tail,
		   sqlite3_stmt **st)
{
	char *sql;
	int rc;

	if (tail)
		return pcost_sqlite_prepare_select(db, t, NULL, tail, st);
	sql = pcost_sql_insert(t, "INSERT", false, false, NULL, 0);
	rc = pcost_db_prepare(db, sql, st);
	free(sql);
	return rc;
}

static int insert_table(struct pcost_db *db, struct pcost_cost_table *t)
{
	sqlite3_stmt *st;
	int rc, k = 1;

	if ((rc = prepare(db, &pcost_cost_table_cols, NULL, &st)))
		return rc;
	pcost_sqlite_bind_cols(st, &k, &pcost_cost_table_cols, t);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pcost_db_fail(db, rc, WHAT_WRITE);
	t->id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

static int insert_entries(struct pcost_db *db, const struct pcost_cost_table *t)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(db, &pcost_cost_entry_cols, NULL, &st)))
		return rc;
	for (size_t i = 0; i < t->n && !rc; i++) {
		int k = 1;

		sqlite3_bind_int64(st, k++, t->id);
		sqlite3_bind_int64(st, k++, (int64_t)i);
		pcost_sqlite_bind_cols(st, &k, &pcost_cost_entry_cols, &t->e[i]);
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

static int load_entries(struct pcost_db *db, struct pcost_cost_table *t)
{
	const struct pcost_table *cols = &pcost_cost_entry_cols;
	sqlite3_stmt *st;
	int rc, r;

	if ((rc = prepare(db, cols, " FROM cost_entry WHERE table_id = ? ORDER BY idx", &st)))
		return rc;
	sqlite3_bind_int64(st, 1, t->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (pcost_sqlite_read_cols(st, 0, cols,
					   pcost_cost_add(t, NULL, NULL, 0, NULL, NULL)) >= 0) {
			snprintf(
				db->err, sizeof(db->err),
				"cost table %lld has an entry of unknown event '%s' or status '%s'",
				(long long)t->id,
				sqlite3_column_text(st, pcost_sql_position(cols, "event")),
				sqlite3_column_text(st, pcost_sql_position(cols, "status")));
			rc = -EBADMSG;
			break;
		}
	}
	if (!rc && r != SQLITE_DONE)
		rc = pcost_db_fail(db, r, WHAT_READ);
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n)
{
	struct pcost_cost_table *v = NULL;
	size_t cap = 0, k = 0;
	sqlite3_stmt *st;
	int rc, r;

	*out = NULL;
	*n = 0;
	if ((rc = pcost_sqlite_prepare_select(db, &pcost_cost_table_cols, "id",
					      " FROM cost_table ORDER BY created DESC, id DESC",
					      &st)))
		return rc;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct pcost_cost_table *t;

		xgrow((void **)&v, &cap, k + 1, sizeof(*v));
		t = &v[k++];
		pcost_cost_table_init(t);
		t->id = sqlite3_column_int64(st, 0);
		pcost_sqlite_read_cols(st, 1, &pcost_cost_table_cols, t);
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
