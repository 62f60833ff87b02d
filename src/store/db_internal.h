/* SPDX-License-Identifier: MIT */
/* db_internal: the state of an open store, shared by the files of src/store/ only. */
#ifndef PCOST_STORE_DB_INTERNAL_H
#define PCOST_STORE_DB_INTERNAL_H

#include <limits.h>
#include <sqlite3.h>

#include "store/store.h"

struct pcost_db {
	sqlite3 *h;
	bool writable;
	char path[PATH_MAX];
	char err[PATH_MAX + 1024];
};

/* Record "what: sqlite's message" in db->err; returns the errno-style code for rc. */
int pcost_db_fail(struct pcost_db *db, int rc, const char *what);
/* Map an SQLite result code to -errno. */
int pcost_db_errno(int rc);
/* Run SQL without results; 0 or pcost_db_fail(). */
int pcost_db_exec(struct pcost_db *db, const char *sql, const char *what);
/* sqlite3_prepare_v2 or pcost_db_fail(). */
int pcost_db_prepare(struct pcost_db *db, const char *sql, sqlite3_stmt **st);

#endif
