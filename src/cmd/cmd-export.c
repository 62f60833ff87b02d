// SPDX-License-Identifier: MIT
/* cmd/cmd-export: stored sessions as JSON, raw samples included, for `import` elsewhere. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "store/store.h"
#include "core/safepath.h"
#include "core/util.h"

static const char *const export_usage[] = {
	"export ID|last... [--db PATH|URL] [-o|--output FILE]",
	"export --all [--db PATH|URL] [-o|--output FILE]",
	NULL,
};

int cmd_export(int argc, char **argv)
{
	const char *outpath = NULL;
	bool all_sessions = false;
	struct pcost_store_opts o = { .args = "session ids or --all", .max_args = -1 };
	const struct pcost_option options[] = {
		OPT_BOOL(0, "all", &all_sessions, "every stored session, as an array"),
		OPT_STRING('o', "output", &outpath, "FILE", "write to FILE instead of stdout"),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "export",
		.usage = export_usage,
		.about =
			"Writes the sessions (one: a JSON object; several: an array) with every raw\n"
			"sample and the machine fingerprint, to stdout or FILE.  'probecost import'\n"
			"reads it back, on this machine or another.",
		.options = options,
	};
	cJSON *all = NULL, *one = NULL;
	struct pcost_db_filter every = { .kind = -1 };
	struct pcost_db_row *rows = NULL;
	size_t nrows = 0;
	struct pcost_db *db;
	FILE *out;
	struct pcost_outfile of;
	char *text;
	int rc = 0;

	if ((rc = pcost_store_opts_parse(&o, &p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
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
	/* Beside -o's name and renamed over it: never written through a link planted there. */
	if (outpath && (rc = pcost_outfile_open(&of, outpath)) < 0) {
		error("could not write '%s': %s", outpath, strerror(-rc));
		rc = PCOST_EXIT_FAIL;
		free(text);
		goto out;
	}
	out = outpath ? of.f : stdout;
	fprintf(out, "%s\n", text);
	free(text);
	if (outpath)
		rc = pcost_outfile_commit(&of, true);
	else if (fflush(out) || ferror(out))
		rc = -(errno ? errno : EIO);
	if (rc) {
		error("could not write '%s': %s", outpath ? outpath : "stdout", strerror(-rc));
		rc = PCOST_EXIT_FAIL;
	}
out:
	cJSON_Delete(all);
	cJSON_Delete(one);
	return rc;
}
