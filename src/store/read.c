// SPDX-License-Identifier: MIT
/* read: rebuild stored sessions and list them for `history`. */
#include "store/db_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static int step_row(struct pcost_db *db, sqlite3_stmt *st, int *rc)
{
	int r = sqlite3_step(st);

	if (r == SQLITE_ROW)
		return 1;
	if (r != SQLITE_DONE)
		*rc = pcost_db_fail(db, r, "could not read the store");
	return 0;
}

int pcost_sqlite_read_cols(sqlite3_stmt *st, int k, const struct pcost_table *t, void *rec)
{
	int bad = -1, first = k;

	pcost_for_each_col(c, t) {
		struct pcost_val v = { 0 };

		if (!pcost_col_selected(c))
			continue;
		if (sqlite3_column_type(st, k) == SQLITE_NULL) {
			v.t = PCOST_VAL_NULL;
		} else if (c->type == PCOST_SQL_REAL) {
			v.t = PCOST_VAL_REAL;
			v.r = sqlite3_column_double(st, k);
		} else if (c->type == PCOST_SQL_TEXT) {
			v.t = PCOST_VAL_TEXT;
			v.s = (const char *)sqlite3_column_text(st, k);
		} else {
			v.t = PCOST_VAL_INT;
			v.i = sqlite3_column_int64(st, k);
		}
		if (pcost_col_set(c, rec, &v) && bad < 0)
			bad = k - first;
		k++;
	}
	return bad;
}

int pcost_sqlite_prepare_select(struct pcost_db *db, const struct pcost_table *t, const char *lead,
				const char *tail, sqlite3_stmt **st)
{
	char *sql = pcost_sql_select(t, lead, tail);
	int rc = pcost_db_prepare(db, sql, st);

	free(sql);
	return rc;
}

