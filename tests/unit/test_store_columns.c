// SPDX-License-Identifier: MIT
/*
 * test_store_columns: the description of the stored tables (store/columns.h)
 * against the schema a new store has, and one session with every field set
 * through SQLite -> export -> PostgreSQL -> export, field for field.  The
 * PostgreSQL leg runs where $PCOST_TEST_PG names a database (t326 starts a
 * throwaway server and gives it); without one it is skipped.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "store/columns.h"
#include "store/pg_internal.h"
#include "store/store.h"
#include "synth_session.h"

static char dir[64];
static char path[128];

static int setup(void **st)
{
	snprintf(dir, sizeof(dir), "/tmp/pcost-columns-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/p.db", dir);
	return 0;
}

static int teardown(void **st)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* Every table a session is stored in, with where its first row is in s. */
static const struct pcost_table *const session_tables[] = {
	&pcost_session_cols, &pcost_config_cols, &pcost_sample_cols,
	&pcost_series_cols,  &pcost_metric_cols,
};

static const void *first_row(const struct pcost_session *s, size_t table)
{
	const void *rows[] = { s, s->configs, s->configs[0].samples, s->series, s->metrics };

	return rows[table];
}

/*
 * One session with every stored field set, each to a value no default has and
 * no other field has, where the store keeps the difference: a field dropped
 * by any path comes back different.
 */
static void synth_every(struct pcost_session *s)
{
	static const double ns[] = { 12.5, 0.1 + 0.2, 3e-7, 98765.4321 };
	struct pcost_config *c;
	struct pcost_counter_series *x;

	pcost_session_init(s, PCOST_SESSION_PROBES);
	s->id = 77;
	s->started = 1764400123;
	s->cmdline = xstrdup("probecost probes --via uprobe 'a b'");
	s->version = xstrdup("9.8.7");
	s->env_json = xstrdup("{\"fields\":{\"kernel.release\":\"6.18.9-every\"}}");
	s->options_json = xstrdup("{\"blocks\":5}");
	s->seed = 0xfedcba9876543211ULL; /* above 2^63: the bit pattern in SQL's int64 */
	s->tsc_hz = 2596091293.3224006;
	s->complete = true;
	pcost_session_add_metric(s, "tps", "req/s", 1);
	pcost_session_add_metric(s, "p99_us", "us", -1);
	c = pcost_session_add_config(s, "stanford", "n=3 'x y'", "uprobe", "volatile-sem", "hit");
	c->expected_events = 123457;
	c->threads = 3;
	c->placement = xstrdup("split");
	for (unsigned j = 0; j < 2; j++) {
		struct pcost_run_sample r = { 0 };

		r.block = 11 + j;
		r.order = 12;
		r.warmup = true;
		r.failed = true;
		r.wait_status = 139;
		snprintf(r.fail_reason, sizeof(r.fail_reason), "killed by SIGSEGV at fft+0x4a");
		r.fault = j ? PCOST_FAULT_PROGRAM : PCOST_FAULT_TOOL;
		r.check = j ? -1 : 1;
		snprintf(r.note, sizeof(r.note), "lost 3 events, \"said\" the tool");
		r.scale = 2.5;
		r.wall_ns = 5000000013ULL; /* above 2^32 */
		r.user_ns = 1000000014;
		r.sys_ns = 2000000015;
		r.maxrss_kb = 16;
		r.minflt = 17;
		r.majflt = 18;
		r.nvcsw = 19;
		r.nivcsw = 20;
		r.has_report = true;
		r.events = 4000000021ULL;
		r.timed_ns = 4900000022ULL;
		r.monitor_events = 23;
		r.optimized = j ? -1 : 1;
		r.has_busy = true;
		r.other_cpu_ns = 24;
		r.steal_ns = 25;
		r.has_service = true;
		r.service_user_ns = 26;
		r.service_sys_ns = 27;
		r.metrics = xcalloc(2, sizeof(double));
		r.metrics[0] = 1234.5;
		r.metrics[1] = j ? NAN : 0.25; /* a run without one value */
		pcost_config_add_sample(c, &r);
	}
	x = pcost_session_add_series(s, "perf-group", "start+stop+read", "cycles,instructions", 2,
				     "tsc", ns, ARRAY_SIZE(ns));
	x->note = xstrdup("no PMU: software events");
}

