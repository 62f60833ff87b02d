// SPDX-License-Identifier: MIT
/*
 * matmul: 128x128 naive double matmul reading performance counters after
 * each outer iteration, after the "Raw Multiple Read" test of seed 001.
 *
 * Check (check=ok|bad): each product's entries must add up to the sum over k
 * of (column k of a's sum) x (row k of b's sum), worked out without the
 * product; every entry is a multiple of 1/8 far below 2^50, so both sums are
 * exact and must be equal to the last bit.  A counter read that disturbed the
 * registers or memory of the multiplication fails it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "counters/counters.h"
#include "probecost/counters.h"
#include "workloads/timed.h"
#include "workloads/workload.h"

static const struct pcost_param_desc matmul_params[] = {
	{ "n", PCOST_PARAM_U64, 128, 8, 2048, NULL, "matrix size (n x n doubles)" },
	{ "reps", PCOST_PARAM_U64, 10, 1, 1000000, NULL, "matmuls done, each read n times" },
	{ "reads", PCOST_PARAM_ENUM, 0, 0, 0, "group|each|none",
	  "how task-clock and page-faults are read after each row (perf_event)" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

struct row_reader {
	struct pcost_counters *c;
	uint64_t prev[2];
	unsigned long reads, decreasing;
	int rc;
};

static void read_row(void *arg, unsigned i)
{
	struct row_reader *r = arg;
	uint64_t v[2];
	int rc = pcost_counters_read(r->c, v);

	(void)i;
	if (rc) {
		r->rc = rc;
		return;
	}
	for (int j = 0; j < 2; j++) {
		if (v[j] < r->prev[j])
			r->decreasing++;
		r->prev[j] = v[j];
	}
	r->reads++;
}

/* The sum of every entry of a x b (n x n), without the product: sum over k of colsum(a, k) x rowsum(b, k). */
static double product_sum(unsigned n, const double *a, const double *b)
{
	double sum = 0;

	for (unsigned k = 0; k < n; k++) {
		double ca = 0, rb = 0;

		for (unsigned i = 0; i < n; i++) {
			ca += a[(size_t)i * n + k];
			rb += b[(size_t)k * n + i];
		}
		sum += ca * rb;
	}
	return sum;
}

static int matmul_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	static const char *const ev[] = { "task-clock", "page-faults" };
	unsigned n = (unsigned)pcost_param_get(p, "n");
	uint64_t reps = pcost_param_get(p, "reps"), mode = pcost_param_get(p, "reads");
	struct row_reader rr = { 0 };
	double *a, *b, *c, sum = 0, want;
	uint64_t wrong = 0;
	pcost_ns t0, t1;
	int rc = 0;

	prctl(PR_SET_NAME, "pcost-matmul");
	if (mode != 2) {
		/* paranoid 2 and no privilege: user space only rather than nothing. */
		bool user = pcost_counter_probe_kernel() == 1;
		PCOST_OPTS(pcost_counter_opts, o,
			   .read_mode = mode == 0 ? PCOST_READ_GROUP : PCOST_READ_EACH,
			   .exclude_kernel = user);

		rc = pcost_counters_open_opts(&rr.c, ev, 2, &o);
		if (rc < 0) {
			error("matmul: could not open task-clock/page-faults: %s%s", strerror(-rc),
			      rc == -EACCES
				      ? " (set kernel.perf_event_paranoid <= 2 or run as root)"
				      : "");
			return rc;
		}
	}
	a = xcalloc((size_t)n * n, sizeof(double));
	b = xcalloc((size_t)n * n, sizeof(double));
	c = xcalloc((size_t)n * n, sizeof(double));
	for (size_t i = 0; i < (size_t)n * n; i++) {
		a[i] = (double)(i % 7) * 0.5;
		b[i] = (double)(i % 11) * 0.25;
	}
	want = product_sum(n, a, b);
	if (rr.c)
		rc = pcost_counters_start(rr.c);
	t0 = pcost_now_ns();
	for (uint64_t r = 0; r < reps && !rc && !rr.rc; r++) {
		double one = pcost_matmul(n, a, b, c, rr.c ? read_row : NULL, &rr);

		wrong += one != want;
		sum += one;
	}
	t1 = pcost_now_ns();
	if (rr.c) {
		pcost_counters_stop(rr.c);
		pcost_counters_close(rr.c);
	}
	free(a);
	free(b);
	free(c);
	if (rc || rr.rc) {
		error("matmul: counter %s failed: %s", rc ? "start" : "read",
		      strerror(-(rc ? rc : rr.rc)));
		return rc ? rc : rr.rc;
	}
	res->events = reps * n;
	res->timed_ns = t1 - t0;
	snprintf(res->extra, sizeof(res->extra),
		 " reads=%lu decreasing=%lu task_clock_ns=%llu checksum=%.6g", rr.reads,
		 rr.decreasing, (unsigned long long)rr.prev[0], sum);
	pcost_wl_check(res, !wrong, "%llu of %llu products did not add up to %.17g",
		       (unsigned long long)wrong, (unsigned long long)reps, want);
	return 0;
}

const struct pcost_workload pcost_wl_matmul = {
	.name = "matmul",
	.summary = "naive n x n double matmul reading counters after every row (seed 001)",
	.unit = "row",
	.size_key = "reps",
	.params = matmul_params,
	.run = matmul_run,
};
