// SPDX-License-Identifier: MIT
/*
 * exitcost: perf bench sched messaging's protocol in a few lines (groups of
 * 20 forked receivers and 20 forked senders on socketpairs, every worker ready
 * before the clock starts, the clock stopped when the last worker is reaped),
 * to show what a worker's end costs by the binary it was forked from.
 * bench/exitcost.sh builds it linked with the C library alone and linked with
 * every library probecost links, and runs it with workers ending in exit()
 * or _exit().  Usage: exitcost GROUPS LOOPS exit|_exit; prints the timed
 * region in ns.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FDS 20
#define SIZE 100

static int loops, use_exit;

static void channel(int fds[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) < 0) {
		perror("socketpair");
		exit(1);
	}
}

static void xfer(int fd, char *buf, int out)
{
	for (int done = 0; done < SIZE;) {
		ssize_t n = out ? write(fd, buf + done, SIZE - done)
				: read(fd, buf + done, SIZE - done);

		if (n <= 0)
			_exit(1);
		done += (int)n;
	}
}

/* Say ready, wait for the start, do the work, end the way asked. */
static void worker(int ready, int wake, int in, const int *out)
{
	struct pollfd p = { .fd = wake, .events = POLLIN };
	char buf[SIZE];

	memset(buf, 'M', sizeof(buf));
	if (write(ready, "r", 1) != 1 || poll(&p, 1, -1) != 1)
		_exit(1);
	for (int l = 0; l < loops; l++)
		for (int j = 0; j < FDS; j++)
			xfer(out ? out[j] : in, buf, out != NULL);
	if (use_exit)
		exit(0);
	_exit(0);
}

int main(int argc, char **argv)
{
	int groups, ready[2], wake[2], workers = 0;
	struct timespec a, b;
	char c;

	if (argc != 4 || (groups = atoi(argv[1])) < 1 || (loops = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: exitcost GROUPS LOOPS exit|_exit\n");
		return 2;
	}
	use_exit = !strcmp(argv[3], "exit");
	channel(ready);
	channel(wake);
	for (int g = 0; g < groups; g++) {
		int out[FDS];

		for (int i = 0; i < FDS; i++, workers++) {
			int fds[2];

			channel(fds);
			if (fork() == 0) {
				close(fds[1]);
				worker(ready[1], wake[0], fds[0], NULL);
			}
			out[i] = fds[1];
			close(fds[0]);
		}
		for (int i = 0; i < FDS; i++, workers++)
			if (fork() == 0)
				worker(ready[1], wake[0], -1, out);
		for (int i = 0; i < FDS; i++)
			close(out[i]);
	}
	for (int i = 0; i < workers; i++)
		if (read(ready[0], &c, 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (write(wake[1], "w", 1) != 1)
		return 1;
	for (int i = 0; i < workers; i++)
		wait(NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
	return 0;
}
