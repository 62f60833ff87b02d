// SPDX-License-Identifier: MIT
/*
 * evcount_bpf: syscalls by number for a process tree, counted in the kernel
 * by three small BPF programs (written here as instructions: a build needs no
 * BPF compiler).  A hash map holds the tree's task ids: the child's first,
 * then every task a member creates (sched_process_fork runs in the parent)
 * until it exits (sched_process_exit), as tracefs's set_event_pid with
 * options/event-fork does.  sys_enter counts a member's syscall in a per-CPU
 * array indexed by its number.
 *
 * A process the tree creates is "new" from its creation to its first execve
 * or execveat: its calls are counted a second time in a region of their own.
 * strace --seccomp-bpf stops at every call of such a task, filtered or not,
 * until the task's first seccomp stop (its flag for the filter is set there;
 * execve is always in the filter), so the cost model needs them apart
 * (stats/predict.c).  A new thread's calls stop strace too, but cost a
 * fraction of a process's here, which the cost table has no entry for: a
 * thread is settled at its first call, and not counted there.
 *
 * sys_enter is a raw tracepoint program (no record is built for it), the two
 * others tracepoint programs (the child's pid is a field of the record).
 *
 * Why not the others: this kernel (6.18 here) lacks CONFIG_HIST_TRIGGERS, so a
 * tracefs hist trigger is not there; inherited perf counters on each of the 360
 * syscalls:sys_enter_* tracepoints (perf stat -e 'syscalls:sys_enter_*') took
 * 15-22 s where raw_syscalls:sys_enter alone took 0.16-1.25 s, on `probecost
 * workload` spawn loops=2000, pipe loops=20000 and syscall loops=1000000: 15 s
 * to set up and tear down 360 events, and spawn 6.5 s more again (each fork
 * copies every event).  These programs cost every task of the machine one hash
 * lookup per syscall while they are attached, and nothing at forks or switches.
 */
#include "run/evcount_internal.h"

#include <errno.h>
#include <libaudit.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Syscall numbers counted one by one; the slot after them holds the others (and -1). */
#define NR_SLOTS 1024
#define SLOT_OTHER NR_SLOTS
#define SLOT_LOST (NR_SLOTS + 1) /* forks not followed: the task map was full */
/* A new task's calls before its first exec: the same numbering from here, other included. */
#define SLOT_NEW (NR_SLOTS + 2)
#define NSLOTS (SLOT_NEW + NR_SLOTS + 1)
/* The task map's values: the command's first task (and a service's), and a task it created. */
#define TASK_SETTLED 1
#define TASK_NEW 2
#define MAX_TASKS 32768

#define INSN(c, d, s, o, i)                                                                        \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX(sz, d, s, o) INSN(BPF_LDX | (sz) | BPF_MEM, d, s, o, 0)
#define STX(sz, d, s, o) INSN(BPF_STX | (sz) | BPF_MEM, d, s, o, 0)
#define ST(sz, d, o, i) INSN(BPF_ST | (sz) | BPF_MEM, d, 0, o, i)
#define JMP_IMM(op, d, i, o) INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define JA(o) INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define JMP_REG(op, d, s, o) INSN(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define RSH64_IMM(d, i) INSN(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define MOV32_REG(d, s) INSN(BPF_ALU | BPF_MOV | BPF_X, d, s, 0, 0) /* zero-extends */
/* A map's fd into a register: two instructions. */
#define LD_MAP(d, fd)                                                                              \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), INSN(0, 0, 0, 0, 0)
#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R4 BPF_REG_4
#define R6 BPF_REG_6
#define R7 BPF_REG_7
#define R8 BPF_REG_8
#define FP BPF_REG_10

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int map_create(enum bpf_map_type type, unsigned key, unsigned value, unsigned max)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key;
	a.value_size = value;
	a.max_entries = max;
	a.map_flags = 0; /* preallocated: tracing programs update it in any context */
	snprintf(a.map_name, sizeof(a.map_name), "pcost_evc");
	return (int)sys_bpf(BPF_MAP_CREATE, &a);
}

/* The task id (the low half of pid_tgid) at fp-4, looked up in the tree's map: r0. */
#define LOOKUP_CURRENT(pids)                                                                       \
	CALL(BPF_FUNC_get_current_pid_tgid), STX(BPF_W, FP, R0, -4), MOV64_REG(R2, FP),            \
		ADD64_IMM(R2, -4), LD_MAP(R1, pids), CALL(BPF_FUNC_map_lookup_elem)
