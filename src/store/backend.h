/* SPDX-License-Identifier: MIT */
/*
 * backend: what a store backend implements, for the files of src/store/ only.
 * pcost_db_open() picks a backend by the --db value (a URL scheme, or else an
 * SQLite file) and every other pcost_db_*() call goes through db->ops.
 *
 * Every hook has the meaning and the return convention of the public call of
 * the same name in store.h.  A NULL hook means "not needed": store_config and
 * store_series may be NULL for a backend that writes the whole session in
 * finish_session (then the samples stay in the session struct until then).
 */
#ifndef PCOST_STORE_BACKEND_H
#define PCOST_STORE_BACKEND_H

#include <limits.h>
#include <stdbool.h>

#include "store/store.h"

struct sqlite3;

struct pcost_db_ops {
	const char *name;
	/* Allocate the backend's state (which embeds struct pcost_db) and connect. */
	int (*open)(const char *where, enum pcost_db_mode mode, struct pcost_db **out, char *err,
		    size_t errlen);
	/* Disconnect; anything not finished is rolled back. */
	void (*close)(struct pcost_db *db);
	int (*schema_version)(struct pcost_db *db);
	/* The sink's calls, in this order, for one session. */
	int (*begin_session)(struct pcost_db *db, struct pcost_session *s);
	int (*store_config)(struct pcost_db *db, const struct pcost_session *s, size_t i,
			    size_t from);
	int (*store_series)(struct pcost_db *db, const struct pcost_session *s, size_t i);
	int (*finish_session)(struct pcost_db *db, const struct pcost_session *s);
	int (*import)(struct pcost_db *db, struct pcost_session *s, size_t n);
	int (*load)(struct pcost_db *db, int64_t id, struct pcost_session *s);
	int (*latest)(struct pcost_db *db, int64_t *id);
	int (*list)(struct pcost_db *db, const struct pcost_db_filter *f,
		    struct pcost_db_row **rows, size_t *n);
};

/* The state every backend shares; a backend embeds it and recovers its own with container_of. */
struct pcost_db {
	const struct pcost_db_ops *ops;
	bool writable;
	/* What messages name: the file, or the URL with its password masked. */
	char path[PATH_MAX];
	char err[PATH_MAX + 1024];
	struct sqlite3 *h; /* the SQLite backend's connection; NULL in the others */
	/* SQLite, a store it cannot write: a private copy read instead ("" none, db_readonly.c) */
	char copy[PATH_MAX];
	int copy_undo;
};

extern const struct pcost_db_ops pcost_sqlite_ops;
extern const struct pcost_db_ops pcost_pg_ops;

/* True when where is a PostgreSQL URL (postgresql:// or postgres://). */
bool pcost_pg_is_url(const char *where);

/*
 * url with the password (userinfo and a password= parameter) replaced by
 * "***", into buf; what error messages may print.
 */
void pcost_pg_redact_url(const char *url, char *buf, size_t len);

/*
 * text (a command line, words quoted as pcost_join_argv quotes them) with
 * every copy of url redacted; NULL when there is nothing to mask.  Caller frees.
 */
char *pcost_pg_mask_password(const char *text, const char *url);

#endif
