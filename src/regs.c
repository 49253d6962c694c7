/* regs.c - register addresses of a box instance and MSR/PCI access to them:
 * every register access of the engine goes through here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "regs.h"
#include "why.h"

#define IA32_PERF_GLOBAL_CTRL 0x38f

static int reg_exists(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx);
static int allowed_address(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx);

int pmon_regs_resolve(const struct pmon_machine *m, int pmu, int socket, int cpu,
		      struct pmon_box_regs *r)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (!p || socket < 0 || socket >= m->topo.nsockets || !m->loc[pmu][socket].present)
		return PMON_ENODEV;
	r->t = p->type;
	r->pmu = pmu;
	r->socket = socket;
	r->cpu = cpu >= 0 ? cpu : m->topo.socket_first_cpu[socket];
	r->pci = m->loc[pmu][socket].pci;
	r->extra = m->loc[pmu][socket].extra;
	r->has_extra = m->loc[pmu][socket].has_extra;
	return PMON_OK;
}

static uint32_t msr_addr(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx)
{
	const struct pmon_box_type *t = r->t;
	uint32_t base = t->msr_stride * (uint32_t)pmon_catalog_pmu(r->pmu)->instance;
	switch (k) {
	case REG_BOX_CTL: return t->msr_box_ctl + base;
	case REG_CTL: return t->msr_ctl0 + base + (uint32_t)idx;
	case REG_CTR: return t->msr_ctr0 + base + (uint32_t)idx;
	case REG_FIXED_CTL: return t->fixed_ctl;
	case REG_FIXED_CTR: return t->fixed_ctr;
	case REG_FILTER: return t->fregs[idx].msr + base;
	case REG_GLOBAL_CTL: return t->msr_glb_ctl;
	case REG_GLOBAL_OVF: return t->msr_glb_ovf;      /* written; read: msr_read_addr */
	}
	return 0;
}

/* Where a read of (k, idx) goes: the overflow bits are read from the
 * status register, written (cleared) through the overflow control. */
static uint32_t msr_read_addr(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx)
{
	return k == REG_GLOBAL_OVF ? r->t->msr_glb_status : msr_addr(r, k, idx);
}

static int counter_width(const struct pmon_box_regs *r, enum pmon_reg_kind k)
{
	return k == REG_FIXED_CTR ? r->t->fixed_width : r->t->width;
}

/* PCI: lo/hi dword offsets of a register (hi 0 = a single dword). */
static void pci_offsets(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx,
			uint16_t *lo, uint16_t *hi, int *extra)
{
	const struct pmon_box_type *t = r->t;
	*extra = 0;
	*hi = 0;
	switch (k) {
	case REG_BOX_CTL: *lo = t->pci_box_ctl; break;
	case REG_CTL: *lo = (uint16_t)(t->pci_ctl0 + 4 * idx); break;
	case REG_CTR: *lo = (uint16_t)(t->pci_ctr0 + 8 * idx); *hi = (uint16_t)(*lo + 4); break;
	case REG_FIXED_CTL: *lo = (uint16_t)t->fixed_ctl; break;
	case REG_FIXED_CTR: *lo = (uint16_t)t->fixed_ctr; *hi = (uint16_t)(*lo + 4); break;
	case REG_FILTER:
		*lo = t->fregs[idx].lo_off;
		*hi = t->fregs[idx].hi_off;
		*extra = t->fregs[idx].extra_dev;
		break;
	case REG_GLOBAL_CTL: case REG_GLOBAL_OVF: *lo = 0; break;   /* refused before */
	}
}

/* A PCI counter is two dwords, low first; a block read fetches them in
 * ascending order, so the low dword may carry into the high one between the
 * two reads, which then pairs the old low dword with the new high one (2^32
 * too much).  That needs the counter to advance by more than 2^32 - low
 * between them, and the backend reads a block within PMON_BLOCK_SPAN_NS
 * (access.h: 100 us, a slower read is made again), in which the fastest
 * counter (fold.h: 64 counts per cycle of a 4 GHz clock) adds 25.6 M, less
 * than PMON_TEAR_WINDOW: only a low dword within it of the carry is in
 * doubt.  Its counter is read once more: a low dword that has not gone down
 * means no carry since the first read (the first pair stands); one that went
 * down has just carried, and the second pair is far from the next carry, so
 * it stands. */
