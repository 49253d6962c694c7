/*
 * sim_pf_path.h - the four prefetchers of a Sandy Bridge core, each off
 * when its bit of the core's MSR 0x1A4 is set (struct sim_pcore.pf_dis),
 * and the loop over a batch of references that runs them.  A core with all
 * four off takes the loops of sim_core_path.h, which know nothing of them.
 * Included by sim_core_path.h only; doc/memory-model.md says what is
 * modeled and how it differs from silicon.
 *
 *   L2 adjacent line  an L2 miss of line L (a demand's or a DCU prefetch's)
 *                     also fetches L ^ 1, the other line of its 128-byte pair
 *   L2 streamer       per core, 32 pages tracked (least recently used
 *                     replaced); the second request from the L1 to a page
 *                     sets its direction; every request in that direction
 *                     then fetches up to two more lines past the furthest
 *                     fetched, at most SIM_PF_DIST lines ahead of the
 *                     request, never past the page
 *   DCU next line     a load of line L right after a load of L - 1 (of the
 *                     same stream) fetches L + 1 into the L1
 *   DCU IP stride     a load whose step from the stream's last load repeats
 *                     the previous step s fetches L + s into the L1
 * The L2's fetches are offcore PF_DATA_RD / PF_RFO (an RFO when the request
 * that triggered them was one) with TOR opcode DRd / RFO, into the L2; the
 * L1's that miss the L2 are demand data reads (the SDM counts the DCU's
 * prefetches under DMND_DATA_RD), TOR opcode DRd.  A fetch lands in the
 * cache like a demand's: LLC lookups, TOR inserts, snoops, DRAM reads.
 */
#ifndef PMON_SIM_PF_PATH_H
#define PMON_SIM_PF_PATH_H

#pragma GCC visibility push(hidden)

#define SIM_PF_DIST 20          /* the streamer runs up to 20 lines ahead */

/* An L2 prefetcher's fetch of line into the L2 (rfo: for ownership; n: the
 * prefetcher's count), when the L2 lacks it and the machine has it. */
static void l2_prefetch(struct sim_ctx *x, uint64_t line, int rfo, uint64_t *n)
{
	struct sim_llc_res r;
	struct sim_set s2 = cache_set(&x->pc->l2, line);

	if (set_find(&s2, line) >= 0 || sim_line_home(x->sim, line) >= x->sim->shape.sockets)
		return;
	x->t->prefetches++;
	(*n)++;
	sim_llc_request(x, line, rfo, &r);
	offcore(x, rfo ? SIM_RSP_PF_RFO : SIM_RSP_PF_DATA_RD, &r);
	l2_fill(x, &s2, line, r.grant == SIM_M ? SIM_E : r.grant, x->pc->l1.ways);
}

/* The streamer sees a request from the L1 for line. */
static void streamer(struct sim_ctx *x, uint64_t line, int rfo)
{
	struct sim_pcore *pc = x->pc;
	uint64_t key = (line >> 6) + 1;
	int off = (int)(line & 63), d, dir;
	struct sim_pf_page *e = NULL, *old = &pc->pf[0];
	uint32_t now = ++pc->pf_clock;
	int free = 0;

	for (int i = 0; i < SIM_PF_PAGES; i++) {
		struct sim_pf_page *p = &pc->pf[i];
		if (p->page == key) {
			e = p;
			break;
		}
		if (!p->page && !free) {          /* a free entry first */
			old = p;
			free = 1;
		} else if (!free && (int32_t)(p->age - old->age) < 0) {
			old = p;
		}
	}
	if (!e) {                         /* a new page: its stream not yet known */
		*old = (struct sim_pf_page){ key, now, (int8_t)off, (int8_t)off, 0 };
		return;
	}
	e->age = now;
	d = off - e->last;
	if (!d)
		return;
	dir = d > 0 ? 1 : -1;
	if (dir != e->dir) {              /* the stream starts, or turns */
		e->dir = (int8_t)dir;
		e->ahead = (int8_t)off;
	}
	e->last = (int8_t)off;
	if ((e->ahead - off) * dir < 0)   /* the requests overtook the fetches */
		e->ahead = (int8_t)off;
	for (int k = 0; k < 2; k++) {
		int nx = e->ahead + dir;
		if (nx < 0 || nx > 63 || (nx - off) * dir > SIM_PF_DIST)
			break;
		e->ahead = (int8_t)nx;
		l2_prefetch(x, (line & ~63ull) + (uint64_t)nx, rfo, &x->t->pf_streamer);
	}
}

/* A request from the L1 reached the L2 (missed: it missed there too). */
static void l2_train(struct sim_ctx *x, uint64_t line, int rfo, int missed)
{
	unsigned dis = x->pc->pf_dis;

	if (missed && !(dis & SIM_PF_NO_ADJACENT))
		l2_prefetch(x, line ^ 1, rfo, &x->t->pf_adjacent);
	if (!(dis & SIM_PF_NO_STREAMER))
		streamer(x, line, rfo);
}

