// SPDX-License-Identifier: MIT
/*
 * test_perf_data: the samples of hand-made perf.data files, laid out as perf
 * record writes them (a 104-byte header, attributes, then the data section's
 * records), with a known count; and the files it must not count.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitors/perf_data.h"

#define MAGIC 0x32454c4946524550ULL /* "PERFILE2" */
#define HEADER 104
#define ATTRS 144 /* where perf puts them: between the header and the data */
#define DATA (HEADER + ATTRS)

struct file {
	unsigned char buf[8192];
	size_t len;
};

static void put64(struct file *f, size_t at, uint64_t v)
{
	memcpy(f->buf + at, &v, sizeof(v));
}

/* The header of a finished file whose data section is what records() appended. */
static void header(struct file *f, uint64_t magic)
{
	memset(f, 0, sizeof(*f));
	put64(f, 0, magic);
	put64(f, 8, HEADER);
	put64(f, 16, ATTRS);
	put64(f, 24, HEADER); /* attrs: offset, size */
	put64(f, 32, ATTRS);
	put64(f, 40, DATA); /* data: offset, size (set by record()) */
	f->len = DATA;
}

/*
 * One record of type and size bytes (header included) at the end of the data
 * section; a size below a header's is a broken header alone.
 */
static void record(struct file *f, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	size_t whole = size < sizeof(h) ? sizeof(h) : size;

	memcpy(f->buf + f->len, &h, sizeof(h));
	memset(f->buf + f->len + sizeof(h), 0xa5, whole - sizeof(h));
	f->len += whole;
	put64(f, 48, f->len - DATA);
}

/* What pcost_perf_data_samples() says of f's first len bytes written to a file. */
static int64_t count(const struct file *f, size_t len)
{
	char path[] = "/tmp/test_perf_data.XXXXXX";
	int fd = mkstemp(path);
	int64_t n;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, f->buf, len), (ssize_t)len);
	close(fd);
	n = pcost_perf_data_samples(path);
	unlink(path);
	return n;
}

/* What a perf record of a short program holds: its comm and maps, samples, rounds. */
static void typical(struct file *f, int samples)
{
	header(f, MAGIC);
	record(f, PERF_RECORD_COMM, 40);
	record(f, PERF_RECORD_MMAP2, 120);
	for (int i = 0; i < samples; i++) {
		/* Call chains of different depths: samples of different sizes. */
		record(f, PERF_RECORD_SAMPLE, (uint16_t)(48 + 8 * (i % 5)));
		if (i % 4 == 3)
			record(f, 68 /* PERF_RECORD_FINISHED_ROUND */, 8);
	}
	record(f, PERF_RECORD_EXIT, 48);
}

static void test_counts_samples(void **state)
{
	struct file f;

	(void)state;
	typical(&f, 37);
	assert_int_equal(count(&f, f.len), 37);
	/* Perf's own records that are not samples do not count. */
	typical(&f, 0);
	assert_int_equal(count(&f, f.len), 0);
	/* Whatever follows the data section (perf's feature sections) is not read. */
	typical(&f, 5);
	memset(f.buf + f.len, 0, 64);
	assert_int_equal(count(&f, f.len + 64), 5);
}

static void test_refuses(void **state)
{
	struct file f;

	(void)state;
	assert_int_equal(pcost_perf_data_samples("/nonexistent/perf.data"), -1);
	/* The other byte order's magic. */
	typical(&f, 3);
	put64(&f, 0, __builtin_bswap64(MAGIC));
	assert_int_equal(count(&f, f.len), -1);
	/* Not finished: perf writes the data section's size at exit, 0 until then. */
	typical(&f, 3);
	put64(&f, 48, 0);
	assert_int_equal(count(&f, f.len), -1);
	/* Cut short: the data section runs past the end of the file. */
	typical(&f, 3);
	assert_int_equal(count(&f, f.len - 1), -1);
	/* Shorter than a header. */
	assert_int_equal(count(&f, 40), -1);
	/* A record shorter than its own header (0: no way on), or running past the section. */
	typical(&f, 3);
	record(&f, PERF_RECORD_SAMPLE, 0);
	assert_int_equal(count(&f, f.len), -1);
	typical(&f, 3);
	put64(&f, 48, f.len - DATA - 4);
	assert_int_equal(count(&f, f.len), -1);
	/* Samples inside perf record -z's compressed records, or AUX data beyond a header. */
	typical(&f, 3);
	record(&f, 81 /* PERF_RECORD_COMPRESSED */, 64);
	assert_int_equal(count(&f, f.len), -1);
	typical(&f, 3);
	record(&f, 71 /* PERF_RECORD_AUXTRACE */, 48);
	assert_int_equal(count(&f, f.len), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_samples),
		cmocka_unit_test(test_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