/* counts[slot at fp-8] += 1, this CPU's copy (no one else writes it). */
#define COUNT_SLOT(counts)                                                                         \
	MOV64_REG(R2, FP), ADD64_IMM(R2, -8), LD_MAP(R1, counts), CALL(BPF_FUNC_map_lookup_elem),  \
		JMP_IMM(BPF_JEQ, R0, 0, 3), LDX(BPF_DW, R1, R0, 0), ADD64_IMM(R1, 1),              \
		STX(BPF_DW, R0, R1, 0)

static int prog_load(enum bpf_prog_type type, const struct bpf_insn *insns, size_t n, char *why,
		     size_t len)
{
	static char log[8192];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t) "Dual MIT/GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	snprintf(a.prog_name, sizeof(a.prog_name), "pcost_evc");
	log[0] = 0;
	fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		int e = errno;
		char *last = strrchr(log, '\n');

		while (last && last > log && last[1] == 0) {
			*last = 0;
			last = strrchr(log, '\n');
		}
		snprintf(why, len, "could not load the BPF counter: %s%s%s", strerror(e),
			 last ? ": " : "", last ? last + 1 : "");
		errno = e;
	}
	return fd;
}

/* Attach a raw tracepoint program to the tracepoint name: its fd. */
static int attach_raw(int prog, const char *name, char *why, size_t len)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)name;
	a.raw_tracepoint.prog_fd = (uint32_t)prog;
	fd = (int)sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (fd < 0) {
		int e = errno;

		snprintf(why, len, "could not attach the BPF counter to %s: %s", name, strerror(e));
		errno = e;
	}
	return fd;
}

/*
 * Attach prog to tracepoint id: a tracepoint runs its programs on every CPU,
 * whatever the CPU and state of the perf event that carries them, so the event
 * stays disabled and never takes a sample.
 */
