/* SPDX-License-Identifier: MIT */
/*
 * pg_internal: the PostgreSQL backend's state and its statement helpers,
 * shared by pg.c (connecting, errors, schema) and pg_rows.c (sessions in
 * and out) only.
 */
#ifndef PCOST_STORE_PG_INTERNAL_H
#define PCOST_STORE_PG_INTERNAL_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <libpq-fe.h>

#include "core/util.h"
#include "store/backend.h"
#include "store/columns.h"

struct pg_db {
	struct pcost_db base;
	PGconn *conn;
	int queued; /* statements sent in pipeline mode, results not read yet */
};

static inline struct pg_db *pg_of(struct pcost_db *db)
{
	return container_of(db, struct pg_db, base);
}

#define PG_WHAT_READ "could not read the store"
#define PG_WHAT_WRITE "could not write to the store"

/*
 * Parameters of one statement, all sent as text except bytea (binary).  The
 * widest statement, a run_sample row, binds 30; one more is a bug, not a
 * buffer overflow.  own: texts made for the statement, freed by par_release().
 */
#define PG_MAX_PARAMS 32
struct pg_params {
	int n, nown;
	const char *val[PG_MAX_PARAMS];
	int len[PG_MAX_PARAMS];
	int fmt[PG_MAX_PARAMS];
	char num[PG_MAX_PARAMS][32];
	char *own[PG_MAX_PARAMS];
};

/* The index of the next parameter. */
static inline int par_room(const struct pg_params *a)
{
	if (a->n >= PG_MAX_PARAMS)
		abort();
	return a->n;
}

static inline void par_text(struct pg_params *a, const char *s)
{
	a->val[par_room(a)] = s; /* NULL is SQL NULL */
	a->len[a->n] = 0;
	a->fmt[a->n] = 0;
	a->n++;
}

static inline void par_i64(struct pg_params *a, int64_t v)
{
	snprintf(a->num[par_room(a)], sizeof(a->num[0]), "%" PRId64, v);
	par_text(a, a->num[a->n]);
}

static inline void par_f64(struct pg_params *a, double v)
{
	/* %.17g reads back to the same double; PostgreSQL spells the specials its way. */
	par_room(a);
	if (isnan(v))
		snprintf(a->num[a->n], sizeof(a->num[0]), "NaN");
	else if (isinf(v))
		snprintf(a->num[a->n], sizeof(a->num[0]), "%sInfinity", v < 0 ? "-" : "");
	else
		snprintf(a->num[a->n], sizeof(a->num[0]), "%.17g", v);
	par_text(a, a->num[a->n]);
}

static inline void par_bool(struct pg_params *a, bool b)
{
	par_text(a, b ? "t" : "f");
}

static inline void par_bytes(struct pg_params *a, const void *b, size_t n)
{
	a->val[par_room(a)] = n ? b : "";
	a->len[a->n] = (int)n;
	a->fmt[a->n] = 1;
	a->n++;
}

/* Free the texts made for the statement (after it ran). */
static inline void par_release(struct pg_params *a)
{
	while (a->nown > 0)
		free(a->own[--a->nown]);
}

static inline int64_t get_i64(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static inline double get_f64(const PGresult *r, int row, int col)
{
	return strtod(PQgetvalue(r, row, col), NULL);
}

static inline bool get_bool(const PGresult *r, int row, int col)
{
	return PQgetvalue(r, row, col)[0] == 't';
}

/* Text or NULL (a NULL column). */
static inline const char *get_text(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

static inline char *dup_text(const PGresult *r, int row, int col)
{
	const char *t = get_text(r, row, col);

	return t ? xstrdup(t) : NULL;
}

/*
 * rec's columns of t as the next parameters (the row id among them where
 * rowid).  pg_rows.c.
 */
void pcost_pg_par_cols(struct pg_params *a, const struct pcost_table *t, const void *rec,
		       bool rowid);
/*
 * Set rec's fields from the columns a pcost_sql_select() of t gives, in row
 * row from column k on.  -1, or the position (from k) of the first one a hook
 * refused.  pg_rows.c.
 */
int pcost_pg_get_cols(const PGresult *r, int row, int k, const struct pcost_table *t, void *rec);
/* pcost_pg_run() of pcost_sql_select(t, lead, tail), with id as $1 unless id < 0. */
int pcost_pg_select(struct pg_db *p, const struct pcost_table *t, const char *lead,
		    const char *tail, int64_t id, PGresult **r);

/* Record "what at 'URL': the server's message" in db->err; clears r; returns -errno. */
int pcost_pg_fail(struct pg_db *p, PGresult *r, const char *what);
/* Load libpq (store/pg_dl.c): NULL, or one line saying why it could not be, and the fix. */
const char *pcost_libpq_load(void);
/* Run one statement; rows (if out) are the caller's to PQclear.  0 or pcost_pg_fail(). */
int pcost_pg_run(struct pg_db *p, const char *sql, const struct pg_params *a, PGresult **out,
		 const char *what);
/* ROLLBACK whatever is open; returns rc. */
int pcost_pg_rollback(struct pg_db *p, int rc);
/* BEGIN a write, reconnecting once if the connection was lost. */
int pcost_pg_tx_begin(struct pg_db *p);
/* COMMIT when rc is 0, else ROLLBACK; returns the first failure. */
int pcost_pg_tx_end(struct pg_db *p, int rc);

/* pg_rows.c: the rows of pcost_pg_ops that move sessions; see store.h for each. */
int pcost_pg_begin_session(struct pcost_db *db, struct pcost_session *s);
int pcost_pg_finish_session(struct pcost_db *db, const struct pcost_session *s);
int pcost_pg_import(struct pcost_db *db, struct pcost_session *s, size_t n);
int pcost_pg_load(struct pcost_db *db, int64_t id, struct pcost_session *s);
int pcost_pg_latest(struct pcost_db *db, int64_t *id);
int pcost_pg_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		  size_t *n);

/* costs_pg.c: calibrate's cost tables; see store.h. */
int pcost_pg_store_costs(struct pcost_db *db, struct pcost_cost_table *t);
int pcost_pg_load_costs(struct pcost_db *db, struct pcost_cost_table **out, size_t *n);

#endif
