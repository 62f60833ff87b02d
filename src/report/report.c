// SPDX-License-Identifier: MIT
/* report: dispatch a session to the renderer of its kind. */
#include "report/report.h"

#include <errno.h>

#include "report/html.h"

int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	int (*fn)(const struct pcost_session *, enum pcost_format, FILE *) = NULL;

	if (f == PCOST_FMT_HTML)
		return pcost_report_html(s, out);
	switch (s->kind) {
	case PCOST_SESSION_RUN:
		fn = pcost_report_run;
		break;
	case PCOST_SESSION_PROBES:
		fn = pcost_report_probes;
		break;
	case PCOST_SESSION_COUNTERS:
		fn = pcost_report_counters;
		break;
	}
	return fn ? fn(s, f, out) : -ENOSYS;
}