static int attach(int prog, int id, char *why, size_t len)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (uint64_t)id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) < 0) {
		int e = errno;

		snprintf(why, len, "could not attach the BPF counter to tracepoint %d: %s", id,
			 strerror(e));
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Does this process see the kernel's own task ids (no PID namespace of its own)? */
static bool in_init_pid_ns(void)
{
	char buf[4096], *p;

	if (pcost_read_file("/proc/self/status", buf, sizeof(buf)) <= 0 ||
	    !(p = strstr(buf, "\nNSpid:")))
		return true; /* a kernel without NSpid has no nesting to show */
	p += 7;
	p += strspn(p, " \t");
	p += strcspn(p, " \t\n");
	return *p == '\n' || *p == 0;
}

int pcost_evc_bpf_open(struct pcost_evc_bpf *b, struct tep_handle *tep, char *why, size_t len)
{
	int child_off = pcost_evc_tp_field(tep, "sched", "sched_process_fork", "child_pid");
	int ids[PCOST_EVC_BPF_PROGS] = {
		pcost_evc_tp_id(tep, "raw_syscalls", "sys_enter"),
		pcost_evc_tp_id(tep, "sched", "sched_process_fork"),
		pcost_evc_tp_id(tep, "sched", "sched_process_exit"),
	};

	b->pids_fd = b->counts_fd = -1;
	for (int i = 0; i < PCOST_EVC_BPF_PROGS; i++)
		b->prog_fd[i] = b->link_fd[i] = -1;
	if (!in_init_pid_ns()) {
		snprintf(why, len,
			 "probecost runs in a PID namespace of its own: the BPF counter "
			 "would see other task ids than it follows");
		return -ENOTSUP;
	}
	if (child_off < 0 || ids[1] < 0 || ids[2] < 0) {
		snprintf(why, len,
			 "the tracepoints sched:sched_process_fork/exit are not readable in "
			 "tracefs (run as root)");
		return -ENOENT;
	}
	b->pids_fd = map_create(BPF_MAP_TYPE_HASH, 4, 4, MAX_TASKS);
	b->counts_fd = map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, NSLOTS);
	if (b->pids_fd < 0 || b->counts_fd < 0) {
		int e = errno;

		snprintf(why, len, "could not create the BPF counter's maps: %s%s", strerror(e),
			 e == EPERM ? " (run as root, or give CAP_BPF and CAP_PERFMON)" : "");
		pcost_evc_bpf_close(b);
		return -e;
	}
	{
		const int pids = b->pids_fd, counts = b->counts_fd;
		/*
		 * The raw tracepoint sys_enter (args: regs, id): a member's syscall, counted
		 * by number, and a new process's a second time, in its region, until
		 * its first exec (which is not counted there, and which settles it).  Raw,
		 * so that every other task's syscall costs one lookup, not the
		 * tracepoint's record as well.
		 */
		const struct bpf_insn enter[] = {
			MOV64_REG(R6, R1),
			LOOKUP_CURRENT(pids),
			JMP_IMM(BPF_JEQ, R0, 0, 37),	   /* to the end */
			MOV64_REG(R7, R0),		   /* the task's value */
			LDX(BPF_DW, R8, R6, 8),		   /* args[1]: the syscall's number */
			JMP_IMM(BPF_JLT, R8, NR_SLOTS, 1), /* unsigned: -1 lands in the last slot */
			MOV64_IMM(R8, SLOT_OTHER),
			STX(BPF_W, FP, R8, -8),
			COUNT_SLOT(counts),
			LDX(BPF_W, R1, R7, 0),
			JMP_IMM(BPF_JNE, R1, TASK_NEW, 21), /* to the end */
			CALL(BPF_FUNC_get_current_pid_tgid),
			MOV64_REG(R1, R0),
			RSH64_IMM(R1, 32),	      /* the process id */
			MOV32_REG(R0, R0),	      /* the task's own */
			JMP_REG(BPF_JNE, R0, R1, 15), /* a thread: to the settling */
			LDX(BPF_DW, R1, R6, 8),
			JMP_IMM(BPF_JEQ, R1, SYS_execve, 13), /* to the settling */
			JMP_IMM(BPF_JEQ, R1, SYS_execveat, 12),
			ADD64_IMM(R8, SLOT_NEW),
			STX(BPF_W, FP, R8, -8),
			COUNT_SLOT(counts),
			JA(1),
			ST(BPF_W, R7, 0, TASK_SETTLED),
			MOV64_IMM(R0, 1), /* 1: the perf events on this tracepoint still count */
			EXIT(),
		};
		/* sched:sched_process_fork, in the parent: a member's new task joins the tree. */
		const struct bpf_insn fork[] = {
			MOV64_REG(R6, R1),
			LOOKUP_CURRENT(pids),
			JMP_IMM(BPF_JEQ, R0, 0, 22), /* to the end */
			LDX(BPF_W, R1, R6, (short)child_off),
			STX(BPF_W, FP, R1, -8),
			ST(BPF_W, FP, -12, TASK_NEW),
			LD_MAP(R1, pids),
			MOV64_REG(R2, FP),
			ADD64_IMM(R2, -8),
			MOV64_REG(R3, FP),
			ADD64_IMM(R3, -12),
			MOV64_IMM(R4, BPF_ANY),
			CALL(BPF_FUNC_map_update_elem),
			JMP_IMM(BPF_JEQ, R0, 0, 10), /* added: to the end */
			ST(BPF_W, FP, -8, SLOT_LOST),
			COUNT_SLOT(counts),
			MOV64_IMM(R0, 1), /* 1: the perf events on this tracepoint still count */
			EXIT(),
		};
		/* sched:sched_process_exit: the task leaves the tree (its id may be reused). */
		const struct bpf_insn exit_[] = {
			CALL(BPF_FUNC_get_current_pid_tgid),
			STX(BPF_W, FP, R0, -4),
			MOV64_REG(R2, FP),
			ADD64_IMM(R2, -4),
			LD_MAP(R1, pids),
			CALL(BPF_FUNC_map_delete_elem),
			MOV64_IMM(R0, 1), /* 1: the perf events on this tracepoint still count */
			EXIT(),
		};
		const struct {
			enum bpf_prog_type type;
			const struct bpf_insn *insns;
			size_t n;
		} progs[PCOST_EVC_BPF_PROGS] = {
			{ BPF_PROG_TYPE_RAW_TRACEPOINT, enter, ARRAY_SIZE(enter) },
			{ BPF_PROG_TYPE_TRACEPOINT, fork, ARRAY_SIZE(fork) },
			{ BPF_PROG_TYPE_TRACEPOINT, exit_, ARRAY_SIZE(exit_) },
		};

		/* Exit and fork first: the tree is tracked before anything is counted. */
		for (int i = PCOST_EVC_BPF_PROGS - 1; i >= 0; i--) {
			int e;

			b->prog_fd[i] =
				prog_load(progs[i].type, progs[i].insns, progs[i].n, why, len);
			if (b->prog_fd[i] >= 0)
				b->link_fd[i] =
					i ? attach(b->prog_fd[i], ids[i], why, len)
					  : attach_raw(b->prog_fd[i], "sys_enter", why, len);
			if (b->prog_fd[i] < 0 || b->link_fd[i] < 0) {
				e = errno;
				pcost_evc_bpf_close(b);
				return -e;
			}
		}
	}
	return 0;
}

