// SPDX-License-Identifier: MIT
/* report: dispatch a session to the renderer of its kind. */
#include "report/report.h"

#include <errno.h>

#include "report/html.h"

int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_HTML)
		return pcost_report_html(s, out);
	switch (s->kind) {
	case PCOST_SESSION_RUN:
		return pcost_report_run(s, f, out);
	case PCOST_SESSION_PROBES:
		return pcost_report_probes(s, f, out);
	case PCOST_SESSION_COUNTERS:
		return pcost_report_counters(s, f, out);
	}
	return -EINVAL;
}
