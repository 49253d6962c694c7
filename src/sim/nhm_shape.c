/*
 * nhm_shape.c - the shape keys of the Nehalem-EP and Westmere-EP machines
 * (PMON_SIM="gen=nhm-ep,..."): their defaults, their ranges, and the keys
 * that do not apply to them.  sim_shape.c parses the string; it asks here
 * what a generation changes.
 *
 * Defaults (Xeon X5570 / X5670, the parts the Nehalem guide and the SDM
 * describe): 2 sockets; 4 cores (Westmere-EP 6) of 2 threads; an 8 MiB
 * (12 MiB) 16-way inclusive LLC per socket; 3 DDR3-1333 channels (dclk
 * 667 MHz); core and TSC 2.93 GHz, uncore 2.66 GHz; QPI 6.4 GT/s (qclk
 * 800 MHz, a flit each).  The private caches and latencies are the
 * hierarchy's defaults (32 KiB 8-way L1D, 256 KiB 8-way L2).
 */
#include <stdio.h>
#include <string.h>

#include "nhm_sim.h"

static const char *const gen_names[] = {
	[PMON_SIM_GEN_SNBEP] = "snb-ep",
	[PMON_SIM_GEN_NHMEP] = "nhm-ep",
	[PMON_SIM_GEN_WSMEP] = "wsm-ep",
};

int sim_gen_parse(const char *val, size_t vlen)
{
	for (int g = 0; g < (int)(sizeof gen_names / sizeof gen_names[0]); g++)
		if (strlen(gen_names[g]) == vlen && !strncmp(gen_names[g], val, vlen))
			return g;
	return -1;
}

const char *sim_gen_name(int gen)
{
	return gen >= 0 && gen < (int)(sizeof gen_names / sizeof gen_names[0]) ? gen_names[gen]
										  : "?";
}

void sim_gen_defaults(struct pmon_sim_shape *sh, int gen)
{
	sh->gen = gen;
	if (!SIM_GEN_NHM(gen))
		return;
	sh->sockets = 2;
	sh->cores = gen == PMON_SIM_GEN_WSMEP ? 6 : 4;
	sh->threads = 2;
	sh->channels = 3;
	sh->llc_bytes = (gen == PMON_SIM_GEN_WSMEP ? 12ull : 8ull) << 20;
	sh->llc_ways = 16;
	sh->dclk_hz = 667000000ull;
	sh->uclk_hz = 2660000000ull;
	sh->tsc_hz = 2930000000ull;
	sh->qclk_hz = 800000000ull;
	sh->nt_erratum = 1;
}

int sim_gen_key_check(int gen, const char *key, uint64_t v, char *err, size_t errlen)
{
	const char *g = sim_gen_name(gen);

	if (!SIM_GEN_NHM(gen)) {
		if (!strcmp(key, "nt_erratum")) {
			snprintf(err, errlen, "PMON_SIM: nt_erratum does not apply to gen=%s (it is "
				 "the Nehalem offcore-response erratum: gen=nhm-ep or wsm-ep)", g);
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "pclk")) {
		snprintf(err, errlen, "PMON_SIM: pclk does not apply to gen=%s (its uncore has no "
			 "power control unit PMU)", g);
		return -1;
	}
	if (!strcmp(key, "nodeids")) {
		snprintf(err, errlen, "PMON_SIM: nodeids does not apply to gen=%s (node IDs order "
			 "the SNB-EP uncore's PCI buses; this uncore has no PCI boxes)", g);
		return -1;
	}
	if (!strcmp(key, "sockets") && v > 2) {
		snprintf(err, errlen, "PMON_SIM: sockets=%llu out of range 1..2 for gen=%s (a "
			 "two-socket part)", (unsigned long long)v, g);
		return -1;
	}
	if (!strcmp(key, "cores") && v > SIM_NHM_CORES(gen)) {
		snprintf(err, errlen, "PMON_SIM: cores=%llu out of range 1..%d for gen=%s",
			 (unsigned long long)v, SIM_NHM_CORES(gen), g);
		return -1;
	}
	if (!strcmp(key, "channels") && v > 3) {
		snprintf(err, errlen, "PMON_SIM: channels=%llu out of range 1..3 for gen=%s (three "
			 "DDR3 channels per socket)", (unsigned long long)v, g);
		return -1;
	}
	return 0;
}
