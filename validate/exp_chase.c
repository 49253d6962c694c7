/*
 * exp_chase.c - the pointer chase: one random cycle (Sattolo) over working
 * sets sized for L1, L2, the LLC and 8 x the LLC, in two orders:
 *   line  every hop goes to any line of the set (a random n-cycle of lines);
 *   page  pages in a random cycle, and within each page its 64 lines in a
 *         random cycle, all of a page before the next (few TLB pages live).
 * Each variant checks that the cycle visits every element once.  This file
 * runs the chase: it places and links the set, warms the caches, reads the
 * set's physical lines, and hands the case (xchase.h) to the generation's
 * expectations (gen_snbep_chase.c: per hop, LLC lookups, misses, DRAM
 * reads, offcore responses, the miss percentage and the latency), which
 * the runner (vx_run) counts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vgen.h"
#include "xchase.h"

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64*: a fixed seed gives the same cycle every run. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* Sattolo: a uniformly random single cycle over 0..n-1, as succ[]. */
static void sattolo(uint32_t *succ, uint32_t n, uint64_t *seed)
{
	for (uint32_t i = 0; i < n; i++)
		succ[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(rnd(seed) % i);
		uint32_t t = succ[i];
		succ[i] = succ[j];
		succ[j] = t;
	}
}

/* Link the elements of x (n lines) into one cycle; page: page-randomised. */
static int chase_build(struct chase_el *x, uint32_t n, int page, uint64_t run_seed, char *why,
		       size_t len)
{
	/* --seed 1 (the default) gives the orders of the suite's first runs. */
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ n ^ ((uint64_t)page << 40) ^
			((run_seed - 1) * 0xd1b54a32d192ed03ull);
	if (!seed)
		seed = 1;
	uint32_t *order = malloc(sizeof(*order) * n);
	uint32_t *succ = malloc(sizeof(*succ) * n);
	if (!order || !succ) {
		free(order);
		free(succ);
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!page || n < 128) {
		sattolo(succ, n, &seed);
		uint32_t e = 0;
		for (uint32_t k = 0; k < n; k++, e = succ[e])
			order[k] = e;
	} else {
		uint32_t np = n / 64, in[64], k = 0;
		sattolo(succ, np, &seed);
		for (uint32_t p = 0, i = 0; i < np; i++, p = succ[p]) {
			sattolo(in, 64, &seed);
			for (uint32_t l = 0, m = 0; m < 64; m++, l = in[l])
				order[k++] = p * 64 + l;
		}
		for (uint32_t r = np * 64; r < n; r++)     /* partial last page */
			order[k++] = r;
	}
	/* Every element once in the order: then the links below make one
	 * cycle through all n.  (Checked on the order, read in sequence:
	 * walking the links to check them cost a host cache miss a hop, 8% of
	 * the quick suite's time.) */
	unsigned char *seen = calloc(n, 1);
	uint32_t distinct = 0;
	if (!seen) {
		free(order);
		free(succ);
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (uint32_t k = 0; k < n; k++)
		if (order[k] < n && !seen[order[k]]) {
			seen[order[k]] = 1;
			distinct++;
		}
	free(seen);
	if (distinct != n) {
		free(order);
		free(succ);
		snprintf(why, len, "the chase order holds %u distinct of %u elements", distinct, n);
		return -1;
	}
	for (uint32_t k = 0; k < n; k++)
		x[order[k]].next = &x[order[(k + 1) % n]];
	free(order);
	free(succ);
	return 0;
}

struct carg {
	struct karr *x;
	uint64_t hops;
	struct chase_el *end;
};

static void chase_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct carg *a = arg;
	(void)t;
	(void)n;
	a->end = KCALL(c, chase, f, a->x, (struct chase_el *)a->x->host, a->hops);
}

/* Run a->hops hops from element 0; whole passes must end where they began. */
static int run_pass(struct vctx *c, struct carg *a)
{
	int rc = vpar(c, 1, c->cpus, chase_work, a);
	uint64_t n = a->x->bytes / 64;
	if (rc == 0 && !c->planning && a->hops % n == 0 && a->end != (struct chase_el *)a->x->host) {
		snprintf(c->err, sizeof(c->err), "chase did not come back to its start");
		rc = -1;
	}
	return rc;
}

/* The set's physical line numbers (physical address / 64), line i for its
 * i-th 64 bytes, from the machine's page table (pmon_sim_mem_translate, as
 * /proc/self/pagemap would give them on Linux); malloc'd, NULL if unknown. */
static uint64_t *phys_lines(struct vctx *c, const struct karr *x)
{
	uint64_t n = x->bytes / 64;
	uint64_t *line = malloc(sizeof(*line) * (n ? n : 1));
	if (!line || !c->sim) {
		free(line);
		return NULL;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t pa;
		if (pmon_sim_mem_translate(c->sim, x->vbase + i * 64, &pa) != 0) {
			free(line);
			return NULL;
		}
		line[i] = pa / 64;
	}
	return line;
}

/* A window of the chase: its units hops from element 0. */
static int chase_window(struct vctx *c, void *arg, const struct vxwin *w)
{
	struct carg part = *(struct carg *)arg;
	part.hops = w->units;
	return run_pass(c, &part);
}

