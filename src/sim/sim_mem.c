/*
 * sim_mem.c - the emulated machine's virtual memory: regions of 4 KiB
 * pages whose frames are taken at first touch from a socket's frames in a
 * fixed pseudo-random order; translation; the virtual traffic API.
 *
 * Frame order of a socket: frame k handed out = P(k), where P is a
 * permutation of [0, nframes): a 4-round Feistel network over the
 * smallest even number of bits b with 2^b >= nframes, keyed by the socket,
 * applied repeatedly until the value falls below nframes (cycle walking).
 * Freed frames are reused (last freed first) before new ones.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_clock.h"
#include "sim_traffic.h"
#include "sim_events.h"

#define PAGE 4096ull
#define VBASE (1ull << 32)            /* first virtual address handed out */

static uint64_t feistel(uint64_t x, int bits, uint32_t key)
{
	int half = bits / 2;
	uint64_t mask = (1ull << half) - 1, l = x >> half, r = x & mask;

	for (uint32_t round = 0; round < 4; round++) {
		uint64_t f = ((r + key + round * 0x9E3779B9u) * 0xD6E8FEB86659FD93ull) >> 29;
		uint64_t t = l ^ (f & mask);
		l = r;
		r = t;
	}
	return (l << half) | r;
}

void sim_frames_init(struct sim_frames *f, uint64_t nframes, int socket)
{
	memset(f, 0, sizeof *f);
	f->nframes = nframes;
	f->bits = 2;
	while ((1ull << f->bits) < nframes)
		f->bits += 2;
	f->key = 0x5bd1e995u * (uint32_t)(socket + 1);
}

/* The next frame of a socket, or -1 when it has none left. */
static int64_t frame_take(struct sim_frames *f)
{
	uint64_t x;

	if (f->nfree)
		return (int64_t)f->free[--f->nfree];
	if (f->next >= f->nframes)
		return -1;
	x = f->next++;
	do
		x = feistel(x, f->bits, f->key);
	while (x >= f->nframes);
	return (int64_t)x;
}

static int frame_give(struct sim_frames *f, uint64_t frame)
{
	if (f->nfree == f->capfree) {
		size_t cap = f->capfree ? f->capfree * 2 : 1024;
		uint64_t *n = realloc(f->free, cap * sizeof *n);
		if (!n)
			return -1;
		f->free = n;
		f->capfree = cap;
	}
	f->free[f->nfree++] = frame;
	return 0;
}

void sim_mem_free_all(struct pmon_sim *sim)
{
	for (size_t i = 0; i < sim->nregions; i++)
		free(sim->regions[i].frame);
	free(sim->regions);
	sim->regions = NULL;
	sim->nregions = sim->capregions = 0;
	for (int s = 0; s < SIM_MAX_SOCKETS; s++)
		free(sim->sock[s].frames.free);
}

int pmon_sim_mem_alloc(pmon_sim_t *sim, uint64_t bytes, enum pmon_sim_place place, int socket,
		       uint64_t *vaddr)
{
	uint64_t pages = bytes / PAGE + (bytes % PAGE != 0);
	int rc = 0;

	if (!sim || !vaddr || !bytes || bytes > (1ull << 46) ||
	    (place != PMON_SIM_FIRST_TOUCH && place != PMON_SIM_ON_SOCKET &&
	     place != PMON_SIM_INTERLEAVE))
		return PMON_EINVAL;
	sim_lock(sim);
	if (place == PMON_SIM_ON_SOCKET && (socket < 0 || socket >= sim->shape.sockets)) {
		rc = PMON_EINVAL;
	} else if (pages > (uint64_t)sim->shape.sockets * sim->frames_total) {
		rc = PMON_ENOMEM;             /* more than the machine has */
	} else {
		if (sim->nregions == sim->capregions) {
			size_t cap = sim->capregions ? sim->capregions * 2 : 16;
			struct sim_region *n = realloc(sim->regions, cap * sizeof *n);
			if (!n)
				rc = PMON_ENOMEM;
			else {
				sim->regions = n;
				sim->capregions = cap;
			}
		}
		uint64_t *frame = rc ? NULL : calloc(pages, sizeof *frame);
		if (!rc && !frame)
			rc = PMON_ENOMEM;
		if (!rc) {
			struct sim_region *r = &sim->regions[sim->nregions++];
			if (!sim->vnext)
				sim->vnext = VBASE;
			r->base = sim->vnext;
			r->pages = pages;
			r->place = place;
			r->socket = socket;
			r->frame = frame;
			sim->vnext += (pages + 1) * PAGE;      /* a guard page between regions */
			sim->last_region = NULL;
			*vaddr = r->base;
		}
	}
	sim_unlock(sim);
	return rc;
}

