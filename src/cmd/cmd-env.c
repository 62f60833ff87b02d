// SPDX-License-Identifier: MIT
/* cmd/cmd-env: print the machine fingerprint and its warnings. */
#include <getopt.h>

#include "cmd/cmd.h"
#include "core/env.h"
#include "core/util.h"

#include <unistd.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost env [--format text|json] [--root DIR]\n\n"
		     "Prints the machine fingerprint stored with every session: kernel and its\n"
		     "command line, CPU, SMT, TSC, hypervisor, PMU and rdpmc, perf sysctls, CPU\n"
		     "vulnerability mitigations, tool versions, and warnings about what makes\n"
		     "numbers from this machine suspect.  A field that cannot be read is shown\n"
		     "as unknown with the reason.\n\n"
		     "  --format F   text (default) or json\n"
		     "  --root DIR   read proc/ and sys/ under DIR instead of / (for fixtures;\n"
		     "               tool versions and TSC calibration are skipped)\n");
}

int cmd_env(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const char *root = "/";
	struct pcost_env *e;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (pcost_format_opt(optarg,
					     PCOST_FMT_BIT(PCOST_FMT_TEXT) |
						     PCOST_FMT_BIT(PCOST_FMT_JSON),
					     &fmt))
				return PCOST_EXIT_USAGE;
			break;
		case 'r':
			root = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("unknown option '%s'; see 'probecost env --help'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (strcmp(root, "/") && access(root, R_OK | X_OK) != 0)
		return usage_error("--root '%s' is not a readable directory", root);
	e = xmalloc(sizeof(*e));
	pcost_env_collect(e, root, !strcmp(root, "/"), !strcmp(root, "/"));
	pcost_env_print(e, fmt, stdout);
	free(e);
	return 0;
}
