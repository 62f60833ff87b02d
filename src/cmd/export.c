// SPDX-License-Identifier: MIT
/* cmd/export: stored sessions as JSON, raw samples included, for `import` elsewhere. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/store_cli.h"
#include "report/session_json.h"
#include "util.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost export ID|last... [--db PATH] [-o FILE]\n\n"
		     "Writes the sessions (one: a JSON object; several: an array) with every raw\n"
		     "sample and the machine fingerprint, to stdout or FILE.  'probecost import'\n"
		     "reads it back, on this machine or another.\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *db_opt = NULL, *outpath = NULL;
	cJSON *all = NULL, *one = NULL;
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
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("export: unknown option or missing value '%s'; see 'probecost export --help'",
					   argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("export needs a session id; see 'probecost history'");
	if ((rc = pcost_cli_open_db(db_opt, PCOST_DB_READ, &db)))
		return rc;
	if (argc - optind > 1)
		all = cJSON_CreateArray();
	for (int i = optind; i < argc && !rc; i++) {
		struct pcost_session s;

		if ((rc = pcost_cli_load(db, argv[i], &s)))
			break;
		one = pcost_session_to_json(&s);
		pcost_session_release(&s);
		if (all) {
			cJSON_AddItemToArray(all, one);
			one = NULL;
		}
	}
	pcost_db_close(db);
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
