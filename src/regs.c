/* regs.c - register addresses of a box instance and MSR/PCI access to them:
 * every register access of the engine goes through here. */
#include <stdio.h>

#include "fold.h"
#include "regs.h"
#include "why.h"

#define IA32_PERF_GLOBAL_CTRL 0x38f

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
	case REG_GLOBAL_CTL: return IA32_PERF_GLOBAL_CTRL;
	}
	return 0;
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
	case REG_GLOBAL_CTL: *lo = 0; break;   /* refused before */
	}
}

/* A PCI counter is two dwords, low first; a block read fetches them in
 * ascending order, so the low dword may carry into the high one between the
 * two reads, which then pairs the old low dword with the new high one (2^32
 * too much).  That needs the counter to advance by more than 2^32 - low
 * between them, and the backend reads a block within PMON_BLOCK_SPAN_NS
 * (access.h: 100 us, a slower read is made again), in which the fastest
 * counter (fold.h: 64 counts per cycle of a 4 GHz clock) adds 25.6 M, less
 * than TEAR_WINDOW: only a low dword within TEAR_WINDOW of the carry is in
 * doubt.  Its counter is read once more: a low dword that has not gone down
 * means no carry since the first read (the first pair stands); one that went
 * down has just carried, and the second pair is far from the next carry, so
 * it stands. */
#define TEAR_WINDOW (1u << 26)
_Static_assert((uint64_t)PMON_BLOCK_SPAN_NS * (PMON_FOLD_MAX_HZ / 1000000000u) * PMON_FOLD_MAX_INC
	       < TEAR_WINDOW, "a block read's span must stay within the tear window");

static int tear_possible(uint32_t lo) { return lo >= 0u - TEAR_WINDOW; }

/* The widest block of counters read at once (bytes). */
#define PCI_SPAN_MAX 256

/* The counter whose two dwords are dw[0..1] of a block read at off: tear-free
 * (see TEAR_WINDOW). */
