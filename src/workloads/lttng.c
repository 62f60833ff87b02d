// SPDX-License-Identifier: MIT
/* lttng: find and load the LTTng-UST builds of the workloads (pcost-lttng.so). */
#include "workloads/lttng.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

#define SO_NAME "pcost-lttng.so"
#ifndef PCOST_LIBDIR
#define PCOST_LIBDIR "/usr/local/lib/probecost"
#endif

bool pcost_lttng_so_path(char *buf, size_t len, char *why, size_t wlen)
{
	static const char *const rel[] = { "build/lttng/", "lttng/" };
	const char *env = getenv("PROBECOST_LTTNG_SO");
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		if (!access(buf, R_OK))
			return true;
		snprintf(why, wlen, "PROBECOST_LTTNG_SO='%s' is not readable", env);
		return false;
	}
	if (n <= 0) {
		snprintf(why, wlen, "cannot read /proc/self/exe");
		return false;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		slash[1] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		snprintf(buf, len, "%s%s%s", exe, rel[i], SO_NAME);
		if (!access(buf, R_OK))
			return true;
	}
	snprintf(buf, len, "%s/%s", PCOST_LIBDIR, SO_NAME);
	if (!access(buf, R_OK))
		return true;
	snprintf(why, wlen,
		 "no %s in %s or beside %s (build/lttng/, lttng/): build probecost "
		 "with liblttng-ust-dev installed",
		 SO_NAME, PCOST_LIBDIR, exe);
	return false;
}

void *pcost_lttng_sym(const char *name)
{
	static void *h;
	char path[PATH_MAX], why[PATH_MAX + 128];
	void *sym;

	if (!h) {
		if (!pcost_lttng_so_path(path, sizeof(path), why, sizeof(why))) {
			error("lttng: %s", why);
			return NULL;
		}
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			error("lttng: cannot load '%s': %s", path, dlerror());
			return NULL;
		}
	}
	sym = dlsym(h, name);
	if (!sym)
		error("lttng: '%s' has no %s", SO_NAME, name);
	return sym;
}
