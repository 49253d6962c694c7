/* regs.c - register addresses of a box instance and MSR/PCI access to them. */
#include <stdio.h>

#include "regs.h"

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

int pmon_reg_read(struct pmon_machine *m, const struct pmon_box_regs *r,
		  enum pmon_reg_kind k, int idx, uint64_t *val)
{
	struct pmon_access *a = m->acc;
	int rc;
	if (k == REG_GLOBAL_CTL && r->t->space != PMON_SPACE_CORE)
		return PMON_EINVAL;
	if (r->t->space != PMON_SPACE_PCI) {
		rc = a->ops->msr_read(a, r->cpu, msr_addr(r, k, idx), val);
		if (!rc && (k == REG_CTR || k == REG_FIXED_CTR))
			*val &= (1ull << counter_width(r, k)) - 1;
		return rc;
	}
	uint16_t lo, hi;
	int extra;
	pci_offsets(r, k, idx, &lo, &hi, &extra);
	if (extra && !r->has_extra) {
		pmon_access_set_why(a, "%s: the match/mask PCI function is missing",
				    pmon_catalog_pmu(r->pmu)->name);
		return PMON_ENODEV;
	}
	pmon_pci_addr_t d = extra ? r->extra : r->pci;
	uint32_t l, h1 = 0, h2 = 0;
	if (!hi) {
		rc = a->ops->pci_read(a, d, lo, &l);
		*val = l;
		return rc;
	}
	/* a counter may carry between the two dword reads: read high, low,
	 * high, and retry when the high half moved */
	for (int tries = 0; tries < 4; tries++) {
		if ((rc = a->ops->pci_read(a, d, hi, &h1)) || (rc = a->ops->pci_read(a, d, lo, &l)) ||
		    (rc = a->ops->pci_read(a, d, hi, &h2)))
			return rc;
		if (h1 == h2)
			break;
	}
	*val = ((uint64_t)h2 << 32) | l;
	if (k == REG_CTR || k == REG_FIXED_CTR)
		*val &= (1ull << counter_width(r, k)) - 1;
	return PMON_OK;
}

int pmon_reg_write(struct pmon_machine *m, const struct pmon_box_regs *r,
		   enum pmon_reg_kind k, int idx, uint64_t val)
{
	struct pmon_access *a = m->acc;
	if (k == REG_GLOBAL_CTL && r->t->space != PMON_SPACE_CORE)
		return PMON_EINVAL;
	if (r->t->space != PMON_SPACE_PCI)
		return a->ops->msr_write(a, r->cpu, msr_addr(r, k, idx), val);
	uint16_t lo, hi;
	int extra, rc;
	pci_offsets(r, k, idx, &lo, &hi, &extra);
	if (extra && !r->has_extra) {
		pmon_access_set_why(a, "%s: the match/mask PCI function is missing",
				    pmon_catalog_pmu(r->pmu)->name);
		return PMON_ENODEV;
	}
	pmon_pci_addr_t d = extra ? r->extra : r->pci;
	if ((rc = a->ops->pci_write(a, d, lo, (uint32_t)val)))
		return rc;
	return hi ? a->ops->pci_write(a, d, hi, (uint32_t)(val >> 32)) : PMON_OK;
}
