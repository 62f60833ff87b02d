// SPDX-License-Identifier: MIT
/* cmd/cmd-show: print a stored session again, through the renderer of its kind. */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/format.h"
#include "report/report.h"
#include "core/util.h"

static const char *const show_usage[] = {
	"show ID|last [--db PATH|URL] [--format text|json|csv|markdown|html]",
	NULL,
};

int pcost_cli_render(const struct pcost_session *s, enum pcost_format fmt)
{
	int rc = pcost_report_session(s, fmt, stdout);

	if (rc < 0)
		return error("could not render session %lld: %s", (long long)s->id, strerror(-rc));
	return 0;
}

int cmd_show(int argc, char **argv)
{
	struct pcost_store_opts o = { .args = "one session id", .min_args = 1, .max_args = 1 };
	const struct pcost_option options[] = {
		OPT_STORE_FORMAT(&o, PCOST_FMT_ROWS | PCOST_FMT_BIT(PCOST_FMT_HTML),
				 "text, json, csv, markdown or html (a page)"),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "show",
		.usage = show_usage,
		.about = "Prints a stored session as the live command printed it, recomputed from\n"
			 "its raw samples (a run session's level between sessions over it and the\n"
			 "sessions stored before it, as run took it).  IDs come from 'probecost "
			 "history'.",
		.options = options,
	};
	struct pcost_session s;
	int rc;

	if ((rc = pcost_cli_parse_load(&o, &p, argc, argv, &s)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	rc = pcost_cli_render(&s, o.fmt) ? PCOST_EXIT_FAIL : 0;
	pcost_session_release(&s);
	return rc;
}
