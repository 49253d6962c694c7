/*
 * vgen.h - a generation of the validation suite: its expectations, pure
 * functions of the kernel's case and the machine's geometry that fill a
 * vxset (vexp.h).  The experiments (exp_*.c) run the kernels and hand each
 * set to the one runner (vx_run); a generation adds its expectations, not
 * a copy of the runner.
 */
#ifndef PMON_VALIDATE_VGEN_H
#define PMON_VALIDATE_VGEN_H

#include "vexp.h"
#include "xcase.h"

struct chase_case;
struct stream_case;

/* Blocked DGEMM of n x n matrices in bk panels on threads threads, the
 * matrices on socket home. */
struct dgemm_case {
	uint64_t n, bk;
	int threads, hw, home;
};

/* A counter that ticks at a frequency of the geometry (0: not known). */
struct vclock {
	const char *name, *what;
	double hz;
	int measured;            /* its frequency one the run measures where not known
				    (UCLK, DCLK, QCLK: exp_clock.c), 0: documented */
};

struct vgen {
	const char *name;        /* "snbep" */
	unsigned kernels;        /* the experiments it has expectations for (bit per enum vkernel) */
	/* 0, or -1 with x->err. */
	int (*chase)(const struct vgeom *g, const struct chase_case *k, struct vxset *x);
	int (*stream)(const struct vgeom *g, const struct stream_case *k, struct vxset *x);
	int (*dgemm)(const struct vgeom *g, const struct dgemm_case *k, struct vxset *x);
	/* The clocks (at most max into out); how many. */
	int (*clocks)(const struct vgeom *g, struct vclock *out, int max);
	/* The smaller experiments (xcase.h); NULL where kernels has not the bit. */
	int (*partial)(const struct vgeom *g, const struct partial_case *k, struct vxset *x);
	int (*lock)(const struct vgeom *g, const struct lock_case *k, struct vxset *x);
	int (*pfreq)(const struct vgeom *g, const struct pfreq_case *k, struct vxset *x);
	int (*power)(const struct vgeom *g, const struct power_case *k, struct vxset *x);
	int (*chan)(const struct vgeom *g, const struct chan_case *k, struct vxset *x);
	int (*dram)(const struct vgeom *g, const struct dram_case *k, struct vxset *x);
	int (*share)(const struct vgeom *g, const struct share_case *k, struct vxset *x);
};

/* The clocks' checks, the same for every generation: each of clk[0..n)
 * counts its frequency times the window's length (gen_clock.c); a clock
 * of unknown frequency skipped.  0, or -1 (x->err). */
int vclock_set(const struct vgeom *g, const struct vclock *clk, int n,
	       const struct clock_case *k, struct vxset *x);

/* The generation of the machine the suite validates. */
const struct vgen *vgen_of(const struct vctx *c);

extern const struct vgen vgen_snbep, vgen_nhm;

int snbep_chase(const struct vgeom *g, const struct chase_case *k, struct vxset *x);
int snbep_stream(const struct vgeom *g, const struct stream_case *k, struct vxset *x);
int snbep_dgemm(const struct vgeom *g, const struct dgemm_case *k, struct vxset *x);
int snbep_clocks(const struct vgeom *g, struct vclock *out, int max);
int snbep_partial(const struct vgeom *g, const struct partial_case *k, struct vxset *x);
int snbep_lock(const struct vgeom *g, const struct lock_case *k, struct vxset *x);
int snbep_pfreq(const struct vgeom *g, const struct pfreq_case *k, struct vxset *x);
int snbep_power(const struct vgeom *g, const struct power_case *k, struct vxset *x);
int snbep_chan(const struct vgeom *g, const struct chan_case *k, struct vxset *x);
int snbep_dram(const struct vgeom *g, const struct dram_case *k, struct vxset *x);
int snbep_share(const struct vgeom *g, const struct share_case *k, struct vxset *x);
/* The producer / consumer sequence's victims at the home (gen_snbep_share.c):
 * M n, S n + nf, E ev; the bands' lower edges from the lines the sweep may
 * leave in the LLC (its physical addresses), w for the 2n writes.  0, or
 * -1 (x->err). */
struct share_bands {
	struct vband m, s, e, w;
	double ev;
};
int share_pc_bands(const struct vgeom *g, const struct share_case *k, struct share_bands *b,
		   struct vxset *x);
int nhm_dgemm(const struct vgeom *g, const struct dgemm_case *k, struct vxset *x);
int nhm_clocks(const struct vgeom *g, struct vclock *out, int max);
int nhm_chase(const struct vgeom *g, const struct chase_case *k, struct vxset *x);
int nhm_stream(const struct vgeom *g, const struct stream_case *k, struct vxset *x);
/* The Nehalem / Westmere uncore PMU ("nhm_unc", "wsm_unc") and core PMU
 * ("nhm", "wsm_dp") of the geometry's generation. */
const char *nhm_unc_pmu(const struct vgeom *g);
const char *nhm_core_pmu(const struct vgeom *g);
/* "CH0:CH1:CH2": the umasks of the geometry's channels (gen_nhm_partial.c). */
void nhm_channels(const struct vgeom *g, char *out, size_t len);
int nhm_partial(const struct vgeom *g, const struct partial_case *k, struct vxset *x);
int nhm_dram(const struct vgeom *g, const struct dram_case *k, struct vxset *x);
int nhm_share(const struct vgeom *g, const struct share_case *k, struct vxset *x);
int nhm_chan(const struct vgeom *g, const struct chan_case *k, struct vxset *x);
int nhm_pfreq(const struct vgeom *g, const struct pfreq_case *k, struct vxset *x);

#endif
