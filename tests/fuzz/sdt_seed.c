// SPDX-License-Identifier: MIT
/* sdt_seed: a small binary with one plain and one semaphore-guarded probe, a fuzz corpus seed. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

__extension__ unsigned short seed_guarded_semaphore __attribute__((section(".probes")));
__extension__ unsigned short seed_plain_semaphore __attribute__((section(".probes")));

int main(int argc, char **argv)
{
	(void)argv;
	STAP_PROBE1(seed, plain, argc);
	if (seed_guarded_semaphore)
		STAP_PROBE2(seed, guarded, argc, 42);
	return 0;
}
