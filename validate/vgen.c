/*
 * vgen.c - the suite's generations (vgen.h).
 */
#include "vgen.h"

const struct vgen vgen_snbep = {
	.name = "snbep", .kernels = (1u << VK_N) - 1,
	.chase = snbep_chase, .stream = snbep_stream, .dgemm = snbep_dgemm, .clocks = snbep_clocks,
	.partial = snbep_partial, .lock = snbep_lock, .pfreq = snbep_pfreq,
	.power = snbep_power, .chan = snbep_chan, .dram = snbep_dram,
	.share = snbep_share,
};

/* Nehalem-EP and Westmere-EP: STREAM (ordinary and streaming stores, the
 * remote Triad), the chase, DGEMM and the clock; the other experiments
 * read SNB-EP boxes. */
const struct vgen vgen_nhm = {
	.name = "nhm",
	.kernels = 1u << VK_STREAM | 1u << VK_NUMA | 1u << VK_CHASE | 1u << VK_DGEMM | 1u << VK_CLOCK |
		   1u << VK_PARTIAL | 1u << VK_DRAM | 1u << VK_SHARE | 1u << VK_CHAN |
		   1u << VK_PFREQ,
	.chase = nhm_chase, .stream = nhm_stream, .dgemm = nhm_dgemm, .clocks = nhm_clocks,
	.partial = nhm_partial, .dram = nhm_dram, .share = nhm_share, .chan = nhm_chan,
	.pfreq = nhm_pfreq,
};

const struct vgen *vgen_of(const struct vctx *c)
{
	return c->g.gen == VG_SNBEP ? &vgen_snbep : &vgen_nhm;
}
