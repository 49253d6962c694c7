/*
 * exp_lock.c - the UBox beyond its clock: bus-lock sequences.  From one
 * thread on the local socket, n locked adds, each across a line boundary
 * (lock-split), then n within a line (lock-aligned), the words 128 bytes
 * apart in memory of the thread's socket.  What the uncore counts is the
 * generation's (vgen.h: gen_snbep_lock.c), run by vx_run.  The UBox's
 * other events count interrupts and uncore-to-core signals, which no kernel
 * drives: EVENT_MSG and U2C_EVENTS are not validated (the report says so).
 */
#include <string.h>

#include "vgen.h"

struct larg {
	struct karr *x;
	size_t n;
	int split;
};

static void lock_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct larg *l = arg;
	(void)t;
	(void)n;
	KCALL(c, locked_add, f, l->x, l->n, l->split);
}

static void zero_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct larg *l = arg;
	size_t lo, hi;
	vchunk(l->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, l->x, 0.0, lo, hi);
}

/* Every word got its add: each window adds 1 to each of its n words. */
static int words_check(struct vctx *c, const struct larg *l, uint32_t want)
{
	const char *x = l->x->host;
	for (size_t i = 0; i < l->n && !c->planning; i++) {
		uint32_t v;
		memcpy(&v, x + 128 * i + (l->split ? 62 : 0), sizeof(v));
		if (v != want) {
			snprintf(c->err, sizeof(c->err), "lock: word %zu holds %u after the adds, want %u",
				 i, v, want);
			return -1;
		}
	}
	return 0;
}

/* A window: the adds across lines (tag 1) or within one (tag 0). */
static int lock_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	struct larg *l = arg;
	l->split = w->tag;
	return vpar(c, 1, c->cpus, lock_work, l);
}

int exp_lock(struct vctx *c)
{
	int s = c->o.socket, rc;
	size_t n = c->o.quick ? 512 : 2048;
	struct karr x;
	struct larg l = { &x, n, 1 };
	struct vxset *xs;

	if ((rc = varr_alloc(c, &x, 128 * n, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, zero_work, &l)) != 0)
		goto out;
	if (!(xs = vx_new(c, "lock"))) {
		rc = -1;
		goto out;
	}
	const struct lock_case k = { n, s, vremote(c), c->hw, c->o.brk };
	const struct vxkern kern = { lock_run, &l, NULL, 0 };
	if ((rc = vx_go(c, "lock", xs, vgen_of(c)->lock(&c->g, &k, xs), &kern, NULL)) != 0)
		goto out;
	l.split = 1;
	if ((rc = words_check(c, &l, 1)) != 0)
		goto out;
	l.split = 0;
	if ((rc = words_check(c, &l, 1)) != 0)
		goto out;
	vprogress(c, "  %-24s (%zu locked adds across lines, %zu within)\n", "lock", n, n);
	if (!c->planning)
		vnote(c, "UBox: LOCK_CYCLES validated; EVENT_MSG (interrupts, VLW) and U2C_EVENTS "
		      "not validated: no kernel drives interrupts or uncore-to-core signals");
out:
	varr_free(c, &x);
	return rc;
}
