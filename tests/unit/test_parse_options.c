// SPDX-License-Identifier: MIT
/* test_parse_options: one option table: values, argument order, error lines, --help and --list-options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/parse-options.h"
#include "core/util.h"

/* What the table of the tests below fills. */
struct vals {
	bool quiet;
	const char *out, *color, *items[2];
	size_t nitems;
	unsigned n;
	uint64_t big;
	double secs;
	bool n_given;
	int called;
};

static int color_cb(const struct pcost_option *opt, const char *arg)
{
	struct vals *v = opt->value;

	v->color = arg ? arg : "auto";
	v->called++;
	return 0;
}

/* Parse words (argv[0] "t") with the test table; the rc, *p and *v filled. */
static int parse(struct pcost_parse *p, struct vals *v, bool permute, const char *bad, int argc,
		 char **argv)
{
	static const char *const usage[] = { "t [options] ARG...", "t --other", NULL };
	const struct pcost_option opts[] = {
		OPT_BOOL('q', "quiet", &v->quiet, "say less"),
		OPT_STRING('o', "output", &v->out, "FILE", "write to FILE\nwhole"),
		OPT_LIST('w', "workload", v->items, &v->nitems, 2, "W", "a workload"),
		OPT_NUMBER(PCOST_OPTION_UINT, 0, "n", &v->n, &v->n_given, "N", 1, 10,
			   "a whole number", "how many"),
		OPT_GROUP("limits"),
		OPT_U64(0, "big", &v->big, "N", 0, 0, "a whole number", "any size"),
		OPT_DOUBLE(0, "secs", &v->secs, "S", 0.5, 60, "seconds", "a time"),
		{ .type = PCOST_OPTION_CALLBACK,
		  .long_name = "color",
		  .value = v,
		  .argh = "WHEN",
		  .flags = PCOST_OPT_OPTARG,
		  .help = "colors",
		  .callback = color_cb },
		{ .type = PCOST_OPTION_BOOL,
		  .long_name = "secret",
		  .value = &v->quiet,
		  .flags = PCOST_OPT_HIDDEN },
		OPT_END(),
	};

	memset(v, 0, sizeof(*v));
	*p = (struct pcost_parse){ .cmd = "t",
				   .usage = usage,
				   .about = "Tests.",
				   .options = opts,
				   .epilog = "exit status: 0.",
				   .permute = permute,
				   .bad_option = bad };
	return pcost_parse_options(p, argc, argv);
}

/* Run parse() with stderr (or stdout) into buf. */
static int captured(bool out, char *buf, size_t len, struct pcost_parse *p, struct vals *v,
		    bool permute, const char *bad, int argc, char **argv)
{
	FILE *f = tmpfile(), *std = out ? stdout : stderr;
	int saved, rc;
	size_t n;

	assert_non_null(f);
	fflush(std);
	saved = dup(fileno(std));
	dup2(fileno(f), fileno(std));
	rc = parse(p, v, permute, bad, argc, argv);
	fflush(std);
	dup2(saved, fileno(std));
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return rc;
}

static void test_values(void **state)
{
	char *argv[] = { "t",
			 "-q",
			 "a",
			 "--output=o.txt",
			 "-w",
			 "x",
			 "--workload",
			 "y",
			 "--n",
			 "7",
			 "--big",
			 "18446744073709551615",
			 "b",
			 "--secs",
			 "0.5",
			 "--color",
			 "--color=never",
			 NULL };
	struct pcost_parse p;
	struct vals v;

	(void)state;
	assert_int_equal(parse(&p, &v, true, NULL, ARRAY_SIZE(argv) - 1, argv), 0);
	assert_true(v.quiet);
	assert_string_equal(v.out, "o.txt");
	assert_int_equal(v.nitems, 2);
	assert_string_equal(v.items[0], "x");
	assert_string_equal(v.items[1], "y");
	assert_int_equal(v.n, 7);
	assert_true(v.n_given);
	assert_true(v.big == UINT64_MAX);
	assert_true(v.secs == 0.5);
	/* An optional argument left out reaches the callback as NULL. */
	assert_int_equal(v.called, 2);
	assert_string_equal(v.color, "never");
	/* Permuting: the arguments among the options, in order. */
	assert_int_equal(p.argc, 2);
	assert_string_equal(p.argv[0], "a");
	assert_string_equal(p.argv[1], "b");
	assert_false(p.dashdash);
}