_Static_assert((uint64_t)PMON_BLOCK_SPAN_NS * (PMON_FOLD_MAX_HZ / 1000000000u) * PMON_FOLD_MAX_INC
	       < PMON_TEAR_WINDOW, "a block read's span must stay within the tear window");

/* The counter whose two dwords are dw[0..1] of a block read at off: tear-free
 * (see PMON_TEAR_WINDOW). */
static int pci_counter_of(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, const uint32_t *dw,
			  uint64_t *val, char *why, size_t whylen)
{
	uint32_t lo = dw[0], hi = dw[1], again[2];
	int rc;
	if (pmon_tear_possible(lo)) {
		if ((rc = a->ops->pci_read_block(a, d, off, again, 2, why, whylen)))
			return rc;
		if (again[0] < lo) {
			lo = again[0];
			hi = again[1];
		}
	}
	*val = (uint64_t)hi << 32 | lo;
	return PMON_OK;
}

/* The counter at off of d: one two-dword block, tear-free. */
static int pci_counter(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint64_t *val,
		       char *why, size_t whylen)
{
	uint32_t dw[2];
	int rc = a->ops->pci_read_block(a, d, off, dw, 2, why, whylen);
	return rc ? rc : pci_counter_of(a, d, off, dw, val, why, whylen);
}

static int missing_extra(const struct pmon_box_regs *r, char *why, size_t whylen)
{
	return pmon_why(why, whylen, PMON_ENODEV, "%s: the match/mask PCI function is missing",
			pmon_catalog_pmu(r->pmu)->name);
}

int pmon_reg_read(struct pmon_machine *m, const struct pmon_box_regs *r,
		  enum pmon_reg_kind k, int idx, uint64_t *val, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	int rc;
	if ((k == REG_GLOBAL_CTL || k == REG_GLOBAL_OVF) && !reg_exists(r, k, idx))
		return PMON_EINVAL;
	if (r->t->space != PMON_SPACE_PCI) {
		rc = a->ops->msr_read(a, r->cpu, msr_read_addr(r, k, idx), val, why, whylen);
		if (!rc && (k == REG_CTR || k == REG_FIXED_CTR))
			*val &= pmon_bits((unsigned)counter_width(r, k));
		return rc;
	}
	uint16_t lo, hi;
	int extra;
	pci_offsets(r, k, idx, &lo, &hi, &extra);
	if (extra && !r->has_extra)
		return missing_extra(r, why, whylen);
	pmon_pci_addr_t d = extra ? r->extra : r->pci;
	if (k == REG_CTR || k == REG_FIXED_CTR) {
		if ((rc = pci_counter(a, d, lo, val, why, whylen)))
			return rc;
		*val &= pmon_bits((unsigned)counter_width(r, k));
		return PMON_OK;
	}
	uint32_t l, h = 0;
	if ((rc = a->ops->pci_read(a, d, lo, &l, why, whylen)) ||
	    (hi && (rc = a->ops->pci_read(a, d, hi, &h, why, whylen))))
		return rc;
	*val = (uint64_t)h << 32 | l;
	return PMON_OK;
}

/* ------------------------------------------------------------ read plans */

/* arr (n items of size bytes, room for *cap) with room for one more: arr
 * itself, or a copy with twice the room (*cap updated); NULL when out of
 * memory (arr untouched). */
static void *room(void *arr, int *cap, int n, size_t size)
{
	if (n < *cap)
		return arr;
	int c = *cap ? 2 * *cap : 8;
	void *na = realloc(arr, size * (size_t)c);
	if (na)
		*cap = c;
	return na;
}