static int load_session_row(struct pcost_db *db, int64_t id, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc, bad;

	if ((rc = pcost_sqlite_prepare_select(db, &pcost_session_cols, NULL,
					      " FROM session WHERE id = ?", &st)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (step_row(db, st, &rc)) {
		if ((bad = pcost_sqlite_read_cols(st, 0, &pcost_session_cols, s)) >= 0) {
			snprintf(db->err, sizeof(db->err), "session %lld has an unknown kind '%s'",
				 (long long)id, sqlite3_column_text(st, bad));
			rc = -EBADMSG;
		}
		s->id = id;
	} else if (!rc) {
		snprintf(db->err, sizeof(db->err),
			 "no session %lld in '%s'; see 'probecost history'", (long long)id,
			 db->path);
		rc = -ENOENT;
	}
	sqlite3_finalize(st);
	return rc;
}

static int load_configs(struct pcost_db *db, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = pcost_sqlite_prepare_select(db, &pcost_config_cols, "idx",
					      " FROM config WHERE session_id = ? ORDER BY idx",
					      &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	while (step_row(db, st, &rc)) {
		if (sqlite3_column_int64(st, 0) != (int64_t)s->nconfigs) {
			snprintf(db->err, sizeof(db->err),
				 "session %lld: configuration %zu is missing", (long long)s->id,
				 s->nconfigs);
			rc = -EBADMSG;
			break;
		}
		pcost_sqlite_read_cols(st, 1, &pcost_config_cols,
				       pcost_session_add_config(s, NULL, NULL, NULL, NULL, NULL));
	}
	sqlite3_finalize(st);
	return rc;
}

static int load_samples(struct pcost_db *db, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = pcost_sqlite_prepare_select(
		     db, &pcost_sample_cols, "config_idx",
		     " FROM run_sample WHERE session_id = ? ORDER BY config_idx, seq", &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	while (step_row(db, st, &rc)) {
		struct pcost_run_sample r = { 0 };
		int64_t ci = sqlite3_column_int64(st, 0);

		if (ci < 0 || (uint64_t)ci >= s->nconfigs) {
			snprintf(db->err, sizeof(db->err),
				 "session %lld: a sample of no configuration", (long long)s->id);
			rc = -EBADMSG;
			break;
		}
		/* A fault word this probecost does not know reads as not recorded. */
		pcost_sqlite_read_cols(st, 1, &pcost_sample_cols, &r);
		pcost_config_add_sample(&s->configs[ci], &r);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The session's figures, then each run's values (samples loaded first). */
static int load_metrics(struct pcost_db *db, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = pcost_sqlite_prepare_select(db, &pcost_metric_cols, "idx",
					      " FROM metric WHERE session_id = ? ORDER BY idx",
					      &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	while (step_row(db, st, &rc)) {
		struct pcost_session_metric m = { 0 };

		if (sqlite3_column_int64(st, 0) != (int64_t)s->nmetrics) {
			snprintf(db->err, sizeof(db->err), "session %lld: figure %zu is missing",
				 (long long)s->id, s->nmetrics);
			rc = -EBADMSG;
			break;
		}
		pcost_sqlite_read_cols(st, 1, &pcost_metric_cols, &m);
		pcost_session_add_metric(s, m.name, m.unit, m.better);
		free(m.name);
		free(m.unit);
	}
	sqlite3_finalize(st);
	if (rc || !s->nmetrics ||
	    (rc = pcost_db_prepare(db,
				   "SELECT config_idx, seq, metric_idx,"
				   " value FROM run_metric WHERE session_id = ?",
				   &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	while (step_row(db, st, &rc))
		if (pcost_session_set_metric(s, (size_t)sqlite3_column_int64(st, 0),
					     (size_t)sqlite3_column_int64(st, 1),
					     (size_t)sqlite3_column_int64(st, 2),
					     sqlite3_column_double(st, 3)) < 0) {
			snprintf(db->err, sizeof(db->err),
				 "session %lld: a figure's value of no run", (long long)s->id);
			rc = -EBADMSG;
			break;
		}
	sqlite3_finalize(st);
	return rc;
}

static int load_series(struct pcost_db *db, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc = 0, k = (int)pcost_sql_nselected(&pcost_series_cols);

	if ((rc = pcost_sqlite_prepare_select(
		     db, &pcost_series_cols, NULL,
		     ", n, ns FROM series WHERE session_id = ? ORDER BY idx", &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	while (step_row(db, st, &rc)) {
		int64_t n = sqlite3_column_int64(st, k);
		const void *blob = sqlite3_column_blob(st, k + 1);
		int bytes = sqlite3_column_bytes(st, k + 1);

		if (n < 0 || (uint64_t)bytes != (uint64_t)n * sizeof(double)) {
			snprintf(db->err, sizeof(db->err),
				 "session %lld: counter series %zu has %d bytes for %lld samples",
				 (long long)s->id, s->nseries, bytes, (long long)n);
			rc = -EBADMSG;
			break;
		}
		pcost_sqlite_read_cols(
			st, 0, &pcost_series_cols,
			pcost_session_add_series(s, NULL, NULL, NULL, 0, NULL, blob, (size_t)n));
	}
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_load(struct pcost_db *db, int64_t id, struct pcost_session *s)
{
	int rc;

	pcost_session_init(s, PCOST_SESSION_RUN);
	/* One read transaction: a concurrent writer cannot show us half a session. */
	if ((rc = pcost_db_exec(db, "BEGIN", "could not read the store")))
		return rc;
	rc = load_session_row(db, id, s);
	if (!rc)
		rc = load_configs(db, s);
	if (!rc)
		rc = load_samples(db, s);
	if (!rc)
		rc = load_metrics(db, s);
	if (!rc)
		rc = load_series(db, s);
	sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
	if (rc)
		pcost_session_release(s);
	return rc;
}

int pcost_sqlite_latest(struct pcost_db *db, int64_t *id)
{
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = pcost_db_prepare(db, "SELECT max(id) FROM session", &st)))
		return rc;
	if (step_row(db, st, &rc) && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*id = sqlite3_column_int64(st, 0);
	else if (!rc) {
		snprintf(db->err, sizeof(db->err), "no sessions in '%s' yet", db->path);
		rc = -ENOENT;
	}
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_list(struct pcost_db *db, const struct pcost_db_filter *f,
		      struct pcost_db_row **rows, size_t *n)
{
	static const char sql[] =
		"SELECT s.id, s.kind, s.started, s.complete, s.kernel,"
		" (SELECT group_concat(w, ',') FROM (SELECT DISTINCT workload AS w FROM config"
		"   WHERE session_id = s.id ORDER BY idx)),"
		" coalesce((SELECT group_concat(m, ',') FROM (SELECT DISTINCT monitor AS m FROM config"
		"   WHERE session_id = s.id ORDER BY idx)),"
		"  (SELECT group_concat(i, ',') FROM (SELECT DISTINCT interface AS i FROM series"
		"   WHERE session_id = s.id ORDER BY idx))),"
		" (SELECT count(*) FROM config WHERE session_id = s.id),"
		" (SELECT count(*) FROM run_sample WHERE session_id = s.id)"
		"  + (SELECT coalesce(sum(n), 0) FROM series WHERE session_id = s.id),"
		" (SELECT count(*) FROM series WHERE session_id = s.id),"
		" s.cmdline"
		" FROM session s WHERE (?1 = 0 OR s.started >= ?1) AND (?2 = 0 OR s.started <= ?2)"
		" AND (?3 IS NULL OR EXISTS (SELECT 1 FROM config WHERE session_id = s.id"
		"   AND workload = ?3))"
		" AND (?4 IS NULL OR EXISTS (SELECT 1 FROM config WHERE session_id = s.id"
		"   AND monitor = ?4))"
		" AND (?5 IS NULL OR substr(s.kernel, 1, length(?5)) = ?5)"
		" AND (?6 IS NULL OR s.kind = ?6)"
		" ORDER BY s.id";
	struct pcost_db_row *out = NULL;
	size_t cap = 0, len = 0;
	sqlite3_stmt *st;
	int rc = 0;

	*rows = NULL;
	*n = 0;
	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	sqlite3_bind_int64(st, 1, f->since);
	sqlite3_bind_int64(st, 2, f->until);
	if (f->workload)
		sqlite3_bind_text(st, 3, f->workload, -1, SQLITE_STATIC);
	if (f->monitor)
		sqlite3_bind_text(st, 4, f->monitor, -1, SQLITE_STATIC);
	if (f->kernel)
		sqlite3_bind_text(st, 5, f->kernel, -1, SQLITE_STATIC);
	if (f->kind >= 0)
		sqlite3_bind_text(st, 6, pcost_session_kind_name(f->kind), -1, SQLITE_STATIC);
	while (step_row(db, st, &rc)) {
		struct pcost_db_row *r;

		xgrow((void **)&out, &cap, len + 1, sizeof(*out));
		r = &out[len++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		if (pcost_session_kind_parse((const char *)sqlite3_column_text(st, 1), &r->kind))
			r->kind = PCOST_SESSION_RUN;
		r->started = sqlite3_column_int64(st, 2);
		r->complete = sqlite3_column_int(st, 3);
		r->kernel = col_text(st, 4);
		r->workloads = col_text(st, 5);
		r->monitors = col_text(st, 6);
		r->nconfigs = (size_t)sqlite3_column_int64(st, 7);
		r->nsamples = (size_t)sqlite3_column_int64(st, 8);
		r->nseries = (size_t)sqlite3_column_int64(st, 9);
		r->cmdline = col_text(st, 10);
	}
	sqlite3_finalize(st);
	if (rc) {
		pcost_db_rows_free(out, len);
		return rc;
	}
	*rows = out;
	*n = len;
	return 0;
}

void pcost_db_rows_free(struct pcost_db_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].kernel);
		free(rows[i].workloads);
		free(rows[i].monitors);
		free(rows[i].cmdline);
	}
	free(rows);
}
