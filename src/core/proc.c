// SPDX-License-Identifier: MIT
/* core/proc: start a program, capture its output, wait (see proc.h). */
#include "core/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"

const char *pcost_self_exe(void)
{
	static char path[PATH_MAX];

	if (!path[0]) {
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		if (n <= 0)
			snprintf(path, sizeof(path), "/proc/self/exe");
		else
			path[n] = 0;
	}
	return path;
}

int pcost_proc_start(struct pcost_proc *p, char *const argv[])
{
	return pcost_proc_start_flags(p, argv, 0);
}

/* Start argv: its output into our pipes, or both streams onto outfd (>= 0). */
static int proc_start(struct pcost_proc *p, char *const argv[], unsigned flags, int outfd)
{
	int fds[2], efds[2];
	pid_t pid, parent = getpid();

	memset(p, 0, sizeof(*p));
	p->out = p->err = -1;
	p->status = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(efds, O_CLOEXEC) < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		close(efds[0]);
		close(efds[1]);
		return -e;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		pcost_child_setup(parent);
		if (devnull >= 0)
			dup2(devnull, 0);
		if (outfd >= 0) {
			dup2(outfd, 1);
			dup2(outfd, 2);
		} else {
			dup2(fds[1], 1);
			dup2(flags & PCOST_PROC_MERGE ? fds[1] : efds[1], 2);
		}
		execvp(argv[0], argv);
		dprintf(2, "cannot execute '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	pcost_child_add(pid);
	close(fds[1]);
	close(efds[1]);
	p->pid = pid;
	p->out = fds[0];
	p->err = efds[0];
	if (outfd >= 0) {
		/* Nothing comes through our pipes: its output is in the file. */
		close(fds[0]);
		close(efds[0]);
		p->out = p->err = -1;
	}
	p->cap = p->ecap = 4096;
	p->buf = xmalloc(p->cap);
	p->ebuf = xmalloc(p->ecap);
	p->buf[0] = p->ebuf[0] = 0;
	return 0;
}

int pcost_proc_start_flags(struct pcost_proc *p, char *const argv[], unsigned flags)
{
	return proc_start(p, argv, flags, -1);
}

int pcost_proc_start_to(struct pcost_proc *p, char *const argv[], int fd)
{
	return proc_start(p, argv, 0, fd);
}

/* Read what is there into buf; 0 on EOF (fd closed), 1 when data came, -errno. */
static int read_some(int *fd, char **buf, size_t *len, size_t *cap)
{
	ssize_t n;

	xgrow((void **)buf, cap, *len + 4097, 1);
	n = read(*fd, *buf + *len, 4096);
	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	*len += (size_t)n;
	(*buf)[*len] = 0;
	return 1;
}

/*
 * Wait up to ms for output on stdout or stderr and read it.  -1 when poll
 * failed (not EINTR), -EIO on a read error, else 0.
 */
int pcost_proc_pump(struct pcost_proc *p, int ms)
{
	struct pollfd pfd[2] = { { .fd = p->out, .events = POLLIN },
				 { .fd = p->err, .events = POLLIN } };
	int r = poll(pfd, 2, ms);

	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (p->out >= 0 && (pfd[0].revents & (POLLIN | POLLHUP)) &&
	    read_some(&p->out, &p->buf, &p->len, &p->cap) < 0)
		return -EIO;
	if (p->err >= 0 && (pfd[1].revents & (POLLIN | POLLHUP)) &&
	    read_some(&p->err, &p->ebuf, &p->elen, &p->ecap) < 0)
		return -EIO;
	return 0;
}

/* A whole line of text matching re (a partial line might still grow into a match). */
static bool text_lines_match(const char *text, regex_t *re)
{
	const char *line = text;
	const char *nl;

	while (line && (nl = strchr(line, '\n'))) {
		char *one = strndup(line, (size_t)(nl - line));
		bool ok = one && regexec(re, one, 0, NULL, 0) == 0;

		free(one);
		if (ok)
			return true;
		line = nl + 1;
	}
	return false;
}

/* CPU time process pid (all its threads) has used, in clock ticks; 0 when gone. */
static unsigned long long proc_cpu_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long u = 0, s = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return 0;
	/* After "pid (comm)": utime and stime are fields 14 and 15. */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &u, &s) != 2)
		return 0;
	return u + s;
}

/* Its output, stdout or stderr (a tool says "attached" on either). */
static bool lines_match(const struct pcost_proc *p, regex_t *re)
{
	return text_lines_match(p->buf, re) || text_lines_match(p->ebuf, re);
}

