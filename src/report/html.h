/* SPDX-License-Identifier: MIT */
/*
 * html: a stored session as one self-contained HTML page -- the headline, the
 * environment and its warnings, every table of the report, and the session's
 * figures as inline SVG.  Nothing is fetched: the CSS is inline, the pictures
 * are inline SVG, and no element names a URL.  The tables come from the
 * session's markdown report (the renderers own the figures; this page only
 * lays them out), so the page and `report --format markdown` cannot disagree.
 */
#ifndef PCOST_HTML_H
#define PCOST_HTML_H

#include <stdio.h>

#include "core/result.h"

/*
 * Write the page of s to out: md is s's markdown report (the tables), text its
 * text report, whose leading "# " lines are the headline (NULL: none); the
 * format table (report.c) renders both.  0 or -errno.
 */
int pcost_report_html(const struct pcost_session *s, const char *md, const char *text, FILE *out);

/*
 * A page of a markdown report that is not a session's (the cost tables): the
 * title, then the markdown's tables, lists and headings laid out as the
 * session page lays them out.  0 or -errno.
 */
int pcost_html_markdown_page(const char *title, const char *md, FILE *out);

#endif
