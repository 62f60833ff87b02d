// SPDX-License-Identifier: MIT
/* report/kinds: a row format (text, json, csv, markdown) to the renderer of the session's kind. */
#include "report/report.h"

#include <errno.h>

int pcost_report_rows(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
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
