// SPDX-License-Identifier: MIT
/* probes/methods: the table of probe arming methods, instances, and `list` rows. */
#include "probes/arm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tracefs.h"
#include "probes/sdt.h"

/* ---- dormant: the baseline, nothing attached ---- */
static const struct pcost_monitor_ops dormant_ops = { .kind = PCOST_MON_BASELINE };

const struct pcost_probe_method pcost_probe_dormant = {
	.name = "dormant",
	.summary = "nothing attached: what the probe site costs when nobody listens",
	.ops = &dormant_ops,
};

const struct pcost_probe_method *const pcost_probe_methods[] = {
	&pcost_probe_dormant,	 &pcost_probe_uprobe,	&pcost_probe_ftrace,
	&pcost_probe_perf_probe, &pcost_probe_bpftrace, &pcost_probe_stap,
	&pcost_probe_stap_bpf,	 &pcost_probe_lttng,	NULL,
};

const struct pcost_probe_method *pcost_probe_method_find(const char *name)
{
	for (size_t i = 0; pcost_probe_methods[i]; i++)
		if (!strcmp(pcost_probe_methods[i]->name, name))
			return pcost_probe_methods[i];
	return NULL;
}

bool pcost_probe_method_available(const struct pcost_probe_method *m, char *why, size_t len)
{
	why[0] = '\0';
	if (m->tool && !pcost_which(m->tool, NULL, 0)) {
		snprintf(why, len, "'%s' not found on PATH (install Debian package %s)", m->tool,
			 m->package);
		return false;
	}
	return m->available ? m->available(why, len) : true;
}

const char *pcost_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/uprobe_events", dirs[i]);
		if (!access(p, W_OK))
			return dirs[i];
	}
	return NULL;
}

int pcost_probe_tracefs_need(const char **t, bool (*available)(char *why, size_t len), char *err,
			     size_t len)
{
	int rc;

	if ((*t = pcost_tracefs()))
		return 0;
	if ((rc = pcost_tracefs_mount(err, len)) < 0)
		return rc;
	if (!(*t = pcost_tracefs())) {
		available(err, len);
		return -ENODEV;
	}
	return 0;
}

static bool arm_available(const struct pcost_monitor *m, char *why, size_t len)
{
	return pcost_probe_method_available(PCOST_PROBE_ARM(m)->method, why, len);
}

/*
 * Before each run: is the path still the file whose notes we read?  Probes
 * are registered on an inode; a binary rebuilt or replaced mid-session would
 * run unarmed (tracefs and perf probe definitions stay on the old inode) and
 * its hits would look lost.
 */
static int arm_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct stat st;

	if (stat(a->path, &st) || (uint64_t)st.st_dev != a->dev || (uint64_t)st.st_ino != a->ino) {
		snprintf(err, len,
			 "'%s' was replaced during the session: its probes are no longer "
			 "the ones armed",
			 a->path);
		return -ESTALE;
	}
	return a->method->ops->start ? a->method->ops->start(m, timeout_ns, err, len) : 0;
}

static void arm_free(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);

	if (a->method->ops->cleanup)
		a->method->ops->cleanup(m);
	free(a->sites);
	free(a);
}

struct pcost_monitor *pcost_probe_arm_create(const struct pcost_probe_method *m, const char *path,
					     const struct pcost_probe_site *sites, size_t n,
					     char *err, size_t len)
{
	struct pcost_probe_arm *a;
	struct pcost_monitor_ops *ops;
	struct stat st;

	if (!pcost_sdt_path_ok(path)) {
		snprintf(err, len,
			 "'%s': tracefs and perf probe cannot take this path "
			 "(absolute, [A-Za-z0-9/._+,=@~-] only)",
			 path);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		char spec[160];
		char p[64], nm[64];

		snprintf(spec, sizeof(spec), "%s:%s", sites[i].provider, sites[i].name);
		if (pcost_sdt_parse_spec(spec, p, sizeof(p), nm, sizeof(nm)) ||
		    !sites[i].pc_offset ||
		    sites[i].symbol[strspn(sites[i].symbol,
					   "abcdefghijklmnopqrstuvwxyz"
					   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")]) {
			snprintf(err, len, "probe '%s' has a name or offset that cannot be armed",
				 spec);
			return NULL;
		}
	}
	/*
	 * One ops copy per instance: the method's hooks plus the shared available
	 * and free, so the table rows stay const and every hook sees its method.
	 */
	if (stat(path, &st)) {
		snprintf(err, len, "'%s': %s", path, strerror(errno));
		return NULL;
	}
	a = xcalloc(1, sizeof(*a) + sizeof(*ops));
	a->dev = (uint64_t)st.st_dev;
	a->ino = (uint64_t)st.st_ino;
	ops = (struct pcost_monitor_ops *)(a + 1);
	*ops = *m->ops;
	ops->available = arm_available;
	ops->start = arm_start;
	ops->free = arm_free;
	a->mon.ops = ops;
	snprintf(a->mon.name, sizeof(a->mon.name), "%s", m->name);
	a->method = m;
	snprintf(a->path, sizeof(a->path), "%s", path);
	a->sites = xcalloc(n ? n : 1, sizeof(*sites));
	memcpy(a->sites, sites, n * sizeof(*sites));
	a->nsites = n;
	a->undo = -1;
	return &a->mon;
}

size_t pcost_probe_arm_distinct(const struct pcost_probe_arm *a, size_t *first, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nsites; i++) {
		bool seen = false;

		for (size_t j = 0; j < n && j < max && !seen; j++)
			seen = !strcmp(a->sites[first[j]].provider, a->sites[i].provider) &&
			       !strcmp(a->sites[first[j]].name, a->sites[i].name);
		if (!seen && n < max)
			first[n++] = i;
	}
	return n;
}

size_t pcost_probe_method_list_rows(struct pcost_list_row **rows)
{
	size_t n = 0;

	while (pcost_probe_methods[n])
		n++;
	*rows = xcalloc(n, sizeof(**rows));
	for (size_t i = 0; i < n; i++) {
		const struct pcost_probe_method *m = pcost_probe_methods[i];
		struct pcost_list_row *r = &(*rows)[i];

		r->name = m->name;
		r->kind = m == &pcost_probe_dormant ? "baseline" : "probe";
		r->summary = m->summary;
		r->available = pcost_probe_method_available(m, r->why, sizeof(r->why));
	}
	return n;
}