static struct pmon_plan_block *plan_block(struct pmon_reg_plan *p, const struct pmon_box_regs *r,
					  uint32_t first, uint32_t end)
{
	struct pmon_plan_block *nb = room(p->blk, &p->capblk, p->nblk, sizeof(*nb));
	if (!nb)
		return NULL;
	p->blk = nb;
	struct pmon_plan_block *b = &p->blk[p->nblk++];
	memset(b, 0, sizeof(*b));
	b->r = r;
	b->first = first;
	b->ndw = (int)(end - first) / 4;
	return b;
}

static int plan_msr(struct pmon_reg_plan *p, const struct pmon_box_regs *r, enum pmon_reg_kind k,
		    int idx, uint64_t *val)
{
	struct pmon_plan_msr *nm = room(p->msr, &p->capmsr, p->nmsr, sizeof(*nm));
	if (!nm)
		return PMON_ENOMEM;
	p->msr = nm;
	struct pmon_plan_msr *x = &p->msr[p->nmsr++];
	memset(x, 0, sizeof(*x));
	x->r = r;
	x->cpu = r->cpu;
	x->msr = msr_addr(r, k, idx);
	x->ctr.mask = pmon_bits((unsigned)counter_width(r, k));
	x->ctr.val = val;
	return PMON_OK;
}

/* Counter c of block b: the two dwords from its offset off, into *val. */
static void plan_ctr(struct pmon_plan_block *b, const struct pmon_box_type *t, int c, uint32_t off,
		     uint64_t *val)
{
	struct pmon_plan_ctr *x = &b->ctr[b->nctr++];
	x->dw = (uint16_t)((off - b->first) / 4);
	x->mask = pmon_bits(c == PMON_MAX_COUNTERS ? t->fixed_width : t->width);
	x->val = val;
	b->want |= 3ull << x->dw;
}

int pmon_reg_plan_box(struct pmon_reg_plan *p, const struct pmon_box_regs *r, uint32_t mask,
		      uint64_t *val, struct pmon_reg_also *also, int nalso, char *why, size_t whylen)
{
	const struct pmon_box_type *t = r->t;
	uint32_t mine = pmon_bits(t->ncounters) | (t->has_fixed ? PMON_FIXED_BIT : 0);
	uint32_t off[PMON_MAX_COUNTERS + 1], first = 0xFFFF, end = 0;
	int idx[PMON_MAX_COUNTERS + 1], n = 0, rc;
	for (int j = 0; j < nalso; j++)
		also[j].got = 0;
	if (!mask || (mask & ~mine))
		return pmon_why(why, whylen, PMON_EINVAL, "%s: counter set 0x%x is not the box's",
				pmon_catalog_pmu(r->pmu)->name, mask);
	for (int c = 0; c <= PMON_MAX_COUNTERS; c++) {
		if (!(mask & (1u << c)))
			continue;
		enum pmon_reg_kind k = c == PMON_MAX_COUNTERS ? REG_FIXED_CTR : REG_CTR;
		if (t->space != PMON_SPACE_PCI) {
			if ((rc = plan_msr(p, r, k, c, &val[c])))
				return pmon_why(why, whylen, rc, "out of memory");
			continue;
		}
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, k, c, &lo, &hi, &extra);
		off[n] = lo;
		idx[n++] = c;
		first = lo < first ? lo : first;
		end = lo + 8u > end ? lo + 8u : end;
	}
	if (!n)
		return PMON_OK;
	struct pmon_plan_block *b;
	if (end - first > PMON_PLAN_SPAN) {      /* far apart: one block each */
		for (int i = 0; i < n; i++) {
			if (!(b = plan_block(p, r, off[i], off[i] + 8)))
				return pmon_why(why, whylen, PMON_ENOMEM, "out of memory");
			plan_ctr(b, t, idx[i], off[i], &val[idx[i]]);
		}
		return PMON_OK;
	}
	uint16_t alo[sizeof(b->also) / sizeof(b->also[0])], ahi[sizeof(alo) / sizeof(alo[0])];
	for (int j = 0; j < nalso && j < (int)(sizeof(alo) / sizeof(alo[0])); j++) {
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, also[j].kind, also[j].idx, &lo, &hi, &extra);
		alo[j] = lo;
		ahi[j] = hi;
		uint32_t f = hi && hi < lo ? hi : lo, e = (hi > lo ? hi : lo) + 4u;
		f = f < first ? f : first;
		e = e > end ? e : end;
		also[j].got = !extra && (lo & 3) == 0 && e - f <= PMON_PLAN_SPAN;
		if (also[j].got) {
			first = f;
			end = e;
		}
	}
	if (!(b = plan_block(p, r, first, end)))
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		plan_ctr(b, t, idx[i], off[i], &val[idx[i]]);
	for (int j = 0; j < nalso && b->nalso < (int)(sizeof b->also / sizeof b->also[0]); j++) {
		if (!also[j].got)
			continue;
		struct pmon_plan_also *x = &b->also[b->nalso++];
		x->lo = (uint16_t)((alo[j] - first) / 4);
		x->has_hi = ahi[j] != 0;
		x->hi = ahi[j] ? (uint16_t)((ahi[j] - first) / 4) : 0;
		b->want |= 1ull << x->lo | (uint64_t)x->has_hi << x->hi;
		x->also = &also[j];
	}
	return PMON_OK;
}

