/* SPDX-License-Identifier: MIT */
/*
 * parse-options: a command's options as one table, after git's parse-options.h
 * and perf's struct option.  Each row names an option (short letter, long name),
 * where its value goes, its range and its --help text; the parser, the --help
 * page (pcost_usage_with_options), the man page check and the shell completion
 * (`probecost CMD --list-options`) all read the same rows, so none can drift.
 *
 * A command:
 *
 *	static const char *const usage[] = { "show ID|last [--db PATH|URL]", NULL };
 *	struct pcost_option options[] = {
 *		OPT_BOOL(0, "check", &check, "validate only"),
 *		OPT_UINT(0, "iterations", &n, "N", 1, 1000, "a whole number", "..."),
 *		OPT_GROUP("the store"),
 *		OPT_STRING('o', "output", &path, "FILE", "write to FILE"),
 *		OPT_END(),
 *	};
 *	struct pcost_parse p = { .cmd = "show", .usage = usage, .options = options };
 *	int rc = pcost_parse_options(&p, argc, argv);
 *
 *	if (rc)
 *		return rc == PCOST_OPTS_HELP ? 0 : rc;
 *	... p.argv[0 .. p.argc) are the arguments ...
 *
 * Every table takes -h and --help (the generated page on stdout); `CMD
 * --list-options`, as the only argument, prints the rows for the man page test
 * and the completion (one option a line: --long TAB -s TAB ARGH, empty fields
 * for none).  parse-options.c is the one file under src/ that calls the C
 * library's option parser.
 */
#ifndef PCOST_CMD_PARSE_OPTIONS_H
#define PCOST_CMD_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pcost_option_type {
	PCOST_OPTION_END,      /* ends the table */
	PCOST_OPTION_GROUP,    /* a heading in --help (long_name is its title) */
	PCOST_OPTION_BOOL,     /* no argument: value (bool *) becomes true */
	PCOST_OPTION_STRING,   /* value (const char **) points at the argument */
	PCOST_OPTION_LIST,     /* repeatable: value (const char **) is an array of defval
				  entries, extra (size_t *) their count */
	PCOST_OPTION_UINT,     /* value (unsigned *) in lo..hi */
	PCOST_OPTION_U64,      /* value (uint64_t *) in lo..hi (hi 0: up to UINT64_MAX) */
	PCOST_OPTION_DOUBLE,   /* value (double *) in lo..hi */
	PCOST_OPTION_CALLBACK, /* callback(row, argument) does it all */
};

/* Row flags. */
#define PCOST_OPT_HIDDEN 1u /* not in --help, --list-options nor the man page */
#define PCOST_OPT_OPTARG 2u /* the argument may be left out (--opt or --opt=VALUE) */

struct pcost_option;
/*
 * Called for a CALLBACK row with the argument (NULL for an option that takes
 * none, or an optional one left out): 0, or an exit code after one usage line
 * (usage_error), or PCOST_OPTS_HELP to end the parse with exit 0.  opt->value
 * is the callback's context, opt->defval a constant of the row's own.
 */
typedef int pcost_option_cb(const struct pcost_option *opt, const char *arg);

struct pcost_option {
	enum pcost_option_type type;
	int short_name;	       /* 'o', or 0 */
	const char *long_name; /* "output" (without --); a GROUP's title */
	void *value;	       /* where the value goes (by type); a callback's context */
	const char *argh;      /* the argument's name in --help ("FILE"); NULL: takes none */
	const char *help;      /* for --help; each '\n' starts a line under the first */
	unsigned flags;	       /* PCOST_OPT_HIDDEN, PCOST_OPT_OPTARG */
	double lo, hi;	       /* numbers: the range accepted */
	const char *what;      /* numbers: what the range is in ("a whole number", "seconds") */
	pcost_option_cb *callback;
	intptr_t defval; /* LIST: room in the array; CALLBACK: the row's own constant */
	void *extra;	 /* LIST: the count (size_t *) */
	bool *given;	 /* may be NULL: set true once the option is given */
};

/* Returned after --help or --list-options printed: the command exits 0. */
#define PCOST_OPTS_HELP (-1)

#define OPT_END()                                                                                  \
	{                                                                                          \
		.type = PCOST_OPTION_END                                                           \
	}
#define OPT_GROUP(title)                                                                           \
	{                                                                                          \
		.type = PCOST_OPTION_GROUP, .long_name = (title)                                   \
	}
#define OPT_BOOL(s, l, v, h)                                                                       \
	{                                                                                          \
		.type = PCOST_OPTION_BOOL, .short_name = (s), .long_name = (l), .value = (v),      \
		.help = (h)                                                                        \
	}
#define OPT_STRING(s, l, v, a, h)                                                                  \
	{                                                                                          \
		.type = PCOST_OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v),    \
		.argh = (a), .help = (h)                                                           \
	}
/* Repeatable: each one appends to arr (room for max), *n counts them; one more is an
 * error "too many -s (at most max)" (the short letter, else --long). */