/* The description's own check that synth_every() misses no column. */
static void test_every_column_set(void **st)
{
	struct pcost_session s;

	synth_every(&s);
	for (size_t t = 0; t < ARRAY_SIZE(session_tables); t++)
		pcost_for_each_col(c, session_tables[t]) {
			struct pcost_val v;

			pcost_col_get(c, first_row(&s, t), &v);
			if (v.t == PCOST_VAL_NULL || (v.t == PCOST_VAL_INT && !v.i) ||
			    (v.t == PCOST_VAL_REAL && !v.r) || (v.t == PCOST_VAL_TEXT && !*v.s))
				fail_msg("%s.%s is not set in synth_every(): set it",
					 session_tables[t]->name, c->sql ? c->sql : c->json);
			pcost_val_release(&v);
		}
	pcost_session_release(&s);
}

/* Whether name is one of the comma separated columns of list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p += strspn(p, ", ")) {
		size_t l = strcspn(p, ", ");

		if (l == n && !strncmp(p, name, n))
			return true;
		p += l;
	}
	return false;
}

/* What the schema says of one column, from either backend. */
struct schema_col {
	char name[64], type[64];
	bool notnull;
};

/*
 * The columns of table name in the store's schema against its description:
 * each described column there, of its type, NOT NULL as described; every other
 * column one of the keys or of extra (written by a table's own code).
 */
static void check_schema(const struct pcost_table *t, const struct schema_col *sc, size_t n,
			 const char *extra, bool pg)
{
	pcost_for_each_col(c, t) {
		size_t i = 0;

		if (!c->sql)
			continue;
		while (i < n && strcmp(sc[i].name, c->sql))
			i++;
		if (i == n)
			fail_msg("%s.%s is described but not in the schema", t->name, c->sql);
		if (strcmp(sc[i].type, pcost_sql_type_name(c, pg)))
			fail_msg("%s.%s is %s in the schema, %s in the description", t->name,
				 c->sql, sc[i].type, pcost_sql_type_name(c, pg));
		if (sc[i].notnull != !!(c->flags & PCOST_COL_NOT_NULL))
			fail_msg("%s.%s: NOT NULL differs", t->name, c->sql);
	}
	for (size_t i = 0; i < n; i++) {
		bool described = false;

		pcost_for_each_col(c, t) {
			described |= c->sql && !strcmp(c->sql, sc[i].name);
		}
		if (!described && !listed(t->keys, sc[i].name) && !listed(extra, sc[i].name))
			fail_msg("%s.%s is in the schema but not described", t->name, sc[i].name);
	}
}

/* Columns each table has besides its description's: what its own code writes. */
static const char *extra_of(const struct pcost_table *t)
{
	return t == &pcost_series_cols ? "n, ns" : "";
}

static const struct pcost_table *const all_tables[] = {
	&pcost_session_cols, &pcost_config_cols,     &pcost_sample_cols,     &pcost_series_cols,
	&pcost_metric_cols,  &pcost_cost_table_cols, &pcost_cost_entry_cols,
};

static void test_sqlite_schema(void **st)
{
	struct pcost_db *db;
	sqlite3 *h;
	char err[512];

	if (pcost_db_open(path, PCOST_DB_WRITE, &db, err, sizeof(err)))
		fail_msg("open: %s", err);
	pcost_db_close(db);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	for (size_t t = 0; t < ARRAY_SIZE(all_tables); t++) {
		struct schema_col sc[64] = { 0 };
		size_t n = 0;
		sqlite3_stmt *q;
		char sql[128];

		snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", all_tables[t]->name);
		assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
		while (sqlite3_step(q) == SQLITE_ROW && n < ARRAY_SIZE(sc)) {
			snprintf(sc[n].name, sizeof(sc[n].name), "%s", sqlite3_column_text(q, 1));
			snprintf(sc[n].type, sizeof(sc[n].type), "%s", sqlite3_column_text(q, 2));
			/* A primary key of INTEGER is the rowid: never NULL. */
			sc[n].notnull = sqlite3_column_int(q, 3) ||
					(sqlite3_column_int(q, 5) && !strcmp(sc[n].name, "id"));
			n++;
		}
		sqlite3_finalize(q);
		assert_true(n > 0);
		check_schema(all_tables[t], sc, n, extra_of(all_tables[t]), false);
	}
	sqlite3_close(h);
}

