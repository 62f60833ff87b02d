// SPDX-License-Identifier: MIT
/* cmd/parse-options: one option table per command: parse, --help and --list-options from it. */
#include "cmd/parse-options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "core/util.h"

/* getopt_long's val of row i (above every short letter); one past the rows: --help. */
#define ROW_VAL 0x1000

/* Rows that are options (not a heading, not the end). */
static bool is_option(const struct pcost_option *o)
{
	return o->type != PCOST_OPTION_END && o->type != PCOST_OPTION_GROUP;
}

static size_t count_rows(const struct pcost_option *opts)
{
	size_t n = 0;

	while (opts[n].type != PCOST_OPTION_END)
		n++;
	return n;
}

int pcost_opt_number(const struct pcost_option *opt, const char *arg, uint64_t *u, double *d)
{
	if (opt->type != PCOST_OPTION_UINT && opt->type != PCOST_OPTION_U64) {
		if (pcost_parse_double(arg, opt->lo, opt->hi, d) == 0)
			return 0;
		return usage_error("--%s '%s': expected %s in %g..%g", opt->long_name, arg,
				   opt->what, opt->lo, opt->hi);
	}
	uint64_t hi = opt->hi > 0 ? (uint64_t)opt->hi : UINT64_MAX;

	if (pcost_parse_u64(arg, (uint64_t)opt->lo, hi, u) == 0)
		return 0;
	return usage_error("--%s '%s': expected %s in %llu..%llu", opt->long_name, arg, opt->what,
			   (unsigned long long)opt->lo, (unsigned long long)hi);
}

int pcost_opt_format(const struct pcost_option *opt, const char *arg)
{
	return pcost_format_opt(arg, (unsigned)opt->defval, opt->value) ? PCOST_EXIT_USAGE : 0;
}

/* The value of a LIST row: one more entry, or the "too many" line. */
static int list_add(const struct pcost_option *opt, const char *arg)
{
	const char **arr = opt->value;
	size_t *n = opt->extra;

	if (*n >= (size_t)opt->defval) {
		if (opt->short_name)
			return usage_error("too many -%c (at most %zu)", opt->short_name,
					   (size_t)opt->defval);
		return usage_error("too many --%s (at most %zu)", opt->long_name,
				   (size_t)opt->defval);
	}
	arr[(*n)++] = arg;
	return 0;
}

int pcost_opt_apply(const struct pcost_option *opt, const char *arg)
{
	uint64_t u = 0;
	double d = 0;
	int rc = 0;

	switch (opt->type) {
	case PCOST_OPTION_BOOL:
		*(bool *)opt->value = true;
		break;
	case PCOST_OPTION_STRING:
		*(const char **)opt->value = arg;
		break;
	case PCOST_OPTION_LIST:
		rc = list_add(opt, arg);
		break;
	case PCOST_OPTION_UINT:
	case PCOST_OPTION_U64:
	case PCOST_OPTION_DOUBLE:
		if ((rc = pcost_opt_number(opt, arg, &u, &d)))
			break;
		if (opt->type == PCOST_OPTION_UINT)
			*(unsigned *)opt->value = (unsigned)u;
		else if (opt->type == PCOST_OPTION_U64)
			*(uint64_t *)opt->value = u;
		else
			*(double *)opt->value = d;
		break;
	case PCOST_OPTION_CALLBACK:
		rc = opt->callback(opt, arg);
		break;
	case PCOST_OPTION_END:
	case PCOST_OPTION_GROUP:
		break;
	}
	if (!rc && opt->given)
		*opt->given = true;
	return rc;
}

/* "-o, --output FILE" (pad: room for "-x, " in a table where some row has a letter). */
static void option_text(const struct pcost_option *o, bool pad, char *buf, size_t len)
{
	const char *argh = o->argh ? o->argh : "";
	const char *lb = o->flags & PCOST_OPT_OPTARG ? "[=" : o->argh ? " " : "";
	const char *rb = o->flags & PCOST_OPT_OPTARG ? "]" : "";

	if (o->short_name)
		snprintf(buf, len, "-%c, --%s%s%s%s", o->short_name, o->long_name, lb, argh, rb);
	else
		snprintf(buf, len, "%s--%s%s%s%s", pad ? "    " : "", o->long_name, lb, argh, rb);
}

/* An option column wider than this puts the help on the lines below it. */
#define OPT_COLUMN_MAX 24

