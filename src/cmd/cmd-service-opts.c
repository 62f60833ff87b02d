// SPDX-License-Identifier: MIT
/* cmd/cmd-service-opts: --service, --attach, --ready and --ready-port, for run and predict. */
#include "cmd/cmd-service-opts.h"

#include <string.h>

#include "cmd/cmd-options.h"
#include "core/util.h"

/* --attach CMD and --service CMD (row constant 1 and 2): a --ready after one is its. */
int pcost_service_owner_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_service_args *a = opt->value;

	if (opt->defval == 2 && (!*arg || strspn(arg, " \t") == strlen(arg)))
		return usage_error("--service '': give the server's command (e.g. --service "
				   "'redis-server --port 7000')");
	*(opt->defval == 1 ? &a->o->attach : &a->o->service) = arg;
	a->last_ready_owner = (int)opt->defval;
	return 0;
}

/*
 * --ready REGEX: of the --attach or --service it follows.  An empty REGEX
 * would match any line, the first one it prints whatever it says: refused.
 */
int pcost_service_ready_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_service_args *a = opt->value;

	if (!a->last_ready_owner)
		return usage_error("--ready '%s' says when %s is ready: give it after %s", arg,
				   a->attach ? "--attach CMD or --service CMD" : "--service CMD",
				   a->attach ? "one of them" : "it");
	if (!*arg)
		return usage_error(
			"--ready '': an empty regex matches any line; give what the "
			"ready line says (e.g. --ready 'ready to accept'), or no --ready "
			"to go on at once");
	*(a->last_ready_owner == 1 ? &a->o->ready : &a->o->service_ready) = arg;
	return 0;
}

int pcost_service_port_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_service_args *a = opt->value;

	return pcost_study_ready_port(a->o, arg) ? PCOST_EXIT_USAGE : 0;
}
