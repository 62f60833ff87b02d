// SPDX-License-Identifier: MIT
/* test_env: the fingerprint parser on fixture copies of /proc and /sys (same result anywhere). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <string.h>

#include "core/env.h"

static struct pcost_env env;

static const char *val(const char *key)
{
	const struct pcost_env_field *f = pcost_env_get(&env, key);

	assert_non_null(f);
	return f->value;
}

static bool warned(const char *needle)
{
	for (size_t i = 0; i < env.nwarnings; i++)
		if (strstr(env.warnings[i], needle))
			return true;
	return false;
}

static void test_kvm_guest_without_pmu(void **state)
{
	pcost_env_collect(&env, "tests/fixtures/env/kvm-nopmu", 0, 0);
	assert_string_equal(val("kernel.release"), "6.18.44-fc-v782");
	assert_string_equal(env.kernel_release, "6.18.44-fc-v782");
	assert_string_equal(val("cpu.model"), "AMD EPYC"); /* first processor block only */
	assert_string_equal(val("cpu.vendor"), "AuthenticAMD");
	assert_int_equal(env.ncpus, 2);
	assert_string_equal(val("cpu.smt"), "off");
	assert_true(env.tsc_invariant);
	assert_string_equal(val("tsc.invariant"), "yes");
	assert_string_equal(val("tsc.flags"), "tsc rdtscp constant_tsc nonstop_tsc tsc_known_freq");
	assert_true(env.hypervisor);
	assert_false(env.pmu);
	assert_int_equal(env.rdpmc, -1);
	assert_int_equal(env.paranoid, 2);
	assert_string_equal(val("uprobes"), "yes");
	assert_string_equal(val("kernel.mitigations"), "mitigations=auto,no_guest_host");
	/* nohz_full after "--" belongs to init, not the kernel. */
	assert_string_equal(val("kernel.nohz_full"), "not set");
	assert_string_equal(val("memory"), "23.5 GiB");
	assert_string_equal(val("cpu.vulnerabilities"),
			    "meltdown: Not affected; spectre_v2: Mitigation: Retpolines");
	assert_true(warned("guest: absolute numbers are not bare-metal numbers"));
	assert_true(warned("no hardware PMU: hardware events and rdpmc unavailable"));
	assert_false(warned("governor"));
}

/* Signatures as cpuid leaf 0x40000000 gives them (ebx ecx edx), known and not. */
static void test_hypervisor_names(void **state)
{
	static const struct {
		const char *sig, *want;
	} t[] = {
		{ "KVMKVMKVM\0\0\0", "KVM" },
		{ "bhyve bhyve ", "bhyve" },
		{ "Microsoft Hv", "Hyper-V" },
		{ "ACRNACRNACRN", "cpuid 'ACRNACRNACRN'" },
		{ "LKVM  \0\0\0\0\0\0", "cpuid 'LKVM'" }, /* trailing spaces dropped */
		{ "\x01\x02junkjunk\0\0", "" },		  /* unprintable: no name */
		{ "\0\0\0\0\0\0\0\0\0\0\0\0", "" },	  /* none */
	};
	char out[32];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		pcost_hypervisor_name(t[i].sig, out, sizeof(out));
		assert_string_equal(out, t[i].want);
	}
}

static void test_metal_with_pmu(void **state)
{
	char head[256];

	pcost_env_collect(&env, "tests/fixtures/env/metal-pmu", 0, 0);
	assert_int_equal(env.ncpus, 6); /* 0-3,6-7 */
	assert_string_equal(val("cpu.smt"), "on");
	assert_false(env.hypervisor);
	assert_string_equal(val("hypervisor"), "none (bare metal)");
	assert_true(env.pmu);
	assert_string_equal(val("pmu"), "present (cpu)");
	assert_int_equal(env.rdpmc, 1);
	assert_int_equal(env.paranoid, -1);
	assert_false(env.tsc_invariant); /* constant_tsc without nonstop_tsc */
	assert_string_equal(val("kernel.nohz_full"), "nohz_full=2-7");
	assert_string_equal(val("kernel.isolcpus"), "isolcpus=domain,2-7");
	assert_string_equal(val("kernel.mitigations"), "mitigations=off");
	assert_string_equal(val("cpufreq.governor"), "powersave");
	assert_true(warned("governor is powersave"));
	assert_true(warned("SMT is on"));
	assert_true(warned("TSC is not invariant"));
	assert_false(warned("no hardware PMU"));
	pcost_env_headline(&env, head, sizeof(head));
	assert_string_equal(head, "Linux 6.1.0-26-amd64, 6 CPUs, PMU");
}

static void test_missing_files_are_unknown_with_reason(void **state)
{
	const struct pcost_env_field *f;

	pcost_env_collect(&env, "tests/fixtures/env/does-not-exist", 0, 0);
	f = pcost_env_get(&env, "kernel.release");
	assert_non_null(f);
	assert_false(f->known);
	assert_string_equal(f->value, "unknown");
	assert_non_null(strstr(f->why, "cannot read /proc/sys/kernel/osrelease"));
	f = pcost_env_get(&env, "cpufreq.governor");
	assert_false(f->known);
}

static void test_json_has_fields_unknowns_and_warnings(void **state)
{
	cJSON *j, *fields, *unknown, *warnings;

	pcost_env_collect(&env, "tests/fixtures/env/kvm-nopmu", 0, 0);
	j = pcost_env_to_json(&env);
	fields = cJSON_GetObjectItem(j, "fields");
	unknown = cJSON_GetObjectItem(j, "unknown");
	warnings = cJSON_GetObjectItem(j, "warnings");
	assert_string_equal(cJSON_GetObjectItem(fields, "kernel.release")->valuestring,
			    "6.18.44-fc-v782");
	assert_non_null(cJSON_GetObjectItem(unknown, "cpufreq.governor"));
	assert_int_equal(cJSON_GetArraySize(warnings), (int)env.nwarnings);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kvm_guest_without_pmu),
		cmocka_unit_test(test_hypervisor_names),
		cmocka_unit_test(test_metal_with_pmu),
		cmocka_unit_test(test_missing_files_are_unknown_with_reason),
		cmocka_unit_test(test_json_has_fields_unknowns_and_warnings),
	};

	return cmocka_run_group_tests_name("env", tests, NULL, NULL);
}
