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

/* Bits of the n keys k[0..n) (n a multiple of 8) equal to key: key i, bit
 * i; eight compared at a time (AVX-512) or one. */
SIM_HOT uint32_t keys_equal(const uint64_t *k, int n, uint64_t key)
{
	uint32_t m = 0;
#if defined(__AVX512F__)
	__m512i v = _mm512_set1_epi64((long long)key);

	for (int i = 0; i < n; i += 8)
		m |= (uint32_t)_mm512_cmpeq_epi64_mask(_mm512_loadu_si512(k + i), v) << i;
#else
	for (int i = 0; i < n; i++)
		m |= (uint32_t)(k[i] == key) << i;
#endif
	return m;
}

/* The page the streamer tracks whose key is key (line >> 6, + 1), or -1
 * (at most one matches). */
SIM_HOT int pf_page_find(const struct sim_pf_pages *pf, uint64_t key)
{
	uint32_t m = keys_equal(pf->page, SIM_PF_PAGES, key);

	return m ? __builtin_ctz(m) : -1;
}

/* The entry a new page takes: the first free one, else the least recently
 * used, the one whose age is furthest behind the clock (ages are distinct:
 * one is set per tick).  Vectorised like pf_page_find. */
SIM_HOT int pf_page_victim(const struct sim_pf_pages *pf)
{
	uint32_t m = 0;
	int32_t lo = INT32_MAX;

	m = keys_equal(pf->page, SIM_PF_PAGES, 0);
	if (m)
		return __builtin_ctz(m);
	for (int i = 0; i < SIM_PF_PAGES; i++) {
		int32_t r = (int32_t)(pf->age[i] - pf->clock);
		lo = r < lo ? r : lo;
	}
	for (int i = 0; i < SIM_PF_PAGES; i++)
		m |= (uint32_t)((int32_t)(pf->age[i] - pf->clock) == lo) << i;
	return __builtin_ctz(m);
}

