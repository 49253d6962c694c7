/*
 * exp_chan.c - the channel probe: one load of each line of a buffer that the
 * machine's documented address map puts on one chosen channel.  Expected:
 * that many CAS reads on that channel, none on the others.  Needs the map
 * (physical address -> channel) of the emulated machine; the hardware's
 * channel interleave is not documented, so the probe is skipped there.
 */
#include <stdlib.h>

#include "vrun.h"

struct parg {
	struct karr *x;
	const uint64_t *offs;
	size_t n;
	double sum;
};

static void init_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct parg *p = arg;
	size_t lo, hi;
	vchunk(p->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, p->x, 1.0, lo, hi);
}

static void probe_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct parg *p = arg;
	(void)t;
	(void)n;
	p->sum = KCALL(c, line_sum, f, p->x, p->offs, p->n);
}

int exp_chan(struct vctx *c)
{
	if (!c->sim) {
		vskip_n(c, c->g.channels, "chan: the hardware's channel interleave is undocumented; probe needs the emulated map");
		return 0;
	}
	int ch = c->g.channels, s = vhome(c), target = 1 % ch;
	int shown = c->o.brk == VB_CHANNEL ? (target + 1) % ch : target;
	size_t bytes = c->o.quick ? (1u << 20) : (8u << 20);
	struct karr x;
	struct parg p = { &x, NULL, 0, 0 };
	uint64_t *offs = NULL;
	int rc, idx[4];
	double t0, t1, want[4] = { 0, 0, 0, 0 };
	uint64_t prev_pa = 0;
	int prev_demand = 0;

	if (ch < 2) {
		vskip(c, "chan: one channel only");
		return 0;
	}
	if ((rc = varr_alloc(c, &x, bytes, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &p)) != 0)
		goto out;
	offs = malloc(sizeof(*offs) * (bytes / 64));
	if (!offs) {
		rc = PMON_ENOMEM;
		goto out;
	}
	/* While planning the pages have no frames (taken at first touch): no
	 * line is placed, the plan's checks are the same one per channel. */
	for (uint64_t off = 0; off < bytes && !c->planning; off += 64) {
		uint64_t pa;
		struct vdram_loc loc;
		if ((rc = pmon_sim_mem_translate(c->sim, x.vbase + off, &pa)) != 0 ||
		    (rc = vgeom_dram_locate(&c->g, pa, &loc) ? PMON_EINVAL : 0) != 0) {
			snprintf(c->err, sizeof(c->err), "chan: address map at +%llu: %s",
				 (unsigned long long)off, pmon_strerror(rc));
			goto out;
		}
		if (loc.channel != target || loc.socket != s)
			continue;
		offs[p.n++] = off;
		/* Lines are loaded in address order from cold caches.  With
		 * prefetch=1 (the documented L2 streamer) a demand miss of line
		 * L also reads L+1 when it lies in L's 4 KiB page: L+1 is then
		 * an L2 hit when it is the next probed line (no demand miss,
		 * no fetch of its own), else a read on its own channel. */
		int demand = !(c->g.prefetch && prev_demand && pa == prev_pa + 64 && pa % 4096);
		if (demand) {
			if (c->g.prefetch && (pa + 64) % 4096 != 0) {
				if ((rc = vgeom_dram_locate(&c->g, pa + 64, &loc) ? PMON_EINVAL : 0) != 0) {
					snprintf(c->err, sizeof(c->err), "chan: address map at +%llu: %s",
						 (unsigned long long)off + 64, pmon_strerror(rc));
					goto out;
				}
				if (loc.channel != target)
					want[loc.channel]++;
			}
		}
		prev_pa = pa;
		prev_demand = demand;
	}
	p.offs = offs;

	struct vevents e;
	vev_init(&e, c->m);
	for (int i = 0; i < ch; i++) {
		int prog = i == target ? shown : i;
		idx[i] = vadd(c, &e, "chan", "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", prog, s);
		if (idx[i] == -2) {
			rc = -1;
			goto out_ev;
		}
		if (i == target && shown != target)
			vev_mark_broken(&e, idx[i]);
	}
	if ((rc = vwin_clean(c, (struct karr *const[]){ &x }, 1)) || (rc = vwin_start(c, &e, &t0)) ||
	    (rc = vpar(c, 1, c->cpus, probe_work, &p)) || (rc = vwin_stop(c, &e, 0, NULL, 0, &t1)))
		goto out_ev;
	if (!c->planning && p.sum != (double)p.n) {
		snprintf(c->err, sizeof(c->err), "chan: sum of the lines %g, want %zu", p.sum, p.n);
		rc = -1;
		goto out_ev;
	}
	for (int i = 0; i < ch; i++) {
		char what[96];
		snprintf(what, sizeof(what), "CAS_COUNT.RD s%d ch%d", s, i);
		if (i == target)
			vcheck_sum(c, &e, "chan", what, "lines", &idx[i], 1, 1, (double)p.n,
				   (struct vband){ 1, 1, "one load of each line mapped to this channel, cold caches" });
		else if (want[i] > 0)
			vcheck_sum(c, &e, "chan", what, "lines", &idx[i], 1, 1, want[i],
				   (struct vband){ 1, 1, "prefetch=1: next line in the page of each demand "
						   "miss, where the address map puts it" });
		else
			vcheck_zero(c, &e, "chan", what, "lines", &idx[i], 1, 1, 0,
				    "no line of the probe maps to this channel");
	}
	vprogress(c, "  %-24s (%zu lines of %zu KiB on channel %d of socket %d)\n", "chan", p.n,
		  bytes >> 10, target, s);
out_ev:
	vev_free(&e);
out:
	free(offs);
	varr_free(c, &x);
	return rc;
}
