// SPDX-License-Identifier: MIT
/* cmd/cmd-env: print the machine fingerprint and its warnings. */
#include "cmd/cmd.h"
#include "cmd/parse-options.h"
#include "core/env.h"
#include "core/util.h"

#include <unistd.h>

static const char *const env_usage[] = { "env [--format text|json] [--root DIR]", NULL };

int cmd_env(int argc, char **argv)
{
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const char *root = "/";
	const struct pcost_option options[] = {
		OPT_FORMAT(&fmt, NULL,
			   PCOST_FMT_BIT(PCOST_FMT_TEXT) | PCOST_FMT_BIT(PCOST_FMT_JSON),
			   "text (default) or json"),
		OPT_STRING(0, "root", &root, "DIR",
			   "read proc/ and sys/ under DIR instead of / (for fixtures;\n"
			   "tool versions and TSC calibration are skipped)"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "env",
		.usage = env_usage,
		.about =
			"Prints the machine fingerprint stored with every session: kernel and its\n"
			"command line, CPU, SMT, TSC, hypervisor, PMU and rdpmc, perf sysctls, CPU\n"
			"vulnerability mitigations, tool versions, and warnings about what makes\n"
			"numbers from this machine suspect.  A field that cannot be read is shown\n"
			"as unknown with the reason.",
		.options = options,
		.bad_option = "unknown option",
	};
	struct pcost_env *e;
	int rc;

	if ((rc = pcost_parse_options(&p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if (p.argc)
		return usage_error("unexpected argument '%s'", p.argv[0]);
	if (strcmp(root, "/") && access(root, R_OK | X_OK) != 0)
		return usage_error("--root '%s' is not a readable directory", root);
	e = xmalloc(sizeof(*e));
	pcost_env_collect(e, root, !strcmp(root, "/"), !strcmp(root, "/"));
	pcost_env_print(e, fmt, stdout);
	free(e);
	return 0;
}