int pmon_sim_mem_free(pmon_sim_t *sim, uint64_t vaddr)
{
	int rc = PMON_EINVAL;

	if (!sim)
		return PMON_EINVAL;
	sim_lock(sim);
	for (size_t i = 0; i < sim->nregions; i++) {
		struct sim_region *r = &sim->regions[i];
		if (r->base != vaddr)
			continue;
		for (uint64_t p = 0; p < r->pages; p++) {
			if (!r->frame[p])
				continue;
			uint64_t g = r->frame[p] - 1;        /* global frame number */
			int s = (int)(g / sim->frames_total);
			for (uint64_t l = 0; l < PAGE / 64; l++)
				sim_line_discard(sim, g * (PAGE / 64) + l);
			frame_give(&sim->sock[s].frames, g % sim->frames_total);
		}
		free(r->frame);
		sim->regions[i] = sim->regions[--sim->nregions];
		sim->last_region = NULL;
		rc = 0;
		break;
	}
	sim_unlock(sim);
	return rc;
}

static struct sim_region *region_of(const struct pmon_sim *sim, uint64_t vaddr)
{
	for (size_t i = 0; i < sim->nregions; i++) {
		struct sim_region *r = &sim->regions[i];
		if (vaddr >= r->base && vaddr - r->base < r->pages * PAGE)
			return r;
	}
	return NULL;
}

int pmon_sim_mem_translate(const pmon_sim_t *sim, uint64_t vaddr, uint64_t *paddr)
{
	int rc = PMON_EINVAL;

	if (!sim || !paddr)
		return PMON_EINVAL;
	sim_lock(sim);
	struct sim_region *r = region_of(sim, vaddr);
	if (r) {
		uint64_t f = r->frame[(vaddr - r->base) / PAGE];
		if (f) {
			*paddr = (f - 1) * PAGE + vaddr % PAGE;
			rc = 0;
		}
	}
	sim_unlock(sim);
	return rc;
}

/* The physical frame (global number) of a virtual page, taken now at first
 * touch by cpu.  -1: no frame left on the socket it must come from. */
static int64_t touch(struct pmon_sim *sim, struct sim_region *r, uint64_t page, int cpu)
{
	int s;
	int64_t f;

	if (r->frame[page])
		return (int64_t)r->frame[page] - 1;
	switch (r->place) {
	case PMON_SIM_ON_SOCKET: s = r->socket; break;
	case PMON_SIM_INTERLEAVE: s = (int)(page % (uint64_t)sim->shape.sockets); break;
	default: s = sim->cpu[cpu].sock; break;
	}
	if ((f = frame_take(&sim->sock[s].frames)) < 0)
		return -1;
	f += (int64_t)((uint64_t)s * sim->frames_total);
	r->frame[page] = (uint64_t)f + 1;
	return f;
}

