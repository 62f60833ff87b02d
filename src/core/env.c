// SPDX-License-Identifier: MIT
/* env: the machine fingerprint (kernel, CPU, TSC, PMU, perf sysctls, mitigations, tool versions). */
#include "core/env.h"
#include "core/proc.h"
#include "core/tracefs.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "core/util.h"
#include <papi.h>

struct ctx {
	struct pcost_env *e;
	const char *root;
};

static struct pcost_env_field *field(struct pcost_env *e, const char *key)
{
	struct pcost_env_field *f;

	if (e->nfields >= PCOST_ENV_MAX_FIELDS)
		return NULL;
	f = &e->fields[e->nfields++];
	memset(f, 0, sizeof(*f));
	f->key = key;
	return f;
}

static void set_known(struct pcost_env *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_known(struct pcost_env *e, const char *key, const char *fmt, ...)
{
	struct pcost_env_field *f = field(e, key);
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
	f->known = true;
}

static void set_unknown(struct pcost_env *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_unknown(struct pcost_env *e, const char *key, const char *fmt, ...)
{
	struct pcost_env_field *f = field(e, key);
	va_list ap;

	if (!f)
		return;
	snprintf(f->value, sizeof(f->value), "unknown");
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

static void warn(struct pcost_env *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct pcost_env *e, const char *fmt, ...)
{
	va_list ap;

	if (e->nwarnings >= PCOST_ENV_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(e->warnings[e->nwarnings++], sizeof(e->warnings[0]), fmt, ap);
	va_end(ap);
}

/* Read root/rel; <0 -errno. */
static ssize_t rd(const struct ctx *c, const char *rel, char *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", c->root, rel);
	return pcost_read_file(path, buf, len);
}

static bool exists(const struct ctx *c, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", c->root, rel);
	return access(path, F_OK) == 0;
}

/* A file's content as a field, or unknown with the reason. */
static bool file_field(const struct ctx *c, const char *key, const char *rel, char *out,
		       size_t outlen)
{
	char buf[512];
	ssize_t n = rd(c, rel, buf, sizeof(buf));

	if (n < 0) {
		set_unknown(c->e, key, "cannot read /%s: %s", rel, strerror((int)-n));
		return false;
	}
	set_known(c->e, key, "%s", buf);
	if (out && outlen) {
		/* Truncation is fine here: the full value is in the field. */
		size_t len = strnlen(buf, outlen - 1);

		memcpy(out, buf, len);
		out[len] = 0;
	}
	return true;
}

/* Value of "key: value" in /proc/cpuinfo's first processor block. */
static bool cpuinfo_get(const char *cpuinfo, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = cpuinfo; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n == 0)
			break; /* end of the first block */
		if (!strncmp(p, key, klen) &&
		    (p[klen] == '\t' || p[klen] == ' ' || p[klen] == ':')) {
			const char *colon = memchr(p, ':', n);

			if (colon) {
				const char *v = colon + 1;

				while (*v == ' ')
					v++;
				snprintf(out, len, "%.*s", (int)(n - (size_t)(v - p)), v);
				return true;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* "name=value" of a kernel command line parameter, "" when absent. */
static void cmdline_param(const char *cmdline, const char *name, char *out, size_t len)
{
	size_t n = strlen(name);

	out[0] = '\0';
	for (const char *p = cmdline; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, "-- ", 3) || !strcmp(p, "--"))
			return; /* the rest belongs to init */
		if (!strncmp(p, name, n) && (p[n] == '=' || p[n] == ' ' || !p[n])) {
			snprintf(out, len, "%.*s", (int)strcspn(p, " "), p);
			return;
		}
		p = strchr(p, ' ');
	}
}

static void kernel_fields(const struct ctx *c)
{
	struct pcost_env *e = c->e;
	char cmdline[4096], v[256];

	file_field(c, "kernel.release", "proc/sys/kernel/osrelease", e->kernel_release,
		   sizeof(e->kernel_release));
	file_field(c, "kernel.version", "proc/sys/kernel/version", NULL, 0);
	if (rd(c, "proc/cmdline", cmdline, sizeof(cmdline)) < 0) {
		set_unknown(e, "kernel.cmdline", "cannot read /proc/cmdline");
		return;
	}
	set_known(e, "kernel.cmdline", "%s", cmdline);
	static const char *const params[] = { "nohz_full", "isolcpus", "mitigations", "nosmt",
					      "intel_pstate" };
	static const char *const keys[] = { "kernel.nohz_full", "kernel.isolcpus",
					    "kernel.mitigations", "kernel.nosmt",
					    "kernel.intel_pstate" };
	for (size_t i = 0; i < ARRAY_SIZE(params); i++) {
		cmdline_param(cmdline, params[i], v, sizeof(v));
		set_known(e, keys[i], "%s", *v ? v : "not set");
	}
}

static int count_cpus(const char *list)
{
	int n = 0;

	for (const char *p = list; p && *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return 0;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : NULL;
	}
	return n;
}

/* A signature no table names, as "cpuid 'SIG'" (trailing spaces and NULs dropped), or "". */
static void printable_signature(const char *sig, char *out, size_t len)
{
	size_t n = strnlen(sig, 12);

	while (n && sig[n - 1] == ' ')
		n--;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (sig[i] < 0x20 || sig[i] > 0x7e)
			return;
	if (n)
		snprintf(out, len, "cpuid '%.*s'", (int)n, sig);
}

void pcost_hypervisor_name(const char sig[12], char *out, size_t len)
{
	static const struct {
		const char *sig, *name;
	} known[] = {
		{ "KVMKVMKVM\0\0\0", "KVM" },	{ "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },	{ "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "bhyve bhyve ", "bhyve" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!memcmp(sig, known[i].sig, 12)) {
			snprintf(out, len, "%s", known[i].name);
			return;
		}
	printable_signature(sig, out, len);
}

#if defined(__x86_64__) || defined(__i386__)
static void cpuid_hypervisor(char *out, size_t len)
{
	unsigned a, b, c, d;
	char sig[12];

	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	pcost_hypervisor_name(sig, out, len);
}
#endif

static void cpu_fields(const struct ctx *c, bool live)
{
	struct pcost_env *e = c->e;
	static char cpuinfo[65536];
	char v[512], flags[8192] = "", online[128];
	bool smt_read, smt_on;

	if (rd(c, "proc/cpuinfo", cpuinfo, sizeof(cpuinfo)) < 0) {
		set_unknown(e, "cpu.model", "cannot read /proc/cpuinfo");
		cpuinfo[0] = '\0';
	} else if (cpuinfo_get(cpuinfo, "model name", v, sizeof(v))) {
		set_known(e, "cpu.model", "%s", v);
	} else {
		set_unknown(e, "cpu.model", "no 'model name' in /proc/cpuinfo");
	}
	if (cpuinfo_get(cpuinfo, "vendor_id", v, sizeof(v)))
		set_known(e, "cpu.vendor", "%s", v);
	cpuinfo_get(cpuinfo, "flags", flags, sizeof(flags));

	if (rd(c, "sys/devices/system/cpu/online", online, sizeof(online)) >= 0) {
		e->ncpus = count_cpus(online);
		set_known(e, "cpu.online", "%d (%s)", e->ncpus, online);
	} else {
		set_unknown(e, "cpu.online", "cannot read /sys/devices/system/cpu/online");
	}
	/* From the file, not pcost_env_get(): a full field table has no cpu.smt row. */
	smt_read = rd(c, "sys/devices/system/cpu/smt/active", v, sizeof(v)) >= 0;
	smt_on = smt_read && !strcmp(v, "1");
	if (smt_read)
		set_known(e, "cpu.smt", "%s", smt_on ? "on" : "off");
	else
		set_unknown(e, "cpu.smt", "cannot read /sys/devices/system/cpu/smt/active");
	if (smt_on)
		warn(e, "SMT is on: sibling hyperthreads share a core; pin to one thread per core "
			"(--cpu) for stable numbers");

	/* TSC: invariant when it ticks at a constant rate through P- and C-states. */
	e->tsc_invariant = has_flag(flags, "constant_tsc") && has_flag(flags, "nonstop_tsc");
	if (*flags) {
		static const char *const tf[] = { "tsc",	 "rdtscp",	   "constant_tsc",
						  "nonstop_tsc", "tsc_known_freq", "tsc_reliable" };
		size_t off = 0;

		v[0] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(tf); i++)
			if (has_flag(flags, tf[i]))
				off += snprintf(v + off, sizeof(v) - off, "%s%s", off ? " " : "",
						tf[i]);
		set_known(e, "tsc.flags", "%s", off ? v : "none");
		set_known(e, "tsc.invariant", "%s", e->tsc_invariant ? "yes" : "no");
		if (has_flag(flags, "tsc") && !e->tsc_invariant)
			warn(e, "TSC is not invariant (no constant_tsc/nonstop_tsc): cycle figures "
				"from the TSC are approximate");
	} else {
		set_unknown(e, "tsc.flags", "no 'flags' line in /proc/cpuinfo (not x86?)");
	}
	file_field(c, "clocksource",
		   "sys/devices/system/clocksource/clocksource0/current_clocksource", NULL, 0);

	/* Hypervisor: the cpuid flag, named by cpuid leaf 0x40000000 on this machine. */
	e->hypervisor = has_flag(flags, "hypervisor");
	e->hypervisor_name[0] = '\0';
	if (e->hypervisor) {
#if defined(__x86_64__) || defined(__i386__)
		if (live)
			cpuid_hypervisor(e->hypervisor_name, sizeof(e->hypervisor_name));
#endif
		if (!e->hypervisor_name[0] && rd(c, "sys/hypervisor/type", v, sizeof(v)) >= 0)
			snprintf(e->hypervisor_name, sizeof(e->hypervisor_name), "%s", v);
		set_known(e, "hypervisor", "%s guest",
			  e->hypervisor_name[0] ? e->hypervisor_name : "unnamed");
		warn(e, "%s guest: absolute numbers are not bare-metal numbers",
		     e->hypervisor_name[0] ? e->hypervisor_name : "virtual machine");
	} else if (*flags) {
		set_known(e, "hypervisor", "none (bare metal)");
	} else {
		set_unknown(e, "hypervisor", "no cpuid flags to tell");
	}

	if (rd(c, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", v, sizeof(v)) >= 0) {
		set_known(e, "cpufreq.governor", "%s", v);
		if (strcmp(v, "performance"))
			warn(e,
			     "cpufreq governor is %s: frequency changes under load skew timings; "
			     "use 'performance'",
			     v);
	} else {
		set_unknown(e, "cpufreq.governor", "no cpufreq driver; usual in VMs");
	}
}

static void pmu_fields(const struct ctx *c)
{
	struct pcost_env *e = c->e;
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3",
					    "armv8_pmuv3_0" };
	char rel[256], v[64];
	const char *found = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(pmus) && !found; i++) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s", pmus[i]);
		if (exists(c, rel))
			found = pmus[i];
	}
	e->pmu = found != NULL;
	if (found)
		set_known(e, "pmu", "present (%s)", found);
	else if (exists(c, "sys/bus/event_source/devices"))
		set_known(e, "pmu", "none (no cpu PMU in /sys/bus/event_source/devices)");
	else
		set_unknown(e, "pmu", "cannot read /sys/bus/event_source/devices");
	e->rdpmc = -1;
	if (found) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/rdpmc", found);
		if (rd(c, rel, v, sizeof(v)) >= 0) {
			e->rdpmc = atoi(v);
			set_known(e, "pmu.rdpmc", "%s", v);
		} else {
			set_unknown(e, "pmu.rdpmc", "no rdpmc attribute for %s", found);
		}
	} else {
		set_known(e, "pmu.rdpmc", "unavailable (no PMU)");
		warn(e, "no hardware PMU: hardware events and rdpmc unavailable; software events "
			"will be used");
	}
	set_known(e, "uprobes", "%s",
		  exists(c, "sys/bus/event_source/devices/uprobe") ? "yes" : "no");
	/* This machine: the mount table (a user cannot look inside /sys/kernel/tracing);
	 * a --root tree: its files. */
	set_known(e, "tracefs", "%s",
		  (c->root[0] ? exists(c, "sys/kernel/tracing/uprobe_events")
			      : pcost_tracefs_mounted())
			  ? "/sys/kernel/tracing"
			  : "not mounted");
	e->paranoid = -100;
	if (rd(c, "proc/sys/kernel/perf_event_paranoid", v, sizeof(v)) >= 0) {
		e->paranoid = atoi(v);
		set_known(e, "perf_event_paranoid", "%s", v);
		if (e->paranoid > 1 && geteuid() != 0)
			warn(e,
			     "kernel.perf_event_paranoid=%d and not root: per-process counting "
			     "may be refused; run as root or set it <= 1",
			     e->paranoid);
	} else {
		set_unknown(e, "perf_event_paranoid",
			    "cannot read /proc/sys/kernel/perf_event_paranoid");
	}
	file_field(c, "kptr_restrict", "proc/sys/kernel/kptr_restrict", NULL, 0);
}

static void vuln_fields(const struct ctx *c)
{
	char path[4096], out[4096] = "", v[256];
	struct dirent **names;
	size_t off = 0;
	int n;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/vulnerabilities", c->root);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		set_unknown(c->e, "cpu.vulnerabilities", "cannot list %s: %s", path,
			    strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		char rel[512];

		if (names[i]->d_name[0] != '.') {
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/vulnerabilities/%s",
				 names[i]->d_name);
			if (rd(c, rel, v, sizeof(v)) >= 0 && off < sizeof(out))
				off += snprintf(out + off, sizeof(out) - off, "%s%s: %s",
						off ? "; " : "", names[i]->d_name, v);
		}
		free(names[i]);
	}
	free(names);
	set_known(c->e, "cpu.vulnerabilities", "%s", off ? out : "none listed");
}

