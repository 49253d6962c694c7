/*
 * exp_lock.c - the UBox beyond its clock: bus-lock sequences.
 *
 * A locked read-modify-write whose operand spans two cache lines cannot be
 * done in the core's cache: the core asks the uncore for a bus lock, and
 * the UBox of its socket counts each sequence started (LOCK_CYCLES, the
 * guide's "number of times an IDI Lock/SplitLock sequence was started";
 * despite the name, sequences, not cycles).  A locked operation within one
 * line is a cache lock, no sequence.  So, from one thread on the local
 * socket:
 *   lock-split    n locked adds, each across a line boundary: LOCK_CYCLES
 *                 of the socket = n;
 *   lock-aligned  n locked adds within a line: LOCK_CYCLES = 0.
 * The words are 128 bytes apart in memory of the thread's socket.  On
 * silicon other agents' bus locks (rare: Linux warns about split locks)
 * add to the count.  The UBox's other events count interrupts and
 * uncore-to-core signals, which no kernel drives: EVENT_MSG and
 * U2C_EVENTS are not validated (the report says so).
 */
#include <string.h>

#include "vspec.h"

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

static int lock_run(struct vctx *c, void *arg)
{
	return vpar(c, 1, c->cpus, lock_work, arg);
}

static void zero_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct larg *l = arg;
	size_t lo, hi;
	vchunk(l->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, l->x, 0.0, lo, hi);
}

/* Every word got its n adds: each window adds 1 to each of its n words. */
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

int exp_lock(struct vctx *c)
{
	int s = c->o.socket, r = vremote(c), rc;
	size_t n = c->o.quick ? 512 : 2048;
	struct karr x;
	struct larg l = { &x, n, 1 };

	if ((rc = varr_alloc(c, &x, 128 * n, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, zero_work, &l)) != 0)
		goto out;
	const struct vband hwb = { 1, 1.05, "silicon: other agents' bus locks in the socket meanwhile "
				   "add a few (Linux warns about split locks: rare)" };
	/* --break=lock: the lock counted in the other socket's UBox (which
	 * sees none; with one socket, an interrupt event instead) */
	char bfmt[96];
	if (r != s)
		snprintf(bfmt, sizeof(bfmt), "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", r);
	else
		snprintf(bfmt, sizeof(bfmt), "snbep_unc_ubo::UNC_U_EVENT_MSG:IPI_RCVD:socket=%d", s);
	const struct vspec split[] = {
		{ VS_ONE, "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", s, 1,
		  "UBox LOCK_CYCLES (split locks)", VS_EXACT, VB_LOCK, bfmt },
	};
	if ((rc = vspec_window(c, "lock-split", split, 1, (double)n, "locks", hwb, NULL, lock_run,
			       &l)))
		goto out;
	if ((rc = words_check(c, &l, 1)) != 0)
		goto out;
	l.split = 0;
	const struct vspec aligned[] = {
		{ VS_ONE, "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", s, 0,
		  "UBox LOCK_CYCLES (locks within a line)", VS_EXACT, VB_NONE, NULL },
	};
	if ((rc = vspec_window(c, "lock-aligned", aligned, 1, (double)n, "locks", hwb, NULL, lock_run,
			       &l)))
		goto out;
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