/* Line number of a virtual line, taking its frame if needed; -1 no frame. */
static inline int64_t vline(struct pmon_sim *sim, uint64_t va, int cpu)
{
	uint64_t vpage = va / PAGE;

	if (vpage != sim->last_vpage || !sim->last_region) {
		struct sim_region *r = sim->last_region;
		if (!r || va < r->base || va - r->base >= r->pages * PAGE)
			r = region_of(sim, va);
		int64_t f = touch(sim, r, (va - r->base) / PAGE, cpu);
		if (f < 0)
			return -1;
		sim->last_region = r;
		sim->last_vpage = vpage;
		sim->last_pline = (uint64_t)f * (PAGE / 64);
	}
	return (int64_t)(sim->last_pline + (va % PAGE) / 64);
}

static int vrange_ok(const struct pmon_sim *sim, uint64_t va, uint64_t count)
{
	struct sim_region *r = sim->last_region;

	if (!r || va < r->base || va - r->base >= r->pages * PAGE)
		r = region_of(sim, va);

	return r && count <= (r->pages * PAGE - (va - r->base)) / 64;
}

/* count accesses of a rare kind (sim_special.c) to the lines from va, one
 * at a time (a split lock's next line translated too); stops at the first
 * that fails. */
static int vspecial(struct pmon_sim *sim, int cpu, uint64_t va, enum pmon_sim_kind kind,
		    uint64_t count)
{
	int rc = 0;

	for (uint64_t i = 0; !rc && i < count; i++) {
		int64_t l = vline(sim, va + i * 64, cpu), l2 = 0;
		if (l >= 0 && kind == PMON_SIM_SPLIT_LOCK)
			l2 = vline(sim, va + i * 64 + 64, cpu);
		if (l < 0 || l2 < 0)
			return PMON_ENOMEM;
		rc = sim_special_access(sim, cpu, (uint64_t)l, (uint64_t)l2, kind);
	}
	return rc;
}

/* pmon_sim_vtraffic_refs with some references of a rare kind: runs of the
 * common kinds a batch at a time, the rare ones one at a time (checked). */
static int vrefs_mixed(struct pmon_sim *sim, int cpu, const uint64_t *refs, size_t n)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < n;) {
		uint64_t ref[SIM_BATCH];
		size_t k = 0;
		for (; k < SIM_BATCH && i < n && (refs[i] & 63) <= PMON_SIM_NT_STORE; k++, i++) {
			int64_t l = vline(sim, refs[i] & ~63ull, cpu);
			if (l < 0)
				return PMON_ENOMEM;
			ref[k] = (uint64_t)l << 2 | (refs[i] & 3);
		}
		if (k) {
			sim_lines_access(sim, cpu, ref, k);
		} else {
			rc = vspecial(sim, cpu, refs[i] & ~63ull, (enum pmon_sim_kind)(refs[i] & 63), 1);
			i++;
		}
	}
	return rc;
}

int pmon_sim_vtraffic(pmon_sim_t *sim, int cpu, uint64_t vaddr, enum pmon_sim_kind kind,
		      uint64_t count)
{
	int rc = 0;

	if (!sim)
		return PMON_EINVAL;
	sim_lock(sim);
	sim_clock_take(sim);
	vaddr &= ~63ull;
	if ((unsigned)kind > PMON_SIM_SPLIT_LOCK || cpu < 0 || cpu >= sim->ncpus)
		rc = PMON_EINVAL;
	else if (count && !vrange_ok(sim, vaddr, count + (kind == PMON_SIM_SPLIT_LOCK)))
		rc = PMON_ERANGE;         /* (a split lock's last line has a next) */
	else if (kind > PMON_SIM_NT_STORE)
		rc = vspecial(sim, cpu, vaddr, kind, count);
	/* translated a batch at a time (a page's frame taken at its first
	 * touch, in access order); a failed translation ends the call after
	 * the accesses before it */
	for (uint64_t i = 0; !rc && kind <= PMON_SIM_NT_STORE && i < count;) {
		uint64_t ref[SIM_BATCH];
		size_t k = 0;
		for (; k < SIM_BATCH && i < count; k++, i++) {
			int64_t l = vline(sim, vaddr + i * 64, cpu);
			if (l < 0) {
				rc = PMON_ENOMEM;
				break;
			}
			ref[k] = (uint64_t)l << 2 | (uint64_t)kind;
		}
		sim_lines_access(sim, cpu, ref, k);
	}
	sim_pend_flush(sim);
	sim_unlock(sim);
	return rc;
}

