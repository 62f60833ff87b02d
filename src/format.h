/* SPDX-License-Identifier: MIT */
/* format: the --format values every command shares. */
#ifndef PCOST_FORMAT_H
#define PCOST_FORMAT_H

enum pcost_format { PCOST_FMT_TEXT, PCOST_FMT_JSON, PCOST_FMT_CSV, PCOST_FMT_MARKDOWN };

/* "text", "json", "csv", "markdown" (also "md"); 0 or -1. */
int pcost_format_parse(const char *s, enum pcost_format *f);
const char *pcost_format_name(enum pcost_format f);

#endif