int pmon_reg_plan_seal(struct pmon_reg_plan *p)
{
	int nmv = 0;
	free(p->req);
	free(p->mv);
	p->nreq = p->nctr = p->nmv = 0;
	p->mv = NULL;
	p->mv_ctr_end = p->mv_end = NULL;
	p->msr_end = NULL;
	for (int i = 0; i < p->nblk; i++)
		nmv += p->blk[i].nctr + p->blk[i].nalso;
	if (!(p->req = calloc((size_t)(p->nblk + p->nmsr + 1), sizeof(*p->req))) ||
	    !(p->mv = calloc((size_t)nmv + 1, sizeof(*p->mv))))
		return PMON_ENOMEM;
	for (int i = 0; i < p->nblk; i++) {
		struct pmon_plan_block *b = &p->blk[i];
		p->req[p->nreq++] = (struct pmon_read_req){ .ndw = b->ndw, .d = b->r->pci,
							    .off = b->first, .dw = b->dw, .want = b->want };
		for (int c = 0; c < b->nctr; c++)
			p->mv[p->nmv++] = (struct pmon_plan_move){ &b->dw[b->ctr[c].dw],
								   &b->dw[b->ctr[c].dw + 1],
								   b->ctr[c].mask, b->ctr[c].val, b, NULL };
	}
	p->nctr = p->nmv;
	for (int i = 0; i < p->nblk; i++) {
		struct pmon_plan_block *b = &p->blk[i];
		for (int j = 0; j < b->nalso; j++) {
			const struct pmon_plan_also *x = &b->also[j];
			p->mv[p->nmv++] = (struct pmon_plan_move){
				&b->dw[x->lo], &b->dw[x->has_hi ? x->hi : x->lo],
				x->has_hi ? ~0ull : 0xFFFFFFFFull, NULL, b, x->also };
		}
	}
	for (int i = 0; i < p->nmsr; i++) {
		struct pmon_plan_msr *x = &p->msr[i];
		p->req[p->nreq++] = (struct pmon_read_req){ .cpu = x->cpu, .msr = x->msr, .val = &x->raw };
	}
	p->mv_ctr_end = p->mv + p->nctr;
	p->mv_end = p->mv + p->nmv;
	p->msr_end = p->nmsr ? p->msr + p->nmsr : p->msr;
	return PMON_OK;
}

