// SPDX-License-Identifier: MIT
/* format: parse and name the --format values. */
#include "report/format.h"

#include <string.h>

#include "core/util.h"

static const char *const names[] = { "text", "json", "csv", "markdown", "html" };

int pcost_format_parse_page(const char *s, enum pcost_format *f)
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

int pcost_format_parse(const char *s, enum pcost_format *f)
{
	enum pcost_format v;

	if (pcost_format_parse_page(s, &v) || v == PCOST_FMT_HTML)
		return -1;
	*f = v;
	return 0;
}

const char *pcost_format_name(enum pcost_format f)
{
	return (unsigned)f < ARRAY_SIZE(names) ? names[f] : "text";
}

/* "text or json or ...": the formats of an allowed mask. */
static void list_of(unsigned allowed, char *list, size_t len)
{
	*list = 0;
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (allowed & (1u << i))
			snprintf(list + strlen(list), len - strlen(list), "%s%s", *list ? " or " : "",
				 names[i]);
}

static int refuse(const char *cmd, const char *arg, unsigned allowed)
{
	char list[80];

	list_of(allowed, list, sizeof(list));
	if (arg && !strcmp(arg, "html"))
		return usage_error("%s: --format html is not valid here (%s); a stored session's "
				   "page: probecost report ID --format html -o FILE.html",
				   cmd, list);
	return usage_error("%s: --format '%s' is not valid: %s", cmd, arg ? arg : "", list);
}

int pcost_format_refuse(const char *cmd, const char *arg)
{
	return refuse(cmd, arg, PCOST_FMT_ROWS);
}

int pcost_format_opt(const char *cmd, const char *arg, unsigned allowed, enum pcost_format *f)
{
	enum pcost_format v;

	if (pcost_format_parse_page(arg, &v) == 0 && (allowed & PCOST_FMT_BIT(v))) {
		*f = v;
		return 0;
	}
	return refuse(cmd, arg, allowed);
}