/* The streamer sees a request from the L1 for line. */
static void streamer(struct sim_ctx *x, uint64_t line, int rfo)
{
	struct sim_pf_pages *pf = &x->pc->pf;
	uint64_t key = (line >> 6) + 1;
	int off = (int)(line & 63), d, dir;
	uint32_t now = ++pf->clock;
	int e = pf_page_find(pf, key);

	if (e < 0) {                      /* a new page: its stream not yet known */
		e = pf_page_victim(pf);
		pf->page[e] = key;
		pf->age[e] = now;
		pf->last[e] = pf->ahead[e] = (int8_t)off;
		pf->dir[e] = 0;
		return;
	}
	pf->age[e] = now;
	d = off - pf->last[e];
	if (!d)
		return;
	dir = d > 0 ? 1 : -1;
	if (dir != pf->dir[e]) {          /* the stream starts, or turns */
		pf->dir[e] = (int8_t)dir;
		pf->ahead[e] = (int8_t)off;
	}
	pf->last[e] = (int8_t)off;
	if ((pf->ahead[e] - off) * dir < 0)       /* the requests overtook the fetches */
		pf->ahead[e] = (int8_t)off;
	for (int k = 0; k < 2; k++) {
		int nx = pf->ahead[e] + dir;
		if (nx < 0 || nx > 63 || (nx - off) * dir > SIM_PF_DIST)
			break;
		pf->ahead[e] = (int8_t)nx;
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

/* A DCU prefetcher's fetch of line into the L1 (s1: its L1 set, which
 * lacks it; n: the prefetcher's count): from the L2, or past it as a
 * demand data read; the L2's prefetchers see it. */
static __attribute__((noinline)) void l1_fetch(struct sim_ctx *x, uint64_t line,
					       const struct sim_set *s1, uint64_t *n)
{
	struct sim_pcore *pc = x->pc;
	struct sim_set s2;
	int w;

	(*n)++;
	s2 = cache_set(&pc->l2, line);
	w = set_find(&s2, line);
	if (w >= 0) {
		set_touch(&s2, w);            /* the line is in lane 0 now */
		l1_fill(pc, s1, line, e_st(s2.e[0]), pc->l2.ways);
		l2_train(x, line, 0, 0);
		return;
	}
	struct sim_llc_res r;
	x->t->pf_dcu_l2++;
	sim_llc_request(x, line, 0, &r);
	offcore(x, SIM_RSP_DEMAND_DATA_RD, &r);
	l2_fill(x, &s2, line, r.grant, pc->l1.ways);
	l1_fill(pc, s1, line, r.grant, pc->l2.ways);
	l2_train(x, line, 0, 1);
}

/* A DCU prefetcher's fetch of line into the L1 (n: its count; w1: the L1's
 * way count, a constant in the AVX-512 copy), when the L1 lacks it and the
 * machine has it. */
SIM_HOT void l1_prefetch(struct sim_ctx *x, uint64_t line, uint64_t *n, uint32_t w1)
{
	struct sim_set s1 = pcache_set_w(&x->pc->l1, line, w1);

	if (set_find(&s1, line) >= 0 || sim_line_home(x->sim, line) >= x->sim->shape.sockets)
		return;
	l1_fetch(x, line, &s1, n);
}

/* The stream a load of line continues: the one whose last line is
 * nearest, within 32 lines (the first such when two are as near), or -1.
 * Each entry's distance (33 when farther or free) and index make one
 * number, dist * 8 + index: the least is the answer.  Eight at once
 * (AVX-512) or one. */
SIM_HOT int pf_stride_find(const struct sim_pf_strides *ip, uint64_t key)
{
#if defined(__AVX512F__)
	__m512i v = _mm512_loadu_si512(ip->last), far = _mm512_set1_epi64(33);
	__m512i d = _mm512_abs_epi64(_mm512_sub_epi64(v, _mm512_set1_epi64((long long)key)));
	__mmask8 out = _mm512_cmpeq_epi64_mask(v, _mm512_setzero_si512()) |
		       _mm512_cmpgt_epi64_mask(d, far);
	d = _mm512_mask_blend_epi64(out, d, far);
	d = _mm512_add_epi64(_mm512_slli_epi64(d, 3), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
	long long best = _mm512_reduce_min_epi64(d);
#else
	long long best = 33 * 8;

	for (int i = 0; i < SIM_PF_STRIDES; i++) {
		int64_t l = (int64_t)ip->last[i], d = l - (int64_t)key;
		d = d < 0 ? -d : d;
		d = l == 0 || d > 33 ? 33 : d;
		d = d * 8 + i;
		best = d < best ? d : best;
	}
#endif
	return best < 33 * 8 ? (int)(best & 7) : -1;
}

/* The entry a new stream takes: the first free one, else the least
 * recently used (as pf_page_victim). */
SIM_HOT int pf_stride_victim(const struct sim_pf_strides *ip)
{
	uint32_t m = 0;
	int32_t lo = INT32_MAX;

	m = keys_equal(ip->last, SIM_PF_STRIDES, 0);
	if (m)
		return __builtin_ctz(m);
	for (int i = 0; i < SIM_PF_STRIDES; i++) {
		int32_t r = (int32_t)(ip->age[i] - ip->clock);
		lo = r < lo ? r : lo;
	}
	for (int i = 0; i < SIM_PF_STRIDES; i++)
		m |= (uint32_t)((int32_t)(ip->age[i] - ip->clock) == lo) << i;
	return __builtin_ctz(m);
}

/* The DCU prefetchers see a load of line by thread th.  Silicon's IP
 * prefetcher keys its strides by the load instruction; the references
 * carry none, so a thread's loads are split into streams instead: a load
 * continues the stream whose last line is nearest, within 32 lines (2 KiB,
 * the IP prefetcher's longest stride), or starts one (8 per thread, least
 * recently used replaced).  w1: the L1's way count. */
SIM_HOT void dcu_train(struct sim_ctx *x, struct sim_thread *th, uint64_t line, uint32_t w1)
{
	unsigned dis = x->pc->pf_dis;
	struct sim_pf_strides *ip = &th->ip;
	uint64_t key = line + 1;
	uint32_t now = ++ip->clock;
	int e = pf_stride_find(ip, key);
	int64_t d;

	if (e < 0) {
		e = pf_stride_victim(ip);
		ip->last[e] = key;
		ip->stride[e] = 0;
		ip->age[e] = now;
		ip->conf[e] = 0;
		return;
	}
	ip->age[e] = now;
	d = (int64_t)(key - ip->last[e]);
	if (!d)
		return;                       /* the same line again */
	ip->conf[e] = d == ip->stride[e];
	ip->stride[e] = d;
	ip->last[e] = key;
	if (d == 1 && !(dis & SIM_PF_NO_DCU_NEXT) && ((line + 1) & 63))
		l1_prefetch(x, line + 1, &x->t->pf_dcu_next, w1);
	if (ip->conf[e] && !(dis & SIM_PF_NO_DCU_IP)) {
		uint64_t to = line + (uint64_t)d;
		if ((to >> 6) == (line >> 6))
			l1_prefetch(x, to, &x->t->pf_dcu_ip, w1);
	}
}

/* The references of a batch with the core's prefetchers on: each access
 * (w1, w2, wl: the L1, L2 and LLC way counts, w1 and w2 constants in the
 * AVX-512 copy), then what the prefetchers make of it.  A load that hits the L1 trains the
 * DCU prefetchers alone; the L2's see only requests from the L1. */
SIM_HOT void run_pf(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n, uint32_t w1,
		    uint32_t w2, uint32_t wl)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_pcore *pc = &sim->pcore[th->gcore];
	struct pmon_sim_cache_truth *t = &th->ctruth;
	int dcu = (pc->pf_dis & (SIM_PF_NO_DCU_NEXT | SIM_PF_NO_DCU_IP)) !=
		  (SIM_PF_NO_DCU_NEXT | SIM_PF_NO_DCU_IP);

	int recent = th->pf_recent;

	for (size_t i = 0; i < n; i++) {
		uint64_t line = ref[i] >> 2;
		int kind = (int)(ref[i] & 3);
		uint64_t l1m = t->l1_miss[kind & 1];

		/* while accesses miss the L1, the LLC sets of a coming one and
		 * of its pair (the adjacent-line prefetcher's) into the host
		 * caches (as run_misses) */
		if (recent && i + SIM_LOOKAHEAD < n) {
			prefetch_llc(sim, th->sock, ref[i + SIM_LOOKAHEAD] >> 2, wl);
			prefetch_llc(sim, th->sock, (ref[i + SIM_LOOKAHEAD] >> 2) ^ 1, wl);
		}
		int missed = line_access(sim, th, cpu, pc, line, kind, w1, w2, 0);

		if (kind == PMON_SIM_NT_STORE)
			continue;             /* streaming stores bypass the prefetchers */
		struct sim_ctx x = ctx_of(sim, th, cpu, pc);
		if (t->l1_miss[kind] != l1m) {
			recent = 64;
			l2_train(&x, line, kind == PMON_SIM_STORE, missed);
		} else if (recent) {
			recent--;
		}
		if (dcu && kind == PMON_SIM_LOAD)
			dcu_train(&x, th, line, w1);
	}
	th->pf_recent = recent;
}

static __attribute__((noinline)) void run_pf_out(struct pmon_sim *sim, int cpu,
						 const uint64_t *ref, size_t n)
{
	const struct sim_pcore *pc = &sim->pcore[sim->cpu[cpu].gcore];

	run_pf(sim, cpu, ref, n, path_l1w(pc), path_l2w(pc), path_llcw(sim));
}

#pragma GCC visibility pop

#endif
