/*
 * vgen.c - the suite's generations (vgen.h).
 */
#include "vgen.h"

const struct vgen vgen_snbep = { "snbep", (1u << VK_N) - 1, snbep_chase, snbep_stream, snbep_dgemm,
				 snbep_clocks };

/* Nehalem-EP and Westmere-EP: STREAM (ordinary and streaming stores, the
 * remote Triad), the chase, DGEMM and the clock; the other experiments
 * read SNB-EP boxes. */
const struct vgen vgen_nhm = { "nhm", 1u << VK_STREAM | 1u << VK_NUMA | 1u << VK_CHASE |
			       1u << VK_DGEMM | 1u << VK_CLOCK, nhm_chase, nhm_stream, nhm_dgemm,
			       nhm_clocks };

const struct vgen *vgen_of(const struct vctx *c)
{
	return c->g.gen == VG_SNBEP ? &vgen_snbep : &vgen_nhm;
}
