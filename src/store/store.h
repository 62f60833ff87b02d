/* SPDX-License-Identifier: MIT */
/*
 * src/store/: where sessions last.  The SQLite store (db.c, read.c, write.c),
 * the PostgreSQL store a --db postgresql:// URL selects (pg.c, pg_rows.c),
 * the sink measuring commands write through (sink.c), the session <-> JSON
 * form of export and import (session_json.c, import.c); each stored table's
 * columns, described once for all of them (columns.c).  This is the one
 * public header of the folder; backend.h (the ops table db.c dispatches
 * through), columns.h, db_internal.h and pg_internal.h are private to it.
 *
 * Measuring commands use the sink, in this order:
 *   pcost_sink_begin(s, db, no_store)   after options are parsed, before measuring
 *   pcost_sink_config(s, i)             each time configuration i has new samples
 *   pcost_sink_series(s, i)             each time counter series i is complete
 *   pcost_sink_end(s)                   at the end (s->complete says if interrupted)
 * A store that cannot be opened or written is a warning: the measurement goes
 * on and is printed, and the command exits 3 (PCOST_EXIT_NOT_STORED).
 *
 * The store commands (history, show, compare, report, export, import) use the
 * database directly:
 *   pcost_db_path()                         where the database lives
 *   pcost_db_open()                         open (create, migrate) or refuse
 *   pcost_db_begin_session() ... _finish()  what the sink does, one transaction each
 *   pcost_db_import()                       a whole session in one transaction
 *   pcost_db_load() / pcost_db_list()       read back
 *   pcost_db_close()
 *
 * Every pcost_db_* function returns 0 or a negative errno-style code and never
 * prints; pcost_db_error() (or the err buffer of open) says what went wrong in
 * one line.  Raw samples are kept: every field of every run sample, every
 * counter sample.
 */
#ifndef PCOST_STORE_H
#define PCOST_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/costs.h"
#include "core/result.h"

/* db: --db PATH or NULL ($PROBECOST_DB, then $XDG_DATA_HOME/probecost/probecost.db). */
void pcost_sink_begin(struct pcost_session *s, const char *db, bool no_store);
void pcost_sink_config(struct pcost_session *s, size_t config_index);
void pcost_sink_series(struct pcost_session *s, size_t series_index);
void pcost_sink_end(struct pcost_session *s);
/*
 * After pcost_sink_end(): the session was to be stored and was not (the
 * warning said why); the command then exits PCOST_EXIT_NOT_STORED.
 */
bool pcost_sink_lost(void);

/* Schema version this probecost writes (PRAGMA user_version). */
#define PCOST_DB_SCHEMA_VERSION 9

struct pcost_db;

/*
 * Resolve the database path: explicit (--db) if not NULL, then $PROBECOST_DB,
 * then $XDG_DATA_HOME/probecost/probecost.db, then ~/.local/share/probecost/.
 * Returns 0 or -ENAMETOOLONG / -ENOENT (no HOME).
 */
int pcost_db_path(const char *explicit_path, char *buf, size_t len);

enum pcost_db_mode {
	PCOST_DB_READ,	/* must exist; never written (history, show, export...) */
	PCOST_DB_WRITE, /* created (mode 0600, directory 0700) and migrated if needed */
};

/*
 * Open path.  Refuses (with one line in err) a file that is not a probecost
 * database, is corrupt, has a newer schema, or (WRITE) is read-only.  An older
 * schema is migrated in one transaction (WRITE and READ both: reading an old
 * file needs its new columns).  Returns 0, -ENOENT (READ, no such file),
 * -EROFS, -EPROTO (newer schema), -EBADMSG (not ours / corrupt) or -EIO.
 * A postgresql:// or postgres:// path is a server's database instead (err
 * names it with its password masked): also -EINVAL (a malformed URL),
 * -EKEYREJECTED (log-in refused), -ENXIO (no such database) or -ECONNREFUSED.
 */
int pcost_db_open(const char *path, enum pcost_db_mode mode, struct pcost_db **out, char *err,
		  size_t errlen);
void pcost_db_close(struct pcost_db *db);
/* The last failure of db, one line. */
const char *pcost_db_error(const struct pcost_db *db);
/* user_version of the open database (after migration). */
int pcost_db_schema_version(struct pcost_db *db);

/* Insert s (without configs) as incomplete; sets s->id. */
int pcost_db_begin_session(struct pcost_db *db, struct pcost_session *s);
/*
 * Store samples [from, nsamples) of configuration i (and the configuration row
 * itself when from == 0) in one transaction.
 */
int pcost_db_store_config(struct pcost_db *db, const struct pcost_session *s, size_t i,
			  size_t from);