/* The batch one request at a time, for a backend without read_batch. */
static int run_singly(struct pmon_access *a, struct pmon_reg_plan *p, int *bad, uint64_t *now,
		      char *why, size_t whylen)
{
	int rc = 0;
	for (*bad = 0; *bad < p->nreq; (*bad)++) {
		const struct pmon_read_req *q = &p->req[*bad];
		if ((rc = q->ndw ? a->ops->pci_read_block(a, q->d, q->off, q->dw, q->ndw, why, whylen)
			 : a->ops->msr_read(a, q->cpu, q->msr, q->val, why, whylen)))
			return rc;
	}
	*now = pmon_clock_ns(a);
	return PMON_OK;
}

/* The block counter x of a run, whose low dword is near its carry: read
 * once more. */
static int recheck(struct pmon_access *a, const struct pmon_plan_move *x, uint64_t *v, char *why,
		   size_t whylen)
{
	const struct pmon_plan_block *b = x->b;
	return pci_counter_of(a, b->r->pci, b->first + 4u * (uint32_t)(x->lo - b->dw), x->lo, v, why,
			      whylen);
}

const struct pmon_box_regs *pmon_reg_plan_failed(const struct pmon_reg_plan *p, int bad)
{
	return bad < p->nblk ? p->blk[bad].r : p->msr[bad - p->nblk].r;
}

/* The moves of a run from the counter from on, each counter in the tear
 * window read again. */
int pmon_reg_plan_settle(struct pmon_machine *m, struct pmon_reg_plan *p,
			 const struct pmon_plan_move *from, const struct pmon_box_regs **failed,
			 char *why, size_t whylen)
{
	const struct pmon_plan_move *x = from;
	int rc;
	for (; x < p->mv_ctr_end; x++) {
		uint64_t v = (uint64_t)*x->hi << 32 | *x->lo;
		if (pmon_tear_possible(*x->lo) && (rc = recheck(m->acc, x, &v, why, whylen))) {
			*failed = x->b->r;
			return rc;
		}
		*x->val = v & x->mask;
	}
	pmon_reg_plan_rest(p, x);
	return PMON_OK;
}

/* The run of an empty plan or on a backend without read_batch. */
int pmon_reg_plan_run_all(struct pmon_machine *m, struct pmon_reg_plan *p, uint64_t *now,
			  const struct pmon_box_regs **failed, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	int rc, bad = 0;
	if (!p->nreq) {
		p->differs = 0;
		*now = pmon_clock_ns(a);
		return PMON_OK;
	}
	if ((rc = run_singly(a, p, &bad, now, why, whylen))) {
		*failed = pmon_reg_plan_failed(p, bad);
		return rc;
	}
	return pmon_reg_plan_settle(m, p, p->mv, failed, why, whylen);
}

void pmon_reg_plan_free(struct pmon_reg_plan *p)
{
	free(p->blk);
	free(p->msr);
	free(p->req);
	free(p->mv);
	memset(p, 0, sizeof(*p));
}

int pmon_reg_write(struct pmon_machine *m, const struct pmon_box_regs *r,
		   enum pmon_reg_kind k, int idx, uint64_t val, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	if (!reg_exists(r, k, idx) || !allowed_address(r, k, idx)) {
		char name[160];
		pmon_reg_name(r, k, idx, name, sizeof(name));
		return pmon_why(why, whylen, PMON_EINVAL, "%s is outside the PMON registers pmon may "
				"write: not written", name);
	}
	if (r->t->space != PMON_SPACE_PCI)
		return a->ops->msr_write(a, r->cpu, msr_addr(r, k, idx), val, why, whylen);
	uint16_t lo, hi;
	int extra, rc;
	pci_offsets(r, k, idx, &lo, &hi, &extra);
	if (extra && !r->has_extra)
		return missing_extra(r, why, whylen);
	pmon_pci_addr_t d = extra ? r->extra : r->pci;
	if ((rc = a->ops->pci_write(a, d, lo, (uint32_t)val, why, whylen)))
		return rc;
	return hi ? a->ops->pci_write(a, d, hi, (uint32_t)(val >> 32), why, whylen) : PMON_OK;
}

int pmon_reg_read_config(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			 char *why, size_t whylen)
{
	return a->ops->pci_read(a, d, off, val, why, whylen);
}

