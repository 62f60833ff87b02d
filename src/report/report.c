// SPDX-License-Identifier: MIT
/*
 * report: the format table.  A page (html) goes to html.c, which lays out the
 * markdown rows of the kind renderers; a row format (text, json, csv,
 * markdown) to the renderer of the session's kind (kinds.c).
 */
#include "report/report.h"

#include "report/html.h"

int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_HTML)
		return pcost_report_html(s, out);
	return pcost_report_rows(s, f, out);
}
