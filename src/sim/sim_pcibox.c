/*
 * sim_pcibox.c - the PMON register block every PCI box has: BOX_CTL 0xF4,
 * CTL n at 0xD8 + 4n, CTR n as two dwords at 0xA0 + 8n (low) and 0xA4 + 8n
 * (high); the iMC adds FIXED_CTL 0xF0 and FIXED_CTR 0xD0/0xD4.
 */
#include <string.h>

#include "sim_internal.h"

#define PB_BOX_CTL   0xF4
#define PB_CTL0      0xD8
#define PB_CTR0      0xA0
#define PB_FIXED_CTL 0xF0
#define PB_FIXED_CTR 0xD0

int sim_pcibox_read(struct sim_box *b, uint32_t off, uint32_t *val)
{
	const struct sim_kind *k = b->kind;
	const struct sim_ctr *c = NULL;

	if (off == PB_BOX_CTL) {
		*val = 0;                     /* write-only */
		return 1;
	}
	if (off >= PB_CTL0 && off < PB_CTL0 + 4u * (unsigned)k->nctr) {
		if ((off - PB_CTL0) % 4)
			return 0;
		*val = (uint32_t)b->ctr[(off - PB_CTL0) / 4].ctl;
		return 1;
	}
	if (k->has_fixed && off == PB_FIXED_CTL) {
		*val = (uint32_t)b->fixed.ctl;
		return 1;
	}
	if (off >= PB_CTR0 && off < PB_CTR0 + 8u * (unsigned)k->nctr)
		c = &b->ctr[(off - PB_CTR0) / 8];
	else if (k->has_fixed && (off == PB_FIXED_CTR || off == PB_FIXED_CTR + 4))
		c = &b->fixed;
	if (!c)
		return 0;
	*val = (off & 4) ? (uint32_t)(c->val >> 32) : (uint32_t)c->val;
	return 1;
}

/* The dwords off .. off + 4 * (ndw - 1) of the box's function, all at or
 * above PB_CTR0 (the block a session reads its counters and controls
 * with): zeroed, then each register that falls in the window written in
 * place (one unsigned compare each; nothing read back).  Also called
 * without the machine's lock (sim_access.c), hence the atomic loads. */
void sim_pcibox_read_block(const struct sim_box *b, uint32_t off, uint32_t *val, int ndw)
{
	const struct sim_kind *k = b->kind;
	uint32_t span = 4u * (uint32_t)ndw;

	memset(val, 0, span);
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define PUT(o, v) do { uint32_t at_ = (o) - off; if (at_ < span) val[at_ / 4] = (uint32_t)(v); } while (0)
	for (int i = 0; i < k->nctr; i++) {
		uint64_t v = LOAD(b->ctr[i].val);
		PUT(PB_CTR0 + 8u * (uint32_t)i, v);
		PUT(PB_CTR0 + 8u * (uint32_t)i + 4, v >> 32);
		PUT(PB_CTL0 + 4u * (uint32_t)i, LOAD(b->ctr[i].ctl));
	}
	if (k->has_fixed) {
		uint64_t v = LOAD(b->fixed.val);
		PUT(PB_FIXED_CTR, v);
		PUT(PB_FIXED_CTR + 4, v >> 32);
		PUT(PB_FIXED_CTL, LOAD(b->fixed.ctl));
	}
#undef PUT
#undef LOAD
}

static void write_half(struct pmon_sim *sim, struct sim_box *b, int i, uint32_t off,
		       uint32_t v)
{
	struct sim_ctr *c = i < 0 ? &b->fixed : &b->ctr[i];
	char name[16];

	if (!(off & 4)) {
		c->val = (c->val & ~0xFFFFFFFFull) | v;
		return;
	}
	uint64_t hmask = c->mask >> 32;
	if (v & ~hmask) {
		if (i < 0)
			sim_violation(sim, v & ~hmask, "%s FIXED_CTR high dword",
				      sim_box_name(b, name, sizeof name));
		else
			sim_violation(sim, v & ~hmask, "%s CTR%d high dword",
				      sim_box_name(b, name, sizeof name), i);
	}
	c->val = (c->val & 0xFFFFFFFFull) | ((uint64_t)(v & hmask) << 32);
}

int sim_pcibox_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val)
{
	const struct sim_kind *k = b->kind;

	if (off == PB_BOX_CTL) {
		sim_box_write_boxctl(sim, b, val);
		return 1;
	}
	if (off >= PB_CTL0 && off < PB_CTL0 + 4u * (unsigned)k->nctr && !((off - PB_CTL0) % 4)) {
		sim_box_write_ctl(sim, b, (int)((off - PB_CTL0) / 4), val);
		return 1;
	}
	if (k->has_fixed && off == PB_FIXED_CTL) {
		sim_box_write_fixed_ctl(sim, b, val);
		return 1;
	}
	if (off >= PB_CTR0 && off < PB_CTR0 + 8u * (unsigned)k->nctr) {
		write_half(sim, b, (int)((off - PB_CTR0) / 8), off, val);
		return 1;
	}
	if (k->has_fixed && (off == PB_FIXED_CTR || off == PB_FIXED_CTR + 4)) {
		write_half(sim, b, -1, off, val);
		return 1;
	}
	return 0;
}