/* Does box r have register (k, idx)? */
static int reg_exists(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx)
{
	const struct pmon_box_type *t = r->t;
	switch (k) {
	case REG_BOX_CTL: return idx == 0 && t->has_box_ctl;
	case REG_CTL: case REG_CTR: return idx >= 0 && idx < t->ncounters;
	case REG_FIXED_CTL: case REG_FIXED_CTR: return idx == 0 && t->has_fixed;
	case REG_FILTER:
		return idx >= 0 && idx < t->nfregs && (!t->fregs[idx].extra_dev || r->has_extra);
	case REG_GLOBAL_CTL: return idx == 0 && t->msr_glb_ctl;
	case REG_GLOBAL_OVF: return idx == 0 && t->msr_glb_ctl && t->msr_glb_ovf && t->msr_glb_status;
	}
	return 0;
}

uint64_t pmon_reg_writable(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx)
{
	const struct pmon_box_type *t = r->t;
	switch (k) {
	case REG_BOX_CTL: return PMON_BOX_FRZ | PMON_BOX_FRZ_EN;
	case REG_CTL: return (uint64_t)t->ctl_valid | PMON_CTL_EN;
	case REG_FIXED_CTL: return (uint64_t)t->fixed_en | t->fixed_rst;
	case REG_FILTER: return t->fregs[idx].valid;
	case REG_GLOBAL_CTL: case REG_GLOBAL_OVF: return pmon_bits(t->ncounters) | t->glb_fixed_bit;
	case REG_CTR: case REG_FIXED_CTR: break;
	}
	return 0;
}

/* The uncore PMON MSRs of the SDM: SNB-EP's boxes (0xC00-0xDFF); the Xeon
 * 5500/5600 uncore PMU (vol. 3B's uncore facility, vol. 4's MSR list): its
 * global control, status, overflow control, fixed counter and fixed
 * control (0x391-0x395), the QHL address/opcode matcher (0x396), the
 * counters (0x3B0-0x3B7), the event selects (0x3C0-0x3C7) and
 * MSR_GQ_SNOOP_MESF (0x301). */
static const struct { uint32_t lo, hi; } uncore_msrs[] = {
	{ 0xc00, 0xdff }, { 0x301, 0x301 }, { 0x391, 0x396 }, { 0x3b0, 0x3b7 }, { 0x3c0, 0x3c7 },
};

/* Is the register's address in the documented PMON set (regs.h)? */
static int allowed_address(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx)
{
	if (r->t->space == PMON_SPACE_CORE) {
		uint32_t a = msr_addr(r, k, idx);
		return (a >= 0x186 && a <= 0x18d) || (a >= 0xc1 && a <= 0xc4) || a == 0x38d ||
		       a == IA32_PERF_GLOBAL_CTRL || a == 0x1a6 || a == 0x1a7;
	}
	if (r->t->space == PMON_SPACE_MSR) {
		uint32_t a = msr_addr(r, k, idx);
		for (int i = 0; i < PMON_ARRAY_SIZE(uncore_msrs); i++)
			if (a >= uncore_msrs[i].lo && a <= uncore_msrs[i].hi)
				return 1;
		return 0;
	}
	uint16_t lo, hi;
	int extra;
	pci_offsets(r, k, idx, &lo, &hi, &extra);
	return lo >= 0x40 && lo < 0x300 && !(lo & 3) && (!hi || (hi >= 0x40 && hi < 0x300 && !(hi & 3)));
}

