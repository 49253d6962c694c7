/*
 * sim_pcibox.c - the PMON register block every PCI box has: BOX_CTL 0xF4,
 * CTL n at 0xD8 + 4n, CTR n as two dwords at 0xA0 + 8n (low) and 0xA4 + 8n
 * (high); the iMC adds FIXED_CTL 0xF0 and FIXED_CTR 0xD0/0xD4.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_log.h"
#include "sim_space.h"

#define PB_BOX_CTL   0xF4
#define PB_CTL0      0xD8
#define PB_CTR0      0xA0
#define PB_FIXED_CTL 0xF0
#define PB_FIXED_CTR 0xD0

/* What a dword without a PMON register reads. */
static const uint64_t no_reg;

/* The register the dword at off (dword-aligned, not BOX_CTL) shows: *src,
 * whose bits from *shift up it reads; &no_reg (and 0) when there is none. */
static int reg_at(const struct sim_box *b, uint32_t off, const uint64_t **src, unsigned *shift)
{
	const struct sim_kind *k = b->kind;
	uint32_t nctr = (uint32_t)k->nctr;

	*shift = off & 4 ? 32 : 0;
	if (off >= PB_CTR0 && off < PB_CTR0 + 8u * nctr) {
		*src = &b->ctr[(off - PB_CTR0) / 8].val;
		return 1;
	}
	if (k->has_fixed && (off == PB_FIXED_CTR || off == PB_FIXED_CTR + 4)) {
		*src = &b->fixed.val;
		return 1;
	}
	*shift = 0;
	if (off >= PB_CTL0 && off < PB_CTL0 + 4u * nctr) {
		*src = &b->ctr[(off - PB_CTL0) / 4].ctl;
		return 1;
	}
	if (k->has_fixed && off == PB_FIXED_CTL) {
		*src = &b->fixed.ctl;
		return 1;
	}
	*src = &no_reg;
	return 0;
}

int sim_pcibox_read(struct sim_box *b, uint32_t off, uint32_t *val)
{
	const uint64_t *src;
	unsigned shift;

	if (off == PB_BOX_CTL) {
		*val = 0;                     /* write-only */
		return 1;
	}
	if ((off & 3) || !reg_at(b, off, &src, &shift))
		return 0;
	*val = (uint32_t)(*src >> shift);
	return 1;
}

/* A PMON block as a read plan asks for it at every read, worked out once
 * (sim_pcibox_window), its wanted dwords (all when want is 0) as steps: up
 * to pairs_end 8-byte copies (a counter whose two dwords are both wanted:
 * they are its bytes in order, low first; or two wanted dwords without a
 * register, from a zero), then up to end the other wanted dwords, 4 bytes
 * each from bit shift up of their register (half a counter, a control, or
 * 0). */
struct sim_window {
	struct sim_window *next;
	const struct sim_box *b;
	uint32_t off;
	int ndw;
	uint64_t want;
	const struct sim_window_step *pairs_end, *end;   /* in step[] */
	struct sim_window_step {
		const uint64_t *src;
		uint16_t at;            /* first dword */
		uint8_t shift;
	} step[];
};

/* Is dword i of a window wanted?  Beyond bit 63 only when all are. */
static int wanted(uint64_t want, int i)
{
	return !want || (i < 64 && (want >> i & 1));
}

/* The wanted dwords of a window, worked out once (reg_at):
 * the 8-byte steps in a first pass over them, the others in a second. */
const struct sim_window *sim_pcibox_window(struct pmon_sim *sim, const struct sim_box *b,
					   uint32_t off, int ndw, uint64_t want)
{
	struct sim_window *w;

	for (w = sim->windows; w; w = w->next)
		if (w->b == b && w->off == off && w->ndw == ndw && w->want == want)
			return w;
	if (!(w = malloc(sizeof *w + (size_t)ndw * sizeof w->step[0])))
		return NULL;
	w->b = b;
	w->off = off;
	w->ndw = ndw;
	w->want = want;
	int nstep = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < ndw;) {
			const uint64_t *src, *src2;
			unsigned shift, shift2;
			if (!wanted(want, i)) {
				i++;
				continue;
			}
			int reg = reg_at(b, off + 4u * (uint32_t)i, &src, &shift), pair = 0;
			if (i + 1 < ndw && wanted(want, i + 1)) {
				int reg2 = reg_at(b, off + 4u * (uint32_t)i + 4, &src2, &shift2);
				pair = reg ? reg2 && src2 == src && shift == 0 && shift2 == 32 : !reg2;
			}
			if (pair == !pass)
				w->step[nstep++] = (struct sim_window_step){ src, (uint16_t)i,
										(uint8_t)shift };
			i += pair ? 2 : 1;
		}
		if (!pass)
			w->pairs_end = &w->step[nstep];
	}
	w->end = &w->step[nstep];
	w->next = sim->windows;
	sim->windows = w;
	return w;
}

/* Every wanted dword stored once (BOX_CTL, write-only, reads 0 as a dword
 * without a register does).  Also called without the machine's lock
 * (sim_access.c), hence the atomic loads.  Out of line: inlined in the
 * batch read's loop, it slowed a batch of MSR counters by a quarter. */
void sim_window_read(const struct sim_window *w, uint32_t *val)
{
	const struct sim_window_step *s = w->step;
	for (; s < w->pairs_end; s++) {
		uint64_t v = __atomic_load_n(s->src, __ATOMIC_RELAXED);
		memcpy(val + s->at, &v, 8);
	}
	for (; s < w->end; s++)
		val[s->at] = (uint32_t)(__atomic_load_n(s->src, __ATOMIC_RELAXED) >> s->shift);
}

void sim_windows_free(struct pmon_sim *sim)
{
	while (sim->windows) {
		struct sim_window *w = sim->windows;
		sim->windows = w->next;
		free(w);
	}
}

static void write_half(struct pmon_sim *sim, struct sim_box *b, int i, uint32_t off,
		       uint32_t v)
{
	struct sim_ctr *c = i < 0 ? &b->fixed : &b->ctr[i];
	char name[16];

	if (!(off & 4)) {
		SIM_PUT(c->val, (c->val & ~0xFFFFFFFFull) | v);
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
	SIM_PUT(c->val, (c->val & 0xFFFFFFFFull) | ((uint64_t)(v & hmask) << 32));
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
