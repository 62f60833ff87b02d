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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"

extern char **environ;

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

/* ---- starting a child ------------------------------------------------------------- */

void pcost_child_init(struct pcost_child *c)
{
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = c->fd[2] = PCOST_CHILD_NULL;
	c->pass_fd = -1;
	c->pipe[0] = c->pipe[1] = c->pipe[2] = -1;
	c->go_fd = c->report_fd = -1;
	c->status = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child: what failed before its exec, into our memory (vfork) or onto the report pipe. */
static void child_fail(struct pcost_child *c, int report_w, int stage, int e)
{
	if (c->flags & PCOST_CHILD_VFORK) {
		c->fail_errno = e;
		c->fail_stage = stage;
	} else if (report_w >= 0) {
		int msg[2] = { stage, e };

		if (write(report_w, msg, sizeof(msg)) < 0) {
			/* we then see EOF, and a child that exited */
		}
	}
}

/* In the child: src as descriptor target (the same one: kept across exec). */
static void child_onto(int src, int target)
{
	if (src == target)
		fcntl(target, F_SETFD, 0);
	else
		dup2(src, target);
}

/*
 * The child, from fork (or vfork: on our stack, in our memory) to exec; io[] are
 * its stdin, stdout and stderr (descriptors of ours, PCOST_CHILD_NULL or _KEEP).
 * Syscalls only, and the hooks it was given.
 */
static noreturn void child_main(struct pcost_child *c, pid_t parent, const int io[3], int go_r,
				int report_w)
{
	sigset_t none;
	int nul = -1, e;
	ssize_t r;
	char go;

	if (c->flags & PCOST_CHILD_OUTLIVE)
		setpgid(0, 0);
	else
		pcost_child_setup(parent);
	/* Out of the way of fds 0-3, which the dups below may take. */
	if (go_r >= 0 && go_r < 4)
		go_r = fcntl(go_r, F_DUPFD_CLOEXEC, 4);
	if (report_w >= 0 && report_w < 4)
		report_w = fcntl(report_w, F_DUPFD_CLOEXEC, 4);
	for (int i = 0; i < 3; i++) {
		if (io[i] == PCOST_CHILD_KEEP)
			continue;
		if (io[i] == PCOST_CHILD_NULL && nul < 0)
			nul = open("/dev/null", O_RDWR | O_CLOEXEC);
		child_onto(io[i] == PCOST_CHILD_NULL ? nul : io[i], i);
	}
	if (c->pass_fd >= 0)
		child_onto(c->pass_fd, 3);
	/*
	 * Closed now, not at the exec: a timed run's clock starts before its execve.
	 * Held, our two pipes to it must stay open until then: all close at the exec.
	 */
	if (c->flags & PCOST_CHILD_CLOSE_FDS)
		close_range(c->pass_fd >= 0 ? 4 : 3, ~0U,
			    go_r >= 0 || report_w >= 0 ? CLOSE_RANGE_CLOEXEC : 0);
	if (c->cpu_mask && pcost_pin_mask(c->cpu_mask) < 0) {
		child_fail(c, report_w, PCOST_CHILD_STAGE_PIN, errno);
		_exit(127);
	}
	if (c->hook && c->hook(c->arg) < 0) {
		child_fail(c, report_w, PCOST_CHILD_STAGE_HOOK, errno);
		_exit(127);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (c->flags & PCOST_CHILD_HOLD) {
		/* Nothing runs between this read and the exec: its execve is its first syscall after. */
		while ((r = read(go_r, &go, 1)) < 0 && errno == EINTR)
			;
		if (r != 1)
			_exit(126); /* we gave up on it */
	}
	if (!c->argv) {
		/* No exec to close them: what is close-on-exec closes now. */
		if (c->flags & PCOST_CHILD_CLOSE_FDS)
			close_range(c->pass_fd >= 0 ? 4 : 3, ~0U, 0);
		_exit(c->fn ? c->fn(c->arg) : 0);
	}
	if (c->flags & PCOST_CHILD_VFORK)
		c->exec_ns = pcost_now_ns();
	if (c->path)
		execve(c->path, c->argv, c->env ? c->env : environ);
	else
		execvpe(c->argv[0], c->argv, c->env ? c->env : environ);
	e = errno;
	child_fail(c, report_w, PCOST_CHILD_STAGE_EXEC, e);
	if (c->flags & PCOST_CHILD_SAY_EXEC)
		dprintf(2, "cannot execute '%s': %s\n", c->argv[0], strerror(e));
	_exit(127);
}

/* Our pipes for it: PCOST_CHILD_PIPE outputs (p[i]: read, write) and HOLD's two. */
static int child_pipes(struct pcost_child *c, int p[3][2], int go[2], int rep[2])
{
	for (int i = 1; i < 3; i++)
		if (c->fd[i] == PCOST_CHILD_PIPE && !(i == 2 && (c->flags & PCOST_CHILD_MERGE)) &&
		    pipe2(p[i], O_CLOEXEC) < 0)
			return -errno;
	if ((c->flags & PCOST_CHILD_HOLD) &&
	    (pipe2(go, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0))
		return -errno;
	return 0;
}

int pcost_child_start(struct pcost_child *c)
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, go[2] = { -1, -1 },
	    rep[2] = { -1, -1 }, io[3], rc;
	bool vfork_mode = c->flags & PCOST_CHILD_VFORK;
	pid_t parent = getpid(), pid;
	sigset_t all, old;

	c->pid = 0;
	c->status = -1;
	c->fail_stage = c->fail_errno = 0;
	c->exec_ns = 0;
	if (vfork_mode && ((c->flags & PCOST_CHILD_HOLD) || !c->argv))
		return -EINVAL;
	if ((rc = child_pipes(c, p, go, rep)) < 0) {
		c->fail_stage = PCOST_CHILD_STAGE_PIPE;
		c->fail_errno = -rc;
		goto fail;
	}
	for (int i = 0; i < 3; i++)
		io[i] = c->fd[i] == PCOST_CHILD_PIPE ? p[i][1] : c->fd[i];
	if (c->flags & PCOST_CHILD_MERGE)
		io[2] = io[1];
	/* Until it has reset them: no handler of ours runs in it (nor, vfork, on our stack). */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	/* A vfork child may write only the variable vfork's value goes to: a local. */
	pid = vfork_mode ? vfork() : fork();
	if (pid == 0)
		child_main(c, parent, io, go[0], rep[1]); /* NOLINT(clang-analyzer-unix.Vfork) */
	rc = pid < 0 ? -errno : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		c->fail_stage = PCOST_CHILD_STAGE_FORK;
		c->fail_errno = -rc;
		goto fail;
	}
	if (vfork_mode && c->fail_stage) {
		/* It exited before its exec: reaped here. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		rc = -c->fail_errno;
		goto fail;
	}
	/* Its group exists before we may signal it, whoever runs first. */
	if (!vfork_mode)
		setpgid(pid, pid);
	c->pid = pid;
	if (!(c->flags & PCOST_CHILD_OUTLIVE))
		pcost_child_add(pid);
	for (int i = 1; i < 3; i++) {
		close_fd(&p[i][1]);
		c->pipe[i] = p[i][0];
	}
	close_fd(&go[0]);
	close_fd(&rep[1]);
	c->go_fd = go[1];
	c->report_fd = rep[0];
	return 0;
fail:
	for (int i = 0; i < 3; i++) {
		close_fd(&p[i][0]);
		close_fd(&p[i][1]);
	}
	for (int i = 0; i < 2; i++) {
		close_fd(&go[i]);
		close_fd(&rep[i]);
	}
	return rc;
}

int pcost_child_go(struct pcost_child *c)
{
	int msg[2] = { 0, 0 };
	ssize_t r = 0;

	if (c->go_fd >= 0)
		while (write(c->go_fd, "g", 1) < 0 && errno == EINTR)
			;
	close_fd(&c->go_fd);
	if (c->report_fd >= 0)
		while ((r = read(c->report_fd, msg, sizeof(msg))) < 0 && errno == EINTR)
			;
	close_fd(&c->report_fd);
	if (r != (ssize_t)sizeof(msg))
		return 0;
	c->fail_stage = msg[0];
	c->fail_errno = msg[1];
	return -msg[1];
}

void pcost_child_wait(struct pcost_child *c, const struct pcost_child_wait *w)
{
	static const struct pcost_child_wait no_limits;
	int pidfd, wfd;
	pcost_ns deadline;

	/* Not started: wait4 of pid 0 would reap any child of our group. */
	if (c->pid <= 0)
		return;
	if (!w)
		w = &no_limits;
	deadline = w->deadline;
	pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	wfd = w->watch > 0 ? (int)syscall(SYS_pidfd_open, w->watch, 0) : -1;
	memset(&c->ru, 0, sizeof(c->ru));
	for (;;) {
		struct pollfd pf[5] = { { .fd = pidfd, .events = POLLIN },
					{ .fd = w->fds[0] ? *w->fds[0] : -1, .events = POLLIN },
					{ .fd = w->fds[1] ? *w->fds[1] : -1, .events = POLLIN },
					{ .fd = w->fds[2] ? *w->fds[2] : -1, .events = POLLIN },
					{ .fd = wfd, .events = POLLIN } };
		int ms = -1, r;

		/* No pidfd (old kernel): look every millisecond. */
		if (pidfd < 0) {
			if (wait4(c->pid, &c->status, WNOHANG, &c->ru) == c->pid)
				break;
			ms = 1;
		}
		if (deadline) {
			pcost_ns now = pcost_now_ns();
			int left = now >= deadline ? 0 : (int)((deadline - now) / 1000000 + 1);

			ms = ms < 0 || left < ms ? left : ms;
		}
		r = poll(pf, 5, ms);
		if (pcost_interrupted && !c->interrupted) {
			c->interrupted = true;
			kill(-c->pid, SIGKILL);
		}
		if (r > 0 && wfd >= 0 && (pf[4].revents & POLLIN) && !c->watched_died) {
			c->watched_died = true;
			kill(-c->pid, SIGKILL);
			close_fd(&wfd);
		}
		for (int i = 0; i < 3; i++)
			if (r > 0 && pf[1 + i].fd >= 0 && (pf[1 + i].revents & (POLLIN | POLLHUP)))
				w->readable(i, w->arg);
		if (c->interrupted || (pidfd >= 0 && r > 0 && (pf[0].revents & POLLIN))) {
			while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
				;
			break;
		}
		if (deadline && pcost_now_ns() >= deadline && !c->timed_out) {
			if (c->extended < w->extend && w->busy && w->busy(w->arg, w->stretch)) {
				c->extended++;
				deadline += w->stretch;
				continue;
			}
			c->timed_out = true;
			kill(-c->pid, SIGKILL);
		}
	}
	close_fd(&pidfd);
	close_fd(&wfd);
}

/* ---- a wait status in words ------------------------------------------------------- */

int pcost_killed_by_text(const char *sig_abbrev, char *buf, size_t len)
{
	return snprintf(buf, len, "killed by SIG%s", sig_abbrev);
}

int pcost_wait_status_text(int status, const char *line, char *buf, size_t len)
{
	bool said = line && line[0];

	if (status == -1)
		return snprintf(buf, len, "did not run");
	if (WIFSIGNALED(status))
		return pcost_killed_by_text(sigabbrev_np(WTERMSIG(status)) ?: "?", buf, len);
	return snprintf(buf, len, "exit %d%s%s", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			said ? ": " : "", said ? line : "");
}

bool pcost_wait_status_failed(int status, int expected_sig)
{
	if (status == -1)
		return false;
	if (WIFSIGNALED(status))
		return WTERMSIG(status) != expected_sig;
	return WIFEXITED(status) && WEXITSTATUS(status) != 0;
}

/* ---- helper processes ------------------------------------------------------------- */

/* Start argv: its output into our pipes, or both streams onto outfd (>= 0). */
static int proc_start(struct pcost_proc *p, char *const argv[], unsigned flags, int outfd)
{
	struct pcost_child c;
	int rc;

	memset(p, 0, sizeof(*p));
	p->out = p->err = -1;
	p->status = -1;
	pcost_child_init(&c);
	c.argv = argv;
	c.flags = PCOST_CHILD_SAY_EXEC | (flags & PCOST_PROC_MERGE ? PCOST_CHILD_MERGE : 0);
	c.fd[1] = c.fd[2] = outfd >= 0 ? outfd : PCOST_CHILD_PIPE;
	if ((rc = pcost_child_start(&c)) < 0)
		return rc;
	p->pid = c.pid;
	p->out = c.pipe[1];
	p->err = c.pipe[2];
	p->cap = p->ecap = 4096;
	p->buf = xmalloc(p->cap);
	p->ebuf = xmalloc(p->ecap);
	p->buf[0] = p->ebuf[0] = 0;
	return 0;
}

static int proc_start_flags(struct pcost_proc *p, char *const argv[], unsigned flags)
{
	return proc_start(p, argv, flags, -1);
}

int pcost_proc_start(struct pcost_proc *p, char *const argv[])
{
	return proc_start_flags(p, argv, 0);
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
static int proc_pump(struct pcost_proc *p, int ms)
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
				proc_pump(p, 100);
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
		r = proc_pump(p, (int)((deadline - now) / 1000000 + 1));
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
			proc_pump(p, 10);
		else
			usleep(2000);
	}
	/* The rest of its output (its children may hold the pipes: do not wait on them). */
	kill(-p->pid, SIGKILL);
	for (int i = 0; i < 20 && (p->out >= 0 || p->err >= 0); i++)
		if (proc_pump(p, 100) < 0)
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
	char line[160] = "";

	/* Our SIGKILL (a stop past its grace) is not its own death. */
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return false;
	if (!pcost_wait_status_failed(st, stop_sig))
		return false;
	if (WIFEXITED(st))
		pcost_proc_error_line(p, line, sizeof(line));
	pcost_wait_status_text(st, line, why, len);
	return true;
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
	rc = proc_start_flags(&p, argv, flags);
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
		if (proc_pump(&p, deadline ? (int)((deadline - now) / 1000000 + 1) : 1000) < 0)
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

/* What the keeper is given. */
struct keeper_args {
	pid_t pgid;
	unsigned grace_s;
};

/* The keeper, once started: deaf to the terminal's Ctrl-C; nothing of ours but the pipe (fd 3). */
static int keeper_fn(void *arg)
{
	const struct keeper_args *a = arg;

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	prctl(PR_SET_NAME, "pcost-keeper");
	keeper_main(3, a->pgid, a->grace_s);
}

int pcost_keeper_start(struct pcost_keeper *k, pid_t pgid, unsigned grace_s)
{
	struct keeper_args a = { pgid, grace_s };
	struct pcost_child c;
	int fds[2], rc;

	k->pid = 0;
	k->fd = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pcost_child_init(&c);
	c.fn = keeper_fn;
	c.arg = &a;
	c.pass_fd = fds[0];
	c.flags = PCOST_CHILD_CLOSE_FDS | PCOST_CHILD_OUTLIVE;
	rc = pcost_child_start(&c);
	close(fds[0]);
	if (rc < 0) {
		close(fds[1]);
		return rc;
	}
	k->pid = c.pid;
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
