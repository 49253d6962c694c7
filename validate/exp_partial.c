/*
 * exp_partial.c - partial-line streaming stores: the home agent's partial
 * writes and the iMC's underfill reads.
 *
 * The kernel writes the first half (32 bytes) of each of n consecutive
 * lines with streaming stores and nothing else of them: each line leaves
 * the write-combining buffer half full, as a partial write (TOR opcode
 * WCiL).  The guide: the HA's IMC_WRITES counts full and partial line
 * writes apart (PARTIAL, one per line; FULL none), and the iMC merges a
 * partial write with the line read from DRAM first, an underfill read
 * (CAS_COUNT.RD_UNDERFILL, "generally about the same as the number of
 * partial writes, but may be slightly less because of partials hitting in
 * the WPQ"), then writes it (CAS_COUNT.WR, one per line).  No regular read:
 * the caches are clean and empty at the window's start and nothing is
 * loaded.  The memory is the kernel's own socket's (the emulated machine
 * does not model a partial write to a remote home).
 */
#include "vspec.h"

struct parg {
	struct karr *x;
	size_t n;
};

static void part_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct parg *p = arg;
	(void)t;
	(void)n;
	KCALL(c, lines_nt_half, f, p->x, p->n, 3.0);
}

static int part_run(struct vctx *c, void *arg)
{
	return vpar(c, 1, c->cpus, part_work, arg);
}

static void init_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct parg *p = arg;
	size_t lo, hi;
	vchunk(p->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, p->x, 1.0, lo, hi);
}

static int part_clean(struct vctx *c, void *arg)
{
	struct parg *p = arg;
	return vwin_clean(c, (struct karr *const[]){ p->x }, 1);
}

int exp_partial(struct vctx *c)
{
	int s = c->o.socket, rc;
	size_t n = c->o.quick ? 1024 : 4096;
	struct karr x;
	struct parg p = { &x, n };

	if ((rc = varr_alloc(c, &x, 64 * n, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &p)) != 0)
		goto out;
	const struct vband hwb = { 0.95, 1.05, "silicon: other agents' DRAM traffic; a partial write "
				   "hitting the WPQ merges there without an underfill (guide)" };
	/* --break=partial: IMC_WRITES.PARTIAL programmed as FULL, RD_UNDERFILL
	 * as RD_REG */
	const struct vspec rows[] = {
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:PARTIAL:socket=%d", s, 1,
		  "HA IMC_WRITES.PARTIAL", VS_EXACT, VB_PARTIAL,
		  "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d" },
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d", s, 0,
		  "HA IMC_WRITES.FULL", VS_EXACT, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_UNDERFILL:socket=%d", s, 1,
		  "CAS_COUNT.RD_UNDERFILL all ch", VS_EXACT, VB_PARTIAL,
		  "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_REG:socket=%d" },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_REG:socket=%d", s, 0,
		  "CAS_COUNT.RD_REG all ch", VS_EXACT, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", s, 1,
		  "CAS_COUNT.WR all ch", VS_EXACT, VB_NONE, NULL },
	};
	rc = vspec_window(c, "partial-nt", rows, 5, (double)n, "lines", hwb, part_clean, part_run, &p);
	if (rc == 0)
		vprogress(c, "  %-24s (%zu half lines written with streaming stores)\n", "partial", n);
out:
	varr_free(c, &x);
	return rc;
}