int pmon_reg_check(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, uint64_t value,
		   uint64_t mask, char *why, size_t whylen)
{
	const char *pmu = pmon_catalog_pmu(r->pmu)->name;
	if (k == REG_CTR || k == REG_FIXED_CTR)
		return pmon_why(why, whylen, PMON_EINVAL, "names a counter of %s: pmon never writes "
				"one", pmu);
	if (!reg_exists(r, k, idx))
		return pmon_why(why, whylen, PMON_EINVAL, "%s has no such register (kind %d, index %d)",
				pmu, (int)k, idx);
	char name[160];
	pmon_reg_name(r, k, idx, name, sizeof(name));
	if (!allowed_address(r, k, idx))
		return pmon_why(why, whylen, PMON_EINVAL, "%s is outside the PMON registers pmon may "
				"write", name);
	uint64_t w = pmon_reg_writable(r, k, idx);
	if (k == REG_GLOBAL_CTL || k == REG_GLOBAL_OVF) {
		if (mask & ~w)
			return pmon_why(why, whylen, PMON_EINVAL, "%s: mask 0x%llx holds bits that enable "
					"no counter of %s (0x%llx)", name, (unsigned long long)mask,
					pmu, (unsigned long long)w);
		if (mask && (value & ~mask))
			return pmon_why(why, whylen, PMON_EINVAL, "%s: value 0x%llx sets bits outside "
					"its mask 0x%llx, which are not pmon's", name,
					(unsigned long long)value, (unsigned long long)mask);
		return PMON_OK;
	}
	if (!mask)
		return PMON_OK;      /* another agent's value, never written */
	if (mask != ~0ull)
		return pmon_why(why, whylen, PMON_EINVAL, "%s: mask 0x%llx is neither all of it nor "
				"none", name, (unsigned long long)mask);
	if (value & ~w)
		return pmon_why(why, whylen, PMON_EINVAL, "%s: value 0x%llx sets bits software may not "
				"set (0x%llx)", name, (unsigned long long)value,
				(unsigned long long)(value & ~w));
	return PMON_OK;
}

int pmon_reg_name(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, char *buf,
		  size_t len)
{
	if (!reg_exists(r, k, idx))
		return snprintf(buf, len, "%s %s register %d (none such)", pmon_catalog_pmu(r->pmu)->name,
				k == REG_FILTER ? "filter" : "PMON", idx);
	const char *pmu = pmon_catalog_pmu(r->pmu)->name;
	char reg[48], where[64];
	switch (k) {
	case REG_BOX_CTL: snprintf(reg, sizeof(reg), "BOX_CTL"); break;
	case REG_CTL: snprintf(reg, sizeof(reg), "CTL%d", idx); break;
	case REG_CTR: snprintf(reg, sizeof(reg), "CTR%d", idx); break;
	case REG_FIXED_CTL: snprintf(reg, sizeof(reg), "FIXED_CTL"); break;
	case REG_FIXED_CTR: snprintf(reg, sizeof(reg), "FIXED_CTR"); break;
	case REG_FILTER: snprintf(reg, sizeof(reg), "%s", r->t->fregs[idx].name); break;
	case REG_GLOBAL_CTL:
		snprintf(reg, sizeof(reg), "%s", r->t->space == PMON_SPACE_CORE ? "IA32_PERF_GLOBAL_CTRL"
			 : "PERF_GLOBAL_CTRL");
		break;
	case REG_GLOBAL_OVF: snprintf(reg, sizeof(reg), "PERF_GLOBAL_OVF_CTRL"); break;
	}
	if (k == REG_GLOBAL_OVF) {
		snprintf(where, sizeof(where), "MSR 0x%x, status 0x%x", msr_addr(r, k, idx),
			 msr_read_addr(r, k, idx));
	} else if (r->t->space != PMON_SPACE_PCI || k == REG_GLOBAL_CTL) {
		snprintf(where, sizeof(where), "MSR 0x%x", msr_addr(r, k, idx));
	} else {
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, k, idx, &lo, &hi, &extra);
		pmon_pci_addr_t d = extra ? r->extra : r->pci;
		snprintf(where, sizeof(where), "PCI %04x:%02x:%02x.%x offset 0x%x", d.domain, d.bus,
			 d.dev, d.func, lo);
	}
	if (r->t->space == PMON_SPACE_CORE)
		return snprintf(buf, len, "%s cpu %d %s (%s)", pmu, r->cpu, reg, where);
	return snprintf(buf, len, "%s socket %d %s (%s)", pmu, r->socket, reg, where);
}
