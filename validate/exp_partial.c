/*
 * exp_partial.c - partial-line streaming stores: the kernel writes the
 * first half (32 bytes) of each of n consecutive lines with streaming
 * stores and nothing else of them, from one thread, memory on its own
 * socket (the emulated machine does not model a partial write to a remote
 * home), caches clean and empty at the window's start.  What the uncore
 * counts is the generation's (vgen.h: gen_snbep_partial.c), run by vx_run.
 */
#include "vgen.h"

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

static int part_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	(void)w;
	return vpar(c, 1, c->cpus, part_work, arg);
}

static void init_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct parg *p = arg;
	size_t lo, hi;
	vchunk(p->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, p->x, 1.0, lo, hi);
}

int exp_partial(struct vctx *c)
{
	int s = c->o.socket, rc;
	size_t n = c->o.quick ? 1024 : 4096;
	struct karr x;
	struct karr *const arrs[1] = { &x };
	struct parg p = { &x, n };
	struct vxset *xs;

	if ((rc = varr_alloc(c, &x, 64 * n, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &p)) != 0)
		goto out;
	if (!(xs = vx_new(c, "partial"))) {
		rc = -1;
		goto out;
	}
	const struct partial_case k = { n, s, c->hw, c->o.brk };
	const struct vxkern kern = { part_run, &p, arrs, 1 };
	rc = vx_go(c, "partial-nt", xs, vgen_of(c)->partial(&c->g, &k, xs), &kern, NULL);
	if (rc == 0)
		vprogress(c, "  %-24s (%zu half lines written with streaming stores)\n", "partial", n);
out:
	varr_free(c, &x);
	return rc;
}