/* The generation's expectations of one chase (level, order, home socket),
 * counted by the runner (vx_run). */
static int chase_one(struct vctx *c, const struct vgen *gen, enum chase_level lvl, int page,
		     int home)
{
	struct chase_case k = { .lvl = lvl, .page = page, .socket = c->o.socket, .home = home,
				.cpu = c->cpus[0], .hw = c->hw, .sim = c->sim != NULL,
				.planning = c->planning, .brk = c->o.brk };
	uint64_t ws = chase_ws_bytes(&c->g, lvl);
	uint32_t n = (uint32_t)(ws / 64);
	int run = chase_run_level(&c->g, lvl);
	struct vxset *xs = malloc(sizeof(*xs));
	struct vxres res;
	uint64_t *line = NULL;
	char kname[40];
	struct karr x;
	int rc;

	if (!xs) {
		snprintf(c->err, sizeof(c->err), "chase: out of memory");
		return -1;
	}
	chase_kname(&k, kname, sizeof(kname));
	if (run < 0) {
		/* not run: the expectations say which checks that skips */
		rc = gen->chase(&c->g, &k, xs) ? -1 : vx_run(c, kname, xs, NULL, NULL);
		if (rc && xs->err[0])
			snprintf(c->err, sizeof(c->err), "%s", xs->err);
		free(xs);
		return rc;
	}
	if ((rc = varr_alloc(c, &x, ws, VP_SOCKET, home)) != 0) {
		free(xs);
		return rc;
	}
	if (chase_build(x.host, n, page, c->o.seed, c->err, sizeof(c->err)) != 0) {
		varr_free(c, &x);
		free(xs);
		return -1;
	}
	/* Enough passes for at least ~1M hops in the small sets (quick: 64K). */
	uint64_t passes = (c->o.quick ? 65536 : 1048576) / n;
	passes = passes < 1 ? 1 : passes > 64 ? 64 : passes;
	struct carg a = { &x, (uint64_t)n * passes, NULL };
	double w0 = vnow_ns();

	/* Warm-up: one pass fills the caches that can hold the set.  The
	 * memory level needs none: from clean caches every hop misses, as it
	 * does in any later pass. */
	struct carg warm = { &x, n, NULL };
	if ((rc = vwin_clean(c, (struct karr *const[]){ &x }, 1)) ||
	    (run != CL_MEM && (rc = run_pass(c, &warm))))
		goto out;
	if (run != CL_MEM && c->sim && !c->planning)
		line = phys_lines(c, &x);
	k.hops = a.hops;
	k.line = line;
	k.base = x.host;
	k.vbase = x.vbase;
	if (gen->chase(&c->g, &k, xs) != 0) {
		snprintf(c->err, sizeof(c->err), "%s", xs->err);
		rc = -1;
		goto out;
	}
	struct karr *arrs[1] = { &x };
	struct vxkern kern = { chase_window, &a, arrs, 1 };
	if ((rc = vx_run(c, kname, xs, &kern, &res)) != 0)
		goto out;
	vprogress(c, "  %-24s %5.2f s  (%u lines = %.0f KiB, %.0f hops, %.1f ns/hop on this host%s)\n",
		  kname, (vnow_ns() - w0) * 1e-9, n, ws / 1024.0, (double)a.hops,
		  (res.t1[0] - res.t0[0]) / (double)a.hops, c->sim ? " feeding the model" : "");
out:
	free(line);
	free(xs);
	varr_free(c, &x);
	return rc;
}

int exp_chase(struct vctx *c)
{
	const struct vgen *gen = vgen_of(c);
	int rc = 0;
	for (int page = 0; page <= 1 && rc == 0; page++)
		for (int l = CL_L1; l <= CL_MEM && rc == 0; l++)
			rc = chase_one(c, gen, (enum chase_level)l, page, vhome(c));
	/* NUMA: the memory-sized line chase with its set on the other socket. */
	if (rc == 0 && (c->o.kernels >> VK_NUMA & 1) && c->g.sockets > 1 && !c->o.place_remote &&
	    vremote_ok(c, "chase-line-mem-remote")) {
		rc = chase_one(c, gen, CL_MEM, 0, vremote(c));
	} else if (rc == 0 && (c->o.kernels >> VK_NUMA & 1) && !c->o.place_remote) {
		/* A memory chase's checks, as its expectations make them. */
		struct chase_case k = { .lvl = CL_MEM, .socket = c->o.socket, .home = c->o.socket + 1,
					.cpu = c->cpus[0], .hw = c->hw, .sim = c->sim != NULL,
					.planning = 1, .brk = c->o.brk };
		struct vxset *xs = malloc(sizeof(*xs));
		if (!xs || gen->chase(&c->g, &k, xs) != 0) {
			snprintf(c->err, sizeof(c->err), "chase: %s", xs ? xs->err : "out of memory");
			free(xs);
			return -1;
		}
		vskip_n(c, vx_count(xs), "chase-line-mem-remote: one socket only, no remote memory");
		free(xs);
	}
	return rc;
}
