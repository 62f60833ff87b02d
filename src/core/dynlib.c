// SPDX-License-Identifier: MIT
/* dynlib: a library loaded when a command first needs it (dynlib.h). */
#include "core/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

bool pcost_dynlib_load(struct pcost_dynlib *l)
{
	void *h;
	const char *e;

	if (l->state)
		return l->state > 0;
	l->state = -1;
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		snprintf(l->err, sizeof(l->err),
			 "%s could not be loaded (%s): install the Debian package %s", l->soname,
			 e ? e : "dlopen failed", l->package);
		return false;
	}
	for (size_t i = 0; i < l->n; i++) {
		dlerror();
		*l->slots[i] = dlsym(h, l->names[i]);
		if (!*l->slots[i]) {
			e = dlerror();
			snprintf(l->err, sizeof(l->err),
				 "%s has no %s (%s): install the Debian package %s", l->soname,
				 l->names[i], e ? e : "no such symbol", l->package);
			dlclose(h);
			for (size_t k = 0; k <= i; k++)
				*l->slots[k] = NULL;
			return false;
		}
	}
	l->state = 1;
	return true;
}
