/*
 * geom.h - the machine's geometry as the validation suite knows it: from the
 * emulated machine's shape (its documented geometry, like CPUID on silicon)
 * or from the hardware.  Never from counts.
 */
#ifndef PMON_VALIDATE_GEOM_H
#define PMON_VALIDATE_GEOM_H

#include <stdint.h>

enum vsup { VSUP_L1, VSUP_L2, VSUP_LLC, VSUP_DRAM, VSUP_RDRAM, VSUP_RCACHE, VSUP_N };

/* The uncore generation the expectations are written for (vgen.h). */
enum vgen_id { VG_SNBEP, VG_NHMEP, VG_WSMEP };

struct vgeom {
	int sockets, cores, threads, channels;
	uint64_t llc_bytes;              /* per socket */
	uint64_t l1_bytes, l2_bytes;     /* per core */
	int l1_ways, l2_ways, llc_ways;
	int prefetch;                    /* some prefetcher on (pf_dis not 0xf) */
	unsigned pf_dis;                 /* MSR 0x1A4: a bit set turns one off (bit 0 L2
					    streamer, 1 L2 adjacent line, 2 DCU next
					    line, 3 DCU IP stride) */
	uint64_t mem_bytes;              /* DRAM per socket; 0: unknown (silicon) */
	double dclk_hz, uclk_hz, qclk_hz, pclk_hz, tsc_hz;   /* 0: unknown */
	double clk_tol;                  /* relative uncertainty of UCLK, DCLK and QCLK when
					    the run measured them (hwinfo.h), else 0 */
	double lat_ns[VSUP_N];           /* 0: unknown */
	/* The uncore: SNB-EP (one LLC slice and CBo a core, 4 channels, PCI
	 * boxes) or Nehalem-EP / Westmere-EP (no slices: one LLC and one
	 * uncore PMU per socket, 3 channels, MSRs only). */
	int gen;                         /* enum vgen_id */
	int slices;                      /* LLC slices per socket (0: one a core) */
	int nt_erratum;                  /* Nehalem: streaming stores to local lines answer
					    OTHER_CORE_HIT_SNP, not LOCAL_DRAM (guide, seed 000
					    L768-L795); 0: the documented answer */
};

/* LLC slices per socket: g->slices, or one a core when 0. */
int vgeom_slices(const struct vgeom *g);
/* The Nehalem-EP (gen VG_NHMEP) or Westmere-EP (VG_WSMEP) machine's
 * documented geometry (Xeon X5570 / X5670): 2 sockets of 4 (6) cores of 2
 * threads, an 8 (12) MiB 16-way inclusive LLC without slices, 3 DDR3
 * channels, 32 KiB 8-way L1D and 256 KiB 8-way L2, UCLK 2.66 GHz, QPI
 * 6.4 GT/s (QCLK 800 MHz), DCLK 667 MHz, TSC 2.93 GHz; the erratum on as
 * silicon.  Latencies are left as g had them (the shape's). */
void vgeom_nhm(struct vgeom *g, int gen);

struct pmon_sim;
/* From the emulated machine's shape. */
void vgeom_from_sim(const struct pmon_sim *sim, struct vgeom *g);
/* From the hardware: sockets and CPUs from the opened machine, cache sizes
 * from sysconf, frequencies unknown (0) unless documented (the PCU's 800
 * MHz, where the machine has a PCU box). */
struct pmon_machine;
void vgeom_from_hw(const struct pmon_machine *m, struct vgeom *g);

/* The emulated machine's documented LLC slice of a physical address
 * (doc/memory-model.md): line = paddr / 64, h = the high 32 bits of the
 * 64-bit product line x 0x9E3779B97F4A7C15, slice = (h x cores) >> 32.
 * Computed here, apart from the emulator, so the suite's expectations do
 * not lean on the code they check. */
int vgeom_llc_slice(const struct vgeom *g, uint64_t paddr);

/* The emulated DRAM's documented address map (include/pmon/sim.h, DRAM):
 * socket = addr / mem_bytes; line = (addr mod mem_bytes) / 64; channel =
 * line mod channels; cl = line / channels; column = cl mod 128 (8 KiB
 * rows), bank = (cl / 128) mod 8, rank = (cl / 1024) mod 2, row = cl / 2048.
 * 0, or -1 when the address is beyond sockets x mem_bytes or mem_bytes is
 * unknown. */
struct vdram_loc {
	int socket, channel, rank, bank;
	uint64_t row, column;
};
int vgeom_dram_locate(const struct vgeom *g, uint64_t addr, struct vdram_loc *out);

#endif
