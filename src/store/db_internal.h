/* SPDX-License-Identifier: MIT */
/* db_internal: the SQLite backend, shared by db.c, read.c and write.c only. */
#ifndef PCOST_STORE_DB_INTERNAL_H
#define PCOST_STORE_DB_INTERNAL_H

#include <sqlite3.h>

#include "store/backend.h"
#include "store/columns.h"

/* Record "what: sqlite's message" in db->err; returns the errno-style code for rc. */
int pcost_db_fail(struct pcost_db *db, int rc, const char *what);
/* Run SQL without results; 0 or pcost_db_fail(). */
int pcost_db_exec(struct pcost_db *db, const char *sql, const char *what);
/* sqlite3_prepare_v2 or pcost_db_fail(). */
int pcost_db_prepare(struct pcost_db *db, const char *sql, sqlite3_stmt **st);

/*
 * Bind rec's columns of t (the row id left to SQLite) from parameter *k on;
 * *k is then the next one.  write.c.
 */
void pcost_sqlite_bind_cols(sqlite3_stmt *st, int *k, const struct pcost_table *t, const void *rec);
/*
 * Set rec's fields from the columns a pcost_sql_select() of t gives, result
 * column k on.  -1, or the position (from k) of the first one a hook refused
 * (an unknown word).  read.c.
 */
int pcost_sqlite_read_cols(sqlite3_stmt *st, int k, const struct pcost_table *t, void *rec);
/* Prepare pcost_sql_select(t, lead, tail). read.c. */
int pcost_sqlite_prepare_select(struct pcost_db *db, const struct pcost_table *t, const char *lead,
				const char *tail, sqlite3_stmt **st);

/* The SQLite rows of pcost_sqlite_ops (db.c); see store.h for each. */
int pcost_sqlite_begin_session(struct pcost_db *db, struct pcost_session *s);
int pcost_sqlite_store_config(struct pcost_db *db, const struct pcost_session *s, size_t i,
			      size_t from);
int pcost_sqlite_store_series(struct pcost_db *db, const struct pcost_session *s, size_t i);
int pcost_sqlite_finish_session(struct pcost_db *db, const struct pcost_session *s);
int pcost_sqlite_import(struct pcost_db *db, struct pcost_session *s, size_t n);
int pcost_sqlite_load(struct pcost_db *db, int64_t id, struct pcost_session *s);
int pcost_sqlite_latest(struct pcost_db *db, int64_t *id);
int pcost_sqlite_list(struct pcost_db *db, const struct pcost_db_filter *f,
		      struct pcost_db_row **rows, size_t *n);
/* costs_sqlite.c */
int pcost_sqlite_store_costs(struct pcost_db *db, struct pcost_cost_table *t);
int pcost_sqlite_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n);

/*
 * What to open (an SQLite URI, caller frees) for a store this process cannot
 * write: an immutable snapshot when the main file holds every commit, else the
 * store read-only through its -wal and -shm, else a private copy of it and its
 * -wal (db->copy; pcost_sqlite_readonly_release() removes it).  NULL with
 * db->err set when none can be read.
 */
char *pcost_sqlite_readonly_uri(struct pcost_db *db, const char *path);
void pcost_sqlite_readonly_release(struct pcost_db *db);

#endif
