// SPDX-License-Identifier: MIT
/*
 * store/costs_pg: calibrate's cost tables on a PostgreSQL store, the same
 * tables and columns as store/costs_sqlite.c's; a table is written in one
 * transaction, its id from the identity column, so machines of a fleet
 * calibrating at once never mix their tables.
 */
#include "store/pg_internal.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static int insert_entry(struct pg_db *p, const struct pcost_cost_table *t, size_t i)
{
	char *sql = pcost_sql_insert(&pcost_cost_entry_cols, "INSERT", true, false, NULL, 0);
	struct pg_params a = { 0 };
	int rc;

	par_i64(&a, t->id);
	par_i64(&a, (int64_t)i);
	pcost_pg_par_cols(&a, &pcost_cost_entry_cols, &t->e[i], false);
	rc = pcost_pg_run(p, sql, &a, NULL, PG_WHAT_WRITE);
	par_release(&a);
	free(sql);
	return rc;
}

int pcost_pg_store_costs(struct pcost_db *db, struct pcost_cost_table *t)
{
	struct pg_db *p = pg_of(db);
	struct pg_params a = { 0 };
	PGresult *r = NULL;
	char *ins, *sql;
	int rc = pcost_pg_tx_begin(p);

	if (rc)
		return rc;
	/* The id from the identity column. */
	ins = pcost_sql_insert(&pcost_cost_table_cols, "INSERT", true, false, NULL, 0);
	sql = xasprintf("%s RETURNING id", ins);
	free(ins);
	pcost_pg_par_cols(&a, &pcost_cost_table_cols, t, false);
	if (!(rc = pcost_pg_run(p, sql, &a, &r, PG_WHAT_WRITE))) {
		t->id = get_i64(r, 0, 0);
		PQclear(r);
	}
	par_release(&a);
	free(sql);
	for (size_t i = 0; i < t->n && !rc; i++)
		rc = insert_entry(p, t, i);
	rc = pcost_pg_tx_end(p, rc);
	if (rc)
		t->id = 0;
	return rc;
}

static int load_entries(struct pg_db *p, struct pcost_cost_table *t)
{
	PGresult *r = NULL;
	int rc = pcost_pg_select(p, &pcost_cost_entry_cols, NULL,
				 " FROM cost_entry WHERE table_id = $1 ORDER BY idx", t->id, &r);

	if (rc)
		return rc;
	for (int i = 0; i < PQntuples(r) && !rc; i++)
		if (pcost_pg_get_cols(r, i, 0, &pcost_cost_entry_cols,
				      pcost_cost_add(t, NULL, NULL, 0, NULL, NULL)) >= 0) {
			snprintf(p->base.err, sizeof(p->base.err),
				 "cost table %lld has an entry of unknown event or status",
				 (long long)t->id);
			rc = -EBADMSG;
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
	rc = pcost_pg_select(p, &pcost_cost_table_cols, "id",
			     " FROM cost_table ORDER BY created DESC, id DESC", -1, &r);
	if (rc)
		return rc;
	k = (size_t)PQntuples(r);
	v = xcalloc(k ? k : 1, sizeof(*v));
	for (size_t i = 0; i < k; i++) {
		struct pcost_cost_table *t = &v[i];
		int row = (int)i;

		pcost_cost_table_init(t);
		t->id = get_i64(r, row, 0);
		pcost_pg_get_cols(r, row, 1, &pcost_cost_table_cols, t);
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
