// SPDX-License-Identifier: MIT
/*
 * test_site_safety: the site facts on known answers -- the functions of
 * tests/fixtures/redzone/redzone.S (build/fixtures/redzone, make fixtures),
 * encodings from their bytes, and how one row's facts merge.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probes/sdt.h"
#include "probes/site_safety.h"

#define FIXTURE "build/fixtures/redzone"

/* Machine fact, not probecost's: the kernel has the nop5 uprobe optimizer (Linux 6.18). */
static int kernel_optimizes(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[256];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " arch_uprobe_optimize\n") != NULL;
	fclose(f);
	return found;
}

static const struct {
	const char *probe, *function;
	enum pcost_site_encoding enc;
	int live;
	const char *why; /* a fragment of the reason */
} answers[] = {
	{ "live", "rz_live", PCOST_SITE_NOP5, 1, "keeps -0x10(%rsp) across the site" },
	{ "dead", "rz_dead", PCOST_SITE_NOP5, 0, "nothing below rsp" },
	{ "frame", "rz_frame", PCOST_SITE_NOP5, 0, "nothing below rsp" },
	{ "nonleaf", "rz_nonleaf", PCOST_SITE_NOP5, 0, "nothing below rsp" },
	{ "pushlive", "rz_pushlive", PCOST_SITE_NOP5, 1, "keeps -0x8(%rsp)" },
	{ "loop", "rz_loop", PCOST_SITE_NOP5, 1, "keeps -0x14(%rsp)" },
	{ "rbp", "rz_rbp", PCOST_SITE_NOP5, 1, "keeps -0x14(%rsp)" },
	{ "align", "rz_align", PCOST_SITE_NOP5, -1, "rsp at the site is not known" },
	{ "noret", "rz_noret", PCOST_SITE_NOP5, 1, "keeps -0x10(%rsp)" },
	{ "switch", "rz_switch", PCOST_SITE_NOP5, 1, "keeps -0x10(%rsp)" },
	{ "live1", "rz_live1", PCOST_SITE_NOP, 1, "keeps -0x10(%rsp)" },
	{ "live10", "rz_live10", PCOST_SITE_NOP10, 1, "keeps -0x10(%rsp)" },
};

static void fixture_sites(void **state)
{
	struct pcost_sdt_list l;
	struct pcost_site_file *f;
	int kernel = kernel_optimizes();

	(void)state;
	assert_int_equal(pcost_sdt_read(FIXTURE, &l), 0);
	assert_int_equal(l.n, sizeof(answers) / sizeof(answers[0]));
	assert_int_equal(pcost_site_file_open(FIXTURE, &f), 0);
	for (size_t k = 0; k < l.n; k++) {
		struct pcost_site_facts sf;
		size_t i = 0;

		while (i < l.n && strcmp(answers[i].probe, l.probes[k].name))
			i++;
		assert_true(i < l.n);
		pcost_site_facts_at(f, l.probes[k].pc, &sf);
		assert_string_equal(sf.function, answers[i].function);
		assert_int_equal(sf.encoding, answers[i].enc);
		if (sf.red_zone_live != answers[i].live || !strstr(sf.why, answers[i].why))
			fail_msg("%s: red_zone_live %d (%s), expected %d (%s)", answers[i].probe,
				 sf.red_zone_live, sf.why, answers[i].live, answers[i].why);
		if (kernel >= 0)
			assert_int_equal(sf.optimizable,
					 kernel && answers[i].enc == PCOST_SITE_NOP5);
	}
	pcost_site_file_free(f);
	pcost_sdt_list_release(&l);
}

static void encodings(void **state)
{
	static const uint8_t nop1[] = { 0x90 }, nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
			     nop5_90[] = { 0x66, 0x66, 0x66, 0x66, 0x90 },
			     nopl_reg1[] = { 0x0f, 0x1f, 0x4c, 0x00, 0x00 },
			     nop10[] = { 0x66, 0x66, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 },
			     nop10_cs[] = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 },
			     push[] = { 0x55 }, cut[] = { 0x0f, 0x1f, 0x44, 0x00 };

	(void)state;
	assert_int_equal(pcost_site_encoding_of(nop1, sizeof(nop1)), PCOST_SITE_NOP);
	assert_int_equal(pcost_site_encoding_of(nop5, sizeof(nop5)), PCOST_SITE_NOP5);
	assert_int_equal(pcost_site_encoding_of(nop5_90, sizeof(nop5_90)), PCOST_SITE_NOP5);
	/* 0f 1f /1 is a reserved nop the kernel does not take as NOPL. */
	assert_int_equal(pcost_site_encoding_of(nopl_reg1, sizeof(nopl_reg1)), PCOST_SITE_OTHER);
	assert_int_equal(pcost_site_encoding_of(nop10, sizeof(nop10)), PCOST_SITE_NOP10);
	assert_int_equal(pcost_site_encoding_of(nop10_cs, sizeof(nop10_cs)), PCOST_SITE_NOP10);
	assert_int_equal(pcost_site_encoding_of(push, sizeof(push)), PCOST_SITE_OTHER);
	assert_int_equal(pcost_site_encoding_of(cut, sizeof(cut)), PCOST_SITE_OTHER);
	assert_string_equal(pcost_site_encoding_name(PCOST_SITE_NOP5), "nop5");
	assert_string_equal(pcost_site_encoding_name(PCOST_SITE_OTHER), "other");
}

