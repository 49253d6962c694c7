/*
 * llc_misses.c - the README's example: a known access pattern through the
 * public API of libpmon and the emulated machine, counted by the LLC, the
 * memory controller and the core's offcore-response counters.
 *
 * The machine: the default SNB-EP shape with a 2 MiB LLC per socket
 * and its prefetchers off (PMON_SIM="llc=2M,clock=manual,prefetch=off":
 * with them on, most lines would arrive as prefetches, which the offcore
 * demand count leaves out).  CPU 0 reads an 8 MiB array on its own socket
 * twice, line by line: 131072 lines a pass, four times the LLC, so LRU
 * keeps none of them for the second pass and every read misses the LLC and
 * reads DRAM: 2 x 131072 = 262144 of each.
 *
 * Build: make (build/examples/llc_misses); run: build/examples/llc_misses
 */
#include <stdio.h>
#include <stdlib.h>

#include "pmon/pmon.h"
#include "pmon/sim.h"

#define ARRAY (8u << 20)

static int add(pmon_machine_t *m, pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	char err[256];
	int rc = pmon_machine_encode(m, name, &e, err, sizeof err);

	if (!rc && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof err, "%s", pmon_session_errmsg(s));
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err);
	return rc;
}

int main(void)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	char why[256], name[128];
	uint64_t v[13], base, llc_misses = 0, cas_reads = 0;
	int n = 0;

	setenv("PMON_SIM", "llc=2M,clock=manual,prefetch=off", 1);
	if (pmon_machine_open(&m, "sim", why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	pmon_sim_t *sim = pmon_sim_current();
	if (pmon_session_create(m, &s))
		return 1;
	/* LLC misses: lookups that found the line in state I, in each of the 8
	 * slices (CBos) of socket 0 */
	for (int k = 0; k < 8; k++, n++) {
		snprintf(name, sizeof name, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I", k);
		if (add(m, s, name))
			return 1;
	}
	/* DRAM reads: CAS commands of socket 0's four channels */
	for (int c = 0; c < 4; c++, n++) {
		snprintf(name, sizeof name, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD", c);
		if (add(m, s, name))
			return 1;
	}
	/* CPU 0's demand reads answered from local DRAM after an LLC miss */
	if (add(m, s, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0"))
		return 1;
	n++;

	/* the array, on socket 0, read twice by CPU 0 */
	if (pmon_sim_mem_alloc(sim, ARRAY, PMON_SIM_ON_SOCKET, 0, &base) ||
	    pmon_session_start(s))
		return 1;
	for (int pass = 0; pass < 2; pass++)
		pmon_sim_vtraffic(sim, 0, base, PMON_SIM_LOAD, ARRAY / 64);
	if (pmon_session_stop(s, v))
		return 1;

	for (int i = 0; i < 8; i++)
		llc_misses += v[i];
	for (int i = 8; i < 12; i++)
		cas_reads += v[i];
	printf("lines read:                    %u\n", 2 * (ARRAY / 64));
	printf("LLC misses (CBo LLC_LOOKUP):   %llu\n", (unsigned long long)llc_misses);
	printf("DRAM reads (iMC CAS_COUNT.RD): %llu\n", (unsigned long long)cas_reads);
	printf("offcore LLC miss, local DRAM:  %llu\n", (unsigned long long)v[12]);
	pmon_session_destroy(s);
	pmon_machine_close(m);
	return 0;
}
