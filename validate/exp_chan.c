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
	uint64_t last_page = UINT64_MAX;
	/* The adjacent-line prefetcher alone: exact; any other on: at most. */
	int exact = c->g.pf_dis == 0xdu;

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
		/* Lines are loaded in address order from cold caches; every
		 * prefetcher stays within the 4 KiB page of the line that
		 * triggers it, and the buffer is whole pages the LLC holds.
		 * The adjacent-line prefetcher alone: a line whose pair is
		 * probed too is fetched with it (one read), else its pair is a
		 * read on the pair's channel.  With the streamer or a DCU
		 * prefetcher, which other lines of a probed page they fetch
		 * depends on the order of the channels' lines: each at most
		 * once. */
		if (!c->g.prefetch || (!exact && pa / 4096 == last_page))
			continue;
		for (uint64_t q = exact ? (pa ^ 64) : pa / 4096 * 4096;
		     exact ? q == (pa ^ 64) : q < pa / 4096 * 4096 + 4096; q += exact ? 1 : 64) {
			if ((rc = vgeom_dram_locate(&c->g, q, &loc) ? PMON_EINVAL : 0) != 0) {
				snprintf(c->err, sizeof(c->err), "chan: address map at 0x%llx: %s",
					 (unsigned long long)q, pmon_strerror(rc));
				goto out;
			}
			if (loc.channel != target)
				want[loc.channel]++;
		}
		last_page = pa / 4096;
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
		else if (want[i] > 0 && exact)
			vcheck_sum(c, &e, "chan", what, "lines", &idx[i], 1, 1, want[i],
				   (struct vband){ 1, 1, "adjacent-line prefetcher: the pair of each probed "
						   "line not probed itself, where the address map puts it" });
		else if (want[i] > 0)
			vcheck_sum(c, &e, "chan", what, "lines", &idx[i], 1, 1, want[i],
				   (struct vband){ 0, 1, "prefetchers on: at most each line of the probed "
						   "pages on this channel, once (they stay in the page)" });
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
