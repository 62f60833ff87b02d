/* SPDX-License-Identifier: MIT */
/* format: the --format values every command shares. */
#ifndef PCOST_FORMAT_H
#define PCOST_FORMAT_H

enum pcost_format {
	PCOST_FMT_TEXT,
	PCOST_FMT_JSON,
	PCOST_FMT_CSV,
	PCOST_FMT_MARKDOWN,
	PCOST_FMT_HTML, /* a whole page, for stored sessions only (report, show) */
};

const char *pcost_format_name(enum pcost_format f);

/* Bit of a format in an "allowed" mask; the four row formats every command prints. */
#define PCOST_FMT_BIT(f) (1u << (f))
#define PCOST_FMT_ROWS                                                                             \
	(PCOST_FMT_BIT(PCOST_FMT_TEXT) | PCOST_FMT_BIT(PCOST_FMT_JSON) |                           \
	 PCOST_FMT_BIT(PCOST_FMT_CSV) | PCOST_FMT_BIT(PCOST_FMT_MARKDOWN))
/*
 * Parse a --format argument, accepting only the formats in allowed (a mask of
 * PCOST_FMT_BIT: PCOST_FMT_ROWS, or with PCOST_FMT_HTML for stored sessions)
 * from the one table of names; 0, or prints one usage line naming the
 * accepted values and returns 2.
 */
int pcost_format_opt(const char *arg, unsigned allowed, enum pcost_format *f);

#endif
