/*
 * exp_share.c - sharing between cores and between sockets (kern_share.c):
 *   share-pingpong-core    two cores of the local socket take turns on one
 *                          line (a load and a store a turn);
 *   share-pingpong-socket  the same between a core of the local socket and
 *                          one of the remote socket, the line homed locally;
 *   share-prodcons         a local producer writes and reads lines that a
 *                          remote consumer then reads (forwards of Modified
 *                          and of clean lines), and a sweep of twice the LLC
 *                          evicts the local socket's copies (victims by
 *                          state).
 * What the uncore and the cores count is the generation's (vgen.h:
 * gen_snbep_share.c, the coherence protocol step by step), run by vx_run.
 */
#include <stdlib.h>
#include <string.h>

#include "vgen.h"

/* The shared line: the last of a page (a next-line or streaming prefetcher
 * finds nothing ahead of it in the page), the page's other lines untouched. */
#define PP_OFF (4096 - 64)

struct pp {
	struct karr *x;
	int cpus[2];
	uint64_t next;           /* the counter's value where the next round starts */
	uint64_t rounds;
};

static void pp_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct pp *p = arg;
	(void)n;
	KCALL(c, pingpong, f, p->x, PP_OFF, t, p->next, p->rounds);
}

/* Emulated: both turns from one host thread (pingpong_both_emu), the
 * second CPU's feed made here. */
static void pp_both(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct pp *p = arg;
	struct kfeed *g = malloc(sizeof(*g));
	(void)t;
	(void)n;
	if (!g) {
		f->err = PMON_ENOMEM;
		return;
	}
	kfeed_init(g, c->sim, p->cpus[1]);
	struct kfeed *const fs[2] = { f, g };
	pingpong_both_emu(fs, p->x, PP_OFF, p->next, p->rounds);
	kfeed_flush(g);
	f->fed += g->fed;
	if (g->err && !f->err)
		f->err = g->err;
	free(g);
}

static int pp_rounds(struct vctx *c, void *arg)
{
	struct pp *p = arg;
	int rc = c->sim ? vpar(c, 1, p->cpus, pp_both, p) : vpar_free(c, 2, p->cpus, pp_work, p);
	uint64_t now = __atomic_load_n((uint64_t *)((char *)p->x->host + PP_OFF), __ATOMIC_ACQUIRE);
	p->next += 2 * p->rounds;
	if (rc == 0 && !c->planning && now != p->next) {
		snprintf(c->err, sizeof(c->err), "pingpong: counter %llu after the rounds, want %llu",
			 (unsigned long long)now, (unsigned long long)p->next);
		return -1;
	}
	return rc;
}

static int pp_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	(void)w;
	return pp_rounds(c, arg);
}

/* The ping-pong between cpus a and b (kind SHARE_CORE or SHARE_SOCKET),
 * after a warm-up to the steady state. */
static int pp_one(struct vctx *c, struct karr *x, enum share_kind kind, int a, int b)
{
	const char *kname = kind == SHARE_CORE ? "share-pingpong-core" : "share-pingpong-socket";
	struct pp p = { x, { a, b }, 0, 4 };
	struct vxset *xs;
	int rc;

	if ((rc = pp_rounds(c, &p)) != 0)      /* warm-up: the steady state */
		return rc;
	p.rounds = c->o.quick ? 256 : 1024;
	if (!(xs = vx_new(c, kname)))
		return -1;
	const struct share_case k = { kind, c->o.socket, vremote(c), a, b, p.rounds, 0, 0, 0, NULL,
				      c->hw, c->o.brk };
	const struct vxkern kern = { pp_run, &p, NULL, 0 };
	return vx_go(c, kname, xs, vgen_of(c)->share(&c->g, &k, xs), &kern, NULL);
}

/* ------------------------------------------------------ producer/consumer */
struct pc {
	struct karr *w, *m, *e, *f, *y;   /* written, written+consumed, read, read+consumed, sweep */
	size_t n, nf, ny;                 /* lines of w, m, e; of f; of y */
	int prod, cons;
	double sum;
	struct karr *all[5];
};