static void test_stop_at_command(void **state)
{
	char *dd[] = { "t", "-q", "--", "prog", "-q", NULL };
	char *bare[] = { "t", "--n", "3", "prog", "--n", "4", NULL };
	struct pcost_parse p;
	struct vals v;

	(void)state;
	assert_int_equal(parse(&p, &v, false, NULL, 5, dd), 0);
	assert_true(p.dashdash);
	assert_int_equal(p.argc, 2);
	assert_string_equal(p.argv[0], "prog");
	assert_string_equal(p.argv[1], "-q");
	/* The first word that is no option ends them, "--" or not. */
	assert_int_equal(parse(&p, &v, false, NULL, 6, bare), 0);
	assert_false(p.dashdash);
	assert_int_equal(v.n, 3);
	assert_int_equal(p.argc, 3);
	assert_string_equal(p.argv[0], "prog");
}

static void test_errors(void **state)
{
	char *range[] = { "t", "--n", "0", NULL }, *secs[] = { "t", "--secs", "61", NULL };
	char *many[] = { "t", "-w", "a", "-w", "b", "-w", "c", NULL };
	char *unknown[] = { "t", "--bogus", NULL }, *missing[] = { "t", "x", "--n", NULL };
	struct pcost_parse p;
	struct vals v;
	char buf[512];

	(void)state;
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 3, range), 2);
	assert_string_equal(buf, "probecost: --n '0': expected a whole number in 1..10\n");
	assert_false(v.n_given);
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 3, secs), 2);
	assert_string_equal(buf, "probecost: --secs '61': expected seconds in 0.5..60\n");
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 7, many), 2);
	assert_string_equal(buf, "probecost: too many -w (at most 2)\n");
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 2, unknown), 2);
	assert_string_equal(buf, "probecost: unknown option '--bogus'; see 'probecost t --help'\n");
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 3, missing), 2);
	assert_string_equal(buf,
			    "probecost: option '--n' needs a value; see 'probecost t --help'\n");
	/* A command's own words for both. */
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true,
				  "unknown or incomplete option", 3, missing),
			 2);
	assert_string_equal(
		buf, "probecost: unknown or incomplete option '--n'; see 'probecost t --help'\n");
}

static void test_help(void **state)
{
	char *help[] = { "t", "x", "-h", NULL };
	struct pcost_parse p;
	struct vals v;
	char buf[2048];

	(void)state;
	assert_int_equal(captured(true, buf, sizeof(buf), &p, &v, true, NULL, 3, help),
			 PCOST_OPTS_HELP);
	assert_string_equal(buf, "usage: probecost t [options] ARG...\n"
				 "       probecost t --other\n"
				 "\n"
				 "Tests.\n"
				 "\n"
				 "  -q, --quiet         say less\n"
				 "  -o, --output FILE   write to FILE\n"
				 "                      whole\n"
				 "  -w, --workload W    a workload\n"
				 "      --n N           how many\n"
				 "\n"
				 "limits:\n"
				 "      --big N         any size\n"
				 "      --secs S        a time\n"
				 "      --color[=WHEN]  colors\n"
				 "\n"
				 "exit status: 0.\n");
}

static void test_list_options(void **state)
{
	char *list[] = { "t", "--list-options", NULL },
	     *late[] = { "t", "x", "--list-options", NULL };
	struct pcost_parse p;
	struct vals v;
	char buf[1024];

	(void)state;
	assert_int_equal(captured(true, buf, sizeof(buf), &p, &v, true, NULL, 2, list),
			 PCOST_OPTS_HELP);
	assert_string_equal(buf, "--quiet\t-q\t\n"
				 "--output\t-o\tFILE\n"
				 "--workload\t-w\tW\n"
				 "--n\t\tN\n"
				 "--big\t\tN\n"
				 "--secs\t\tS\n"
				 "--color\t\tWHEN\n"
				 "--help\t-h\t\n");
	/* Only as the one argument: elsewhere it is no option of the table. */
	assert_int_equal(captured(false, buf, sizeof(buf), &p, &v, true, NULL, 3, late), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),	     cmocka_unit_test(test_stop_at_command),
		cmocka_unit_test(test_errors),	     cmocka_unit_test(test_help),
		cmocka_unit_test(test_list_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
