// SPDX-License-Identifier: MIT
/* counters/events: event names through libpfm4, close-match suggestions, PMU detection. */
#include <errno.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probecost/counters.h"
#include "core/util.h"

static int pfm_ready(void)
{
	/*
	 * Not cached: pfm_initialize() returns at once when already done, and
	 * PAPI_shutdown() calls pfm_terminate() on the same libpfm4 behind our back.
	 */
	return pfm_initialize() == PFM_SUCCESS ? 0 : -ENODEV;
}

int pcost_counter_resolve(const char *name, bool exclude_kernel, struct perf_event_attr *attr,
			  char *canon, size_t len)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int rc;

	memset(attr, 0, sizeof(*attr));
	if (!name || !*name)
		return -EINVAL;
	if (pfm_ready() < 0)
		return -ENODEV;
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	arg.fstr = &fstr;
	/*
	 * PLM3 is user level, PLM0 kernel.  Counting both matters: a context
	 * switch is counted in kernel context, so context-switches:u reads 0.
	 */
	rc = pfm_get_os_event_encoding(name, exclude_kernel ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3,
				       PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		free(fstr);
		return rc == PFM_ERR_NOTFOUND || rc == PFM_ERR_ATTR || rc == PFM_ERR_UMASK
			       ? -ENOENT
			       : -EINVAL;
	}
	attr->size = sizeof(*attr);
	if (canon)
		snprintf(canon, len, "%s", fstr ? fstr : name);
	free(fstr);
	return 0;
}

/* Levenshtein distance, case-insensitive, on at most 63 characters of each. */
static int distance(const char *a, const char *b)
{
	int d[64][64];
	size_t la = strlen(a), lb = strlen(b);

	la = la > 63 ? 63 : la;
	lb = lb > 63 ? 63 : lb;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int sub = d[i - 1][j - 1] + (strncasecmp(a + i - 1, b + j - 1, 1) != 0 &&
						     !((a[i - 1] == '-' || a[i - 1] == '_') &&
						       (b[j - 1] == '-' || b[j - 1] == '_')));
			int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			int m = sub < del ? sub : del;

			d[i][j] = m < ins ? m : ins;
		}
	return d[la][lb];
}

struct match {
	int dist;
	char name[128];
};

int pcost_counter_suggest(const char *name, char *buf, size_t len, int max)
{
	struct match best[8];
	int nbest = 0, n = 0;
	char key[64];
	const char *p;
	size_t used = 0;
	int pmu;

	if (len)
		buf[0] = '\0';
	if (pfm_ready() < 0 || max <= 0)
		return 0;
	if (max > 8)
		max = 8;
	/* Compare the event part only: "perf::tsk-clock:u" -> "tsk-clock". */
	p = strstr(name, "::");
	snprintf(key, sizeof(key), "%s", p ? p + 2 : name);
	key[strcspn(key, ":")] = '\0';

	pfm_for_all_pmus(pmu)
	{
		pfm_pmu_info_t pinfo;

		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present)
			continue;
		for (int e = pinfo.first_event; e != -1; e = pfm_get_event_next(e)) {
			pfm_event_info_t info;
			int dist, lim, slot;

			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(e, PFM_OS_NONE, &info) != PFM_SUCCESS)
				continue;
			dist = distance(key, info.name);
			/* A substring is a close match too ("clock" -> TASK-CLOCK). */
			if (strlen(key) >= 4 && strcasestr(info.name, key))
				dist = dist < 2 ? dist : 2;
			lim = (int)strlen(key) / 3;
			if (dist > (lim > 2 ? lim : 2))
				continue;
			if (nbest < max)
				slot = nbest++;
			else if (best[max - 1].dist > dist)
				slot = max - 1;
			else
				continue;
			best[slot].dist = dist;
			snprintf(best[slot].name, sizeof(best[slot].name), "%s::%s", pinfo.name,
				 info.name);
			/* keep best[] sorted by distance (insertion step) */
			for (int i = slot; i > 0 && best[i].dist < best[i - 1].dist; i--) {
				struct match t = best[i];

				best[i] = best[i - 1];
				best[i - 1] = t;
			}
		}
	}
	for (int i = 0; i < nbest; i++) {
		int w = snprintf(buf + used, len > used ? len - used : 0, "%s%s", i ? ", " : "",
				 best[i].name);

		if (w < 0 || used + (size_t)w >= len)
			break;
		used += (size_t)w;
		n++;
	}
	return n;
}

bool pcost_counters_have_pmu(char *why, size_t len)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	if (why)
		snprintf(
			why, len, "%s",
			errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV
				? "no hardware PMU (perf_event_open of cycles: not supported); "
				  "hardware events and rdpmc are unavailable here"
			: errno == EACCES || errno == EPERM
				? "hardware events not permitted: set kernel.perf_event_paranoid <= 2 "
				  "or run as root"
				: strerror(errno));
	return false;
}
