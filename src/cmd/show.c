// SPDX-License-Identifier: MIT
/* cmd/show: print a stored session again, through the renderer of its kind. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "report/format.h"
#include "report/report.h"
#include "core/util.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost show ID|last [--db PATH] [--format text|json|csv|markdown|html]\n\n"
		     "Prints a stored session as the live command printed it, recomputed from\n"
		     "its raw samples.  IDs come from 'probecost history'.\n");
}

int pcost_cli_render(const struct pcost_session *s, enum pcost_format fmt)
{
	static const char *const area[] = {
		[PCOST_SESSION_RUN] = "issue 3",
		[PCOST_SESSION_PROBES] = "issue 5",
		[PCOST_SESSION_COUNTERS] = "issue 4",
	};
	int rc = pcost_report_session(s, fmt, stdout);

	if (rc == -ENOSYS)
		return error("session %lld is a '%s' session and the '%s' renderer (%s) is not built "
			     "into this probecost; 'probecost export %lld' still gives its raw samples",
			     (long long)s->id, pcost_session_kind_name(s->kind),
			     pcost_session_kind_name(s->kind), area[s->kind], (long long)s->id);
	if (rc < 0)
		return error("could not render session %lld: %s", (long long)s->id, strerror(-rc));
	return 0;
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const char *db_opt = NULL;
	struct pcost_session s;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_opt = optarg;
			break;
		case 'f':
			if (pcost_format_parse_page(optarg, &fmt))
				return usage_error("show: --format '%s' is not valid: text, json, csv, "
						   "markdown or html", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("show: unknown option '%s'; see 'probecost show --help'",
					   argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error("show takes one session id; see 'probecost show --help'");
	if ((rc = pcost_cli_load_from(db_opt, argv[optind], &s)))
		return rc;
	rc = pcost_cli_render(&s, fmt) ? PCOST_EXIT_FAIL : 0;
	pcost_session_release(&s);
	return rc;
}
