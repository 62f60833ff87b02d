// SPDX-License-Identifier: MIT
/* cmd/cmd-export: stored sessions as JSON, raw samples included, for `import` elsewhere. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "store/store.h"
#include "core/util.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost export ID|last... [--db PATH|URL] [-o|--output FILE]\n"
		     "       probecost export --all [--db PATH|URL] [-o|--output FILE]\n\n"
		     "Writes the sessions (one: a JSON object; several: an array) with every raw\n"
		     "sample and the machine fingerprint, to stdout or FILE.  'probecost import'\n"
		     "reads it back, on this machine or another.  --all: every stored session,\n"
		     "as an array.\n" PCOST_DB_HELP);
}

struct export_opts {
	const char *outpath;
	bool all;
};

static int export_opt(int c, const char *arg, void *ctx)
{
	struct export_opts *eo = ctx;

	if (c == 'o')
		eo->outpath = arg;
	else
		eo->all = true;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "all", no_argument, NULL, 'a' },
		{ 0 },
	};
	struct export_opts eo = { 0 };
	struct pcost_store_opts o = {
		.cmd = "export",
		.usage = usage,
		.args = "session ids or --all",
		.min_args = 0,
		.max_args = -1,
		.extra = opts,
		.extra_short = "o:",
		.on_opt = export_opt,
		.ctx = &eo,
	};
	const char *outpath;
	cJSON *all = NULL, *one = NULL;
	struct pcost_db_filter every = { .kind = -1 };
	struct pcost_db_row *rows = NULL;
	size_t nrows = 0;
	bool all_sessions = false;
	struct pcost_db *db;
	FILE *out = stdout;
	char *text;
	int rc = 0;

	if ((rc = pcost_store_opts_parse(&o, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	outpath = eo.outpath;
	all_sessions = eo.all;
	if (all_sessions ? o.argc > 0 : o.argc == 0)
		return usage_error("takes session ids or --all; see 'probecost history'");
	if ((rc = pcost_cli_open_db(o.db, PCOST_DB_READ, &db)))
		return rc;
	if (all_sessions && (rc = pcost_cli_list(db, &every, &rows, &nrows))) {
		pcost_db_close(db);
		return rc;
	}
	if (all_sessions && !nrows) {
		pcost_db_close(db);
		error("no sessions stored to export");
		return PCOST_EXIT_FAIL;
	}
	if (all_sessions || o.argc > 1)
		all = cJSON_CreateArray();
	for (size_t i = 0; i < (all_sessions ? nrows : (size_t)o.argc) && !rc; i++) {
		struct pcost_session s;
		char idbuf[24];
		const char *arg = all_sessions ? NULL : o.argv[i];

		if (all_sessions) {
			snprintf(idbuf, sizeof(idbuf), "%lld", (long long)rows[i].id);
			arg = idbuf;
		}
		if ((rc = pcost_cli_load(db, arg, &s)))
			break;
		one = pcost_session_to_json(&s);
		pcost_session_release(&s);
		if (all) {
			cJSON_AddItemToArray(all, one);
			one = NULL;
		}
	}
	pcost_db_close(db);
	pcost_db_rows_free(rows, nrows);
	if (rc)
		goto out;
	text = cJSON_Print(all ? all : one);
	if (outpath && !(out = fopen(outpath, "w"))) {
		error("could not write '%s': %s", outpath, strerror(errno));
		rc = PCOST_EXIT_FAIL;
		free(text);
		goto out;
	}
	fprintf(out, "%s\n", text);
	free(text);
	if (fflush(out) || ferror(out) || (out != stdout && fclose(out))) {
		error("could not write '%s': %s", outpath ? outpath : "stdout", strerror(errno));
		rc = PCOST_EXIT_FAIL;
	}
out:
	cJSON_Delete(all);
	cJSON_Delete(one);
	return rc;
}
