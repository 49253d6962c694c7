/*
 * vgen.c - the suite's generations (vgen.h).
 */
#include "vgen.h"

const struct vgen vgen_snbep = { "snbep", (1u << VK_N) - 1, snbep_chase, snbep_stream };

/* Nehalem-EP and Westmere-EP: STREAM (ordinary and streaming stores, the
 * remote Triad) and the chase; the other experiments read SNB-EP boxes. */
const struct vgen vgen_nhm = { "nhm", 1u << VK_STREAM | 1u << VK_NUMA | 1u << VK_CHASE, nhm_chase,
			       nhm_stream };

const struct vgen *vgen_of(const struct vctx *c)
{
	return c->g.gen == VG_SNBEP ? &vgen_snbep : &vgen_nhm;
}
