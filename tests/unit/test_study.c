// SPDX-License-Identifier: MIT
/*
 * test_study: run's experiment built from its options (run/study.h): the values of
 * --scale, --placement and --ready-port, what goes with --service and --service-pid
 * (and the latter's values), and a study of a
 * built-in workload at two scales: its configurations and its options' JSON, known
 * field by field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "run/study.h"

static void scales(void **state)
{
	struct pcost_study_opts o = { 0 };

	(void)state;
	assert_int_equal(pcost_study_scales(&o, "1,2,4"), 0);
	assert_int_equal(o.nscales, 3);
	assert_true(o.scales[0] == 1 && o.scales[1] == 2 && o.scales[2] == 4);
	assert_int_equal(pcost_study_scales(&o, "0.5"), 0);
	assert_int_equal(o.nscales, 1); /* a second --scale replaces the first */
	assert_true(o.scales[0] == 0.5);
	assert_int_equal(pcost_study_scales(&o, "1,1"), -EINVAL);
	assert_int_equal(pcost_study_scales(&o, "0"), -EINVAL);
	assert_int_equal(pcost_study_scales(&o, "1,,2"), -EINVAL);
	assert_int_equal(pcost_study_scales(&o, "1,2,3,4,5,6,7,8,9"), -EINVAL);
}

static void placement_list(void **state)
{
	struct pcost_study_opts o = { 0 };

	(void)state;
	assert_int_equal(pcost_study_placement_list(&o, "same,split"), 0);
	assert_true(o.placement[0] && o.placement[1]);
	assert_int_equal(pcost_study_placement_list(&o, "split"), 0);
	assert_true(!o.placement[0] && o.placement[1]);
	assert_int_equal(pcost_study_placement_list(&o, "same,other"), -EINVAL);
}

static void ready_port(void **state)
{
	struct pcost_study_opts o = { 0 };

	(void)state;
	assert_int_equal(pcost_study_ready_port(&o, "6379"), 0);
	assert_int_equal(o.service_port, 6379);
	assert_string_equal(o.service_addr, "");
	assert_int_equal(pcost_study_ready_port(&o, "127.0.0.1:80"), 0);
	assert_int_equal(o.service_port, 80);
	assert_string_equal(o.service_addr, "127.0.0.1");
	assert_int_equal(pcost_study_ready_port(&o, "[::1]:7000"), 0);
	assert_int_equal(o.service_port, 7000);
	assert_string_equal(o.service_addr, "::1");
	assert_int_equal(pcost_study_ready_port(&o, "localhost:81"), 0);
	assert_string_equal(o.service_addr, "");
	assert_int_equal(pcost_study_ready_port(&o, "0"), -EINVAL);
	assert_int_equal(pcost_study_ready_port(&o, "65536"), -EINVAL);
	assert_int_equal(pcost_study_ready_port(&o, "fe80::1:80"), -EINVAL);
	assert_int_equal(pcost_study_ready_port(&o, "example.org:80"), -EINVAL);
	assert_int_equal(pcost_study_ready_port(&o, "[nope]:80"), -EINVAL);
}

static void service_goes_with(void **state)
{
	char *cmd[] = { "true", NULL };
	struct pcost_study_opts o = { .monitors = { "strace -p {pid}" }, .nmonitors = 1 };

	(void)state;
	assert_int_equal(pcost_study_check_service(&o), -EINVAL); /* {pid} needs --service */
	o.service = "sleep 9";
	assert_int_equal(pcost_study_check_service(&o), 0);
	o.service_ready = "(";
	assert_int_equal(pcost_study_check_service(&o), -EINVAL); /* not a regex */
	o.service_ready = "ready";
	assert_int_equal(pcost_study_check_service(&o), 0);
	o.metrics.n = 1; /* --metric reads a command's output */
	assert_int_equal(pcost_study_check_service(&o), -EINVAL);
	o.command = cmd;
	o.ncommand = 1;
	assert_int_equal(pcost_study_check_service(&o), 0);
	o.metrics.n = 0;
	o.service = NULL;
	o.nmonitors = 0;
	o.service_ready = NULL;
	o.service_per_block = true;
	assert_int_equal(pcost_study_check_service(&o), -EINVAL);
}

/* --service-pid: {pid} is its pid; not with --service, --service-per-block, --ready-port. */
static void service_pid_goes_with(void **state)
{
	struct pcost_study_opts o = { .monitors = { "strace -p {pid}" },
				      .nmonitors = 1,
				      .service_pid = "4242" };

	(void)state;
	assert_int_equal(pcost_study_check_service(&o), 0);
	o.service = "sleep 9";
	assert_int_equal(pcost_study_check_service(&o), -EINVAL);
	o.service = NULL;
	o.service_per_block = true;
	assert_int_equal(pcost_study_check_service(&o), -EINVAL);
	o.service_per_block = false;
	o.service_port = 6379;
	assert_int_equal(pcost_study_check_service(&o), -EINVAL);
}

