/*
 * exp_chan.c - the channel probe: one load of each line of a buffer that the
 * machine's documented address map puts on one chosen channel, from cold
 * caches.  What the memory controller counts is the generation's (vgen.h:
 * gen_chan.c), run by vx_run.  Needs the map (physical address ->
 * channel) of the emulated machine; the hardware's channel interleave is
 * not documented, so the probe is skipped there.
 */
#include <stdlib.h>

#include "vgen.h"

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

static int probe_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	struct parg *p = arg;
	int rc = vpar(c, 1, c->cpus, probe_work, p);
	(void)w;
	if (rc == 0 && !c->planning && p->sum != (double)p->n) {
		snprintf(c->err, sizeof(c->err), "chan: sum of the lines %g, want %zu", p->sum, p->n);
		return -1;
	}
	return rc;
}

/* The buffer's lines on channel target of socket s, in address order:
 * offsets and physical addresses.  While planning the pages have no
 * frames (taken at first touch): no line is placed. */
static int probe_lines(struct vctx *c, const struct karr *x, int target, int s, uint64_t *offs,
		       uint64_t *pas, size_t *n)
{
	*n = 0;
	for (uint64_t off = 0; off < x->bytes && !c->planning; off += 64) {
		uint64_t pa;
		struct vdram_loc loc;
		int rc;
		if ((rc = pmon_sim_mem_translate(c->sim, x->vbase + off, &pa)) != 0 ||
		    (rc = vgeom_dram_locate(&c->g, pa, &loc) ? PMON_EINVAL : 0) != 0) {
			snprintf(c->err, sizeof(c->err), "chan: address map at +%llu: %s",
				 (unsigned long long)off, pmon_strerror(rc));
			return rc;
		}
		if (loc.channel != target || loc.socket != s)
			continue;
		offs[*n] = off;
		pas[(*n)++] = pa;
	}
	return 0;
}

/* The probe not run (why): each of the checks its expectations make (no
 * line probed: the events, not their counts, make the checks) skipped.  0,
 * or -1 (c->err). */
static int chan_skip(struct vctx *c, const char *why)
{
	struct vxset *xs = vx_new(c, "chan");
	const struct chan_case k = { NULL, 0, 1 % c->g.channels, vhome(c), c->o.brk };
	if (!xs)
		return -1;
	if (vgen_of(c)->chan(&c->g, &k, xs) != 0) {
		snprintf(c->err, sizeof(c->err), "%s", xs->err);
		free(xs);
		return -1;
	}
	vskip_n(c, vx_count(xs), "%s", why);
	free(xs);
	return 0;
}

int exp_chan(struct vctx *c)
{
	if (!c->sim)
		return chan_skip(c, "chan: the hardware's channel interleave is undocumented; probe "
				 "needs the emulated map");
	int ch = c->g.channels, s = vhome(c), target = 1 % ch;
	size_t bytes = c->o.quick ? (1u << 20) : (8u << 20);
	struct karr x;
	struct karr *const arrs[1] = { &x };
	struct parg p = { &x, NULL, 0, 0 };
	uint64_t *offs = NULL, *pas = NULL;
	struct vxset *xs;
	int rc;

	if (ch < 2)
		return chan_skip(c, "chan: one channel only");
	if ((rc = varr_alloc(c, &x, bytes, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &p)) != 0)
		goto out;
	offs = malloc(sizeof(*offs) * (bytes / 64));
	pas = malloc(sizeof(*pas) * (bytes / 64));
	if (!offs || !pas) {
		rc = PMON_ENOMEM;
		goto out;
	}
	if ((rc = probe_lines(c, &x, target, s, offs, pas, &p.n)) != 0)
		goto out;
	p.offs = offs;
	if (!(xs = vx_new(c, "chan"))) {
		rc = -1;
		goto out;
	}
	const struct chan_case k = { pas, p.n, target, s, c->o.brk };
	const struct vxkern kern = { probe_run, &p, arrs, 1 };
	if ((rc = vx_go(c, "chan", xs, vgen_of(c)->chan(&c->g, &k, xs), &kern, NULL)) == 0)
		vprogress(c, "  %-24s (%zu lines of %zu KiB on channel %d of socket %d)\n", "chan", p.n,
			  bytes >> 10, target, s);
out:
	free(offs);
	free(pas);
	varr_free(c, &x);
	return rc;
}