static void pc_prod(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct pc *p = arg;
	(void)t;
	(void)n;
	KCALL(c, lines_write, f, p->w, p->n, 1.0);
	KCALL(c, lines_write, f, p->m, p->n, 2.0);
	p->sum = KCALL(c, lines_read, f, p->e, p->n);
	p->sum += KCALL(c, lines_read, f, p->f, p->nf);
}

static void pc_cons(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct pc *p = arg;
	(void)t;
	(void)n;
	p->sum += KCALL(c, lines_read, f, p->m, p->n);
	p->sum += KCALL(c, lines_read, f, p->f, p->nf);
}

static void pc_sweep(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct pc *p = arg;
	(void)t;
	(void)n;
	p->sum += KCALL(c, lines_read, f, p->y, p->ny);
}

/* One run of the sequence, from clean caches (cleaned before the window). */
static int pc_seq(struct vctx *c, void *arg)
{
	struct pc *p = arg;
	int rc;
	p->sum = 0;
	if ((rc = vpar(c, 1, &p->prod, pc_prod, p)) || (rc = vpar(c, 1, &p->cons, pc_cons, p)) ||
	    (rc = vpar(c, 1, &p->prod, pc_sweep, p)))
		return rc;
	/* e and y hold 0.0, f 3.0; the consumer reads m (2.0) and f */
	double want = 3.0 * p->nf + 2.0 * p->n + 3.0 * p->nf;
	if (!c->planning && p->sum != want) {
		snprintf(c->err, sizeof(c->err), "prodcons: sum %g, want %g", p->sum, want);
		return -1;
	}
	return 0;
}

static int pc_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	(void)w;
	return pc_seq(c, arg);
}

/* The sweep's lines' physical addresses (the emulated machine's page
 * table), for the bound on what it leaves in the LLC; NULL on silicon and
 * while planning (the pages have no frames yet). */
static int sweep_pa(struct vctx *c, const struct karr *y, size_t ny, uint64_t **out)
{
	*out = NULL;
	if (c->hw || c->planning)
		return 0;
	uint64_t *pa = malloc(sizeof(*pa) * (ny ? ny : 1));
	for (size_t i = 0; pa && i < ny; i++)
		if (pmon_sim_mem_translate(c->sim, y->vbase + 64 * i, &pa[i]) != 0) {
			free(pa);
			pa = NULL;
		}
	if (!pa) {
		snprintf(c->err, sizeof(c->err), "prodcons: physical addresses of the sweep unknown");
		return -1;
	}
	*out = pa;
	return 0;
}

/* n: a sixteenth of the LLC, at most 4096 lines, in whole pairs of pages
 * (at least one pair), so that f (n / 2) is whole pages too: a prefetcher
 * fetches ahead within a page, and a buffer that ends mid-page would have
 * the rest of its last page fetched (on llc=64K, n 64 made f half a page:
 * 21 more clean forwards than f's lines). */
static size_t pc_lines(const struct vctx *c)
{
	size_t n = c->g.llc_bytes / 64 / 16;
	n = n > 4096 ? 4096 : n;
	n &= ~(size_t)127;
	return n < 128 ? 128 : n;
}

/* Home H = the local socket, producer on H, consumer on R; n lines of w, m
 * and e, nf = n/2 of f, ny of y = twice the LLC (the sequence:
 * gen_snbep_share.c). */