/* Hand-assembled functions at address 0x1000: the cases the fixture does not hold. */
static void raw_functions(void **state)
{
	/* mov %edi,-8(%rsp); nop5; mov -8(%rsp),%eax; ret */
	static const uint8_t live[] = { 0x89, 0x7c, 0x24, 0xf8, 0x0f, 0x1f, 0x44,
					0x00, 0x00, 0x8b, 0x44, 0x24, 0xf8, 0xc3 };
	/* mov %edi,-8(%rsp); nop5; mov %eax,-8(%rsp); mov -8(%rsp),%eax; ret: overwritten first */
	static const uint8_t killed[] = { 0x89, 0x7c, 0x24, 0xf8, 0x0f, 0x1f, 0x44, 0x00, 0x00,
					  0x89, 0x44, 0x24, 0xf8, 0x8b, 0x44, 0x24, 0xf8, 0xc3 };
	/* mov %edi,-8(%rsp); nop5; mov -4(%rsp),%ax ... reads bytes -4..-3 of the 4 written */
	static const uint8_t partial[] = { 0x89, 0x7c, 0x24, 0xf8, 0x0f, 0x1f, 0x44, 0x00,
					   0x00, 0x66, 0x8b, 0x44, 0x24, 0xfa, 0xc3 };
	/* mov %edi,-8(%rsp); nop5; mov -16(%rsp),%eax; ret: another slot */
	static const uint8_t other[] = { 0x89, 0x7c, 0x24, 0xf8, 0x0f, 0x1f, 0x44,
					 0x00, 0x00, 0x8b, 0x44, 0x24, 0xf0, 0xc3 };
	char why[192];

	(void)state;
	assert_int_equal(pcost_red_zone_live(live, sizeof(live), 0x1000, 0x1004, why, sizeof(why)),
			 1);
	assert_non_null(strstr(why, "-0x8(%rsp)"));
	assert_int_equal(
		pcost_red_zone_live(killed, sizeof(killed), 0x1000, 0x1004, why, sizeof(why)), 0);
	assert_int_equal(
		pcost_red_zone_live(partial, sizeof(partial), 0x1000, 0x1004, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "-0x6(%rsp)"));
	assert_int_equal(
		pcost_red_zone_live(other, sizeof(other), 0x1000, 0x1004, why, sizeof(why)), 0);
	/* The site inside an instruction: no answer. */
	assert_int_equal(pcost_red_zone_live(live, sizeof(live), 0x1000, 0x1006, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "not at an instruction boundary"));
}

static void merge_rows(void **state)
{
	struct pcost_site_facts a = { .encoding = PCOST_SITE_NOP5,
				      .red_zone_live = 0,
				      .optimizable = 1 },
				b = { .encoding = PCOST_SITE_NOP5,
				      .red_zone_live = 1,
				      .optimizable = 1,
				      .function = "fft",
				      .fn_offset = 0x159,
				      .why = "keeps" },
				c = { .encoding = PCOST_SITE_NOP,
				      .red_zone_live = -1,
				      .optimizable = 0 };

	(void)state;
	pcost_site_facts_merge(&a, &b);
	assert_int_equal(a.red_zone_live, 1);
	assert_string_equal(a.function, "fft");
	assert_int_equal(a.fn_offset, 0x159);
	assert_int_equal(a.encoding, PCOST_SITE_NOP5);
	assert_int_equal(a.optimizable, 1);
	/* A site that cannot tell does not hide a live one; mixed encodings and verdicts. */
	pcost_site_facts_merge(&a, &c);
	assert_int_equal(a.red_zone_live, 1);
	assert_int_equal(a.encoding, PCOST_SITE_OTHER);
	assert_int_equal(a.optimizable, -1);
	a.red_zone_live = 0;
	pcost_site_facts_merge(&a, &c);
	assert_int_equal(a.red_zone_live, -1);
}

/* Arguments read from below rsp: what the optimized uprobe's pushes overwrite. */
static void args_below_rsp(void **state)
{
	(void)state;
	assert_true(pcost_sdt_args_below_rsp("-8@-24(%rsp) -8@-16(%rsp)"));
	assert_true(pcost_sdt_args_below_rsp("-4@$0 -8@-8(%rsp,%rax,8)"));
	assert_false(pcost_sdt_args_below_rsp("-4@%ecx -4@%r8d"));
	assert_false(pcost_sdt_args_below_rsp("-4@%esi 4@132(%rdi)"));
	assert_false(pcost_sdt_args_below_rsp("8@8(%rsp) -4@-4(%rbp)"));
	assert_false(pcost_sdt_args_below_rsp(""));
	assert_false(pcost_sdt_args_below_rsp("-24(%rsp)")); /* no SIZE@: not an argument */
}

static void bad_files(void **state)
{
	struct pcost_site_file *f = (void *)1;

	(void)state;
	assert_int_equal(pcost_site_file_open("build/fixtures/does-not-exist", &f), -ENOENT);
	assert_null(f);
	assert_int_equal(pcost_site_file_open("tests/fixtures/redzone/main.c", &f), -ENOEXEC);
	assert_int_equal(pcost_site_file_open("tests/fixtures", &f), -EISDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_sites),  cmocka_unit_test(encodings),
		cmocka_unit_test(raw_functions),  cmocka_unit_test(merge_rows),
		cmocka_unit_test(args_below_rsp), cmocka_unit_test(bad_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