/* JSON text of s with its id set aside (each store gives its own). */
static char *export_text(struct pcost_session *s)
{
	int64_t id = s->id;
	cJSON *j;
	char *text;

	s->id = 77;
	j = pcost_session_to_json(s);
	text = cJSON_Print(j);
	cJSON_Delete(j);
	s->id = id;
	return text;
}

static void import_text(const char *text, struct pcost_session *s)
{
	struct pcost_session *v;
	char err[512];
	size_t n;

	if (pcost_sessions_from_text(text, strlen(text), &v, &n, err, sizeof(err)))
		fail_msg("import: %s", err);
	assert_int_equal(n, 1);
	*s = v[0];
	free(v);
}

/* s into the store at where (imported whole), and back into *out. */
static void store_and_load(const char *where, struct pcost_session *s, struct pcost_session *out)
{
	struct pcost_db *db;
	char err[512];

	if (pcost_db_open(where, PCOST_DB_WRITE, &db, err, sizeof(err)))
		fail_msg("open %s: %s", where, err);
	if (pcost_db_import(db, s, 1))
		fail_msg("import: %s", pcost_db_error(db));
	if (pcost_db_load(db, s->id, out))
		fail_msg("load: %s", pcost_db_error(db));
	pcost_db_close(db);
}

/*
 * Every field through SQLite, the export and (where pg) PostgreSQL and the
 * export again: the struct equal after each read, the exports byte for byte.
 */
static void roundtrip(const char *pg)
{
	struct pcost_session a, from_sqlite, from_json, from_pg;
	char *text, *text2;

	synth_every(&a);
	store_and_load(path, &a, &from_sqlite);
	assert_sessions_equal(&a, &from_sqlite);
	text = export_text(&from_sqlite);
	import_text(text, &from_json);
	assert_sessions_equal(&a, &from_json);
	if (pg) {
		store_and_load(pg, &from_json, &from_pg);
		assert_sessions_equal(&a, &from_pg);
		text2 = export_text(&from_pg);
		if (strcmp(text, text2))
			fail_msg("the exports differ:\n%s\n---\n%s", text, text2);
		free(text2);
		pcost_session_release(&from_pg);
	}
	free(text);
	pcost_session_release(&a);
	pcost_session_release(&from_sqlite);
	pcost_session_release(&from_json);
}

static void test_roundtrip_sqlite(void **st)
{
	roundtrip(NULL);
}

static void test_roundtrip_pg(void **st)
{
	const char *pg = getenv("PCOST_TEST_PG");

	if (!pg || !*pg)
		skip(); /* t326 runs it on a throwaway server */
	roundtrip(pg);
}

/* The PostgreSQL schema (after the session above made it) against the description. */
static void test_pg_schema(void **st)
{
	const char *pg = getenv("PCOST_TEST_PG");
	struct pcost_db *db;
	char err[512];

	if (!pg || !*pg)
		skip();
	if (pcost_db_open(pg, PCOST_DB_WRITE, &db, err, sizeof(err)))
		fail_msg("open %s: %s", pg, err);
	for (size_t t = 0; t < ARRAY_SIZE(all_tables); t++) {
		struct pg_params a = { 0 };
		struct schema_col sc[64] = { 0 };
		PGresult *r = NULL;
		size_t n;

		par_text(&a, all_tables[t]->name);
		if (pcost_pg_run(pg_of(db),
				 "SELECT column_name, data_type, is_nullable FROM"
				 " information_schema.columns WHERE table_name = $1"
				 " AND table_schema = current_schema()",
				 &a, &r, "could not read the schema"))
			fail_msg("%s", pcost_db_error(db));
		n = (size_t)PQntuples(r);
		assert_true(n > 0 && n <= ARRAY_SIZE(sc));
		for (size_t i = 0; i < n; i++) {
			snprintf(sc[i].name, sizeof(sc[i].name), "%s", PQgetvalue(r, (int)i, 0));
			snprintf(sc[i].type, sizeof(sc[i].type), "%s", PQgetvalue(r, (int)i, 1));
			sc[i].notnull = !strcmp(PQgetvalue(r, (int)i, 2), "NO");
		}
		PQclear(r);
		check_schema(all_tables[t], sc, n, extra_of(all_tables[t]), true);
	}
	pcost_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_column_set),
		cmocka_unit_test_setup_teardown(test_sqlite_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roundtrip_sqlite, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roundtrip_pg, setup, teardown),
		cmocka_unit_test(test_pg_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
