// SPDX-License-Identifier: MIT
/* test_wl_threads: the workloads' thread launcher (every thread runs once; what it times). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "workloads/timed.h"

#define SPIN_NS 20000000ull /* each thread's CPU time: 20 ms */

struct spin {
	pthread_t caller;
	unsigned ran[8];
	int in_caller[8];
	pcost_ns spun[8]; /* each spin's CPU time, from its own first read to its last */
};

/*
 * This thread's CPU time, read by the clock_gettime system call itself
 * (CLOCK_THREAD_CPUTIME_ID, no vDSO, none of probecost's code): the reference
 * apart from the clock under test, pcost_wl_clock_ns(), so a launcher that
 * read the wrong clock cannot agree with itself.  (getrusage(RUSAGE_THREAD)
 * would be further apart but runs up to a tick behind a running thread.)
 */
static pcost_ns thread_cpu_ns_syscall(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
	return (pcost_ns)ts.tv_sec * 1000000000ull + (pcost_ns)ts.tv_nsec;
}

/* Spin until this thread has used SPIN_NS of CPU: a known CPU time whatever the load. */
static void spin_cpu(void *arg, unsigned i)
{
	struct spin *s = arg;
	pcost_ns t0 = thread_cpu_ns_syscall(), t;

	do
		t = thread_cpu_ns_syscall();
	while (t - t0 < SPIN_NS);
	s->spun[i] = t - t0;
	s->ran[i]++;
	s->in_caller[i] = pthread_equal(pthread_self(), s->caller);
}

/*
 * The CPU clock sums the threads' CPU times: what the spins measured of
 * themselves (each at least 20 ms), plus a clock read or two each.  A spin can
 * overshoot its 20 ms by whatever the guest charges it for a host preemption
 * that ends inside it (CI's load once made that 10 ms), so the sum is held to
 * the spins' own figures, not to n x 20 ms.  Half a spin of room above them
 * still fails a launcher that counts a thread twice (+20 ms), and one that
 * reads the wall clock (n = 3 on 2 CPUs: about 30 ms, under the sum; on this
 * guest its n = 1 read already ran more than 10 ms past the spin's CPU time).
 */
static void cpu_clock_sums(void **state)
{
	for (unsigned n = 1; n <= 3; n++) {
		struct spin s = { .caller = pthread_self() };
		pcost_ns timed = 0, spun = 0;

		(void)state;
		assert_int_equal(pcost_wl_threads_run(n, PCOST_WL_CPU, spin_cpu, &s, &timed), 0);
		for (unsigned i = 0; i < 8; i++) {
			assert_int_equal(s.ran[i], i < n);
			spun += s.spun[i];
		}
		assert_true(spun >= n * SPIN_NS);
		assert_true(timed >= spun);
		assert_true(timed < spun + SPIN_NS / 2);
		/* One thread runs in the caller; more are threads of their own. */
		assert_int_equal(s.in_caller[0], n == 1);
		if (n > 1)
			assert_int_equal(s.in_caller[1], 0);
	}
}

/* The wall clock spans every thread: at least one thread's 20 ms of CPU. */
static void wall_clock_spans(void **state)
{
	struct spin s = { .caller = pthread_self() };
	pcost_ns timed = 0;

	(void)state;
	assert_int_equal(pcost_wl_threads_run(2, PCOST_WL_WALL, spin_cpu, &s, &timed), 0);
	assert_int_equal(s.ran[0] + s.ran[1], 2);
	assert_true(timed >= SPIN_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_clock_sums),
		cmocka_unit_test(wall_clock_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
