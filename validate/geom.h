/*
 * geom.h - the machine's geometry as the validation suite knows it: from the
 * emulated machine's shape (its documented geometry, like CPUID on silicon)
 * or from the hardware.  Never from counts.
 */
#ifndef PMON_VALIDATE_GEOM_H
#define PMON_VALIDATE_GEOM_H

#include <stdint.h>

enum vsup { VSUP_L1, VSUP_L2, VSUP_LLC, VSUP_DRAM, VSUP_RDRAM, VSUP_RCACHE, VSUP_N };

struct vgeom {
	int sockets, cores, threads, channels;
	uint64_t llc_bytes;              /* per socket */
	uint64_t l1_bytes, l2_bytes;     /* per core */
	int l1_ways, l2_ways, llc_ways;
	int prefetch;                    /* L2 streamer on */
	double dclk_hz, uclk_hz, qclk_hz, pclk_hz, tsc_hz;   /* 0: unknown */
	double lat_ns[VSUP_N];           /* 0: unknown */
};

struct pmon_sim;
/* From the emulated machine's shape. */
void vgeom_from_sim(const struct pmon_sim *sim, struct vgeom *g);
/* From the hardware: sockets and CPUs from the opened machine, cache sizes
 * from sysconf, frequencies unknown (0) unless documented. */
struct pmon_machine;
void vgeom_from_hw(const struct pmon_machine *m, struct vgeom *g);

#endif
