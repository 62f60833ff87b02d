/* SPDX-License-Identifier: MIT */
/*
 * env: the machine fingerprint stored with every session and printed by
 * `probecost env`.  Every field is read from /proc, /sys or a tool's
 * --version; a field that cannot be read is "unknown" with the reason, never
 * invented.  All paths are taken relative to a root ("/" normally, a fixture
 * directory in tests).
 */
#ifndef PCOST_ENV_H
#define PCOST_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/format.h"

struct cJSON;

#define PCOST_ENV_MAX_FIELDS 64
#define PCOST_ENV_MAX_WARNINGS 16

struct pcost_env_field {
	const char *key;  /* "kernel.release", "cpu.model", "pmu.present", ... */
	char value[2048]; /* "unknown" when !known */
	bool known;
	char why[160]; /* when !known: why (file missing, permission, ...) */
};

struct pcost_env {
	size_t nfields;
	struct pcost_env_field fields[PCOST_ENV_MAX_FIELDS];
	size_t nwarnings;
	char warnings[PCOST_ENV_MAX_WARNINGS][256];

	/* Parsed facts other modules use. */
	int ncpus;		  /* online CPUs, 0 when unknown */
	bool hypervisor;	  /* running as a guest */
	char hypervisor_name[32]; /* "KVM", "Xen", ... or "" */
	bool pmu;      /* a hardware PMU (cpu/ or cpu_core/ in event_source, or perf says so) */
	int rdpmc;     /* /sys/.../rdpmc value, -1 unknown */
	int paranoid;  /* kernel.perf_event_paranoid, -100 unknown */
	double tsc_hz; /* calibrated TSC frequency, 0 when no TSC */
	bool tsc_invariant; /* constant_tsc && nonstop_tsc */
	char kernel_release[128];
};

/*
 * Collect the fingerprint.  root is "/" (or NULL) for this machine, or a
 * directory holding proc/ and sys/ copies (tests).  tools != 0 also runs
 * tool --version commands (never under a fixture root); calibrate != 0 measures
 * the TSC frequency against CLOCK_MONOTONIC (about 20 ms).
 */
void pcost_env_collect(struct pcost_env *e, const char *root, int tools, int calibrate);

/*
 * The name of a hypervisor from its cpuid leaf 0x40000000 signature (12 bytes:
 * ebx, ecx, edx): "KVM", "Hyper-V", "VMware", "Xen", "QEMU TCG", "bhyve", else
 * "cpuid 'SIG'" for a printable one no table names (so a guest is never just
 * "unnamed"), else "".
 */
void pcost_hypervisor_name(const char sig[12], char *out, size_t len);

/* The field of that key, or NULL. */
const struct pcost_env_field *pcost_env_get(const struct pcost_env *e, const char *key);

/* JSON object {"fields": {...}, "unknown": {key: why}, "warnings": [...]}; caller owns. */
struct cJSON *pcost_env_to_json(const struct pcost_env *e);
/* Same, as text (malloc'd). */
char *pcost_env_to_json_text(const struct pcost_env *e);

/* Print in the given format (text or json). */
void pcost_env_print(const struct pcost_env *e, enum pcost_format f, FILE *out);

/*
 * One line for the top of a report:
 * "Linux 6.18.44, 2 CPUs, KVM guest, no PMU, TSC 2.60 GHz"
 */
void pcost_env_headline(const struct pcost_env *e, char *buf, size_t len);

/* Cached env of this machine (tools and calibration included), collected once. */
const struct pcost_env *pcost_env_self(void);

/* TSC frequency of this machine (calibrated once), 0 when unknown. */
double pcost_tsc_hz(void);

#endif
