// SPDX-License-Identifier: MIT
/*
 * write: sessions, configurations, raw samples and counter series into the
 * store.  Every public call is one transaction, so an interrupted measurement
 * keeps exactly the configurations already written, and a failed import
 * leaves nothing behind.
 */
#include "store/db_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

void pcost_sqlite_bind_cols(sqlite3_stmt *st, int *k, const struct pcost_table *t, const void *rec)
{
	pcost_for_each_col(c, t) {
		struct pcost_val v;
		int i = *k;

		if (!pcost_col_inserted(c, false))
			continue;
		pcost_col_get(c, rec, &v);
		switch (v.t) {
		case PCOST_VAL_NULL:
			sqlite3_bind_null(st, i);
			break;
		case PCOST_VAL_INT:
			sqlite3_bind_int64(st, i, v.i);
			break;
		case PCOST_VAL_REAL:
			sqlite3_bind_double(st, i, v.r);
			break;
		case PCOST_VAL_TEXT:
			sqlite3_bind_text(st, i, v.s, -1, v.own ? SQLITE_TRANSIENT : SQLITE_STATIC);
			break;
		}
		pcost_val_release(&v);
		(*k)++;
	}
}

/* Prepare t's INSERT (verb "INSERT", "INSERT OR IGNORE"...) with nextra columns after its own. */
static int prepare_insert(struct pcost_db *db, const struct pcost_table *t, const char *verb,
			  const char *extra, size_t nextra, sqlite3_stmt **st)
{
	char *sql = pcost_sql_insert(t, verb, false, false, extra, nextra);
	int rc = pcost_db_prepare(db, sql, st);

	free(sql);
	return rc;
}

/* Step a bound insert/update to completion and reset it for the next row. */
static int step_done(struct pcost_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : pcost_db_fail(db, rc, what);
}

static int begin(struct pcost_db *db)
{
	/* IMMEDIATE: take the write lock (waiting on the busy timeout) before reading. */
	return pcost_db_exec(db, "BEGIN IMMEDIATE", "could not write to the store");
}

static int end(struct pcost_db *db, int rc)
{
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	rc = pcost_db_exec(db, "COMMIT", "could not write to the store");
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int insert_session(struct pcost_db *db, struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc, k = 1;

	if ((rc = prepare_insert(db, &pcost_session_cols, "INSERT", NULL, 0, &st)))
		return rc;
	pcost_sqlite_bind_cols(st, &k, &pcost_session_cols, s);
	rc = step_done(db, st, "could not write to the store");
	sqlite3_finalize(st);
	if (!rc)
		s->id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

static int insert_config_row(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	sqlite3_stmt *st;
	int rc, k = 1;

	/* OR IGNORE: the sink may flush a configuration before its first sample. */
	if ((rc = prepare_insert(db, &pcost_config_cols, "INSERT OR IGNORE", NULL, 0, &st)))
		return rc;
	sqlite3_bind_int64(st, k++, s->id);
	sqlite3_bind_int64(st, k++, (int64_t)i);
	pcost_sqlite_bind_cols(st, &k, &pcost_config_cols, &s->configs[i]);
	rc = step_done(db, st, "could not write to the store");
	sqlite3_finalize(st);
	return rc;
}

/*
 * The session's figures (again each time: a figure's unit and direction may
 * come with its first value) and the values of samples [from, n) of config i.
 */
static int insert_run_metrics(struct pcost_db *db, const struct pcost_session *s, size_t i,
			      size_t from)
{
	static const char val_sql[] = "INSERT INTO run_metric (session_id, config_idx, seq,"
				      " metric_idx, value) VALUES (?,?,?,?,?)";
	const struct pcost_config *c = &s->configs[i];
	sqlite3_stmt *st;
	int rc;

	if (!s->nmetrics)
		return 0;
	if ((rc = prepare_insert(db, &pcost_metric_cols, "INSERT OR REPLACE", NULL, 0, &st)))
		return rc;
	for (size_t m = 0; m < s->nmetrics && !rc; m++) {
		int k = 1;

		sqlite3_bind_int64(st, k++, s->id);
		sqlite3_bind_int64(st, k++, (int64_t)m);
		pcost_sqlite_bind_cols(st, &k, &pcost_metric_cols, &s->metrics[m]);
		rc = step_done(db, st, "could not write to the store");
	}
	sqlite3_finalize(st);
	if (rc || (rc = pcost_db_prepare(db, val_sql, &st)))
		return rc;
	for (size_t j = from; j < c->nsamples && !rc; j++)
		for (size_t k = 0; c->samples[j].metrics && k < s->nmetrics && !rc; k++) {
			if (isnan(c->samples[j].metrics[k]))
				continue;
			sqlite3_bind_int64(st, 1, s->id);
			sqlite3_bind_int64(st, 2, (int64_t)i);
			sqlite3_bind_int64(st, 3, (int64_t)j);
			sqlite3_bind_int64(st, 4, (int64_t)k);
			sqlite3_bind_double(st, 5, c->samples[j].metrics[k]);
			rc = step_done(db, st, "could not write to the store");
		}
	sqlite3_finalize(st);
	return rc;
}

static int insert_samples(struct pcost_db *db, const struct pcost_session *s, size_t i, size_t from)
{
	const struct pcost_config *c = &s->configs[i];
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = prepare_insert(db, &pcost_sample_cols, "INSERT", NULL, 0, &st)))
		return rc;
	for (size_t j = from; j < c->nsamples && !rc; j++) {
		int k = 1;

		sqlite3_bind_int64(st, k++, s->id);
		sqlite3_bind_int64(st, k++, (int64_t)i);
		sqlite3_bind_int64(st, k++, (int64_t)j);
		pcost_sqlite_bind_cols(st, &k, &pcost_sample_cols, &c->samples[j]);
		rc = step_done(db, st, "could not write to the store");
	}
	sqlite3_finalize(st);
	return rc ? rc : insert_run_metrics(db, s, i, from);
}

