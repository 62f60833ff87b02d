// SPDX-License-Identifier: MIT
/* test_sdt: the SDT note reader on real binaries, and on broken ones. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "probes/sdt.h"

/* This test program links the stanford kernels, so it carries their notes. */
static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void own_probes(void **state)
{
	struct pcost_sdt_list l;
	size_t idx[4], len;
	unsigned char *img = slurp("/proc/self/exe", &len);
	const struct pcost_sdt_probe *p;

	(void)state;
	assert_int_equal(pcost_sdt_read("/proc/self/exe", &l), 0);
	/* 4 stanford providers x 9 kernels and sdtargs' 6 probes, in 4 site encodings each. */
	assert_int_equal(l.n, 168);
	assert_true(pcost_sdt_find(&l, "stanford_plain_sem", "towers", idx, 4) >= 1);
	p = &l.probes[idx[0]];
	assert_true(p->sem != 0 && p->sem_offset != 0 && p->sem_offset + 2 <= len);
	/* The semaphore is a zero unsigned short in the file, the probe site a nop. */
	assert_int_equal(img[p->sem_offset] | img[p->sem_offset + 1], 0);
	assert_true(p->pc_offset < len);
	assert_int_equal(img[p->pc_offset], 0x90);
	assert_true(pcost_sdt_find(&l, "stanford_plain", "bubble", idx, 4) >= 1);
	assert_int_equal(l.probes[idx[0]].sem, 0);
	assert_int_equal(l.probes[idx[0]].sem_offset, 0);
	assert_true(strchr(l.probes[idx[0]].args, '@') != NULL);
	assert_int_equal(pcost_sdt_find(&l, "stanford_none", "towers", idx, 4), 0);
	pcost_sdt_list_release(&l);

	/* The in-memory reader agrees. */
	assert_int_equal(pcost_sdt_read_mem(img, len, &l), 0);
	assert_int_equal(l.n, 168);
	pcost_sdt_list_release(&l);
	free(img);
}

static void bad_files(void **state)
{
	struct pcost_sdt_list l;
	size_t len;
	unsigned char *img = slurp("/proc/self/exe", &len);
	char text[] = "#!/bin/sh\necho not an elf\n";
	int rc;

	(void)state;
	assert_int_equal(pcost_sdt_read("/nonexistent/x", &l), -ENOENT);
	pcost_sdt_list_release(&l);
	/* Not a regular file (a directory, a FIFO, a device): refused before libelf reads it. */
	assert_int_equal(pcost_sdt_read("/", &l), -EISDIR);
	pcost_sdt_list_release(&l);
	assert_int_equal(pcost_sdt_read_mem(text, sizeof(text), &l), -ENOEXEC);
	pcost_sdt_list_release(&l);
	assert_int_equal(pcost_sdt_read_mem(img, 0, &l), -ENOEXEC);
	pcost_sdt_list_release(&l);
	/* Truncated anywhere: an error or fewer probes, never a crash. */
	for (size_t cut = 1; cut < len; cut += len / 97 + 1) {
		rc = pcost_sdt_read_mem(img, cut, &l);
		assert_true(rc < 0 || l.n <= 36);
		pcost_sdt_list_release(&l);
	}
	/* A note whose descriptor size runs past its section. */
	{
		unsigned char *bad = malloc(len);
		unsigned char *hit = NULL;

		memcpy(bad, img, len);
		/* A note header's n_type (3, little endian) then the owner name. */
		/* The last match: this very literal sits earlier, in .rodata. */
		for (unsigned char *q = bad;
		     (q = memmem(q, len - (size_t)(q - bad), "\x03\0\0\0stapsdt\0", 12)); q++)
			hit = q;
		assert_non_null(hit);
		/* n_descsz sits just before n_type. */
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): assert_non_null ends the test */
		hit[-4] = 0xff;
		hit[-3] = 0xff;
		rc = pcost_sdt_read_mem(bad, len, &l);
		assert_int_equal(rc, -EBADMSG);
		pcost_sdt_list_release(&l);
		free(bad);
	}
	free(img);
	assert_string_equal(pcost_sdt_strerror(-ENOEXEC), "not an ELF executable or shared object");
}

static void specs_and_paths(void **state)
{
	char p[64], n[64];

	(void)state;
	assert_int_equal(pcost_sdt_parse_spec("stanford_plain:towers", p, 64, n, 64), 0);
	assert_string_equal(p, "stanford_plain");
	assert_string_equal(n, "towers");
	assert_int_equal(pcost_sdt_parse_spec("sdt_libc:setjmp", p, 64, n, 64), 0);
	assert_string_equal(p, "libc");
	assert_int_equal(pcost_sdt_parse_spec("libc/setjmp", p, 64, n, 64), 0);
	assert_int_equal(pcost_sdt_parse_spec("towers", p, 64, n, 64), -EINVAL);
	assert_int_equal(pcost_sdt_parse_spec(":x", p, 64, n, 64), -EINVAL);
	assert_int_equal(pcost_sdt_parse_spec("a:b:c", p, 64, n, 64), -EINVAL);
	assert_int_equal(pcost_sdt_parse_spec("a b:c", p, 64, n, 64), -EINVAL);
	assert_true(pcost_sdt_path_ok("/usr/bin/probecost"));
	assert_false(pcost_sdt_path_ok("relative/bin"));
	assert_false(pcost_sdt_path_ok("/tmp/a b"));
	assert_false(pcost_sdt_path_ok("/tmp/a:b"));
	assert_false(pcost_sdt_path_ok("/tmp/a\nb"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_probes),
		cmocka_unit_test(bad_files),
		cmocka_unit_test(specs_and_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
