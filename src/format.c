// SPDX-License-Identifier: MIT
/* format: parse and name the --format values. */
#include "format.h"

#include <string.h>

static const char *const names[] = { "text", "json", "csv", "markdown" };

int pcost_format_parse(const char *s, enum pcost_format *f)
{
	if (!s)
		return -1;
	if (!strcmp(s, "md"))
		s = "markdown";
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum pcost_format)i;
			return 0;
		}
	}
	return -1;
}

const char *pcost_format_name(enum pcost_format f)
{
	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "text";
}