static int insert_series(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	const struct pcost_counter_series *c = &s->series[i];
	sqlite3_stmt *st;
	int rc, k = 1;

	if (c->n > (size_t)INT32_MAX / sizeof(double)) {
		snprintf(db->err, sizeof(db->err), "counter series %zu is too long to store", i);
		return -EFBIG;
	}
	/* n native doubles: every sample, raw */
	if ((rc = prepare_insert(db, &pcost_series_cols, "INSERT OR REPLACE", "n, ns", 2, &st)))
		return rc;
	sqlite3_bind_int64(st, k++, s->id);
	sqlite3_bind_int64(st, k++, (int64_t)i);
	pcost_sqlite_bind_cols(st, &k, &pcost_series_cols, c);
	sqlite3_bind_int64(st, k++, (int64_t)c->n);
	sqlite3_bind_blob(st, k++, c->ns, (int)(c->n * sizeof(double)), SQLITE_STATIC);
	rc = step_done(db, st, "could not write to the store");
	sqlite3_finalize(st);
	return rc;
}

int pcost_sqlite_begin_session(struct pcost_db *db, struct pcost_session *s)
{
	bool complete = s->complete;
	int rc;

	/* Incomplete until pcost_db_finish_session() says otherwise. */
	s->complete = false;
	rc = begin(db);
	if (!rc)
		rc = end(db, insert_session(db, s));
	s->complete = complete;
	return rc;
}

int pcost_sqlite_store_config(struct pcost_db *db, const struct pcost_session *s, size_t i,
			      size_t from)
{
	int rc = begin(db);

	if (rc)
		return rc;
	if (from == 0)
		rc = insert_config_row(db, s, i);
	if (!rc)
		rc = insert_samples(db, s, i, from);
	return end(db, rc);
}

int pcost_sqlite_store_series(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	int rc = begin(db);

	return rc ? rc : end(db, insert_series(db, s, i));
}

/*
 * Flags set after a sample was stored: an adaptive run's pilot, left out of the
 * figures when its second stage ended (run/runner.h pilot_apart), is flagged
 * warm-up at the end.
 */
static int update_warmup(struct pcost_db *db, const struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = pcost_db_prepare(db,
				   "UPDATE run_sample SET warmup = 1 WHERE session_id = ? AND"
				   " config_idx = ? AND seq = ? AND warmup = 0",
				   &st)))
		return rc;
	for (size_t i = 0; i < s->nconfigs && !rc; i++)
		for (size_t j = 0; j < s->configs[i].nsamples && !rc; j++) {
			if (!s->configs[i].samples[j].warmup)
				continue;
			sqlite3_bind_int64(st, 1, s->id);
			sqlite3_bind_int64(st, 2, (int64_t)i);
			sqlite3_bind_int64(st, 3, (int64_t)j);
			rc = step_done(db, st, "could not write to the store");
		}
	sqlite3_finalize(st);
	return rc;
}

/* The session complete (or not), its options as they ended, its flags. */
int pcost_sqlite_finish_session(struct pcost_db *db, const struct pcost_session *s)
{
	sqlite3_stmt *st;
	int rc = begin(db);

	if (rc)
		return rc;
	if ((rc = pcost_db_prepare(
		     db, "UPDATE session SET complete = ?, options_json = ? WHERE id = ?", &st)))
		return end(db, rc);
	sqlite3_bind_int(st, 1, s->complete);
	bind_text(st, 2, s->options_json);
	sqlite3_bind_int64(st, 3, s->id);
	rc = step_done(db, st, "could not write to the store");
	sqlite3_finalize(st);
	return end(db, rc ? rc : update_warmup(db, s));
}

int pcost_sqlite_import(struct pcost_db *db, struct pcost_session *ss, size_t n)
{
	int64_t *old_ids = xcalloc(n ? n : 1, sizeof(*old_ids));
	int rc;

	for (size_t k = 0; k < n; k++)
		old_ids[k] = ss[k].id;
	rc = begin(db);
	if (rc) {
		free(old_ids);
		return rc;
	}
	for (size_t k = 0; k < n && !rc; k++) {
		struct pcost_session *s = &ss[k];

		rc = insert_session(db, s);
		for (size_t i = 0; i < s->nconfigs && !rc; i++) {
			rc = insert_config_row(db, s, i);
			if (!rc)
				rc = insert_samples(db, s, i, 0);
		}
		for (size_t i = 0; i < s->nseries && !rc; i++)
			rc = insert_series(db, s, i);
	}
	rc = end(db, rc);
	if (rc)
		for (size_t k = 0; k < n; k++)
			ss[k].id = old_ids[k];
	free(old_ids);
	return rc;
}