static int pci_counter_of(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, const uint32_t *dw,
			  uint64_t *val, char *why, size_t whylen)
{
	uint32_t lo = dw[0], hi = dw[1], again[2];
	int rc;
	if (tear_possible(lo)) {
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

/* The counters at offsets off[0..n-1] of d (two dwords each) into val[],
 * in one block read from the lowest to the end of the highest; the
 * registers of also[] in d whose dwords fit in a block of at most
 * PCI_SPAN_MAX bytes come with it (their got set). */
static int pci_counters(struct pmon_access *a, pmon_pci_addr_t d, const uint32_t *off, int n,
			uint64_t *val, const struct pmon_box_regs *r, struct pmon_reg_also *also,
			int nalso, char *why, size_t whylen)
{
	uint32_t dw[PCI_SPAN_MAX / 4], first = off[0], end = off[0] + 8;
	int rc;
	for (int i = 1; i < n; i++) {
		first = off[i] < first ? off[i] : first;
		end = off[i] + 8 > end ? off[i] + 8 : end;
	}
	if (end - first > PCI_SPAN_MAX) {      /* far apart: one block each */
		for (int i = 0; i < n; i++)
			if ((rc = pci_counters(a, d, &off[i], 1, &val[i], r, NULL, 0, why, whylen)))
				return rc;
		return PMON_OK;
	}
	for (int j = 0; j < nalso; j++) {
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, also[j].kind, also[j].idx, &lo, &hi, &extra);
		uint32_t f = lo, e = (hi > lo ? hi : lo) + 4u;
		if (hi && hi < lo)
			f = hi;
		f = f < first ? f : first;
		e = e > end ? e : end;
		also[j].got = !extra && (lo & 3) == 0 && e - f <= PCI_SPAN_MAX;
		if (also[j].got) {
			first = f;
			end = e;
		}
	}
	if ((rc = a->ops->pci_read_block(a, d, first, dw, (int)(end - first) / 4, why, whylen)))
		return rc;
	for (int i = 0; i < n; i++)
		if ((rc = pci_counter_of(a, d, off[i], &dw[(off[i] - first) / 4], &val[i], why, whylen)))
			return rc;
	for (int j = 0; j < nalso; j++) {
		if (!also[j].got)
			continue;
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, also[j].kind, also[j].idx, &lo, &hi, &extra);
		also[j].val = dw[(lo - first) / 4] | (hi ? (uint64_t)dw[(hi - first) / 4] << 32 : 0);
	}
	return PMON_OK;
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
	if (k == REG_GLOBAL_CTL && r->t->space != PMON_SPACE_CORE)
		return PMON_EINVAL;
	if (r->t->space != PMON_SPACE_PCI) {
		rc = a->ops->msr_read(a, r->cpu, msr_addr(r, k, idx), val, why, whylen);
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
		uint32_t at = lo;
		if ((rc = pci_counters(a, d, &at, 1, val, r, NULL, 0, why, whylen)))
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

int pmon_reg_read_counters(struct pmon_machine *m, const struct pmon_box_regs *r, uint32_t mask,
			   uint64_t *val, struct pmon_reg_also *also, int nalso, char *why, size_t whylen)
{
	for (int j = 0; j < nalso; j++)
		also[j].got = 0;
	const struct pmon_box_type *t = r->t;
	uint32_t off[PMON_MAX_COUNTERS + 1];
	uint64_t v[PMON_MAX_COUNTERS + 1];
	int idx[PMON_MAX_COUNTERS + 1], n = 0, rc;
	uint32_t mine = pmon_bits(t->ncounters) | (t->has_fixed ? PMON_FIXED_BIT : 0);
	if (!mask || (mask & ~mine))
		return pmon_why(why, whylen, PMON_EINVAL, "%s: counter set 0x%x is not the box's",
				pmon_catalog_pmu(r->pmu)->name, mask);
	for (int c = 0; c <= PMON_MAX_COUNTERS; c++) {
		if (!(mask & (1u << c)))
			continue;
		enum pmon_reg_kind k = c == PMON_MAX_COUNTERS ? REG_FIXED_CTR : REG_CTR;
		if (t->space != PMON_SPACE_PCI) {
			if ((rc = pmon_reg_read(m, r, k, c, &val[c], why, whylen)))
				return rc;
			continue;
		}
		uint16_t lo, hi;
		int extra;
		pci_offsets(r, k, c, &lo, &hi, &extra);
		off[n] = lo;
		idx[n++] = c;
	}
	if (!n)
		return PMON_OK;
	if ((rc = pci_counters(m->acc, r->pci, off, n, v, r, also, nalso, why, whylen)))
		return rc;
	for (int i = 0; i < n; i++)
		val[idx[i]] = v[i] & pmon_bits(idx[i] == PMON_MAX_COUNTERS ? t->fixed_width : t->width);
	return PMON_OK;
}

#define MSR_BATCH 64

int pmon_reg_read_msr_counters(struct pmon_machine *m, const struct pmon_reg_ref *ref, int n,
			       int *bad, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	int cpu[MSR_BATCH], rc;
	uint32_t msr[MSR_BATCH];
	uint64_t v[MSR_BATCH];
	for (int done = 0; done < n; done += MSR_BATCH) {
		int k = n - done < MSR_BATCH ? n - done : MSR_BATCH, at = 0;
		for (int i = 0; i < k; i++) {
			const struct pmon_reg_ref *x = &ref[done + i];
			if (x->r->t->space == PMON_SPACE_PCI || (x->kind != REG_CTR && x->kind != REG_FIXED_CTR)) {
				*bad = done + i;
				return pmon_why(why, whylen, PMON_EINVAL, "%s: not an MSR counter",
						pmon_catalog_pmu(x->r->pmu)->name);
			}
			cpu[i] = x->r->cpu;
			msr[i] = msr_addr(x->r, x->kind, x->idx);
		}
		if (a->ops->msr_read_batch)
			rc = a->ops->msr_read_batch(a, k, cpu, msr, v, &at, why, whylen);
		else
			for (rc = 0; at < k && !(rc = a->ops->msr_read(a, cpu[at], msr[at], &v[at], why, whylen));)
				at++;
		if (rc) {
			*bad = done + at;
			return rc;
		}
		for (int i = 0; i < k; i++) {
			const struct pmon_reg_ref *x = &ref[done + i];
			*x->val = v[i] & pmon_bits((unsigned)counter_width(x->r, x->kind));
		}
	}
	return PMON_OK;
}

int pmon_reg_write(struct pmon_machine *m, const struct pmon_box_regs *r,
		   enum pmon_reg_kind k, int idx, uint64_t val, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	if (k == REG_GLOBAL_CTL && r->t->space != PMON_SPACE_CORE)
		return PMON_EINVAL;
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

int pmon_reg_name(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, char *buf,
		  size_t len)
{
	const char *pmu = pmon_catalog_pmu(r->pmu)->name;
	char reg[48], where[64];
	switch (k) {
	case REG_BOX_CTL: snprintf(reg, sizeof(reg), "BOX_CTL"); break;
	case REG_CTL: snprintf(reg, sizeof(reg), "CTL%d", idx); break;
	case REG_CTR: snprintf(reg, sizeof(reg), "CTR%d", idx); break;
	case REG_FIXED_CTL: snprintf(reg, sizeof(reg), "FIXED_CTL"); break;
	case REG_FIXED_CTR: snprintf(reg, sizeof(reg), "FIXED_CTR"); break;
	case REG_FILTER: snprintf(reg, sizeof(reg), "%s", r->t->fregs[idx].name); break;
	case REG_GLOBAL_CTL: snprintf(reg, sizeof(reg), "IA32_PERF_GLOBAL_CTRL"); break;
	}
	if (r->t->space != PMON_SPACE_PCI || k == REG_GLOBAL_CTL) {
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
