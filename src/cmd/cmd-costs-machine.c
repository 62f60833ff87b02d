// SPDX-License-Identifier: MIT
/* cmd/cmd-costs-machine: store this machine's measured cost table, or find it in the store. */
#include "cmd/cmd-costs-machine.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "core/cleanup.h"
#include "core/env.h"
#include "core/util.h"
#include "run/study.h"
#include "stats/predict.h"
#include "store/store.h"

int pcost_cli_calibrate(const struct pcost_calibrate_opts *o, const char *level,
			const char *cpu_text, struct pcost_cost_table *t)
{
	char err[512] = "";
	int rc = pcost_study_calibrate(o, level, cpu_text, t, err, sizeof(err));
	struct pcost_db *db;

	if (rc == -EINTR) {
		warning("interrupted: the cost table is incomplete and was not stored");
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	}
	if (rc < 0) {
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	if (o->no_store)
		return 0;
	if (pcost_cli_open_db(o->db, PCOST_DB_WRITE, &db))
		return PCOST_EXIT_NOT_STORED;
	rc = pcost_db_store_costs(db, t);
	if (rc)
		warning("the cost table was not stored: %s", pcost_db_error(db));
	else if (pcost_verbosity > 0)
		fprintf(stderr, "probecost %s: stored as cost table %lld (%.0f s)\n", pcost_command,
			(long long)t->id, t->seconds);
	pcost_db_close(db);
	return rc ? PCOST_EXIT_NOT_STORED : 0;
}

/*
 * Move the tables after all[k] that price this machine as well (complete, its
 * fingerprint) into a new array *older, newest first.
 */
static void older_tables(struct pcost_cost_table *all, size_t n, int k, const char *env,
			 struct pcost_cost_table **older, size_t *nolder)
{
	*older = NULL;
	*nolder = 0;
	for (size_t i = (size_t)k + 1; i < n; i++) {
		char diff[512];

		if (!all[i].complete ||
		    pcost_costs_env_mismatch(all[i].env_json, env, diff, sizeof(diff)))
			continue;
		if (!*older)
			*older = xcalloc(n - i, sizeof(**older));
		(*older)[(*nolder)++] = all[i];
		pcost_cost_table_init(&all[i]);
	}
}

int pcost_cli_machine_costs(const char *db_opt, struct pcost_cost_table *t,
			    struct pcost_cost_table **older, size_t *nolder, char *why, size_t len)
{
	char path[PATH_MAX], err[PATH_MAX + 1024], *host = pcost_study_host_name(), *env;
	struct pcost_cost_table *all;
	struct pcost_db *db;
	size_t n;
	int rc, k;

	pcost_cost_table_init(t);
	if (older && nolder) {
		*older = NULL;
		*nolder = 0;
	}
	if (pcost_db_path(db_opt, path, sizeof(path))) {
		free(host);
		error("no store path: give --db PATH or set PROBECOST_DB, XDG_DATA_HOME or HOME");
		return PCOST_EXIT_USAGE;
	}
	rc = pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err));
	if (rc == -ENOENT) {
		free(host);
		snprintf(why, len, "no store at '%s' yet", path);
		return PCOST_COSTS_NONE;
	}
	if (rc) {
		free(host);
		error("%s", err);
		return pcost_cli_db_exit(rc);
	}
	rc = pcost_db_load_costs(db, &all, &n);
	if (rc) {
		free(host);
		error("%s", pcost_db_error(db));
		pcost_db_close(db);
		return pcost_cli_db_exit(rc);
	}
	pcost_db_close(db);
	env = pcost_env_to_json_text(pcost_env_self());
	k = pcost_costs_pick(all, n, host, env, why, len);
	free(host);
	if (k >= 0) {
		*t = all[k];
		pcost_cost_table_init(&all[k]);
		if (older && nolder)
			older_tables(all, n, k, env, older, nolder);
		rc = 0;
	} else if (k == -2) {
		rc = usage_error("refusing a stale cost table: %s; recalibrate with 'probecost "
				 "calibrate%s%s'",
				 why, db_opt ? " --db " : "", db_opt ? db_opt : "");
	} else {
		rc = PCOST_COSTS_NONE;
	}
	free(env);
	pcost_cost_tables_free(all, n);
	return rc;
}

/* Whether id is among t's entries before entry i (each session is read once). */
static bool seen_before(const struct pcost_cost_table *t, size_t i, int64_t id)
{
	for (size_t k = 0; k < i; k++)
		if (t->e[k].session_id == id)
			return true;
	return false;
}

double pcost_cli_table_others(const char *db_opt, const struct pcost_cost_table *t)
{
	char path[PATH_MAX], err[PATH_MAX + 1024];
	struct pcost_db *db;
	double other = 0, wall = 0;

	if (pcost_db_path(db_opt, path, sizeof(path)) ||
	    pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err)))
		return NAN;
	for (size_t i = 0; i < t->n; i++) {
		int64_t id = t->e[i].session_id;
		struct pcost_session s;

		if (id <= 0 || seen_before(t, i, id))
			continue;
		pcost_session_init(&s, PCOST_SESSION_RUN);
		if (!pcost_db_load(db, id, &s))
			for (size_t c = 0; c < s.nconfigs; c++)
				for (size_t k = 0; k < s.configs[c].nsamples; k++) {
					const struct pcost_run_sample *m = &s.configs[c].samples[k];

					if (m->has_busy && !m->failed && !m->warmup) {
						other += (double)m->other_cpu_ns;
						wall += (double)m->wall_ns;
					}
				}
		pcost_session_release(&s);
	}
	pcost_db_close(db);
	return wall > 0 ? other / wall : NAN;
}