static int pc_all(struct vctx *c)
{
	int H = c->o.socket, rc;
	size_t n = pc_lines(c);
	struct karr w, m, e, f, y;
	struct pc p = { &w, &m, &e, &f, &y, n, n / 2, (size_t)(2 * c->g.llc_bytes / 64),
			c->cpus[0], c->rcpus[0], 0, { &w, &m, &e, &f, &y } };
	struct karr **all = p.all;
	size_t bytes[] = { 64 * n, 64 * n, 64 * n, 64 * p.nf, 64 * p.ny };
	int na = 0;
	for (na = 0; na < 5; na++)
		if ((rc = varr_alloc(c, all[na], bytes[na], VP_SOCKET, H)) != 0)
			goto out;
	/* Values (native stores; the window starts from clean caches). */
	memset(w.host, 0, bytes[0]);
	memset(m.host, 0, bytes[1]);
	memset(e.host, 0, bytes[2]);
	for (size_t i = 0; i < p.nf; i++)
		*(double *)((char *)f.host + 64 * i) = 3.0;
	memset(y.host, 0, bytes[4]);
	/* The first run places the pages (first touches) and makes the
	 * survivors' bound computable. */
	if ((rc = vwin_clean(c, p.all, 5)) != 0 || (rc = pc_seq(c, &p)) != 0)
		goto out;
	uint64_t *ypa;
	struct vxset *xs;
	if ((rc = sweep_pa(c, &y, p.ny, &ypa)) != 0)
		goto out;
	if (!(xs = vx_new(c, "share-prodcons"))) {
		free(ypa);
		rc = -1;
		goto out;
	}
	const struct share_case k = { SHARE_PRODCONS, H, vremote(c), p.prod, p.cons, 0, n, p.nf, p.ny,
				      ypa, c->hw, c->o.brk };
	const struct vxkern kern = { pc_run, &p, p.all, 5 };
	rc = vx_go(c, "share-prodcons", xs, vgen_of(c)->share(&c->g, &k, xs), &kern, NULL);
	free(ypa);
out:
	for (int i = 0; i < na; i++)
		varr_free(c, all[i]);
	return rc;
}

/* The checks the expectations make for the parts in mask (1 << kind) that
 * cannot run here: each is skipped, a check a skip (the pairs of CPUs and
 * the remote socket stand in for those the shape lacks; the events, not
 * their counts, make the checks).  0, or -1 (c->err). */
static int share_skip(struct vctx *c, unsigned mask, const char *why)
{
	struct vxset *xs = malloc(sizeof(*xs));
	int total = 0;
	if (!xs) {
		snprintf(c->err, sizeof(c->err), "share: out of memory");
		return -1;
	}
	for (int kind = SHARE_CORE; kind <= SHARE_PRODCONS; kind++) {
		if (!(mask >> kind & 1))
			continue;
		size_t n = pc_lines(c);
		const struct share_case k = { (enum share_kind)kind, c->o.socket, c->o.socket + 1,
					      c->cpus[0], c->cpus[0], c->o.quick ? 256 : 1024,
					      n, n / 2, 2 * c->g.llc_bytes / 64, NULL, c->hw,
					      c->o.brk };
		memset(xs, 0, sizeof(*xs));
		if (vgen_of(c)->share(&c->g, &k, xs) != 0) {
			snprintf(c->err, sizeof(c->err), "share: %s", xs->err);
			free(xs);
			return -1;
		}
		total += vx_count(xs);
	}
	free(xs);
	vskip_n(c, total, "%s", why);
	return 0;
}

int exp_share(struct vctx *c)
{
	struct karr x;
	int rc;

	if (c->nthreads < 2 && c->g.sockets < 2)
		return share_skip(c, 1u << SHARE_CORE | 1u << SHARE_SOCKET | 1u << SHARE_PRODCONS,
				  "share: one thread and one socket: no two cores to share a line");
	if ((rc = varr_alloc(c, &x, 4096, VP_SOCKET, c->o.socket)) != 0)
		return rc;
	memset(x.host, 0, 4096);
	if ((rc = vwin_clean(c, (struct karr *const[]){ &x }, 1)) != 0)
		goto out;
	if (c->nthreads >= 2)
		rc = pp_one(c, &x, SHARE_CORE, c->cpus[0], c->cpus[1]);
	else
		rc = share_skip(c, 1u << SHARE_CORE,
				"share-pingpong-core: one kernel thread: no second core of the socket");
	if (rc == 0 && c->g.sockets > 1) {
		/* The line starts again from memory, the counter from 0. */
		memset(x.host, 0, 4096);
		if ((rc = vwin_clean(c, (struct karr *const[]){ &x }, 1)) == 0 &&
		    (rc = pp_one(c, &x, SHARE_SOCKET, c->cpus[0], c->rcpus[0])) == 0)
			rc = pc_all(c);
	} else if (rc == 0) {
		rc = share_skip(c, 1u << SHARE_SOCKET | 1u << SHARE_PRODCONS,
				"share-pingpong-socket, share-prodcons: one socket");
	}
out:
	varr_free(c, &x);
	return rc;
}
