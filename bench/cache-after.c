// SPDX-License-Identifier: MIT
/*
 * cache-after: does the same work take longer the longer it has been since it
 * last ran, while the CPU spun on something that touches nothing?  If the
 * machine's other tenants (a VM's host, the sibling hyperthread) evict this
 * CPU's cache lines as time passes, it does: a monitored run that lasts longer
 * ends with colder caches, and its end (the report, the log, exit) costs more.
 * That is the fixed cost bench/coverage.sh found above its truth.
 *
 * Rounds, the spin lengths interleaved: sleep 3 ms, do the work once (warm),
 * spin L ns on the clock, do the work again, timed.  Works:
 *   read32k, read256k, read1m  read one byte per 64-byte line of a buffer
 *   files                      5 x open(O_APPEND)/write 2 bytes/close of FILE
 *   alu                        40,000 multiply-xor rounds (no memory)
 *   files-getppid              files, after a spin that makes a getppid every
 *                              100 us (is it the kernel entry that cools?)
 * Usage: cache-after ROUNDS FILE L1 L2 ... (ns); prints one line per work and
 * length: the median ns of the timed work.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* Spin ns on the clock; with every, a getppid each every ns. */
static void spin(uint64_t ns, uint64_t every)
{
	uint64_t t0 = now(), last = t0, t;

	while ((t = now()) - t0 < ns)
		if (every && t - last >= every) {
			syscall(SYS_getppid);
			last = t;
		}
}

static volatile unsigned char *buf;
static volatile uint64_t sink;
static const char *file;

static void read_lines(size_t size)
{
	unsigned x = 0;

	for (size_t i = 0; i < size; i += 64)
		x += buf[i];
	buf[0] = (unsigned char)x;
}

static void work(int w)
{
	uint64_t x = 1;

	switch (w) {
	case 0:
		read_lines(32 << 10);
		break;
	case 1:
		read_lines(256 << 10);
		break;
	case 2:
		read_lines(1 << 20);
		break;
	case 3:
	case 5:
		for (int i = 0; i < 5; i++) {
			int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

			if (fd < 0 || write(fd, "x\n", 2) != 2) {
				perror(file);
				exit(1);
			}
			close(fd);
		}
		break;
	default:
		for (int i = 0; i < 40000; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			x ^= x >> 17;
		}
		sink = x;
	}
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "read32k", "read256k", "read1m",
					     "files",	"alu",	    "files-getppid" };
	const struct timespec pause = { 0, 3000000 };
	int rounds, nl = argc - 3;
	uint64_t *v;

	if (argc < 4 || (rounds = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: cache-after ROUNDS FILE L1 [L2 ...] (ns)\n");
		return 2;
	}
	file = argv[2];
	buf = malloc(1 << 20);
	v = malloc(sizeof(*v) * (size_t)rounds * (size_t)nl);
	if (!buf || !v) {
		free((void *)buf);
		free(v);
		return 1;
	}
	for (size_t i = 0; i < 1 << 20; i++)
		buf[i] = (unsigned char)i;
	for (int w = 0; w < 6; w++) {
		for (int r = 0; r < rounds; r++)
			for (int k = 0; k < nl; k++) {
				int i = (k + r) % nl;
				uint64_t t0;

				nanosleep(&pause, NULL);
				work(w);
				spin(strtoull(argv[3 + i], NULL, 10), w == 5 ? 100000 : 0);
				t0 = now();
				work(w);
				v[(size_t)i * (size_t)rounds + (size_t)r] = now() - t0;
			}
		for (int i = 0; i < nl; i++) {
			qsort(v + (size_t)i * (size_t)rounds, (size_t)rounds, sizeof(*v), cmp);
			printf("%s %s %llu\n", names[w], argv[3 + i],
			       (unsigned long long)
				       v[(size_t)i * (size_t)rounds + (size_t)rounds / 2]);
		}
	}
	unlink(file);
	free((void *)buf);
	free(v);
	return 0;
}
