// SPDX-License-Identifier: MIT
/* workloads/process: a workload's own process (name, signals, fault line) and its partners'. */
#include "workloads/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/util.h"

void pcost_wl_name_self(const char *name)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "pc-%s", name);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
}

/*
 * SIGKILL every pid listed in a /proc/self/task/TID/children file.  Only
 * async-signal-safe calls: a pid split across two reads is carried over.
 */
static void kill_listed(const char *path)
{
	char buf[512];
	pid_t pid = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
			} else if (pid > 0) {
				kill(pid, SIGKILL);
				pid = 0;
			}
		}
	}
	if (pid > 0)
		kill(pid, SIGKILL);
	close(fd);
}

/* The children of every thread of this process (raw getdents64: opendir may malloc). */
static void kill_own_children(void)
{
	static const char task[] = "/proc/self/task/";
	char ents[1024], path[sizeof(task) + 32];
	long n;
	int dir = open(task, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		return;
	while ((n = syscall(SYS_getdents64, dir, ents, sizeof(ents))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(ents + off);
			size_t len = strlen(d->d_name);

			off += d->d_reclen;
			if (d->d_name[0] == '.' || len > 20)
				continue;
			memcpy(path, task, sizeof(task) - 1);
			memcpy(path + sizeof(task) - 1, d->d_name, len);
			memcpy(path + sizeof(task) - 1 + len, "/children", sizeof("/children"));
			kill_listed(path);
		}
	}
	close(dir);
}

/* Children first, then this process dies of the signal itself (it is re-raised on return). */
static void end_on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	kill_own_children();
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

void pcost_wl_end_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = end_on_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* ---- fatal signals, reported (pcost_wl_report_faults) ---------------------- */

/* Set up before the handler can run; the handler only reads it. */
static struct {
	int fd;		  /* the report descriptor */
	uintptr_t bias;	  /* the executable's load bias: ELF address = ip - bias */
	uintptr_t lo, hi; /* where the executable is mapped */
} fault_to = { .fd = -1 };

/* The first object dl_iterate_phdr gives is the executable itself. */
static int exe_range(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	fault_to.bias = info->dlpi_addr;
	fault_to.lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		fault_to.lo = a < fault_to.lo ? a : fault_to.lo;
		fault_to.hi = a + ph->p_memsz > fault_to.hi ? a + ph->p_memsz : fault_to.hi;
	}
	return 1;
}

/* Async-signal-safe formatting into [p, end): a string, a decimal, a 0x hex number. */
static char *put_str(char *p, const char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

static char *put_num(char *p, const char *end, uint64_t v, unsigned base)
{
	char tmp[24];
	int n = 0;

	if (base == 16)
		p = put_str(p, end, "0x");
	do
		tmp[n++] = "0123456789abcdef"[v % base];
	while ((v /= base) && n < (int)sizeof(tmp));
	while (n > 0 && p < end)
		*p++ = tmp[--n];
	return p;
}

static const char *fault_name(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SEGV";
	case SIGBUS:
		return "BUS";
	case SIGILL:
		return "ILL";
	case SIGFPE:
		return "FPE";
	case SIGTRAP:
		return "TRAP";
	default:
		return "ABRT";
	}
}

/* The interrupted instruction's address, 0 where this architecture is not known here. */
static uintptr_t context_ip(const void *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

/*
 * The program may have written through a wild pointer before it faulted (the
 * fft kernel whose red zone an armed probe overwrote has been seen to trash
 * its thread control block): nothing here touches thread-local storage, not
 * errno, not the stack protector's canary, not libc's cancellable write()
 * (which reads the thread's descriptor): raw system calls only.
 */
__attribute__((no_stack_protector)) static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	static const struct sigaction dfl = { .sa_handler = SIG_DFL };
	char line[256], *p = line;
	const char *end = line + sizeof(line) - 1;
	uintptr_t ip = context_ip(uc);
	long pid = syscall(SYS_getpid);

	p = put_str(p, end, "signal=");
	p = put_str(p, end, fault_name(sig));
	p = put_str(p, end, " code=");
	if (si->si_code < 0)
		p = put_str(p, end, "-");
	p = put_num(p, end, (uint64_t)(si->si_code < 0 ? -si->si_code : si->si_code), 10);
	p = put_str(p, end, " pid=");
	p = put_num(p, end, (uint64_t)pid, 10);
	if (si->si_code > 0 && sig != SIGABRT) { /* raised by the CPU: it faulted at si_addr */
		p = put_str(p, end, " addr=");
		p = put_num(p, end, (uintptr_t)si->si_addr, 16);
	} else { /* sent: kill(), tgkill(), abort() */
		p = put_str(p, end, " from_pid=");
		p = put_num(p, end, (uint64_t)si->si_pid, 10);
	}
	if (ip) {
		p = put_str(p, end, " ip=");
		p = put_num(p, end, ip, 16);
	}
	if (ip >= fault_to.lo && ip < fault_to.hi) {
		p = put_str(p, end, " ip_vaddr=");
		p = put_num(p, end, ip - fault_to.bias, 16);
	}
	*p++ = '\n';
	syscall(SYS_write, fault_to.fd, line, (size_t)(p - line));
	/* Die of it: pending until the handler returns, then the default action. */
	sigaction(sig, &dfl, NULL);
	syscall(SYS_kill, pid, sig);
}

void pcost_wl_report_faults(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT };
	/* A stack overflow leaves no stack to run the handler on: give the main thread one. */
	static char altstack[64 * 1024];
	const char *env = getenv("PROBECOST_REPORT_FD");
	struct sigaction sa = { .sa_sigaction = fault_handler,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	uint64_t fd;

	if (!env || pcost_parse_u64(env, 0, 1 << 20, &fd) < 0 || fcntl((int)fd, F_GETFD) < 0)
		return;
	fault_to.fd = (int)fd;
	/*
	 * Bind syscall() now: its first call through the PLT runs the dynamic
	 * linker's lazy resolver, which reads the thread control block; called first
	 * from the handler of a program that trashed it, the handler itself faulted
	 * in ld.so and the run died with no fault line (t535, 2 of 12 fft runs).
	 */
	(void)syscall(SYS_getpid);
	dl_iterate_phdr(exe_range, NULL);
	sigaltstack(&ss, NULL);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

int pcost_read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_wl_reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error("could not wait for %s: %s", what, strerror(errno)), -ECHILD;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		error("%s failed (%s %d)", what, WIFEXITED(status) ? "exit" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -ECHILD;
	}
	return 0;
}
