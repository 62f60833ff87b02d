// SPDX-License-Identifier: MIT
/* workloads/table: the registry of built-in workloads. */
#include "workloads/workload.h"
#include "cmd/list.h"

#include <string.h>

/*
 * Rows defined in other areas' files are weak, so an area that has not landed
 * leaves a NULL that the iteration skips.
 */
#define WL(sym) extern const struct pcost_workload sym __attribute__((weak))
WL(pcost_wl_pipe);
WL(pcost_wl_messaging);
WL(pcost_wl_syscall);
WL(pcost_wl_spawn);
WL(pcost_wl_null);
WL(pcost_wl_stanford);
WL(pcost_wl_matmul);
WL(pcost_wl_uprobe);
WL(pcost_wl_sdtargs);
WL(pcost_wl_spin);

static const struct pcost_workload *const all[] = {
	&pcost_wl_pipe,	    &pcost_wl_messaging, &pcost_wl_syscall, &pcost_wl_spawn,
	&pcost_wl_null,	    &pcost_wl_stanford,	 &pcost_wl_matmul,   &pcost_wl_spin,
	&pcost_wl_uprobe,   &pcost_wl_sdtargs,
};

static const struct pcost_workload *present[ARRAY_SIZE(all) + 1];

/* Built at start-up: the rows that exist in this build, NULL-terminated. */
__attribute__((constructor)) static void collect(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i])
			present[n++] = all[i];
	present[n] = NULL;
}

const struct pcost_workload *const *const pcost_workloads_ptr = present;

const struct pcost_workload *pcost_workload_find(const char *name)
{
	for (size_t i = 0; present[i]; i++)
		if (!strcmp(present[i]->name, name))
			return present[i];
	return NULL;
}

size_t pcost_workload_list_rows(struct pcost_list_row **rows)
{
	const struct pcost_workload *w;
	size_t n = 0;

	for_each_workload(w)
		n++;
	*rows = xcalloc(n ? n : 1, sizeof(**rows));
	n = 0;
	for_each_workload(w) {
		struct pcost_list_row *r = &(*rows)[n++];

		r->name = w->name;
		r->kind = w->unit;
		r->summary = w->summary;
		r->params = w->params;
		r->available = w->available ? w->available(r->why, sizeof(r->why)) : true;
	}
	return n;
}