int pmon_sim_vtraffic_refs(pmon_sim_t *sim, int cpu, const uint64_t *refs, size_t n)
{
	int rc = 0;

	if (!sim || (n && !refs))
		return PMON_EINVAL;
	sim_lock(sim);
	sim_clock_take(sim);
	if (cpu < 0 || cpu >= sim->ncpus)
		rc = PMON_EINVAL;
	/* every reference checked before any is modelled: first at once (the
	 * lowest and highest address in one region, no bad kind), else one by
	 * one for the first one wrong (base, span: the region of the last
	 * one) */
	_Static_assert(PMON_SIM_NT_STORE == 2, "common kinds 0..2 (badk below)");
	uint64_t lo = ~0ull, hi = 0, badk = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = refs[i];
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		badk |= (r & 63) + (64 - 3);      /* bit 6 set for r & 63 above 2 */
	}
	badk &= 64;
	const struct sim_region *all = n && !badk ? region_of(sim, lo & ~63ull) : NULL;
	int checked = all && (hi & ~63ull) - all->base < all->pages * PAGE;
	/* (a rare kind takes this way: vrefs_mixed models the call; a split
	 * lock's next line must be in its region too) */
	uint64_t base = 1, span = 0;
	int rare = 0;
	for (size_t i = 0; !rc && !checked && i < n; i++) {
		uint64_t va = refs[i] & ~63ull, kind = refs[i] & 63;
		if (kind > PMON_SIM_SPLIT_LOCK) {
			rc = PMON_EINVAL;
			continue;
		}
		rare |= kind > PMON_SIM_NT_STORE;
		if (va - base >= span) {
			const struct sim_region *r = region_of(sim, va);
			if (!r)
				rc = PMON_ERANGE;
			else
				base = r->base, span = r->pages * PAGE;
		}
		if (!rc && kind == PMON_SIM_SPLIT_LOCK && va + 64 - base >= span)
			rc = PMON_ERANGE;
	}
	if (!rc && rare) {
		rc = vrefs_mixed(sim, cpu, refs, n);
		n = 0;
	}
	/* translated a batch at a time; the page of the last reference in
	 * locals (vline takes a page's frame at its first touch).  A
	 * reference is va | kind (va 64-byte aligned, kind below 4), so
	 * ref >> 4 is va / 64 * 4, and a page's lines are that plus off. */
	uint64_t vpage = ~0ull, off = 0;
	for (size_t i = 0; !rc && i < n;) {
		uint64_t ref[SIM_BATCH];
		size_t k = 0, m = n - i < SIM_BATCH ? n - i : SIM_BATCH;
		for (; k < m; k++, i++) {
			uint64_t r = refs[i];
			if (r / PAGE != vpage) {
				int64_t l = vline(sim, r & ~63ull, cpu);
				if (l < 0) {
					rc = PMON_ENOMEM;
					break;
				}
				vpage = r / PAGE;
				off = ((uint64_t)l << 2) - (r >> 4);
			}
			ref[k] = (r >> 4) + off + (r & 3);    /* line << 2 | kind */
		}
		sim_lines_access(sim, cpu, ref, k);
	}
	sim_pend_flush(sim);
	sim_unlock(sim);
	return rc;
}

int pmon_sim_flush_caches(pmon_sim_t *sim)
{
	if (!sim)
		return PMON_EINVAL;
	sim_lock(sim);
	sim_clock_take(sim);
	sim->pend_direct = 0;                 /* many write-backs: queue them */
	sim_flush(sim);
	sim_pend_flush(sim);
	sim_unlock(sim);
	return 0;
}
