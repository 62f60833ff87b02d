/* SPDX-License-Identifier: MIT */
/* stanford: SDT provider of the Stanford kernels; mk/probes.mk renames it per variant. */
provider stanford {
	probe perm(long, long);
	probe towers(long, long);
	probe queens(long, long);
	probe intmm(long, long);
	probe puzzle(long, long);
	probe quick(long, long);
	probe bubble(long, long);
	probe tree(long, long);
	probe fft(long, long);
};
