// SPDX-License-Identifier: MIT
/* format: parse and name the --format values. */
#include "report/format.h"

#include <string.h>

#include "core/util.h"

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

int pcost_format_opt(const char *arg, unsigned allowed, enum pcost_format *f)
{
	char list[64] = "";
	unsigned left = 0;
	enum pcost_format v;

	if (pcost_format_parse(arg, &v) == 0 && (allowed & PCOST_FMT_BIT(v))) {
		*f = v;
		return 0;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		left += !!(allowed & (1u << i));
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (allowed & (1u << i))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 !*list ? "" : --left == 1 ? " or " : ", ", names[i]);
	return usage_error("--format '%s' is not valid: %s", arg, list);
}
