// SPDX-License-Identifier: MIT
/*
 * cmd/cmd-costs: print the cost tables `probecost calibrate` stored: this
 * machine's, or a fleet's side by side (one column a machine and kernel, with
 * the fingerprint fields in which they differ); --import reads a table
 * another store printed with --format json.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/costs.h"
#include "report/report.h"

static const char *const costs_usage[] = {
	"costs [--table ID] [--all] [--format F] [--db PATH|URL]",
	"costs --import FILE|- [--db PATH|URL]",
	NULL,
};

struct costs_args {
	int64_t table; /* --table, 0: not given */
	bool all;
	const char *import;
};

/* --table ID: a cost table id. */
static int table_opt(const struct pcost_option *opt, const char *arg)
{
	uint64_t v;

	if (pcost_parse_u64(arg, 1, INT64_MAX, &v))
		return usage_error("--table '%s': expected a cost table id (a whole number; "
				   "see 'probecost costs --all')",
				   arg);
	*(int64_t *)opt->value = (int64_t)v;
	return 0;
}

/* Two tables of one machine and kernel (host and kernel release). */
static bool same_machine(const struct pcost_cost_table *a, const struct pcost_cost_table *b)
{
	return !strcmp(a->host ? a->host : "", b->host ? b->host : "") &&
	       !strcmp(a->kernel ? a->kernel : "", b->kernel ? b->kernel : "");
}

/* The newest table of each machine and kernel (t is newest first), a complete one when any is. */
static void newest_each(const struct pcost_cost_table *t, size_t n, bool *keep)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			if (pass == 0 && !t[i].complete)
				continue;
			for (size_t j = 0; j < n && !seen; j++)
				seen = keep[j] && same_machine(&t[j], &t[i]);
			keep[i] = keep[i] || !seen;
		}
}

static int import_tables(const char *path, const char *db_opt)
{
	struct pcost_cost_table *t;
	struct pcost_db *db;
	char *buf, err[512];
	size_t len, n;
	int rc;

	if ((rc = pcost_cli_read_export(path, &buf, &len)))
		return rc;
	rc = pcost_cost_tables_from_text(buf, len, &t, &n, err, sizeof(err));
	free(buf);
	if (rc) {
		error("refusing '%s': %s; nothing imported", path, err);
		return PCOST_EXIT_USAGE;
	}
	if (!(rc = pcost_cli_open_db(db_opt, PCOST_DB_WRITE, &db))) {
		/* The file was validated whole first; each table is then one transaction. */
		for (size_t i = 0; i < n && !rc; i++) {
			int64_t old = t[i].id;

			if (pcost_db_store_costs(db, &t[i])) {
				error("%s; %zu of %zu tables imported", pcost_db_error(db), i, n);
				rc = PCOST_EXIT_FAIL;
			} else {
				printf("imported cost table %lld as %lld (%s, Linux %s, %zu entries)\n",
				       (long long)old, (long long)t[i].id,
				       t[i].host ? t[i].host : "?", t[i].kernel ? t[i].kernel : "?",
				       t[i].n);
			}
		}
		pcost_db_close(db);
	}
	pcost_cost_tables_free(t, n);
	return rc;
}

int cmd_costs(int argc, char **argv)
{
	struct costs_args a = { 0 };
	struct pcost_store_opts o = { .args = "no arguments", .max_args = 0 };
	const struct pcost_option options[] = {
		OPT_CALLBACK(0, "table", &a.table, "ID", "only this table", table_opt),
		OPT_BOOL(0, "all", &a.all,
			 "every table stored (default: the newest of each machine and kernel)"),
		OPT_STRING(0, "import", &a.import, "FILE",
			   "read tables printed by 'costs --format json' into the store\n"
			   "(validated first, all or nothing)"),
		OPT_STORE_FORMAT(&o, PCOST_FMT_ROWS | PCOST_FMT_BIT(PCOST_FMT_HTML),
				 "text, json, csv, markdown or html (a page)"),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "costs",
		.usage = costs_usage,
		.about =
			"Prints the cost tables 'probecost calibrate' stored: each entry's cost per\n"
			"event with its 95% interval, what it was measured on and how, or why it has\n"
			"no figure.  With tables of several machines or kernels (a store they share),\n"
			"one column per machine and kernel, then the fingerprint fields in which they\n"
			"differ.",
		.options = options,
	};
	struct pcost_cost_table *t, *sel;
	struct pcost_db *db;
	size_t n, k = 0;
	bool *keep;
	int rc;

	if ((rc = pcost_store_opts_parse(&o, &p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if (a.import) {
		if (a.table || a.all || o.fmt_given)
			return usage_error("--import takes only a file (and --db)");
		return import_tables(a.import, o.db);
	}
	if (a.table && a.all)
		return usage_error("give --table ID or --all, not both");
	if ((rc = pcost_cli_open_db(o.db, PCOST_DB_READ, &db)))
		return rc;
	rc = pcost_db_load_costs(db, &t, &n);
	if (rc) {
		error("%s", pcost_db_error(db));
		pcost_db_close(db);
		return pcost_cli_db_exit(rc);
	}
	pcost_db_close(db);
	keep = xcalloc(n ? n : 1, sizeof(*keep));
	if (a.table) {
		for (size_t i = 0; i < n; i++)
			keep[i] = t[i].id == a.table;
	} else if (a.all) {
		for (size_t i = 0; i < n; i++)
			keep[i] = true;
	} else {
		newest_each(t, n, keep);
	}
	sel = xcalloc(n ? n : 1, sizeof(*sel));
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			sel[k++] = t[i];
	if (!n) {
		error("no cost table in the store yet: run 'probecost calibrate'%s%s",
		      o.db ? " --db " : "", o.db ? o.db : "");
		rc = PCOST_EXIT_FAIL;
	} else if (!k) {
		rc = usage_error("--table %lld: no such cost table; see 'probecost costs --all'",
				 (long long)a.table);
	} else if (pcost_report_costs(sel, k, o.fmt, stdout) < 0) {
		rc = error("could not print the cost tables");
	}
	pcost_cost_tables_free(t, n);
	free(sel);
	free(keep);
	return rc < 0 ? PCOST_EXIT_FAIL : rc;
}