int pcost_proc_wait_ready(struct pcost_proc *p, const char *regex, pcost_ns timeout_ns)
{
	const pcost_ns second = 1000ULL * 1000 * 1000;
	pcost_ns deadline = pcost_now_ns() + timeout_ns, cap = deadline + 9 * timeout_ns;
	unsigned long long cpu = proc_cpu_ticks(p->pid);
	regex_t re;
	int rc = -ETIMEDOUT;

	if (!regex)
		return 0;
	if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB) != 0)
		return -EINVAL;
	for (;;) {
		pcost_ns now = pcost_now_ns();
		int r;

		if (lines_match(p, &re)) {
			rc = 0;
			break;
		}
		if (pcost_interrupted) {
			rc = -EINTR;
			break;
		}
		if (p->out < 0) {
			/* It exited: what it said on stderr may still be in the pipe. */
			for (int i = 0; i < 10 && p->err >= 0; i++)
				pcost_proc_pump(p, 100);
			rc = -EPIPE;
			break;
		}
		if (now >= deadline) {
			/* Still working (it used CPU since the last look): another second, up to
			 * 10 x the timeout; neither ready nor working: it is stuck. */
			unsigned long long c = proc_cpu_ticks(p->pid);

			if (c <= cpu || now >= cap)
				break;
			cpu = c;
			deadline = now + second < cap ? now + second : cap;
		}
		r = pcost_proc_pump(p, (int)((deadline - now) / 1000000 + 1));
		if (r < 0) {
			rc = r == -1 ? -errno : r;
			break;
		}
	}
	regfree(&re);
	return rc;
}

int pcost_proc_stop(struct pcost_proc *p, int sig, pcost_ns grace_ns)
{
	const pcost_ns again_ns = 100 * 1000 * 1000;
	pcost_ns deadline, again;
	bool killed = false;

	if (p->pid <= 0)
		return 0;
	if (sig)
		kill(p->pid, sig);
	deadline = pcost_now_ns() + grace_ns;
	again = pcost_now_ns() + again_ns;
	for (;;) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);

		if (r == 0 && sig && !killed && p->signal_again && pcost_now_ns() >= again) {
			again = pcost_now_ns() + again_ns;
			if (p->signal_again(p->pid))
				kill(p->pid, sig);
		}

		if (r == p->pid)
			break;
		if (r < 0 && errno != EINTR) {
			p->status = -1;
			break;
		}
		if (!killed && pcost_now_ns() >= deadline) {
			kill(-p->pid, SIGKILL);
			killed = true;
		}
		if (p->out >= 0 || p->err >= 0)
			pcost_proc_pump(p, 10);
		else
			usleep(2000);
	}
	/* The rest of its output (its children may hold the pipes: do not wait on them). */
	kill(-p->pid, SIGKILL);
	for (int i = 0; i < 20 && (p->out >= 0 || p->err >= 0); i++)
		if (pcost_proc_pump(p, 100) < 0)
			break;
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	p->out = p->err = -1;
	pcost_child_remove(p->pid);
	p->pid = 0;
	return killed ? -ETIMEDOUT : 0;
}

void pcost_proc_release(struct pcost_proc *p)
{
	if (p->pid > 0)
		pcost_proc_stop(p, SIGKILL, 0);
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	free(p->buf);
	free(p->ebuf);
	p->buf = p->ebuf = NULL;
	p->len = p->cap = p->elen = p->ecap = 0;
	p->out = p->err = -1;
}

/* Lines a tool prints that are no error: blank, and bpftrace's memlock notice. */
static bool harmless_line(const char *line, size_t n)
{
	char one[512];

	snprintf(one, sizeof(one), "%.*s", (int)n, line);
	return !one[strspn(one, " \t\r")] || strstr(one, "RLIMIT_MEMLOCK");
}