void pcost_usage_with_options(const struct pcost_parse *p, FILE *out)
{
	const struct pcost_option *o;
	bool pad = false;
	size_t width = 0;
	char text[128];

	for (size_t i = 0; p->usage && p->usage[i]; i++)
		fprintf(out, "%s probecost %s\n", i ? "      " : "usage:", p->usage[i]);
	if (p->about)
		fprintf(out, "\n%s\n", p->about);
	for (o = p->options; o->type != PCOST_OPTION_END; o++)
		pad |= is_option(o) && o->short_name && !(o->flags & PCOST_OPT_HIDDEN);
	for (o = p->options; o->type != PCOST_OPTION_END; o++) {
		if (!is_option(o) || (o->flags & PCOST_OPT_HIDDEN))
			continue;
		option_text(o, pad, text, sizeof(text));
		if (strlen(text) <= OPT_COLUMN_MAX && strlen(text) > width)
			width = strlen(text);
	}
	for (o = p->options; o->type != PCOST_OPTION_END; o++) {
		const char *h, *nl;

		if (o->type == PCOST_OPTION_GROUP) {
			fprintf(out, "\n%s:\n", o->long_name);
			continue;
		}
		if (o->flags & PCOST_OPT_HIDDEN)
			continue;
		if (o == p->options)
			fputc('\n', out);
		option_text(o, pad, text, sizeof(text));
		h = o->help ? o->help : "";
		if (strlen(text) > width) {
			fprintf(out, "  %s\n", text);
			fprintf(out, "  %-*s  ", (int)width, "");
		} else {
			fprintf(out, "  %-*s  ", (int)width, text);
		}
		/* The first line beside the option, the others under it. */
		for (; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(out, "%.*s\n  %-*s  ", (int)(nl - h), h, (int)width, "");
		fprintf(out, "%s\n", h);
	}
	if (p->epilog)
		fprintf(out, "\n%s\n", p->epilog);
	if (p->more_help)
		p->more_help(out);
}

/* --list-options: one option a line, "--long TAB -s TAB ARGH", what completion and tests read. */
static void list_options(const struct pcost_option *opts, FILE *out)
{
	for (const struct pcost_option *o = opts; o->type != PCOST_OPTION_END; o++) {
		char s[3] = "";

		if (!is_option(o) || (o->flags & PCOST_OPT_HIDDEN))
			continue;
		if (o->short_name)
			snprintf(s, sizeof(s), "-%c", o->short_name);
		fprintf(out, "--%s\t%s\t%s\n", o->long_name, s, o->argh ? o->argh : "");
	}
	fprintf(out, "--help\t-h\t\n");
}

/* getopt_long's tables of the rows, with -h/--help after them; both malloc'd. */
static void getopt_tables(const struct pcost_parse *p, struct option **longs, char **shorts)
{
	size_t n = count_rows(p->options), k = 0;
	char *s = xmalloc(3 * n + 8);
	size_t sl = 0;

	*longs = xcalloc(n + 2, sizeof(**longs));
	if (!p->permute)
		s[sl++] = '+';
	s[sl++] = ':';
	s[sl++] = 'h';
	for (size_t i = 0; i < n; i++) {
		const struct pcost_option *o = &p->options[i];
		int has = !o->argh			? no_argument
			  : o->flags & PCOST_OPT_OPTARG ? optional_argument
							: required_argument;

		if (!is_option(o))
			continue;
		(*longs)[k++] = (struct option){ o->long_name, has, NULL, ROW_VAL + (int)i };
		if (o->short_name) {
			s[sl++] = (char)o->short_name;
			if (has != no_argument)
				s[sl++] = ':';
			if (has == optional_argument)
				s[sl++] = ':';
		}
	}
	(*longs)[k] = (struct option){ "help", no_argument, NULL, ROW_VAL + (int)n };
	s[sl] = '\0';
	*shorts = s;
}

/* The row of a short letter getopt returned, or NULL. */
static const struct pcost_option *row_of_short(const struct pcost_option *opts, int c)
{
	for (const struct pcost_option *o = opts; o->type != PCOST_OPTION_END; o++)
		if (is_option(o) && o->short_name == c)
			return o;
	return NULL;
}

/* The line of an option getopt did not take (c: '?' unknown, ':' without its value). */
static int bad_option(const struct pcost_parse *p, int c, const char *word)
{
	if (p->bad_option)
		return usage_error("%s '%s'; see 'probecost %s --help'", p->bad_option, word,
				   p->cmd);
	if (c == ':')
		return usage_error("option '%s' needs a value; see 'probecost %s --help'", word,
				   p->cmd);
	return usage_error("unknown option '%s'; see 'probecost %s --help'", word, p->cmd);
}

int pcost_parse_options(struct pcost_parse *p, int argc, char **argv)
{
	size_t n = count_rows(p->options);
	struct option *longs;
	char *shorts;
	int c, rc = 0;

	p->argc = 0;
	p->argv = argv + argc;
	p->dashdash = false;
	if (argc == 2 && !strcmp(argv[1], "--list-options")) {
		list_options(p->options, stdout);
		return PCOST_OPTS_HELP;
	}
	getopt_tables(p, &longs, &shorts);
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then forgets a previous parse's ordering (+ or not) */
	while (!rc && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct pcost_option *o = NULL;

		if (c == 'h' || c == ROW_VAL + (int)n) {
			pcost_usage_with_options(p, stdout);
			rc = PCOST_OPTS_HELP;
		} else if (c == '?' || c == ':') {
			rc = bad_option(p, c, argv[optind - 1]);
		} else {
			o = c >= ROW_VAL ? &p->options[c - ROW_VAL] : row_of_short(p->options, c);
			rc = o ? pcost_opt_apply(o, optarg) : bad_option(p, '?', argv[optind - 1]);
		}
	}
	free(longs);
	free(shorts);
	if (rc)
		return rc;
	p->argc = argc - optind;
	p->argv = argv + optind;
	p->dashdash = optind > 1 && optind <= argc && !strcmp(argv[optind - 1], "--");
	return 0;
}
