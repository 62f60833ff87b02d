// SPDX-License-Identifier: MIT
/* counters/papi: the PAPI row (PAPI_start / PAPI_read / PAPI_stop through libpapi). */
#include <errno.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "probecost/counters.h"

struct papi_state {
	int es;
	unsigned k;
	long long vals[PCOST_COUNTERS_MAX];
};

static int papi_init_rc; /* 0 not tried, 1 ready, < 0 failed (PAPI error code) */

static int papi_init(char *why, size_t len)
{
	const char *no_lib = pcost_papi_load();

	if (no_lib) {
		snprintf(why, len, "%s", no_lib);
		return -ENODEV;
	}
	if (!papi_init_rc) {
		int rc = PAPI_library_init(PAPI_VER_CURRENT);

		papi_init_rc = rc == PAPI_VER_CURRENT ? 1 : (rc < 0 ? rc : PAPI_EINVAL);
	}
	if (papi_init_rc < 0) {
		snprintf(why, len, "PAPI_library_init failed: %s", PAPI_strerror(papi_init_rc));
		return -ENODEV;
	}
	return 0;
}

void pcost_counter_papi_shutdown(void)
{
	if (papi_init_rc == 1)
		PAPI_shutdown();
	papi_init_rc = 0;
}

static bool papi_available(char *why, size_t len)
{
	const PAPI_component_info_t *ci;
	int cid;

	if (papi_init(why, len) < 0)
		return false;
	cid = PAPI_get_component_index("perf_event");
	ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (!ci) {
		snprintf(why, len, "PAPI has no perf_event component");
		return false;
	}
	if (ci->disabled) {
		snprintf(why, len, "PAPI's perf_event component is disabled: %s",
			 ci->disabled_reason);
		return false;
	}
	return true;
}

static void papi_close(void *st)
{
	struct papi_state *p = st;

	if (!p)
		return;
	if (p->es != PAPI_NULL) {
		long long junk[PCOST_COUNTERS_MAX];
		int state = 0;

		if (PAPI_state(p->es, &state) == PAPI_OK && (state & PAPI_RUNNING))
			PAPI_stop(p->es, junk);
		PAPI_cleanup_eventset(p->es);
		PAPI_destroy_eventset(&p->es);
	}
	free(p);
}

static int papi_open(void **st, const char *const *names, unsigned k, char *why, size_t len)
{
	struct papi_state *p;
	int rc;

	*st = NULL;
	if (!papi_available(why, len))
		return -ENODEV;
	if (k > PCOST_COUNTERS_MAX)
		return -E2BIG;
	p = xcalloc(1, sizeof(*p));
	p->es = PAPI_NULL;
	p->k = k;
	rc = PAPI_create_eventset(&p->es);
	if (rc != PAPI_OK) {
		snprintf(why, len, "PAPI_create_eventset: %s", PAPI_strerror(rc));
		papi_close(p);
		return -EINVAL;
	}
	for (unsigned i = 0; i < k; i++) {
		/* PAPI names perf's events through libpfm4's perf PMU: perf::NAME. */
		char *n = strstr(names[i], "::") ? xstrdup(names[i])
						 : xasprintf("perf::%s", names[i]);

		rc = PAPI_add_named_event(p->es, n);
		if (rc != PAPI_OK) {
			snprintf(why, len,
				 "PAPI_add_named_event('%s') with %u event(s) in the set: %s", n, i,
				 PAPI_strerror(rc));
			free(n);
			papi_close(p);
			return rc == PAPI_ECNFLCT ? -E2BIG : -ENOENT;
		}
		free(n);
	}
	*st = p;
	return 0;
}

static int papi_start(void *st)
{
	struct papi_state *p = st;

	return PAPI_start(p->es) == PAPI_OK ? 0 : -EIO;
}

static int papi_read(void *st, uint64_t *v)
{
	struct papi_state *p = st;

	if (PAPI_read(p->es, p->vals) != PAPI_OK)
		return -EIO;
	for (unsigned i = 0; i < p->k; i++)
		v[i] = (uint64_t)p->vals[i];
	return 0;
}

static int papi_stop(void *st)
{
	struct papi_state *p = st;

	/* PAPI_stop also reads the counters: that is its documented cost. */
	return PAPI_stop(p->es, p->vals) == PAPI_OK ? 0 : -EIO;
}

const struct pcost_counter_iface pcost_counter_iface_papi = {
	.name = "papi",
	.kind = "papi",
	.summary = "PAPI_start / PAPI_read / PAPI_stop, perf::NAME native events",
	.takes_events = true,
	.available = papi_available,
	.open = papi_open,
	.start = papi_start,
	.read = papi_read,
	.stop = papi_stop,
	.close = papi_close,
};