static void mem_fields(const struct ctx *c)
{
	static char meminfo[8192];
	unsigned long kb;

	if (rd(c, "proc/meminfo", meminfo, sizeof(meminfo)) >= 0 &&
	    sscanf(meminfo, "MemTotal: %lu kB", &kb) == 1)
		set_known(c->e, "memory", "%.1f GiB", (double)kb / (1024.0 * 1024.0));
	else
		set_unknown(c->e, "memory", "cannot read MemTotal from /proc/meminfo");
}

/* First line of `argv --version`-like output, with a 5 s limit. */
static int tool_version(char *const argv[], char *out, size_t len)
{
	char buf[512];
	int status = pcost_proc_run(argv, PCOST_PROC_MERGE, 5000000000ULL, NULL, buf, sizeof(buf));

	if (status == -ENOENT)
		return -ENOENT;
	/* The first non-empty line that is not bpftrace's memlock complaint. */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!*line || strstr(line, "RLIMIT_MEMLOCK") || strstr(line, "setrlimit"))
			continue;
		snprintf(out, len, "%s", line);
		return status == 127 ? -ENOENT : 0;
	}
	return -ENOENT;
}

static void tool_fields(struct pcost_env *e)
{
	static const struct {
		const char *key, *exe, *arg, *pkg;
	} tools[] = {
		{ "tool.perf", "perf", "--version", "linux-perf" },
		{ "tool.strace", "strace", "-V", "strace" },
		{ "tool.ltrace", "ltrace", "-V", "ltrace" },
		{ "tool.bpftrace", "bpftrace", "--version", "bpftrace" },
		{ "tool.valgrind", "valgrind", "--version", "valgrind" },
		{ "tool.uftrace", "uftrace", "--version", "uftrace" },
		{ "tool.trace-cmd", "trace-cmd", "--version", "trace-cmd" },
		{ "tool.stap", "stap", "-V", "systemtap" },
	};
	char v[256];

	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		char *argv[] = { (char *)tools[i].exe, (char *)tools[i].arg, NULL };

		if (!pcost_which(tools[i].exe, NULL, 0))
			set_unknown(e, tools[i].key, "not installed (Debian package %s)",
				    tools[i].pkg);
		else if (tool_version(argv, v, sizeof(v)) == 0)
			set_known(e, tools[i].key, "%s", v);
		else
			set_unknown(e, tools[i].key, "'%s %s' printed no version", tools[i].exe,
				    tools[i].arg);
	}
