// SPDX-License-Identifier: MIT
/* cmd/cmd-options: one option parser, one way to open the store and name sessions, for every store command. */
#include "cmd/cmd-options.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/compare.h"
#include "report/report.h"

int pcost_db_opt_check(const char *db)
{
	if (!*db)
		return usage_error("--db '' is empty: give a file name, or leave --db out for the "
				   "default store");
	if (strlen(db) > PCOST_DB_PATH_MAX)
		return usage_error(
			"the --db path is %zu bytes long, more than the %d a path may be",
			strlen(db), PCOST_DB_PATH_MAX);
	return 0;
}

int pcost_opt_db(const struct pcost_option *opt, const char *arg)
{
	int rc = pcost_db_opt_check(arg);

	if (!rc)
		*(const char **)opt->value = arg;
	return rc;
}

int pcost_store_opts_parse(struct pcost_store_opts *o, struct pcost_parse *p, int argc, char **argv)
{
	int rc, n;

	o->db = NULL;
	o->fmt = PCOST_FMT_TEXT;
	o->fmt_given = false;
	p->permute = true;
	p->bad_option = "unknown option or missing value";
	if ((rc = pcost_parse_options(p, argc, argv)))
		return rc;
	o->argv = p->argv;
	o->argc = n = p->argc;
	if (n < o->min_args || (o->max_args >= 0 && n > o->max_args)) {
		if (o->max_args == 0)
			return usage_error("unexpected argument '%s'; see 'probecost %s --help'",
					   o->argv[0], p->cmd);
		return usage_error("takes %s; see 'probecost %s --help'", o->args, p->cmd);
	}
	return 0;
}

int pcost_cli_open_db(const char *db_opt, enum pcost_db_mode mode, struct pcost_db **db)
{
	char path[PATH_MAX], err[PATH_MAX + 1024];
	int rc;

	if (pcost_db_path(db_opt, path, sizeof(path))) {
		error("no store path: give --db PATH or set PROBECOST_DB, XDG_DATA_HOME or HOME");
		return PCOST_EXIT_USAGE;
	}
	rc = pcost_db_open(path, mode, db, err, sizeof(err));
	if (rc == -ENOENT) {
		/* --db names no store: bad input (exit 2), as a session id that names none. */
		error("%s; run a measurement first or give --db PATH", err);
		return PCOST_EXIT_USAGE;
	}
	if (rc) {
		error("%s", err);
		return pcost_cli_db_exit(rc);
	}
	return 0;
}

int pcost_cli_db_exit(int rc)
{
	/* Not a store of ours or damaged, a bad URL, credentials refused, a database or a
	 * file that is not there, a directory: the input is wrong. */
	return rc == -EBADMSG || rc == -EPROTO || rc == -EINVAL || rc == -EKEYREJECTED ||
			       rc == -ENXIO || rc == -EISDIR
		       ? PCOST_EXIT_USAGE
		       : PCOST_EXIT_FAIL;
}

static int cli_session_id(struct pcost_db *db, const char *arg, int64_t *id)
{
	uint64_t v;

	if (!strcmp(arg, "last") || !strcmp(arg, "latest")) {
		int rc = pcost_db_latest(db, id);

		if (rc) {
			error("%s", pcost_db_error(db));
			return pcost_cli_db_exit(rc);
		}
		return 0;
	}
	if (pcost_parse_u64(arg, 1, INT64_MAX, &v) || strpbrk(arg, "kMG"))
		return usage_error(
			"'%s' is not a session id (a number from 'probecost history', or 'last')",
			arg);
	*id = (int64_t)v;
	return 0;
}

int pcost_cli_load(struct pcost_db *db, const char *arg, struct pcost_session *s)
{
	int64_t id = 0;
	int rc = cli_session_id(db, arg, &id);

	if (rc)
		return rc;
	rc = pcost_db_load(db, id, s);
	if (rc) {
		error("%s", pcost_db_error(db));
		/* No such session: the id is wrong. */
		return rc == -ENOENT ? PCOST_EXIT_USAGE : pcost_cli_db_exit(rc);
	}
	return 0;
}

int pcost_cli_list(struct pcost_db *db, const struct pcost_db_filter *f, struct pcost_db_row **rows,
		   size_t *n)
{
	int rc = pcost_db_list(db, f, rows, n);

	if (rc) {
		error("%s", pcost_db_error(db));
		return pcost_cli_db_exit(rc);
	}
	return 0;
}

#define PEERS_MAX 64

struct pcost_session *pcost_cli_peers(struct pcost_db *db, const struct pcost_session *a,
				      const struct pcost_session *b, int64_t below, size_t *n)
{
	struct pcost_db_filter f = { .kind = (int)a->kind };
	struct pcost_session *peers;
	struct pcost_db_row *rows;
	size_t nrows;

	*n = 0;
	if (a->kind == PCOST_SESSION_COUNTERS || pcost_db_list(db, &f, &rows, &nrows))
		return NULL;
	peers = xcalloc(PEERS_MAX, sizeof(*peers));
	for (size_t i = nrows; i-- > 0 && *n < PEERS_MAX;) {
		bool shares = false;

		if (rows[i].id == a->id || (b && rows[i].id == b->id) ||
		    (below > 0 && rows[i].id >= below))
			continue;
		for (size_t k = 0; k < a->nconfigs && !shares; k++)
			shares = a->configs[k].workload &&
				 pcost_list_has(rows[i].workloads, a->configs[k].workload);
		if (shares && !pcost_db_load(db, rows[i].id, &peers[*n]))
			(*n)++;
	}
	pcost_db_rows_free(rows, nrows);
	return peers;
}

void pcost_cli_peers_free(struct pcost_session *peers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pcost_session_release(&peers[i]);
	free(peers);
}

void pcost_cli_level(const char *db_opt, struct pcost_session *s)
{
	char path[PATH_MAX], err[PATH_MAX + 1024];
	struct pcost_session *peers;
	struct pcost_db *db;
	size_t n;

	if (s->kind != PCOST_SESSION_RUN || !s->nconfigs ||
	    pcost_db_path(db_opt, path, sizeof(path)) ||
	    pcost_db_open(path, PCOST_DB_READ, &db, err, sizeof(err)))
		return;
	peers = pcost_cli_peers(db, s, NULL, s->id, &n);
	pcost_db_close(db);
	free(s->levels);
	s->levels = xcalloc(s->nconfigs, sizeof(struct pcost_config_level));
	pcost_session_level(s, peers, n, s->levels);
	pcost_cli_peers_free(peers, n);
}

int pcost_cli_load_from(const char *db_opt, const char *arg, struct pcost_session *s)
{
	struct pcost_db *db;
	int rc = pcost_cli_open_db(db_opt, PCOST_DB_READ, &db);

	if (rc)
		return rc;
	rc = pcost_cli_load(db, arg, s);
	pcost_db_close(db);
	return rc;
}

int pcost_cli_parse_load(struct pcost_store_opts *o, struct pcost_parse *p, int argc, char **argv,
			 struct pcost_session *s)
{
	int rc;

	if ((rc = pcost_store_opts_parse(o, p, argc, argv)) ||
	    (rc = pcost_cli_load_from(o->db, o->argv[0], s)))
		return rc;
	pcost_cli_level(o->db, s);
	return 0;
}