/* A DCU prefetcher's fetch of line into the L1 (n: its count): from the
 * L2, or past it as a demand data read; the L2's prefetchers see it. */
static void l1_prefetch(struct sim_ctx *x, uint64_t line, uint64_t *n)
{
	struct sim_pcore *pc = x->pc;
	struct sim_set s1 = cache_set(&pc->l1, line), s2;
	int w;

	if (set_find(&s1, line) >= 0 || sim_line_home(x->sim, line) >= x->sim->shape.sockets)
		return;
	(*n)++;
	s2 = cache_set(&pc->l2, line);
	w = set_find(&s2, line);
	if (w >= 0) {
		set_touch(&s2, w);            /* the line is in lane 0 now */
		l1_fill(pc, &s1, line, e_st(s2.e[0]), pc->l2.ways);
		l2_train(x, line, 0, 0);
		return;
	}
	struct sim_llc_res r;
	x->t->pf_dcu_l2++;
	sim_llc_request(x, line, 0, &r);
	offcore(x, SIM_RSP_DEMAND_DATA_RD, &r);
	l2_fill(x, &s2, line, r.grant, pc->l1.ways);
	l1_fill(pc, &s1, line, r.grant, pc->l2.ways);
	l2_train(x, line, 0, 1);
}

/* The DCU prefetchers see a load of line by thread th.  Silicon's IP
 * prefetcher keys its strides by the load instruction; the references
 * carry none, so a thread's loads are split into streams instead: a load
 * continues the stream whose last line is nearest, within 32 lines (2 KiB,
 * the IP prefetcher's longest stride), or starts one (8 per thread, least
 * recently used replaced). */
static void dcu_train(struct sim_ctx *x, struct sim_thread *th, uint64_t line)
{
	unsigned dis = x->pc->pf_dis;
	struct sim_pf_stride *e = NULL, *old = &th->ip[0];
	uint64_t key = line + 1, best = 33;
	uint32_t now = ++th->ip_clock;
	int64_t d;
	int free = 0;

	for (int i = 0; i < SIM_PF_STRIDES; i++) {
		struct sim_pf_stride *s = &th->ip[i];
		if (s->last) {
			uint64_t dist = s->last > key ? s->last - key : key - s->last;
			if (dist < best) {
				best = dist;
				e = s;
			}
			if (!free && (int32_t)(s->age - old->age) < 0)
				old = s;
		} else if (!free) {               /* a free entry first */
			old = s;
			free = 1;
		}
	}
	if (!e) {
		*old = (struct sim_pf_stride){ key, 0, now, 0 };
		return;
	}
	e->age = now;
	d = (int64_t)(key - e->last);
	if (!d)
		return;                       /* the same line again */
	e->conf = d == e->stride;
	e->stride = d;
	e->last = key;
	if (d == 1 && !(dis & SIM_PF_NO_DCU_NEXT) && ((line + 1) & 63))
		l1_prefetch(x, line + 1, &x->t->pf_dcu_next);
	if (e->conf && !(dis & SIM_PF_NO_DCU_IP)) {
		uint64_t to = line + (uint64_t)d;
		if ((to >> 6) == (line >> 6))
			l1_prefetch(x, to, &x->t->pf_dcu_ip);
	}
}

/* The references of a batch with the core's prefetchers on: each access,
 * then what the prefetchers make of it. */
static __attribute__((noinline)) void run_pf(struct pmon_sim *sim, int cpu, const uint64_t *ref,
					     size_t n)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_pcore *pc = &sim->pcore[th->gcore];
	struct pmon_sim_cache_truth *t = &th->ctruth;
	int dcu = (pc->pf_dis & (SIM_PF_NO_DCU_NEXT | SIM_PF_NO_DCU_IP)) !=
		  (SIM_PF_NO_DCU_NEXT | SIM_PF_NO_DCU_IP);

	for (size_t i = 0; i < n; i++) {
		uint64_t line = ref[i] >> 2;
		int kind = (int)(ref[i] & 3);
		uint64_t l1m = t->l1_miss[kind & 1];
		int missed = line_access(sim, th, cpu, pc, line, kind, pc->l1.ways, pc->l2.ways, 0);

		if (kind == PMON_SIM_NT_STORE)
			continue;             /* streaming stores bypass the prefetchers */
		struct sim_ctx x = ctx_of(sim, th, cpu, pc);
		if (t->l1_miss[kind] != l1m)
			l2_train(&x, line, kind == PMON_SIM_STORE, missed);
		if (dcu && kind == PMON_SIM_LOAD)
			dcu_train(&x, th, line);
	}
}

#pragma GCC visibility pop

#endif
