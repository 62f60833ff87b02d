// SPDX-License-Identifier: MIT
/*
 * report: the format table.  A page (html): the markdown and text rows of the
 * kind renderers, handed to html.c, which lays them out; a row format (text,
 * json, csv, markdown) to the renderer of the session's kind.
 */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>

#include "report/html.h"

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

/* The session rendered in row format f, as a malloc'd string (NULL on failure). */
static char *rendered(const struct pcost_session *s, enum pcost_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return NULL;
	rc = pcost_report_rows(s, f, m);
	fclose(m);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The page: the markdown report's tables under the text report's headline. */
static int html_page(const struct pcost_session *s, FILE *out)
{
	char *md = rendered(s, PCOST_FMT_MARKDOWN), *text = rendered(s, PCOST_FMT_TEXT);
	int rc = md ? pcost_report_html(s, md, text, out) : -EIO;

	free(md);
	free(text);
	return rc;
}

int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_HTML)
		return html_page(s, out);
	return pcost_report_rows(s, f, out);
}