/* --service-pid's values: a running pid is itself; the rest say why, with their errno. */
static void service_pid_resolve(void **state)
{
	char err[512], self[24];
	pid_t pid = 0;

	(void)state;
	snprintf(self, sizeof(self), "%d", (int)getpid());
	assert_int_equal(pcost_service_pid_resolve(self, &pid, err, sizeof(err)), 0);
	assert_int_equal(pid, getpid());
	assert_int_equal(pcost_service_pid_resolve("1x", &pid, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--service-pid '1x': expected the pid"));
	assert_int_equal(pcost_service_pid_resolve("1", &pid, err, sizeof(err)), -EINVAL);
	assert_int_equal(pcost_service_pid_resolve("unit:", &pid, err, sizeof(err)), -EINVAL);
	assert_int_equal(
		pcost_service_pid_resolve("cgroup:/nonexistent-pcost", &pid, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "cannot read '/nonexistent-pcost/cgroup.procs'"));
	if (access("/run/systemd/system", F_OK) != 0) {
		assert_int_equal(
			pcost_service_pid_resolve("unit:x.service", &pid, err, sizeof(err)),
			-ENOTSUP);
		assert_non_null(strstr(err, "systemd is not running"));
	}
}

/* -w syscall:loops=100 --scale 1,2 -r 3 --cpu 0: one configuration a scale, and its options. */
static void study_of_a_workload(void **state)
{
	char *argv[] = { "run", "-w", "syscall:loops=100", "--scale", "1,2", NULL };
	struct pcost_study_opts o = { .workloads = { "syscall:loops=100" },
				      .nworkloads = 1,
				      .events = -1,
				      .seed_given = true };
	struct pcost_study st;

	(void)state;
	pcost_runner_opts_default(&o.ro);
	o.ro.runs = 3;
	o.ro.cpu_mask = 1;
	o.ro.seed = 42;
	strcpy(o.cpu_text, "0");
	assert_int_equal(pcost_study_scales(&o, "1,2"), 0);
	assert_int_equal(pcost_study_init(&st, &o, 5, argv), 0);
	assert_int_equal(st.nmons, 1); /* no -m: the baseline alone */
	assert_int_equal(st.s.nconfigs, 2);
	assert_string_equal(st.s.configs[0].workload, "syscall");
	assert_non_null(strstr(st.s.configs[0].workload_args, "loops=100 "));
	assert_non_null(strstr(st.s.configs[1].workload_args, "loops=200 "));
	assert_string_equal(st.s.configs[1].monitor, "none");
	assert_string_equal(st.s.configs[1].unit, "syscall");
	assert_string_equal(st.s.cmdline, "probecost run -w syscall:loops=100 --scale 1,2");
	assert_int_equal(o.ro.seed, 42); /* given: kept */
	assert_false(o.ro.pilot_apart);	 /* --runs: no pilot */
	assert_non_null(strstr(st.s.options_json, "\"runs\":3,\"warmup\":1,"));
	assert_non_null(strstr(st.s.options_json, "\"cpu\":\"0\",\"default_study\":false"));
	assert_non_null(strstr(st.s.options_json, "\"scale\":[1,2]"));
	assert_null(strstr(st.s.options_json, "\"counted\""));
	assert_null(strstr(st.s.options_json, "\"service\""));
	pcost_study_release(&st);
}

/* A workload that does not scale is refused before anything runs (exit 2). */
static void unscalable_workload(void **state)
{
	char *argv[] = { "run", NULL };
	struct pcost_study_opts o = { .workloads = { "null" }, .nworkloads = 1, .events = -1 };
	struct pcost_study st;

	(void)state;
	pcost_runner_opts_default(&o.ro);
	assert_int_equal(pcost_study_scales(&o, "2"), 0);
	assert_int_equal(pcost_study_init(&st, &o, 1, argv), -EINVAL);
	pcost_study_release(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scales),
		cmocka_unit_test(placement_list),
		cmocka_unit_test(ready_port),
		cmocka_unit_test(service_goes_with),
		cmocka_unit_test(service_pid_goes_with),
		cmocka_unit_test(service_pid_resolve),
		cmocka_unit_test(study_of_a_workload),
		cmocka_unit_test(unscalable_workload),
	};

	pcost_verbosity = 0;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
