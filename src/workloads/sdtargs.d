/* SPDX-License-Identifier: MIT */
/* sdtargs: probes of the sdtargs workload, by what their site evaluates (mk/probes.mk). */
provider pcost_args {
	probe a0();
	probe a1(long);
	probe a3(long, long, long);
	probe a6(long, long, long, long, long, long);
	probe expensive(long);
	probe expensive_sem(long);
};