#ifdef PAPI_VERSION
	set_known(e, "tool.papi", "libpapi %d.%d.%d (built against)",
		  PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
		  PAPI_VERSION_REVISION(PAPI_VERSION));
#endif
}

#if defined(__x86_64__) || defined(__i386__)
static double ts_ns(const struct timespec *t)
{
	return (double)t->tv_sec * 1e9 + (double)t->tv_nsec;
}

/*
 * A TSC reading and the CLOCK_MONOTONIC_RAW time it was taken at: the clock read on
 * both sides of it, retried (up to 100 times) while the two reads are over 2 us apart,
 * so that a preemption between the clock and the counter does not move the pair.
 */
static void tsc_at(uint64_t *tsc, double *ns)
{
	struct timespec a, b;

	for (int i = 0; i < 100; i++) {
		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		*tsc = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		*ns = (ts_ns(&a) + ts_ns(&b)) / 2;
		if (ts_ns(&b) - ts_ns(&a) < 2000)
			return;
	}
}

/*
 * rdtsc against CLOCK_MONOTONIC_RAW over three windows of ~20 ms, each end a bracketed
 * pair (tsc_at); the median window.  Two runs on a loaded machine agree within 0.01%
 * here, well inside the 0.1% under which compare calls two readings the same machine.
 */
