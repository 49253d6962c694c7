/*
 * sim_box.c - what every PMON unit shares: counters (width, threshold,
 * invert, edge), counter controls, box control (freeze, resets), filters.
 */
#include <stdio.h>
#include <string.h>

#include "sim_clock.h"
#include "sim_log.h"

void sim_ctr_init(struct sim_ctr *c, int width)
{
	memset(c, 0, sizeof *c);
	c->mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	c->clock = -1;
	c->per_cycle = 1;
}

unsigned sim_kind_thresh(const struct sim_kind *k, uint64_t ctl)
{
	return (unsigned)(ctl >> 24) & ((1u << k->thresh_bits) - 1);
}

void sim_ctr_set_ctl(struct pmon_sim *sim, struct sim_ctr *c, const struct sim_kind *k,
		     uint64_t ctl)
{
	SIM_PUT(c->ctl, ctl);
	c->enabled = (ctl & SIM_CTL_EN) != 0;
	c->thresh = (uint8_t)sim_kind_thresh(k, ctl);
	c->invert = (ctl & SIM_CTL_INVERT) != 0;
	c->edge = (ctl & SIM_CTL_EDGE) != 0;
	c->prev = 0;
	c->clock = -1;
	c->sig = 0;
	c->arg = 0;
	c->per_cycle = 1;
	k->decode(c, (uint32_t)ctl);
	sim_clock_mark(sim);
}

/* A clock event: an increment of per_cycle in each of `cycles` cycles. */
void sim_ctr_cycles(struct sim_ctr *c, uint64_t cycles)
{
	int out;

	if (!cycles)
		return;
	if (!c->thresh) {
		sim_ctr_add(c, cycles * c->per_cycle);
		return;
	}
	out = c->invert ? (c->per_cycle < c->thresh) : (c->per_cycle >= c->thresh);
	if (c->edge) {
		if (out && !c->prev)
			sim_ctr_add(c, 1);
	} else if (out) {
		sim_ctr_add(c, cycles);
	}
	c->prev = (uint8_t)out;
}


const char *sim_box_name(const struct sim_box *b, char *buf, size_t len)
{
	if (b->kind->multi)
		snprintf(buf, len, "%s%d", b->kind->label, b->inst);
	else
		snprintf(buf, len, "%s", b->kind->label);
	return buf;
}

void sim_box_init(struct sim_box *b, const struct sim_kind *k, int socket, int inst)
{
	memset(b, 0, sizeof *b);
	b->kind = k;
	b->pq.cpu = -1;
	b->socket = socket;
	b->inst = inst;
	for (int i = 0; i < 4; i++)
		sim_ctr_init(&b->ctr[i], k->width);
	sim_ctr_init(&b->fixed, k->has_fixed ? k->fixed_width : 48);
}

/* sim->rel_any: what the boxes with SIM_REL_* bits (CBos, QPI ports) may
 * count, together. */
static void rel_union(struct pmon_sim *sim)
{
	uint32_t any = 0;

	for (int s = 0; s < sim->shape.sockets; s++) {
		for (int i = 0; i < sim->shape.cores; i++)
			any |= sim->sock[s].cbo[i].rel;
		for (int l = 0; l < 2; l++)
			any |= sim->sock[s].qpi[l].rel;
	}
	sim->rel_any = any;
}

void sim_box_refresh(struct pmon_sim *sim, struct sim_box *b)
{
	int frozen = b->frz_en && b->frz;

	b->mon = 0;
	for (int i = 0; i < b->kind->nctr; i++) {
		struct sim_ctr *c = &b->ctr[i];
		c->active = c->enabled && !frozen && (c->clock >= 0 || c->sig);
		if (c->active)
			b->mon |= c->sig;
	}
	if (b->kind->relevant) {
		b->rel = b->kind->relevant(b);
		rel_union(sim);
	}
	if (b->kind->has_fixed)
		b->fixed.active = b->fixed.enabled && !frozen;
	sim_clock_mark(sim);
}

void sim_box_write_boxctl(struct pmon_sim *sim, struct sim_box *b, uint64_t v)
{
	const struct sim_kind *k = b->kind;
	uint64_t bad = v & ~(uint64_t)k->box_valid;
	char name[16];

	if (bad)
		sim_violation(sim, bad, "%s BOX_CTL", sim_box_name(b, name, sizeof name));
	v &= k->box_valid;
	if (v & SIM_BOX_RST_CTRL)
		for (int i = 0; i < k->nctr; i++)
			sim_ctr_set_ctl(sim, &b->ctr[i], k, 0);
	if (v & SIM_BOX_RST_CTRS)
		for (int i = 0; i < k->nctr; i++)
			SIM_PUT(b->ctr[i].val, 0);
	b->frz_en = (v & SIM_BOX_FRZ_EN) != 0;
	b->frz = (v & SIM_BOX_FRZ) != 0;
	sim_box_refresh(sim, b);
}

void sim_box_write_ctl(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v)
{
	const struct sim_kind *k = b->kind;
	struct sim_ctr *c = &b->ctr[i];
	uint64_t bad = v & ~(uint64_t)k->ctl_valid;
	char name[16];

	if (bad)
		sim_violation(sim, bad, "%s CTL%d", sim_box_name(b, name, sizeof name), i);
	v &= k->ctl_valid;
	if (v & k->ctl_wo & SIM_CTL_RST)
		SIM_PUT(c->val, 0);
	v &= ~(uint64_t)k->ctl_wo;
	sim_ctr_set_ctl(sim, c, k, v);
	sim_box_refresh(sim, b);
}

void sim_box_write_ctr(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v)
{
	struct sim_ctr *c = i < 0 ? &b->fixed : &b->ctr[i];
	uint64_t bad = v & ~c->mask;
	char name[16];

	if (bad) {
		if (i < 0)
			sim_violation(sim, bad, "%s FIXED_CTR", sim_box_name(b, name, sizeof name));
		else
			sim_violation(sim, bad, "%s CTR%d", sim_box_name(b, name, sizeof name), i);
	}
	SIM_PUT(c->val, v & c->mask);
}

void sim_box_write_fixed_ctl(struct pmon_sim *sim, struct sim_box *b, uint64_t v)
{
	const struct sim_kind *k = b->kind;
	uint64_t bad = v & ~(uint64_t)k->fixed_valid;
	char name[16];

	if (bad)
		sim_violation(sim, bad, "%s FIXED_CTL", sim_box_name(b, name, sizeof name));
	v &= k->fixed_valid;
	if (v & k->fixed_wo)
		SIM_PUT(b->fixed.val, 0);
	v &= ~(uint64_t)k->fixed_wo;
	SIM_PUT(b->fixed.ctl, v);
	b->fixed.enabled = (v & SIM_CTL_EN) != 0;
	b->fixed.clock = k->fixed_clock;
	sim_box_refresh(sim, b);
}

void sim_box_write_reg(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v,
		       uint32_t valid, const char *regname)
{
	uint64_t bad = v & ~(uint64_t)valid;
	char name[16];

	if (bad)
		sim_violation(sim, bad, "%s %s", sim_box_name(b, name, sizeof name), regname);
	b->reg[i] = (uint32_t)(v & valid);
}

void sim_box_signal_counted(struct sim_box *b, uint32_t sigs, uint64_t n)
{
	for (int i = 0; i < b->kind->nctr; i++) {
		struct sim_ctr *c = &b->ctr[i];
		uint32_t hit = c->sig & sigs;
		if (c->active && hit)
			sim_ctr_events(c, n * (uint64_t)__builtin_popcount(hit));
	}
}