int pcost_evc_bpf_follow(struct pcost_evc_bpf *b, pid_t pid)
{
	union bpf_attr a;
	uint32_t key = (uint32_t)pid, one = TASK_SETTLED;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)b->pids_fd;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)&one;
	a.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0 ? -errno : 0;
}

/* Possible CPUs (a per-CPU map's value has one slot each): the last number of the list, + 1. */
static int possible_cpus(void)
{
	char buf[256];
	ssize_t n = pcost_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf));
	char *p;

	if (n <= 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	p = buf + n;
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoi(p) + 1;
}

static int by_count(const void *a, const void *b)
{
	const struct pcost_evc_syscall *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* counts[slot] summed over the CPUs (vals: one per CPU) into *sum; 0 or -EIO and why. */
static int read_slot(const struct pcost_evc_bpf *b, uint32_t slot, uint64_t *vals, int ncpu,
		     uint64_t *sum, struct pcost_evcount *c)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)b->counts_fd;
	a.key = (uint64_t)(uintptr_t)&slot;
	a.value = (uint64_t)(uintptr_t)vals;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0) {
		snprintf(c->by_nr_why, sizeof(c->by_nr_why), "could not read the BPF counter: %s",
			 strerror(errno));
		return -EIO;
	}
	*sum = 0;
	for (int i = 0; i < ncpu; i++)
		*sum += vals[i];
	return 0;
}

int pcost_evc_bpf_read(struct pcost_evc_bpf *b, struct pcost_evcount *c)
{
	int ncpu = possible_cpus(), machine = audit_detect_machine();
	uint64_t *vals;

	if (ncpu <= 0) {
		snprintf(c->by_nr_why, sizeof(c->by_nr_why),
			 "could not read /sys/devices/system/cpu/possible");
		return -EIO;
	}
	vals = xcalloc((size_t)ncpu, sizeof(*vals));
	c->by_nr = xcalloc(NR_SLOTS + 1, sizeof(*c->by_nr));
	c->nby_nr = 0;
	c->by_nr_new_tasks = 0;
	for (uint32_t slot = 0; slot <= SLOT_LOST; slot++) {
		uint64_t sum, fresh = 0;

		if (read_slot(b, slot, vals, ncpu, &sum, c) < 0 ||
		    (slot != SLOT_LOST && sum &&
		     read_slot(b, SLOT_NEW + slot, vals, ncpu, &fresh, c) < 0)) {
			free(vals);
			return -EIO;
		}
		if (slot == SLOT_LOST) {
			c->by_nr_lost_tasks = sum;
		} else if (sum) {
			struct pcost_evc_syscall *s = &c->by_nr[c->nby_nr++];
			const char *name = slot == SLOT_OTHER || machine < 0
						   ? NULL
						   : audit_syscall_to_name((int)slot, machine);

			s->nr = slot == SLOT_OTHER ? -1 : (long)slot;
			s->count = sum;
			s->new_task = fresh;
			c->by_nr_new_tasks += fresh;
			snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
		}
	}
	free(vals);
	qsort(c->by_nr, c->nby_nr, sizeof(*c->by_nr), by_count);
	c->by_nr_counted = true;
	return 0;
}

void pcost_evc_bpf_close(struct pcost_evc_bpf *b)
{
	/* Links first: a detached program stops counting before its maps go. */
	pcost_evc_close_fds(b->link_fd, PCOST_EVC_BPF_PROGS);
	pcost_evc_close_fds(b->prog_fd, PCOST_EVC_BPF_PROGS);
	pcost_evc_close_fds(&b->pids_fd, 1);
	pcost_evc_close_fds(&b->counts_fd, 1);
}
