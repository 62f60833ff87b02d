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
	static const char sql[] =
		"INSERT INTO session (kind, started, cmdline, version, env_json, options_json,"
		" seed, tsc_hz, complete, stored, kernel) VALUES (?,?,?,?,?,?,?,?,?,?,?)";
	char *kernel = pcost_env_json_kernel(s->env_json);
	sqlite3_stmt *st;
	int rc;

	if ((rc = pcost_db_prepare(db, sql, &st))) {
		free(kernel);
		return rc;
	}
	bind_text(st, 1, pcost_session_kind_name(s->kind));
	sqlite3_bind_int64(st, 2, s->started);
	bind_text(st, 3, s->cmdline);
	bind_text(st, 4, s->version);
	bind_text(st, 5, s->env_json);
	bind_text(st, 6, s->options_json);
	sqlite3_bind_int64(st, 7, (int64_t)s->seed);
	sqlite3_bind_double(st, 8, s->tsc_hz);
	sqlite3_bind_int(st, 9, s->complete);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	bind_text(st, 11, kernel);
	rc = step_done(db, st, "could not write to the store");
	sqlite3_finalize(st);
	free(kernel);
	if (!rc)
		s->id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

static int insert_config_row(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	/* OR IGNORE: the sink may flush a configuration before its first sample. */
	static const char sql[] =
		"INSERT OR IGNORE INTO config (session_id, idx, workload, workload_args,"
		" monitor, variant, unit, expected_events, threads, placement)"
		" VALUES (?,?,?,?,?,?,?,?,?,?)";
	const struct pcost_config *c = &s->configs[i];
	sqlite3_stmt *st;
	int rc;

	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, (int64_t)i);
	bind_text(st, 3, c->workload);
	bind_text(st, 4, c->workload_args);
	bind_text(st, 5, c->monitor);
	bind_text(st, 6, c->variant);
	bind_text(st, 7, c->unit);
	sqlite3_bind_int64(st, 8, c->expected_events);
	sqlite3_bind_int64(st, 9, c->threads);
	bind_text(st, 10, c->placement);
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
	static const char def_sql[] = "INSERT OR REPLACE INTO metric (session_id, idx, name, unit,"
				      " better) VALUES (?,?,?,?,?)";
	static const char val_sql[] = "INSERT INTO run_metric (session_id, config_idx, seq,"
				      " metric_idx, value) VALUES (?,?,?,?,?)";
	const struct pcost_config *c = &s->configs[i];
	sqlite3_stmt *st;
	int rc;

	if (!s->nmetrics)
		return 0;
	if ((rc = pcost_db_prepare(db, def_sql, &st)))
		return rc;
	for (size_t k = 0; k < s->nmetrics && !rc; k++) {
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_int64(st, 2, (int64_t)k);
		bind_text(st, 3, s->metrics[k].name);
		bind_text(st, 4, s->metrics[k].unit);
		sqlite3_bind_int(st, 5, s->metrics[k].better);
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
	static const char sql[] =
		"INSERT INTO run_sample (session_id, config_idx, seq, block, ord, warmup, failed,"
		" wait_status, fail_reason, scale, wall_ns, user_ns, sys_ns, maxrss_kb, minflt,"
		" majflt, nvcsw, nivcsw, has_report, events, timed_ns, monitor_events, other_cpu_ns,"
		" steal_ns, optimized, fault, self_check, note, service_user_ns, service_sys_ns)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	const struct pcost_config *c = &s->configs[i];
	sqlite3_stmt *st;
	int rc = 0;

	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	for (size_t j = from; j < c->nsamples && !rc; j++) {
		const struct pcost_run_sample *r = &c->samples[j];
		int k = 1;

		sqlite3_bind_int64(st, k++, s->id);
		sqlite3_bind_int64(st, k++, (int64_t)i);
		sqlite3_bind_int64(st, k++, (int64_t)j);
		sqlite3_bind_int64(st, k++, r->block);
		sqlite3_bind_int64(st, k++, r->order);
		sqlite3_bind_int(st, k++, r->warmup);
		sqlite3_bind_int(st, k++, r->failed);
		sqlite3_bind_int(st, k++, r->wait_status);
		sqlite3_bind_text(st, k++, r->fail_reason,
				  (int)strnlen(r->fail_reason, sizeof(r->fail_reason)),
				  SQLITE_STATIC);
		sqlite3_bind_double(st, k++, r->scale);
		/* Unsigned 64-bit values keep their bit pattern in SQLite's int64. */
		sqlite3_bind_int64(st, k++, (int64_t)r->wall_ns);
		sqlite3_bind_int64(st, k++, (int64_t)r->user_ns);
		sqlite3_bind_int64(st, k++, (int64_t)r->sys_ns);
		sqlite3_bind_int64(st, k++, r->maxrss_kb);
		sqlite3_bind_int64(st, k++, r->minflt);
		sqlite3_bind_int64(st, k++, r->majflt);
		sqlite3_bind_int64(st, k++, r->nvcsw);
		sqlite3_bind_int64(st, k++, r->nivcsw);
		sqlite3_bind_int(st, k++, r->has_report);
		sqlite3_bind_int64(st, k++, (int64_t)r->events);
		sqlite3_bind_int64(st, k++, (int64_t)r->timed_ns);
		sqlite3_bind_int64(st, k++, r->monitor_events);
		if (r->has_busy) {
			sqlite3_bind_int64(st, k++, (int64_t)r->other_cpu_ns);
			sqlite3_bind_int64(st, k++, (int64_t)r->steal_ns);
		} else {
			sqlite3_bind_null(st, k++);
			sqlite3_bind_null(st, k++);
		}
		/* 1 optimized, 0 not, NULL unknown (never a guess of 0). */
		if (r->optimized)
			sqlite3_bind_int(st, k++, r->optimized > 0);
		else
			sqlite3_bind_null(st, k++);
		/* NULL where not recorded or not said, never a guess. */
		if (pcost_fault_name(r->fault))
			sqlite3_bind_text(st, k++, pcost_fault_name(r->fault), -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, k++);
		if (r->check)
			sqlite3_bind_int(st, k++, r->check > 0);
		else
			sqlite3_bind_null(st, k++);
		if (r->note[0])
			sqlite3_bind_text(st, k++, r->note, (int)strnlen(r->note, sizeof(r->note)),
					  SQLITE_STATIC);
		else
			sqlite3_bind_null(st, k++);
		if (r->has_service) {
			sqlite3_bind_int64(st, k++, (int64_t)r->service_user_ns);
			sqlite3_bind_int64(st, k++, (int64_t)r->service_sys_ns);
		} else {
			sqlite3_bind_null(st, k++);
			sqlite3_bind_null(st, k++);
		}
		rc = step_done(db, st, "could not write to the store");
	}
	sqlite3_finalize(st);
	return rc ? rc : insert_run_metrics(db, s, i, from);
}

static int insert_series(struct pcost_db *db, const struct pcost_session *s, size_t i)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO series (session_id, idx, interface, op, events,"
		" nevents, timer, note, n, ns) VALUES (?,?,?,?,?,?,?,?,?,?)";
	const struct pcost_counter_series *c = &s->series[i];
	sqlite3_stmt *st;
	int rc;

	if (c->n > (size_t)INT32_MAX / sizeof(double)) {
		snprintf(db->err, sizeof(db->err), "counter series %zu is too long to store", i);
		return -EFBIG;
	}
	if ((rc = pcost_db_prepare(db, sql, &st)))
		return rc;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, (int64_t)i);
	bind_text(st, 3, c->interface);
	bind_text(st, 4, c->op);
	bind_text(st, 5, c->events);
	sqlite3_bind_int64(st, 6, c->nevents);
	bind_text(st, 7, c->timer);
	bind_text(st, 8, c->note);
	sqlite3_bind_int64(st, 9, (int64_t)c->n);
	sqlite3_bind_blob(st, 10, c->ns, (int)(c->n * sizeof(double)), SQLITE_STATIC);
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
