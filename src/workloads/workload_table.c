// SPDX-License-Identifier: MIT
/* workloads/workload_table: the registry of built-in workloads. */
#include "workloads/workload.h"
#include "core/registry.h"

#include <string.h>

extern const struct pcost_workload pcost_wl_pipe, pcost_wl_messaging, pcost_wl_syscall,
	pcost_wl_spawn, pcost_wl_null, pcost_wl_stanford, pcost_wl_matmul, pcost_wl_spin,
	pcost_wl_uprobe, pcost_wl_sdtargs, pcost_wl_server, pcost_wl_http;

/* One row per workload file, NULL-terminated. */
static const struct pcost_workload *const all[] = {
	&pcost_wl_pipe,
	&pcost_wl_messaging,
	&pcost_wl_syscall,
	&pcost_wl_spawn,
	&pcost_wl_null,
	&pcost_wl_stanford,
	&pcost_wl_matmul,
	&pcost_wl_spin,
	&pcost_wl_uprobe,
	&pcost_wl_sdtargs,
	&pcost_wl_server,
	&pcost_wl_http,
	NULL,
};

const struct pcost_workload *const *const pcost_workloads_ptr = all;

const struct pcost_workload *pcost_workload_find(const char *name)
{
	for (size_t i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
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