#define OPT_LIST(s, l, arr, n, max, a, h)                                                          \
	{                                                                                          \
		.type = PCOST_OPTION_LIST, .short_name = (s), .long_name = (l), .value = (arr),    \
		.extra = (n), .defval = (max), .argh = (a), .help = (h)                            \
	}
/*
 * Numbers of type t (PCOST_OPTION_UINT, _U64, _DOUBLE) into *v, *g (may be NULL)
 * set once given; out of range or not a number is "--long 'ARG': expected WHAT
 * in LO..HI".
 */
#define OPT_NUMBER(t, s, l, v, g, a, min, max, w, h)                                               \
	{                                                                                          \
		.type = (t), .short_name = (s), .long_name = (l), .value = (v), .given = (g),      \
		.argh = (a), .lo = (min), .hi = (max), .what = (w), .help = (h)                    \
	}
#define OPT_UINT(s, l, v, a, min, max, w, h)                                                       \
	OPT_NUMBER(PCOST_OPTION_UINT, s, l, v, NULL, a, min, max, w, h)
#define OPT_U64(s, l, v, a, min, max, w, h)                                                        \
	OPT_NUMBER(PCOST_OPTION_U64, s, l, v, NULL, a, min, max, w, h)
#define OPT_DOUBLE(s, l, v, a, min, max, w, h)                                                     \
	OPT_NUMBER(PCOST_OPTION_DOUBLE, s, l, v, NULL, a, min, max, w, h)
/* cb(row, arg) with row->value = ctx; a is NULL for an option without an argument. */
#define OPT_CALLBACK(s, l, ctx, a, h, cb)                                                          \
	{                                                                                          \
		.type = PCOST_OPTION_CALLBACK, .short_name = (s), .long_name = (l),                \
		.value = (ctx), .argh = (a), .help = (h), .callback = (cb)                         \
	}
/* A callback with a range: cb parses its number by the row (pcost_opt_number), then does
 * more; dv is the row's own constant (defval). */
#define OPT_CALLBACK_RANGE(l, ctx, a, min, max, w, h, cb, dv)                                      \
	{                                                                                          \
		.type = PCOST_OPTION_CALLBACK, .long_name = (l), .value = (ctx), .argh = (a),      \
		.lo = (min), .hi = (max), .what = (w), .help = (h), .callback = (cb),              \
		.defval = (dv)                                                                     \
	}
/* --format F of the formats in mask (PCOST_FMT_BIT), into *fmt (enum pcost_format);
 * *given (may be NULL) becomes true. */
#define OPT_FORMAT(fmt, g, mask, h)                                                                \
	{                                                                                          \
		.type = PCOST_OPTION_CALLBACK, .long_name = "format", .value = (fmt), .argh = "F", \
		.help = (h), .callback = pcost_opt_format, .defval = (mask), .given = (g)          \
	}

/* The callback of OPT_FORMAT. */
int pcost_opt_format(const struct pcost_option *opt, const char *arg);

/*
 * A number row's argument within the row's range (UINT, U64: *u; DOUBLE and a
 * CALLBACK row with a range: *d), for a callback that parses a number by its
 * row and then does more: 0, or PCOST_EXIT_USAGE after the range line.
 */
int pcost_opt_number(const struct pcost_option *opt, const char *arg, uint64_t *u, double *d);

/* Apply one row to its argument (as the parser does): 0 or an exit code. */
int pcost_opt_apply(const struct pcost_option *opt, const char *arg);

/* What a command's options are and how it parses them. */
struct pcost_parse {
	const char *cmd;		    /* "show": errors and --help name it */
	const char *const *usage;	    /* the usage lines after "probecost ", NULL-ended */
	const char *about;		    /* what the command does (after the usage), or NULL */
	const struct pcost_option *options; /* the table, OPT_END()-ended */
	const char *epilog;		    /* after the options ("exit status: ..."), or NULL */
	void (*more_help)(FILE *out);	    /* prints a live list after everything, or NULL */
	/*
	 * The words of an unknown option's line, "WORDS 'ARG'; see 'probecost CMD
	 * --help'", which a missing value also gets; NULL: "unknown option", and a
	 * missing value "option 'ARG' needs a value; see ...".
	 */
	const char *bad_option;
	/* Options may follow the arguments ("show 3 --format json"); else the first
	 * word that is not an option ends them (run ... -- COMMAND). */
	bool permute;
	/* Results. */
	int argc;      /* the arguments after the options */
	char **argv;   /* (argv + the index of the first) */
	bool dashdash; /* they follow a "--" */
};

/*
 * Parse argv[1..argc) (argv[0] is the command) by p->options into their
 * values.  Returns 0 with p->argc/argv set, PCOST_OPTS_HELP after --help or
 * --list-options (printed on stdout), or an exit code after one usage line
 * (a row's own, or the unknown option's).
 */
int pcost_parse_options(struct pcost_parse *p, int argc, char **argv);

/* The --help page: usage lines, about, the options by group, epilog, more_help. */
void pcost_usage_with_options(const struct pcost_parse *p, FILE *out);

#endif
