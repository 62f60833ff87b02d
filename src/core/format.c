// SPDX-License-Identifier: MIT
/* core/format: the one table of --format names; every command parses --format here. */
#include "core/format.h"

#include <string.h>

#include "core/util.h"

static const char *const names[] = { "text", "json", "csv", "markdown", "html" };

/* "text", "json", "csv", "markdown" (also "md") or "html"; 0 or -1. */
static int format_parse_page(const char *s, enum pcost_format *f)
{
	if (!s)
		return -1;
	if (!strcmp(s, "md"))
		s = "markdown";
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum pcost_format)i;
			return 0;
		}
	}
	return -1;
}

const char *pcost_format_name(enum pcost_format f)
{
	return (unsigned)f < ARRAY_SIZE(names) ? names[f] : "text";
}

/* "text, json, csv or markdown": the formats of an allowed mask. */
static void list_of(unsigned allowed, char *list, size_t len)
{
	unsigned left = 0;

	*list = 0;
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		left += !!(allowed & (1u << i));
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (allowed & (1u << i))
			snprintf(list + strlen(list), len - strlen(list), "%s%s",
				 !*list	       ? ""
				 : --left == 1 ? " or "
					       : ", ",
				 names[i]);
}

int pcost_format_opt(const char *arg, unsigned allowed, enum pcost_format *f)
{
	enum pcost_format v;
	char list[80];

	if (format_parse_page(arg, &v) == 0 && (allowed & PCOST_FMT_BIT(v))) {
		*f = v;
		return 0;
	}
	list_of(allowed, list, sizeof(list));
	if (arg && !strcmp(arg, "html"))
		return usage_error("--format html is not valid here (%s); a stored session's "
				   "page: probecost report ID --format html -o FILE.html",
				   list);
	return usage_error("--format '%s' is not valid: %s", arg ? arg : "", list);
}