void pcost_proc_error_line(const struct pcost_proc *p, char *out, size_t len)
{
	const char *bufs[] = { p->ebuf, p->buf };

	out[0] = 0;
	/* The first real line of stderr, else the last line of stdout. */
	for (const char *l = bufs[0]; l && *l;) {
		size_t n = strcspn(l, "\n");

		if (!harmless_line(l, n)) {
			snprintf(out, len, "%.*s", (int)n, l);
			return;
		}
		l += n + (l[n] == '\n');
	}
	for (const char *l = bufs[1]; l && *l;) {
		size_t n = strcspn(l, "\n");

		if (!harmless_line(l, n))
			snprintf(out, len, "%.*s", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

bool pcost_proc_died(const struct pcost_proc *p, int stop_sig, char *why, size_t len)
{
	int st = p->status;

	if (st == -1)
		return false;
	if (WIFSIGNALED(st) && WTERMSIG(st) != stop_sig && WTERMSIG(st) != SIGKILL) {
		snprintf(why, len, "killed by SIG%s", sigabbrev_np(WTERMSIG(st)) ?: "?");
		return true;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		char line[160];

		pcost_proc_error_line(p, line, sizeof(line));
		snprintf(why, len, "exit %d%s%s", WEXITSTATUS(st), line[0] ? ": " : "", line);
		return true;
	}
	return false;
}

bool pcost_proc_stop_checked(struct pcost_proc *p, pcost_ns grace_ns, char *why, size_t len)
{
	if (p->pid > 0 && waitpid(p->pid, &p->status, WNOHANG) == p->pid) {
		/* It died during the run: the monitor crashed (or quit). */
		pcost_child_remove(p->pid);
		kill(-p->pid, SIGKILL);
		p->pid = 0;
		if (!pcost_proc_died(p, 0, why, len))
			snprintf(why, len, "exit 0");
		snprintf(why + strlen(why), len - strlen(why), " during the run");
		return true;
	}
	int sig = p->stop_sig ? p->stop_sig : SIGINT;

	if (pcost_proc_stop(p, sig, grace_ns) == -ETIMEDOUT) {
		snprintf(why, len, "did not stop after SIG%s; killed", sigabbrev_np(sig) ?: "?");
		return true;
	}
	/* Exit 128 + SIGINT is how many tools (strace) say they stopped on it. */
	if (sig == SIGINT && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 128 + SIGINT)
		return false;
	return pcost_proc_died(p, sig, why, len);
}

int pcost_proc_run(char *const argv[], unsigned flags, pcost_ns timeout_ns, volatile pid_t *pidp,
		   char *out, size_t len)
{
	struct pcost_proc p;
	pcost_ns deadline = timeout_ns ? pcost_now_ns() + timeout_ns : 0;
	bool late = false;
	int rc;

	if (len)
		out[0] = 0;
	rc = pcost_proc_start_flags(&p, argv, flags);
	if (rc < 0)
		return rc;
	if (pidp)
		*pidp = p.pid;
	while (p.out >= 0 || p.err >= 0) {
		pcost_ns now = pcost_now_ns();

		if (deadline && now >= deadline) {
			late = true;
			break;
		}
		if (pcost_proc_pump(&p, deadline ? (int)((deadline - now) / 1000000 + 1) : 1000) <
		    0)
			break;
	}
	/* Output closed (or the limit): reap it, SIGKILL at once when late. */
	if (late) {
		pcost_proc_stop(&p, SIGKILL, 0);
	} else {
		pcost_ns now = pcost_now_ns();
		pcost_ns grace = !deadline	  ? (pcost_ns)INT64_MAX
				 : deadline > now ? deadline - now
						  : 0;

		late = pcost_proc_stop(&p, 0, grace) == -ETIMEDOUT;
	}
	if (pidp)
		*pidp = 0;
	if (len)
		snprintf(out, len, "%s%s", p.buf ? p.buf : "", p.ebuf ? p.ebuf : "");
	rc = late		   ? -ETIMEDOUT
	     : p.status == -1	   ? -ECHILD
	     : WIFEXITED(p.status) ? WEXITSTATUS(p.status)
				   : 128 + WTERMSIG(p.status);
	pcost_proc_release(&p);
	return rc;
}

/* The keeper's life: wait for a word or the pipe's end; at the end, stop the group. */
static noreturn void keeper_main(int fd, pid_t pgid, unsigned grace_s)
{
	char c = 0;
	ssize_t n;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && c == 'x')
		_exit(0);
	/* We are gone without a word: the group goes too, gently first. */
	kill(-pgid, SIGTERM);
	for (unsigned i = 0; i < grace_s * 10 && kill(-pgid, 0) == 0; i++)
		usleep(100000);
	kill(-pgid, SIGKILL);
	_exit(0);
}

int pcost_keeper_start(struct pcost_keeper *k, pid_t pgid, unsigned grace_s)
{
	int fds[2];
	pid_t pid;

	k->pid = 0;
	k->fd = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pid == 0) {
		/* Its own group, deaf to the terminal's Ctrl-C; nothing of ours but the pipe. */
		setpgid(0, 0);
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		if (fds[0] != 3)
			dup2(fds[0], 3);
		close_range(0, 2, 0);
		close_range(4, ~0U, 0);
		prctl(PR_SET_NAME, "pcost-keeper");
		keeper_main(3, pgid, grace_s);
	}
	close(fds[0]);
	k->pid = pid;
	k->fd = fds[1];
	return 0;
}

void pcost_keeper_release(struct pcost_keeper *k)
{
	if (k->fd >= 0) {
		if (write(k->fd, "x", 1) != 1)
			kill(k->pid, SIGKILL);
		close(k->fd);
		k->fd = -1;
	}
	if (k->pid > 0)
		while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
			;
	k->pid = 0;
}
