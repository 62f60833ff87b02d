// SPDX-License-Identifier: MIT
/* cmd/export: stored sessions as JSON, raw samples included, for `import` elsewhere. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "store/session_json.h"
#include "core/util.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost export ID|last... [--db PATH] [-o|--output FILE]\n"
		     "       probecost export --all [--db PATH] [-o|--output FILE]\n\n"
		     "Writes the sessions (one: a JSON object; several: an array) with every raw\n"
		     "sample and the machine fingerprint, to stdout or FILE.  'probecost import'\n"
		     "reads it back, on this machine or another.  --all: every stored session,\n"
		     "as an array.\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *db_opt = NULL, *outpath = NULL;
	cJSON *all = NULL, *one = NULL;
	struct pcost_db_filter every = { .kind = -1 };
	struct pcost_db_row *rows = NULL;
	size_t nrows = 0;
	bool all_sessions = false;
	struct pcost_db *db;
	FILE *out = stdout;
	char *text;
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_opt = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'a':
			all_sessions = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("export: unknown option or missing value '%s'; see 'probecost export --help'",
					   argv[optind - 1]);
		}
	}
	if (all_sessions ? optind < argc : optind >= argc)
		return usage_error("export takes session ids or --all; see 'probecost history'");
	if ((rc = pcost_cli_open_db(db_opt, PCOST_DB_READ, &db)))
		return rc;
	if (all_sessions && pcost_db_list(db, &every, &rows, &nrows)) {
		error("%s", pcost_db_error(db));
		pcost_db_close(db);
		return PCOST_EXIT_FAIL;
	}
	if (all_sessions && !nrows) {
		pcost_db_close(db);
		error("no sessions stored to export");
		return PCOST_EXIT_FAIL;
	}
	if (all_sessions || argc - optind > 1)
		all = cJSON_CreateArray();
	for (size_t i = 0; i < (all_sessions ? nrows : (size_t)(argc - optind)) && !rc; i++) {
		struct pcost_session s;
		char idbuf[24];
		const char *arg = argv[optind + (all_sessions ? 0 : (int)i)];

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
