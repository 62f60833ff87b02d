/* SPDX-License-Identifier: MIT */
/* format: the --format values every command shares. */
#ifndef PCOST_FORMAT_H
#define PCOST_FORMAT_H

enum pcost_format { PCOST_FMT_TEXT, PCOST_FMT_JSON, PCOST_FMT_CSV, PCOST_FMT_MARKDOWN };

/* "text", "json", "csv", "markdown" (also "md"); 0 or -1. */
int pcost_format_parse(const char *s, enum pcost_format *f);
const char *pcost_format_name(enum pcost_format f);

/* Bit of a format in an "allowed" mask; every format. */
#define PCOST_FMT_BIT(f) (1u << (f))
#define PCOST_FMT_ALL                                                                              \
	(PCOST_FMT_BIT(PCOST_FMT_TEXT) | PCOST_FMT_BIT(PCOST_FMT_JSON) |                          \
	 PCOST_FMT_BIT(PCOST_FMT_CSV) | PCOST_FMT_BIT(PCOST_FMT_MARKDOWN))
/*
 * Parse a --format argument, accepting only the formats in allowed (a mask of
 * PCOST_FMT_BIT) from the one table of names; 0, or prints one usage line
 * naming the accepted values and returns 2.
 */
int pcost_format_opt(const char *arg, unsigned allowed, enum pcost_format *f);

#endif