static double calibrate_tsc(void)
{
	double hz[3];

	for (int k = 0; k < 3; k++) {
		uint64_t t0, t1;
		double n0, n1;

		tsc_at(&t0, &n0);
		do
			tsc_at(&t1, &n1);
		while (n1 - n0 < 20e6);
		hz[k] = (double)(t1 - t0) / (n1 - n0) * 1e9;
	}
	/* The median of the three. */
	return fmax(fmin(hz[0], hz[1]), fmin(fmax(hz[0], hz[1]), hz[2]));
}
#endif

void pcost_env_collect(struct pcost_env *e, const char *root, int tools, int calibrate)
{
	struct ctx c = { .e = e, .root = (root && strcmp(root, "/")) ? root : "" };
	bool live = !*c.root;

	memset(e, 0, sizeof(*e));
	kernel_fields(&c);
	cpu_fields(&c, live);
	pmu_fields(&c);
	vuln_fields(&c);
	mem_fields(&c);
	if (calibrate && live) {
#if defined(__x86_64__) || defined(__i386__)
		e->tsc_hz = calibrate_tsc();
		set_known(e, "tsc.hz", "%.0f (calibrated against CLOCK_MONOTONIC_RAW)", e->tsc_hz);
#else
		set_unknown(e, "tsc.hz", "no TSC on this architecture");
#endif
	}
	if (tools && live)
		tool_fields(e);
}