/* Store counter series i in one transaction (again: replaces what was stored for i). */
int pcost_db_store_series(struct pcost_db *db, const struct pcost_session *s, size_t i);
/* Record s->complete. */
int pcost_db_finish_session(struct pcost_db *db, const struct pcost_session *s);

/* Insert all of s[0..n) (new ids, set in s[i].id) in one transaction: all or nothing. */
int pcost_db_import(struct pcost_db *db, struct pcost_session *s, size_t n);

/* Rebuild session id into *s (initialized by the callee).  -ENOENT when absent. */
int pcost_db_load(struct pcost_db *db, int64_t id, struct pcost_session *s);
/* The id of the newest session, or -ENOENT. */
int pcost_db_latest(struct pcost_db *db, int64_t *id);

/* `history` filters; zero / NULL fields match everything. */
struct pcost_db_filter {
	int64_t since, until; /* unix seconds, inclusive; 0 = open */
	const char *workload; /* a configuration has this workload */
	const char *monitor;  /* a configuration has this monitor */
	const char *kernel;   /* kernel release starts with this */
	int kind;	      /* enum pcost_session_kind, -1 = any */
};

struct pcost_db_row {
	int64_t id;
	enum pcost_session_kind kind;
	int64_t started;
	bool complete;
	char *kernel;			    /* NULL when unknown */
	char *workloads;		    /* distinct, comma separated */
	char *monitors;			    /* counters sessions: their interfaces */
	size_t nconfigs, nsamples, nseries; /* nsamples: run samples + counter samples */
	char *cmdline;
};

/* Sessions matching f, oldest first; *rows owned by the caller (pcost_db_rows_free). */
int pcost_db_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		  size_t *n);
void pcost_db_rows_free(struct pcost_db_row *rows, size_t n);

/*
 * Cost tables (calibrate, costs, predict; core/costs.h).  store: t whole, in
 * one transaction (t->id set).  load: every table of the store with its
 * entries, newest first (*out owned by the caller: release each table, free
 * the array).  0 or -errno as the calls above.
 */
int pcost_db_store_costs(struct pcost_db *db, struct pcost_cost_table *t);
int pcost_db_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n);

/*
 * A cost table as JSON (costs_json.c): what `costs --format json` prints, the
 * fingerprint parsed back into an object; caller owns.
 */
struct cJSON;
struct cJSON *pcost_cost_table_to_json(const struct pcost_cost_table *t);
/*
 * Read cost tables back (`costs --import`): {"tables": [...]}, an array of
 * tables or one table, len bytes.  All or nothing: on error *out is NULL and
 * err has one line.  Caller releases each table and frees *out.  0 or -EINVAL.
 */
int pcost_cost_tables_from_text(const char *buf, size_t len, struct pcost_cost_table **out,
				size_t *n, char *err, size_t errlen);

/* Largest export `import` reads, and most sessions in one file. */
#define PCOST_IMPORT_MAX_BYTES (512u << 20)
#define PCOST_IMPORT_MAX_SESSIONS 10000

/*
 * Parse and validate an export (one session object or an array of them) of len
 * bytes.  All or nothing: on error *out is NULL and err has one line.  Caller
 * releases each session and frees *out.  0 or -EINVAL / -EFBIG.
 */
int pcost_sessions_from_text(const char *buf, size_t len, struct pcost_session **out, size_t *n,
			     char *err, size_t errlen);

/* The kernel release recorded in an env fingerprint JSON text; caller frees; NULL if none. */
char *pcost_env_json_kernel(const char *env_json);

/*
 * The session <-> JSON form, raw samples included, so a session exported on
 * one machine imports into another's store unchanged; `run --format json`
 * embeds it.
 */
struct cJSON;

/*
 * A JSON number that reads back as exactly v, null where v is not finite:
 * 15 significant digits where they read back as v, else 17.  cJSON printed 15
 * digits whenever they read back within an epsilon of v, which lost a stored
 * double's last bits on export (a tsc_hz of 2596091293.3224006 came back as
 * 2596091293.3224); every number an export writes goes through this, and
 * where cJSON's text was exact this one is the same, byte for byte.
 */
struct cJSON *pcost_json_exact(double v);
/*
 * A number's value into *out: a cJSON number, or the raw text pcost_json_exact
 * makes (a tree from pcost_session_to_json that was never printed); false for
 * anything else.
 */
bool pcost_json_number(const struct cJSON *v, double *out);

/* Everything in s (env fingerprint parsed back into an object); caller owns. */
struct cJSON *pcost_session_to_json(const struct pcost_session *s);

/*
 * Validate and load j into *s (initialized by the callee).  Rejects anything
 * malformed, out of range or hostile with one line in err; *s is released on
 * failure.  Returns 0 or -EINVAL.
 */
int pcost_session_from_json(const struct cJSON *j, struct pcost_session *s, char *err,
			    size_t errlen);

#endif