const struct pcost_env_field *pcost_env_get(const struct pcost_env *e, const char *key)
{
	for (size_t i = 0; i < e->nfields; i++)
		if (!strcmp(e->fields[i].key, key))
			return &e->fields[i];
	return NULL;
}

struct cJSON *pcost_env_to_json(const struct pcost_env *e)
{
	cJSON *j = cJSON_CreateObject(), *fields = cJSON_AddObjectToObject(j, "fields");
	cJSON *unknown = cJSON_AddObjectToObject(j, "unknown");
	cJSON *warnings = cJSON_AddArrayToObject(j, "warnings");

	for (size_t i = 0; i < e->nfields; i++) {
		const struct pcost_env_field *f = &e->fields[i];

		cJSON_AddStringToObject(fields, f->key, f->value);
		if (!f->known)
			cJSON_AddStringToObject(unknown, f->key, f->why);
	}
	for (size_t i = 0; i < e->nwarnings; i++)
		cJSON_AddItemToArray(warnings, cJSON_CreateString(e->warnings[i]));
	cJSON_AddNumberToObject(j, "tsc_hz", e->tsc_hz);
	return j;
}

char *pcost_env_to_json_text(const struct pcost_env *e)
{
	cJSON *j = pcost_env_to_json(e);
	char *s = cJSON_PrintUnformatted(j);

	cJSON_Delete(j);
	return s;
}

void pcost_env_print(const struct pcost_env *e, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_JSON) {
		cJSON *j = pcost_env_to_json(e);
		char *s = cJSON_Print(j);

		fprintf(out, "%s\n", s);
		free(s);
		cJSON_Delete(j);
		return;
	}
	for (size_t i = 0; i < e->nfields; i++) {
		const struct pcost_env_field *fl = &e->fields[i];

		if (fl->known)
			fprintf(out, "%-22s %s\n", fl->key, fl->value);
		else
			fprintf(out, "%-22s unknown (%s)\n", fl->key, fl->why);
	}
	if (e->nwarnings)
		fprintf(out, "\n");
	for (size_t i = 0; i < e->nwarnings; i++)
		fprintf(out, "warning: %s\n", e->warnings[i]);
}

void pcost_env_headline(const struct pcost_env *e, char *buf, size_t len)
{
	size_t off = snprintf(buf, len, "Linux %s, %d CPU%s",
			      *e->kernel_release ? e->kernel_release : "?", e->ncpus,
			      e->ncpus == 1 ? "" : "s");

	if (off < len && e->hypervisor)
		off += snprintf(buf + off, len - off, ", %s guest",
				*e->hypervisor_name ? e->hypervisor_name : "VM");
	if (off < len)
		off += snprintf(buf + off, len - off, ", %s", e->pmu ? "PMU" : "no PMU");
	if (off < len && e->tsc_hz > 0)
		snprintf(buf + off, len - off, ", TSC %.2f GHz", e->tsc_hz / 1e9);
}

const struct pcost_env *pcost_env_self(void)
{
	static struct pcost_env env;
	static bool done;

	if (!done) {
		pcost_env_collect(&env, "/", 1, 1);
		done = true;
	}
	return &env;
}

double pcost_tsc_hz(void)
{
	static double hz = -1;

	if (hz < 0) {
#if defined(__x86_64__) || defined(__i386__)
		hz = calibrate_tsc();
#else
		hz = 0;
#endif
	}
	return hz;
}
